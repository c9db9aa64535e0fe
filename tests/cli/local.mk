# SPDX-License-Identifier: GPL-2.0-or-later
# Command-line tests: the built binary against the fixture hosts.
TESTS += tests/cli/test_snapshot_cli.sh tests/cli/test_hostile_text_cli.sh
EXTRA_DIST += tests/cli/test_snapshot_cli.sh tests/cli/test_hostile_text_cli.sh
