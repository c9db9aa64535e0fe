// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probing worker thread. Ownership: the thread alone uses the source,
 * its caches and the history the checks read; the mailbox (under mu) is
 * the only state both sides touch; updates cross the pipe as pointers and
 * belong to whoever read them.
 */
#include "config.h"
#include "console/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "console/fixup.h"
#include "console/store.h"
#include "console/watch.h"

/* How far back the console reads the flight recorder's store, and how
 * often it reads it again. */
#define PAST_SPAN (24 * 3600.0)
#define STORE_REREAD 30.0
/* The live watch refreshes at most this often (seconds). */
#define WATCH_MIN_GAP 0.25

struct con_worker {
	pthread_t th;
	pthread_mutex_t mu;
	int wake[2]; /* loop -> worker: "look at the mailbox" */
	int out[2];  /* worker -> loop: struct con_update pointers */
	/* the mailbox, under mu */
	struct {
		bool quit, refresh, fresh, paused, have_fix;
		double interval;
		struct con_fix_request fix;
		char *play; /* a recording to play next (the demo) */
		enum con_source_kind play_kind;
		double busy_since;
		bool fixing;
	} box;
	/* the thread's own */
	struct con_source src;
	struct rd_history hist;
	bool played;		/* a frame of the recording was taken */
	size_t last_frame;	/* and which */
	/* the past: the store read back, the live watch, both merged */
	struct con_watch watch;
	bool watching;
	double woke; /* wall time the watch last had input; 0: none */
	struct rd_events stored, live, past;
	bool have_stored, past_changed;
	/* When the live watch began: what it saw starts there. */
	double watch_since;
	double stored_at; /* monotonic; 0: never read */
	char store_err[256];
};

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void past_free(struct con_worker *w)
{
	if (w->watching)
		con_watch_close(&w->watch);
	w->watching = false;
	rd_events_free(&w->stored);
	rd_events_free(&w->live);
	rd_events_free(&w->past);
	w->have_stored = false;
	w->stored_at = 0;
	w->store_err[0] = '\0';
}

/* Where the store is: the one asked for, else the default for this host. */
static const char *store_dir(const struct con_worker *w)
{
	if (w->src.store)
		return w->src.store;
	return w->src.roots && !w->src.roots->redirected ? RD_STORE_DEFAULT
							 : NULL;
}

/*
 * Bring the past up to date for a live snapshot: the store read again
 * every STORE_REREAD seconds, what the watch caught since the last
 * snapshot, and when either changed, a copy for the loop in u.
 */
static void past_update(struct con_worker *w, struct con_update *u)
{
	const char *dir = store_dir(w);
	double now = wall_now();
	int r;

	if (dir &&
	    (!w->stored_at || con_now() - w->stored_at >= STORE_REREAD)) {
		struct rd_events ev = { 0 };
		char err[sizeof(w->store_err)] = "";

		r = rd_store_read_events(dir, now - PAST_SPAN, &ev, err,
					 sizeof(err));
		w->stored_at = con_now();
		rd_events_free(&w->stored);
		w->stored = ev;
		w->have_stored = r == 0;
		/* No recorder on this host is no fault; a --store named is. */
		if (r == -ENOENT && !w->src.store)
			err[0] = '\0';
		if (r < 0)
			rd_events_free(&w->stored);
		snprintf(w->store_err, sizeof(w->store_err), "%s", err);
		w->past_changed = true;
	}
	if (!w->watching && w->src.roots && !w->src.roots->redirected) {
		con_watch_open(&w->watch, &u->snap);
		w->watching = true;
		w->watch_since = now;
	}
	if (w->watching) {
		r = con_watch_drain(&w->watch, &u->snap,
				    w->woke > 0 ? w->woke : now, &w->live);
		if (r != 0)
			w->past_changed = true;
		w->woke = 0;
	}
	if (w->past_changed) {
		rd_events_free(&w->past);
		if (rd_events_merge(&w->past, &w->stored) == 0 &&
		    rd_events_merge(&w->past, &w->live) == 0) {
			rd_events_sort(&w->past);
			/* The store covers the span; the live watch only
			 * what came since it began. */
			w->past.since = w->have_stored ? now - PAST_SPAN
					: w->watching  ? w->watch_since
						       : now;
			w->past.from = w->have_stored && w->stored.from
					       ? strdup(w->stored.from)
					       : NULL;
		}
		if (rd_events_merge(&u->past, &w->past) == 0) {
			u->past.since = w->past.since;
			u->past.from =
				w->past.from ? strdup(w->past.from) : NULL;
			u->have_past = true;
			w->past_changed = false;
		}
	}
	snprintf(u->store_err, sizeof(u->store_err), "%s", w->store_err);
	if (w->watching)
		snprintf(u->watch_err, sizeof(u->watch_err), "%s",
			 w->watch.err);
}

double con_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void poke(struct con_worker *w)
{
	char b = 1;

	if (write(w->wake[1], &b, 1) < 0) {
		/* Full: a wake-up is already waiting. */
	}
}

static void send_update(struct con_worker *w, struct con_update *u)
{
	/* A pointer is far below PIPE_BUF: the write is atomic. */
	if (write(w->out[1], &u, sizeof(u)) != (ssize_t)sizeof(u))
		con_update_free(u); /* the loop is gone or far behind */
}

static void set_busy(struct con_worker *w, double since)
{
	pthread_mutex_lock(&w->mu);
	w->box.busy_since = since;
	pthread_mutex_unlock(&w->mu);
}

/* Take a snapshot from the source and run the checks over it. */
static void fill(struct con_worker *w, struct con_update *u, bool fresh)
{
	struct rd_diag_opts o;
	double t0 = con_now();
	int r;

	u->source = w->src.kind;
	set_busy(w, t0);
	r = con_source_next(&w->src, fresh, &u->snap, u->text, sizeof(u->text));
	set_busy(w, 0);
	u->probe_ms = (con_now() - t0) * 1000.0;
	if (r < 0) {
		rd_snapshot_free(&u->snap);
		rd_snapshot_init(&u->snap);
		if (u->kind == CON_UP_SNAPSHOT)
			u->kind = CON_UP_ERROR;
		return;
	}
	u->have_snap = true;
	u->frame = con_source_frame(&w->src);
	u->n_frames = con_source_frames(&w->src);
	/* check --load sees one pass of a recording: so do the checks here. */
	if (w->src.kind != CON_LIVE) {
		u->restarted = w->played && u->frame <= w->last_frame;
		if (u->restarted) {
			rd_history_free(&w->hist);
			rd_history_init(&w->hist);
		}
		w->played = true;
		w->last_frame = u->frame;
	}
	rd_history_add(&w->hist, &u->snap);
	rd_diag_opts_init(&o);
	o.from_file = w->src.kind != CON_LIVE;
	if (w->src.kind == CON_LIVE) {
		past_update(w, u);
		if (w->have_stored || w->watching)
			o.past = &w->past;
		if (w->store_err[0])
			o.past_error = w->store_err;
	}
	if (rd_diag_run(&u->snap, &w->hist, &o, &u->results) < 0) {
		rd_results_free(&u->results);
		memset(&u->results, 0, sizeof(u->results));
		return;
	}
	rd_results_sort(&u->results);
	u->have_results = true;
}

static void progress(struct con_worker *w, const char *what, const char *arg)
{
	struct con_update *u = con_update_new(CON_UP_PROGRESS);

	if (!u)
		return;
	snprintf(u->text, sizeof(u->text), "%s%s%s", what, arg ? ": " : "",
		 arg ? arg : "");
	send_update(w, u);
}

/* Only a live reading of this host may change this host. */
static const char not_live[] = "nothing changed: fix-ups apply only to a "
			       "live reading of this host, not to a "
			       "recording or a fixture tree";

static bool live_host(const struct con_worker *w)
{
	return w->src.kind == CON_LIVE && w->src.roots &&
	       !w->src.roots->redirected;
}

