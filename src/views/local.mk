# SPDX-License-Identifier: GPL-2.0-or-later
# The interactive console: screens, widgets, layout, recordings.
src_librdmadiag_a_SOURCES += \
	src/views/layout.c src/views/layout.h \
	src/views/widgets.c src/views/widgets.h \
	src/views/app.c src/views/ui.c src/views/ui.h \
	src/views/tty.c src/views/tty.h src/views/chrome.c \
	src/views/screens.c \
	src/views/view_overview.c src/views/view_port.c \
	src/views/view_counters.c src/views/view_qos.c \
	src/views/view_checklist.c src/views/view_tests.c \
	src/views/view_help.c src/views/view_explain.c src/views/view_peer.c src/views/view_events.c \
	src/views/view_topology.c \
	src/views/rollback.c \
	src/views/text_snapshot.c src/views/text_snapshot.h

# The demo recording is made by this program; a test checks the shipped
# file is exactly what it makes.
check_PROGRAMS += tests/tui/demo-gen
tests_tui_demo_gen_SOURCES = tests/tui/demo-gen.c
tests_tui_demo_gen_LDADD = src/librdmadiag.a $(RD_LIBS)
TESTS += tests/tui/demo-current.sh
EXTRA_DIST += tests/tui/demo-current.sh
