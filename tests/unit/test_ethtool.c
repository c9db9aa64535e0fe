// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "nl_build.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "probes/ethtool.h"

#define LAB "lab-rxe0-veth0/"
#define FAMILY 20	/* any genetlink family id */

static void et_reset(struct rd_ethtool *et)
{
	struct rd_netdev nd = { 0 };

	nd.ethtool = *et;
	rd_model_free(rd_netdev_fields, &nd);
	memset(et, 0, sizeof(*et));
}

static struct nl_msg *genl_reply(int cmd)
{
	struct genlmsghdr g = { .cmd = (uint8_t)cmd, .version = 1 };
	struct nl_msg *m = nb_msg(FAMILY, 0, &g, sizeof(g));
	struct nlattr *h = nla_nest_start(m, 1);

	nla_put_u32(m, ETHTOOL_A_HEADER_DEV_INDEX, 4);
	nla_put_string(m, ETHTOOL_A_HEADER_DEV_NAME, "ens1f0np0");
	nla_nest_end(m, h);
	return m;
}

/* ---- captured from veth0 in the lab ---- */

static void test_lab_linkmodes(void **state)
{
	struct rd_nl_buf b;
	struct rd_ethtool et = { 0 };

	nb_load(LAB "ethtool-linkmodes-veth0.bin", &b);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et), 0);
	assert_true(et.speed_mbps.ok);
	assert_int_equal(et.speed_mbps.v, 10000);
	assert_string_equal(et.duplex, "full");
	assert_true(et.autoneg.ok);
	assert_false(et.autoneg.v);
	assert_false(et.lanes.ok);
	et_reset(&et);
	rd_nl_buf_free(&b);
}

static void test_lab_linkstate(void **state)
{
	struct rd_nl_buf b;
	struct rd_ethtool et = { 0 };

	nb_load(LAB "ethtool-linkstate-veth0.bin", &b);
	assert_int_equal(rd_ethtool_parse_linkstate(b.data, b.len, &et), 0);
	assert_true(et.link_detected.ok);
	assert_true(et.link_detected.v);
	assert_null(et.ext_state);
	assert_false(et.link_down_events.ok);
	et_reset(&et);
	rd_nl_buf_free(&b);
}

/* veth has no pause or FEC operations: the kernel answers EOPNOTSUPP. */
static void test_lab_unsupported(void **state)
{
	struct rd_nl_buf b;
	struct rd_ethtool et = { 0 };

	nb_load(LAB "ethtool-pause-veth0.bin", &b);
	assert_int_equal(rd_ethtool_parse_pause(b.data, b.len, &et),
			 -EOPNOTSUPP);
	assert_false(et.rx_pause.ok);
	rd_nl_buf_free(&b);
	nb_load(LAB "ethtool-fec-veth0.bin", &b);
	assert_int_equal(rd_ethtool_parse_fec(b.data, b.len, &et),
			 -EOPNOTSUPP);
	assert_null(et.fec_active);
	rd_nl_buf_free(&b);
}

static void test_lab_drvinfo_stats(void **state)
{
	struct rd_nl_buf di, names, vals;
	struct rd_ethtool et = { 0 };
	const struct rd_counter *c;

	nb_load(LAB "ethtool-drvinfo-veth0.bin", &di);
	assert_int_equal(rd_ethtool_parse_drvinfo(di.data, di.len, &et), 0);
	assert_string_equal(et.driver, "veth");
	assert_string_equal(et.driver_version, "1.0");
	assert_null(et.firmware);
	/* A short struct is refused. */
	assert_int_equal(rd_ethtool_parse_drvinfo(di.data, di.len - 1, &et),
			 -EBADMSG);
	rd_nl_buf_free(&di);

	nb_load(LAB "ethtool-strings-veth0.bin", &names);
	nb_load(LAB "ethtool-stats-veth0.bin", &vals);
	assert_int_equal(rd_ethtool_parse_stats(names.data, names.len,
						vals.data, vals.len, &et.stats),
			 0);
	/* As `ethtool -S veth0` printed it in the lab (ethtool-S.txt). */
	assert_int_equal(et.stats.n, 10);
	c = rd_counters_find(&et.stats, "peer_ifindex");
	assert_non_null(c);
	assert_int_equal(c->value.v, 2);
	c = rd_counters_find(&et.stats, "tx_queue_0_xdp_xmit_errors");
	assert_non_null(c);
	assert_int_equal(c->value.v, 0);
	/* Counts that disagree, or partial records, are refused. */
	assert_int_equal(rd_ethtool_parse_stats(names.data, names.len,
						vals.data, vals.len - 8,
						&et.stats),
			 -EBADMSG);
	assert_int_equal(rd_ethtool_parse_stats(names.data, names.len - 1,
						vals.data, vals.len, &et.stats),
			 -EBADMSG);
	assert_int_equal(et.stats.n, 10);
	et_reset(&et);
	rd_nl_buf_free(&names);
	rd_nl_buf_free(&vals);
}

