# SPDX-License-Identifier: GPL-2.0-or-later
# Verbs bandwidth and latency tests (rdmadiag bw / lat).
src_librdmadiag_a_SOURCES += \
	src/perf/fail.h \
	src/perf/oob.c src/perf/oob.h \
	src/perf/stats.c src/perf/stats.h \
	src/perf/clock.c src/perf/clock.h \
	src/perf/gid.c src/perf/gid.h \
	src/perf/bind.c src/perf/bind.h \
	src/perf/pretest.c src/perf/pretest.h \
	src/perf/verbs.c src/perf/verbs.h \
	src/perf/cm.c src/perf/cm.h \
	src/perf/perf.h src/perf/session.c \
	src/perf/bw.c src/perf/lat.c src/perf/report.c
