// SPDX-License-Identifier: GPL-2.0-or-later
/* The metric mapping: snapshot and verdicts to Prometheus series. */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "export/metrics.h"

#include "diag/data.h"

#define C RD_PROM_COUNTER
#define G RD_PROM_GAUGE

/* node_exporter's infiniband collector: counters/ file -> metric. */
static const struct node_counter {
	const char *file;
	const char *metric;
	bool words;	/* PMA data: 4-byte words, exported as bytes */
} node_counters[] = {
	{ "excessive_buffer_overrun_errors",
	  "node_infiniband_excessive_buffer_overrun_errors_total", false },
	{ "link_downed", "node_infiniband_link_downed_total", false },
	{ "link_error_recovery", "node_infiniband_link_error_recovery_total",
	  false },
	{ "local_link_integrity_errors",
	  "node_infiniband_local_link_integrity_errors_total", false },
	{ "multicast_rcv_packets",
	  "node_infiniband_multicast_packets_received_total", false },
	{ "multicast_xmit_packets",
	  "node_infiniband_multicast_packets_transmitted_total", false },
	{ "port_rcv_constraint_errors",
	  "node_infiniband_port_constraint_errors_received_total", false },
	{ "port_rcv_data", "node_infiniband_port_data_received_bytes_total",
	  true },
	{ "port_rcv_discards", "node_infiniband_port_discards_received_total",
	  false },
	{ "port_rcv_errors", "node_infiniband_port_errors_received_total",
	  false },
	{ "port_rcv_packets", "node_infiniband_port_packets_received_total",
	  false },
	{ "port_rcv_remote_physical_errors",
	  "node_infiniband_port_receive_remote_physical_errors_total", false },
	{ "port_rcv_switch_relay_errors",
	  "node_infiniband_port_receive_switch_relay_errors_total", false },
	{ "port_xmit_constraint_errors",
	  "node_infiniband_port_constraint_errors_transmitted_total", false },
	{ "port_xmit_data", "node_infiniband_port_data_transmitted_bytes_total",
	  true },
	{ "port_xmit_discards",
	  "node_infiniband_port_discards_transmitted_total", false },
	{ "port_xmit_packets",
	  "node_infiniband_port_packets_transmitted_total", false },
	{ "port_xmit_wait", "node_infiniband_port_transmit_wait_total", false },
	{ "symbol_error", "node_infiniband_symbol_error_total", false },
	{ "unicast_rcv_packets",
	  "node_infiniband_unicast_packets_received_total", false },
	{ "unicast_xmit_packets",
	  "node_infiniband_unicast_packets_transmitted_total", false },
	{ "VL15_dropped", "node_infiniband_vl15_dropped_total", false },
};

