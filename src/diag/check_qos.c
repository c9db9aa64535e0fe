// SPDX-License-Identifier: GPL-2.0-or-later
/* Lossless RoCE: PFC, ECN, the RoCE v2 port, rdma_cm's RoCE mode. */
#include "config.h"
#include "core/escape.h"
#include "diag/diag_int.h"
#include "diag/qos_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A RoCE port whose netdev is not known or not read: UNKNOWN. */
static bool no_netdev(struct diag_ctx *x, struct rd_result *r,
		      const struct diag_target *t)
{
	return !diag_have(x, r, t->n != NULL, "%s/%" PRIu64 ": %s",
			  t->d->name, t->p->port,
			  t->netdev ? "no netlink data for the netdev" :
				      "netdev behind the port not known");
}

/* The model's inputs and its chain, as evidence. */
static void qos_evidence(struct diag_ctx *x, struct rd_result *r,
			 const struct rd_netdev *n, const struct rd_qos_model *m)
{
	if (n->dcb.trust)
		diag_ev(x, r, "trust",
			m->trust_source ? m->trust_source : "dcbnl", "%s",
			n->dcb.trust);
	if (m->tos >= 0)
		diag_ev(x, r, "rdma_cm default_roce_tos",
			"/sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_tos",
			"%d (DSCP %d)", m->tos, m->dscp);
	if (m->vlan) {
		const struct rd_netdev *v = rd_snapshot_netdev(x->s, m->vlan);
		char map[96] = "";
		size_t off = 0;

		for (size_t i = 0; v && i < v->vlan_egress.n && off < sizeof(map); i++)
			off += (size_t)snprintf(map + off, sizeof(map) - off,
						"%s%s->%" PRIu64, off ? " " : "",
						v->vlan_egress.v[i].name,
						v->vlan_egress.v[i].value.v);
		diag_ev(x, r, "VLAN egress map", "rtnetlink IFLA_VLAN_EGRESS_QOS",
			"%s: %s", m->vlan, off ? map : "empty (every priority -> PCP 0)");
	}
	if (m->cnp_dscp >= 0)
		diag_ev(x, r, "CNP DSCP", "/sys/class/net/<netdev>/ecn/roce_np/cnp_dscp",
			"%d (congestion notifications, not data)", m->cnp_dscp);
	if (m->chain[0])
		diag_ev(x, r, "RoCE priority", "QoS model", "%s", m->chain);
	if (m->ambiguous || m->prio < 0)
		diag_ev(x, r, "RoCE priority", "QoS model", "%s: %s",
			m->ambiguous ? "not one priority" : "not known",
			m->why[0] ? m->why : "no mapping to judge");
}

static const char *ll_name(enum rd_qos_lossless l)
{
	static const char *const names[] = {
		[RD_QOS_LOSSY] = "lossy",
		[RD_QOS_BY_PFC] = "lossless (PFC)",
		[RD_QOS_BY_PAUSE] = "lossless (global pause)",
	};

	return (unsigned)l < RD_QOS_LL_UNKNOWN ? names[l] : "not known";
}

static void pfc_fix(struct diag_ctx *x, struct rd_result *r, const char *nd,
		    int prio)
{
	struct rd_fixup *f = diag_fix(
		x, r, RD_FIX_PFC, nd, true, true,
		"changes flow control on the port; the switch must match or pause frames are ignored",
		"dcb pfc set dev %s prio-pfc %d:on", rd_shquote_tmp(nd), prio);

	if (f)
		f->value = (uint64_t)prio;
}

static void pfc_counters(struct diag_ctx *x, struct rd_result *r,
			 const struct rd_dcb *dcb, int prio)
{
	const struct rd_counter *c;
	char key[16];

	snprintf(key, sizeof(key), "prio%d", prio);
	c = rd_counters_find(&dcb->pfc_requests, key);
	if (c && c->value.ok)
		diag_ev(x, r, "PFC requests (sent)", "ieee_pfc.requests",
			"prio %d: %" PRIu64 " frames", prio, c->value.v);
	c = rd_counters_find(&dcb->pfc_indications, key);
	if (c && c->value.ok)
		diag_ev(x, r, "PFC indications (received)", "ieee_pfc.indications",
			"prio %d: %" PRIu64 " frames", prio, c->value.v);
}

