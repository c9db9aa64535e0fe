/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder's pure half: what changed between two snapshots
 * (port and physical state, carrier, module present, devlink health,
 * new kernel log records, check verdicts) and how much each error counter
 * rose, as rows for the store; and the --since duration ("2h", "30m").
 * Nothing here opens a file.
 */
#ifndef RD_CMD_RECORD_DIFF_H
#define RD_CMD_RECORD_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"
#include "diag/diag.h"

/* One event: kind is "link", "phys", "carrier", "module", "health",
 * "kernel" or "check"; strings are raw (escaped when printed). */
struct rd_rec_event {
	double time;   /* seconds since the epoch */
	char *device;  /* RDMA device, or a devlink bus/dev; may be NULL */
	uint64_t port; /* 0 = none */
	char *netdev;
	const char *kind;
	char *text;
};

/* How much one counter rose over one interval. */
struct rd_rec_delta {
	char *device;
	uint64_t port;
	char *counter;
	uint64_t delta;
};

struct rd_rec_batch {
	struct rd_rec_event *events;
	size_t n_events;
	struct rd_rec_delta *deltas;
	size_t n_deltas;
};

void rd_rec_batch_free(struct rd_rec_batch *b);

/*
 * The events and counter deltas from prev to cur (prev NULL: the first
 * interval, where each port's state is written once as where the
 * recording starts, and every kernel record kept is new). Results are the
 * checks run on each snapshot (pres NULL with prev NULL); a verdict is
 * written when it changed, or on the first interval when it is WARN or
 * FAIL.
 * Only counters data/counters.tsv marks bad when rising, link_downed and
 * the netdev's carrier_down_count are counted; a counter that went back
 * (a reset) gives no delta. 0 or -ENOMEM.
 */
int rd_rec_diff(const struct rd_snapshot *prev, const struct rd_results *pres,
		const struct rd_snapshot *cur, const struct rd_results *cres,
		struct rd_rec_batch *out);

/*
 * "90", "90s", "30m", "2h", "7d" (a positive decimal number, then an
 * optional unit) into seconds. 0 or -EINVAL. Independent of the locale.
 */
int rd_rec_parse_duration(const char *s, double *seconds);

#endif