unsigned rd_export_status_code(enum rd_verdict v)
{
	switch (v) {
	case RD_PASS:
		return 0;
	case RD_WARN:
		return 1;
	case RD_FAIL:
		return 2;
	default:
		return 3;
	}
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* An optional scalar of a model struct as one series; none when absent. */
struct scalar_metric {
	const char *name;
	enum rd_prom_type type;
	const char *help;
	enum rd_fkind kind;	/* RD_F_U64, RD_F_BOOL or RD_F_DBL */
	size_t off;
	double scale;		/* the value times this */
};

#define SCALAR(T, m, kind, scale, name, type, help) \
	{ (name), (type), (help), (kind), offsetof(T, m), (scale) }
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void export_scalars(struct rd_prom *w, const struct scalar_metric *t,
			   size_t n, const void *obj, const char *const *l)
{
	for (size_t i = 0; i < n; i++) {
		const void *p = (const char *)obj + t[i].off;
		const struct rd_ou64 *u = p;
		const struct rd_obool *b = p;
		const struct rd_odbl *d = p;

		if (t[i].kind == RD_F_DBL && d->ok)
			rd_prom_dbl(w, t[i].name, t[i].type, t[i].help, l,
				    d->v * t[i].scale);
		else if (t[i].kind == RD_F_BOOL && b->ok)
			rd_prom_u64(w, t[i].name, t[i].type, t[i].help, l, b->v);
		else if (t[i].kind == RD_F_U64 && u->ok)
			rd_prom_u64(w, t[i].name, t[i].type, t[i].help, l,
				    u->v * (uint64_t)t[i].scale);
	}
}

#define PORT_U64(m, name, type, help) \
	SCALAR(struct rd_port, m, RD_F_U64, 1, name, type, help)

static const struct scalar_metric node_port_metrics[] = {
	PORT_U64(state_num, "node_infiniband_state_id", G,
		 "Port state: 1 down, 2 init, 3 armed, 4 active, 5 active defer"),
	PORT_U64(phys_state_num, "node_infiniband_physical_state_id", G,
		 "Physical port state: 1 sleep, 2 polling, 3 disabled, 4 training, 5 link up, 6 error recovery, 7 test"),
};

static const struct scalar_metric port_metrics[] = {
	PORT_U64(state_num, "rdmadiag_port_state", G,
		 "Port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER"),
	PORT_U64(phys_state_num, "rdmadiag_port_physical_state", G,
		 "Physical state: 1 SLEEP, 2 POLLING, 3 DISABLED, 4 TRAINING, 5 LINK_UP, 6 LINK_ERROR_RECOVERY, 7 PHY_TEST"),
	SCALAR(struct rd_port, rate_gbps, RD_F_DBL, 1e9 / 8,
	       "rdmadiag_port_rate_bytes_per_second", G,
	       "Port data rate in bytes per second"),
};

static const struct scalar_metric port_byte_metrics[] = {
	PORT_U64(xmit_bytes, "rdmadiag_port_transmit_bytes_total", C,
		 "Bytes sent (IB PMA port_xmit_data, 4-byte words times 4)"),
	PORT_U64(rcv_bytes, "rdmadiag_port_receive_bytes_total", C,
		 "Bytes received (IB PMA port_rcv_data, 4-byte words times 4)"),
};

#define NETDEV(m, kind, scale, name, type, help) \
	SCALAR(struct rd_netdev, m, kind, scale, name, type, help)

static const struct scalar_metric netdev_metrics[] = {
	NETDEV(mtu, RD_F_U64, 1, "rdmadiag_netdev_mtu_bytes", G,
	       "MTU of the network device behind the port"),
	NETDEV(admin_up, RD_F_BOOL, 1, "rdmadiag_netdev_admin_up", G,
	       "1 when the network device is administratively up"),
	NETDEV(carrier, RD_F_BOOL, 1, "rdmadiag_netdev_carrier", G,
	       "1 when the network device has carrier"),
	NETDEV(carrier_changes, RD_F_U64, 1,
	       "rdmadiag_netdev_carrier_changes_total", C,
	       "Carrier changes of the network device"),
	NETDEV(ethtool.speed_mbps, RD_F_U64, 125000,
	       "rdmadiag_netdev_speed_bytes_per_second", G,
	       "Link speed ethtool reports, in bytes per second"),
};

#define PCI(m, kind, scale, name, help) \
	SCALAR(struct rd_pci, m, kind, scale, name, G, help)

static const struct scalar_metric pci_metrics[] = {
	PCI(link_speed_gts, RD_F_DBL, 1e9,
	    "rdmadiag_pcie_link_speed_transfers_per_second",
	    "PCIe link speed now (LnkSta), transfers per second per lane"),
	PCI(cap_speed_gts, RD_F_DBL, 1e9,
	    "rdmadiag_pcie_link_capable_speed_transfers_per_second",
	    "PCIe link speed the device is capable of (LnkCap)"),
	PCI(link_width, RD_F_U64, 1, "rdmadiag_pcie_link_width_lanes",
	    "PCIe link width now (LnkSta), lanes"),
	PCI(cap_width, RD_F_U64, 1, "rdmadiag_pcie_link_capable_width_lanes",
	    "PCIe link width the device is capable of (LnkCap), lanes"),
};

static void export_node_port(struct rd_prom *w, const struct rd_device *d,
			     const struct rd_port *p, const char *portnum)
{
	const char *l[] = { "device", d->name, "port", portnum, NULL };

	export_scalars(w, node_port_metrics, N(node_port_metrics), p, l);
	/*
	 * node_exporter reads the rate's number as a 32-bit float and
	 * truncates Gb/s * 125000000 to whole bytes per second.
	 */
	if (p->rate_gbps.ok && p->rate_gbps.v >= 0 && p->rate_gbps.v < 1e9)
		rd_prom_u64(w, "node_infiniband_rate_bytes_per_second", G,
			    "Signalling rate of the port in bytes per second", l,
			    (uint64_t)((double)(float)p->rate_gbps.v *
				       125000000.0));
	for (size_t i = 0; i < N(node_counters); i++) {
		const struct node_counter *nc = &node_counters[i];
		const struct rd_counter *c =
			rd_counters_find(&p->counters, nc->file);

		if (!c || !c->value.ok ||
		    (nc->words && c->value.v > UINT64_MAX / 4))
			continue;
		rd_prom_u64(w, nc->metric, C,
			    nc->words ? "PMA counter in bytes (4-byte words times 4)"
				      : "IB PMA port counter",
			    l, nc->words ? c->value.v * 4 : c->value.v);
	}
}

static bool is_node_counter(const char *name)
{
	return strcmp(name, "port_xmit_data") == 0 ||
	       strcmp(name, "port_rcv_data") == 0 ||
	       strcmp(name, "port_xmit_packets") == 0 ||
	       strcmp(name, "port_rcv_packets") == 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

static void export_port(struct rd_prom *w, const struct rd_device *d,
			const struct rd_port *p, const char *portnum)
{
	const char *l[] = { "device", d->name, "port", portnum, NULL };

	export_scalars(w, port_metrics, N(port_metrics), p, l);
	{
		const char *li[] = { "device", d->name, "port", portnum,
				     "link_layer", str(p->link_layer),
				     "netdev", str(p->netdev),
				     "width", str(p->width),
				     "speed", str(p->speed), NULL };

		rd_prom_u64(w, "rdmadiag_port_info", G,
			    "Port attributes as labels; the value is 1", li, 1);
	}
	export_scalars(w, port_byte_metrics, N(port_byte_metrics), p, l);
	for (size_t i = 0; i < p->counters.n; i++) {
		const struct rd_counter *c = &p->counters.v[i];

		if (!c->value.ok)
			continue;
		if (strcmp(c->name, "port_xmit_packets") == 0)
			rd_prom_u64(w, "rdmadiag_port_transmit_packets_total", C,
				    "Packets sent (IB PMA port_xmit_packets)", l,
				    c->value.v);
		else if (strcmp(c->name, "port_rcv_packets") == 0)
			rd_prom_u64(w, "rdmadiag_port_receive_packets_total", C,
				    "Packets received (IB PMA port_rcv_packets)",
				    l, c->value.v);
		else if (!is_node_counter(c->name)) {
			const char *lc[] = { "device", d->name, "port", portnum,
					     "counter", c->name, NULL };

			rd_prom_u64(w, "rdmadiag_port_events_total", C,
				    "IB PMA port counter (ports/N/counters/): events; port_xmit_wait in ticks",
				    lc, c->value.v);
		}
	}
	for (size_t i = 0; i < p->hw_counters.n; i++) {
		const struct rd_counter *c = &p->hw_counters.v[i];
		const char *lc[] = { "device", d->name, "port", portnum,
				     "counter", c->name, NULL };

		/* lifespan is a setting (milliseconds), not a count. */
		if (!c->value.ok || strcmp(c->name, "lifespan") == 0)
			continue;
		if (ends_with(c->name, "_bytes") ||
		    ends_with(c->name, "Octets"))
			rd_prom_u64(w, "rdmadiag_hw_bytes_total", C,
				    "Driver counter in bytes (ports/N/hw_counters/)",
				    lc, c->value.v);
		/* bnxt_re's active_qps, watermark_mrs...: levels, they fall. */
		else if (!strncmp(c->name, "active_", 7) ||
			 !strncmp(c->name, "watermark_", 10))
			rd_prom_u64(w, "rdmadiag_hw_resources", G,
				    "Driver gauge (ports/N/hw_counters/): "
				    "resources in use now (active_*) or their "
				    "peak (watermark_*)",
				    lc, c->value.v);
		else
			rd_prom_u64(w, "rdmadiag_hw_events_total", C,
				    "Driver counter (ports/N/hw_counters/), events",
				    lc, c->value.v);
	}
}

/* Microseconds as seconds, exactly ("12.000345"). */
static void usec_total(struct rd_prom *w, const char *name, const char *help,
		       const char *const *l, uint64_t us)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRIu64 ".%06" PRIu64, us / 1000000,
		 us % 1000000);
	rd_prom_num(w, name, C, help, l, b);
}