/* One derived priority: PFC on exactly it, or global pause, or lossy. */
static void pfc_single(struct diag_ctx *x, struct rd_result *r,
		       const char *nd, const struct rd_qos_model *m,
		       const char *list)
{
	int prio = m->prio;
	unsigned en = m->pfc_en;

	switch (rd_qos_lossless(m, prio)) {
	case RD_QOS_BY_PFC:
		if (en == (1u << prio)) {
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: PFC on priority %d only, the priority RoCE uses",
				     nd, prio);
			return;
		}
		diag_verdict(x, r, RD_WARN, "pfc_extra_prio",
			     "%s: PFC on priorities %s; only %d carries RoCE",
			     nd, list, prio);
		char all[96];
		size_t len = 0;

		/* The whole command: each priority named, RoCE's alone on. */
		for (int i = 0; i < 8 && len < sizeof(all); i++)
			len += (size_t)snprintf(all + len, sizeof(all) - len,
						"%s%d:%s", i ? " " : "", i,
						i == prio ? "on" : "off");
		diag_next(x, r,
			  "extra lossless priorities spread pause storms; "
			  "align with the switch, e.g. PFC on priority %d "
			  "only: dcb pfc set dev %s prio-pfc %s",
			  prio, rd_shquote_tmp(nd), all);
		return;
	case RD_QOS_BY_PAUSE:
		diag_verdict(x, r, RD_WARN, "global_pause",
			     "%s: PFC off, global pause on: priority %d is lossless, "
			     "but a pause stops all traffic of the port, not just RoCE",
			     nd, prio);
		diag_next(x, r,
			  "to pause only RoCE: turn global pause off (ethtool -A %s rx off tx off) "
			  "and enable PFC on priority %d, here and on the switch port",
			  rd_shquote_tmp(nd), prio);
		return;
	case RD_QOS_LOSSY:
		if (en)
			diag_verdict(x, r, RD_FAIL, "pfc_wrong_prio",
				     "%s: PFC on %s but RoCE uses priority %d, which is lossy",
				     nd, list, prio);
		else
			diag_verdict(x, r, RD_FAIL, "pfc_off",
				     "%s: PFC off and global pause off; RoCE priority %d is lossy",
				     nd, prio);
		diag_next(x, r,
			  "enable PFC on priority %d here and on the switch port; "
			  "then watch rx_prio%d_pause / tx_prio%d_pause",
			  prio, prio, prio);
		pfc_fix(x, r, nd, prio);
		return;
	default:
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: PFC off and the global pause state not read; "
			     "priority %d may be lossless through pause or lossy",
			     nd, prio);
		return;
	}
}

/* The application picks the priority: judge every candidate. */
static void pfc_candidates(struct diag_ctx *x, struct rd_result *r,
			   const char *nd, const struct rd_netdev *n,
			   const struct rd_qos_model *m)
{
	unsigned safe = 0, unknown = 0;
	char ok[32], bad[32];

	for (int i = 0; i < RD_QOS_NPRIO; i++) {
		enum rd_qos_lossless l;
		char dscps[160];

		if (!(m->candidates & (1u << i)))
			continue;
		l = rd_qos_lossless(m, i);
		if (l == RD_QOS_BY_PFC || l == RD_QOS_BY_PAUSE)
			safe |= 1u << i;
		else if (l == RD_QOS_LL_UNKNOWN)
			unknown |= 1u << i;
		rd_qos_dscps_of(n, i, dscps, sizeof(dscps));
		diag_ev(x, r, "candidate priority", "QoS model", "%d%s%s%s: %s",
			i, dscps[0] ? " (DSCP " : "", dscps, dscps[0] ? ")" : "",
			ll_name(l));
	}
	rd_qos_prio_list(safe, ok, sizeof(ok));
	rd_qos_prio_list(m->candidates & ~safe, bad, sizeof(bad));
	if (safe == m->candidates && !m->pfc_en) {
		diag_verdict(x, r, RD_WARN, "global_pause",
			     "%s: PFC off, global pause on: every priority RoCE may use (%s) "
			     "is lossless, but a pause stops all traffic of the port, not just RoCE",
			     nd, ok);
		diag_next(x, r,
			  "to pause only RoCE: turn global pause off (ethtool -A %s rx off tx off) "
			  "and enable PFC on RoCE's priority, here and on the switch port",
			  rd_shquote_tmp(nd));
		return;
	}
	if (safe == m->candidates) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: every priority RoCE may use (%s) is lossless",
			     nd, ok);
		return;
	}
	if (safe) {
		diag_verdict(x, r, RD_WARN, "prio_ambiguous",
			     "%s: RoCE's priority depends on the application's traffic class: "
			     "lossless on %s, lossy on %s",
			     nd, ok, bad);
		diag_next(x, r,
			  "make sure RoCE applications use a traffic class that maps to "
			  "priority %s (for rdma_cm: default_roce_tos in /sys/kernel/config/rdma_cm)",
			  ok);
		return;
	}
	if (unknown) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: PFC off and the global pause state not read", nd);
		return;
	}
	diag_verdict(x, r, RD_FAIL, "pfc_off",
		     "%s: none of the priorities RoCE may use (%s) is lossless",
		     nd, bad);
	diag_next(x, r,
		  "enable PFC on the priority RoCE's traffic class maps to, here and on the switch port");
}

void check_qos_pfc(struct diag_ctx *x, const struct diag_target *t,
		   struct rd_result *r)
{
	const char *nd = t->netdev;
	const struct rd_netdev *n = t->n;
	const struct rd_dcb *dcb;
	struct rd_qos_model m;
	char list[32];

	if (no_netdev(x, r, t))
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
	rd_qos_derive(x->s, t->d, t->p, n, &m);
	qos_evidence(x, r, n, &m);
	if (!m.pfc_known) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: PFC state not read%s%s", nd,
			     dcb->reason ? ": " : "",
			     dcb->reason ? dcb->reason : "");
		return;
	}
	rd_qos_prio_list(m.pfc_en, list, sizeof(list));
	diag_ev(x, r, "PFC enabled priorities",
		"dcbnl DCB_CMD_IEEE_GET ieee_pfc.pfc_en", "%s (0x%02x)", list,
		m.pfc_en);
	if (m.pause_known)
		diag_ev(x, r, "global pause (IEEE 802.3x)",
			"ethtool netlink PAUSE_GET", "rx %s, tx %s",
			n->ethtool.rx_pause.v ? "on" : "off",
			n->ethtool.tx_pause.v ? "on" : "off");
	if (m.prio >= 0)
		pfc_counters(x, r, dcb, m.prio);
	if (m.pcp_untagged && rd_qos_lossless(&m, 0) == RD_QOS_LOSSY) {
		diag_verdict(x, r, RD_FAIL, "pcp_untagged",
			     "%s: trust pcp, but RoCE leaves untagged and carries no PCP: "
			     "it is received on priority 0, which is lossy (PFC is on %s)",
			     nd, list);
		diag_next(x, r,
			  "trust DSCP instead (dcb app / mlnx_qos --trust dscp) with a DSCP "
			  "mapped to the lossless priority, or run RoCE over a VLAN device whose "
			  "egress map gives that PCP");
		return;
	}
	if (m.pcp_untagged && rd_qos_lossless(&m, 0) != RD_QOS_LL_UNKNOWN) {
		diag_verdict(x, r, RD_WARN, "pcp_untagged",
			     "%s: trust pcp and RoCE untagged: priority 0 is lossless, "
			     "and with it every untagged packet of the port",
			     nd);
		diag_next(x, r,
			  "trust DSCP (or tag RoCE with a VLAN) so that only RoCE is lossless");
		return;
	}
	if (m.prio >= 0) {
		pfc_single(x, r, nd, &m, list);
		return;
	}
	if (m.candidates) {
		pfc_candidates(x, r, nd, n, &m);
		return;
	}
	diag_verdict(x, r, RD_UNKNOWN, "no_data",
		     "%s: the priority RoCE uses is not known: %s", nd,
		     m.why[0] ? m.why : "no mapping to judge");
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
			x->h, d->name, p->port, RD_CTR_HW, names[i]);
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

void check_qos_ecn(struct diag_ctx *x, const struct diag_target *t,
		   struct rd_result *r)
{
	const char *nd = t->netdev;
	const struct rd_netdev *n = t->n;
	struct rd_qos_model m;
	unsigned judge = 0, on = 0, half = 0, unread = 0;
	char list[32], offl[32];
	bool active;

