// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A failed test's record names its kind, and the mismatches that can
 * explain that kind come first: a table of (failure, mismatches) and the
 * mismatch expected to be named first, or none.
 */
#include "config.h"

#include "unit.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "peer/failure.h"
#include "perf/perf.h"

/* A record as the test makes it where it fails. */
static struct perf_fail rec(enum perf_fail_kind kind, int err, int wc,
			    int event)
{
	struct perf_fail f = perf_fail_of(kind, err);

	f.wc_status = wc;
	f.cm_event = event;
	return f;
}

static void test_classify(void **state)
{
	static const struct {
		enum perf_fail_kind kind;
		int err, wc, event;
		bool rdma;
		enum rd_fail_kind want;
		int status;
		const char *label;
	} t[] = {
		{ PERF_FAIL_QP_RTR, EINVAL, -1, -1, true, RD_FAIL_RTR, -1,
		  "the QP's move to RTR was refused (Invalid argument)" },
		{ PERF_FAIL_QP_RTR, ENETUNREACH, -1, -1, true, RD_FAIL_RTR, -1,
		  "the QP's move to RTR was refused (Network is unreachable)" },
		{ PERF_FAIL_QP_RTR, 0, -1, -1, true, RD_FAIL_RTR, -1,
		  "the QP's move to RTR was refused (no reason given)" },
		{ PERF_FAIL_QP_RTS, EINVAL, -1, -1, true, RD_FAIL_RTS, -1,
		  "the QP's move to RTS was refused (Invalid argument)" },
		{ PERF_FAIL_WC, EIO, IBV_WC_RETRY_EXC_ERR, -1, true,
		  RD_FAIL_WC_RETRY, 12,
		  "completion status 12 (transport retry counter exceeded)" },
		{ PERF_FAIL_WC, EIO, IBV_WC_REM_ACCESS_ERR, -1, true, RD_FAIL_WC,
		  10, "completion status 10 (remote access error)" },
		{ PERF_FAIL_WC, EIO, IBV_WC_RNR_RETRY_EXC_ERR, -1, true,
		  RD_FAIL_WC, 13,
		  "completion status 13 (RNR retry counter exceeded)" },
		/* A completion error without its status is not one. */
		{ PERF_FAIL_WC, EIO, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		{ PERF_FAIL_STALL, ETIMEDOUT, -1, -1, true, RD_FAIL_TIMEOUT, -1,
		  "no completion within the timeout" },
		{ PERF_FAIL_OOB_CLOSED, ECONNRESET, -1, -1, true,
		  RD_FAIL_PEER_GONE, -1,
		  "the peer stopped answering after the TCP exchange" },
		{ PERF_FAIL_OOB_SILENT, ETIMEDOUT, -1, -1, true,
		  RD_FAIL_PEER_GONE, -1,
		  "the peer stopped answering after the TCP exchange" },
		{ PERF_FAIL_CM_EVENT, ECONNREFUSED, -1, RDMA_CM_EVENT_REJECTED,
		  true, RD_FAIL_CM_REJECT, -1,
		  "rdma_cm's request was refused (REJECTED)" },
		{ PERF_FAIL_CM_EVENT, EPROTO, -1, RDMA_CM_EVENT_ADDR_ERROR, true,
		  RD_FAIL_CM_ADDR, -1,
		  "rdma_cm could not resolve the address (ADDR_ERROR)" },
		{ PERF_FAIL_CM_EVENT, EPROTO, -1, RDMA_CM_EVENT_ROUTE_ERROR,
		  true, RD_FAIL_CM_ROUTE, -1,
		  "rdma_cm found no route (ROUTE_ERROR)" },
		{ PERF_FAIL_CM_EVENT, EHOSTUNREACH, -1,
		  RDMA_CM_EVENT_UNREACHABLE, true, RD_FAIL_CM_UNREACH, -1,
		  "rdma_cm's request got no answer (UNREACHABLE)" },
		{ PERF_FAIL_CM_EVENT, EHOSTUNREACH, -1,
		  RDMA_CM_EVENT_CONNECT_ERROR, true, RD_FAIL_CM_UNREACH, -1,
		  "rdma_cm could not connect (CONNECT_ERROR)" },
		/* rdma_cm's answer names its kind before any TCP question. */
		{ PERF_FAIL_CM_EVENT, ECONNREFUSED, -1, RDMA_CM_EVENT_REJECTED,
		  false, RD_FAIL_CM_REJECT, -1,
		  "rdma_cm's request was refused (REJECTED)" },
		/* An event that ends no connection explains nothing. */
		{ PERF_FAIL_CM_EVENT, EPROTO, -1, RDMA_CM_EVENT_DISCONNECTED,
		  true, RD_FAIL_OTHER, -1, "this failure" },
		{ PERF_FAIL_CM, ETIMEDOUT, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		{ PERF_FAIL_LOCAL, ENOMEM, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		{ PERF_FAIL_OOB, EPROTO, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		{ PERF_FAIL_STOPPED, EINTR, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		{ PERF_FAIL_NONE, 0, -1, -1, true, RD_FAIL_OTHER, -1,
		  "this failure" },
		/* Before RDMA, whatever the kind. */
		{ PERF_FAIL_QP_RTR, EINVAL, -1, -1, false, RD_FAIL_OOB, -1,
		  "the TCP exchange" },
		{ PERF_FAIL_OOB, ECONNREFUSED, -1, -1, false, RD_FAIL_OOB, -1,
		  "the TCP exchange" },
		{ PERF_FAIL_WC, EIO, 12, -1, false, RD_FAIL_OOB, -1,
		  "the TCP exchange" },
	};
	struct rd_failure f;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct perf_fail why = rec(t[i].kind, t[i].err, t[i].wc,
					   t[i].event);

		rd_failure_classify(&why, t[i].rdma, &f);
		if (f.kind != t[i].want || f.status != t[i].status ||
		    strcmp(f.label, t[i].label) != 0)
			fail_msg("case %zu: kind %d status %d \"%s\"", i,
				 f.kind, f.status, f.label);
	}
	/* No record at all: not known, never a guess. */
	rd_failure_classify(NULL, true, &f);
	assert_int_equal(f.kind, RD_FAIL_OTHER);
	assert_string_equal(f.label, "this failure");
	rd_failure_classify(NULL, false, &f);
	assert_int_equal(f.kind, RD_FAIL_OOB);
}

/* Every kind perf records lands on a kind of failure, with a label. */
static void test_every_kind(void **state)
{
	bool seen[RD_FAIL_KINDS] = { false };

	(void)state;
	for (int k = PERF_FAIL_NONE; k < PERF_FAIL_KINDS; k++) {
		struct perf_fail why = rec((enum perf_fail_kind)k, EIO, 12,
					   RDMA_CM_EVENT_REJECTED);
		struct rd_failure f;

		rd_failure_classify(&why, true, &f);
		assert_true(f.kind >= RD_FAIL_OTHER && f.kind < RD_FAIL_KINDS);
		assert_true(f.label[0] != '\0');
		seen[f.kind] = true;
	}
	/* Each kind that decides on the record alone is reached. */
	assert_true(seen[RD_FAIL_OTHER] && seen[RD_FAIL_RTR] &&
		    seen[RD_FAIL_RTS] && seen[RD_FAIL_WC_RETRY] &&
		    seen[RD_FAIL_TIMEOUT] && seen[RD_FAIL_PEER_GONE] &&
		    seen[RD_FAIL_CM_REJECT]);
}

/*
 * The session's record decides, not its message: a completion error
 * recorded with its words, then with other words or none, is the same
 * kind; and the latency test's stall, worded unlike the bandwidth
 * test's, is a stall all the same.
 */
static void test_words_do_not_count(void **state)
{
	struct perf_opts o = { .timeout_ms = 100 };
	struct perf_session s = { .o = &o, .fail = PERF_FAIL_INIT };
	struct perf_fail why = rec(PERF_FAIL_WC, EIO, IBV_WC_RETRY_EXC_ERR, -1);
	struct rd_failure a, b;

	(void)state;
	assert_int_equal(perf_err_why(&s, -EIO, &why,
				      "send completion error on QP 0x12 "
				      "after 3 messages: transport retry "
				      "counter exceeded (status 12)"),
			 -EIO);
	rd_failure_classify(&s.fail, true, &a);
	snprintf(s.err, sizeof(s.err), "%s", "");
	rd_failure_classify(&s.fail, true, &b);
	assert_int_equal(a.kind, RD_FAIL_WC_RETRY);
	assert_int_equal(b.kind, a.kind);
	assert_int_equal(b.status, 12);
	assert_string_equal(b.label, a.label);
	snprintf(s.err, sizeof(s.err), "%s",
		 "no completion for 5 s: the peer stopped responding");
	rd_failure_classify(&s.fail, true, &b);
	assert_int_equal(b.kind, RD_FAIL_WC_RETRY);

	s.fail = PERF_FAIL_INIT;
	perf_err(&s, -ETIMEDOUT, PERF_FAIL_STALL,
		 "no reply for %d s after %d round trips", 10, 7);
	rd_failure_classify(&s.fail, true, &a);
	assert_int_equal(a.kind, RD_FAIL_TIMEOUT);
	assert_int_equal(s.fail.err, ETIMEDOUT);
}

static const char *const GID = "the test's GID", *const TYPE = "the test's GID type",
		  *const TMTU = "the test's MTU", *const NMTU = "netdev MTU",
		  *const AMTU = "active MTU", *const ECN = "ECN",
		  *const CM = "rdma_cm default RoCE mode",
		  *const SUBNET = "IPv4 subnet", *const V2 = "IPv4 RoCE v2 GID",
		  *const IDX = "IPv4 RoCE v2 GID index",
		  *const PRIO = "RoCE priority", *const RATE = "rate";

static void test_rank(void **state)
{
	static const struct {
		enum rd_fail_kind kind;
		const char *items[6];
		const char *first;	/* NULL: none can explain it */
		const char *first_slow;	/* NULL: none may slow it */
	} t[] = {
		/* Retries: the test's GID family before anything else. */
		{ RD_FAIL_WC_RETRY, { ECN, NMTU, GID }, GID, ECN },
		{ RD_FAIL_WC_RETRY, { NMTU, AMTU }, NMTU, NULL },
		{ RD_FAIL_WC_RETRY, { AMTU, SUBNET }, SUBNET, NULL },
		{ RD_FAIL_WC_RETRY, { TMTU, PRIO }, NULL, PRIO },
		{ RD_FAIL_WC_RETRY, { IDX }, NULL, NULL },
		{ RD_FAIL_TIMEOUT, { RATE, TYPE, GID }, GID, RATE },
		{ RD_FAIL_PEER_GONE, { V2, TYPE }, TYPE, NULL },
		/* RTR refused: the GID or an MTU over the port's. */
		{ RD_FAIL_RTR, { AMTU, GID }, GID, NULL },
		{ RD_FAIL_RTR, { NMTU, AMTU }, AMTU, NULL },
		{ RD_FAIL_RTR, { NMTU, ECN }, NULL, NULL },
		/* rdma_cm. */
		{ RD_FAIL_CM_REJECT, { SUBNET, CM }, CM, NULL },
		{ RD_FAIL_CM_UNREACH, { ECN, V2, CM }, CM, ECN },
		{ RD_FAIL_CM_ADDR, { CM, SUBNET, V2 }, V2, NULL },
		{ RD_FAIL_CM_ROUTE, { V2, SUBNET }, SUBNET, NULL },
		/* Nothing a port sets explains these. */
		{ RD_FAIL_OOB, { GID, NMTU }, NULL, NULL },
		{ RD_FAIL_RTS, { GID, AMTU }, NULL, NULL },
		{ RD_FAIL_WC, { GID, NMTU }, NULL, NULL },
		{ RD_FAIL_OTHER, { GID }, NULL, NULL },
		/* A name from a newer release is never blamed. */
		{ RD_FAIL_WC_RETRY, { "warp drive" }, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rd_cmp_item it[6];
		const struct rd_cmp_item *p[6];
		size_t n = 0, can[6], slow[6], ncan, nslow;

		for (; n < 6 && t[i].items[n]; n++) {
			memset(&it[n], 0, sizeof(it[n]));
			snprintf(it[n].what, sizeof(it[n].what), "%s",
				 t[i].items[n]);
			p[n] = &it[n];
		}
		rd_failure_rank(t[i].kind, p, n, can, &ncan, slow, &nslow);
		if (t[i].first ? !ncan || strcmp(p[can[0]]->what, t[i].first)
			       : ncan != 0)
			fail_msg("case %zu: first %s, want %s", i,
				 ncan ? p[can[0]]->what : "none",
				 t[i].first ? t[i].first : "none");
		if (t[i].first_slow ? !nslow ||
					      strcmp(p[slow[0]]->what, t[i].first_slow)
				    : nslow != 0)
			fail_msg("case %zu: first slow %s, want %s", i,
				 nslow ? p[slow[0]]->what : "none",
				 t[i].first_slow ? t[i].first_slow : "none");
		assert_true(ncan + nslow <= n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_words_do_not_count),
		cmocka_unit_test(test_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
