// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Builds the demo recording played by `rdmadiag --demo`: a ConnectX-6 Dx
 * host whose mlx5_0 port 1 is ACTIVE and carrying RoCE traffic, whose
 * mlx5_1 port 1 is DOWN (the cable is out: no carrier), and where PFC and
 * global pause are off while rdma_cm's ToS 106 (DSCP 26) puts RoCE on
 * priority 3, so out_of_buffer and discards creep up.
 * The snapshots go through the model and the JSON schema like any capture;
 * the output is deterministic so a test can check the shipped file is
 * what this program makes.
 *
 * usage: demo-gen [FRAMES] > data/demo/cx6dx-demo.jsonl
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/recording.h"
#include "core/snapshot.h"

static uint32_t seed = 12345;

/* Small deterministic noise, the same on every machine. */
static uint64_t noise(uint64_t range)
{
	seed = seed * 1103515245u + 12345u;
	return range ? (seed >> 8) % range : 0;
}

struct totals {
	uint64_t tx_words, rx_words, tx_pkts, rx_pkts;
	uint64_t out_of_buffer, discards, cnp_sent, cnp_handled, ecn_marked;
	uint64_t retrans, seq_err, rx_write, rx_read, pause_rx, pause_tx;
};

static void gid(struct rd_port *p, uint64_t index, const uint8_t raw[16],
		const char *type, const char *netdev)
{
	struct rd_gid *g = RD_PUSH(p->gids, p->n_gids);

	g->index = index;
	memcpy(g->raw, raw, 16);
	g->raw_ok = true;
	g->type = rd_strdup(type);
	g->netdev = rd_strdup(netdev);
}

static void gids(struct rd_port *p, const char *netdev, uint8_t last,
		 const uint8_t *ipv4)
{
	uint8_t ll[16] = { 0xfe, 0x80, 0,    0,	   0,	 0,    0,    0,
			   0xba, 0xce, 0xf6, 0xff, 0xfe, 0xa1, 0xb2, last };
	uint8_t v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	gid(p, 0, ll, "IB/RoCE v1", netdev);
	gid(p, 1, ll, "RoCE v2", netdev);
	if (!ipv4)
		return;
	memcpy(v4 + 12, ipv4, 4);
	gid(p, 2, v4, "IB/RoCE v1", netdev);
	gid(p, 3, v4, "RoCE v2", netdev);
}

static const char *const port_counters[] = {
	"VL15_dropped",
	"excessive_buffer_overrun_errors",
	"link_downed",
	"link_error_recovery",
	"local_link_integrity_errors",
	"multicast_rcv_packets",
	"multicast_xmit_packets",
	"port_rcv_constraint_errors",
	"port_rcv_data",
	"port_rcv_errors",
	"port_rcv_packets",
	"port_rcv_remote_physical_errors",
	"port_rcv_switch_relay_errors",
	"port_xmit_constraint_errors",
	"port_xmit_data",
	"port_xmit_discards",
	"port_xmit_packets",
	"port_xmit_wait",
	"symbol_error",
	"unicast_rcv_packets",
	"unicast_xmit_packets",
	NULL,
};

static const char *const hw_counters[] = {
	"duplicate_request",
	"implied_nak_seq_err",
	"local_ack_timeout_err",
	"np_cnp_sent",
	"np_ecn_marked_roce_packets",
	"out_of_buffer",
	"out_of_sequence",
	"packet_seq_err",
	"req_cqe_error",
	"req_cqe_flush_error",
	"req_remote_access_errors",
	"req_remote_invalid_request",
	"resp_cqe_error",
	"resp_cqe_flush_error",
	"resp_local_length_error",
	"resp_remote_access_errors",
	"rnr_nak_retry_err",
	"roce_adp_retrans",
	"roce_adp_retrans_to",
	"roce_slow_restart",
	"roce_slow_restart_cnps",
	"roce_slow_restart_trans",
	"rp_cnp_handled",
	"rp_cnp_ignored",
	"rx_atomic_requests",
	"rx_dct_connect",
	"rx_icrc_encapsulated",
	"rx_read_requests",
	"rx_write_requests",
	NULL,
};

