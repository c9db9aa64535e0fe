/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reachability matrix: for pairs of GIDs (one on each host, the same
 * RoCE type and address family), connect one RC QP pair through them and
 * send one message, so a GID choice is proven rather than inferred.
 *
 * After the summaries the client sends a frame {"matrix": [{"a": index
 * here, "b": index there, "qpn", "psn", "lid", "gid": 32 hex digits}]};
 * the server makes one QP per pair on GID b, connects it to the client's
 * QP, posts a receive and answers {"matrix": [{"qpn", "psn", "lid",
 * "gid"} or {"error": "..."}]} (or {"error": "..."} for all). The client
 * connects its QPs, sends one message on each, waits for the completions
 * until its deadline, and ends with {"done": true}, after which the server
 * destroys its QPs.
 */
#ifndef RD_PEER_MATRIX_H
#define RD_PEER_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model_ib.h"
#include "perf/oob.h"

#define RD_PEER_CAND_MAX 8
#define RD_PEER_PAIRS_MAX 16

/* A GID worth trying: RoCE v1 or v2, not empty. */
struct rd_peer_cand {
	int64_t index;
	bool v2;
	bool ipv4;
	char addr[48];		/* its IPv4 or IPv6 address */
};

enum rd_peer_result { RD_PEER_UNTRIED, RD_PEER_WORKS, RD_PEER_FAILS };

struct rd_peer_pair {
	struct rd_peer_cand a, b;	/* here, there */
	enum rd_peer_result result;
	char why[200];			/* escaped; for FAILS and UNTRIED */
};

/* The candidate GIDs of a port: IPv4 v2 first, then IPv4 v1, IPv6 v2, v1. */
size_t rd_peer_candidates(const struct rd_port *p, struct rd_peer_cand *out,
			  size_t max);

/* Pairs of the same RoCE type and family; at most max. */
size_t rd_peer_pairs(const struct rd_peer_cand *a, size_t na,
		     const struct rd_peer_cand *b, size_t nb,
		     struct rd_peer_pair *out, size_t max);

/*
 * Client: run the matrix on device dev port port of this host, the
 * message at path MTU mtu_bytes, waiting at most timeout_ms for the
 * messages. Every pair gets a result; -errno (err set) only when nothing
 * could be tried (no device, the peer refused the matrix).
 */
int rd_peer_matrix_run(struct perf_oob *o, const char *dev, unsigned port,
		       unsigned mtu_bytes, int timeout_ms,
		       struct rd_peer_pair *pairs, size_t n, char *err,
		       size_t errlen);

/*
 * Server: answer a matrix request, if the client sends one, on dev/port
 * (dev NULL: refuse it, saying why_not). 0 when the client closed or
 * finished; -errno with err set.
 */
int rd_peer_matrix_serve(struct perf_oob *o, const char *dev, unsigned port,
			 const char *why_not, int timeout_ms, char *err,
			 size_t errlen);

#endif
