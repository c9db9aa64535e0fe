# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets, one per parser of outside input. Build them in a
# build directory configured with CC=clang --enable-fuzzing, then
#   make fuzz && tests/fuzz/run.sh SECONDS [TARGET...]
FUZZ_PROGS = tests/fuzz/fuzz_attr tests/fuzz/fuzz_snapshot_json \
	tests/fuzz/fuzz_netlink tests/fuzz/fuzz_oob tests/fuzz/fuzz_tsv \
	tests/fuzz/fuzz_journal tests/fuzz/fuzz_recording \
	tests/fuzz/fuzz_hostfiles tests/fuzz/fuzz_journal_undo \
	tests/fuzz/fuzz_sysfs_tree tests/fuzz/fuzz_cli_numbers \
	tests/fuzz/fuzz_explain tests/fuzz/fuzz_peer_summary \
	tests/fuzz/fuzz_fleet tests/fuzz/fuzz_xcvr tests/fuzz/fuzz_kmsg \
	tests/fuzz/fuzz_redact tests/fuzz/fuzz_watch
EXTRA_PROGRAMS = $(FUZZ_PROGS)
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus tests/fuzz/fuzz_text.h
CLEANFILES = $(FUZZ_PROGS)
# A target is one line in FUZZ_PROGS: built from tests/fuzz/fuzz_x.c,
# linked with the library (LDADD) and libFuzzer's main.
$(FUZZ_PROGS): AM_LDFLAGS += -fsanitize=fuzzer
EXTRA_DIST += tests/unit/test_fix_mock.h
if FUZZING
fuzz: $(FUZZ_PROGS)
else
fuzz:
	@echo "make fuzz: configure this build with CC=clang --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz
