# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmarks print figures, never pass or fail (README.md, "Benchmarks").
#
# xcvr-bench: the physical layer's cost per console refresh and the EEPROM
# reads of the transceiver probe. It compiles its own copy of
# src/probes/xcvr.c with RD_XCVR_FAKE_READER, so the probe reads fixture
# bytes through the bench's reader and clock; the library's copy, and with
# it the installed program, is untouched. A check program, never installed.
check_PROGRAMS += tests/bench/xcvr-bench
tests_bench_xcvr_bench_SOURCES = tests/bench/xcvr_bench.c src/probes/xcvr.c
tests_bench_xcvr_bench_CPPFLAGS = $(AM_CPPFLAGS) -DRD_XCVR_FAKE_READER
tests_bench_xcvr_bench_LDADD = src/librdmadiag.a $(RD_LIBS)

bench-phy: tests/bench/xcvr-bench
	@tests/bench/xcvr-bench $(top_srcdir)/tests/fixtures/modules

.PHONY: bench-phy
EXTRA_DIST += tests/bench/refresh.sh tests/bench/record.sh