/* "rx_prio3_pause" -> direction "rx", priority "3", rest "pause". */
static bool prio_name(const char *n, char *dir, char *prio, const char **rest)
{
	if ((strncmp(n, "rx_prio", 7) != 0 && strncmp(n, "tx_prio", 7) != 0) ||
	    n[7] < '0' || n[7] > '7' || n[8] != '_' || !n[9])
		return false;
	dir[0] = n[0];
	dir[1] = 'x';
	dir[2] = '\0';
	prio[0] = n[7];
	prio[1] = '\0';
	*rest = n + 9;
	return true;
}

/* Per-priority ethtool counters by the part after "rx_prioN_". */
static const struct {
	const char *suffix;	/* NULL: every other counter (last row) */
	const char *name, *help;
	bool usec;		/* microseconds, exported as seconds */
} prio_metrics[] = {
	{ "pause", "rdmadiag_priority_pause_frames_total",
	  "PFC pause frames per priority (ethtool); rx: the peer asked this port to stop",
	  false },
	{ "pause_duration", "rdmadiag_priority_pause_duration_seconds_total",
	  "Time in pause per priority (ethtool, microseconds as seconds)", true },
	{ "pause_transition", "rdmadiag_priority_pause_transitions_total",
	  "Pause to resume transitions per priority (ethtool)", false },
	{ "bytes", "rdmadiag_priority_bytes_total",
	  "Bytes per priority (ethtool)", false },
	{ "packets", "rdmadiag_priority_packets_total",
	  "Packets per priority (ethtool)", false },
	{ NULL, "rdmadiag_priority_events_total",
	  "Other per-priority ethtool counters, events", false },
};

