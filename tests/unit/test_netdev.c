// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "nl_build.h"

#include <sys/socket.h>

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "probes/netdev.h"

#define LAB "lab-rxe0-veth0/"

struct nds {
	struct rd_netdev *v;
	size_t n;
};

static void nds_reset(void *arg)
{
	struct nds *d = arg;

	rd_netdev_free_array(d->v, d->n);
	d->v = NULL;
	d->n = 0;
}

static int parse_links(const void *p, size_t n, void *arg)
{
	struct nds *d = arg;

	return rd_netdev_parse_links(p, n, &d->v, &d->n);
}

static struct rd_netdev *find(struct nds *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].name, name) == 0)
			return &d->v[i];
	return NULL;
}

/* Captured in the lab; expected values from ip -j -d link / ip -j addr. */
static void test_lab_veth0(void **state)
{
	struct rd_nl_buf b;
	struct nds d = { 0 };
	struct rd_netdev *v;

	nb_load(LAB "rtnl-link.bin", &b);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n), 0);
	rd_nl_buf_free(&b);
	assert_true(d.n >= 3);	/* lo, veth0, veth1 */
	v = find(&d, "veth0");
	assert_non_null(v);
	assert_int_equal(v->ifindex.v, 3);
	assert_string_equal(v->kind, "veth");
	assert_true(v->admin_up.ok && v->admin_up.v);
	assert_string_equal(v->operstate, "up");
	assert_true(v->carrier.ok && v->carrier.v);
	assert_int_equal(v->mtu.v, 1500);
	assert_int_equal(v->min_mtu.v, 68);
	assert_int_equal(v->max_mtu.v, 65535);
	assert_string_equal(v->mac, "02:00:00:00:00:01");
	assert_true(v->carrier_changes.ok);
	assert_true(v->carrier_up_count.ok);
	assert_true(v->carrier_down_count.ok);
	assert_int_equal(v->carrier_changes.v,
			 v->carrier_up_count.v + v->carrier_down_count.v);
	assert_null(v->pci_bdf);
	v = find(&d, "lo");
	assert_non_null(v);
	assert_null(v->kind);
	/* A link dump says nothing of addresses. */
	for (size_t i = 0; i < d.n; i++)
		assert_false(d.v[i].addrs_read.ok);

	nb_load(LAB "rtnl-addr.bin", &b);
	assert_int_equal(rd_netdev_parse_addrs(b.data, b.len, d.v, d.n), 0);
	rd_nl_buf_free(&b);
	/* The whole dump was read: every link's list is complete. */
	for (size_t i = 0; i < d.n; i++)
		assert_true(d.v[i].addrs_read.ok && d.v[i].addrs_read.v);
	v = find(&d, "veth0");
	assert_int_equal(v->n_addrs, 3);
	assert_string_equal(v->addrs[0].family, "inet");
	assert_string_equal(v->addrs[0].address, "192.0.2.1");
	assert_int_equal(v->addrs[0].prefixlen.v, 24);
	assert_string_equal(v->addrs[0].scope, "global");
	for (size_t i = 1; i < 3; i++) {
		assert_string_equal(v->addrs[i].family, "inet6");
		if (strcmp(v->addrs[i].address, "2001:db8::1") == 0)
			assert_string_equal(v->addrs[i].scope, "global");
		else if (strcmp(v->addrs[i].address, "fe80::ff:fe00:1") == 0)
			assert_string_equal(v->addrs[i].scope, "link");
		else
			fail_msg("unexpected address %s", v->addrs[i].address);
	}
	v = find(&d, "lo");
	assert_string_equal(v->addrs[0].address, "127.0.0.1");
	assert_string_equal(v->addrs[0].scope, "host");
	nds_reset(&d);
}

static void test_truncated_and_corrupt(void **state)
{
	struct rd_nl_buf b;
	struct nds d = { 0 };

	nb_load(LAB "rtnl-link.bin", &b);
	/* Keep the run short: the first two messages are enough. */
	{
		struct nlmsghdr h1, h2;

		memcpy(&h1, b.data, sizeof(h1));
		memcpy(&h2, b.data + NLMSG_ALIGN(h1.nlmsg_len), sizeof(h2));
		b.len = NLMSG_ALIGN(h1.nlmsg_len) + NLMSG_ALIGN(h2.nlmsg_len);
	}
	assert_int_equal(nb_truncations(&b, parse_links, nds_reset, &d),
			 b.len - 1);
	assert_true(nb_corruptions(&b, parse_links, nds_reset, &d) > 0);
	rd_nl_buf_free(&b);
}

/* An mlx5 uplink: PCI parent, permanent MAC, 20 carrier flaps. */
static void test_mlx5_link(void **state)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7,
				 .ifi_flags = IFF_UP | IFF_BROADCAST };
	struct nl_msg *m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	uint8_t mac[6] = { 0x0c, 0x42, 0xa1, 0xfa, 0x1b, 0x2c };
	uint8_t perm[6] = { 0x0c, 0x42, 0xa1, 0xfa, 0x1b, 0x2d };
	struct rd_nl_buf b = { 0 };
	struct nds d = { 0 };

	nla_put_string(m, IFLA_IFNAME, "ens1f0np0");
	nla_put_u32(m, IFLA_MTU, 4200);
	nla_put_u8(m, IFLA_OPERSTATE, 2 /* IF_OPER_DOWN */);
	nla_put_u8(m, IFLA_CARRIER, 0);
	nla_put_u32(m, IFLA_CARRIER_CHANGES, 20);
	nla_put_u32(m, IFLA_CARRIER_UP_COUNT, 10);
	nla_put_u32(m, IFLA_CARRIER_DOWN_COUNT, 10);
	nla_put(m, IFLA_ADDRESS, sizeof(mac), mac);
	nla_put(m, IFLA_PERM_ADDRESS, sizeof(perm), perm);
	nla_put_string(m, IFLA_PARENT_DEV_NAME, "0000:3b:00.0");
	nla_put_string(m, IFLA_PARENT_DEV_BUS_NAME, "pci");
	nb_take(&b, m);
	nb_done(&b);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].operstate, "down");
	assert_false(d.v[0].carrier.v);
	assert_int_equal(d.v[0].carrier_down_count.v, 10);
	assert_string_equal(d.v[0].mac, "0c:42:a1:fa:1b:2c");
	assert_string_equal(d.v[0].perm_mac, "0c:42:a1:fa:1b:2d");
	assert_string_equal(d.v[0].pci_bdf, "0000:3b:00.0");
	assert_int_equal(d.v[0].mtu.v, 4200);
	assert_false(d.v[0].min_mtu.ok);
	nds_reset(&d);
	rd_nl_buf_free(&b);
}

/* A VLAN device as `ip link add link eth2 name eth2.100 type vlan id 100
 * egress-qos-map 2:3 5:5` reports it: IFLA_LINK plus the VLAN data. */
static void put_vlan(struct nl_msg *m, const char *name, uint32_t link,
		     const struct ifla_vlan_qos_mapping *q, size_t nq)
{
	struct nlattr *li, *data, *eg;

	nla_put_string(m, IFLA_IFNAME, name);
	nla_put_u32(m, IFLA_LINK, link);
	li = nla_nest_start(m, IFLA_LINKINFO);
	nla_put_string(m, IFLA_INFO_KIND, "vlan");
	data = nla_nest_start(m, IFLA_INFO_DATA);
	nla_put_u16(m, IFLA_VLAN_ID, 100);
	eg = nla_nest_start(m, IFLA_VLAN_EGRESS_QOS);
	for (size_t i = 0; i < nq; i++)
		nla_put(m, IFLA_VLAN_QOS_MAPPING, sizeof(q[i]), &q[i]);
	nla_nest_end(m, eg);
	nla_nest_end(m, data);
	nla_nest_end(m, li);
}

static void test_vlan_egress_map(void **state)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 9,
				 .ifi_flags = IFF_UP };
	const struct ifla_vlan_qos_mapping q[] = {
		{ .from = 2, .to = 3 }, { .from = 5, .to = 5 },
		{ .from = 4000, .to = 1 },	/* no ToS gives that priority */
	};
	const struct ifla_vlan_qos_mapping bad = { .from = 1, .to = 9 };
	struct nl_msg *m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	struct rd_nl_buf b = { 0 };
	struct nds d = { 0 };
	const struct rd_counter *c;

	(void)state;
	put_vlan(m, "eth2.100", 7, q, 3);
	nb_take(&b, m);
	nb_done(&b);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].kind, "vlan");
	assert_int_equal(d.v[0].link_ifindex.v, 7);
	assert_int_equal(d.v[0].vlan_id.v, 100);
	assert_int_equal(d.v[0].vlan_egress.n, 2);
	c = rd_counters_find(&d.v[0].vlan_egress, "prio2");
	assert_non_null(c);
	assert_int_equal(c->value.v, 3);
	c = rd_counters_find(&d.v[0].vlan_egress, "prio5");
	assert_non_null(c);
	assert_int_equal(c->value.v, 5);
	nds_reset(&d);
	rd_nl_buf_free(&b);

	/* A PCP above 7 is not a PCP: the reply is refused. */
	m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	put_vlan(m, "eth2.100", 7, &bad, 1);
	nb_take(&b, m);
	nb_done(&b);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	nds_reset(&d);
	rd_nl_buf_free(&b);
}

static void put_link(struct rd_nl_buf *b, int ifindex, const char *name,
		     const char *vlan_of, uint32_t link)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex,
				 .ifi_flags = IFF_UP };
	struct nl_msg *m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	const struct ifla_vlan_qos_mapping q = { .from = 2, .to = 3 };

	if (vlan_of)
		put_vlan(m, name, link, &q, 1);
	else
		nla_put_string(m, IFLA_IFNAME, name);
	nb_take(b, m);
}

/*
 * A VLAN on an RDMA port's netdev is kept (the QoS model reads its egress
 * map) whether its lower came before or after it in the dump; a VLAN on
 * any other interface is not, and the port's netdev stays its own.
 */
static void test_keep_vlan_of_port(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };

	(void)state;
	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, "/nonexistent-rdmadiag-root"), 0);
	for (int order = 0; order < 2; order++) {
		struct rd_nl_buf b = { 0 };
		struct nds d = { 0 };
		struct rd_snapshot s;
		struct rd_device *dv;
		struct rd_port *p;
		const struct rd_netdev *v;

		if (order == 0)
			put_link(&b, 7, "eth2", NULL, 0);
		put_link(&b, 9, "eth2.100", "eth2", 7);
		put_link(&b, 10, "eth9.5", "eth9", 8);
		put_link(&b, 8, "eth9", NULL, 0);
		if (order == 1)
			put_link(&b, 7, "eth2", NULL, 0);
		nb_done(&b);
		assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n),
				 0);
		rd_snapshot_init(&s);
		dv = RD_PUSH(s.devices, s.n_devices);
		assert_non_null(dv);
		dv->name = strdup("mlx5_0");
		p = RD_PUSH(dv->ports, dv->n_ports);
		assert_non_null(p);
		p->port = 1;
		p->netdev = strdup("eth2");
		rd_netdev_keep(&ctx, &s, d.v, d.n);
		assert_int_equal(s.n_netdevs, 2);
		v = rd_snapshot_netdev(&s, "eth2.100");
		assert_non_null(v);
		assert_string_equal(v->lower, "eth2");
		assert_string_equal(v->rdma_device, "mlx5_0");
		assert_false(v->rdma_port.ok);
		assert_int_equal(rd_counters_find(&v->vlan_egress, "prio2")->value.v,
				 3);
		assert_int_equal(rd_snapshot_netdev(&s, "eth2")->rdma_port.v, 1);
		assert_null(rd_snapshot_netdev(&s, "eth9.5"));
		rd_snapshot_free(&s);
		nds_reset(&d);
		rd_nl_buf_free(&b);
	}
}

static void test_hostile_links(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 7 };
	struct rd_nl_buf b = { 0 };
	struct nds d = { 0 };
	uint8_t big[40] = { 0 };
	struct nl_msg *m;

	/* A hardware address longer than MAX_ADDR_LEN. */
	m = nb_msg(RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	nla_put_string(m, IFLA_IFNAME, "eth9");
	nla_put(m, IFLA_ADDRESS, sizeof(big), big);
	nb_take(&b, m);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	assert_int_equal(d.n, 0);
	rd_nl_buf_free(&b);
	/* No name. */
	m = nb_msg(RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	nla_put_u32(m, IFLA_MTU, 1500);
	nb_take(&b, m);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	/* Header shorter than struct ifinfomsg. */
	m = nb_msg(RTM_NEWLINK, 0, &ifi, 4);
	nb_take(&b, m);
	assert_int_equal(rd_netdev_parse_links(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	/* An IPv4 address of 16 bytes. */
	{
		struct ifaddrmsg ifa = { .ifa_family = AF_INET,
					 .ifa_prefixlen = 24, .ifa_index = 7 };
		uint8_t a16[16] = { 10 };

		m = nb_msg(RTM_NEWADDR, 0, &ifa, sizeof(ifa));
		nla_put(m, IFA_LOCAL, sizeof(a16), a16);
		nb_take(&b, m);
		assert_int_equal(rd_netdev_parse_addrs(b.data, b.len, d.v, d.n),
				 -EBADMSG);
		rd_nl_buf_free(&b);
	}
	nds_reset(&d);
}

static void put_addr4(struct rd_nl_buf *b, uint32_t ifindex, uint32_t n)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 24,
				 .ifa_index = ifindex };
	uint8_t a4[4] = { 10, (uint8_t)(n >> 16), (uint8_t)(n >> 8),
			  (uint8_t)n };
	struct nl_msg *m = nb_msg(RTM_NEWADDR, NLM_F_MULTI, &ifa, sizeof(ifa));

	nla_put(m, IFA_LOCAL, sizeof(a4), a4);
	nb_take(b, m);
}

/*
 * Whether a netdev's addresses were read: not after a failed dump, and
 * not all of them when it has more than one netdev keeps.
 */
static void test_addrs_read(void **state)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	struct rd_nl_buf b = { 0 }, links;
	struct nds d = { 0 };
	struct nl_msg *m;

	(void)state;
	m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	nla_put_string(m, IFLA_IFNAME, "eth7");
	nb_take(&b, m);
	ifi.ifi_index = 8;
	m = nb_msg(RTM_NEWLINK, NLM_F_MULTI, &ifi, sizeof(ifi));
	nla_put_string(m, IFLA_IFNAME, "eth8");
	nb_take(&b, m);
	nb_done(&b);
	links = b;
	b = (struct rd_nl_buf){ 0 };
	assert_int_equal(rd_netdev_parse_links(links.data, links.len, &d.v,
					       &d.n), 0);
	assert_int_equal(d.n, 2);

	/* One good address, then a broken message: nothing is known. */
	put_addr4(&b, 7, 1);
	{
		struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_index = 8 };

		nb_take(&b, nb_msg(RTM_NEWADDR, NLM_F_MULTI, &ifa, sizeof(ifa)));
	}
	nb_done(&b);
	assert_int_equal(rd_netdev_parse_addrs(b.data, b.len, d.v, d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	assert_false(d.v[0].addrs_read.ok);
	assert_false(d.v[1].addrs_read.ok);
	nds_reset(&d);

	/* eth7 with one address more than is kept; eth8 with none. */
	assert_int_equal(rd_netdev_parse_links(links.data, links.len, &d.v,
					       &d.n), 0);
	rd_nl_buf_free(&links);
	for (uint32_t i = 0; i <= 1024; i++)
		put_addr4(&b, 7, i);
	nb_done(&b);
	assert_int_equal(rd_netdev_parse_addrs(b.data, b.len, d.v, d.n), 0);
	rd_nl_buf_free(&b);
	assert_int_equal(d.v[0].n_addrs, 1024);
	assert_true(d.v[0].addrs_read.ok);
	assert_false(d.v[0].addrs_read.v);
	assert_int_equal(d.v[1].n_addrs, 0);
	assert_true(d.v[1].addrs_read.ok && d.v[1].addrs_read.v);
	nds_reset(&d);
}

static void test_scope_names(void **state)
{
	char buf[16];

	assert_string_equal(rd_netdev_scope_name(0, buf, sizeof(buf)),
			    "global");
	assert_string_equal(rd_netdev_scope_name(253, buf, sizeof(buf)),
			    "link");
	assert_string_equal(rd_netdev_scope_name(254, buf, sizeof(buf)),
			    "host");
	assert_string_equal(rd_netdev_scope_name(17, buf, sizeof(buf)), "17");
}

/*
 * The live kernel: no RDMA device here, so every interface but lo is a
 * candidate for one (a Soft-RoCE link, a NIC missing its RDMA driver).
 */
static void test_live_no_rdma_lists_candidates(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;
	unsigned want = 0;
	struct if_nameindex *ifs = if_nameindex();

	(void)state;
	assert_non_null(ifs);
	for (struct if_nameindex *i = ifs; i->if_index; i++)
		if (strcmp(i->if_name, "lo") != 0)
			want++;
	if_freenameindex(ifs);
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_NETDEV, &s), 0);
	assert_int_equal(s.n_netdevs, want);
	assert_null(rd_snapshot_netdev(&s, "lo"));
	for (size_t i = 0; i < s.n_netdevs; i++) {
		assert_null(s.netdevs[i].rdma_device);
		assert_true(s.netdevs[i].mtu.ok);
	}
	assert_int_equal(s.n_errors, 0);
	rd_snapshot_free(&s);
}

/* A port naming lo pulls lo in, with its live data. */
static void test_live_port_netdev(void **state)
{
	struct rd_roots roots;
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_probe_ctx ctx = { .roots = &roots, .cache = cache };
	struct rd_snapshot s;

	rd_roots_init(&roots);
	for (int tick = 0; tick < 2; tick++) {
		struct rd_device *dv;
		struct rd_port *p;

		rd_snapshot_init(&s);
		dv = RD_PUSH(s.devices, s.n_devices);
		dv->name = strdup("rxe9");
		p = RD_PUSH(dv->ports, dv->n_ports);
		p->port = 1;
		p->netdev = strdup("lo");
		ctx.tick = (uint64_t)tick;
		assert_int_equal(rd_probe_run(&ctx, RD_PROBE_NETDEV, &s), 0);
		assert_int_equal(s.n_errors, 0);
		assert_int_equal(s.n_netdevs, 1);
		assert_string_equal(s.netdevs[0].name, "lo");
		assert_int_equal(s.netdevs[0].ifindex.v, 1);
		assert_string_equal(s.netdevs[0].rdma_device, "rxe9");
		assert_int_equal(s.netdevs[0].rdma_port.v, 1);
		assert_true(s.netdevs[0].mtu.ok);
		assert_true(s.netdevs[0].addrs_read.ok &&
			    s.netdevs[0].addrs_read.v);
		rd_snapshot_free(&s);
	}
	rd_probe_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab_veth0),
		cmocka_unit_test(test_truncated_and_corrupt),
		cmocka_unit_test(test_mlx5_link),
		cmocka_unit_test(test_hostile_links),
		cmocka_unit_test(test_addrs_read),
		cmocka_unit_test(test_vlan_egress_map),
		cmocka_unit_test(test_keep_vlan_of_port),
		cmocka_unit_test(test_scope_names),
		cmocka_unit_test(test_live_no_rdma_lists_candidates),
		cmocka_unit_test(test_live_port_netdev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
