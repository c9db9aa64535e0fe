# SPDX-License-Identifier: GPL-2.0-or-later
# Verbs bandwidth and latency tests (rdmadiag bw / lat).
src_librdmadiag_a_SOURCES += \
	src/perf/oob.c src/perf/oob.h \
	src/perf/stats.c src/perf/stats.h \
	src/perf/gid.c src/perf/gid.h \
	src/perf/bind.c src/perf/bind.h \
	src/perf/verbs.c src/perf/verbs.h \
	src/perf/perf.h src/perf/session.c \
	src/perf/bw.c src/perf/lat.c src/perf/report.c
if HAVE_CMOCKA
PERF_UNIT_TESTS = tests/unit/test_perf_oob tests/unit/test_perf_stats \
	tests/unit/test_perf_gid tests/unit/test_perf_report \
	tests/unit/test_perf_bind
check_PROGRAMS += $(PERF_UNIT_TESTS)
TESTS += $(PERF_UNIT_TESTS)
tests_unit_test_perf_oob_SOURCES = tests/unit/test_perf_oob.c tests/unit/unit.h
tests_unit_test_perf_oob_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perf_oob_LDADD = $(UNIT_LDADD)
tests_unit_test_perf_stats_SOURCES = tests/unit/test_perf_stats.c tests/unit/unit.h
tests_unit_test_perf_stats_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perf_stats_LDADD = $(UNIT_LDADD)
tests_unit_test_perf_gid_SOURCES = tests/unit/test_perf_gid.c tests/unit/unit.h
tests_unit_test_perf_gid_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perf_gid_LDADD = $(UNIT_LDADD)
tests_unit_test_perf_report_SOURCES = tests/unit/test_perf_report.c tests/unit/unit.h
tests_unit_test_perf_report_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perf_report_LDADD = $(UNIT_LDADD)
tests_unit_test_perf_bind_SOURCES = tests/unit/test_perf_bind.c tests/unit/unit.h
tests_unit_test_perf_bind_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perf_bind_LDADD = $(UNIT_LDADD)
endif