static void export_ethtool_stat(struct rd_prom *w, const char *dev,
				const char *portnum, const char *nd,
				const struct rd_counter *c)
{
	const char *n = c->name, *rest;
	char dir[3], prio[2];
	uint64_t v = c->value.v;

	if (prio_name(n, dir, prio, &rest)) {
		/* The last label pair, the counter, only for other counters. */
		const char *l[] = { "device", dev, "port", portnum,
				    "netdev", nd, "direction", dir,
				    "priority", prio, NULL, rest, NULL };
		size_t i = 0;

		while (i < N(prio_metrics) - 1 &&
		       strcmp(rest, prio_metrics[i].suffix) != 0)
			i++;
		if (!prio_metrics[i].suffix)
			l[10] = "counter";
		if (prio_metrics[i].usec)
			usec_total(w, prio_metrics[i].name, prio_metrics[i].help,
				   l, v);
		else
			rd_prom_u64(w, prio_metrics[i].name, C,
				    prio_metrics[i].help, l, v);
		return;
	}
	if (strcmp(n, "rx_bytes_phy") == 0 || strcmp(n, "tx_bytes_phy") == 0 ||
	    strcmp(n, "rx_packets_phy") == 0 || strcmp(n, "tx_packets_phy") == 0) {
		const char d2[3] = { n[0], 'x', 0 };
		const char *l[] = { "device", dev, "port", portnum, "netdev", nd,
				    "direction", d2, NULL };

		if (strstr(n, "_bytes_"))
			rd_prom_u64(w, "rdmadiag_phy_bytes_total", C,
				    "Bytes on the physical port, headers and FCS included (ethtool)",
				    l, v);
		else
			rd_prom_u64(w, "rdmadiag_phy_packets_total", C,
				    "Packets on the physical port (ethtool)", l, v);
		return;
	}
	if (strcmp(n, "tx_pause_storm_warning_events") == 0 ||
	    strcmp(n, "tx_pause_storm_error_events") == 0) {
		const char *l[] = { "device", dev, "port", portnum, "netdev", nd,
				    "kind", strstr(n, "warning") ? "warning" : "error",
				    NULL };

		rd_prom_u64(w, "rdmadiag_pause_storm_events_total", C,
			    "Pause storm events: warning (pause sent too long) and error (the NIC stopped sending pause)",
			    l, v);
		return;
	}
	if (ends_with(n, "_phy")) {
		const char *l[] = { "device", dev, "port", portnum, "netdev", nd,
				    "counter", n, NULL };
		const struct rd_counter_table *t = rd_data_counters();
		const struct rd_counter_info *ci =
			t ? rd_counter_info_find(t, RD_CTR_ETHTOOL, n) : NULL;

		/* Bits (rx_bits_phy, rx_err_lane_N_phy) are not events. */
		if (ci && ci->unit == RD_UNIT_BITS)
			rd_prom_u64(w, "rdmadiag_phy_bits_total", C,
				    "Physical port counters of the driver in "
				    "bits (ethtool *_phy)",
				    l, v);
		else
			rd_prom_u64(w, "rdmadiag_phy_events_total", C,
				    "Physical port counters of the driver "
				    "(ethtool *_phy), events",
				    l, v);
	}
}

