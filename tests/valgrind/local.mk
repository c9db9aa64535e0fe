# SPDX-License-Identifier: GPL-2.0-or-later
# Memcheck over every unit test program, the command line on every fixture
# host and on this host, and the console (in tmux): `make check-valgrind`.
# Not part of `make check`: it needs valgrind and takes several minutes.
# VALGRIND_ONLY=PATTERN runs the programs whose name contains PATTERN.
VALGRIND_ONLY =
VALGRIND_ENV = RDMADIAG_BIN='$(abs_top_builddir)/src/rdmadiag$(EXEEXT)' \
	RDMADIAG_SRCDIR='$(abs_top_srcdir)' \
	VG_OUT='$(abs_top_builddir)/tests/valgrind/out'

check-valgrind: src/rdmadiag$(EXEEXT) $(check_PROGRAMS)
	@$(VALGRIND_ENV) $(SHELL) '$(top_srcdir)/tests/valgrind/run.sh' $(VALGRIND_ONLY)

.PHONY: check-valgrind
EXTRA_DIST += tests/valgrind/run.sh tests/valgrind/rdmadiag.supp
