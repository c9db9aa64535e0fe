# SPDX-License-Identifier: GPL-2.0-or-later
# Checks over the source tree itself.
TESTS += tests/tools/include_cycles.sh
EXTRA_DIST += tests/tools/include_cycles.sh
