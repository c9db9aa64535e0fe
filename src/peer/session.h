/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One peer exchange on a TCP connection: greetings, then the client's
 * summary and the server's answer (its summary, or why it has none).
 * Every failure is one escaped line in err naming what went wrong.
 */
#ifndef RD_PEER_SESSION_H
#define RD_PEER_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "peer/summary.h"
#include "peer/wire.h"

/*
 * Client: connect to host:port, greet, send mine, read theirs (decoded
 * into *theirs). o stays open on success for what follows (the
 * reachability matrix); closed on failure. 0 or -errno.
 */
int rd_peer_client(struct perf_oob *o, const char *host, uint16_t port,
		   int timeout_ms, const struct rd_peer_summary *mine,
		   struct rd_peer_summary *theirs, char *err, size_t errlen);

/*
 * Server, on an accepted connection: read the greeting and the client's
 * summary, answer with mine or, when mine is NULL, with why_not. 0 with
 * *theirs filled, or -errno with err set (a perftest client, garbage, a
 * silent client).
 */
int rd_peer_serve(struct perf_oob *o, int timeout_ms,
		  const struct rd_peer_summary *mine, const char *why_not,
		  struct rd_peer_summary *theirs, char *err, size_t errlen);

/*
 * The summaries alone, on a channel both sides already agreed to use for
 * them (a bw/lat test's, after both version messages carried the mark):
 * the client's frame first, then the server's answer. Each side sends
 * exactly one frame, its summary or, when mine is NULL, why_not, so the
 * channel stays in step even when one side has nothing to describe.
 * who names the other side in err. 0 with *theirs filled; -errno with err
 * set, and *broken true when the channel is out of step (the other side
 * silent or gone, a frame not read whole), false when only its summary
 * was refused. o is never closed.
 */
int rd_peer_swap_client(struct perf_oob *o, const char *who, int timeout_ms,
			const struct rd_peer_summary *mine,
			const char *why_not, struct rd_peer_summary *theirs,
			bool *broken, char *err, size_t errlen);
int rd_peer_swap_server(struct perf_oob *o, const char *who, int timeout_ms,
			const struct rd_peer_summary *mine,
			const char *why_not, struct rd_peer_summary *theirs,
			bool *broken, char *err, size_t errlen);

/* The first bytes of a client on a bw/lat server's port: true when they
 * are the peer greeting, which rd_peer_serve then answers. */
bool rd_peer_greeting_claims(const char *first, size_t len);

#endif
