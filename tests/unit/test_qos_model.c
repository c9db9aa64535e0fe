// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE QoS model over a table of configurations: trust x APP table x
 * rdma_cm ToS x VLAN x PFC x global pause, with the priority derived, the
 * chain shown, and the qos.pfc / qos.ecn verdicts and fix-ups that follow.
 */
#include "config.h"

#include "diag_snap.h"

#include "diag/qos_model.h"

enum apps { NO_APPS, DSCP26_TO_5, DSCP_FULL, DSCP26_3_CNP48_6, UDP4791_4,
	    DSCP10_TO_1 };
enum vlan { UNTAGGED, VLAN_ONLY, VLAN_AND_UNTAGGED, VLAN_UNREAD };
#define UNREAD (-1)

struct qos_case {
	const char *name;
	const char *trust;	/* NULL: not known */
	enum apps apps;
	int tos;		/* rdma_cm default_roce_tos, UNREAD */
	enum vlan vlan;		/* eth2.100, egress map skb 2 -> PCP 3 */
	unsigned pfc_en;
	int pause;		/* rx+tx global pause: 0, 1, UNREAD */
	int prio;		/* derived priority, -1 */
	unsigned candidates;
	bool ambiguous;
	const char *chain;	/* substring of the chain, or NULL */
	enum rd_verdict pfc;
	const char *pfc_cause;
	const char *fix;	/* the fix-up's command, or NULL for none */
};

static const struct qos_case cases[] = {
	{ "DSCP 26 -> priority 5, PFC on 5", "dscp", DSCP26_TO_5, 106, UNTAGGED,
	  0x20, 0, 5, 0x20, false,
	  "rdma_cm ToS 106 -> DSCP 26 -> APP table -> priority 5",
	  RD_PASS, "ok", NULL },
	{ "DSCP 26 -> priority 5, PFC on 3", "dscp", DSCP26_TO_5, 106, UNTAGGED,
	  0x08, 0, 5, 0x20, false, NULL, RD_FAIL, "pfc_wrong_prio",
	  "dcb pfc set dev eth2 prio-pfc 5:on" },
	{ "DSCP 26 -> priority 5, PFC on 3 and 5", "dscp", DSCP26_TO_5, 106,
	  UNTAGGED, 0x28, 0, 5, 0x20, false, NULL, RD_WARN, "pfc_extra_prio",
	  NULL },
	{ "PFC off, global pause on", "dscp", DSCP26_TO_5, 106, UNTAGGED, 0, 1,
	  5, 0x20, false, NULL, RD_WARN, "global_pause", NULL },
	{ "PFC off, global pause off", "dscp", DSCP26_TO_5, 106, UNTAGGED, 0, 0,
	  5, 0x20, false, NULL, RD_FAIL, "pfc_off",
	  "dcb pfc set dev eth2 prio-pfc 5:on" },
	{ "PFC off, global pause not read", "dscp", DSCP26_TO_5, 106, UNTAGGED,
	  0, UNREAD, 5, 0x20, false, NULL, RD_UNKNOWN, "no_data", NULL },
	{ "mlx5's full DSCP map, ToS 106", "dscp", DSCP_FULL, 106, UNTAGGED,
	  0x08, 0, 3, 0x08, false, "DSCP 26 -> APP table -> priority 3",
	  RD_PASS, "ok", NULL },
	{ "rdma_cm default ToS 0 lands on priority 0", "dscp", DSCP_FULL, 0,
	  UNTAGGED, 0x08, 0, 0, 0x01, false, NULL, RD_FAIL, "pfc_wrong_prio",
	  "dcb pfc set dev eth2 prio-pfc 0:on" },
	{ "full DSCP map, ToS not read: every priority judged", "dscp",
	  DSCP_FULL, UNREAD, UNTAGGED, 0x08, 0, -1, 0xff, true, NULL, RD_WARN,
	  "prio_ambiguous", NULL },
	{ "ToS not read, CNP DSCP left out", "dscp", DSCP26_3_CNP48_6, UNREAD,
	  UNTAGGED, 0x08, 0, -1, 0x08, true, NULL, RD_PASS, "ok", NULL },
	{ "ToS not read, nothing lossless", "dscp", DSCP26_3_CNP48_6, UNREAD,
	  UNTAGGED, 0x10, 0, -1, 0x08, true, NULL, RD_FAIL, "pfc_off", NULL },
	/* Where DSCP 26 lands is not listed: priority 0 joins the candidates,
	 * so PFC on the one mapped priority is no PASS. */
	{ "DSCP not in the APP table", "dscp", DSCP10_TO_1, 106, UNTAGGED, 0x02,
	  0, -1, 0x03, true, "not in the APP table -> priority 0", RD_WARN,
	  "prio_ambiguous", NULL },
	{ "DSCP not in the APP table, PFC on 0 and 1", "dscp", DSCP10_TO_1, 106,
	  UNTAGGED, 0x03, 0, -1, 0x03, true, NULL, RD_PASS, "ok", NULL },
	{ "trust pcp, untagged, PFC on 3", "pcp", NO_APPS, 106, UNTAGGED, 0x08, 0,
	  0, 0x01, false, "untagged -> no PCP -> priority 0", RD_FAIL,
	  "pcp_untagged", NULL },
	{ "trust pcp, untagged, PFC on 0", "pcp", NO_APPS, UNREAD, UNTAGGED,
	  0x01, 0, 0, 0x01, false, NULL, RD_WARN, "pcp_untagged", NULL },
	{ "trust pcp, VLAN egress map 2 -> 3, ToS 106", "pcp", NO_APPS, 106,
	  VLAN_ONLY, 0x08, 0, 3, 0x08, false,
	  "rdma_cm ToS 106 -> skb priority 2 -> eth2.100 egress map -> PCP 3",
	  RD_PASS, "ok", NULL },
	{ "trust pcp, VLAN, ToS 0 -> PCP 0", "pcp", NO_APPS, 0, VLAN_ONLY, 0x08,
	  0, 0, 0x01, false, NULL, RD_FAIL, "pfc_wrong_prio",
	  "dcb pfc set dev eth2 prio-pfc 0:on" },
	{ "trust pcp, VLAN, ToS not read", "pcp", NO_APPS, UNREAD, VLAN_ONLY,
	  0x08, 0, -1, 0x09, true, NULL, RD_WARN, "prio_ambiguous", NULL },
	{ "trust pcp, tagged and untagged GIDs", "pcp", NO_APPS, 106,
	  VLAN_AND_UNTAGGED, 0x09, 0, -1, 0x09, true, NULL, RD_PASS, "ok", NULL },
	{ "trust pcp, GIDs on an upper device not read", "pcp", NO_APPS, 106,
	  VLAN_UNREAD, 0x08, 0, -1, 0, false, NULL, RD_UNKNOWN, "no_data",
	  NULL },
	{ "trust dscp does not care about tagging", "dscp", DSCP26_TO_5, 106,
	  VLAN_UNREAD, 0x20, 0, 5, 0x20, false, NULL, RD_PASS, "ok", NULL },
	{ "no trust mode, UDP 4791 APP entry", NULL, UDP4791_4, UNREAD, UNTAGGED,
	  0x10, 0, 4, 0x10, false, "APP table UDP 4791 -> priority 4", RD_PASS,
	  "ok", NULL },
	{ "no trust mode, no APP table", NULL, NO_APPS, 106, UNTAGGED, 0x08, 0,
	  -1, 0, false, NULL, RD_UNKNOWN, "no_data", NULL },
};

static const uint8_t gid4[16] = { [10] = 0xff, [11] = 0xff, 192, 168, 1, 2 };

static void build(const struct qos_case *c, struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	p = snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	n = snap_netdev(s, "eth2", true, true, 9000);
	n->dcb.supported = rd_bool(true);
	n->dcb.pfc_en = rd_u64(c->pfc_en);
	if (c->trust) {
		n->dcb.trust = rd_strdup(c->trust);
		n->dcb.trust_source = rd_strdup("dcb app table");
	}
	if (c->pause != UNREAD) {
		n->ethtool.rx_pause = rd_bool(c->pause);
		n->ethtool.tx_pause = rd_bool(c->pause);
	}
	switch (c->apps) {
	case DSCP26_TO_5:
		snap_app(n, 5, 26, 5);
		break;
	case DSCP_FULL:
		for (unsigned i = 0; i < 64; i++)
			snap_app(n, 5, i, i >> 3);
		break;
	case DSCP26_3_CNP48_6:
		snap_app(n, 5, 26, 3);
		snap_app(n, 5, 48, 6);
		n->ecn.present = rd_bool(true);
		rd_counters_add(&n->ecn.params, "roce_np/cnp_dscp", rd_u64(48));
		break;
	case UDP4791_4:
		snap_app(n, 3, 4791, 4);
		break;
	case DSCP10_TO_1:
		snap_app(n, 5, 10, 1);
		break;
	default:
		break;
	}
	if (c->tos != UNREAD) {
		struct rd_cm_port *cm = RD_PUSH(s->host.cm_ports,
						s->host.n_cm_ports);

		assert_non_null(cm);
		cm->device = rd_strdup("mlx5_0");
		cm->port = rd_u64(1);
		cm->default_roce_mode = rd_strdup("RoCE v2");
		cm->default_roce_tos = rd_u64((uint64_t)c->tos);
	}
	if (c->vlan == UNTAGGED || c->vlan == VLAN_AND_UNTAGGED)
		snap_gid(p, 1, "RoCE v2", gid4, "eth2");
	if (c->vlan == VLAN_UNREAD)
		snap_gid(p, 3, "RoCE v2", gid4, "eth2.200");
	if (c->vlan == VLAN_ONLY || c->vlan == VLAN_AND_UNTAGGED) {
		struct rd_netdev *v = snap_netdev(s, "eth2.100", true, true, 9000);

		/* snap_netdev may move the array: n is not used after this. */
		v->kind = rd_strdup("vlan");
		v->lower = rd_strdup("eth2");
		v->vlan_id = rd_u64(100);
		rd_counters_add(&v->vlan_egress, "prio2", rd_u64(3));
		snap_gid(p, 3, "RoCE v2", gid4, "eth2.100");
	}
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct qos_case *c = &cases[i];
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		struct rd_qos_model m;
		const struct rd_result *r;

		build(c, &s);
		rd_qos_derive(&s, &s.devices[0], &s.devices[0].ports[0],
			      rd_snapshot_netdev(&s, "eth2"), &m);
		if (m.prio != c->prio || m.candidates != c->candidates ||
		    m.ambiguous != c->ambiguous)
			fail_msg("%s: prio %d candidates 0x%02x ambiguous %d, want %d 0x%02x %d (chain: %s)",
				 c->name, m.prio, m.candidates, m.ambiguous,
				 c->prio, c->candidates, c->ambiguous, m.chain);
		if (c->chain && !strstr(m.chain, c->chain))
			fail_msg("%s: chain \"%s\" lacks \"%s\"", c->name,
				 m.chain, c->chain);
		run_only(&s, NULL, "qos.pfc", &res);
		r = find_result(&res, "qos.pfc", "mlx5_0", 1);
		if (r->verdict != c->pfc || strcmp(r->cause, c->pfc_cause) != 0)
			fail_msg("%s: qos.pfc %s/%s (%s), want %s/%s", c->name,
				 rd_verdict_name(r->verdict), r->cause,
				 r->summary, rd_verdict_name(c->pfc),
				 c->pfc_cause);
		if (c->fix ? !r->fix || strcmp(r->fix->command, c->fix) != 0 :
			     r->fix != NULL)
			fail_msg("%s: fix-up \"%s\", want \"%s\"", c->name,
				 r->fix ? r->fix->command : "(none)",
				 c->fix ? c->fix : "(none)");
		/* Global pause is never called lossy. */
		if (c->pause == 1 && c->pfc_en == 0)
			assert_null(strstr(r->summary, "lossy"));
		rd_results_free(&res);
		rd_snapshot_free(&s);
	}
}

/* ECN is judged on the derived priority, not on 3. */
static void test_ecn_on_derived(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_netdev *n;

	(void)state;
	build(&cases[0], &s);
	n = rd_snapshot_netdev(&s, "eth2");
	n->ecn.present = rd_bool(true);
	for (int i = 0; i < 8; i++) {
		char key[8];

		snprintf(key, sizeof(key), "prio%d", i);
		rd_counters_add(&n->ecn.np_enable, key, rd_u64(i == 3));
		rd_counters_add(&n->ecn.rp_enable, key, rd_u64(i == 3));
	}
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_WARN, "ecn_off");
	assert_non_null(strstr(res.v[0].summary, "priority 5"));
	rd_results_free(&res);
	n->ecn.np_enable.v[5].value = rd_u64(1);
	n->ecn.rp_enable.v[5].value = rd_u64(1);
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_helpers(void **state)
{
	struct rd_snapshot s;
	char buf[64];

	(void)state;
	/* rt_tos2priority: best effort, bulk, interactive, interactive bulk. */
	assert_int_equal(rd_qos_tos_skb_prio(0), 0);
	assert_int_equal(rd_qos_tos_skb_prio(106), 2);
	assert_int_equal(rd_qos_tos_skb_prio(0x08), 2);
	assert_int_equal(rd_qos_tos_skb_prio(0x10), 6);
	assert_int_equal(rd_qos_tos_skb_prio(0x18), 4);
	assert_int_equal(rd_qos_tos_skb_prio(0xb8), 4);
	build(&cases[6], &s);
	rd_qos_dscps_of(rd_snapshot_netdev(&s, "eth2"), 3, buf, sizeof(buf));
	assert_string_equal(buf, "24-31");
	rd_qos_dscps_of(rd_snapshot_netdev(&s, "eth2"), 9, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(rd_qos_dscp_prio(rd_snapshot_netdev(&s, "eth2"), 63), 7);
	assert_int_equal(rd_qos_dscp_prio(NULL, 3), -1);
	rd_snapshot_free(&s);
	rd_qos_prio_list(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	rd_qos_prio_list(0x29, buf, sizeof(buf));
	assert_string_equal(buf, "0,3,5");
	assert_int_equal(rd_qos_vlan_pcp(NULL, 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_ecn_on_derived),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
