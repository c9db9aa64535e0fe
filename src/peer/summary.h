/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one host tells another about one RDMA port: a snapshot cut down to
 * that device and port, the netdevs behind it, and its rdma_cm defaults,
 * with no counters, wrapped in a versioned JSON envelope. The decoder
 * takes bytes from the network and trusts none of them: size, nesting,
 * member counts and string lengths are bounded before anything is built,
 * and every message it writes is escaped.
 */
#ifndef RD_PEER_SUMMARY_H
#define RD_PEER_SUMMARY_H

#include <stddef.h>

#include "core/snapshot.h"
#include "diag/compare.h"
#include "peer/choice.h"

#define RD_PEER_SUMMARY_VERSION 1
/* One encoded summary; the decoder refuses anything larger unread. */
#define RD_PEER_SUMMARY_MAX (64u * 1024)
/* Field caps a decoded summary must keep. */
#define RD_PEER_GIDS_MAX 256
#define RD_PEER_NETDEVS_MAX 16
#define RD_PEER_ADDRS_MAX 64
#define RD_PEER_CM_PORTS_MAX 16
#define RD_PEER_STRING_MAX 256

struct rd_peer_summary {
	struct rd_snapshot s;	/* one device with one port */
	struct rd_cmp_side side;
	char program[64];	/* the sender's "rdmadiag 0.1.0", escaped */
	/* The sender's bw/lat test's choices; test.set false: none sent
	 * (an older rdmadiag, or no test), or test_err says why refused. */
	struct rd_test_choice test;
	char test_err[160];
};

/*
 * Cut side's device and port out of its snapshot into out (initialised
 * here): the port without counters, the netdev behind it and those whose
 * lower device it is (VLANs), the rdma_cm defaults of the port, and the
 * host's name. 0, or -ENOMEM with out empty.
 */
int rd_peer_summary_make(const struct rd_cmp_side *side,
			 struct rd_peer_summary *out);

/*
 * The envelope with the summary (sum != NULL) or with an error message
 * for the peer (msg). A malloc'd string in *out, its length in *len.
 * 0, -ENOMEM, or -E2BIG when over RD_PEER_SUMMARY_MAX.
 */
int rd_peer_summary_encode(const struct rd_peer_summary *sum, const char *msg,
			   char **out, size_t *len);

/*
 * Decode len bytes from a peer into out (initialised here). 0; -EREMOTE
 * when the peer sent an error message (err: "the peer says: ..."); or
 * -EINVAL / -E2BIG / -EPROTO with one escaped line in err. out owns
 * nothing after a failure.
 */
int rd_peer_summary_decode(const char *buf, size_t len,
			   struct rd_peer_summary *out, char *err,
			   size_t errlen);

void rd_peer_summary_free(struct rd_peer_summary *sum);

#endif
