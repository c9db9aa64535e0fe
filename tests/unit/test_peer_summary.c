// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The port summary two hosts exchange: cut from a snapshot, encoded,
 * decoded back to the same comparison; and every kind of bad input from
 * a peer refused with one clean line.
 */
#include "config.h"

#include "unit.h"

#include "core/escape.h"
#include "peer/summary.h"

/* A host with two devices; rxe0 port 1 on eth0 is the one summarised. */
struct host {
	struct rd_snapshot s;
	struct rd_device dev[2];
	struct rd_port port;
	struct rd_gid gids[4];
	struct rd_counter ctr;
	struct rd_netdev nd[2];
	struct rd_addr addr;
	struct rd_cm_port cm[2];
	struct rd_cmp_side side;
};

static void host_init(struct host *h)
{
	static const uint8_t link_local[16] = { 0xfe, 0x80, [15] = 1 };
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, [12] = 10,
					[15] = 1 };

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 4; i++) {
		h->gids[i] = (struct rd_gid){
			.index = (uint64_t)i,
			.raw_ok = true,
			.type = (char *)(i % 2 ? "RoCE v2" : "IB/RoCE v1"),
			.netdev = (char *)"eth0",
		};
		memcpy(h->gids[i].raw, i < 2 ? link_local : v4, 16);
	}
	h->ctr = (struct rd_counter){ (char *)"port_xmit_data", { 42, true } };
	h->port.port = 1;
	h->port.link_layer = (char *)"Ethernet";
	h->port.netdev = (char *)"eth0";
	h->port.gids = h->gids;
	h->port.n_gids = 4;
	h->port.counters = (struct rd_counters){ &h->ctr, 1 };
	h->port.hw_counters = (struct rd_counters){ &h->ctr, 1 };
	h->port.rate_gbps = (struct rd_odbl){ 25, true };
	h->port.pkey0 = (struct rd_ou64){ 0xffff, true };
	h->port.verbs.active_mtu = (struct rd_ou64){ 1024, true };
	h->dev[0].name = (char *)"mlx5_9";
	h->dev[1].name = (char *)"rxe0";
	h->dev[1].driver = (char *)"rdma_rxe";
	h->dev[1].fw_ver = (char *)"1.0";
	h->dev[1].ports = &h->port;
	h->dev[1].n_ports = 1;
	h->addr.family = (char *)"inet";
	h->addr.address = (char *)"10.0.0.1";
	h->addr.prefixlen = (struct rd_ou64){ 24, true };
	h->nd[0].name = (char *)"eth0";
	h->nd[0].mtu = (struct rd_ou64){ 1500, true };
	h->nd[0].addrs = &h->addr;
	h->nd[0].n_addrs = 1;
	h->nd[0].ethtool.stats = (struct rd_counters){ &h->ctr, 1 };
	h->nd[0].ethtool.fec_active = (char *)"RS";
	h->nd[1].name = (char *)"eth1";
	h->nd[1].mtu = (struct rd_ou64){ 9000, true };
	h->cm[0] = (struct rd_cm_port){ (char *)"rxe0", { 1, true },
					(char *)"RoCE v2", { 106, true } };
	h->cm[1] = (struct rd_cm_port){ (char *)"mlx5_9", { 1, true },
					(char *)"IB/RoCE v1", { 0, true } };
	h->s.schema_version = RD_SCHEMA_VERSION;
	h->s.devices = h->dev;
	h->s.n_devices = 2;
	h->s.netdevs = h->nd;
	h->s.n_netdevs = 2;
	h->s.host.hostname = (char *)"node-a";
	h->s.host.cm_ports = h->cm;
	h->s.host.n_cm_ports = 2;
	h->side = (struct rd_cmp_side){ &h->s, &h->dev[1], &h->port };
}

/* err is one line of clean text that says something. */
static void assert_clean_line(const char *err)
{
	assert_true(err[0] != '\0');
	assert_true(rd_text_clean(err, strlen(err)));
}

