// SPDX-License-Identifier: GPL-2.0-or-later
/* Lossless RoCE: PFC, ECN, the RoCE v2 port, rdma_cm's RoCE mode. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void prio_list(uint64_t mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < 8; i++)
		if (mask & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", i);
	if (!off)
		snprintf(buf, len, "none");
}

/* Every RoCE port with its netdev; calls fn once per port kept. */
typedef void (*roce_fn)(struct diag_ctx *x, const struct rd_device *d,
			const struct rd_port *p, const char *ndname,
			const struct rd_netdev *n);

static void for_roce_ports(struct diag_ctx *x, roce_fn fn)
{
	for (size_t i = 0; i < x->s->n_devices; i++) {
		const struct rd_device *d = &x->s->devices[i];

		for (size_t j = 0; j < d->n_ports; j++) {
			const struct rd_port *p = &d->ports[j];
			const char *nd;

			if (!diag_port_is_eth(p) ||
			    !diag_wants(x, d->name, p->port))
				continue;
			nd = diag_port_netdev_name(x->s, d, p);
			fn(x, d, p, nd, nd ? rd_snapshot_netdev(x->s, nd) : NULL);
		}
	}
}

static bool no_netdev(struct diag_ctx *x, struct rd_result *r,
		      const struct rd_device *d, const struct rd_port *p,
		      const char *nd, const struct rd_netdev *n)
{
	if (n)
		return false;
	diag_verdict(x, r, RD_UNKNOWN, "no_data",
		     "%s/%" PRIu64 ": %s", d->name, p->port,
		     nd ? "no netlink data for the netdev" :
			  "netdev behind the port not known");
	return true;
}

static void pfc_one(struct diag_ctx *x, const struct rd_device *d,
		    const struct rd_port *p, const char *nd,
		    const struct rd_netdev *n)
{
	struct rd_result *r = diag_new(x, d->name, p->port, nd);
	const struct rd_dcb *dcb;
	bool from_app;
	uint64_t prio, en;
	char list[32], key[32];

	diag_why(x, r,
		 "RoCE needs a lossless class: PFC on the RoCE priority "
		 "only, matched on the switch. (The guide's "
		 "/sys/class/net/X/prio_tc_map does not exist upstream, and "
		 "'ip link set dev X xoff' is not a command.)");
	if (no_netdev(x, r, d, p, nd, n))
		return;
	dcb = &n->dcb;
	if (!dcb->supported.ok || !dcb->supported.v) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data", "%s: %s", nd,
			     dcb->reason ? dcb->reason :
			     dcb->supported.ok ? "driver has no DCB support" :
						 "DCB state not read");
		diag_ev(x, r, "DCB", "dcbnl DCB_CMD_IEEE_GET", "%s",
			dcb->supported.ok ? "not supported by the driver" :
					    "not read");
		return;
	}
	prio = diag_roce_prio(n, &from_app);
	diag_ev(x, r, "RoCE priority",
		from_app ? "dcbnl APP table (UDP 4791)" : "default",
		"%" PRIu64, prio);
	if (dcb->trust)
		diag_ev(x, r, "trust", dcb->trust_source ? dcb->trust_source :
							   "dcbnl", "%s",
			dcb->trust);
	if (!dcb->pfc_en.ok) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: PFC state not read%s%s", nd,
			     dcb->reason ? ": " : "",
			     dcb->reason ? dcb->reason : "");
		return;
	}
	en = dcb->pfc_en.v & 0xff;
	prio_list(en, list, sizeof(list));
	diag_ev(x, r, "PFC enabled priorities",
		"dcbnl DCB_CMD_IEEE_GET ieee_pfc.pfc_en", "%s (0x%02" PRIx64 ")",
		list, en);
	snprintf(key, sizeof(key), "prio%" PRIu64, prio);
	{
		const struct rd_counter *c =
			rd_counters_find(&dcb->pfc_requests, key);

		if (c && c->value.ok)
			diag_ev(x, r, "PFC requests (sent)", "ieee_pfc.requests",
				"prio %" PRIu64 ": %" PRIu64, prio, c->value.v);
		c = rd_counters_find(&dcb->pfc_indications, key);
		if (c && c->value.ok)
			diag_ev(x, r, "PFC indications (received)",
				"ieee_pfc.indications", "prio %" PRIu64 ": %" PRIu64,
				prio, c->value.v);
	}
	if (en & (1u << prio)) {
		if (en == (1u << prio)) {
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: PFC on priority %" PRIu64 " only", nd,
				     prio);
		} else {
			diag_verdict(x, r, RD_WARN, "pfc_extra_prio",
				     "%s: PFC on priorities %s; only %" PRIu64 " should be lossless",
				     nd, list, prio);
			diag_next(x, r,
				  "extra lossless priorities spread pause storms; "
				  "align with the switch (dcb pfc set dev %s prio-pfc ...)",
				  rd_shquote_tmp(nd));
		}
		return;
	}
	diag_verdict(x, r, RD_FAIL, en ? "pfc_wrong_prio" : "pfc_off",
		     en ? "%s: PFC on %s but not on the RoCE priority %" PRIu64 :
			  "%s: PFC off (%s); the RoCE priority %" PRIu64 " is lossy",
		     nd, list, prio);
	diag_next(x, r,
		  "enable PFC on priority %" PRIu64 " here and on the switch port; "
		  "then watch rx_prio%" PRIu64 "_pause / tx_prio%" PRIu64 "_pause",
		  prio, prio, prio);
	struct rd_fixup *f = diag_fix(
		x, r, RD_FIX_PFC, true, true,
		"changes flow control on the port; the switch must match or pause frames are ignored",
		"dcb pfc set dev %s prio-pfc %" PRIu64 ":on",
		rd_shquote_tmp(nd), prio);
	if (f) {
		f->value = prio;
		if (!(f->arg = strdup(nd)))
			x->err = -ENOMEM;
	}
}

