# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets, one per parser of outside input. Build them in a
# build directory configured with CC=clang --enable-fuzzing, then
#   make fuzz && tests/fuzz/run.sh SECONDS [TARGET...]
FUZZ_PROGS = tests/fuzz/fuzz_attr tests/fuzz/fuzz_snapshot_json
EXTRA_PROGRAMS = $(FUZZ_PROGS)
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus
CLEANFILES = $(FUZZ_PROGS)
FUZZ_LD = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_attr_SOURCES = tests/fuzz/fuzz_attr.c
tests_fuzz_fuzz_attr_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_attr_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_snapshot_json_SOURCES = tests/fuzz/fuzz_snapshot_json.c
tests_fuzz_fuzz_snapshot_json_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_snapshot_json_LDFLAGS = $(FUZZ_LD)
if FUZZING
fuzz: $(FUZZ_PROGS)
else
fuzz:
	@echo "make fuzz: configure this build with CC=clang --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz
