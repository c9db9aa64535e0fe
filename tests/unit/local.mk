# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests: one cmocka program per module, tests/unit/test_<module>.c.
if HAVE_CMOCKA
UNIT_TESTS = tests/unit/test_attr tests/unit/test_json tests/unit/test_ib_sysfs \
	tests/unit/test_probe_cache tests/unit/test_escape
UNIT_TESTS += tests/unit/test_print
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
tests_unit_test_attr_SOURCES = tests/unit/test_attr.c
tests_unit_test_attr_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_attr_LDADD = $(UNIT_LDADD)
tests_unit_test_json_SOURCES = tests/unit/test_json.c tests/unit/unit.h
tests_unit_test_json_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_json_LDADD = $(UNIT_LDADD)
tests_unit_test_ib_sysfs_SOURCES = tests/unit/test_ib_sysfs.c tests/unit/unit.h
tests_unit_test_ib_sysfs_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ib_sysfs_LDADD = $(UNIT_LDADD)
tests_unit_test_probe_cache_SOURCES = tests/unit/test_probe_cache.c tests/unit/unit.h
tests_unit_test_probe_cache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_probe_cache_LDADD = $(UNIT_LDADD)
tests_unit_test_escape_SOURCES = tests/unit/test_escape.c tests/unit/unit.h
tests_unit_test_escape_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_escape_LDADD = $(UNIT_LDADD)
tests_unit_test_print_SOURCES = tests/unit/test_print.c tests/unit/unit.h
tests_unit_test_print_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_print_LDADD = $(UNIT_LDADD)
else
check-local: unit-tests-skipped
unit-tests-skipped:
	@echo "cmocka not found at configure time: unit tests skipped (apt-get install libcmocka-dev)"
endif
