# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/cmd/cli.c src/cmd/cli.h \
	src/cmd/snapshot.c \
	src/views/text_snapshot.c src/views/text_snapshot.h
