# SPDX-License-Identifier: GPL-2.0-or-later
# Verbs bandwidth and latency tests (rdmadiag bw / lat).
src_librdmadiag_a_SOURCES += \
	src/perf/oob.c src/perf/oob.h \
	src/perf/stats.c src/perf/stats.h \
	src/perf/clock.c src/perf/clock.h \
	src/perf/gid.c src/perf/gid.h \
	src/perf/bind.c src/perf/bind.h \
	src/perf/verbs.c src/perf/verbs.h \
	src/perf/cm.c src/perf/cm.h \
	src/perf/perf.h src/perf/session.c \
	src/perf/bw.c src/perf/lat.c src/perf/report.c
if HAVE_CMOCKA
PERF_UNIT_TESTS = tests/unit/test_perf_oob tests/unit/test_perf_stats \
	tests/unit/test_perf_clock \
	tests/unit/test_perf_gid tests/unit/test_perf_report \
	tests/unit/test_perf_bind tests/unit/test_perf_cm
check_PROGRAMS += $(PERF_UNIT_TESTS)
TESTS += $(PERF_UNIT_TESTS)
endif
