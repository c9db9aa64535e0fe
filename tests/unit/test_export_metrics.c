// SPDX-License-Identifier: GPL-2.0-or-later
/* The metric mapping: names, labels, units and values from a snapshot. */
#include "diag_snap.h"

#include "export/metrics.h"

static struct rd_snapshot snap;

static int setup(void **state)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;
	struct rd_pci *pci;
	static const struct {
		const char *name;
		uint64_t v;
	} stats[] = {
		{ "rx_prio3_pause", 7 },
		{ "rx_prio3_pause_duration", 1000002 },
		{ "tx_prio3_pause_transition", 2 },
		{ "rx_prio3_buf_discard", 4 },
		{ "tx_prio5_bytes", 64 },
		{ "rx_bytes_phy", 100 },
		{ "rx_64_bytes_phy", 5 },
		{ "rx_crc_errors_phy", 1 },
		{ "rx_bits_phy", 800 },
		{ "tx_pause_storm_error_events", 1 },
		{ "rx_packets", 99 },
		{ "rx_prio9_pause", 3 },
		{ "rx_crc_errors_phy", 8 }, /* listed twice: the first stands */
	};

	(void)state;
	rd_snapshot_init(&snap);
	d = snap_dev(&snap, "mlx5_0", "0000:3b:00.0");
	d->board_id = rd_strdup("MT_0000000359");
	d->fw_ver = rd_strdup("22.31.1014");
	d->hca_type = rd_strdup("MT4125");
	p = snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	p->rate_gbps = rd_dbl(2.5);
	assert_non_null(rd_counters_add(&p->counters, "port_xmit_data",
					rd_u64(1000)));
	assert_non_null(rd_counters_add(&p->counters, "symbol_error",
					rd_u64(3)));
	assert_non_null(rd_counters_add(&p->counters, "link_downed",
					(struct rd_ou64){ 0, false }));
	assert_non_null(rd_counters_add(&p->counters, "port_rcv_packets",
					rd_u64(12)));
	p->xmit_bytes = rd_u64(4000);
	assert_non_null(rd_counters_add(&p->hw_counters, "out_of_buffer",
					rd_u64(11)));
	assert_non_null(rd_counters_add(&p->hw_counters, "lifespan",
					rd_u64(10)));
	assert_non_null(rd_counters_add(&p->hw_counters, "rx_bytes",
					rd_u64(4096)));
	/* bnxt_re's levels, irdma's octets (the kernel drivers' names). */
	assert_non_null(
		rd_counters_add(&p->hw_counters, "active_qps", rd_u64(37)));
	assert_non_null(
		rd_counters_add(&p->hw_counters, "ip4InOctets", rd_u64(512)));
	snap_port(d, 2, 1, 3, "Ethernet", NULL);

	n = snap_netdev(&snap, "eth2", true, true, 9000);
	n->rdma_device = rd_strdup("mlx5_0");
	n->rdma_port = rd_u64(1);
	for (size_t i = 0; i < sizeof(stats) / sizeof(*stats); i++)
		assert_non_null(rd_counters_add(&n->ethtool.stats,
						stats[i].name,
						rd_u64(stats[i].v)));
	n->dcb.supported = rd_bool(true);
	n->dcb.pfc_en = rd_u64(0x08);
	assert_non_null(rd_counters_add(&n->dcb.pfc_requests, "prio3",
					rd_u64(9)));
	/* An optical module: two lanes, lane 2 dark; a lane without a value. */
	n->xcvr.present = rd_bool(true);
	n->xcvr.identifier = rd_u64(0x11);
	n->xcvr.type = rd_strdup("QSFP28");
	n->xcvr.media = rd_strdup("optical");
	n->xcvr.vendor = rd_strdup("ACME \"Q\"");
	n->xcvr.temperature_c = rd_dbl(41.5);
	n->xcvr.vcc_v = rd_dbl(3.3);
	{
		struct rd_xcvr_lane *ln = RD_PUSH(n->xcvr.lanes, n->xcvr.n_lanes);

		assert_non_null(ln);
		ln->lane = 1;
		ln->rx_power_mw = rd_dbl(0.5);
		ln->tx_bias_ma = rd_dbl(6.5);
		ln->rx_los = rd_bool(false);
		ln = RD_PUSH(n->xcvr.lanes, n->xcvr.n_lanes);
		assert_non_null(ln);
		ln->lane = 2;
		ln->rx_power_mw = rd_dbl(0);
		ln->rx_los = rd_bool(true);
	}
	assert_non_null(rd_counters_add(&n->ethtool.fec_stats,
					"corrected_blocks", rd_u64(123)));
	assert_non_null(rd_counters_add(&n->ethtool.fec_stats,
					"corrected_blocks_lane1", rd_u64(23)));
	assert_non_null(rd_counters_add(&n->ethtool.fec_stats,
					"uncorrectable_blocks", rd_u64(4)));
	/* A netdev with no RDMA port is not exported. */
	snap_netdev(&snap, "lo", true, true, 65536);

	pci = snap_pci(&snap, "0000:3b:00.0", 0x15b3, 0x101d, "mlx5_core");
	pci->rdma_device = rd_strdup("mlx5_0");
	pci->link_speed_gts = rd_dbl(8.0);
	pci->cap_speed_gts = rd_dbl(16.0);
	pci->link_width = rd_u64(8);
	pci->cap_width = rd_u64(16);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rd_snapshot_free(&snap);
	return 0;
}

