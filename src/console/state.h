/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console's model, with no ncurses: the snapshot on screen, the
 * counter history behind rates and sparklines, the checks' results, the
 * port selection and what the data source last said. The main loop owns
 * it; the probing worker never touches it, it hands over whole updates
 * (struct con_update) that con_state_adopt() takes ownership of.
 */
#ifndef RD_CONSOLE_STATE_H
#define RD_CONSOLE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/history.h"
#include "core/snapshot.h"
#include "diag/data.h"
#include "diag/diag.h"
#include "fix/journal.h"

enum con_source_kind { CON_LIVE, CON_REPLAY, CON_DEMO };

/* Which check result a fix-up was asked for (results are rebuilt often). */
struct con_result_key {
	char check[64];
	char device[64];
	char netdev[64];
	uint64_t port;
};

enum con_update_kind {
	CON_UP_SNAPSHOT, /* a new snapshot and its results */
	CON_UP_ERROR,	 /* no snapshot could be taken: text says why */
	CON_UP_PROGRESS, /* a fix-up's progress: text */
	CON_UP_FIX_DONE, /* a fix-up or undo ended: rc, text; snapshot too */
	CON_UP_NOTICE,	 /* something to tell the person: text */
};

/*
 * One message from the worker. Whoever holds the pointer owns it and
 * everything in it; con_update_free() releases what was not adopted.
 */
struct con_update {
	enum con_update_kind kind;
	enum con_source_kind source; /* the source it came from */
	bool source_changed;	     /* a new source: forget the history */
	/* A recording started over (a loop; one frame played again): its
	 * samples and the last pass's are no rise, the history restarts. */
	bool restarted;
	bool have_snap, have_results;
	struct rd_snapshot snap;
	struct rd_results results;
	double probe_ms;	/* what the snapshot cost */
	size_t frame, n_frames; /* recordings: which frame of how many */
	bool is_undo;
	int rc;
	struct con_result_key key; /* CON_UP_FIX_DONE: the check fixed */
	char text[512];
	/* CON_UP_FIX_DONE: the journal entry, and the CLOCK_REALTIME
	 * deadline of its rollback timer (0: none) */
	char fix_id[RD_JOURNAL_ID_MAX];
	double confirm_by;
	/*
	 * The past as the checks saw it: the flight recorder's store and
	 * what the live watch caught (have_past: a new list, taken by
	 * con_state_adopt); why the store or a watched source could not be
	 * read ("" when nothing is missing).
	 */
	bool have_past;
	struct rd_events past;
	char store_err[256];
	char watch_err[256];
};

struct con_update *con_update_new(enum con_update_kind kind);
void con_update_free(struct con_update *u);

/* p is CON_NO_PORT for a device whose ports could not be read: it keeps
 * its row, with no port behind it. */
#define CON_NO_PORT ((size_t)-1)

struct con_portref {
	size_t d, p; /* indexes into snap.devices / ports */
};

struct con_state {
	enum con_source_kind source;
	size_t frame, n_frames;
	bool paused;
	double interval; /* seconds between refreshes */
	/* data, replaced as a whole by each update */
	struct rd_snapshot snap;
	bool have_snap;
	struct rd_history hist;
	struct rd_results results;
	bool have_results;
	double probe_ms;
	char source_err[256]; /* why the last snapshot failed, "" if none */
	/* what the counters mean; loaded once before any worker starts */
	const struct rd_counter_table *counters;
	/* selection: one row per device port, kept across updates by name */
	struct con_portref *ports;
	size_t n_ports;
	size_t sel;
	char sel_dev[64];
	uint64_t sel_port;
	/* the worst port was selected once for this source (at start) */
	bool picked_worst;
	/* the past (see struct con_update), oldest first */
	struct rd_events past;
	bool have_past;
	char store_err[256];
	char watch_err[256];
};

/*
 * "Since you were last here": what the past holds of the last `hours`
 * before now (seconds since the epoch) in one line, for the banner at
 * start: each port that went down, how often and when last ("rxe0/1 went
 * down 3 times, last at 10:20:22 UTC"), and how many events in all.
 * False (buf "") when nothing happened in that span.
 */
bool con_past_summary(const struct rd_events *past, double now, double hours,
		      char *buf, size_t size);

/*
 * Set up an empty state. Loads the data tables (counters.tsv,
 * firmware.tsv) here, in one thread, so later readers in the loop and in
 * the worker only read them.
 */
void con_state_init(struct con_state *st, enum con_source_kind source,
		    double interval);
void con_state_free(struct con_state *st);

/*
 * Take what an update carries: a snapshot and results replace the shown
 * ones (the update keeps nothing), an error is remembered. The update
 * itself is still the caller's to free.
 */
void con_state_adopt(struct con_state *st, struct con_update *u);

const struct rd_device *con_sel_device(const struct con_state *st);
const struct rd_port *con_sel_port(const struct con_state *st);
const struct rd_netdev *con_port_netdev(const struct con_state *st,
					const struct rd_port *p);
const struct rd_pci *con_device_pci(const struct con_state *st,
				    const struct rd_device *d);
void con_select(struct con_state *st, size_t row);
/*
 * The most important finding: the worst result that is not PASS; among
 * equals a port that is down comes first (the on-call path), then the
 * lower layers, whose failures explain the ones above them. NULL when
 * there is none (every check passes or only UNKNOWN remains).
 */
const struct rd_result *con_top_finding(const struct con_state *st);
/* How important a result is, for the above (higher is worse). */
int con_finding_rank(const struct rd_result *r);
/*
 * Select the row of the port a result is about (its device's first row
 * when it names no port); a host-wide result selects the port with the
 * worst findings. False when no row fits.
 */
bool con_select_for(struct con_state *st, const struct rd_result *r);
/*
 * Select the next (dir > 0) or previous row after the selected one whose
 * worst verdict is not PASS, going round the end. False when no other
 * row has one.
 */
bool con_select_next_finding(struct con_state *st, int dir);
/* Worst verdict of the checks about one port (or the device, port 0). */
bool con_port_worst(const struct con_state *st, const char *dev, uint64_t port,
		    enum rd_verdict *v);

void con_result_key_of(const struct rd_result *r, struct con_result_key *k);
bool con_result_key_eq(const struct con_result_key *a,
		       const struct con_result_key *b);
/* The result with this key, or NULL. */
const struct rd_result *con_find_result(const struct rd_results *rs,
					const struct con_result_key *k);

#endif
