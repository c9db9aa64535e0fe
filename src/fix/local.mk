# SPDX-License-Identifier: GPL-2.0-or-later
# The only room that changes the host: the engine, one file per fix kind,
# the journal.
src_librdmadiag_a_SOURCES += \
	src/fix/fix.c src/fix/fix.h src/fix/fix_int.h \
	src/fix/fix_netdev.c src/fix/fix_link_up.c src/fix/fix_link_mtu.c \
	src/fix/fix_rxe.c src/fix/fix_module.c src/fix/fix_sysctl.c \
	src/fix/fix_pfc.c \
	src/fix/journal.c src/fix/journal.h