static char *export(const struct rd_results *res, unsigned flags)
{
	struct rd_prom w;
	char *out;
	size_t len;

	rd_prom_init(&w);
	rd_export_metrics(&w, &snap, res, flags);
	assert_int_equal(rd_prom_render(&w, &out, &len), 0);
	rd_prom_free(&w);
	return out;
}

#define HAS(out, line) assert_non_null(strstr(out, "\n" line "\n"))
#define LACKS(out, text) assert_null(strstr(out, text))

static void test_node_exporter_names(void **state)
{
	char *out = export(NULL, RD_EXPORT_COMPAT_NODE);

	(void)state;
	HAS(out, "node_infiniband_info{device=\"mlx5_0\",board_id=\"MT_0000000359\",firmware_version=\"22.31.1014\",hca_type=\"MT4125\"} 1");
	HAS(out, "node_infiniband_state_id{device=\"mlx5_0\",port=\"1\"} 4");
	HAS(out, "node_infiniband_physical_state_id{device=\"mlx5_0\",port=\"2\"} 3");
	/* 2.5 Gb/s = 312500000 bytes/s; PMA data words times 4. */
	HAS(out, "node_infiniband_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 312500000");
	HAS(out, "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_0\",port=\"1\"} 4000");
	HAS(out, "node_infiniband_symbol_error_total{device=\"mlx5_0\",port=\"1\"} 3");
	HAS(out, "node_infiniband_port_packets_received_total{device=\"mlx5_0\",port=\"1\"} 12");
	/* Unreadable: absent, never 0. */
	LACKS(out, "node_infiniband_link_downed_total");
	assert_non_null(strstr(out, "# TYPE node_infiniband_symbol_error_total counter\n"));
	assert_non_null(strstr(out, "# TYPE node_infiniband_state_id gauge\n"));
	free(out);

	out = export(NULL, 0);
	LACKS(out, "node_infiniband_");
	free(out);
}

