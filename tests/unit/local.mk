# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests: one cmocka program per module, tests/unit/test_<module>.c.
if HAVE_CMOCKA
UNIT_TESTS = tests/unit/test_attr tests/unit/test_json tests/unit/test_ib_sysfs \
	tests/unit/test_probe_cache tests/unit/test_escape
UNIT_TESTS += tests/unit/test_print tests/unit/test_rate tests/unit/test_model
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
EXTRA_DIST += tests/unit/unit.h tests/unit/diag_snap.h tests/unit/nl_build.h \
	tests/unit/probe_unit.h
else
check-local: unit-tests-skipped
unit-tests-skipped:
	@echo "cmocka not found at configure time: unit tests skipped (apt-get install libcmocka-dev)"
endif
