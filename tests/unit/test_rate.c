// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reachable-rate model over real adapters at their published link and
 * PCIe rates. Where each figure comes from:
 *
 * [IBTA]  InfiniBand Architecture Specification vol. 2 (physical layer), as
 *         tabulated at https://infiniband.jp/2022/06/01/infiband-%E8%A6%8F
 *         %E6%A0%BC/ (lane rate, encoding, 1X/4X data rate per speed):
 *         4X QDR signals 40 Gb/s and carries 32 (8b/10b); 4X FDR 56.25 Gb/s
 *         signalling, 54.54 Gb/s of data (64b/66b); 4X EDR 103.125 / 100;
 *         4X HDR 200 and 4X NDR 400 Gb/s of data.
 * [8023]  IEEE 802.3: 25GBASE-R 25.78125 Gb/s lanes, 64b/66b, 25 Gb/s MAC;
 *         100GBASE-R4 4 x 25.78125; 200GBASE-R4 and 400GBASE-R8 53.125
 *         Gb/s PAM4 lanes with RS(544,514) for 50 Gb/s each.
 * [SIG]   PCI-SIG, "PCI Express bandwidth" table per direction: Gen3 x16
 *         15.75 GB/s, Gen4 x16 31.5 GB/s, Gen5 x16 63 GB/s, Gen3 x8 7.88
 *         GB/s, Gen2 x8 4.0 GB/s (after line encoding).
 * [NV]    NVIDIA product briefs and user manuals (ConnectX-6 VPI OPNs:
 *         "HDR IB (200Gb/s) and 200GbE ... PCIe3.0/4.0 x16", https://
 *         manualmachine.com/mellanox/connectx6vpi/8053510-user-manual):
 *         ConnectX-4 VPI EDR 100 Gb/s on PCIe Gen3
 *         x16; ConnectX-4 Lx 25GbE on Gen3 x8; ConnectX-5 100GbE on Gen3/4
 *         x16; ConnectX-6 VPI HDR 200 Gb/s needs Gen4 x16 (or two Gen3 x16
 *         with Socket Direct); ConnectX-6 Dx 2x100/1x200GbE on Gen4 x16;
 *         ConnectX-7 NDR 400 Gb/s and 400GbE on Gen5 x16.
 * [CHK]   ConnectX-5 100G RoCE reaches about 92-97 Gb/s in ib_write_bw at
 *         64 KiB (the man page's bw section): the model's figure must be
 *         above it.
 * [PLX]   PLX PEX 8532 data book 8.4.1 (per-TLP overhead, and one ACK plus
 *         one UpdateFC DLLP per TLP for traffic in both directions).
 */
#include "config.h"
#include "unit.h"

#include <math.h>

#include "core/rate.h"
#include "diag_snap.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_ib_lanes(void **state)
{
	(void)state;
	/* [IBTA] 4X figures. */
	NEAR(4 * rd_rate_ib_lane("QDR")->data_gbps, 32.0, 1e-9);
	NEAR(4 * rd_rate_ib_lane("QDR")->signal_gbps, 40.0, 1e-9);
	NEAR(4 * rd_rate_ib_lane("FDR")->data_gbps, 54.545, 0.001);
	NEAR(4 * rd_rate_ib_lane("FDR")->signal_gbps, 56.25, 1e-9);
	NEAR(4 * rd_rate_ib_lane("FDR10")->data_gbps, 40.0, 1e-9);
	NEAR(4 * rd_rate_ib_lane("EDR")->data_gbps, 100.0, 1e-9);
	NEAR(4 * rd_rate_ib_lane("EDR")->signal_gbps, 103.125, 1e-9);
	NEAR(4 * rd_rate_ib_lane("HDR")->data_gbps, 200.0, 1e-9);
	NEAR(4 * rd_rate_ib_lane("NDR")->data_gbps, 400.0, 1e-9);
	assert_string_equal(rd_rate_ib_lane("SDR")->encoding, "8b/10b");
	assert_string_equal(rd_rate_ib_lane("EDR")->encoding, "64b/66b");
	assert_non_null(strstr(rd_rate_ib_lane("NDR")->encoding, "RS(544,514)"));
	assert_null(rd_rate_ib_lane("4X EDR"));
	assert_null(rd_rate_ib_lane(""));
	assert_null(rd_rate_ib_lane(NULL));
}

static void test_eth_lanes(void **state)
{
	(void)state;
	/* [8023] */
	assert_string_equal(rd_rate_eth_lane(25000, 1)->encoding, "64b/66b");
	NEAR(rd_rate_eth_lane(25000, 0)->signal_gbps, 25.78125, 1e-9);
	NEAR(rd_rate_eth_lane(100000, 4)->signal_gbps, 25.78125, 1e-9);
	NEAR(rd_rate_eth_lane(200000, 4)->signal_gbps, 53.125, 1e-9);
	NEAR(rd_rate_eth_lane(400000, 8)->data_gbps, 50.0, 1e-9);
	assert_string_equal(rd_rate_eth_lane(1000, 0)->encoding, "8b/10b");
	/* 100G is four NRZ or two PAM4 lanes: no lane count, no answer. */
	assert_null(rd_rate_eth_lane(100000, 0));
	assert_null(rd_rate_eth_lane(0, 0));
	assert_null(rd_rate_eth_lane(30000, 1));
}

static void test_pcie(void **state)
{
	bool ub = false;

	(void)state;
	/* [SIG] after encoding only (no TLP cost: payload -> infinity is
	 * the limit; 4096 B comes within 0.6 %). */
	NEAR(rd_rate_pcie_gbps(8.0, 16, 4096, false, &ub), 15.75 * 8, 0.8);
	assert_false(ub);
	NEAR(rd_rate_pcie_gbps(16.0, 16, 4096, false, NULL), 31.5 * 8, 1.6);
	NEAR(rd_rate_pcie_gbps(32.0, 16, 4096, false, NULL), 63.0 * 8, 3.0);
	NEAR(rd_rate_pcie_gbps(8.0, 8, 4096, false, NULL), 7.88 * 8, 0.4);
	NEAR(rd_rate_pcie_gbps(5.0, 8, 4096, false, NULL), 4.0 * 8, 0.2);
	/* 24 bytes per TLP: 256 B payload is 256/280 of the encoded rate. */
	NEAR(rd_rate_pcie_gbps(8.0, 16, 256, false, NULL),
	     8.0 * 16 * 128 / 130 * 256 / 280, 1e-9);
	NEAR(rd_rate_pcie_gbps(8.0, 16, 128, false, NULL),
	     8.0 * 16 * 128 / 130 * 128 / 152, 1e-9);
	/* 64 GT/s FLIT mode: 236 of 256 bytes carry TLPs, which then cost
	 * their 16-byte header only. */
	NEAR(rd_rate_pcie_gbps(64.0, 16, 256, false, NULL),
	     64.0 * 16 * 236 / 256 * 256 / 272, 1e-9);
	/* DLLPs for the other direction's TLPs. */
	assert_true(rd_rate_pcie_gbps(8.0, 16, 256, true, NULL) <
		    rd_rate_pcie_gbps(8.0, 16, 256, false, NULL));
	/* Unknown MaxPayload: the best case, said to be a bound. */
	NEAR(rd_rate_pcie_gbps(8.0, 16, 0, false, &ub),
	     rd_rate_pcie_gbps(8.0, 16, 4096, false, NULL), 1e-9);
	assert_true(ub);
	assert_string_equal(rd_rate_pcie_encoding(2.5), "8b/10b");
	assert_string_equal(rd_rate_pcie_encoding(16.0), "128b/130b");
	assert_string_equal(rd_rate_pcie_encoding(64.0), "1b/1b FLIT");
	/* No such link. */
	assert_true(rd_rate_pcie_gbps(7.0, 16, 256, false, NULL) == 0);
	assert_true(rd_rate_pcie_gbps(8.0, 0, 256, false, NULL) == 0);
	assert_true(rd_rate_pcie_gbps(8.0, 64, 256, false, NULL) == 0);
	assert_true(rd_rate_pcie_gbps(8.0, 16, 300, false, NULL) == 0);
	assert_true(rd_rate_pcie_gbps(8.0, 16, 8192, false, NULL) == 0);
}

static void test_mtu(void **state)
{
	(void)state;
	assert_int_equal(rd_rate_packet_overhead(true), 82);
	assert_int_equal(rd_rate_packet_overhead(false), 26);
	NEAR(rd_rate_mtu_efficiency(true, 4096), 4096.0 / 4178, 1e-12);
	NEAR(rd_rate_mtu_efficiency(true, 1024), 1024.0 / 1106, 1e-12);
	NEAR(rd_rate_mtu_efficiency(false, 4096), 4096.0 / 4122, 1e-12);
	assert_true(rd_rate_mtu_efficiency(true, 1500) == 0);
	assert_true(rd_rate_mtu_efficiency(true, 0) == 0);
	assert_true(rd_rate_mtu_efficiency(true, 8192) == 0);
}

/* One adapter as a snapshot would hold it. */
struct adapter {
	const char *what;	/* card, slot */
	const char *ll;		/* "InfiniBand" / "Ethernet" */
	const char *speed;	/* port speed name (IB form) */
	const char *width;
	uint64_t eth_mbps, eth_lanes;	/* ethtool; 0: absent */
	uint64_t mtu, max_mtu;
	double gts;
	uint64_t pcie_width, mps;
	double cap_gts;
	uint64_t cap_width;
	double link_gbps;	/* published link data rate */
	enum rd_rate_limit limit;
	double reachable;	/* the model's figure, Gb/s */
};

static const struct adapter adapters[] = {
	/* [NV] [IBTA] ConnectX-4 EDR in its Gen3 x16 slot: link-bound. */
	{ "ConnectX-4 EDR, Gen3 x16", "InfiniBand", "EDR", "4X", 0, 0, 4096,
	  4096, 8.0, 16, 256, 8.0, 16, 100.0, RD_RATE_LIMIT_LINK,
	  100.0 * 4096 / 4122 },
	/* [NV] [8023] ConnectX-4 Lx 25GbE in Gen3 x8. */
	{ "ConnectX-4 Lx 25GbE, Gen3 x8", "Ethernet", "EDR", "1X", 25000, 1,
	  4096, 4096, 8.0, 8, 256, 8.0, 8, 25.0, RD_RATE_LIMIT_LINK,
	  25.0 * 4096 / 4178 },
	/* [NV] [CHK] ConnectX-5 100GbE, Gen3 x16: 98 Gb/s at MTU 4096. */
	{ "ConnectX-5 100GbE, Gen3 x16", "Ethernet", "EDR", "4X", 100000, 4,
	  4096, 4096, 8.0, 16, 256, 8.0, 16, 100.0, RD_RATE_LIMIT_LINK,
	  100.0 * 4096 / 4178 },
	/* The same at netdev MTU 1500 (RoCE MTU 1024): the MTU limits. */
	{ "ConnectX-5 100GbE, MTU 1024", "Ethernet", "EDR", "4X", 100000, 4,
	  1024, 4096, 8.0, 16, 256, 8.0, 16, 100.0, RD_RATE_LIMIT_MTU,
	  100.0 * 1024 / 1106 },
	/* [NV] ConnectX-6 HDR 200 Gb/s in Gen4 x16: link-bound. */
	{ "ConnectX-6 HDR, Gen4 x16", "InfiniBand", "HDR", "4X", 0, 0, 4096,
	  4096, 16.0, 16, 256, 16.0, 16, 200.0, RD_RATE_LIMIT_LINK,
	  200.0 * 4096 / 4122 },
	/* [NV] ...in a Gen3 x16 slot it cannot reach HDR: PCIe-bound. */
	{ "ConnectX-6 HDR, Gen3 x16 slot", "InfiniBand", "HDR", "4X", 0, 0,
	  4096, 4096, 8.0, 16, 256, 16.0, 16, 200.0, RD_RATE_LIMIT_PCIE,
	  8.0 * 16 * 128 / 130 * 256 / 280 },
	/* [NV] ConnectX-6 Dx 100GbE (2 x 50G PAM4) trained at Gen3 x8. */
	{ "ConnectX-6 Dx 100GbE, Gen3 x8 slot", "Ethernet", "HDR", "2X",
	  100000, 2, 4096, 4096, 8.0, 8, 512, 16.0, 16, 100.0,
	  RD_RATE_LIMIT_PCIE, 8.0 * 8 * 128 / 130 * 512 / 536 },
	/* [NV] ConnectX-6 Dx 200GbE, Gen4 x16, no ethtool data. */
	{ "ConnectX-6 Dx 200GbE, Gen4 x16", "Ethernet", "HDR", "4X", 0, 0,
	  4096, 4096, 16.0, 16, 256, 16.0, 16, 200.0, RD_RATE_LIMIT_LINK,
	  200.0 * 4096 / 4178 },
	/* [NV] ConnectX-7 NDR 400 Gb/s, Gen5 x16. */
	{ "ConnectX-7 NDR, Gen5 x16", "InfiniBand", "NDR", "4X", 0, 0, 4096,
	  4096, 32.0, 16, 256, 32.0, 16, 400.0, RD_RATE_LIMIT_LINK,
	  400.0 * 4096 / 4122 },
	/* [NV] ...in a Gen4 x16 slot. */
	{ "ConnectX-7 NDR, Gen4 x16 slot", "InfiniBand", "NDR", "4X", 0, 0,
	  4096, 4096, 16.0, 16, 256, 32.0, 16, 400.0, RD_RATE_LIMIT_PCIE,
	  16.0 * 16 * 128 / 130 * 256 / 280 },
	/* [NV] [8023] ConnectX-7 400GbE (8 x 50G PAM4), Gen5 x16. */
	{ "ConnectX-7 400GbE, Gen5 x16", "Ethernet", "NDR", "4X", 400000, 8,
	  4096, 4096, 32.0, 16, 256, 32.0, 16, 400.0, RD_RATE_LIMIT_LINK,
	  400.0 * 4096 / 4178 },
	/* [IBTA] a ConnectX-3 FDR, Gen3 x8: 54.5 Gb/s of data, not 56; MTU
	 * 2048 costs under 1 % more than 4096 would, so the link limits. */
	{ "ConnectX-3 FDR, Gen3 x8", "InfiniBand", "FDR", "4X", 0, 0, 2048,
	  4096, 8.0, 8, 256, 8.0, 8, 54.545, RD_RATE_LIMIT_LINK,
	  14.0625 * 64 / 66 * 4 * 2048 / 2074 },
	/* [IBTA] QDR: 32 Gb/s of data under the 40 the kernel prints; on
	 * Gen2 x8 with 128 B payloads PCIe leaves 26.9 Gb/s (3.4 GB/s). */
	{ "ConnectX-2 QDR, Gen2 x8", "InfiniBand", "QDR", "4X", 0, 0, 2048,
	  2048, 5.0, 8, 128, 5.0, 8, 32.0, RD_RATE_LIMIT_PCIE,
	  5.0 * 8 * 8 / 10 * 128 / 152 },
};

static void build(struct rd_snapshot *s, const struct adapter *a)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_pci *pci;

	memset(s, 0, sizeof(*s));
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	p = snap_port(d, 1, 4, 5, a->ll, "eth0");
	p->speed = rd_strdup(a->speed);
	p->width = rd_strdup(a->width);
	p->verbs.active_mtu = rd_u64(a->mtu);
	p->verbs.max_mtu = rd_u64(a->max_mtu);
	if (a->eth_mbps) {
		struct rd_netdev *n = snap_netdev(s, "eth0", true, true, 9000);

		n->ethtool.speed_mbps = rd_u64(a->eth_mbps);
		if (a->eth_lanes)
			n->ethtool.lanes = rd_u64(a->eth_lanes);
	}
	pci = RD_PUSH(s->pci, s->n_pci);
	assert_non_null(pci);
	pci->bdf = rd_strdup("0000:3b:00.0");
	pci->link_speed_gts = rd_dbl(a->gts);
	pci->link_width = rd_u64(a->pcie_width);
	pci->cap_speed_gts = rd_dbl(a->cap_gts);
	pci->cap_width = rd_u64(a->cap_width);
	if (a->mps)
		pci->max_payload = rd_u64(a->mps);
}