static void test_stats_hostile_names(void **state)
{
	char names[3][ETH_GSTRING_LEN];
	uint64_t vals[3] = { 1, 2, 3 };
	struct rd_counters c = { 0 };
	struct rd_ethtool et = { 0 };

	/* 32 bytes without a NUL, an empty name, a control character. */
	memset(names[0], 'a', ETH_GSTRING_LEN);
	memset(names[1], 0, ETH_GSTRING_LEN);
	memset(names[2], 0, ETH_GSTRING_LEN);
	memcpy(names[2], "rx\x01" "bad", 6);
	assert_int_equal(rd_ethtool_parse_stats(names, sizeof(names), vals,
						sizeof(vals), &c),
			 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.v[0].name), ETH_GSTRING_LEN);
	assert_int_equal(c.v[0].value.v, 1);
	et.stats = c;
	et_reset(&et);
}

/* ---- mlx5-only situations, built from the UAPI layout ---- */

static void linkdown_cable(struct rd_nl_buf *b)
{
	struct nl_msg *m = genl_reply(ETHTOOL_MSG_LINKSTATE_GET_REPLY);

	nla_put_u8(m, ETHTOOL_A_LINKSTATE_LINK, 0);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_EXT_STATE,
		   ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_EXT_SUBSTATE,
		   ETHTOOL_LINK_EXT_SUBSTATE_CI_UNSUPPORTED_CABLE);
	nla_put_u32(m, 7 /* ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT */, 12);
	nb_take(b, m);
}

static void test_link_down_cable_issue(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };

	linkdown_cable(&b);
	assert_int_equal(rd_ethtool_parse_linkstate(b.data, b.len, &et), 0);
	assert_true(et.link_detected.ok);
	assert_false(et.link_detected.v);
	assert_string_equal(et.ext_state, "cable issue");
	assert_int_equal(et.ext_state_num.v, 5);
	assert_string_equal(et.ext_substate, "unsupported cable");
	assert_int_equal(et.ext_substate_num.v, 1);
	assert_true(et.link_down_events.ok);
	assert_int_equal(et.link_down_events.v, 12);
	et_reset(&et);
	rd_nl_buf_free(&b);
}

static void test_ext_state_names(void **state)
{
	assert_string_equal(rd_ethtool_ext_state_name(0), "autoneg");
	assert_string_equal(rd_ethtool_ext_state_name(4), "no cable");
	assert_string_equal(rd_ethtool_ext_state_name(10), "module");
	assert_string_equal(rd_ethtool_ext_state_name(11), "OTP speed violation");
	assert_string_equal(rd_ethtool_ext_state_name(12), "BMC request down");
	assert_null(rd_ethtool_ext_state_name(13));
	assert_string_equal(rd_ethtool_ext_substate_name(0, 1),
			    "no partner detected");
	assert_string_equal(rd_ethtool_ext_substate_name(2, 5),
			    "RS FEC is not locked");
	assert_null(rd_ethtool_ext_substate_name(2, 6));
	assert_null(rd_ethtool_ext_substate_name(4, 1));
}