/*
 * Apply what the person confirmed, computed again from a fresh reading:
 * if the host changed meanwhile, nothing is changed and they are told.
 */
static void apply_fix(struct con_worker *w, const struct con_fix_request *q,
		      struct con_update *done)
{
	struct con_update *now = con_update_new(CON_UP_SNAPSHOT);
	const struct rd_result *r;

	if (!now) {
		done->rc = -ENOMEM;
		snprintf(done->text, sizeof(done->text), "out of memory");
		return;
	}
	progress(w, "reading the host before the change", NULL);
	fill(w, now, true);
	r = now->have_results ? con_find_result(&now->results, &q->key) : NULL;
	if (!r) {
		done->rc = -ENOENT;
		snprintf(done->text, sizeof(done->text),
			 "nothing changed: a fresh reading no longer reports "
			 "%s for this target",
			 q->key.check);
	} else if (!r->fix) {
		done->rc = -EALREADY;
		snprintf(done->text, sizeof(done->text),
			 "nothing changed: %s is now %s and has no fix-up",
			 q->key.check, rd_verdict_name(r->verdict));
	} else if (!r->fix->command || strcmp(r->fix->command, q->command)) {
		done->rc = -ESTALE;
		snprintf(done->text, sizeof(done->text),
			 "nothing changed: the host changed since the "
			 "confirmation; the fix-up is now: %s",
			 r->fix->command ? r->fix->command : "-");
	} else if (!live_host(w)) {
		done->rc = -EPERM;
		snprintf(done->text, sizeof(done->text), "%s", not_live);
	} else {
		/* Still the worker's: bound to the reading it came from. */
		struct rd_fixup *fix = now->results.v[r - now->results.v].fix;
		struct rd_fix_done fd;

		progress(w, "applying", q->command);
		done->rc = con_fixup_apply(fix, &now->snap, w->src.roots, false,
					   &fd, done->text, sizeof(done->text));
		if (done->rc >= 0) {
			snprintf(done->fix_id, sizeof(done->fix_id), "%s", fd.id);
			done->confirm_by = fd.confirm_by;
		}
	}
	send_update(w, now);
}

static void run_fix(struct con_worker *w, const struct con_fix_request *q)
{
	struct con_update *done = con_update_new(CON_UP_FIX_DONE);

	if (!done)
		return;
	done->key = q->key;
	done->is_undo = q->undo;
	if (q->undo && !live_host(w)) {
		done->rc = -EPERM;
		snprintf(done->text, sizeof(done->text), "%s", not_live);
	} else if (q->undo) {
		progress(w, "undoing the last fix-up from the journal", NULL);
		done->rc = con_fixup_undo(w->src.roots, false, q->entry,
					  done->text, sizeof(done->text));
	} else {
		apply_fix(w, q, done);
	}
	{
		/* fill() writes its own error text: keep the fix-up's. */
		char text[sizeof(done->text)];

		memcpy(text, done->text, sizeof(text));
		progress(w, "reading the host again to verify", NULL);
		fill(w, done, true);
		memcpy(done->text, text, sizeof(text));
	}
	pthread_mutex_lock(&w->mu);
	w->box.fixing = false;
	pthread_mutex_unlock(&w->mu);
	send_update(w, done);
}

/* Play a recording from now on; on failure the person is told why. */
static bool switch_source(struct con_worker *w, enum con_source_kind kind,
			  const char *path, double interval)
{
	struct con_source next;
	struct con_update *u;
	char err[512];

	if (con_source_open_recording(&next, kind, path, interval, err,
				      sizeof(err)) < 0) {
		u = con_update_new(CON_UP_NOTICE);
		if (u) {
			snprintf(u->text, sizeof(u->text),
				 "the recording cannot be played: %s", err);
			send_update(w, u);
		}
		return false;
	}
	con_source_close(&w->src);
	w->src = next;
	rd_history_free(&w->hist);
	rd_history_init(&w->hist);
	w->played = false;
	past_free(w);
	return true;
}

