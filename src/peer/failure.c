// SPDX-License-Identifier: GPL-2.0-or-later
/* The kind of a test's failure and the mismatches behind it: see failure.h. */
#include "config.h"

#include "peer/failure.h"

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <string.h>

static const struct {
	int event;
	enum rd_fail_kind kind;
	const char *label;
} cm_events[] = {
	{ RDMA_CM_EVENT_ADDR_ERROR, RD_FAIL_CM_ADDR,
	  "rdma_cm could not resolve the address (ADDR_ERROR)" },
	{ RDMA_CM_EVENT_ROUTE_ERROR, RD_FAIL_CM_ROUTE,
	  "rdma_cm found no route (ROUTE_ERROR)" },
	{ RDMA_CM_EVENT_UNREACHABLE, RD_FAIL_CM_UNREACH,
	  "rdma_cm's request got no answer (UNREACHABLE)" },
	{ RDMA_CM_EVENT_CONNECT_ERROR, RD_FAIL_CM_UNREACH,
	  "rdma_cm could not connect (CONNECT_ERROR)" },
	{ RDMA_CM_EVENT_REJECTED, RD_FAIL_CM_REJECT,
	  "rdma_cm's request was refused (REJECTED)" },
};

static void set(struct rd_failure *f, enum rd_fail_kind kind,
		const char *label)
{
	f->kind = kind;
	snprintf(f->label, sizeof(f->label), "%s", label);
}

void rd_failure_classify(const struct perf_fail *why, bool rdma,
			 struct rd_failure *f)
{
	const struct perf_fail none = PERF_FAIL_INIT;

	memset(f, 0, sizeof(*f));
	f->status = -1;
	if (!why)
		why = &none;
	if (why->kind == PERF_FAIL_CM_EVENT)
		for (size_t i = 0; i < sizeof(cm_events) / sizeof(cm_events[0]);
		     i++)
			if (cm_events[i].event == why->cm_event) {
				set(f, cm_events[i].kind, cm_events[i].label);
				return;
			}
	if (!rdma) {
		set(f, RD_FAIL_OOB, "the TCP exchange");
		return;
	}
	switch (why->kind) {
	case PERF_FAIL_QP_RTR:
	case PERF_FAIL_QP_RTS:
		f->kind = why->kind == PERF_FAIL_QP_RTR ? RD_FAIL_RTR
							: RD_FAIL_RTS;
		snprintf(f->label, sizeof(f->label),
			 "the QP's move to %s was refused (%s)",
			 f->kind == RD_FAIL_RTR ? "RTR" : "RTS",
			 why->err > 0 ? strerror(why->err) : "no reason given");
		return;
	case PERF_FAIL_WC:
		if (why->wc_status < 0)
			break;
		f->status = why->wc_status;
		f->kind = why->wc_status == IBV_WC_RETRY_EXC_ERR
				  ? RD_FAIL_WC_RETRY
				  : RD_FAIL_WC;
		snprintf(f->label, sizeof(f->label),
			 "completion status %d (%s)", f->status,
			 ibv_wc_status_str((enum ibv_wc_status)f->status));
		return;
	case PERF_FAIL_STALL:
		set(f, RD_FAIL_TIMEOUT, "no completion within the timeout");
		return;
	case PERF_FAIL_OOB_CLOSED:
	case PERF_FAIL_OOB_SILENT:
		set(f, RD_FAIL_PEER_GONE,
		    "the peer stopped answering after the TCP exchange");
		return;
	case PERF_FAIL_NONE:
	case PERF_FAIL_LOCAL:
	case PERF_FAIL_OOB:
	case PERF_FAIL_CM:
	case PERF_FAIL_CM_EVENT:	/* an event that ends no connection */
	case PERF_FAIL_STOPPED:
	case PERF_FAIL_KINDS:
		break;
	}
	set(f, RD_FAIL_OTHER, "this failure");
}

/* Mismatches by the name compare and choice give them. */
enum mm {
	MM_TEST_GID, MM_TEST_GID_TYPE, MM_TEST_GRH, MM_TEST_MTU,
	MM_V2_IPV4, MM_SUBNET, MM_GID_INDEX, MM_ROCE_VERSION, MM_CM_MODE,
	MM_ACTIVE_MTU, MM_NETDEV_MTU, MM_CM_TOS, MM_ECN, MM_TRUST, MM_PRIO,
	MM_LOSSLESS, MM_RATE, MM_PKEY, MM_UNKNOWN
};

static const char *const mm_names[] = {
	[MM_TEST_GID] = "the test's GID",
	[MM_TEST_GID_TYPE] = "the test's GID type",
	[MM_TEST_GRH] = "the test's GRH",
	[MM_TEST_MTU] = "the test's MTU",
	[MM_V2_IPV4] = "IPv4 RoCE v2 GID",
	[MM_SUBNET] = "IPv4 subnet",
	[MM_GID_INDEX] = "IPv4 RoCE v2 GID index",
	[MM_ROCE_VERSION] = "RoCE version",
	[MM_CM_MODE] = "rdma_cm default RoCE mode",
	[MM_ACTIVE_MTU] = "active MTU",
	[MM_NETDEV_MTU] = "netdev MTU",
	[MM_CM_TOS] = "rdma_cm default ToS",
	[MM_ECN] = "ECN",
	[MM_TRUST] = "trust mode",
	[MM_PRIO] = "RoCE priority",
	[MM_LOSSLESS] = "lossless RoCE",
	[MM_RATE] = "rate",
	[MM_PKEY] = "P_Key (index 0)",
};

