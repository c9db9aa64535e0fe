// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix-up journal reader on arbitrary file contents (through a file in
 * a private directory under /dev/shm, as the reader takes a path).
 *
 * What reads must write back with the journal's own writers and read
 * again to the same entries: undo trusts what it reads ("before" is the
 * value it restores), so writer and reader must agree on every field.
 * Every error message and every `undo --list` line is plain text.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix/journal.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same(const struct rd_journal_entry *a,
		 const struct rd_journal_entry *b)
{
	bool t = (isnan(a->time) && isnan(b->time)) || a->time == b->time;

	return t && str_eq(a->id, b->id) && str_eq(a->user, b->user) &&
	       str_eq(a->check, b->check) && str_eq(a->device, b->device) &&
	       a->port == b->port && str_eq(a->kind, b->kind) &&
	       str_eq(a->arg, b->arg) && str_eq(a->arg2, b->arg2) &&
	       a->ifindex == b->ifindex && str_eq(a->command, b->command) &&
	       str_eq(a->before, b->before) && str_eq(a->after, b->after) &&
	       str_eq(a->undo_of, b->undo_of) && a->undoable == b->undoable &&
	       str_eq(a->result, b->result) && a->confirmed == b->confirmed &&
	       a->confirm_by == b->confirm_by;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return chmod(path, 0600);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[128], out[128], err[512];
	struct rd_journal_file jf;
	struct rd_journal a, b;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/fuzz-journal-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(in, sizeof(in), "%s/in.jsonl", dir);
	snprintf(out, sizeof(out), "%s/out.jsonl", dir);
	unlink(out);
	if (write_file(in, data, size) < 0)
		return 0;
	if (rd_journal_read(in, &a, err, sizeof(err)) < 0) {
		fuzz_assert_text(err, strlen(err));
		return 0;
	}
	for (size_t i = 0; i < a.n; i++)
		FUZZ_CHECK_PRINTED(rd_journal_print_entry(f, &a.v[i]));
	if (rd_journal_open(out, RD_JOURNAL_WRITE, &jf, err, sizeof(err)) < 0)
		abort();
	for (size_t i = 0; i < a.n; i++) {
		const struct rd_journal_entry *e = &a.v[i];

		if (rd_journal_find(&a, e->id) != e)
			abort();
		if (rd_journal_append_apply(&jf, e, err, sizeof(err)) < 0)
			abort();
		if (e->result &&
		    rd_journal_append_result(&jf, e->id, e->result, NULL, err,
					     sizeof(err)) < 0)
			abort();
		if (e->confirmed &&
		    rd_journal_append_confirm(&jf, e->id, err, sizeof(err)) < 0)
			abort();
	}
	rd_journal_close(&jf);
	if (rd_journal_read(out, &b, err, sizeof(err)) < 0)
		abort();
	if (b.n != a.n)
		abort();
	for (size_t i = 0; i < a.n; i++)
		if (!same(&a.v[i], &b.v[i]))
			abort();
	rd_journal_free(&a);
	rd_journal_free(&b);
	return 0;
}