static void test_adapters(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(adapters) / sizeof(adapters[0]); i++) {
		const struct adapter *a = &adapters[i];
		struct rd_snapshot s;
		struct rd_rate r;

		build(&s, a);
		assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
		if (!r.ok || fabs(r.link_gbps - a->link_gbps) > 0.001 ||
		    r.limit != a->limit ||
		    fabs(r.reachable_gbps - a->reachable) > 1e-6)
			fail_msg("%s: link %.3f (want %.3f), reachable %.3f "
				 "(want %.3f), limited by %s (want %s)",
				 a->what, r.link_gbps, a->link_gbps,
				 r.reachable_gbps, a->reachable,
				 rd_rate_limit_name(r.limit),
				 rd_rate_limit_name(a->limit));
		assert_true(r.pcie_ok);
		assert_false(r.pcie_upper_bound);
		assert_int_equal(r.max_read_req, 0);
		rd_snapshot_free(&s);
	}
}

static void test_cx5_above_measured(void **state)
{
	struct rd_snapshot s;
	struct rd_rate r;

	(void)state;
	/* [CHK] a measurement of 97 Gb/s is below what the model allows. */
	build(&s, &adapters[2]);
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_true(r.reachable_gbps > 97.0 && r.reachable_gbps < 100.0);
	rd_snapshot_free(&s);
}

