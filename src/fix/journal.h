/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fix-up journal: one JSON object per line, appended with O_APPEND.
 * An "apply" line is written before a change (with the value it replaces),
 * then a "result" line with the outcome. Undo writes its own pair, whose
 * "undo_of" names the entry it reverts; a "confirm" line keeps a change
 * that a rollback timer would otherwise revert, and a "rollback_failed"
 * line says the timer tried and could not.
 *
 * The journal decides what undo restores, so it is only read from and
 * written to a directory nobody but root can change: the directory and
 * every one above it must be owned by root (or by the effective uid of an
 * unprivileged test), not writable by group or others (a sticky,
 * root-owned directory such as /tmp is allowed above it), and no symlink
 * anywhere on the way.
 */
#ifndef RD_FIX_JOURNAL_H
#define RD_FIX_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Years of fix-ups fit; anything larger is not our journal. */
#define RD_JOURNAL_MAX (16u << 20)
#define RD_JOURNAL_ID_MAX 96

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
	uint64_t ifindex;	/* of the netdev named; 0 = not recorded */
	char *command;
	char *before;
	char *after;
	char *undo_of;		/* set on undo entries */
	bool undoable;
	double confirm_by;	/* rollback timer deadline; 0 = none */
	bool confirmed;		/* a "confirm" line names it */
	char *rollback_failed;	/* why the rollback timer gave up, or NULL */
	char *result;		/* "ok", "failed: ...", NULL = no result line */
	bool undone;		/* a later successful undo names it */
	unsigned long line;
};

struct rd_journal {
	struct rd_journal_entry *v;
	size_t n;
	/* id -> index + 1, open addressing; nslots is a power of two */
	size_t *slots;
	size_t nslots;
};

/* An open, checked and locked journal file. */
struct rd_journal_file {
	int dirfd;
	int fd;			/* -1: no journal yet (read mode) */
	char name[NAME_MAX + 1];
	char path[PATH_MAX];
};

enum rd_journal_mode {
	RD_JOURNAL_READ,	/* shared lock; a missing journal is empty */
	RD_JOURNAL_WRITE,	/* exclusive lock; creates dir 0700, file 0600 */
};

/*
 * Open path (absolute, ending in ".jsonl") after the ownership and mode
 * checks above, with O_NOFOLLOW on every step, and lock it (flock). Waits
 * for another process's lock up to rd_journal_lock_wait_ms, then -EBUSY.
 * 0 or -errno with a sentence in err.
 */
int rd_journal_open(const char *path, enum rd_journal_mode mode,
		    struct rd_journal_file *jf, char *err, size_t errlen);
void rd_journal_close(struct rd_journal_file *jf);
/* How long rd_journal_open waits for a lock (10 s; tests shorten it). */
extern unsigned rd_journal_lock_wait_ms;

/*
 * Read and validate the whole journal. A line that is not a valid entry
 * gives -EBADMSG with "FILE:LINE: why". Linear in the size of the file.
 */
int rd_journal_load(struct rd_journal_file *jf, struct rd_journal *j,
		    char *err, size_t errlen);
/* Open for reading, load, close. */
int rd_journal_read(const char *path, struct rd_journal *j, char *err,
		    size_t errlen);
void rd_journal_free(struct rd_journal *j);

/* Append an entry's "apply" (or "undo") line; fsync'd. */
int rd_journal_append_apply(struct rd_journal_file *jf,
			    const struct rd_journal_entry *e, char *err,
			    size_t errlen);
/* Append the "result" line for entry id. */
int rd_journal_append_result(struct rd_journal_file *jf, const char *id,
			     const char *result, const char *after, char *err,
			     size_t errlen);
/*
 * Append a "rollback_failed" line: the rollback timer could not revert
 * entry id, and why (the change is still in place).
 */
int rd_journal_append_rollback_failed(struct rd_journal_file *jf,
				      const char *id, const char *why,
				      char *err, size_t errlen);
/* Append a "confirm" line: the change id stays, the timer stands down. */
int rd_journal_append_confirm(struct rd_journal_file *jf, const char *id,
			      char *err, size_t errlen);

/*
 * One line of `undo --list` for e: id, user, check, command, the values
 * and the outcome, every journal string escaped. Returns what fprintf does.
 */
int rd_journal_print_entry(FILE *f, const struct rd_journal_entry *e);

/* A fresh entry id (time, pid, counter). */
void rd_journal_new_id(char *buf, size_t len);

/* The entry with this id, or NULL. */
const struct rd_journal_entry *rd_journal_find(const struct rd_journal *j,
					       const char *id);
/*
 * The last change that may still be in place: not an undo, undoable, not
 * undone, and with result "ok" or no result line at all (interrupted).
 */
const struct rd_journal_entry *
rd_journal_last_change(const struct rd_journal *j);

/* RDMADIAG_JOURNAL (when the environment is trusted) or the default. */
const char *rd_journal_default_path(void);
#define RD_JOURNAL_DEFAULT "/var/lib/rdmadiag/journal.jsonl"

#endif