static uint64_t port_value(const struct totals *t, const char *name)
{
	if (!t)
		return 0;
	if (!strcmp(name, "port_xmit_data"))
		return t->tx_words;
	if (!strcmp(name, "port_rcv_data"))
		return t->rx_words;
	if (!strcmp(name, "port_xmit_packets") ||
	    !strcmp(name, "unicast_xmit_packets"))
		return t->tx_pkts;
	if (!strcmp(name, "port_rcv_packets") ||
	    !strcmp(name, "unicast_rcv_packets"))
		return t->rx_pkts;
	if (!strcmp(name, "port_xmit_wait"))
		return t->tx_pkts / 400;
	return 0;
}

static uint64_t hw_value(const struct totals *t, const char *name)
{
	if (!t)
		return 0;
	if (!strcmp(name, "out_of_buffer"))
		return t->out_of_buffer;
	if (!strcmp(name, "np_cnp_sent"))
		return t->cnp_sent;
	if (!strcmp(name, "rp_cnp_handled"))
		return t->cnp_handled;
	if (!strcmp(name, "np_ecn_marked_roce_packets"))
		return t->ecn_marked;
	if (!strcmp(name, "roce_adp_retrans"))
		return t->retrans;
	if (!strcmp(name, "out_of_sequence") || !strcmp(name, "packet_seq_err"))
		return t->seq_err;
	if (!strcmp(name, "rx_write_requests"))
		return t->rx_write;
	if (!strcmp(name, "rx_read_requests"))
		return t->rx_read;
	return 0;
}

static void port_fill(struct rd_port *p, const struct totals *t)
{
	for (size_t i = 0; port_counters[i]; i++)
		rd_counters_add(&p->counters, port_counters[i],
				rd_u64(port_value(t, port_counters[i])));
	for (size_t i = 0; hw_counters[i]; i++)
		rd_counters_add(&p->hw_counters, hw_counters[i],
				rd_u64(hw_value(t, hw_counters[i])));
	p->xmit_bytes = rd_u64(port_value(t, "port_xmit_data") * 4);
	p->rcv_bytes = rd_u64(port_value(t, "port_rcv_data") * 4);
}

