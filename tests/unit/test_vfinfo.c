// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a PF's driver holds for its VFs (RTM_GETLINK with RTEXT_FILTER_VF)
 * and the eswitch mode (DEVLINK_CMD_ESWITCH_GET), laid out as the kernel
 * writes them (net/core/rtnetlink.c rtnl_fill_vfinfo: every VF_INFO nest
 * carries MAC, VLAN, rates, spoof check, link state, RSS, trust, and the
 * IB GUIDs where the driver has ndo_get_vf_guid). The values are those of
 * real hosts as `ip link show` printed them; the sources are cited in
 * tests/fixtures/netlink/README.md ("VF lists"). sriov.vfs judging them
 * is in test_virt.c.
 */
#include "config.h"
#include "nl_build.h"

#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "probes/devlink.h"
#include "probes/virt.h"

struct vf_line {
	uint32_t vf;
	uint8_t mac[6];
	uint32_t vlan;
	uint32_t spoofchk; /* (uint32_t)-1: the driver does not say */
	uint32_t trust;
	uint32_t link_state;
	bool ib;
	uint64_t node_guid, port_guid;
};

static void put_vf(struct nl_msg *m, const struct vf_line *l)
{
	struct nlattr *n = nla_nest_start(m, IFLA_VF_INFO);
	struct ifla_vf_mac mac = { .vf = l->vf };
	struct ifla_vf_broadcast bc;
	struct ifla_vf_vlan vlan = { .vf = l->vf, .vlan = l->vlan };
	struct ifla_vf_rate rate = { .vf = l->vf };
	struct ifla_vf_tx_rate tx = { .vf = l->vf };
	struct ifla_vf_spoofchk sp = { .vf = l->vf, .setting = l->spoofchk };
	struct ifla_vf_link_state ls = { .vf = l->vf,
					 .link_state = l->link_state };
	struct ifla_vf_rss_query_en rss = { .vf = l->vf };
	struct ifla_vf_trust tr = { .vf = l->vf, .setting = l->trust };

	memcpy(mac.mac, l->mac, sizeof(l->mac));
	memset(&bc, 0xff, sizeof(bc));
	nla_put(m, IFLA_VF_MAC, sizeof(mac), &mac);
	nla_put(m, IFLA_VF_BROADCAST, sizeof(bc), &bc);
	nla_put(m, IFLA_VF_VLAN, sizeof(vlan), &vlan);
	nla_put(m, IFLA_VF_RATE, sizeof(rate), &rate);
	nla_put(m, IFLA_VF_TX_RATE, sizeof(tx), &tx);
	nla_put(m, IFLA_VF_SPOOFCHK, sizeof(sp), &sp);
	nla_put(m, IFLA_VF_LINK_STATE, sizeof(ls), &ls);
	nla_put(m, IFLA_VF_RSS_QUERY_EN, sizeof(rss), &rss);
	nla_put(m, IFLA_VF_TRUST, sizeof(tr), &tr);
	if (l->ib) {
		struct ifla_vf_guid ng = { .vf = l->vf, .guid = l->node_guid };
		struct ifla_vf_guid pg = { .vf = l->vf, .guid = l->port_guid };

		nla_put(m, IFLA_VF_IB_NODE_GUID, sizeof(ng), &ng);
		nla_put(m, IFLA_VF_IB_PORT_GUID, sizeof(pg), &pg);
	}
	nla_nest_end(m, n);
}

/* The reply to a GETLINK of one netdev (no dump: no NLM_F_MULTI). */
static void link_reply(struct rd_nl_buf *b, const char *name, int type,
		       const struct vf_line *vfs, size_t n)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
				 .ifi_type = (unsigned short)type,
				 .ifi_index = 5 };
	struct nl_msg *m = nb_msg(RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	struct nlattr *list;

	nla_put_string(m, IFLA_IFNAME, name);
	nla_put_u32(m, IFLA_MTU, 9000);
	nla_put_u32(m, IFLA_NUM_VF, (uint32_t)n);
	list = nla_nest_start(m, IFLA_VFINFO_LIST);
	for (size_t i = 0; i < n; i++)
		put_vf(m, &vfs[i]);
	nla_nest_end(m, list);
	nb_take(b, m);
}

#define NO_SAY ((uint32_t)-1)

/*
 * ens3f1 of a ConnectX host (sriov-cni issue 291): eight VFs with MAC 0,
 * spoof checking off, link-state auto; VF 3 VLAN 3000 and VF 6 VLAN 1082,
 * both trust on.
 */
static void ens3f1(struct rd_nl_buf *b)
{
	struct vf_line v[8];

	memset(v, 0, sizeof(v));
	for (uint32_t i = 0; i < 8; i++)
		v[i].vf = i;
	v[3].vlan = 3000;
	v[3].trust = 1;
	v[6].vlan = 1082;
	v[6].trust = 1;
	link_reply(b, "ens3f1", ARPHRD_ETHER, v, 8);
}

static void test_ethernet(void **state)
{
	struct rd_sriov sv = { 0 };
	struct rd_nl_buf b = { 0 };

	(void)state;
	ens3f1(&b);
	sv.pf_netdev = strdup("ens3f1");
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), 0);
	assert_true(sv.vfinfo_read.ok && sv.vfinfo_read.v);
	assert_int_equal(sv.n_vfs, 8);
	assert_int_equal(sv.vfs[3].index.v, 3);
	assert_string_equal(sv.vfs[3].mac, "00:00:00:00:00:00");
	assert_int_equal(sv.vfs[3].vlan.v, 3000);
	assert_true(sv.vfs[3].trust.ok && sv.vfs[3].trust.v);
	assert_true(sv.vfs[0].trust.ok && !sv.vfs[0].trust.v);
	assert_true(sv.vfs[3].spoofchk.ok && !sv.vfs[3].spoofchk.v);
	assert_string_equal(sv.vfs[6].link_state, "auto");
	assert_int_equal(sv.vfs[6].vlan.v, 1082);
	/* Ethernet: no GUIDs. */
	assert_false(sv.vfs[0].node_guid.ok);
	/* Another netdev's reply says nothing of this PF. */
	rd_model_free(rd_sriov_fields, &sv);
	memset(&sv, 0, sizeof(sv));
	sv.pf_netdev = strdup("ens3f0");
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), -ENODATA);
	assert_false(sv.vfinfo_read.ok);
	rd_model_free(rd_sriov_fields, &sv);
	rd_nl_buf_free(&b);
}

static void test_infiniband(void **state)
{
	/* ib0 before an administrative GUID was set (IB/mlx5 patch of
	 * 2020-01-16): NODE_GUID and PORT_GUID 0, link-state auto. */
	struct vf_line zero = { .vf = 0, .ib = true, .link_state = 0 };
	/* ib4 after `ip link set ib4 vf 0 node_guid 22:44:33:00:33:11:00:33
	 * port_guid 10:21:33:12:00:11:22:10` (iproute2 patch of 2019-11-18),
	 * link-state disable. */
	struct vf_line set = { .vf = 0,
			       .ib = true,
			       .link_state = 2,
			       .node_guid = 0x2244330033110033ull,
			       .port_guid = 0x1021331200112210ull };
	struct rd_sriov sv = { 0 };
	struct rd_nl_buf b = { 0 };

	(void)state;
	link_reply(&b, "ib0", ARPHRD_INFINIBAND, &zero, 1);
	sv.pf_netdev = strdup("ib0");
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), 0);
	assert_int_equal(sv.n_vfs, 1);
	assert_true(sv.vfs[0].node_guid.ok);
	assert_int_equal(sv.vfs[0].node_guid.v, 0);
	assert_int_equal(sv.vfs[0].port_guid.v, 0);
	/* An IPoIB PF's VF has no Ethernet MAC. */
	assert_null(sv.vfs[0].mac);
	assert_string_equal(sv.vfs[0].link_state, "auto");
	rd_model_free(rd_sriov_fields, &sv);
	rd_nl_buf_free(&b);

	memset(&sv, 0, sizeof(sv));
	link_reply(&b, "ib4", ARPHRD_INFINIBAND, &set, 1);
	sv.pf_netdev = strdup("ib4");
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), 0);
	assert_int_equal(sv.vfs[0].node_guid.v, 0x2244330033110033ull);
	assert_int_equal(sv.vfs[0].port_guid.v, 0x1021331200112210ull);
	assert_string_equal(sv.vfs[0].link_state, "disable");
	rd_model_free(rd_sriov_fields, &sv);
	rd_nl_buf_free(&b);

	/* A driver that does not implement spoof check or trust: -1. */
	memset(&sv, 0, sizeof(sv));
	zero.spoofchk = NO_SAY;
	zero.trust = NO_SAY;
	link_reply(&b, "ib0", ARPHRD_INFINIBAND, &zero, 1);
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), 0);
	assert_false(sv.vfs[0].spoofchk.ok);
	assert_false(sv.vfs[0].trust.ok);
	rd_model_free(rd_sriov_fields, &sv);
	rd_nl_buf_free(&b);
}

static int parse_into(const void *bytes, size_t len, void *arg)
{
	return rd_vf_parse_link(bytes, len, arg);
}

static void reset(void *arg)
{
	rd_model_free(rd_sriov_fields, arg);
	memset(arg, 0, sizeof(struct rd_sriov));
}

static void test_hostile(void **state)
{
	struct rd_sriov sv = { 0 };
	struct rd_nl_buf b = { 0 };

	(void)state;
	ens3f1(&b);
	assert_true(nb_truncations(&b, parse_into, reset, &sv) > 0);
	(void)nb_corruptions(&b, parse_into, reset, &sv);
	reset(&sv);
	/* The kernel's refusal. */
	rd_nl_buf_free(&b);
	nb_error(&b, -ENODEV);
	assert_int_equal(rd_vf_parse_link(b.data, b.len, &sv), -ENODEV);
	rd_nl_buf_free(&b);
}

#define FAMILY 21

/* `devlink dev eswitch show pci/0000:08:00.0`: "mode switchdev". */
static void eswitch_reply(struct rd_nl_buf *b, const char *dev, uint16_t mode)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_ESWITCH_GET, .version = 1 };
	struct nl_msg *m = nb_msg(FAMILY, 0, &g, sizeof(g));

	nla_put_string(m, DEVLINK_ATTR_BUS_NAME, "pci");
	nla_put_string(m, DEVLINK_ATTR_DEV_NAME, dev);
	nla_put_u16(m, DEVLINK_ATTR_ESWITCH_MODE, mode);
	nla_put_u8(m, DEVLINK_ATTR_ESWITCH_INLINE_MODE,
		   DEVLINK_ESWITCH_INLINE_MODE_NONE);
	nla_put_u8(m, DEVLINK_ATTR_ESWITCH_ENCAP_MODE,
		   DEVLINK_ESWITCH_ENCAP_MODE_BASIC);
	nb_take(b, m);
}

static void test_eswitch(void **state)
{
	struct rd_snapshot s;
	struct rd_nl_buf b = { 0 };

	(void)state;
	rd_snapshot_init(&s);
	eswitch_reply(&b, "0000:08:00.0", DEVLINK_ESWITCH_MODE_SWITCHDEV);
	eswitch_reply(&b, "0000:08:00.1", DEVLINK_ESWITCH_MODE_LEGACY);
	assert_int_equal(rd_devlink_parse_eswitch(b.data, b.len, &s), 0);
	assert_int_equal(s.n_devlinks, 2);
	assert_string_equal(s.devlinks[0].eswitch_mode, "switchdev");
	assert_string_equal(s.devlinks[1].eswitch_mode, "legacy");
	rd_nl_buf_free(&b);
	/* A mode this kernel's UAPI does not name is not guessed. */
	eswitch_reply(&b, "0000:08:00.0", 7);
	assert_int_equal(rd_devlink_parse_eswitch(b.data, b.len, &s), -EBADMSG);
	rd_nl_buf_free(&b);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ethernet),
		cmocka_unit_test(test_infiniband),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_eswitch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
