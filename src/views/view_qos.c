// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QoS of the selected port's netdev: the priority RoCE uses (the QoS
 * model's chain of evidence), PFC per priority with pause rates, ETS per
 * traffic class, trust, the DSCP map, ECN per priority and the
 * congestion-notification counters -- or why the driver shows none.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "diag/qos_model.h"
#include "views/ui.h"

static struct w_page page;

static const char *tsa_name(uint64_t tsa)
{
	/* IEEE 802.1Qaz transmission selection algorithms. */
	switch (tsa) {
	case 0:
		return "strict";
	case 1:
		return "cbs";
	case 2:
		return "ets";
	case 255:
		return "vendor";
	default:
		return "?";
	}
}

static bool prio_value(const struct rd_counters *c, const char *prefix, int i,
		       uint64_t *v)
{
	char key[32];
	const struct rd_counter *x;

	snprintf(key, sizeof(key), "%s%d", prefix, i);
	x = rd_counters_find(c, key);
	if (!x || !x->value.ok)
		return false;
	*v = x->value.v;
	return true;
}

static void rate_of(struct ui *ui, const char *ifname, const char *stat,
		    char *buf, size_t size)
{
	const struct rd_series *s =
		rd_history_netdev(&ui->st.hist, ifname, stat);
	double r;

	if (!s) {
		snprintf(buf, size, "-");
		return;
	}
	if (!rd_series_rate(s, RD_RATE_WINDOW, &r)) {
		snprintf(buf, size, "...");
		return;
	}
	w_fmt_si(r, buf, size);
}

/* Which priority RoCE packets carry, and how the model knows. */
static void roce_prio(const struct rd_qos_model *m)
{
	char list[32];

	w_lines_add(&page.lines, W_HEAD, "Priority RoCE uses");
	if (m->chain[0])
		w_lines_add(&page.lines, W_NORMAL, "  %s", rd_esc_tmp(m->chain));
	if (m->ambiguous || m->prio < 0) {
		rd_qos_prio_list(m->candidates, list, sizeof(list));
		w_lines_add(&page.lines, W_WARN, "  %s: %s",
			    m->ambiguous ? "not one priority (candidates marked ?)" :
					   "not known",
			    rd_esc_tmp(m->why[0] ? m->why : "no mapping to judge"));
	}
	if (m->pause_known)
		w_lines_add(&page.lines, W_NORMAL,
			    "  global pause (IEEE 802.3x) rx+tx: %s",
			    m->pause_on ? "on (with PFC off: lossless for all traffic of the port)" :
					  "off");
}

static void pfc(struct ui *ui, const struct rd_netdev *nd,
		const struct rd_qos_model *m)
{
	const struct rd_dcb *dcb = &nd->dcb;

	char cap[24] = "N/A", delay[24] = "N/A";

	w_fmt_ou64(dcb->pfc_cap, cap, sizeof(cap));
	w_fmt_ou64(dcb->pfc_delay, delay, sizeof(delay));
	w_lines_add(&page.lines, W_HEAD, "PFC (priority flow control)");
	if (dcb->pfc_en.ok)
		w_lines_add(&page.lines, W_NORMAL,
			    "  enabled mask 0x%02" PRIx64 "   capability %s   "
			    "delay %s",
			    dcb->pfc_en.v, cap, delay);
	/* Two per-second rates, then two totals since the driver started. */
	w_lines_add(&page.lines, W_HEAD, "  %-5s %-5s %-4s %21s  %27s", "", "", "",
		    "PAUSE RATE (ethtool)", "TOTAL SINCE START (dcbnl)");
	w_lines_add(&page.lines, W_HEAD, "  %-5s %-5s %-4s %10s %10s  %13s %13s",
		    "PRIO", "RoCE", "PFC", "rx/s", "tx/s", "requests",
		    "indications");
	for (int i = 0; i < 8; i++) {
		char rx[24], tx[24], st[40], req[24] = "-", ind[24] = "-";
		bool on = dcb->pfc_en.ok && (dcb->pfc_en.v >> i) & 1;
		uint64_t v;

		snprintf(st, sizeof(st), "rx_prio%d_pause", i);
		rate_of(ui, nd->name, st, rx, sizeof(rx));
		snprintf(st, sizeof(st), "tx_prio%d_pause", i);
		rate_of(ui, nd->name, st, tx, sizeof(tx));
		if (prio_value(&dcb->pfc_requests, "prio", i, &v))
			snprintf(req, sizeof(req), "%" PRIu64, v);
		if (prio_value(&dcb->pfc_indications, "prio", i, &v))
			snprintf(ind, sizeof(ind), "%" PRIu64, v);
		w_lines_add(&page.lines, on ? W_GOOD : W_NORMAL,
			    "  %-5d %-5s %-4s %10s %10s  %13s %13s", i,
			    m->prio == i ? "yes" :
			    (m->candidates >> i) & 1 ? "?" : "",
			    !dcb->pfc_en.ok ? "N/A"
			    : on	    ? "on"
					    : "off",
			    rx, tx, req, ind);
	}
}

