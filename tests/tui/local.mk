# SPDX-License-Identifier: GPL-2.0-or-later
# The console's end-to-end tests, driven through tmux: `make check-tui`.
# Separate from `make check` because they need tmux and take about a
# minute; tests/tui/bench.sh measures the console's cost.
TUI_ENV = RDMADIAG_BIN='$(abs_top_builddir)/src/rdmadiag' \
	RDMADIAG_TEST_BIN='$(abs_top_builddir)/tests/tui/rdmadiag-test' \
	RDMADIAG_SRCDIR='$(abs_top_srcdir)'

# The program with the test-only slow probe (src/probes/test_slow.c): a
# check program, never installed. Its own probe table is compiled with
# RD_TEST_PROBES and takes the place of the library's.
check_PROGRAMS += tests/tui/rdmadiag-test
tests_tui_rdmadiag_test_SOURCES = src/main.c src/probes/probes.c \
	src/probes/test_slow.c src/probes/test_slow.h
tests_tui_rdmadiag_test_CPPFLAGS = $(AM_CPPFLAGS) -DRD_TEST_PROBES
tests_tui_rdmadiag_test_LDADD = src/librdmadiag.a $(RD_LIBS)

check-tui: src/rdmadiag tests/tui/rdmadiag-test
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/console-e2e.sh
	@$(TUI_ENV) bash $(top_srcdir)/tests/tui/key-latency.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_oncall.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_oncall_states.sh
	@$(TUI_ENV) bash $(top_srcdir)/tests/tui/test_sizes.sh
	@$(TUI_ENV) bash $(top_srcdir)/tests/tui/test_sizes_terminals.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_peer.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_counters_rising.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_phy.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_past.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_topology.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_port_functions.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_container_panel.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_rate_window.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_agree.sh
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/test_console_words.sh

bench-tui: src/rdmadiag
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/bench.sh

.PHONY: check-tui bench-tui
EXTRA_DIST += tests/tui/lib.sh tests/tui/console-e2e.sh tests/tui/bench.sh \
	tests/tui/key-latency.sh tests/tui/test_oncall.sh \
	tests/tui/test_oncall_states.sh tests/tui/test_sizes.sh \
	tests/tui/test_sizes_terminals.sh tests/tui/test_peer.sh \
	tests/tui/test_counters_rising.sh tests/tui/test_phy.sh \
	tests/tui/test_past.sh \
	tests/tui/test_topology.sh tests/tui/test_port_functions.sh \
	tests/tui/test_container_panel.sh tests/tui/test_rate_window.sh \
	tests/tui/test_agree.sh tests/tui/test_console_words.sh