	if (no_netdev(x, r, t))
		return;
	if (x->s->host.tcp_ecn.ok)
		diag_ev(x, r, "net.ipv4.tcp_ecn (TCP only, information)",
			"/proc/sys/net/ipv4/tcp_ecn", "%" PRId64,
			x->s->host.tcp_ecn.v);
	active = cnp_rising(x, t->d, t->p, r);
	if (!n->ecn.present.ok || !n->ecn.present.v) {
		if (active)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: CNP counters rising, DCQCN is active", nd);
		else if (!n->ecn.present.ok)
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: ECN state not read", nd);
		else
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: no /sys/class/net/%s/ecn (not an mlx5 NIC with that interface)",
				     nd, nd);
		return;
	}
	rd_qos_derive(x->s, t->d, t->p, n, &m);
	qos_evidence(x, r, n, &m);
	/* The derived priority; else the lossless candidates; else all. */
	if (m.prio >= 0) {
		judge = 1u << m.prio;
	} else {
		for (int i = 0; i < RD_QOS_NPRIO; i++)
			if ((m.candidates & (1u << i)) &&
			    (rd_qos_lossless(&m, i) == RD_QOS_BY_PFC ||
			     rd_qos_lossless(&m, i) == RD_QOS_BY_PAUSE))
				judge |= 1u << i;
		if (!judge)
			judge = m.candidates;
	}
	/* Priority not known: ECN on for every priority still answers. */
	if (!judge)
		judge = 0xff;
	for (int i = 0; i < RD_QOS_NPRIO; i++) {
		const struct rd_counter *np, *rp;
		char key[16], src[96];

		if (!(judge & (1u << i)))
			continue;
		snprintf(key, sizeof(key), "prio%d", i);
		np = rd_counters_find(&n->ecn.np_enable, key);
		rp = rd_counters_find(&n->ecn.rp_enable, key);
		if (!np || !rp || !np->value.ok || !rp->value.ok) {
			unread |= 1u << i;
			continue;
		}
		snprintf(src, sizeof(src),
			 "/sys/class/net/<netdev>/ecn/roce_{np,rp}/enable/%d", i);
		diag_ev(x, r, "ECN enable (roce_np / roce_rp)", src,
			"prio %d: %" PRIu64 " / %" PRIu64, i, np->value.v,
			rp->value.v);
		if (np->value.v && rp->value.v)
			on |= 1u << i;
		else if (np->value.v || rp->value.v)
			half |= 1u << i;
	}
	rd_qos_prio_list(judge, list, sizeof(list));
	if (judge == 0xff && m.prio < 0 && !m.candidates && on != judge &&
	    !active) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: the priority RoCE uses is not known (%s), and ECN is not on for every priority",
			     nd, m.why[0] ? m.why : "no mapping to judge");
		return;
	}
	if (on == judge || (active && !(judge & ~on & ~unread))) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: ECN on for priority %s%s", nd, list,
			     active ? ", CNPs flowing" : "");
		return;
	}
	if (active) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: CNP counters rising, DCQCN is active", nd);
		return;
	}
	/* Every priority read is on: the rest were not read. */
	if (unread && !(judge & ~on & ~unread)) {
		rd_qos_prio_list(judge & unread, offl, sizeof(offl));
		diag_verdict(
			x, r, RD_UNKNOWN, "no_data",
			"%s: ECN enable for priority %s not read (needs root?)",
			nd, offl);
		return;
	}
	rd_qos_prio_list(judge & ~on & ~unread, offl, sizeof(offl));
	diag_verdict(x, r, RD_WARN, "ecn_off",
		     "%s: ECN %s for RoCE priority %s", nd,
		     half ? "only half on" : "off", offl);
	{
		/* The whole commands, for the first priority that is off. */
		unsigned off = judge & ~on & ~unread;
		int p = 0;
		char q[300];

		while (p < 7 && !(off & (1u << p)))
			p++;
		snprintf(q, sizeof(q), "%s", rd_shquote_tmp(nd));
		diag_next(x, r,
			  "enable roce_np and roce_rp for priority %s, e.g. "
			  "for %d: echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d; "
			  "echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/%d; "
			  "and ECN marking on the switch",
			  offl, p, q, p, q, p);
	}
}

void check_net_udp4791(struct diag_ctx *x, const struct diag_target *t,
		       struct rd_result *r)
{
	const struct rd_device *d = t->d;

	if (!diag_device_is_soft(d)) {
		/* Hardware is known by its PCI function or its driver. */
		if (!diag_have(x, r, d->pci_bdf || d->driver,
			       "%s: neither its PCI function nor its driver was "
			       "read: hardware or Soft-RoCE not known",
			       d->name))
			return;
		diag_ev(x, r, "device", "sysfs", "%s: hardware (%s)", d->name,
			d->pci_bdf ? d->pci_bdf : d->driver);
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: hardware RoCE bypasses the host firewall",
			     d->name);
		return;
	}
	diag_ev(x, r, "device", "sysfs", "%s: software RoCE", d->name);
	diag_verdict(x, r, RD_UNKNOWN, "no_data",
		     "%s: firewall rules not read (no nftables data); Soft-RoCE needs UDP 4791 open",
		     d->name);
	diag_next(x, r,
		  "check that no nftables/iptables rule drops UDP 4791 on both hosts");
}

void check_rdma_cm_roce_mode(struct diag_ctx *x, const struct diag_target *t,
			     struct rd_result *r)
{
	const struct rd_device *d = t->d;
	const struct rd_port *p = t->p;
	const struct rd_host *hst = &x->s->host;
	const struct rd_cm_port *cm = NULL;

	for (size_t i = 0; i < hst->n_cm_ports; i++)
		if (hst->cm_ports[i].device &&
		    strcmp(hst->cm_ports[i].device, d->name) == 0 &&
		    hst->cm_ports[i].port.ok && hst->cm_ports[i].port.v == p->port)
			cm = &hst->cm_ports[i];
	if (!diag_have(x, r, cm && cm->default_roce_mode,
		       "%s/%" PRIu64 ": rdma_cm configfs not read (configfs not mounted or rdma_cm not loaded)",
		       d->name, p->port))
		return;
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
