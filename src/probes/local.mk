# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/probes/probe.h src/probes/probes.c \
	src/probes/ib_sysfs.c src/probes/ib_sysfs.h
