/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probing worker: a thread that owns the snapshot source, its probe
 * caches and the history the checks read. Every refresh it takes a
 * snapshot, runs the checks and hands both to the loop as one
 * struct con_update through a pipe (the pointer is the message: the
 * reader owns it). Fix-ups and undo run here too, so a netlink wait or a
 * slow driver never holds up a key.
 *
 * The loop talks to it only through these calls; they take a mutex that
 * the worker holds for a few instructions, never across a probe.
 */
#ifndef RD_CONSOLE_WORKER_H
#define RD_CONSOLE_WORKER_H

#include <stdbool.h>

#include "console/source.h"
#include "console/state.h"

struct con_worker;

/* A fix-up the person confirmed: the check it belongs to and the exact
 * command they saw; the worker refuses when a fresh reading differs. */
struct con_fix_request {
	bool undo;
	char entry[RD_JOURNAL_ID_MAX]; /* undo: this journal entry; "": the last change */
	struct con_result_key key;
	char command[512];
};

/* Start the thread; it owns src from now on. 0 or -errno (err set). */
int con_worker_start(struct con_worker **out, struct con_source *src,
		     double interval, char *err, size_t errlen);
/* Readable when updates wait: poll it with the keyboard. */
int con_worker_fd(const struct con_worker *w);
/* The next waiting update (the caller owns it), or NULL. */
struct con_update *con_worker_take(struct con_worker *w);

void con_worker_refresh(struct con_worker *w, bool fresh);
/* Seconds between refreshes; paused: no refresh but on request. */
void con_worker_settings(struct con_worker *w, double interval, bool paused);
/* Play the recording at path from now on (the demo). The worker opens
 * it; if it cannot, a CON_UP_NOTICE says why and nothing changes. */
void con_worker_play(struct con_worker *w, enum con_source_kind kind,
		     const char *path);
/* -EBUSY while another fix-up runs. */
int con_worker_fix(struct con_worker *w, const struct con_fix_request *req);
/* Since when (monotonic seconds) the current snapshot is being taken;
 * 0 when the worker is idle. */
double con_worker_busy_since(struct con_worker *w);

/*
 * Ask the thread to end and wait at most timeout seconds. 0: it ended and
 * everything is freed. -ETIMEDOUT: it is stuck in a probe and left
 * running (nothing of it may be freed): the process must exit soon, with
 * _exit(), so no library is torn down under it.
 */
/* A worker con_worker_stop gave up on (still in a probe), kept until exit. */
extern struct con_worker *con_worker_abandoned;
int con_worker_stop(struct con_worker *w, double timeout);

/* Monotonic seconds. */
double con_now(void);

#endif