DIAG_CHECK(check_qos_pfc)
{
	DIAG_CTX(x);

	for_roce_ports(&x, pfc_one);
	return diag_done(&x);
}

static bool cnp_rising(struct diag_ctx *x, const struct rd_device *d,
		       const struct rd_port *p, struct rd_result *r)
{
	static const char *const names[] = { "np_cnp_sent", "rp_cnp_handled",
					     "np_ecn_marked_roce_packets" };
	bool any = false;

	if (!x->h)
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct rd_series *ser = rd_history_port(
			x->h, d->name, p->port, "hw_counters", names[i]);
		uint64_t delta;
		double span;

		if (!ser || !rd_series_delta(ser, 1e9, &delta, &span))
			continue;
		diag_ev(x, r, names[i], "hw_counters (history)",
			"+%" PRIu64 " in %.1f s", delta, span);
		if (delta > 0)
			any = true;
	}
	return any;
}

static void ecn_one(struct diag_ctx *x, const struct rd_device *d,
		    const struct rd_port *p, const char *nd,
		    const struct rd_netdev *n)
{
	struct rd_result *r = diag_new(x, d->name, p->port, nd);
	uint64_t prio;
	char key[16];
	const struct rd_counter *np, *rp;
	bool active;

	diag_why(x, r,
		 "DCQCN (ECN marking + CNPs) keeps RoCE queues short so PFC "
		 "rarely fires. net.ipv4.tcp_ecn is TCP's ECN and does not "
		 "enable it.");
	if (no_netdev(x, r, d, p, nd, n))
		return;
	if (x->s->host.tcp_ecn.ok)
		diag_ev(x, r, "net.ipv4.tcp_ecn (TCP only, information)",
			"/proc/sys/net/ipv4/tcp_ecn", "%" PRId64,
			x->s->host.tcp_ecn.v);
	active = cnp_rising(x, d, p, r);
	if (!n->ecn.present.ok) {
		if (active)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: CNP counters rising, DCQCN is active", nd);
		else
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: ECN state not read", nd);
		return;
	}
	if (!n->ecn.present.v) {
		if (active)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: CNP counters rising, DCQCN is active", nd);
		else
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: no /sys/class/net/%s/ecn (not an mlx5 NIC with that interface)",
				     nd, nd);
		return;
	}
	prio = diag_roce_prio(n, NULL);
	snprintf(key, sizeof(key), "prio%" PRIu64, prio);
	np = rd_counters_find(&n->ecn.np_enable, key);
	rp = rd_counters_find(&n->ecn.rp_enable, key);
	if (np && np->value.ok)
		diag_ev(x, r, "roce_np enable", "/sys/class/net/X/ecn/roce_np/enable/P",
			"prio %" PRIu64 ": %" PRIu64, prio, np->value.v);
	if (rp && rp->value.ok)
		diag_ev(x, r, "roce_rp enable", "/sys/class/net/X/ecn/roce_rp/enable/P",
			"prio %" PRIu64 ": %" PRIu64, prio, rp->value.v);
	if (!np || !rp || !np->value.ok || !rp->value.ok) {
		if (active)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: CNP counters rising, DCQCN is active", nd);
		else
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: ECN enable for priority %" PRIu64 " not read (needs root?)",
				     nd, prio);
		return;
	}
	if ((np->value.v && rp->value.v) || active) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: ECN on for priority %" PRIu64 "%s", nd, prio,
			     active ? ", CNPs flowing" : "");
		return;
	}
	diag_verdict(x, r, RD_WARN, "ecn_off",
		     "%s: ECN %s for the RoCE priority %" PRIu64, nd,
		     np->value.v || rp->value.v ? "only half on" : "off", prio);
	diag_next(x, r,
		  "enable roce_np and roce_rp for priority %" PRIu64
		  " (echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%" PRIu64
		  " and .../roce_rp/enable/%" PRIu64 "), and ECN marking on the switch",
		  prio, rd_shquote_tmp(nd), prio, prio);
}