static void device(struct rd_snapshot *s, const char *name, const char *bdf,
		   uint8_t last, bool up, const struct totals *t)
{
	struct rd_device *d = RD_PUSH(s->devices, s->n_devices);
	struct rd_port *p;
	const char *nd = up ? "ens1f0np0" : "ens1f1np1";
	static const uint8_t ip[4] = { 192, 168, 50, 11 };

	d->name = rd_strdup(name);
	d->index = rd_u64(up ? 0 : 1);
	d->node_type_num = rd_u64(1);
	d->node_type = rd_strdup("CA");
	d->node_guid = rd_u64(0xb8cef60300a1b200ull | last);
	d->sys_image_guid = rd_u64(0xb8cef60300a1b200ull | last);
	d->fw_ver = rd_strdup("22.36.1010");
	d->hca_type = rd_strdup("MT4125");
	d->board_id = rd_strdup("MT_0000000359");
	d->node_desc =
		rd_strdup(up ? "demo-cx6dx mlx5_0" : "demo-cx6dx mlx5_1");
	d->driver = rd_strdup("mlx5_core");
	d->protocol = rd_strdup("roce");
	d->pci_bdf = rd_strdup(bdf);
	d->uverbs = rd_strdup(up ? "uverbs0" : "uverbs1");
	d->uverbs_dev = rd_strdup(up ? "/dev/infiniband/uverbs0"
				     : "/dev/infiniband/uverbs1");
	d->verbs.opened = rd_bool(true);
	d->verbs.max_cqe = rd_u64(4194303);
	d->verbs.max_cq = rd_u64(16777216);
	d->verbs.max_qp = rd_u64(262144);
	d->verbs.max_qp_wr = rd_u64(32768);
	d->verbs.max_mr_size = rd_u64(0xffffffffffffffffull);
	d->verbs.max_mr = rd_u64(16777216);
	d->verbs.max_pd = rd_u64(16777216);
	d->verbs.max_sge = rd_u64(30);
	d->verbs.atomic_cap = rd_u64(1);
	d->verbs.phys_port_cnt = rd_u64(1);
	d->verbs.vendor_id = rd_u64(0x02c9);
	d->verbs.vendor_part_id = rd_u64(4125);
	d->verbs.hw_ver = rd_u64(0);

	p = RD_PUSH(d->ports, d->n_ports);
	p->port = 1;
	p->state_num = rd_u64(up ? 4 : 1);
	p->state = rd_strdup(up ? "ACTIVE" : "DOWN");
	p->phys_state_num = rd_u64(up ? 5 : 2);
	p->phys_state = rd_strdup(up ? "LINK_UP" : "POLLING");
	p->rate_gbps = rd_dbl(100);
	p->rate_text = rd_strdup("100 Gb/sec (2X HDR)");
	p->width = rd_strdup("2X");
	p->speed = rd_strdup("HDR");
	p->link_layer = rd_strdup("Ethernet");
	p->lid = rd_u64(0);
	p->sm_lid = rd_u64(0);
	p->sm_sl = rd_u64(0);
	p->lid_mask_count = rd_u64(0);
	p->cap_mask = rd_u64(0x04010000);
	p->netdev = rd_strdup(nd);
	p->netdev_ifindex = rd_u64(up ? 4 : 5);
	p->pkey0 = rd_u64(0xffff);
	gids(p, nd, last, up ? ip : NULL);
	p->verbs.active_mtu = rd_u64(up ? 4096 : 1024);
	p->verbs.max_mtu = rd_u64(4096);
	p->verbs.active_speed = rd_u64(up ? 64 : 1);
	p->verbs.active_width = rd_u64(2);
	p->verbs.gid_tbl_len = rd_u64(255);
	p->verbs.pkey_tbl_len = rd_u64(1);
	p->verbs.max_msg_sz = rd_u64(0x40000000);
	port_fill(p, up ? t : NULL);
}

static void stat_add(struct rd_netdev *n, const char *name, uint64_t v)
{
	rd_counters_add(&n->ethtool.stats, name, rd_u64(v));
}

static void limits(struct rd_xcvr_limits *l, double ha, double la, double hw,
		   double lw)
{
	l->high_alarm = rd_dbl(ha);
	l->low_alarm = rd_dbl(la);
	l->high_warn = rd_dbl(hw);
	l->low_warn = rd_dbl(lw);
}

/*
 * The cage of each port: a 3 m active optical cable on the port that is
 * up (two 50G PAM4 lanes, RS-FEC, light well inside its limits), nothing
 * in the cage of the port that is down (the driver said "no cable", so
 * its memory is not read).
 */
