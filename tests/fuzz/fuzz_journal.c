// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix-up journal reader on arbitrary file contents (through a file in
 * /dev/shm, as the reader takes a path).
 *
 * What reads must write back with the journal's own writers and read
 * again to the same entries: undo trusts what it reads ("before" is the
 * value it restores), so writer and reader must agree on every field.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	       str_eq(a->command, b->command) && str_eq(a->before, b->before) &&
	       str_eq(a->after, b->after) && str_eq(a->undo_of, b->undo_of) &&
	       a->undoable == b->undoable && str_eq(a->result, b->result);
}

static int write_file(char *path, const uint8_t *data, size_t size)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[] = "/dev/shm/fuzz-journal-XXXXXX";
	char out[] = "/dev/shm/fuzz-journal-XXXXXX";
	struct rd_journal a, b;
	char err[512];

	if (write_file(in, data, size) < 0)
		return 0;
	if (rd_journal_read(in, &a, err, sizeof(err)) < 0) {
		unlink(in);
		return 0;
	}
	unlink(in);
	(void)rd_journal_find(&a, NULL);
	if (write_file(out, (const uint8_t *)"", 0) < 0) {
		rd_journal_free(&a);
		return 0;
	}
	for (size_t i = 0; i < a.n; i++) {
		const struct rd_journal_entry *e = &a.v[i];

		if (rd_journal_find(&a, e->id) == NULL)
			abort();
		if (rd_journal_append_apply(out, e, err, sizeof(err)) < 0)
			abort();
		if (e->result &&
		    rd_journal_append_result(out, e->id, e->result, NULL, err,
					     sizeof(err)) < 0)
			abort();
	}
	if (rd_journal_read(out, &b, err, sizeof(err)) < 0)
		abort();
	unlink(out);
	if (b.n != a.n)
		abort();
	for (size_t i = 0; i < a.n; i++)
		if (!same(&a.v[i], &b.v[i]))
			abort();
	rd_journal_free(&a);
	rd_journal_free(&b);
	return 0;
}
