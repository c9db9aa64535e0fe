# SPDX-License-Identifier: GPL-2.0-or-later
# The console's end-to-end tests, driven through tmux: `make check-tui`.
# Separate from `make check` because they need tmux and take about a
# minute; tests/tui/bench.sh measures the console's cost.
TUI_ENV = RDMADIAG_BIN='$(abs_top_builddir)/src/rdmadiag' \
	RDMADIAG_SRCDIR='$(abs_top_srcdir)'

check-tui: src/rdmadiag
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/console-e2e.sh

bench-tui: src/rdmadiag
	@$(TUI_ENV) $(SHELL) $(top_srcdir)/tests/tui/bench.sh

.PHONY: check-tui bench-tui
EXTRA_DIST += tests/tui/lib.sh tests/tui/console-e2e.sh tests/tui/bench.sh