static void cage(struct rd_netdev *n, bool up, const struct totals *t)
{
	struct rd_xcvr *m = &n->xcvr;

	n->ethtool.fec_auto = rd_bool(true);
	n->ethtool.modes_supported = rd_strdup(
		"100000baseSR2/Full 100000baseCR2/Full 50000baseSR/Full "
		"25000baseSR/Full Autoneg");
	n->ethtool.modes_advertised = rd_strdup(n->ethtool.modes_supported);
	n->ethtool.modes_partner = rd_strdup(up ? "100000baseSR2/Full" : "");
	if (!up) {
		m->present = rd_bool(false);
		m->error = rd_strdup("no module in the cage (the driver's "
				     "link-down reason: no cable)");
		return;
	}
	rd_counters_add(&n->ethtool.fec_stats, "corrected_blocks",
			rd_u64(t->tx_pkts / 9000));
	rd_counters_add(&n->ethtool.fec_stats, "corrected_blocks_lane0",
			rd_u64(t->tx_pkts / 18000));
	rd_counters_add(&n->ethtool.fec_stats, "corrected_blocks_lane1",
			rd_u64(t->tx_pkts / 18000));
	rd_counters_add(&n->ethtool.fec_stats, "uncorrectable_blocks", rd_u64(0));
	m->present = rd_bool(true);
	m->source = rd_strdup("demo");
	m->spec = rd_strdup("SFF-8636");
	m->identifier = rd_u64(0x11);
	m->type = rd_strdup("QSFP56");
	m->connector = rd_u64(0x23);
	m->connector_name = rd_strdup("No separable connector");
	m->media = rd_strdup("active optical");
	m->media_detail = rd_strdup("100G AOC, 2 x 50G PAM4");
	m->vendor = rd_strdup("DEMO OPTICS");
	m->vendor_oui = rd_strdup("00:00:00");
	m->part_number = rd_strdup("AOC-100G-2L-3M");
	m->revision = rd_strdup("A1");
	m->serial = rd_strdup("DM2231000415");
	m->date_code = rd_strdup("2022-08-01");
	m->length_m = rd_dbl(3);
	m->wavelength_nm = rd_dbl(850);
	m->nominal_mbps = rd_u64(53125);
	m->media_lanes = rd_u64(2);
	m->power_class = rd_u64(4);
	m->max_power_w = rd_dbl(3.5);
	m->flat_memory = rd_bool(false);
	m->dom = rd_bool(true);
	m->rx_power_is_oma = rd_bool(false);
	m->temperature_c = rd_dbl(41.5 + (double)(t->tx_pkts % 7) / 10);
	m->vcc_v = rd_dbl(3.291);
	limits(&m->temperature_limits, 80, -10, 75, -5);
	limits(&m->vcc_limits, 3.63, 2.97, 3.465, 3.135);
	limits(&m->tx_bias_limits, 13, 2, 11.5, 3);
	limits(&m->tx_power_limits, 3.5481, 0.1259, 2.8184, 0.1585);
	limits(&m->rx_power_limits, 3.5481, 0.0447, 2.8184, 0.0562);
	for (unsigned i = 1; i <= 2; i++) {
		struct rd_xcvr_lane *l = RD_PUSH(m->lanes, m->n_lanes);

		l->lane = i;
		l->tx_bias_ma = rd_dbl(6.8 + 0.2 * i);
		l->tx_power_mw = rd_dbl(0.89 - 0.03 * i);
		l->rx_power_mw = rd_dbl(0.76 - 0.12 * i +
					(double)(t->rx_pkts % 5) / 1000);
		l->rx_los = rd_bool(false);
		l->tx_los = rd_bool(false);
		l->rx_lol = rd_bool(false);
		l->tx_lol = rd_bool(false);
		l->tx_fault = rd_bool(false);
		l->tx_bias_flags = rd_u64(0);
		l->tx_power_flags = rd_u64(0);
		l->rx_power_flags = rd_u64(0);
	}
	m->temperature_flags = rd_u64(0);
	m->vcc_flags = rd_u64(0);
}

/* devlink of each function: firmware as flashed, every reporter healthy. */
static void devlink(struct rd_snapshot *s, const char *bdf)
{
	static const char *const reporters[] = { "fw", "fw_fatal", "tx", "rx" };
	static const char *const kinds[] = { "fixed", "running", "stored" };
	struct rd_devlink *d = RD_PUSH(s->devlinks, s->n_devlinks);

	d->bus = rd_strdup("pci");
	d->dev = rd_strdup(bdf);
	d->driver = rd_strdup("mlx5_core");
	d->serial = rd_strdup("MT2231X10415");
	for (int k = 0; k < 3; k++) {
		struct rd_devlink_version *v = RD_PUSH(d->versions, d->n_versions);

		v->kind = rd_strdup(kinds[k]);
		v->name = rd_strdup(k ? "fw.version" : "fw.psid");
		v->value = rd_strdup(k ? "22.36.1010" : "MT_0000000359");
	}
	d->reporters_read = rd_bool(true);
	for (int i = 0; i < 4; i++) {
		struct rd_devlink_reporter *r = RD_PUSH(d->reporters, d->n_reporters);

		r->name = rd_strdup(reporters[i]);
		r->state = rd_strdup("healthy");
		r->error_count = rd_u64(0);
		r->recover_count = rd_u64(0);
		r->auto_recover = rd_bool(i != 0);
	}
}