DIAG_CHECK(check_qos_ecn)
{
	DIAG_CTX(x);

	for_roce_ports(&x, ecn_one);
	return diag_done(&x);
}

DIAG_CHECK(check_net_udp4791)
{
	DIAG_CTX(x);

	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		struct rd_result *r;
		bool roce = false;

		for (size_t j = 0; j < d->n_ports; j++)
			if (diag_port_is_eth(&d->ports[j]))
				roce = true;
		if (!roce || !diag_wants(&x, d->name, 0))
			continue;
		r = diag_new(&x, d->name, 0, NULL);
		diag_why(&x, r,
			 "UDP 4791 is the RoCE v2 data port (not an rdma_cm "
			 "port). Hardware RoCE is handled by the NIC and never "
			 "passes the host firewall; only Soft-RoCE and siw do.");
		if (!diag_device_is_soft(d)) {
			diag_ev(&x, r, "device", "sysfs", "%s: hardware (%s)",
				d->name, d->pci_bdf ? d->pci_bdf : "PCI");
			diag_verdict(&x, r, RD_PASS, "ok",
				     "%s: hardware RoCE bypasses the host firewall",
				     d->name);
			continue;
		}
		diag_ev(&x, r, "device", "sysfs", "%s: software RoCE", d->name);
		diag_verdict(&x, r, RD_UNKNOWN, "no_data",
			     "%s: firewall rules not read (no nftables data); Soft-RoCE needs UDP 4791 open",
			     d->name);
		diag_next(&x, r,
			  "check that no nftables/iptables rule drops UDP 4791 on both hosts");
	}
	return diag_done(&x);
}

static void cm_one(struct diag_ctx *x, const struct rd_device *d,
		   const struct rd_port *p, const char *nd,
		   const struct rd_netdev *n)
{
	struct rd_result *r = diag_new(x, d->name, p->port, nd);
	const struct rd_host *hst = &x->s->host;
	const struct rd_cm_port *cm = NULL;

	(void)n;
	diag_why(x, r,
		 "rdma_cm picks RoCE v1 or v2 from this default; v1 is not "
		 "routable and both ends must agree.");
	for (size_t i = 0; i < hst->n_cm_ports; i++)
		if (hst->cm_ports[i].device &&
		    strcmp(hst->cm_ports[i].device, d->name) == 0 &&
		    hst->cm_ports[i].port.ok && hst->cm_ports[i].port.v == p->port)
			cm = &hst->cm_ports[i];
	if (!cm || !cm->default_roce_mode) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s/%" PRIu64 ": rdma_cm configfs not read (configfs not mounted or rdma_cm not loaded)",
			     d->name, p->port);
		return;
	}
	diag_ev(x, r, "default_roce_mode",
		"/sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_mode",
		"%s", cm->default_roce_mode);
	if (cm->default_roce_tos.ok)
		diag_ev(x, r, "default_roce_tos",
			"/sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_tos",
			"%" PRIu64, cm->default_roce_tos.v);
	if (strstr(cm->default_roce_mode, "v2"))
		diag_verdict(x, r, RD_PASS, "ok", "%s/%" PRIu64 ": rdma_cm uses %s",
			     d->name, p->port, cm->default_roce_mode);
	else
		diag_verdict(x, r, RD_WARN, "roce_v1_default",
			     "%s/%" PRIu64 ": rdma_cm defaults to %s (not routable)",
			     d->name, p->port, cm->default_roce_mode);
}

DIAG_CHECK(check_rdma_cm_roce_mode)
{
	DIAG_CTX(x);

	for_roce_ports(&x, cm_one);
	return diag_done(&x);
}