static void test_rdmadiag_names(void **state)
{
	char *out = export(NULL, 0);

	(void)state;
	HAS(out, "rdmadiag_port_state{device=\"mlx5_0\",port=\"1\"} 4");
	HAS(out, "rdmadiag_port_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 312500000");
	HAS(out, "rdmadiag_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} 4000");
	HAS(out, "rdmadiag_port_receive_packets_total{device=\"mlx5_0\",port=\"1\"} 12");
	HAS(out, "rdmadiag_port_events_total{device=\"mlx5_0\",port=\"1\",counter=\"symbol_error\"} 3");
	/* Data words are only exported as bytes. */
	LACKS(out, "counter=\"port_xmit_data\"");
	HAS(out, "rdmadiag_hw_events_total{device=\"mlx5_0\",port=\"1\",counter=\"out_of_buffer\"} 11");
	HAS(out, "rdmadiag_hw_bytes_total{device=\"mlx5_0\",port=\"1\",counter=\"rx_bytes\"} 4096");
	HAS(out, "rdmadiag_hw_bytes_total{device=\"mlx5_0\",port=\"1\",counter="
		 "\"ip4InOctets\"} 512");
	HAS(out, "rdmadiag_hw_resources{device=\"mlx5_0\",port=\"1\",counter="
		 "\"active_qps\"} 37");
	LACKS(out, "counter=\"active_qps\"} 37\nrdmadiag_hw_events");
	LACKS(out, "rdmadiag_hw_events_total{device=\"mlx5_0\",port=\"1\","
		   "counter=\"active_qps\"}");
	LACKS(out, "lifespan");
	HAS(out, "rdmadiag_port_info{device=\"mlx5_0\",port=\"1\",link_layer=\"Ethernet\",netdev=\"eth2\",width=\"\",speed=\"\"} 1");
	free(out);
}

static void test_ethtool_and_qos(void **state)
{
	char *out = export(NULL, 0);
	const char *l = "device=\"mlx5_0\",port=\"1\",netdev=\"eth2\"";
	char want[512];

	(void)state;
#define HASF(fmt, ...)                                         \
	do {                                                   \
		snprintf(want, sizeof(want), "\n" fmt "\n", __VA_ARGS__); \
		assert_non_null(strstr(out, want));            \
	} while (0)
	HASF("rdmadiag_netdev_mtu_bytes{%s} 9000", l);
	HASF("rdmadiag_priority_pause_frames_total{%s,direction=\"rx\",priority=\"3\"} 7", l);
	/* Microseconds as exact seconds. */
	HASF("rdmadiag_priority_pause_duration_seconds_total{%s,direction=\"rx\",priority=\"3\"} 1.000002", l);
	HASF("rdmadiag_priority_pause_transitions_total{%s,direction=\"tx\",priority=\"3\"} 2", l);
	HASF("rdmadiag_priority_events_total{%s,direction=\"rx\",priority=\"3\",counter=\"buf_discard\"} 4", l);
	HASF("rdmadiag_priority_bytes_total{%s,direction=\"tx\",priority=\"5\"} 64", l);
	HASF("rdmadiag_phy_bytes_total{%s,direction=\"rx\"} 100", l);
	/* rx_64_bytes_phy counts packets of 64 bytes: not bytes. */
	HASF("rdmadiag_phy_events_total{%s,counter=\"rx_64_bytes_phy\"} 5", l);
	HASF("rdmadiag_phy_events_total{%s,counter=\"rx_crc_errors_phy\"} 1", l);
	HASF("rdmadiag_phy_bits_total{%s,counter=\"rx_bits_phy\"} 800", l);
	HASF("rdmadiag_pause_storm_events_total{%s,kind=\"error\"} 1", l);
	HASF("rdmadiag_pfc_enabled{%s,priority=\"3\"} 1", l);
	HASF("rdmadiag_pfc_enabled{%s,priority=\"2\"} 0", l);
	HASF("rdmadiag_pfc_frames_total{%s,direction=\"tx\",priority=\"3\"} 9", l);
	LACKS(out, "counter=\"rx_packets\"");
	LACKS(out, "priority=\"9\"");
	LACKS(out, "netdev=\"lo\"");
	HAS(out, "rdmadiag_export_repeated_series 1");
	/* The module in base units; what it does not report is absent. */
	HASF("rdmadiag_module_present{%s} 1", l);
	HASF("rdmadiag_module_info{%s,type=\"QSFP28\",media=\"optical\",vendor=\"ACME \\\"Q\\\"\",part_number=\"\",serial=\"\"} 1", l);
	HASF("rdmadiag_module_temperature_celsius{%s} 41.5", l);
	HASF("rdmadiag_module_lane_rx_power_watts{%s,lane=\"1\"} 0.0005", l);
	HASF("rdmadiag_module_lane_rx_power_watts{%s,lane=\"2\"} 0", l);
	HASF("rdmadiag_module_lane_tx_bias_amperes{%s,lane=\"1\"} 0.0065", l);
	HASF("rdmadiag_module_lane_rx_loss_of_signal{%s,lane=\"2\"} 1", l);
	LACKS(out, "rdmadiag_module_lane_tx_bias_amperes{device=\"mlx5_0\",port=\"1\",netdev=\"eth2\",lane=\"2\"}");
	LACKS(out, "rdmadiag_module_lane_tx_power_watts");
	HASF("rdmadiag_fec_corrected_blocks_total{%s} 123", l);
	HASF("rdmadiag_fec_lane_corrected_blocks_total{%s,lane=\"1\"} 23", l);
	HASF("rdmadiag_fec_uncorrectable_blocks_total{%s} 4", l);
	HAS(out, "rdmadiag_pcie_link_speed_transfers_per_second{device=\"mlx5_0\",pci_address=\"0000:3b:00.0\"} 8000000000");
	HAS(out, "rdmadiag_pcie_link_capable_width_lanes{device=\"mlx5_0\",pci_address=\"0000:3b:00.0\"} 16");
	free(out);
}