/* How much nicer than the loop the worker runs: probing is background
 * work, and a key must win the CPU over it on a busy host. */
#define CON_WORKER_NICE 5

static void *worker_main(void *arg)
{
	struct con_worker *w = arg;
	double next = 0, last_fill = 0;
	bool changed = true;
	int prio;

	/* Linux: nice is per thread; 0 names this one. */
	errno = 0;
	prio = getpriority(PRIO_PROCESS, 0);
	if (errno == 0 && prio + CON_WORKER_NICE <= 19 &&
	    setpriority(PRIO_PROCESS, 0, prio + CON_WORKER_NICE) < 0) {
		/* Not allowed: it runs at the loop's priority. */
	}

	for (;;) {
		bool refresh, fresh, paused, have_fix;
		struct con_fix_request fix;
		enum con_source_kind play_kind;
		char *play;
		double interval, now;
		struct pollfd pfd[1 + 16] = { { .fd = w->wake[0],
						.events = POLLIN } };
		size_t npfd = 1;
		char drain[64];
		int timeout;

		pthread_mutex_lock(&w->mu);
		if (w->box.quit) {
			pthread_mutex_unlock(&w->mu);
			break;
		}
		refresh = w->box.refresh;
		fresh = w->box.fresh;
		paused = w->box.paused;
		interval = w->box.interval;
		have_fix = w->box.have_fix;
		fix = w->box.fix;
		play = w->box.play;
		play_kind = w->box.play_kind;
		w->box.refresh = w->box.fresh = w->box.have_fix = false;
		w->box.play = NULL;
		pthread_mutex_unlock(&w->mu);

		if (play && switch_source(w, play_kind, play, interval)) {
			changed = true;
			refresh = true;
		}
		free(play);
		if (have_fix) {
			run_fix(w, &fix);
			next = con_now() + interval;
			continue;
		}
		now = con_now();
		if (refresh || (!paused && now >= next)) {
			last_fill = now;
			struct con_update *u = con_update_new(CON_UP_SNAPSHOT);

			if (u) {
				u->source_changed = changed;
				changed = false;
				fill(w, u, fresh);
				send_update(w, u);
			}
			next = now + interval;
			continue; /* the mailbox may have filled meanwhile */
		}
		/*
		 * The live watch wakes the worker for a refresh at once,
		 * at most every WATCH_MIN_GAP; while one is due its input
		 * waits in the kernel (not polled, so no busy loop).
		 */
		if (w->watching && !paused && next > last_fill + WATCH_MIN_GAP)
			npfd += con_watch_fds(&w->watch, pfd + 1, 16);
		timeout = paused ? -1 : (int)((next - now) * 1000.0) + 1;
		if (poll(pfd, npfd, timeout) > 0) {
			if (pfd[0].revents)
				while (read(w->wake[0], drain, sizeof(drain)) >
				       0)
					;
			for (size_t i = 1; i < npfd; i++)
				if (pfd[i].revents) {
					w->woke = wall_now();
					next = last_fill + WATCH_MIN_GAP;
					break;
				}
		}
	}
	con_source_close(&w->src);
	rd_history_free(&w->hist);
	past_free(w);
	return NULL;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
	p[0] = p[1] = -1;
}

int con_worker_start(struct con_worker **out, struct con_source *src,
		     double interval, char *err, size_t errlen)
{
	struct con_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int r;

	*out = NULL;
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	w->wake[0] = w->wake[1] = w->out[0] = w->out[1] = -1;
	if (pipe2(w->wake, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    pipe2(w->out, O_CLOEXEC | O_NONBLOCK) < 0) {
		r = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close_pair(w->wake);
		close_pair(w->out);
		free(w);
		return r;
	}
	pthread_mutex_init(&w->mu, NULL);
	w->box.interval = interval > 0 ? interval : 1.0;
	w->src = *src;
	rd_history_init(&w->hist);
	/* Signals are the loop's; faults stay with whoever faults. */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGABRT);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&w->th, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		snprintf(err, errlen, "cannot start the probing thread: %s",
			 strerror(r));
		rd_history_free(&w->hist);
		pthread_mutex_destroy(&w->mu);
		close_pair(w->wake);
		close_pair(w->out);
		*src = w->src; /* still the caller's */
		free(w);
		return -r;
	}
	memset(src, 0, sizeof(*src));
	*out = w;
	return 0;
}

