/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The peer check before a bw/lat test: a short `peer` exchange with
 * rdmadiag on the test's server host, either inside the test's own
 * channel (both version messages marked) or with `rdmadiag peer --listen`
 * on a port of its own (--peer-port), the mismatch list
 * printed before the test, and, when the test fails, the mismatches that
 * can explain it, or the fact that none was found.
 */
#ifndef RD_PEER_PRECHECK_H
#define RD_PEER_PRECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/snapshot.h"
#include "diag/compare.h"
#include "peer/choice.h"
#include "perf/oob.h"

struct rd_peer_precheck {
	bool ran;		/* the exchange succeeded: c is filled */
	struct rd_compare c;
	char err[512];		/* why it did not run, escaped */
	/* The two tests' choices (set false: not known) and their
	 * mismatches; test_note says why they were not compared. */
	struct rd_test_choice mine_t, peer_t;
	struct rd_cmp_item titems[RD_TEST_ITEMS_MAX];
	size_t nt;
	char test_note[200];
};

/*
 * Compare this host's port (dev, ib_port in s; s NULL: it could not be
 * read, which is said) with the one described by
 * rdmadiag peer on host:port, within timeout_ms; print the list to out
 * (NULL: print nothing). A failure is not fatal to the test: pc->err says
 * why and is printed as one line. rdmadiag peer --listen runs no test, so
 * the tests' choices are not compared there. 0, or -errno.
 */
int rd_peer_precheck_run(struct rd_peer_precheck *pc,
			 const struct rd_snapshot *s, const char *dev,
			 unsigned ib_port, const char *host, uint16_t port,
			 int timeout_ms, FILE *out);

/*
 * The same check inside a bw/lat test's own channel o, once both version
 * messages carried rdmadiag's mark (client: this side wrote first); who
 * names the other side. test: this side's test's choices, sent with the
 * summary and compared with the peer's (NULL: not known). The list (or
 * why there is none) goes to out.
 * -errno with o->err set only when the channel is out of step and the
 * test cannot go on; a refused or missing summary is pc->err and 0.
 */
int rd_peer_precheck_inband(struct rd_peer_precheck *pc,
			    const struct rd_snapshot *s, const char *dev,
			    unsigned ib_port, const struct rd_test_choice *test,
			    struct perf_oob *o, bool client, const char *who,
			    int timeout_ms, FILE *out);

/*
 * After a failed test: the kind of failure why (the test's record of it,
 * struct perf_session's fail) names, and the mismatches of the ports and
 * of the tests' choices that can explain it, most likely first; or that
 * none does. rdma: the test got past its TCP exchange (or connects
 * through rdma_cm).
 */
void rd_peer_precheck_explain(const struct rd_peer_precheck *pc, bool rdma,
			      const struct perf_fail *why, FILE *out);

void rd_peer_precheck_free(struct rd_peer_precheck *pc);

#endif