static void test_round_trip(void **state)
{
	struct rd_peer_summary sum, back;
	struct rd_compare c;
	struct host h;
	char *text, err[256];
	size_t len;

	(void)state;
	host_init(&h);
	assert_int_equal(rd_peer_summary_make(&h.side, &sum), 0);
	/* Only the port, its netdev and its rdma_cm defaults; no counters. */
	assert_int_equal(sum.s.n_devices, 1);
	assert_string_equal(sum.side.dev->name, "rxe0");
	assert_int_equal(sum.side.port->counters.n, 0);
	assert_int_equal(sum.side.port->hw_counters.n, 0);
	assert_int_equal(sum.s.n_netdevs, 1);
	assert_int_equal(sum.s.netdevs[0].ethtool.stats.n, 0);
	assert_int_equal(sum.s.host.n_cm_ports, 1);
	assert_int_equal(rd_peer_summary_encode(&sum, NULL, &text, &len), 0);
	assert_true(len <= RD_PEER_SUMMARY_MAX);
	assert_int_equal(rd_peer_summary_decode(text, len, &back, err,
						sizeof(err)), 0);
	assert_string_equal(back.program, PACKAGE_NAME " " PACKAGE_VERSION);
	assert_string_equal(back.s.host.hostname, "node-a");
	assert_int_equal(back.side.port->n_gids, 4);
	assert_string_equal(back.s.netdevs[0].ethtool.fec_active, "RS");
	/* The decoded summary compares with the host as the host itself. */
	assert_int_equal(rd_compare(&h.side, &back.side, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(c.gid_a, 3);
	assert_int_equal(c.gid_b, 3);
	assert_null(strstr(c.unread, "netdev MTU"));
	assert_null(strstr(c.unread, "rdma_cm"));
	rd_compare_free(&c);
	/* Each cut of the text is refused, cleanly. */
	for (size_t i = 0; i < len; i++) {
		struct rd_peer_summary x;

		assert_true(rd_peer_summary_decode(text, i, &x, err,
						   sizeof(err)) < 0);
		assert_clean_line(err);
	}
	free(text);
	rd_peer_summary_free(&back);
	rd_peer_summary_free(&sum);
}

static void test_error_message(void **state)
{
	struct rd_peer_summary x;
	char *text, err[256];
	size_t len;

	(void)state;
	assert_int_equal(rd_peer_summary_encode(NULL, "no port \x1b[2J here",
						&text, &len), 0);
	assert_int_equal(rd_peer_summary_decode(text, len, &x, err, sizeof(err)),
			 -EREMOTE);
	assert_non_null(strstr(err, "the peer says: no port"));
	assert_null(strchr(err, '\x1b'));
	assert_clean_line(err);
	free(text);
}

/* Text from a peer that must be refused, and a word of the message. */
static const struct {
	const char *text;
	const char *says;
} bad[] = {
	{ "", "empty" },
	{ "6.06", "truncated" },
	{ "6.06\n", "not an rdmadiag" },
	{ "{", "truncated" },
	{ "[]", "not an rdmadiag" },
	{ "hello\x1b[31m", "not JSON" },
	{ "{\"rdmadiag_peer\":\"1\"}", "not an rdmadiag" },
	{ "{\"rdmadiag_peer\":2,\"summary\":{},\"new\":1}", "version 2" },
	{ "{\"rdmadiag_peer\":0}", "version 0" },
	{ "{\"rdmadiag_peer\":1}", "neither" },
	{ "{\"rdmadiag_peer\":1,\"summary\":[]}", "damaged" },
	{ "{\"rdmadiag_peer\":1,\"summary\":{\"schema_version\":1}}",
	  "0 devices" },
	{ "{\"rdmadiag_peer\":1,\"summary\":{\"schema_version\":1,"
	  "\"devices\":[{\"name\":\"rxe0\",\"ports\":[{\"port\":1},"
	  "{\"port\":2}]}]}}", "2 ports" },
	{ "{\"rdmadiag_peer\":1,\"summary\":{\"schema_version\":1,"
	  "\"devices\":[{\"name\":\"rxe0\",\"ports\":[{\"port\":\"x\"}]}]}}",
	  "damaged" },
	{ "{\"rdmadiag_peer\":1,\"summary\":{\"schema_version\":1,"
	  "\"devices\":[{\"ports\":[{\"port\":1}]}]}}", "names no device" },
	{ "{\"rdmadiag_peer\":1,\"error\":5}", "not text" },
	{ "{\"rdmadiag_peer\":1,\"rdmadiag_peer\":1}", "refused" },
	{ "{\"rdmadiag_peer\":1} x", "after the summary" },
	{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "refused" },
};

static void test_bad_input(void **state)
{
	struct rd_peer_summary x;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = rd_peer_summary_decode(bad[i].text, strlen(bad[i].text),
					       &x, err, sizeof(err));

		if (r >= 0 || !strstr(err, bad[i].says))
			fail_msg("input %zu: %d \"%s\"", i, r, err);
		assert_clean_line(err);
	}
	/* A NUL inside. */
	assert_true(rd_peer_summary_decode("{\"a\0\":1}", 8, &x, err,
					   sizeof(err)) < 0);
	assert_non_null(strstr(err, "NUL"));
}

static void test_limits(void **state)
{
	size_t big = RD_PEER_SUMMARY_MAX + 1;
	char *text = malloc(big + 64), err[256];
	struct rd_peer_summary x;
	int n;

	(void)state;
	assert_non_null(text);
	memset(text, ' ', big);
	assert_int_equal(rd_peer_summary_decode(text, big, &x, err, sizeof(err)),
			 -E2BIG);
	assert_non_null(strstr(err, "at most"));
	/* A string longer than a field may be. */
	n = snprintf(text, 64, "{\"rdmadiag_peer\":1,\"error\":\"");
	memset(text + n, 'a', RD_PEER_STRING_MAX + 1);
	strcpy(text + n + RD_PEER_STRING_MAX + 1, "\"}");
	assert_true(rd_peer_summary_decode(text, strlen(text), &x, err,
					   sizeof(err)) < 0);
	assert_clean_line(err);
	free(text);
}

/* More GIDs than a summary may carry are cut when it is made. */
static void test_many_gids(void **state)
{
	struct rd_gid *g = calloc(RD_PEER_GIDS_MAX + 10, sizeof(*g));
	struct rd_peer_summary sum, back;
	struct host h;
	char *text, err[256];
	size_t len;

	(void)state;
	assert_non_null(g);
	host_init(&h);
	for (size_t i = 0; i < RD_PEER_GIDS_MAX + 10; i++) {
		g[i].index = i;
		g[i].raw_ok = true;
		g[i].raw[0] = 0xfe;
		g[i].raw[1] = 0x80;
		g[i].type = (char *)"RoCE v2";
	}
	h.port.gids = g;
	h.port.n_gids = RD_PEER_GIDS_MAX + 10;
	assert_int_equal(rd_peer_summary_make(&h.side, &sum), 0);
	assert_int_equal(sum.side.port->n_gids, RD_PEER_GIDS_MAX);
	assert_int_equal(rd_peer_summary_encode(&sum, NULL, &text, &len), 0);
	assert_int_equal(rd_peer_summary_decode(text, len, &back, err,
						sizeof(err)), 0);
	assert_int_equal(back.side.port->n_gids, RD_PEER_GIDS_MAX);
	rd_peer_summary_free(&back);
	rd_peer_summary_free(&sum);
	free(text);
	free(g);
}

/* A netdev's address list cut to fit is not every address it has. */
static void test_many_addrs(void **state)
{
	struct rd_addr *a = calloc(RD_PEER_ADDRS_MAX + 1, sizeof(*a));
	struct rd_peer_summary sum;
	struct host h;

	(void)state;
	assert_non_null(a);
	host_init(&h);
	for (size_t i = 0; i <= RD_PEER_ADDRS_MAX; i++) {
		a[i].family = (char *)"inet6";
		a[i].address = (char *)"2001:db8::1";
	}
	h.nd[0].addrs = a;
	h.nd[0].n_addrs = RD_PEER_ADDRS_MAX + 1;
	h.nd[0].addrs_read = rd_bool(true);
	assert_int_equal(rd_peer_summary_make(&h.side, &sum), 0);
	assert_int_equal(sum.s.netdevs[0].n_addrs, RD_PEER_ADDRS_MAX);
	assert_true(sum.s.netdevs[0].addrs_read.ok);
	assert_false(sum.s.netdevs[0].addrs_read.v);
	rd_peer_summary_free(&sum);
	/* All of them fit: still every address. */
	h.nd[0].n_addrs = RD_PEER_ADDRS_MAX;
	assert_int_equal(rd_peer_summary_make(&h.side, &sum), 0);
	assert_true(sum.s.netdevs[0].addrs_read.v);
	rd_peer_summary_free(&sum);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_error_message),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_many_gids),
		cmocka_unit_test(test_many_addrs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
