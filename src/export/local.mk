# SPDX-License-Identifier: GPL-2.0-or-later
# Prometheus exposition: the writer and the metric mapping (no I/O).
src_librdmadiag_a_SOURCES += \
	src/export/prom.c src/export/prom.h \
	src/export/metrics.c src/export/metrics.h
