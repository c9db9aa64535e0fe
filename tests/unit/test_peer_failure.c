// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A failed test's message names its kind, and the mismatches that can
 * explain that kind come first: a table of (failure, mismatches) and the
 * mismatch expected to be named first, or none.
 */
#include "config.h"

#include "unit.h"

#include "peer/failure.h"

#define RTR_MSG "QP 0x12 to RTR failed: Invalid argument; the culprit is x"
#define RTS_MSG "QP 0x12 to RTS failed: Invalid argument. Used: x"
#define WC12_MSG                                                               \
	"send completion error on QP 0x12 after 3 messages: transport retry " \
	"counter exceeded (status 12, vendor error 0x81): x"
#define WC10_MSG                                                               \
	"send completion error on QP 0x12 after 3 messages: remote access "   \
	"error (status 10, vendor error 0): x"
#define LAT_MSG                                                                \
	"recv completion error on QP 0x12 after 0 round trips: transport "   \
	"retry counter exceeded (status 12, vendor error 0): x"
#define TIMEOUT_MSG                                                            \
	"no completion for 5 s (0 of 10 messages done): the peer stopped "    \
	"responding"
#define GONE_MSG                                                               \
	"peer closed the connection before sending QP keys (after RTR) (0 "   \
	"of 41 bytes)"
#define CM_REJ_MSG                                                             \
	"connect: rdma_cm reported RDMA_CM_EVENT_REJECTED (status 28): x"
#define CM_ADDR_MSG                                                            \
	"resolve: rdma_cm reported RDMA_CM_EVENT_ADDR_ERROR (status -110): x"
#define CM_UNR_MSG                                                             \
	"connect: rdma_cm reported RDMA_CM_EVENT_UNREACHABLE (status -110): x"

static void test_classify(void **state)
{
	static const struct {
		const char *msg;
		bool rdma;
		enum rd_fail_kind kind;
		int status;
		const char *label;
	} t[] = {
		{ RTR_MSG, true, RD_FAIL_RTR, -1,
		  "the QP's move to RTR was refused (Invalid argument)" },
		{ RTS_MSG, true, RD_FAIL_RTS, -1,
		  "the QP's move to RTS was refused (Invalid argument)" },
		{ WC12_MSG, true, RD_FAIL_WC_RETRY, 12,
		  "completion status 12 (transport retry counter exceeded)" },
		{ WC10_MSG, true, RD_FAIL_WC, 10,
		  "completion status 10 (remote access error)" },
		{ LAT_MSG, true, RD_FAIL_WC_RETRY, 12,
		  "completion status 12 (transport retry counter exceeded)" },
		{ "completion error (status 5, vendor error 0)", true,
		  RD_FAIL_WC, 5, "completion status 5 (no name given)" },
		{ TIMEOUT_MSG, true, RD_FAIL_TIMEOUT, -1,
		  "no completion within the timeout" },
		{ GONE_MSG, true, RD_FAIL_PEER_GONE, -1,
		  "the peer stopped answering after the TCP exchange" },
		{ CM_REJ_MSG, true, RD_FAIL_CM_REJECT, -1,
		  "rdma_cm's request was refused (REJECTED)" },
		{ CM_ADDR_MSG, true, RD_FAIL_CM_ADDR, -1,
		  "rdma_cm could not resolve the address (ADDR_ERROR)" },
		{ CM_UNR_MSG, true, RD_FAIL_CM_UNREACH, -1,
		  "rdma_cm's request got no answer (UNREACHABLE)" },
		/* Before RDMA, whatever the words. */
		{ RTR_MSG, false, RD_FAIL_OOB, -1, "the TCP exchange" },
		{ "cannot connect to h:1: Connection refused", false,
		  RD_FAIL_OOB, -1, "the TCP exchange" },
		{ "out of memory", true, RD_FAIL_OTHER, -1, "this failure" },
		{ NULL, true, RD_FAIL_OTHER, -1, "this failure" },
		/* A status that is not a number is not a completion error. */
		{ "completion error (status x", true, RD_FAIL_OTHER, -1,
		  "this failure" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rd_failure f;

		rd_failure_classify(t[i].msg, t[i].rdma, &f);
		if (f.kind != t[i].kind || f.status != t[i].status ||
		    strcmp(f.label, t[i].label) != 0)
			fail_msg("case %zu: kind %d status %d \"%s\"", i,
				 f.kind, f.status, f.label);
	}
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
		cmocka_unit_test(test_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
