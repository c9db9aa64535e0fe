# SPDX-License-Identifier: GPL-2.0-or-later
# The peer room: what two rdmadiag hosts tell each other about their ports.
src_librdmadiag_a_SOURCES += \
	src/peer/summary.c src/peer/summary.h \
	src/peer/wire.c src/peer/wire.h \
	src/peer/session.c src/peer/session.h \
	src/peer/matrix.c src/peer/matrix.h \
	src/peer/precheck.c src/peer/precheck.h \
	src/peer/choice.c src/peer/choice.h \
	src/peer/failure.c src/peer/failure.h \
	src/peer/child.c src/peer/child.h \
	src/peer/inband.c src/peer/inband.h
