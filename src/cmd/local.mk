# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/cmd/cli.c src/cmd/cli.h src/cmd/evidence.c src/cmd/evidence.h \
	src/cmd/snapshot.c src/cmd/check.c src/cmd/fix.c \
	src/cmd/console.c src/cmd/perf.c src/cmd/report.c \
	src/cmd/explain.c src/cmd/env.c src/cmd/export.c src/cmd/module.c \
	src/cmd/diff.c src/cmd/peer.c \
	src/cmd/record.c src/cmd/record_diff.c src/cmd/record_diff.h
