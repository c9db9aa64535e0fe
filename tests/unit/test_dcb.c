// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "nl_build.h"

#include <sys/socket.h>

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

#include "probes/dcb.h"

#define LAB "lab-rxe0-veth0/"

static void dcb_reset(struct rd_dcb *dcb)
{
	struct rd_netdev nd = { 0 };

	nd.dcb = *dcb;
	rd_model_free(rd_netdev_fields, &nd);
	memset(dcb, 0, sizeof(*dcb));
}

static struct nl_msg *dcb_reply(int cmd)
{
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = (uint8_t)cmd };
	struct nl_msg *m = nb_msg(RTM_GETDCB, 0, &dm, sizeof(dm));

	nla_put_string(m, DCB_ATTR_IFNAME, "ens1f0np0");
	return m;
}

struct mlx5_cfg {
	uint8_t pfc_en;
	bool dscp_apps;
	bool pcp_app;
	bool buffer;
	bool dcbx;
};

/* An mlx5 answer to DCB_CMD_IEEE_GET, shaped by cfg. */
static void mlx5_ieee(struct rd_nl_buf *b, const struct mlx5_cfg *cfg)
{
	struct nl_msg *m = dcb_reply(DCB_CMD_IEEE_GET);
	struct ieee_ets ets = { .ets_cap = 8, .willing = 0 };
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = cfg->pfc_en,
				.delay = 0 };
	struct nlattr *ieee, *apps;

	for (int i = 0; i < 8; i++) {
		ets.prio_tc[i] = (uint8_t)i;
		ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		pfc.requests[i] = 100u * (uint64_t)i;
		pfc.indications[i] = 1000u * (uint64_t)i;
	}
	ets.tc_tx_bw[0] = 50;
	ets.tc_tx_bw[3] = 50;
	ets.tc_tsa[7] = IEEE_8021QAZ_TSA_STRICT;
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	apps = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
	if (cfg->dscp_apps) {
		/* mlnx_qos --trust dscp: DSCP 26 (RoCE) -> prio 3, 48 -> 6. */
		struct dcb_app a1 = { .selector = IEEE_8021QAZ_APP_SEL_DSCP,
				      .priority = 3, .protocol = 26 };
		struct dcb_app a2 = { .selector = IEEE_8021QAZ_APP_SEL_DSCP,
				      .priority = 6, .protocol = 48 };

		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(a1), &a1);
		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(a2), &a2);
	}
	if (cfg->pcp_app) {
		/* RoCE v2 UDP port 4791 -> prio 3. */
		struct dcb_app a = { .selector = IEEE_8021QAZ_APP_SEL_DGRAM,
				     .priority = 3, .protocol = 4791 };

		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(a), &a);
	}
	nla_nest_end(m, apps);
	if (cfg->buffer) {
		struct dcbnl_buffer buf = { .total_size = 262016 };

		buf.buffer_size[0] = 130944;
		buf.buffer_size[1] = 131072;
		buf.prio2buffer[3] = 1;
		nla_put(m, DCB_ATTR_DCB_BUFFER, sizeof(buf), &buf);
	}
	nla_nest_end(m, ieee);
	if (cfg->dcbx)
		nla_put_u8(m, DCB_ATTR_DCBX,
			   DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	nb_take(b, m);
}

static uint64_t ctr(const struct rd_counters *c, const char *name)
{
	const struct rd_counter *x = rd_counters_find(c, name);

	if (!x)
		fail_msg("counter %s missing", name);
	assert_true(x->value.ok);
	return x->value.v;
}

static void test_pfc_on_prio3_dscp_trust(void **state)
{
	struct mlx5_cfg cfg = { .pfc_en = 1u << 3, .dscp_apps = true,
				.buffer = true, .dcbx = true };
	struct rd_nl_buf b = { 0 };
	struct rd_dcb dcb = { 0 };

	mlx5_ieee(&b, &cfg);
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), 0);
	assert_true(dcb.supported.ok && dcb.supported.v);
	assert_int_equal(dcb.pfc_cap.v, 8);
	assert_int_equal(dcb.pfc_en.v, 0x08);
	assert_int_equal(dcb.pfc_delay.v, 0);
	assert_int_equal(dcb.pfc_requests.n, 8);
	assert_int_equal(ctr(&dcb.pfc_requests, "prio3"), 300);
	assert_int_equal(ctr(&dcb.pfc_indications, "prio7"), 7000);
	assert_int_equal(dcb.ets_cap.v, 8);
	assert_false(dcb.ets_willing.v);
	assert_int_equal(ctr(&dcb.ets_tc_bw, "tc0"), 50);
	assert_int_equal(ctr(&dcb.ets_tc_bw, "tc3"), 50);
	assert_int_equal(ctr(&dcb.ets_tc_tsa, "tc7"), IEEE_8021QAZ_TSA_STRICT);
	assert_int_equal(ctr(&dcb.ets_tc_tsa, "tc1"), IEEE_8021QAZ_TSA_ETS);
	assert_int_equal(ctr(&dcb.ets_prio_tc, "prio5"), 5);
	assert_int_equal(dcb.n_apps, 2);
	assert_int_equal(dcb.apps[0].selector.v, 5);
	assert_int_equal(dcb.apps[0].protocol.v, 26);
	assert_int_equal(dcb.apps[0].priority.v, 3);
	assert_string_equal(rd_dcb_trust_from_apps(&dcb), "dscp");
	assert_int_equal(ctr(&dcb.buffer_size, "buffer0"), 130944);
	assert_int_equal(ctr(&dcb.buffer_size, "total"), 262016);
	assert_int_equal(dcb.dcbx_mode.v, DCB_CAP_DCBX_HOST |
						  DCB_CAP_DCBX_VER_IEEE);
	dcb_reset(&dcb);
	rd_nl_buf_free(&b);
}

static void test_pfc_off_pcp_trust(void **state)
{
	struct mlx5_cfg cfg = { .pfc_en = 0, .pcp_app = true };
	struct rd_nl_buf b = { 0 };
	struct rd_dcb dcb = { 0 };

	mlx5_ieee(&b, &cfg);
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), 0);
	assert_true(dcb.pfc_en.ok);
	assert_int_equal(dcb.pfc_en.v, 0);
	assert_int_equal(dcb.n_apps, 1);
	assert_int_equal(dcb.apps[0].protocol.v, 4791);
	assert_string_equal(rd_dcb_trust_from_apps(&dcb), "pcp");
	assert_false(dcb.dcbx_mode.ok);
	assert_int_equal(dcb.buffer_size.n, 0);
	dcb_reset(&dcb);
	rd_nl_buf_free(&b);
}

static void test_dcbx_reply(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_dcb dcb = { 0 };
	struct nl_msg *m = dcb_reply(DCB_CMD_GDCBX);

	nla_put_u8(m, DCB_ATTR_DCBX, DCB_CAP_DCBX_LLD_MANAGED |
					     DCB_CAP_DCBX_VER_CEE);
	nb_take(&b, m);
	assert_int_equal(rd_dcb_parse_dcbx(b.data, b.len, &dcb), 0);
	assert_int_equal(dcb.dcbx_mode.v, 0x06);
	/* An IEEE answer is not a DCBX answer. */
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), -EBADMSG);
	/* Nor is another message type; no message at all is no answer. */
	((struct nlmsghdr *)b.data)->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(rd_dcb_parse_dcbx(b.data, b.len, &dcb), -EBADMSG);
	assert_int_equal(rd_dcb_parse_dcbx(b.data, 0, &dcb), -ENODATA);
	dcb_reset(&dcb);
	rd_nl_buf_free(&b);
}

/* veth (the netdev under rxe) has no dcbnl ops: the kernel said so. */
static void test_lab_veth_unsupported(void **state)
{
	struct rd_nl_buf b;
	struct rd_dcb dcb = { 0 };

	nb_load(LAB "dcb-ieee-veth0.bin", &b);
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), -EOPNOTSUPP);
	assert_false(dcb.supported.ok);
	rd_nl_buf_free(&b);
	nb_load(LAB "dcb-dcbx-veth0.bin", &b);
	assert_int_equal(rd_dcb_parse_dcbx(b.data, b.len, &dcb), -EOPNOTSUPP);
	rd_nl_buf_free(&b);
}

static void test_short_structs(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_dcb dcb = { 0 };
	struct nl_msg *m = dcb_reply(DCB_CMD_IEEE_GET);
	struct nlattr *ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	uint8_t shortpfc[sizeof(struct ieee_pfc) - 8] = { 8, 8 };

	/* A PFC struct cut short must not be read past its end. */
	nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(shortpfc), shortpfc);
	nla_nest_end(m, ieee);
	nb_take(&b, m);
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), -EBADMSG);
	assert_false(dcb.pfc_en.ok);
	dcb_reset(&dcb);
	rd_nl_buf_free(&b);

	/* An APP entry of 2 bytes. */
	m = dcb_reply(DCB_CMD_IEEE_GET);
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	{
		struct nlattr *apps = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
		uint16_t half = 5;

		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(half), &half);
		nla_nest_end(m, apps);
	}
	nla_nest_end(m, ieee);
	nb_take(&b, m);
	assert_int_equal(rd_dcb_parse_ieee(b.data, b.len, &dcb), -EBADMSG);
	assert_int_equal(dcb.n_apps, 0);
	dcb_reset(&dcb);
	rd_nl_buf_free(&b);
}

static int parse_ieee(const void *p, size_t n, void *arg)
{
	return rd_dcb_parse_ieee(p, n, arg);
}

static void reset(void *arg)
{
	dcb_reset(arg);
}

static void test_truncated_and_corrupt(void **state)
{
	struct mlx5_cfg cfg = { .pfc_en = 1u << 3, .dscp_apps = true,
				.buffer = true, .dcbx = true };
	struct rd_nl_buf b = { 0 };
	struct rd_dcb dcb = { 0 };

	mlx5_ieee(&b, &cfg);
	assert_int_equal(nb_truncations(&b, parse_ieee, reset, &dcb),
			 b.len - 1);
	assert_true(nb_corruptions(&b, parse_ieee, reset, &dcb) > 0);
	rd_nl_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pfc_on_prio3_dscp_trust),
		cmocka_unit_test(test_pfc_off_pcp_trust),
		cmocka_unit_test(test_dcbx_reply),
		cmocka_unit_test(test_lab_veth_unsupported),
		cmocka_unit_test(test_short_structs),
		cmocka_unit_test(test_truncated_and_corrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
