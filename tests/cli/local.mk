# SPDX-License-Identifier: GPL-2.0-or-later
# Command-line tests: the built binary against the fixture hosts.
TESTS += tests/cli/test_snapshot_cli.sh
EXTRA_DIST += tests/cli/test_snapshot_cli.sh
TESTS += tests/cli/test_check_load_cli.sh
EXTRA_DIST += tests/cli/test_check_load_cli.sh