int con_worker_fd(const struct con_worker *w)
{
	return w->out[0];
}

struct con_update *con_worker_take(struct con_worker *w)
{
	struct con_update *u;

	if (read(w->out[0], &u, sizeof(u)) != (ssize_t)sizeof(u))
		return NULL;
	return u;
}

void con_worker_refresh(struct con_worker *w, bool fresh)
{
	pthread_mutex_lock(&w->mu);
	w->box.refresh = true;
	w->box.fresh |= fresh;
	pthread_mutex_unlock(&w->mu);
	poke(w);
}

void con_worker_settings(struct con_worker *w, double interval, bool paused)
{
	pthread_mutex_lock(&w->mu);
	w->box.interval = interval;
	w->box.paused = paused;
	pthread_mutex_unlock(&w->mu);
	poke(w);
}

void con_worker_play(struct con_worker *w, enum con_source_kind kind,
		     const char *path)
{
	char *copy = strdup(path);

	if (!copy)
		return;
	pthread_mutex_lock(&w->mu);
	free(w->box.play);
	w->box.play = copy;
	w->box.play_kind = kind;
	w->box.paused = false;
	pthread_mutex_unlock(&w->mu);
	poke(w);
}

int con_worker_fix(struct con_worker *w, const struct con_fix_request *req)
{
	int r = 0;

	pthread_mutex_lock(&w->mu);
	if (w->box.fixing) {
		r = -EBUSY;
	} else {
		w->box.fix = *req;
		w->box.have_fix = w->box.fixing = true;
	}
	pthread_mutex_unlock(&w->mu);
	poke(w);
	return r;
}

double con_worker_busy_since(struct con_worker *w)
{
	double t;

	pthread_mutex_lock(&w->mu);
	t = w->box.busy_since;
	pthread_mutex_unlock(&w->mu);
	return t;
}

struct con_worker *con_worker_abandoned;

#define CON_WORKER_TEARDOWN_WAIT 10.0 /* seconds */

int con_worker_stop(struct con_worker *w, double timeout)
{
	struct con_update *u;
	struct timespec ts;
	double secs;
	int r;

	if (!w)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->box.quit = true;
	/*
	 * A probe stuck in a kernel wait is not waited for past timeout. A
	 * worker between probes only has its own teardown left (closing the
	 * probes' descriptors, freeing the history), which nothing in the
	 * kernel can hold up but which a slow host (or valgrind) can stretch
	 * past a short timeout: it gets a longer one.
	 */
	if (w->box.busy_since <= 0 && timeout < CON_WORKER_TEARDOWN_WAIT)
		timeout = CON_WORKER_TEARDOWN_WAIT;
	pthread_mutex_unlock(&w->mu);
	poke(w);
	clock_gettime(CLOCK_REALTIME, &ts);
	secs = (double)ts.tv_nsec / 1e9 + (timeout > 0 ? timeout : 0);
	ts.tv_sec += (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9);
	r = pthread_timedjoin_np(w->th, NULL, &ts);
	if (r == ETIMEDOUT || r == EBUSY) {
		pthread_detach(w->th);
		/* Updates already handed over are the loop's to free. */
		while ((u = con_worker_take(w)))
			con_update_free(u);
		/* Kept for the exit that follows: the thread still uses it. */
		con_worker_abandoned = w;
		return -ETIMEDOUT;
	}
	while ((u = con_worker_take(w)))
		con_update_free(u);
	free(w->box.play);
	pthread_mutex_destroy(&w->mu);
	close_pair(w->wake);
	close_pair(w->out);
	free(w);
	return 0;
}