static void netdev(struct rd_snapshot *s, bool up, const struct totals *t)
{
	struct rd_netdev *n = RD_PUSH(s->netdevs, s->n_netdevs);
	struct rd_dcb_app *app;
	char key[32];

	n->name = rd_strdup(up ? "ens1f0np0" : "ens1f1np1");
	n->ifindex = rd_u64(up ? 4 : 5);
	n->rdma_device = rd_strdup(up ? "mlx5_0" : "mlx5_1");
	n->rdma_port = rd_u64(1);
	n->admin_up = rd_bool(true);
	n->operstate = rd_strdup(up ? "up" : "down");
	n->carrier = rd_bool(up);
	n->carrier_changes = rd_u64(up ? 2 : 5);
	n->carrier_up_count = rd_u64(up ? 1 : 2);
	n->carrier_down_count = rd_u64(up ? 1 : 3);
	n->mtu = rd_u64(up ? 9000 : 1500);
	n->min_mtu = rd_u64(68);
	n->max_mtu = rd_u64(9978);
	n->mac = rd_strdup(up ? "b8:ce:f6:a1:b2:c4" : "b8:ce:f6:a1:b2:c5");
	n->perm_mac = rd_strdup(n->mac);
	n->driver = rd_strdup("mlx5_core");
	n->pci_bdf = rd_strdup(up ? "0000:3b:00.0" : "0000:3b:00.1");
	n->addrs_read = rd_bool(true);	/* read over netlink, as live */
	if (up) {
		struct rd_addr *a = RD_PUSH(n->addrs, n->n_addrs);

		a->family = rd_strdup("inet");
		a->address = rd_strdup("192.168.50.11");
		a->prefixlen = rd_u64(24);
		a->scope = rd_strdup("global");
	}

	n->ethtool.speed_mbps = rd_u64(up ? 100000 : 0);
	n->ethtool.duplex = rd_strdup(up ? "full" : "unknown");
	n->ethtool.autoneg = rd_bool(true);
	n->ethtool.lanes = rd_u64(2);
	n->ethtool.link_detected = rd_bool(up);
	if (!up) {
		n->ethtool.ext_state = rd_strdup("No cable");
		n->ethtool.ext_state_num = rd_u64(4);
	}
	n->ethtool.link_down_events = rd_u64(up ? 1 : 3);
	n->ethtool.pause_autoneg = rd_bool(false);
	/* No global pause either: priority 3 is lossy. */
	n->ethtool.rx_pause = rd_bool(false);
	n->ethtool.tx_pause = rd_bool(false);
	n->ethtool.fec_active = rd_strdup(up ? "RS" : "None");
	n->ethtool.fec_configured = rd_strdup("Auto");
	n->ethtool.driver = rd_strdup("mlx5_core");
	n->ethtool.driver_version = rd_strdup("6.1.0-18-amd64");
	n->ethtool.firmware = rd_strdup("22.36.1010 (MT_0000000359)");
	n->ethtool.bus_info = rd_strdup(n->pci_bdf);
	cage(n, up, t);
	stat_add(n, "rx_bytes_phy", up ? t->rx_words * 4 + t->rx_pkts * 78 : 0);
	stat_add(n, "tx_bytes_phy", up ? t->tx_words * 4 + t->tx_pkts * 78 : 0);
	stat_add(n, "rx_packets_phy", up ? t->rx_pkts : 0);
	stat_add(n, "tx_packets_phy", up ? t->tx_pkts : 0);
	stat_add(n, "rx_discards_phy", up ? t->discards : 0);
	stat_add(n, "rx_out_of_buffer", up ? t->out_of_buffer : 0);
	stat_add(n, "rx_crc_errors_phy", 0);
	stat_add(n, "rx_symbol_err_phy", 0);
	stat_add(n, "link_down_events_phy", up ? 1 : 3);
	stat_add(n, "rx_pause_ctrl_phy", up ? t->pause_rx : 0);
	stat_add(n, "tx_pause_ctrl_phy", up ? t->pause_tx : 0);
	for (int i = 0; i < 8; i++) {
		snprintf(key, sizeof(key), "rx_prio%d_pause", i);
		stat_add(n, key, 0);
		snprintf(key, sizeof(key), "tx_prio%d_pause", i);
		stat_add(n, key, 0);
		snprintf(key, sizeof(key), "rx_prio%d_bytes", i);
		stat_add(n, key, up && i == 3 ? t->rx_words * 4 : 0);
		snprintf(key, sizeof(key), "tx_prio%d_bytes", i);
		stat_add(n, key, up && i == 3 ? t->tx_words * 4 : 0);
	}

	/* DCB: supported, but PFC enabled on no priority. */
	n->dcb.supported = rd_bool(true);
	n->dcb.dcbx_mode = rd_u64(4);
	n->dcb.pfc_cap = rd_u64(8);
	n->dcb.pfc_en = rd_u64(0);
	n->dcb.pfc_delay = rd_u64(0);
	n->dcb.ets_cap = rd_u64(8);
	n->dcb.ets_willing = rd_bool(false);
	for (int i = 0; i < 8; i++) {
		snprintf(key, sizeof(key), "prio%d", i);
		rd_counters_add(&n->dcb.pfc_requests, key, rd_u64(0));
		rd_counters_add(&n->dcb.pfc_indications, key, rd_u64(0));
		rd_counters_add(&n->dcb.ets_prio_tc, key,
				rd_u64(i == 3 ? 3 : 0));
		snprintf(key, sizeof(key), "tc%d", i);
		rd_counters_add(&n->dcb.ets_tc_bw, key,
				rd_u64(i == 0	? 50
				       : i == 3 ? 50
						: 0));
		rd_counters_add(&n->dcb.ets_tc_tsa, key, rd_u64(2));
	}
	app = RD_PUSH(n->dcb.apps, n->dcb.n_apps);
	app->selector = rd_u64(5);
	app->protocol = rd_u64(26);
	app->priority = rd_u64(3);
	app = RD_PUSH(n->dcb.apps, n->dcb.n_apps);
	app->selector = rd_u64(5);
	app->protocol = rd_u64(48);
	app->priority = rd_u64(6);
	n->dcb.trust = rd_strdup("dscp");
	n->dcb.trust_source = rd_strdup("dcb app table");

	n->ecn.present = rd_bool(true);
	for (int i = 0; i < 8; i++) {
		snprintf(key, sizeof(key), "prio%d", i);
		rd_counters_add(&n->ecn.np_enable, key, rd_u64(i == 3));
		rd_counters_add(&n->ecn.rp_enable, key, rd_u64(i == 3));
	}
	/* CNPs leave with DSCP 48, which the APP table maps to 6. */
	rd_counters_add(&n->ecn.params, "roce_np/cnp_dscp", rd_u64(48));
}