/* FEC statistics: totals, and per lane ("corrected_blocks_lane0"). */
static void export_fec(struct rd_prom *w, const struct rd_netdev *n,
		       const char *dev, const char *portnum)
{
	static const struct {
		const char *stat, *name, *lane_name, *help;
	} fec[] = {
		{ "corrected_blocks", "rdmadiag_fec_corrected_blocks_total",
		  "rdmadiag_fec_lane_corrected_blocks_total",
		  "FEC codewords the FEC corrected (ethtool FEC statistics)" },
		{ "uncorrectable_blocks",
		  "rdmadiag_fec_uncorrectable_blocks_total",
		  "rdmadiag_fec_lane_uncorrectable_blocks_total",
		  "FEC codewords too damaged to correct: each is a lost frame" },
		{ "corrected_bits", "rdmadiag_fec_corrected_bits_total",
		  "rdmadiag_fec_lane_corrected_bits_total",
		  "Bits the FEC corrected" },
	};

	for (size_t i = 0; i < n->ethtool.fec_stats.n; i++) {
		const struct rd_counter *c = &n->ethtool.fec_stats.v[i];

		if (!c->value.ok)
			continue;
		for (size_t k = 0; k < N(fec); k++) {
			size_t l = strlen(fec[k].stat);
			const char *rest = c->name + l;

			if (strncmp(c->name, fec[k].stat, l) != 0)
				continue;
			if (!*rest) {
				const char *lb[] = { "device", dev, "port", portnum,
						     "netdev", n->name, NULL };

				rd_prom_u64(w, fec[k].name, C, fec[k].help, lb,
					    c->value.v);
			} else if (!strncmp(rest, "_lane", 5) && rest[5]) {
				const char *lb[] = { "device", dev, "port", portnum,
						     "netdev", n->name, "lane",
						     rest + 5, NULL };

				rd_prom_u64(w, fec[k].lane_name, C, fec[k].help,
					    lb, c->value.v);
			}
			break;
		}
	}
}

/*
 * The module in the cage, in base units: C, V, A, W. Values the module
 * does not report are left out, never 0.
 */
static void export_xcvr(struct rd_prom *w, const struct rd_netdev *n,
			const char *dev, const char *portnum)
{
	const struct rd_xcvr *m = &n->xcvr;
	const char *l[] = { "device", dev, "port", portnum, "netdev", n->name,
			    NULL };

	if (m->present.ok)
		rd_prom_u64(w, "rdmadiag_module_present", G,
			    "1 when a module is in the cage, 0 when it is empty",
			    l, m->present.v);
	if (!m->identifier.ok)
		return;
	{
		const char *li[] = { "device", dev, "port", portnum, "netdev",
				     n->name, "type", m->type ? m->type : "",
				     "media", m->media ? m->media : "",
				     "vendor", m->vendor ? m->vendor : "",
				     "part_number",
				     m->part_number ? m->part_number : "",
				     "serial", m->serial ? m->serial : "",
				     NULL };

		rd_prom_u64(w, "rdmadiag_module_info", G,
			    "The module's identity from its memory (always 1)",
			    li, 1);
	}
	/* Zeros a driver made up are no readings: no series from them. */
	if (!rd_xcvr_dom_real(m))
		return;
	if (m->temperature_c.ok)
		rd_prom_dbl(w, "rdmadiag_module_temperature_celsius", G,
			    "Module temperature", l, m->temperature_c.v);
	if (m->vcc_v.ok)
		rd_prom_dbl(w, "rdmadiag_module_supply_volts", G,
			    "Module supply voltage", l, m->vcc_v.v);
	if (m->rx_power_limits.low_alarm.ok)
		rd_prom_dbl(w, "rdmadiag_module_rx_power_low_alarm_watts", G,
			    "The module's own low alarm for received power", l,
			    m->rx_power_limits.low_alarm.v / 1000);
	for (size_t i = 0; i < m->n_lanes; i++) {
		const struct rd_xcvr_lane *ln = &m->lanes[i];
		char lane[24];
		const char *ll[] = { "device", dev, "port", portnum, "netdev",
				     n->name, "lane", lane, NULL };

		snprintf(lane, sizeof(lane), "%" PRIu64, ln->lane);
		if (ln->tx_bias_ma.ok)
			rd_prom_dbl(w, "rdmadiag_module_lane_tx_bias_amperes", G,
				    "Laser bias current per lane", ll,
				    ln->tx_bias_ma.v / 1000);
		if (ln->tx_power_mw.ok)
			rd_prom_dbl(w, "rdmadiag_module_lane_tx_power_watts", G,
				    "Transmitted optical power per lane", ll,
				    ln->tx_power_mw.v / 1000);
		if (ln->rx_power_mw.ok)
			rd_prom_dbl(w, "rdmadiag_module_lane_rx_power_watts", G,
				    "Received optical power per lane", ll,
				    ln->rx_power_mw.v / 1000);
		if (ln->rx_los.ok)
			rd_prom_u64(w, "rdmadiag_module_lane_rx_loss_of_signal", G,
				    "1 when the lane receives no signal (LOS)", ll,
				    ln->rx_los.v);
		if (ln->tx_fault.ok)
			rd_prom_u64(w, "rdmadiag_module_lane_tx_fault", G,
				    "1 when the lane's transmitter reports a fault",
				    ll, ln->tx_fault.v);
	}
}

