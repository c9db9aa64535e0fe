/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fix-up journal: one JSON object per line, appended with O_APPEND.
 * An "apply" line is written before a change (with the value it replaces),
 * then a "result" line with the outcome. Undo writes its own pair, whose
 * "undo_of" names the entry it reverts.
 */
#ifndef RD_DIAG_JOURNAL_H
#define RD_DIAG_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rd_journal_entry {
	char *id;		/* "20240102T030405Z-1234-1" */
	double time;
	char *user;
	char *check;
	char *device;
	uint64_t port;
	char *kind;		/* "link_up", "link_mtu", ... */
	char *arg;
	char *arg2;
	char *command;
	char *before;
	char *after;
	char *undo_of;		/* set on undo entries */
	bool undoable;
	char *result;		/* "ok", "failed: ...", NULL = no result line */
	bool undone;		/* a later successful undo names it */
	unsigned long line;
};

struct rd_journal {
	struct rd_journal_entry *v;
	size_t n;
};

/*
 * Read and validate the whole journal. A missing file is an empty journal.
 * A line that is not a valid entry gives -EBADMSG with "FILE:LINE: why".
 */
int rd_journal_read(const char *path, struct rd_journal *j, char *err,
		    size_t errlen);
void rd_journal_free(struct rd_journal *j);

/* Append an entry's "apply" line (creating dir 0700 / file 0600). */
int rd_journal_append_apply(const char *path,
			    const struct rd_journal_entry *e, char *err,
			    size_t errlen);
/* Append the "result" line for entry id. */
int rd_journal_append_result(const char *path, const char *id,
			     const char *result, const char *after, char *err,
			     size_t errlen);

/* A fresh entry id (time, pid, counter). */
void rd_journal_new_id(char *buf, size_t len);

/* The last entry that can be undone, or the one with this id; NULL. */
const struct rd_journal_entry *
rd_journal_find(const struct rd_journal *j, const char *id);

#endif
