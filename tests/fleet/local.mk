# SPDX-License-Identifier: GPL-2.0-or-later
# Fleet tests: check --json fanned out by pdsh over fixture hosts, report.
FLEET_SH_TESTS = tests/fleet/test_fleet_pdsh.sh tests/fleet/test_nhc_exit.sh \
	tests/fleet/test_fleet_forged.sh
TESTS += $(FLEET_SH_TESTS)
EXTRA_DIST += $(FLEET_SH_TESTS)