/* One record of the kernel log, tied as the kmsg probe ties it. */
static void kmsg_rec(struct rd_snapshot *s, uint64_t seq, uint64_t ts_usec,
		     unsigned level, const char *msg, const char *dev,
		     const char *netdev, const char *bdf, const char *dict_dev)
{
	struct rd_kmsg_rec *k = RD_PUSH(s->kmsg.records, s->kmsg.n_records);

	k->seq = seq;
	k->level = rd_u64(level);
	k->facility = rd_u64(0);
	k->ts_usec = rd_u64(ts_usec);
	/* The frame's clock: monotonic_ns is 86400 s at time 1732000000. */
	k->wall_time = rd_dbl(1732000000.0 - 86400.0 + (double)ts_usec / 1e6);
	k->flags = rd_strdup("-");
	k->message = rd_strdup(msg);
	k->subsystem = rd_strdup(dict_dev[0] == 'n' ? "net" : "pci");
	k->device = rd_strdup(dict_dev);
	k->rdma_device = rd_strdup(dev);
	k->port = rd_u64(1);
	k->netdev = rd_strdup(netdev);
	k->pci_bdf = rd_strdup(bdf);
	k->tied_by = rd_strdup("dictionary");
}

/*
 * The kernel log of the demo host: both links came up at boot; an hour
 * before the recording mlx5_1's cable was pulled and its link went down
 * (the strings are mlx5's, from events.c and en_main.c).
 */
