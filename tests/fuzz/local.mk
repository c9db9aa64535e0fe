# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets, one per parser of outside input. Build them in a
# build directory configured with CC=clang --enable-fuzzing, then
#   make fuzz && tests/fuzz/run.sh SECONDS [TARGET...]
FUZZ_PROGS = tests/fuzz/fuzz_attr tests/fuzz/fuzz_snapshot_json \
	tests/fuzz/fuzz_netlink tests/fuzz/fuzz_oob tests/fuzz/fuzz_tsv \
	tests/fuzz/fuzz_journal tests/fuzz/fuzz_recording \
	tests/fuzz/fuzz_hostfiles tests/fuzz/fuzz_journal_undo \
	tests/fuzz/fuzz_sysfs_tree tests/fuzz/fuzz_cli_numbers \
	tests/fuzz/fuzz_explain tests/fuzz/fuzz_peer_summary
EXTRA_PROGRAMS = $(FUZZ_PROGS)
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus tests/fuzz/fuzz_text.h
CLEANFILES = $(FUZZ_PROGS)
FUZZ_LD = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_attr_SOURCES = tests/fuzz/fuzz_attr.c
tests_fuzz_fuzz_attr_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_attr_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_snapshot_json_SOURCES = tests/fuzz/fuzz_snapshot_json.c
tests_fuzz_fuzz_snapshot_json_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_snapshot_json_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_netlink_SOURCES = tests/fuzz/fuzz_netlink.c
tests_fuzz_fuzz_netlink_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_netlink_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_oob_SOURCES = tests/fuzz/fuzz_oob.c
tests_fuzz_fuzz_oob_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_oob_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_tsv_SOURCES = tests/fuzz/fuzz_tsv.c
tests_fuzz_fuzz_tsv_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_tsv_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_journal_SOURCES = tests/fuzz/fuzz_journal.c
tests_fuzz_fuzz_journal_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_journal_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_recording_SOURCES = tests/fuzz/fuzz_recording.c
tests_fuzz_fuzz_recording_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_recording_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_hostfiles_SOURCES = tests/fuzz/fuzz_hostfiles.c
tests_fuzz_fuzz_hostfiles_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_hostfiles_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_journal_undo_SOURCES = tests/fuzz/fuzz_journal_undo.c \
	tests/unit/test_fix_mock.h
tests_fuzz_fuzz_journal_undo_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_journal_undo_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_sysfs_tree_SOURCES = tests/fuzz/fuzz_sysfs_tree.c
tests_fuzz_fuzz_sysfs_tree_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_sysfs_tree_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_cli_numbers_SOURCES = tests/fuzz/fuzz_cli_numbers.c
tests_fuzz_fuzz_cli_numbers_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_cli_numbers_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_explain_SOURCES = tests/fuzz/fuzz_explain.c
tests_fuzz_fuzz_explain_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_explain_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_peer_summary_SOURCES = tests/fuzz/fuzz_peer_summary.c
tests_fuzz_fuzz_peer_summary_LDADD = src/librdmadiag.a $(RD_LIBS)
tests_fuzz_fuzz_peer_summary_LDFLAGS = $(FUZZ_LD)
if FUZZING
fuzz: $(FUZZ_PROGS)
else
fuzz:
	@echo "make fuzz: configure this build with CC=clang --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz
