// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparing one RDMA port of two hosts: each mismatch found with both
 * values, nothing reported for two matching hosts, the IPv4 RoCE v2 GID
 * index of each side, port picking, and hostile strings escaped.
 */
#include "config.h"

#include "unit.h"

#include "diag/compare.h"

/* One host: rxe0 port 1 on eth0, GIDs link-local v1/v2 then IPv4 v1/v2. */
struct host {
	struct rd_snapshot s;
	struct rd_device dev;
	struct rd_port port;
	struct rd_gid gids[4];
	struct rd_netdev nd;
	struct rd_addr addr;
	struct rd_cm_port cm;
	struct rd_dcb_app app;
	struct rd_counter np, rp;
	struct rd_cmp_side side;
};

static void host_init(struct host *h, const char *ip, unsigned prefix,
		      uint64_t mtu)
{
	unsigned a, b, c, d;

	memset(h, 0, sizeof(*h));
	assert_int_equal(sscanf(ip, "%u.%u.%u.%u", &a, &b, &c, &d), 4);
	for (int i = 0; i < 4; i++) {
		struct rd_gid *g = &h->gids[i];

		g->index = (uint64_t)i;
		g->raw_ok = true;
		g->type = (char *)(i % 2 ? "RoCE v2" : "IB/RoCE v1");
		if (i < 2) {
			g->raw[0] = 0xfe;
			g->raw[1] = 0x80;
			g->raw[15] = 1;
		} else {
			g->raw[10] = g->raw[11] = 0xff;
			g->raw[12] = (uint8_t)a;
			g->raw[13] = (uint8_t)b;
			g->raw[14] = (uint8_t)c;
			g->raw[15] = (uint8_t)d;
		}
	}
	h->port.port = 1;
	h->port.link_layer = (char *)"Ethernet";
	h->port.netdev = (char *)"eth0";
	h->port.gids = h->gids;
	h->port.n_gids = 4;
	h->port.rate_gbps = (struct rd_odbl){ 100, true };
	h->port.pkey0 = (struct rd_ou64){ 0xffff, true };
	h->port.verbs.active_mtu = (struct rd_ou64){ mtu > 4096 ? 4096 : 1024, true };
	h->dev.name = (char *)"rxe0";
	h->dev.driver = (char *)"rdma_rxe";
	h->dev.hca_type = (char *)"ConnectX-6";
	h->dev.fw_ver = (char *)"20.1";
	h->dev.ports = &h->port;
	h->dev.n_ports = 1;
	h->addr.family = (char *)"inet";
	h->addr.address = (char *)ip;
	h->addr.prefixlen = (struct rd_ou64){ prefix, true };
	h->nd.name = (char *)"eth0";
	h->nd.mtu = (struct rd_ou64){ mtu, true };
	h->nd.addrs = &h->addr;
	h->nd.n_addrs = 1;
	h->s.devices = &h->dev;
	h->s.n_devices = 1;
	h->s.netdevs = &h->nd;
	h->s.n_netdevs = 1;
	h->side = (struct rd_cmp_side){ &h->s, &h->dev, &h->port };
}

/*
 * rdma_cm's defaults for rxe0 port 1, and QoS: trust (NULL: not read), the
 * DSCP of the ToS mapped to prio by the APP table, PFC on pfc_en.
 */
static void host_qos(struct host *h, const char *mode, uint64_t tos,
		     const char *trust, int prio, uint64_t pfc_en)
{
	h->cm.device = (char *)"rxe0";
	h->cm.port = (struct rd_ou64){ 1, true };
	h->cm.default_roce_mode = (char *)mode;
	h->cm.default_roce_tos = (struct rd_ou64){ tos, true };
	h->s.host.cm_ports = &h->cm;
	h->s.host.n_cm_ports = 1;
	h->nd.dcb.supported = (struct rd_obool){ true, true };
	h->nd.dcb.trust = (char *)trust;
	h->nd.dcb.pfc_en = (struct rd_ou64){ pfc_en, true };
	h->nd.ethtool.rx_pause = (struct rd_obool){ false, true };
	h->nd.ethtool.tx_pause = (struct rd_obool){ false, true };
	h->app.selector = (struct rd_ou64){ 5, true };
	h->app.protocol = (struct rd_ou64){ tos >> 2, true };
	h->app.priority = (struct rd_ou64){ (uint64_t)prio, true };
	h->nd.dcb.apps = &h->app;
	h->nd.dcb.n_apps = 1;
}

/* ECN of priority 3 (the one host_qos maps RoCE to): np and rp enables. */
static void host_ecn(struct host *h, bool np, bool rp)
{
	h->np = (struct rd_counter){ (char *)"prio3", { np, true } };
	h->rp = (struct rd_counter){ (char *)"prio3", { rp, true } };
	h->nd.ecn.present = (struct rd_obool){ true, true };
	h->nd.ecn.np_enable = (struct rd_counters){ &h->np, 1 };
	h->nd.ecn.rp_enable = (struct rd_counters){ &h->rp, 1 };
}

static const struct rd_cmp_item *item(const struct rd_compare *c,
				      const char *what)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->items[i].what, what) == 0)
			return &c->items[i];
	return NULL;
}

/* The mismatch named what, with side a's and b's values (NULL: any). */
static const struct rd_cmp_item *expect(const struct rd_compare *c,
					const char *what, const char *a,
					const char *b)
{
	const struct rd_cmp_item *it = item(c, what);

	assert_non_null(it);
	if (a)
		assert_string_equal(it->a, a);
	if (b)
		assert_string_equal(it->b, b);
	return it;
}

static void test_same_hosts(void **state)
{
	struct host a, b;
	struct rd_compare c;

	(void)state;
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "198.51.100.2", 24, 1500);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(c.gid_a, 3);
	assert_int_equal(c.gid_b, 3);
	assert_string_equal(c.addr_a, "198.51.100.1");
	assert_string_equal(c.addr_b, "198.51.100.2");
	/* What the snapshots lack is said, not taken as equal. */
	assert_string_equal(c.unread, "rdma_cm defaults, FEC, trust mode, RoCE priority");
	rd_compare_free(&c);

	/* An MTU and a netdev missing from one side. */
	b.port.verbs.active_mtu.ok = false;
	b.port.netdev = NULL;
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 0);
	assert_non_null(strstr(c.unread, "IPv4 subnet, rdma_cm defaults, active MTU, netdev MTU, FEC"));
	rd_compare_free(&c);
}

static void test_mtu(void **state)
{
	struct host a, b;
	struct rd_compare c;
	const struct rd_cmp_item *it;

	(void)state;
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "198.51.100.2", 24, 9000);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 2);
	it = expect(&c, "active MTU", "1024 bytes", "4096 bytes");
	assert_non_null(strstr(it->breaks, "smaller, 1024 bytes; an end that uses its own 4096"));
	expect(&c, "netdev MTU", "1500 bytes", "9000 bytes");
	rd_compare_free(&c);
}

static void test_gids(void **state)
{
	struct host a, b;
	struct rd_compare c;

	(void)state;
	/* Different subnets, and b's IPv4 v2 GID at another index. */
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "203.0.113.2", 24, 1500);
	b.gids[2].type = (char *)"RoCE v2";
	b.gids[3].type = (char *)"IB/RoCE v1";
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.gid_b, 2);
	expect(&c, "IPv4 subnet", "198.51.100.1/24", "203.0.113.2/24");
	expect(&c, "IPv4 RoCE v2 GID index", "3", "2");
	rd_compare_free(&c);

	/* No IPv4 address on b: no IPv4 GID at all. */
	host_init(&b, "198.51.100.2", 24, 1500);
	b.port.n_gids = 2;
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.gid_b, -1);
	expect(&c, "IPv4 RoCE v2 GID", "index 3 (198.51.100.1)", "none");
	rd_compare_free(&c);

	/* RoCE v1 only on b. */
	host_init(&b, "198.51.100.2", 24, 1500);
	for (int i = 0; i < 4; i++)
		b.gids[i].type = (char *)"IB/RoCE v1";
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_null(item(&c, "RoCE version"));	/* a has v1 too */
	rd_compare_free(&c);
	for (int i = 0; i < 4; i++)
		a.gids[i].type = (char *)"RoCE v2";
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	expect(&c, "RoCE version", "RoCE v2 only", "RoCE v1 only");
	rd_compare_free(&c);
}

static void test_device_and_link(void **state)
{
	struct host a, b;
	struct rd_compare c;
	const struct rd_cmp_item *it;

	(void)state;
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "198.51.100.2", 24, 1500);
	b.port.link_layer = (char *)"InfiniBand";
	b.port.rate_gbps.v = 25;
	b.port.pkey0.v = 0x8001;
	b.dev.fw_ver = (char *)"22.1\x1b[2J";
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	expect(&c, "link layer", "Ethernet", "InfiniBand");
	it = expect(&c, "rate", NULL, "25 Gb/s");
	assert_non_null(strstr(it->breaks, "slower 25 Gb/s"));
	it = expect(&c, "P_Key (index 0)", NULL, "0x8001");
	it = expect(&c, "firmware", "20.1", NULL);
	assert_null(strchr(it->b, '\x1b'));	/* escaped */
	rd_compare_free(&c);

	/* Different adapter models: their firmware is not compared. */
	b.dev.hca_type = (char *)"ConnectX-5";
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_null(item(&c, "firmware"));
	rd_compare_free(&c);
}

/* A module of one lane on eth0: lit (mW) or dark (LOS). */
static void host_module(struct host *h, struct rd_xcvr_lane *ln, double mw,
			bool los)
{
	memset(ln, 0, sizeof(*ln));
	ln->lane = 1;
	ln->rx_power_mw = (struct rd_odbl){ mw, true };
	ln->rx_los = (struct rd_obool){ los, true };
	h->nd.xcvr.identifier = (struct rd_ou64){ 0x03, true };
	h->nd.xcvr.lanes = ln;
	h->nd.xcvr.n_lanes = 1;
}

/* One end dark while the other receives: the fibre's direction to it. */
static void test_light(void **state)
{
	struct host a, b;
	struct rd_xcvr_lane la, lb;
	struct rd_compare c;

	(void)state;
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "198.51.100.2", 24, 1500);
	host_module(&a, &la, 0.5, false);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_non_null(strstr(c.unread, "received light"));
	rd_compare_free(&c);
	host_module(&b, &lb, 0, true);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	expect(&c, "received light", "-3.01 dBm (weakest of 1 lanes)",
	       "no light (LOS on 1 of 1 lanes)");
	rd_compare_free(&c);
	host_module(&b, &lb, 0.25, false);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_null(item(&c, "received light"));
	rd_compare_free(&c);
}

static void test_cm_and_qos(void **state)
{
	struct host a, b;
	struct rd_compare c;

	(void)state;
	host_init(&a, "198.51.100.1", 24, 1500);
	host_init(&b, "198.51.100.2", 24, 1500);
	host_qos(&a, "RoCE v2", 106, "dscp", 3, 0x08);
	host_qos(&b, "RoCE v2", 106, "dscp", 3, 0x08);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 0);
	assert_string_equal(c.unread, "FEC, ECN");
	rd_compare_free(&c);

	/* ECN on priority 3: both on here, the notification point off on b. */
	host_ecn(&a, true, true);
	host_ecn(&b, false, true);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 1);
	expect(&c, "ECN", "priority 3: notification on, reaction on",
	       "priority 3: notification off, reaction on");
	assert_string_equal(c.unread, "FEC");
	rd_compare_free(&c);
	host_ecn(&b, true, true);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_int_equal(c.n, 0);
	rd_compare_free(&c);

	/* v1 by default on b, another ToS: another DSCP, priority 5, lossy. */
	host_qos(&b, "IB/RoCE v1", 98, "dscp", 5, 0x08);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	expect(&c, "rdma_cm default RoCE mode", "RoCE v2", "IB/RoCE v1");
	expect(&c, "rdma_cm default ToS", "106", "98");
	expect(&c, "RoCE priority", "3", "5");
	expect(&c, "lossless RoCE", "priority 3 lossless (PFC)", "priority 5 lossy");
	assert_null(item(&c, "trust mode"));
	rd_compare_free(&c);

	/* Trust PCP on b: untagged RoCE arrives on priority 0 there. */
	host_qos(&b, "RoCE v2", 106, "pcp", 3, 0x08);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	expect(&c, "trust mode", "dscp", "pcp");
	rd_compare_free(&c);

	/* Trust not read on one side: nothing said about it. */
	host_qos(&b, "RoCE v2", 106, NULL, 3, 0x08);
	assert_int_equal(rd_compare(&a.side, &b.side, &c), 0);
	assert_null(item(&c, "trust mode"));
	rd_compare_free(&c);
}

static void test_pick(void **state)
{
	struct host h;
	struct rd_device devs[2];
	struct rd_port p0 = { 0 };
	struct rd_cmp_side side;
	char err[256];

	(void)state;
	host_init(&h, "198.51.100.1", 24, 1500);
	/* Two devices: mlx5_0 without an IPv4 GID first, then rxe0. */
	memset(&devs[0], 0, sizeof(devs[0]));
	devs[0].name = (char *)"mlx5_0";
	p0.port = 1;
	devs[0].ports = &p0;
	devs[0].n_ports = 1;
	devs[1] = h.dev;
	h.s.devices = devs;
	h.s.n_devices = 2;
	assert_int_equal(rd_cmp_pick(&h.s, NULL, 0, &side, err, sizeof(err)), 0);
	assert_string_equal(side.dev->name, "rxe0");
	assert_int_equal(rd_cmp_pick(&h.s, "mlx5_0", 0, &side, err, sizeof(err)), 0);
	assert_string_equal(side.dev->name, "mlx5_0");
	assert_int_equal(rd_cmp_pick(&h.s, "mlx5_0", 2, &side, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "mlx5_0 with port 2"));
	assert_int_equal(rd_cmp_pick(&h.s, "x\x1b", 0, &side, err, sizeof(err)), -1);
	assert_null(strchr(err, '\x1b'));
	h.s.n_devices = 0;
	assert_int_equal(rd_cmp_pick(&h.s, NULL, 0, &side, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no RDMA device"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_hosts),
		cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_gids),
		cmocka_unit_test(test_device_and_link),
		cmocka_unit_test(test_cm_and_qos),
		cmocka_unit_test(test_light),
		cmocka_unit_test(test_pick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
