# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/diag/diag.h src/diag/diag_int.h src/diag/diag.c \
	src/diag/checks.c \
	src/diag/check_port.c src/diag/check_qos.c src/diag/check_host.c \
	src/diag/check_driver.c src/diag/check_firmware.c \
	src/diag/check_counters.c \
	src/diag/data.c src/diag/data.h \
	src/diag/qos_model.c src/diag/qos_model.h \
	src/diag/explain.c src/diag/explain.h
src_librdmadiag_a_SOURCES += \
	src/diag/fixup.c src/diag/journal.c src/diag/journal.h

if HAVE_CMOCKA
DIAG_TESTS = tests/unit/test_diag_port tests/unit/test_diag_checks \
	tests/unit/test_diag_data tests/unit/test_diag_golden \
	tests/unit/test_journal tests/unit/test_qos_model
check_PROGRAMS += $(DIAG_TESTS)
TESTS += $(DIAG_TESTS)
tests_unit_test_diag_port_SOURCES = tests/unit/test_diag_port.c \
	tests/unit/diag_snap.h tests/unit/unit.h
tests_unit_test_diag_port_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diag_port_LDADD = $(UNIT_LDADD)
tests_unit_test_diag_checks_SOURCES = tests/unit/test_diag_checks.c \
	tests/unit/diag_snap.h tests/unit/unit.h
tests_unit_test_diag_checks_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diag_checks_LDADD = $(UNIT_LDADD)
tests_unit_test_diag_data_SOURCES = tests/unit/test_diag_data.c tests/unit/unit.h
tests_unit_test_diag_data_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diag_data_LDADD = $(UNIT_LDADD)
tests_unit_test_diag_golden_SOURCES = tests/unit/test_diag_golden.c tests/unit/unit.h
tests_unit_test_diag_golden_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diag_golden_LDADD = $(UNIT_LDADD)
tests_unit_test_qos_model_SOURCES = tests/unit/test_qos_model.c \
	tests/unit/diag_snap.h tests/unit/unit.h
tests_unit_test_qos_model_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_qos_model_LDADD = $(UNIT_LDADD)
tests_unit_test_journal_SOURCES = tests/unit/test_journal.c tests/unit/unit.h
tests_unit_test_journal_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_journal_LDADD = $(UNIT_LDADD)
DIAG_TESTS += tests/unit/test_counters_tsv
tests_unit_test_counters_tsv_SOURCES = tests/unit/test_counters_tsv.c \
	tests/unit/unit.h
tests_unit_test_counters_tsv_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_counters_tsv_LDADD = $(UNIT_LDADD)
endif
if HAVE_CMOCKA
DIAG_TESTS += tests/unit/test_explain
tests_unit_test_explain_SOURCES = tests/unit/test_explain.c \
	tests/unit/diag_snap.h tests/unit/unit.h
tests_unit_test_explain_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_explain_LDADD = $(UNIT_LDADD)
endif
