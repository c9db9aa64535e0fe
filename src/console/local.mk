# SPDX-License-Identifier: GPL-2.0-or-later
# The console's model, with no ncurses: state, snapshot sources, the
# probing worker thread, the bw/lat test child and the fix-up door.
src_librdmadiag_a_SOURCES += \
	src/console/state.c src/console/state.h \
	src/console/source.c src/console/source.h \
	src/console/worker.c src/console/worker.h \
	src/console/test_run.c src/console/test_run.h \
	src/console/peer_run.c src/console/peer_run.h src/console/child.h \
	src/console/fixup.c src/console/fixup.h \
	src/console/capture.c src/console/capture.h \
	src/console/store.c src/console/store.h \
	src/console/watch.c src/console/watch.h
