# SPDX-License-Identifier: GPL-2.0-or-later
# The peer room: what two rdmadiag hosts tell each other about their ports.
src_librdmadiag_a_SOURCES += \
	src/peer/summary.c src/peer/summary.h \
	src/peer/wire.c src/peer/wire.h \
	src/peer/session.c src/peer/session.h \
	src/peer/matrix.c src/peer/matrix.h \
	src/peer/precheck.c src/peer/precheck.h \
	src/peer/child.c src/peer/child.h

if HAVE_CMOCKA
PEER_TESTS = tests/unit/test_peer_summary tests/unit/test_peer_wire \
	tests/unit/test_peer_matrix tests/unit/test_peer_precheck \
	tests/unit/test_peer_child
check_PROGRAMS += $(PEER_TESTS)
TESTS += $(PEER_TESTS)
endif