static void ets(const struct rd_netdev *nd)
{
	const struct rd_dcb *dcb = &nd->dcb;

	w_lines_add(
		&page.lines, W_HEAD, "ETS (traffic classes)%s",
		dcb->ets_willing.ok
			? (dcb->ets_willing.v ? "   willing" : "   not willing")
			: "");
	if (!dcb->ets_tc_bw.n && !dcb->ets_prio_tc.n) {
		w_lines_add(&page.lines, W_DIM, "  no ETS configuration read");
		return;
	}
	w_lines_add(&page.lines, W_HEAD, "  %-4s %-8s %-6s %s", "TC", "TSA", "BW%",
		    "PRIORITIES");
	for (int tc = 0; tc < 8; tc++) {
		uint64_t bw = 0, tsa = 0, m;
		bool has_bw = prio_value(&dcb->ets_tc_bw, "tc", tc, &bw);
		bool has_tsa = prio_value(&dcb->ets_tc_tsa, "tc", tc, &tsa);
		char prios[64] = "", bwt[16] = "-";
		size_t len = 0;

		for (int p = 0; p < 8; p++)
			if (prio_value(&dcb->ets_prio_tc, "prio", p, &m) &&
			    m == (uint64_t)tc)
				len += (size_t)snprintf(
					prios + len, sizeof(prios) - len,
					"%s%d", len ? "," : "", p);
		/* A class with no bandwidth and no priority says nothing. */
		if ((!has_bw || !bw) && !len)
			continue;
		if (has_bw)
			snprintf(bwt, sizeof(bwt), "%" PRIu64, bw);
		w_lines_add(&page.lines, W_NORMAL, "  %-4d %-8s %-6s %s", tc,
			    has_tsa ? tsa_name(tsa) : "-", bwt,
			    len ? prios : "-");
	}
}

static void trust_dscp(const struct rd_netdev *nd)
{
	const struct rd_dcb *dcb = &nd->dcb;
	int shown = 0;

	w_lines_add(&page.lines, W_HEAD, "Trust and DSCP map");
	w_lines_add(&page.lines, dcb->trust ? W_NORMAL : W_DIM, "  trust %s%s%s%s",
		    rd_esc_tmp(dcb->trust ? dcb->trust : "N/A"),
		    dcb->trust_source ? " (from " : "",
		    dcb->trust_source ? rd_esc_tmp(dcb->trust_source) : "",
		    dcb->trust_source ? ")" : "");
	/* The DSCP APP table per priority: "prio 3  DSCP 24-31". */
	for (int prio = 0; prio < RD_QOS_NPRIO; prio++) {
		char dscps[200];

		rd_qos_dscps_of(nd, prio, dscps, sizeof(dscps));
		if (!dscps[0])
			continue;
		w_lines_add(&page.lines, W_NORMAL, "  prio %d  DSCP %s", prio, dscps);
		shown++;
	}
	if (!shown)
		w_lines_add(&page.lines, W_DIM,
			    "  no DSCP entries in the DCB app table");
}

static void ecn(struct ui *ui, const struct rd_device *d,
		const struct rd_port *p, const struct rd_netdev *nd)
{
	static const char *const cnp[] = { "np_cnp_sent", "rp_cnp_handled",
					   "rp_cnp_ignored",
					   "np_ecn_marked_roce_packets" };
	const struct rd_ecn *e = &nd->ecn;

	w_lines_add(&page.lines, W_HEAD, "ECN for RoCE (DCQCN)");
	if (!e->present.ok || !e->present.v) {
		w_lines_add(&page.lines, W_DIM,
			    "  %s/ecn not present (the inbox mlx5 driver does "
			    "not expose it; the CNP counters below still tell)",
			    ui_str(nd->name));
	} else {
		w_lines_add(&page.lines, W_HEAD, "  %-5s %-10s %-10s", "PRIO",
			    "NP(recv)", "RP(send)");
		for (int i = 0; i < 8; i++) {
			uint64_t np = 0, rp = 0;
			bool hn = prio_value(&e->np_enable, "prio", i, &np);
			bool hr = prio_value(&e->rp_enable, "prio", i, &rp);

			w_lines_add(&page.lines, W_NORMAL, "  %-5d %-10s %-10s", i,
				    hn ? (np ? "on" : "off") : "N/A",
				    hr ? (rp ? "on" : "off") : "N/A");
		}
	}
	w_lines_add(&page.lines, W_HEAD, "  %-28s %14s %10s", "CNP COUNTER", "VALUE",
		    "RATE/s");
	for (size_t i = 0; i < sizeof(cnp) / sizeof(cnp[0]); i++) {
		const struct rd_counter *c =
			rd_counters_find(&p->hw_counters, cnp[i]);
		const struct rd_series *s = rd_history_port(
			&ui->st.hist, d->name, p->port, RD_CTR_HW, cnp[i]);
		char v[24] = "N/A", r[24] = "-";
		double rate;

		if (c && c->value.ok)
			snprintf(v, sizeof(v), "%" PRIu64, c->value.v);
		if (rd_series_rate(s, RD_RATE_WINDOW, &rate))
			w_fmt_si(rate, r, sizeof(r));
		w_lines_add(&page.lines, c ? W_NORMAL : W_DIM, "  %-28s %14s %10s",
			    cnp[i], v, r);
	}
}

