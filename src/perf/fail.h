/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a test failed, recorded where it failed and kept beside its message:
 * the stage, and the code the kernel, the device or rdma_cm gave. Whoever
 * explains the failure reads this, never the message's words.
 */
#ifndef RD_PERF_FAIL_H
#define RD_PERF_FAIL_H

enum perf_fail_kind {
	PERF_FAIL_NONE,		/* nothing failed */
	PERF_FAIL_LOCAL,	/* this host: device, GID, memory, options,
				 * a local verbs call */
	PERF_FAIL_OOB,		/* the out-of-band channel: no connection,
				 * a message that is not perftest's */
	PERF_FAIL_OOB_SILENT,	/* the peer sent nothing within the timeout */
	PERF_FAIL_OOB_CLOSED,	/* the peer closed or reset the channel */
	PERF_FAIL_QP_RTR,	/* ibv_modify_qp to RTR refused: err */
	PERF_FAIL_QP_RTS,	/* ibv_modify_qp to RTS refused: err */
	PERF_FAIL_WC,		/* a completion with an error: wc_status */
	PERF_FAIL_STALL,	/* no completion within the stall limit */
	PERF_FAIL_CM,		/* an rdma_cm call, its event or its control
				 * QP failed */
	PERF_FAIL_CM_EVENT,	/* rdma_cm answered with another event:
				 * cm_event, cm_status */
	PERF_FAIL_STOPPED,	/* interrupted (SIGINT) */
	PERF_FAIL_KINDS
};

struct perf_fail {
	enum perf_fail_kind kind;
	int err;	/* the errno of the refused call; 0: none */
	int wc_status;	/* enum ibv_wc_status of PERF_FAIL_WC, else -1 */
	int cm_event;	/* enum rdma_cm_event_type of PERF_FAIL_CM_EVENT,
			 * else -1 */
	int cm_status;	/* that event's status */
};

#define PERF_FAIL_INIT                                                         \
	((struct perf_fail){ .kind = PERF_FAIL_NONE, .wc_status = -1,          \
			     .cm_event = -1 })

/* A failure of kind with errno err (0: none) and no status. */
static inline struct perf_fail perf_fail_of(enum perf_fail_kind kind, int err)
{
	struct perf_fail f = PERF_FAIL_INIT;

	f.kind = kind;
	f.err = err;
	return f;
}

#endif
