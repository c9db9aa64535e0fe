/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kind of failure ended a bw/lat test, from the record the test made
 * where it failed (never from its message's words), and which mismatches
 * of the two ports or of the two tests' choices can explain that kind,
 * most likely first. Pure: no I/O.
 */
#ifndef RD_PEER_FAILURE_H
#define RD_PEER_FAILURE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag/compare.h"
#include "perf/fail.h"

enum rd_fail_kind {
	RD_FAIL_OTHER,		/* none of the kinds below */
	RD_FAIL_OOB,		/* the TCP exchange, before any RDMA */
	RD_FAIL_RTR,		/* modify QP to RTR refused */
	RD_FAIL_RTS,		/* modify QP to RTS refused */
	RD_FAIL_WC_RETRY,	/* completion status 12: retry exceeded */
	RD_FAIL_WC,		/* another completion error */
	RD_FAIL_TIMEOUT,	/* no completion within the timeout */
	RD_FAIL_PEER_GONE,	/* the peer ended the test after the exchange */
	RD_FAIL_CM_ADDR,	/* rdma_cm: address or route not resolved */
	RD_FAIL_CM_ROUTE,
	RD_FAIL_CM_UNREACH,	/* rdma_cm: no answer to the request */
	RD_FAIL_CM_REJECT,	/* rdma_cm: the request refused */
	RD_FAIL_KINDS
};

struct rd_failure {
	enum rd_fail_kind kind;
	int status;		/* the ibv_wc_status of RD_FAIL_WC*, else -1 */
	char label[160];	/* "QP to RTR refused (Invalid argument)" */
};

/*
 * Classify why, the test's record of its failure (NULL, or kind
 * PERF_FAIL_NONE: not known). rdma false: the test never got past its
 * TCP exchange. The label names the errno or the completion status.
 */
void rd_failure_classify(const struct perf_fail *why, bool rdma,
			 struct rd_failure *f);

/* How well a mismatch accounts for a kind of failure. */
enum rd_fail_fit {
	RD_FIT_NONE,	/* cannot explain it */
	RD_FIT_SLOW,	/* may slow the test, does not fail it */
	RD_FIT_CAN,	/* can explain it */
};

/*
 * How well the mismatch named what (an rd_cmp_item's what) fits kind,
 * and its rank among those that fit (lower: more likely).
 */
enum rd_fail_fit rd_failure_fit(enum rd_fail_kind kind, const char *what,
				int *rank);

/*
 * Order n mismatches for kind: the indexes of those that can explain it,
 * most likely first, into can (*ncan), then those that may slow it into
 * slow (*nslow). can and slow hold n entries each.
 */
void rd_failure_rank(enum rd_fail_kind kind, const struct rd_cmp_item *const *items,
		     size_t n, size_t *can, size_t *ncan, size_t *slow,
		     size_t *nslow);

#endif