static enum mm mm_of(const char *what)
{
	for (size_t i = 0; i < MM_UNKNOWN; i++)
		if (mm_names[i] && strcmp(what, mm_names[i]) == 0)
			return (enum mm)i;
	return MM_UNKNOWN;
}

#define END MM_UNKNOWN
/* What a packet-level failure (retry exceeded, silence) can come from. */
static const enum mm wire_can[] = { MM_TEST_GID, MM_TEST_GID_TYPE,
				    MM_TEST_GRH, MM_ROCE_VERSION, MM_V2_IPV4,
				    MM_SUBNET, MM_NETDEV_MTU, MM_ACTIVE_MTU,
				    MM_PKEY, END };
static const enum mm wire_slow[] = { MM_ECN, MM_TRUST, MM_PRIO, MM_LOSSLESS,
				     MM_CM_TOS, MM_RATE, MM_TEST_MTU, END };
/* RTR is refused on this host: a GID the kernel cannot route from or to,
 * or a path MTU above the port's. */
static const enum mm rtr_can[] = { MM_TEST_GID, MM_TEST_GID_TYPE, MM_TEST_GRH,
				   MM_V2_IPV4, MM_SUBNET, MM_ACTIVE_MTU, END };
static const enum mm cm_addr_can[] = { MM_V2_IPV4, MM_SUBNET, END };
static const enum mm cm_route_can[] = { MM_SUBNET, MM_V2_IPV4, END };
static const enum mm cm_conn_can[] = { MM_CM_MODE, MM_ROCE_VERSION, MM_V2_IPV4,
				       MM_SUBNET, MM_PKEY, END };
static const enum mm cm_slow[] = { MM_CM_TOS, MM_ECN, MM_TRUST, MM_PRIO,
				   MM_LOSSLESS, END };
static const enum mm none[] = { END };

static void lists(enum rd_fail_kind kind, const enum mm **can,
		  const enum mm **slow)
{
	*can = none;
	*slow = none;
	switch (kind) {
	case RD_FAIL_WC_RETRY:
	case RD_FAIL_TIMEOUT:
	case RD_FAIL_PEER_GONE:
		*can = wire_can;
		*slow = wire_slow;
		break;
	case RD_FAIL_RTR:
		*can = rtr_can;
		break;
	case RD_FAIL_CM_ADDR:
		*can = cm_addr_can;
		break;
	case RD_FAIL_CM_ROUTE:
		*can = cm_route_can;
		break;
	case RD_FAIL_CM_UNREACH:
	case RD_FAIL_CM_REJECT:
		*can = cm_conn_can;
		*slow = cm_slow;
		break;
	case RD_FAIL_OTHER:
	case RD_FAIL_OOB:
	case RD_FAIL_RTS:	/* this host's own attributes, not the peer */
	case RD_FAIL_WC:	/* access, length, RNR: the programs, not ports */
	case RD_FAIL_KINDS:
		break;
	}
}

enum rd_fail_fit rd_failure_fit(enum rd_fail_kind kind, const char *what,
				int *rank)
{
	const enum mm *can, *slow;
	enum mm m = mm_of(what);

	*rank = 0;
	if (m == MM_UNKNOWN)
		return RD_FIT_NONE;
	lists(kind, &can, &slow);
	for (int i = 0; can[i] != END; i++)
		if (can[i] == m) {
			*rank = i;
			return RD_FIT_CAN;
		}
	for (int i = 0; slow[i] != END; i++)
		if (slow[i] == m) {
			*rank = i;
			return RD_FIT_SLOW;
		}
	return RD_FIT_NONE;
}

void rd_failure_rank(enum rd_fail_kind kind,
		     const struct rd_cmp_item *const *items, size_t n,
		     size_t *can, size_t *ncan, size_t *slow, size_t *nslow)
{
	int rank_can[64], rank_slow[64];

	*ncan = *nslow = 0;
	for (size_t i = 0; i < n; i++) {
		int rank;
		enum rd_fail_fit fit = rd_failure_fit(kind, items[i]->what, &rank);
		size_t *idx = fit == RD_FIT_CAN ? can : slow;
		int *ranks = fit == RD_FIT_CAN ? rank_can : rank_slow;
		size_t *cnt = fit == RD_FIT_CAN ? ncan : nslow;
		size_t k;

		if (fit == RD_FIT_NONE || *cnt >= 64)
			continue;
		/* Insert by rank; equal ranks keep the items' order. */
		for (k = *cnt; k > 0 && ranks[k - 1] > rank; k--) {
			idx[k] = idx[k - 1];
			ranks[k] = ranks[k - 1];
		}
		idx[k] = i;
		ranks[k] = rank;
		(*cnt)++;
	}
}