static void export_netdev(struct rd_prom *w, const struct rd_netdev *n)
{
	char portnum[24], prio[2];
	const char *dev = n->rdma_device;
	const char *l[] = { "device", dev, "port", portnum, "netdev", n->name,
			    NULL };

	/* No port 0 exists: an unread port is an empty label. */
	if (n->rdma_port.ok)
		snprintf(portnum, sizeof(portnum), "%" PRIu64, n->rdma_port.v);
	else
		portnum[0] = '\0';
	export_scalars(w, netdev_metrics, N(netdev_metrics), n, l);
	for (size_t i = 0; i < n->ethtool.stats.n; i++)
		if (n->ethtool.stats.v[i].value.ok)
			export_ethtool_stat(w, dev, portnum, n->name,
					    &n->ethtool.stats.v[i]);
	export_fec(w, n, dev, portnum);
	export_xcvr(w, n, dev, portnum);
	if (!n->dcb.supported.ok || !n->dcb.supported.v)
		return;
	for (unsigned p = 0; p < 8 && n->dcb.pfc_en.ok; p++) {
		const char *lp[] = { "device", dev, "port", portnum, "netdev",
				     n->name, "priority", prio, NULL };

		prio[0] = (char)('0' + p);
		prio[1] = '\0';
		rd_prom_u64(w, "rdmadiag_pfc_enabled", G,
			    "1 when PFC (lossless) is on for the priority (DCB)",
			    lp, (n->dcb.pfc_en.v >> p) & 1);
	}
	for (int k = 0; k < 2; k++) {
		const struct rd_counters *cs = k ? &n->dcb.pfc_indications
						 : &n->dcb.pfc_requests;

		for (size_t i = 0; i < cs->n; i++) {
			const struct rd_counter *c = &cs->v[i];
			const char *lp[] = { "device", dev, "port", portnum,
					     "netdev", n->name,
					     "direction", k ? "rx" : "tx",
					     "priority", prio, NULL };

			if (!c->value.ok || strncmp(c->name, "prio", 4) != 0 ||
			    c->name[4] < '0' || c->name[4] > '7' || c->name[5])
				continue;
			prio[0] = c->name[4];
			prio[1] = '\0';
			rd_prom_u64(w, "rdmadiag_pfc_frames_total", C,
				    "PFC frames per priority the kernel counts (DCB): tx sent, rx received",
				    lp, c->value.v);
		}
	}
}

static void export_pci(struct rd_prom *w, const struct rd_pci *p)
{
	const char *l[] = { "device", p->rdma_device, "pci_address", p->bdf,
			    NULL };

	export_scalars(w, pci_metrics, N(pci_metrics), p, l);
}

