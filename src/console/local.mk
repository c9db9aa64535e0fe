# SPDX-License-Identifier: GPL-2.0-or-later
# The console's model, with no ncurses: state, snapshot sources, the
# probing worker thread, the bw/lat test child and the fix-up door.
src_librdmadiag_a_SOURCES += \
	src/console/state.c src/console/state.h \
	src/console/source.c src/console/source.h \
	src/console/worker.c src/console/worker.h \
	src/console/test_run.c src/console/test_run.h \
	src/console/fixup.c src/console/fixup.h \
	src/console/capture.c src/console/capture.h

if HAVE_CMOCKA
CONSOLE_TESTS = tests/unit/test_console_state tests/unit/test_console_worker \
	tests/unit/test_console_test_run
check_PROGRAMS += $(CONSOLE_TESTS)
TESTS += $(CONSOLE_TESTS)
tests_unit_test_console_state_SOURCES = tests/unit/test_console_state.c \
	tests/unit/diag_snap.h tests/unit/unit.h
tests_unit_test_console_state_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_console_state_LDADD = $(UNIT_LDADD)
tests_unit_test_console_worker_SOURCES = tests/unit/test_console_worker.c \
	tests/unit/unit.h
tests_unit_test_console_worker_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_console_worker_LDADD = $(UNIT_LDADD)
tests_unit_test_console_test_run_SOURCES = tests/unit/test_console_test_run.c \
	tests/unit/unit.h
tests_unit_test_console_test_run_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_console_test_run_LDADD = $(UNIT_LDADD)
endif