static void test_missing_parts(void **state)
{
	struct adapter a = adapters[0];
	struct rd_snapshot s;
	struct rd_rate r;

	(void)state;
	/* Unknown MaxPayload: still an answer, flagged a bound. */
	a.mps = 0;
	build(&s, &a);
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_true(r.ok && r.pcie_ok && r.pcie_upper_bound);
	assert_int_equal(r.max_payload, 0);
	rd_snapshot_free(&s);

	/* An IB speed the model does not know: no answer, not a guess. */
	a = adapters[0];
	a.speed = "25.0 Gbps";
	build(&s, &a);
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_false(r.ok);
	assert_int_equal(r.limit, RD_RATE_LIMIT_NONE);
	rd_snapshot_free(&s);

	/* Ethernet 100G without ethtool, as 4X QDR (10G lanes): the IB form
	 * is not the MAC rate, so no link figure. */
	a = adapters[2];
	a.eth_mbps = 0;
	a.speed = "QDR";
	build(&s, &a);
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_false(r.link_ok);
	rd_snapshot_free(&s);

	/* No active MTU: the link alone, without header overhead. */
	a = adapters[0];
	a.mtu = 0;
	build(&s, &a);
	s.devices[0].ports[0].verbs.active_mtu.ok = false;
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_true(r.ok && !r.mtu_ok);
	NEAR(r.reachable_gbps, 100.0, 1e-9);
	rd_snapshot_free(&s);

	/* Only the rate text, as ibstat-era snapshots have it. */
	build(&s, &adapters[4]);
	free(s.devices[0].ports[0].speed);
	free(s.devices[0].ports[0].width);
	s.devices[0].ports[0].speed = NULL;
	s.devices[0].ports[0].width = NULL;
	s.devices[0].ports[0].rate_text = rd_strdup("200 Gb/sec (4X HDR)");
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_true(r.link_ok);
	NEAR(r.link_gbps, 200.0, 1e-9);
	free(s.devices[0].ports[0].rate_text);
	s.devices[0].ports[0].rate_text = rd_strdup("200 Gb/sec (4X HDR");
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 1, &r), 0);
	assert_false(r.link_ok);
	rd_snapshot_free(&s);

	/* Absent device or port. */
	build(&s, &adapters[0]);
	assert_int_equal(rd_rate_port(&s, "mlx5_9", 1, &r), -ENOENT);
	assert_int_equal(rd_rate_port(&s, "mlx5_0", 2, &r), -ENOENT);
	assert_int_equal(rd_rate_port(&s, NULL, 1, &r), -ENOENT);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ib_lanes),
		cmocka_unit_test(test_eth_lanes),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_adapters),
		cmocka_unit_test(test_cx5_above_measured),
		cmocka_unit_test(test_missing_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
