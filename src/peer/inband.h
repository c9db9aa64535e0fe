/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdmadiag's own messages on the port of a bw/lat test (no -P port of its
 * own): the two ends exchange their port summaries and the test's choices
 * in the test's out-of-band channel before the test, and a server on that
 * port answers `rdmadiag peer HOST` and waits on for the test's client.
 * hooks is what perf_opts.inband points at.
 */
#ifndef RD_PEER_INBAND_H
#define RD_PEER_INBAND_H

#include <stdbool.h>
#include <stdio.h>

#include "core/snapshot.h"
#include "peer/precheck.h"
#include "perf/perf.h"

struct rd_peer_inband {
	const struct perf_opts *o;
	const struct rd_snapshot *snap; /* NULL: this host was not read */
	struct rd_peer_precheck *pc;
	bool done; /* the list was exchanged in the test's channel */
	struct perf_inband hooks;
};

void rd_peer_inband_init(struct rd_peer_inband *ib, const struct perf_opts *o,
			 const struct rd_snapshot *snap,
			 struct rd_peer_precheck *pc);
/* Where the peer check's lines go: stderr under --json or -q. */
FILE *rd_peer_inband_out(const struct perf_opts *o);
/* The header's line on the peer check: its outcome, or why none. */
void rd_peer_inband_note(const struct perf_opts *o,
			 const struct rd_peer_precheck *pc, bool tried,
			 char *buf, size_t len);

#endif