static void kmsg(struct rd_snapshot *s)
{
	s->kmsg.readable = rd_bool(true);
	s->kmsg.source = rd_strdup("/dev/kmsg");
	s->kmsg.wall_clock = rd_bool(true);
	s->kmsg.records_read = rd_u64(1893);
	s->kmsg.first_seq = rd_u64(0);
	s->kmsg.last_seq = rd_u64(1892);
	s->kmsg.gaps = rd_u64(0);
	kmsg_rec(s, 911, 9183004, 6, "mlx5_core 0000:3b:00.0 ens1f0np0: Link up",
		 "mlx5_0", "ens1f0np0", "0000:3b:00.0", "n4");
	kmsg_rec(s, 915, 9320117, 6, "mlx5_core 0000:3b:00.1 ens1f1np1: Link up",
		 "mlx5_1", "ens1f1np1", "0000:3b:00.1", "n5");
	kmsg_rec(s, 1871, 82693855210ull, 6,
		 "mlx5_core 0000:3b:00.1: Port module event: module 1, Cable unplugged",
		 "mlx5_1", "ens1f1np1", "0000:3b:00.1", "+pci:0000:3b:00.1");
	kmsg_rec(s, 1872, 82694012877ull, 6, "mlx5_core 0000:3b:00.1 ens1f1np1: Link down",
		 "mlx5_1", "ens1f1np1", "0000:3b:00.1", "n5");
}

static void pci(struct rd_snapshot *s, const char *bdf, const char *dev)
{
	struct rd_pci *p = RD_PUSH(s->pci, s->n_pci);

	p->bdf = rd_strdup(bdf);
	p->vendor_id = rd_u64(0x15b3);
	p->device_id = rd_u64(0x101d);
	p->subsys_vendor_id = rd_u64(0x15b3);
	p->subsys_device_id = rd_u64(0x0016);
	p->class_id = rd_u64(0x020000);
	p->vendor_name = rd_strdup("Mellanox Technologies");
	p->device_name = rd_strdup("MT2892 Family [ConnectX-6 Dx]");
	p->driver = rd_strdup("mlx5_core");
	p->rdma_device = rd_strdup(dev);
	p->link_speed_gts = rd_dbl(16);
	p->link_width = rd_u64(16);
	p->cap_speed_gts = rd_dbl(16);
	p->cap_width = rd_u64(16);
	p->numa_node = rd_s64(0);
	p->local_cpulist = rd_strdup("0-15,32-47");
	p->vpd_part_number = rd_strdup("MCX623106AN-CDAT");
	p->vpd_serial = rd_strdup("MT2217X00001");
}

static void module(struct rd_snapshot *s, const char *name, uint64_t refs)
{
	struct rd_module *m = RD_PUSH(s->modules, s->n_modules);

	m->name = rd_strdup(name);
	m->loaded = rd_bool(true);
	m->refcnt = rd_u64(refs);
	m->initstate = rd_strdup("live");
}

static void host(struct rd_snapshot *s)
{
	struct rd_host *h = &s->host;
	struct rd_devnode *dn;

	h->hostname = rd_strdup("demo-cx6dx");
	h->kernel = rd_strdup("6.1.0-18-amd64");
	h->rdma_core_version = rd_strdup("44.0");
	h->is_root = rd_bool(true);
	h->memlock_unlimited = rd_bool(true);
	h->cap_ipc_lock = rd_bool(true);
	h->cap_net_admin = rd_bool(true);
	h->hugepages_total = rd_u64(0);
	h->hugepages_free = rd_u64(0);
	h->hugepage_kb = rd_u64(2048);
	h->mem_total_kb = rd_u64(527988224);
	h->numa_nodes = rd_u64(2);
	h->cpu_affinity = rd_strdup("0-63");
	h->mempolicy = rd_strdup("default");
	h->container = rd_strdup("none");
	h->rdma_netns_mode = rd_strdup("shared");
	h->rdma_copy_on_fork = rd_bool(true);
	h->mlnx_ofed = rd_bool(false);
	h->tcp_ecn = rd_s64(2);
	h->rmem_default = rd_u64(212992);
	h->rmem_max = rd_u64(212992);
	h->nr_hugepages = rd_u64(0);
	for (int i = 0; i < 2; i++) {
		dn = RD_PUSH(h->devnodes, h->n_devnodes);
		dn->path = rd_strdup(i ? "/dev/infiniband/uverbs1"
				       : "/dev/infiniband/uverbs0");
		dn->exists = rd_bool(true);
		dn->mode = rd_u64(0666);
		dn->readable = rd_bool(true);
		dn->writable = rd_bool(true);
	}
	/* rdma_cm sends RoCE v2 with ToS 106: DSCP 26, priority 3. */
	for (int i = 0; i < 2; i++) {
		struct rd_cm_port *cm = RD_PUSH(h->cm_ports, h->n_cm_ports);

		cm->device = rd_strdup(i ? "mlx5_1" : "mlx5_0");
		cm->port = rd_u64(1);
		cm->default_roce_mode = rd_strdup("RoCE v2");
		cm->default_roce_tos = rd_u64(106);
	}
}