static void test_unknown_ext_state(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };
	struct nl_msg *m = genl_reply(ETHTOOL_MSG_LINKSTATE_GET_REPLY);

	nla_put_u8(m, ETHTOOL_A_LINKSTATE_LINK, 0);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_EXT_STATE, 42);
	nla_put_u8(m, ETHTOOL_A_LINKSTATE_EXT_SUBSTATE, 9);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_linkstate(b.data, b.len, &et), 0);
	assert_string_equal(et.ext_state, "state 42");
	assert_string_equal(et.ext_substate, "substate 9");
	et_reset(&et);
	rd_nl_buf_free(&b);
}

static void test_pause_and_fec(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };
	struct nl_msg *m = genl_reply(ETHTOOL_MSG_PAUSE_GET_REPLY);
	struct nlattr *set, *bits, *bit;

	nla_put_u8(m, ETHTOOL_A_PAUSE_AUTONEG, 0);
	nla_put_u8(m, ETHTOOL_A_PAUSE_RX, 1);
	nla_put_u8(m, ETHTOOL_A_PAUSE_TX, 1);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_pause(b.data, b.len, &et), 0);
	assert_true(et.rx_pause.ok && et.rx_pause.v);
	assert_true(et.tx_pause.ok && et.tx_pause.v);
	assert_true(et.pause_autoneg.ok && !et.pause_autoneg.v);
	rd_nl_buf_free(&b);

	/* Verbose bitset with NOMASK: only the set bits are listed. */
	m = genl_reply(ETHTOOL_MSG_FEC_GET_REPLY);
	set = nla_nest_start(m, ETHTOOL_A_FEC_MODES);
	nla_put_flag(m, ETHTOOL_A_BITSET_NOMASK);
	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 100);
	bits = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	bit = nla_nest_start(m, ETHTOOL_A_BITSET_BITS_BIT);
	nla_put_u32(m, ETHTOOL_A_BITSET_BIT_INDEX, 50);
	nla_put_string(m, ETHTOOL_A_BITSET_BIT_NAME, "RS");
	nla_nest_end(m, bit);
	nla_nest_end(m, bits);
	nla_nest_end(m, set);
	nla_put_u8(m, ETHTOOL_A_FEC_AUTO, 0);
	nla_put_u32(m, ETHTOOL_A_FEC_ACTIVE, 50);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_fec(b.data, b.len, &et), 0);
	assert_string_equal(et.fec_configured, "RS");
	assert_string_equal(et.fec_active, "RS");
	et_reset(&et);
	rd_nl_buf_free(&b);

	/* Compact bitset (value words), auto on, BaseR active. */
	m = genl_reply(ETHTOOL_MSG_FEC_GET_REPLY);
	set = nla_nest_start(m, ETHTOOL_A_FEC_MODES);
	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 64);
	{
		uint32_t words[2] = { 0, (1u << (50 - 32)) | (1u << (51 - 32)) };

		nla_put(m, ETHTOOL_A_BITSET_VALUE, sizeof(words), words);
		nla_put(m, ETHTOOL_A_BITSET_MASK, sizeof(words), words);
	}
	nla_nest_end(m, set);
	nla_put_u8(m, ETHTOOL_A_FEC_AUTO, 1);
	nla_put_u32(m, ETHTOOL_A_FEC_ACTIVE, 51);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_fec(b.data, b.len, &et), 0);
	assert_string_equal(et.fec_configured, "Auto RS BASER");
	assert_string_equal(et.fec_active, "BASER");
	et_reset(&et);
	rd_nl_buf_free(&b);
}

static void test_wrong_reply_and_policy(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };
	struct nl_msg *m;

	/* A linkstate reply handed to the linkmodes parser. */
	linkdown_cable(&b);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	/* SPEED as one byte instead of a u32: the policy refuses it. */
	m = genl_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u8(m, ETHTOOL_A_LINKMODES_SPEED, 100);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et),
			 -EBADMSG);
	assert_false(et.speed_mbps.ok);
	rd_nl_buf_free(&b);
	/* SPEED_UNKNOWN and DUPLEX_UNKNOWN stay absent. */
	m = genl_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, (uint32_t)SPEED_UNKNOWN);
	nla_put_u8(m, ETHTOOL_A_LINKMODES_DUPLEX, DUPLEX_UNKNOWN);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_LANES, 4);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et), 0);
	assert_false(et.speed_mbps.ok);
	assert_null(et.duplex);
	assert_int_equal(et.lanes.v, 4);
	rd_nl_buf_free(&b);
	/* Nothing at all. */
	assert_int_equal(rd_ethtool_parse_linkstate(NULL, 0, &et), -ENODATA);
	et_reset(&et);
}

static int parse_linkstate(const void *p, size_t n, void *arg)
{
	return rd_ethtool_parse_linkstate(p, n, arg);
}

static int parse_fec(const void *p, size_t n, void *arg)
{
	return rd_ethtool_parse_fec(p, n, arg);
}

static void reset(void *arg)
{
	et_reset(arg);
}

static void test_truncated_and_corrupt(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };

	linkdown_cable(&b);
	assert_int_equal(nb_truncations(&b, parse_linkstate, reset, &et),
			 b.len - 1);
	assert_true(nb_corruptions(&b, parse_linkstate, reset, &et) > 0);
	rd_nl_buf_free(&b);
	nb_load(LAB "ethtool-linkmodes-veth0.bin", &b);
	nb_truncations(&b, parse_fec, reset, &et);
	nb_corruptions(&b, parse_fec, reset, &et);
	rd_nl_buf_free(&b);
}

/*
 * FEC_GET with ETHTOOL_FLAG_STATS, laid out as net/ethtool/fec.c writes
 * it: each statistic an array of u64, the total first, then one per lane
 * (a driver may give only the total). Values as netdevsim reports them
 * (corrected 123, uncorrectable 4).
 */
static void test_fec_stats(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };
	struct nl_msg *m = genl_reply(ETHTOOL_MSG_FEC_GET_REPLY);
	struct nlattr *st;
	const uint64_t corr[] = { 123, 100, 20, 3, 0 }, uncorr[] = { 4 };
	const struct rd_counter *c;

	(void)state;
	nla_put_u8(m, ETHTOOL_A_FEC_AUTO, 0);
	nla_put_u32(m, ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT);
	st = nla_nest_start(m, ETHTOOL_A_FEC_STATS);
	nla_put(m, ETHTOOL_A_FEC_STAT_CORRECTED, sizeof(corr), corr);
	nla_put(m, ETHTOOL_A_FEC_STAT_UNCORR, sizeof(uncorr), uncorr);
	nla_nest_end(m, st);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_fec(b.data, b.len, &et), 0);
	assert_true(et.fec_auto.ok && !et.fec_auto.v);
	assert_string_equal(et.fec_active, "RS");
	c = rd_counters_find(&et.fec_stats, "corrected_blocks");
	assert_non_null(c);
	assert_int_equal(c->value.v, 123);
	c = rd_counters_find(&et.fec_stats, "corrected_blocks_lane2");
	assert_non_null(c);
	assert_int_equal(c->value.v, 3);
	assert_non_null(rd_counters_find(&et.fec_stats,
					 "corrected_blocks_lane3"));
	assert_null(rd_counters_find(&et.fec_stats, "corrected_blocks_lane4"));
	c = rd_counters_find(&et.fec_stats, "uncorrectable_blocks");
	assert_non_null(c);
	assert_int_equal(c->value.v, 4);
	assert_null(rd_counters_find(&et.fec_stats, "uncorrectable_blocks_lane0"));
	assert_null(rd_counters_find(&et.fec_stats, "corrected_bits"));
	et_reset(&et);
	rd_nl_buf_free(&b);

	/* A statistic whose length is not a whole number of u64 is refused. */
	m = genl_reply(ETHTOOL_MSG_FEC_GET_REPLY);
	st = nla_nest_start(m, ETHTOOL_A_FEC_STATS);
	nla_put(m, ETHTOOL_A_FEC_STAT_CORRECTED, 12, corr);
	nla_nest_end(m, st);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_fec(b.data, b.len, &et), -EBADMSG);
	et_reset(&et);
	rd_nl_buf_free(&b);
}

static void put_mode(struct nl_msg *m, unsigned idx, const char *name,
		     bool value)
{
	struct nlattr *bit = nla_nest_start(m, ETHTOOL_A_BITSET_BITS_BIT);

	nla_put_u32(m, ETHTOOL_A_BITSET_BIT_INDEX, idx);
	nla_put_string(m, ETHTOOL_A_BITSET_BIT_NAME, name);
	if (value)
		nla_put_flag(m, ETHTOOL_A_BITSET_BIT_VALUE);
	nla_nest_end(m, bit);
}

/*
 * LINKMODES_GET in verbose form, as net/ethtool/linkmodes.c writes it:
 * OURS lists every supported mode, VALUE on the advertised ones; PEER is
 * a no-mask list, and is left out when the partner advertised nothing.
 */
static void test_linkmodes_lists(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_ethtool et = { 0 };
	struct nl_msg *m = genl_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	struct nlattr *set, *bits;

	(void)state;
	nla_put_u8(m, ETHTOOL_A_LINKMODES_AUTONEG, AUTONEG_ENABLE);
	set = nla_nest_start(m, ETHTOOL_A_LINKMODES_OURS);
	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 100);
	bits = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	put_mode(m, 38, "100000baseSR4/Full", false);
	put_mode(m, 39, "100000baseCR4/Full", true);
	put_mode(m, 6, "Autoneg", true);
	nla_nest_end(m, bits);
	nla_nest_end(m, set);
	set = nla_nest_start(m, ETHTOOL_A_LINKMODES_PEER);
	nla_put_flag(m, ETHTOOL_A_BITSET_NOMASK);
	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 100);
	bits = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	put_mode(m, 39, "100000baseCR4/Full", false);
	nla_nest_end(m, bits);
	nla_nest_end(m, set);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, 100000);
	nla_put_u32(m, ETHTOOL_A_LINKMODES_LANES, 4);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et), 0);
	assert_string_equal(et.modes_supported,
			    "100000baseSR4/Full 100000baseCR4/Full Autoneg");
	assert_string_equal(et.modes_advertised, "100000baseCR4/Full Autoneg");
	assert_string_equal(et.modes_partner, "100000baseCR4/Full");
	assert_int_equal(et.lanes.v, 4);
	et_reset(&et);
	rd_nl_buf_free(&b);

	/* No PEER: the partner's list is read and empty, not unknown. */
	m = genl_reply(ETHTOOL_MSG_LINKMODES_GET_REPLY);
	set = nla_nest_start(m, ETHTOOL_A_LINKMODES_OURS);
	bits = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	put_mode(m, 39, "100000baseCR4/Full", true);
	nla_nest_end(m, bits);
	nla_nest_end(m, set);
	nb_take(&b, m);
	assert_int_equal(rd_ethtool_parse_linkmodes(b.data, b.len, &et), 0);
	assert_string_equal(et.modes_partner, "");
	et_reset(&et);
	rd_nl_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab_linkmodes),
		cmocka_unit_test(test_lab_linkstate),
		cmocka_unit_test(test_lab_unsupported),
		cmocka_unit_test(test_lab_drvinfo_stats),
		cmocka_unit_test(test_stats_hostile_names),
		cmocka_unit_test(test_link_down_cable_issue),
		cmocka_unit_test(test_ext_state_names),
		cmocka_unit_test(test_unknown_ext_state),
		cmocka_unit_test(test_pause_and_fec),
		cmocka_unit_test(test_fec_stats),
		cmocka_unit_test(test_linkmodes_lists),
		cmocka_unit_test(test_wrong_reply_and_policy),
		cmocka_unit_test(test_truncated_and_corrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