/*
 * Values that are no readings are no series: a module's diagnostics a
 * driver returned as zeros, and port 0 for a netdev whose RDMA port was
 * not read. Runs last: it leaves a VLAN netdev in the shared snapshot.
 */
static void test_not_readings(void **state)
{
	struct rd_netdev *n = &snap.netdevs[0], *vlan;
	struct rd_odbl vcc = n->xcvr.vcc_v;
	char *out;

	(void)state;
	n->xcvr.vcc_v = rd_dbl(0.0);
	out = export(NULL, 0);
	HAS(out, "rdmadiag_module_present{device=\"mlx5_0\",port=\"1\",netdev="
		 "\"eth2\"} 1");
	LACKS(out, "rdmadiag_module_temperature_celsius");
	LACKS(out, "rdmadiag_module_supply_volts");
	LACKS(out, "rdmadiag_module_lane_rx_power_watts");
	free(out);
	n->xcvr.vcc_v = vcc;

	vlan = snap_netdev(&snap, "eth2.100", true, true, 9000);
	vlan->rdma_device = rd_strdup("mlx5_0");
	out = export(NULL, 0);
	HAS(out, "rdmadiag_netdev_mtu_bytes{device=\"mlx5_0\",port=\"\",netdev="
		 "\"eth2.100\"} 9000");
	LACKS(out, "port=\"0\"");
	free(out);
}

static void test_checks(void **state)
{
	struct rd_result r[3] = {
		{ .check_id = "port.state", .device = (char *)"mlx5_0", .port = 2,
		  .verdict = RD_WARN, .cause = (char *)"polling" },
		{ .check_id = "port.state", .device = (char *)"mlx5_0", .port = 2,
		  .verdict = RD_FAIL, .cause = (char *)"no_carrier" },
		{ .check_id = "host.memlock", .verdict = RD_UNKNOWN,
		  .cause = (char *)"no_data" },
	};
	struct rd_results res = { r, 3 };
	char *out = export(&res, 0);

	(void)state;
	assert_int_equal(rd_export_status_code(RD_PASS), 0);
	assert_int_equal(rd_export_status_code(RD_WARN), 1);
	assert_int_equal(rd_export_status_code(RD_FAIL), 2);
	assert_int_equal(rd_export_status_code(RD_UNKNOWN), 3);
	/* One series per target: the worst verdict. */
	HAS(out, "rdmadiag_check_status{check=\"port.state\",device=\"mlx5_0\",port=\"2\"} 2");
	LACKS(out, "port.state\",device=\"mlx5_0\",port=\"2\"} 1");
	HAS(out, "rdmadiag_check_info{check=\"port.state\",device=\"mlx5_0\",port=\"2\",verdict=\"FAIL\",cause=\"no_carrier\"} 1");
	LACKS(out, "polling");
	HAS(out, "rdmadiag_check_status{check=\"host.memlock\",device=\"\",port=\"\"} 3");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_exporter_names),
		cmocka_unit_test(test_rdmadiag_names),
		cmocka_unit_test(test_ethtool_and_qos),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_not_readings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