static void qos_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	const struct rd_netdev *nd = ui_port_netdev(ui, p);

	w_lines_reset(&page.lines);
	if (!d || !p) {
		w_print(r, 0, 1, W_DIM,
			d ? "No port of this device could be read: no QoS to "
			    "show."
			  : "No port selected: no RDMA devices.");
		return;
	}
	w_lines_add(&page.lines, W_HEAD, "QoS of %s port %" PRIu64 " (netdev %s)",
		    ui_str(d->name), p->port, ui_str(p->netdev));
	if (!nd) {
		w_lines_add(&page.lines, W_DIM,
			    rd_port_is_ib(p)
				    ? "  InfiniBand port: QoS is set by the "
				      "subnet manager (SL/VL), not DCB."
				    : "  No netdev behind this port: nothing "
				      "to show.");
		w_page_draw(&page, r);
		return;
	}
	for (size_t i = 0; ui->st.have_results && i < ui->st.results.n; i++) {
		const struct rd_result *res = &ui->st.results.v[i];

		if (!res->check_id || strncmp(res->check_id, "qos.", 4) ||
		    !res->netdev || strcmp(res->netdev, nd->name))
			continue;
		w_lines_add(&page.lines, ui_verdict_style(res->verdict), "  %-7s %s",
			    rd_verdict_name(res->verdict),
			    ui_str(res->summary));
	}
	w_lines_add(&page.lines, W_NORMAL, " ");
	if (!nd->dcb.supported.ok) {
		/* Not read is not "not supported": say which it is. */
		w_lines_add(&page.lines, W_WARN, "  DCB state not read: %s.",
			    rd_esc_tmp(nd->dcb.reason
					       ? nd->dcb.reason
					       : ui->o.roots &&
							 ui->o.roots->redirected
					       ? "a tree of files has no dcbnl "
						 "to ask"
					       : "no dcbnl answer"));
		w_lines_add(&page.lines, W_DIM,
			    "  PFC, ETS and trust are not known, which does not "
			    "mean unsupported.");
		w_lines_add(&page.lines, W_NORMAL, " ");
	} else if (!nd->dcb.supported.v) {
		w_lines_add(
			&page.lines, W_WARN,
			"  This driver exposes no DCB (dcbnl): PFC, ETS and "
			"trust cannot be read here%s%s.",
			nd->dcb.reason ? ": " : "",
			nd->dcb.reason ? rd_esc_tmp(nd->dcb.reason) : "");
		w_lines_add(&page.lines, W_DIM,
			    "  Soft-RoCE and virtual NICs have none; lossless "
			    "RoCE then depends on the switch and the peer.");
		w_lines_add(&page.lines, W_NORMAL, " ");
	} else {
		struct rd_qos_model m;

		rd_qos_derive(&ui->st.snap, d, p, nd, &m);
		roce_prio(&m);
		w_lines_add(&page.lines, W_NORMAL, " ");
		pfc(ui, nd, &m);
		w_lines_add(&page.lines, W_NORMAL, " ");
		ets(nd);
		w_lines_add(&page.lines, W_NORMAL, " ");
		trust_dscp(nd);
		w_lines_add(&page.lines, W_NORMAL, " ");
	}
	ecn(ui, d, p, nd);
	w_page_draw(&page, r);
}

static const struct ui_action qos_actions[] = {
	UI_ACTION_SCROLL("Up/Down scroll  < > port", "scroll the page"),
	{ NULL, NULL, NULL, NULL },
};

static const char qos_help[] =
	"QoS of the selected port's netdev: the priority RoCE "
	"packets carry and how it follows from the trust mode, the "
	"DSCP map, rdma_cm's ToS and the VLAN egress map; PFC per priority "
	"(enabled, pause frames per second received and sent, and the "
	"PFC frames counted by dcbnl since the driver started), ETS "
	"per traffic class (algorithm, bandwidth, priorities), trust "
	"mode and the DSCP-to-priority map, ECN per priority and the "
	"congestion notification (CNP) counters. When the driver has "
	"no DCB support the screen says so instead of guessing, and "
	"when DCB simply was not read it says that.";
UI_PAGE_SCREEN(view_qos_screen, "QoS", "QoS", 5, 'd', RD_LAYOUT_FULL, qos_draw,
	       qos_actions, qos_help, &page);