/* A target may appear more than once; Prometheus takes one: the worst. */
static bool superseded(const struct rd_results *res, size_t i)
{
	const struct rd_result *a = &res->v[i];

	for (size_t j = 0; j < res->n; j++) {
		const struct rd_result *b = &res->v[j];

		if (j == i || strcmp(a->check_id, b->check_id) != 0 ||
		    strcmp(str(a->device), str(b->device)) != 0 ||
		    a->port != b->port)
			continue;
		if (b->verdict > a->verdict || (b->verdict == a->verdict && j < i))
			return true;
	}
	return false;
}

static void export_checks(struct rd_prom *w, const struct rd_results *res)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *r = &res->v[i];
		char portnum[24] = "";

		if (superseded(res, i))
			continue;
		if (r->port)
			snprintf(portnum, sizeof(portnum), "%" PRIu64, r->port);
		{
			const char *l[] = { "check", r->check_id, "device",
					    str(r->device), "port", portnum, NULL };
			const char *li[] = { "check", r->check_id, "device",
					     str(r->device), "port", portnum,
					     "verdict", rd_verdict_name(r->verdict),
					     "cause", str(r->cause), NULL };

			rd_prom_u64(w, "rdmadiag_check_status", G,
				    "Verdict of a check: 0 pass, 1 warn, 2 fail, 3 unknown",
				    l, rd_export_status_code(r->verdict));
			rd_prom_u64(w, "rdmadiag_check_info", G,
				    "Verdict and cause of a check as labels; the value is 1",
				    li, 1);
		}
	}
}

void rd_export_metrics(struct rd_prom *w, const struct rd_snapshot *s,
		       const struct rd_results *res, unsigned flags)
{
	{
		const char *l[] = { "version", PACKAGE_VERSION,
				    "kernel", str(s->host.kernel),
				    "rdma_core", str(s->host.rdma_core_version),
				    NULL };

		rd_prom_u64(w, "rdmadiag_build_info", G,
			    "rdmadiag's version and the host's kernel and rdma-core as labels; the value is 1",
			    l, 1);
		rd_prom_u64(w, "rdmadiag_unreadable_items", G,
			    "Items the probes could not read in this snapshot",
			    NULL, s->n_errors);
	}
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		char guid[24] = "";

		if (d->node_guid.ok)
			snprintf(guid, sizeof(guid), "%04x:%04x:%04x:%04x",
				 (unsigned)(d->node_guid.v >> 48) & 0xffff,
				 (unsigned)(d->node_guid.v >> 32) & 0xffff,
				 (unsigned)(d->node_guid.v >> 16) & 0xffff,
				 (unsigned)d->node_guid.v & 0xffff);
		if (!d->name)
			continue;
		{
			/* node_exporter's info: the labels before the NULL. */
			const char *l[] = { "device", d->name,
					    "board_id", str(d->board_id),
					    "firmware_version", str(d->fw_ver),
					    "hca_type", str(d->hca_type),
					    NULL, str(d->driver),
					    "node_guid", guid,
					    "pci_address", str(d->pci_bdf), NULL };

			if (flags & RD_EXPORT_COMPAT_NODE)
				rd_prom_u64(w, "node_infiniband_info", G,
					    "Device attributes as labels; the value is 1",
					    l, 1);
			l[8] = "driver";
			rd_prom_u64(w, "rdmadiag_device_info", G,
				    "Device attributes and versions as labels; the value is 1",
				    l, 1);
		}
		for (size_t j = 0; j < d->n_ports; j++) {
			char portnum[24];

			snprintf(portnum, sizeof(portnum), "%" PRIu64,
				 d->ports[j].port);
			if (flags & RD_EXPORT_COMPAT_NODE)
				export_node_port(w, d, &d->ports[j], portnum);
			export_port(w, d, &d->ports[j], portnum);
		}
	}
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (s->netdevs[i].rdma_device && s->netdevs[i].name)
			export_netdev(w, &s->netdevs[i]);
	for (size_t i = 0; i < s->n_pci; i++)
		if (s->pci[i].rdma_device && s->pci[i].bdf)
			export_pci(w, &s->pci[i]);
	if (res)
		export_checks(w, res);
	rd_prom_u64(w, "rdmadiag_export_repeated_series", G,
		    "Series the host listed more than once (a driver repeating a statistic); the first value was kept",
		    NULL, w->dropped);
}