/* One second of traffic: a write-heavy RoCE job around 60 Gb/s. */
static void advance(struct totals *t, unsigned frame)
{
	/* A burst in the middle of the recording. */
	uint64_t gbps = 55 + noise(10) + (frame >= 20 && frame < 35 ? 25 : 0);
	uint64_t bytes = gbps * 125000000ull;
	uint64_t pkts = bytes / 4096;

	t->tx_words += bytes / 4;
	t->rx_words += bytes / 16 + noise(1000000);
	t->tx_pkts += pkts;
	t->rx_pkts += pkts / 4 + noise(1000);
	t->rx_write += pkts / 4;
	t->rx_read += noise(50);
	t->cnp_sent += 200 + noise(100);
	t->cnp_handled += 150 + noise(100);
	t->ecn_marked += 220 + noise(120);
	/* Without PFC, bursts overflow the receive buffer. */
	if (frame >= 20 && frame < 35) {
		t->out_of_buffer += 40 + noise(60);
		t->discards += 30 + noise(40);
		t->retrans += 5 + noise(5);
		t->seq_err += noise(4);
	} else if (noise(4) == 0) {
		t->out_of_buffer += noise(6);
	}
	t->pause_rx += 0;
	t->pause_tx += 0;
}

int main(int argc, char **argv)
{
	unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 60;
	struct totals t = { .tx_words = 912345678901ull / 4,
			    .rx_words = 234567890123ull / 4,
			    .tx_pkts = 222750000,
			    .rx_pkts = 57300000,
			    .out_of_buffer = 1187,
			    .discards = 904 };

	if (frames == 0 || frames > 100000) {
		fprintf(stderr, "usage: demo-gen [FRAMES (1..100000)]\n");
		return 2;
	}
	for (unsigned i = 0; i < frames; i++) {
		struct rd_snapshot s;
		int r;

		rd_snapshot_init(&s);
		advance(&t, i);
		s.time = rd_dbl(1732000000.0 + i);
		s.monotonic_ns = rd_u64((86400ull + i) * 1000000000ull);
		s.source = rd_strdup("demo");
		device(&s, "mlx5_0", "0000:3b:00.0", 0xc4, true, &t);
		device(&s, "mlx5_1", "0000:3b:00.1", 0xc5, false, &t);
		netdev(&s, true, &t);
		netdev(&s, false, &t);
		pci(&s, "0000:3b:00.0", "mlx5_0");
		pci(&s, "0000:3b:00.1", "mlx5_1");
		devlink(&s, "0000:3b:00.0");
		devlink(&s, "0000:3b:00.1");
		module(&s, "ib_core", 8);
		module(&s, "ib_uverbs", 2);
		module(&s, "rdma_cm", 1);
		module(&s, "rdma_ucm", 0);
		module(&s, "mlx5_core", 1);
		module(&s, "mlx5_ib", 0);
		host(&s);
		kmsg(&s);
		r = rd_recording_append(stdout, &s);
		rd_snapshot_free(&s);
		if (r < 0) {
			fprintf(stderr, "demo-gen: cannot write a frame\n");
			return 1;
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
