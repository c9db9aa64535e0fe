// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Does the PCIe link, rather than the network link, bound what a port can
 * move? Judged with the rate model (core/rate.h) at the device's
 * MaxPayload; one result per port of a PCI device.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/rate.h"

#define SRC_PCIE "libpci (PCIe capability)"
#define SRC_TOPO "sysfs current_link_*/max_link_* of the bridges above"

static void evidence(struct diag_ctx *x, struct rd_result *r,
		     const struct rd_rate *m)
{
	diag_ev(x, r, "link", m->ethernet ? "ethtool speed and lanes" :
					    "sysfs ports/<n>/rate",
		"%.2f Gb/s of data (%" PRIu64 " x %s, %s)", m->link_gbps,
		m->lanes, m->lane_name ? m->lane_name : "?",
		m->encoding ? m->encoding : "encoding unknown");
	if (m->mtu_ok)
		diag_ev(x, r, "payload at the MTU", "active_mtu",
			"%.2f Gb/s at %" PRIu64 " B packets (%u B of headers each)",
			m->link_payload_gbps, m->mtu,
			rd_rate_packet_overhead(m->ethernet));
	diag_ev(x, r, "PCIe now", SRC_PCIE,
		"%.1f GT/s x%" PRIu64 ", %s: %.2f Gb/s of payload%s",
		m->pcie_gts, m->pcie_width, rd_rate_pcie_encoding(m->pcie_gts),
		m->pcie_gbps,
		m->pcie_upper_bound ? " at most (MaxPayload not read)" : "");
	if (m->max_payload)
		diag_ev(x, r, "MaxPayload", "PCIe Device Control",
			"%" PRIu64 " B per TLP (24 B of TLP overhead each)",
			m->max_payload);
	if (m->max_read_req)
		diag_ev(x, r, "MaxReadReq", "PCIe Device Control",
			"%" PRIu64 " B per read request", m->max_read_req);
	if (m->cap_width)
		diag_ev(x, r, "PCIe capable", SRC_PCIE,
			"%.1f GT/s x%" PRIu64 ": %.2f Gb/s of payload%s",
			m->cap_gts, m->cap_width, m->pcie_cap_gbps,
			m->pcie_upper_bound ? " at most" : "");
	if (m->uplink_ok) {
		char cap[64] = "";

		if (m->uplink_cap_width)
			snprintf(cap, sizeof(cap),
				 " (capable of %.1f GT/s x%" PRIu64 ")",
				 m->uplink_cap_gts, m->uplink_cap_width);
		diag_ev(x, r, "PCIe above the card", SRC_TOPO,
			"%s's link %.1f GT/s x%" PRIu64 "%s: %.2f Gb/s of "
			"payload%s, the narrowest between the card and its "
			"root port",
			m->uplink_bdf, m->uplink_gts, m->uplink_width, cap,
			m->uplink_gbps, m->pcie_upper_bound ? " at most" : "");
	}
	if (m->uplink_emulated)
		diag_ev(x, r, "PCIe above the card", SRC_TOPO,
			"%" PRIu64 " emulated bridge%s (a virtual machine's): "
			"their links are made up and not counted",
			m->uplink_emulated, m->uplink_emulated == 1 ? "" : "s");
}

/* Same domain, bus and device: the functions of one card share its link. */
static bool same_card(const char *a, const char *b)
{
	const char *da = a ? strrchr(a, '.') : NULL;
	const char *db = b ? strrchr(b, '.') : NULL;

	return da && db && da - a == db - b && strncmp(a, b, (size_t)(da - a)) == 0;
}

/*
 * The other ACTIVE ports on the same card: what all of them at once need
 * from the shared link. Information, not a verdict: dual-port cards are
 * sold with less PCIe than both ports' sum.
 */
static void shared_link(struct diag_ctx *x, struct rd_result *r,
			const struct rd_device *d, const struct rd_port *p,
			const struct rd_rate *m, double need)
{
	const struct rd_snapshot *s = x->s;
	double sum = need;
	char names[160] = "";
	size_t used = 0, n = 0;

	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *o = &s->devices[i];

		if (!same_card(o->pci_bdf, d->pci_bdf))
			continue;
		for (size_t k = 0; k < o->n_ports; k++) {
			const struct rd_port *op = &o->ports[k];
			struct rd_rate om;
			int w;

			if (op == p || !rd_port_active(op) ||
			    rd_rate_port(s, o->name, op->port, &om) < 0 ||
			    !om.link_ok)
				continue;
			sum += om.mtu_ok ? om.link_payload_gbps : om.link_gbps;
			w = snprintf(names + used, sizeof(names) - used, "%s%s/%" PRIu64,
				     n ? ", " : "", o->name, op->port);
			if (w > 0 && (size_t)w < sizeof(names) - used)
				used += (size_t)w;
			n++;
		}
	}
	if (n)
		diag_ev(x, r, "shared PCIe link", "PCI addresses of the card",
			"with %s: all %zu ports at once need %.2f Gb/s, the link "
			"carries %.2f Gb/s",
			names, n + 1, sum, m->pcie_gbps);
}

/*
 * The card's own link would do, but a link above it (a PCIe switch's
 * upstream port, shared with whatever else hangs below that switch)
 * carries less than the port's link.
 */
static void uplink_limits(struct diag_ctx *x, struct rd_result *r,
			  const struct diag_target *t, const struct rd_rate *m,
			  double need)
{
	diag_verdict(x, r, RD_WARN, "pcie_uplink_limits",
		     "%s: the PCIe link above the card, at %s, is %.1f GT/s "
		     "x%" PRIu64 " and carries %.2f Gb/s, less than the link's "
		     "%.2f Gb/s (the card's own PCIe %.1f GT/s x%" PRIu64
		     " would carry %.2f Gb/s)",
		     t->name, m->uplink_bdf, m->uplink_gts, m->uplink_width,
		     m->uplink_gbps, need, m->pcie_gts, m->pcie_width,
		     m->pcie_gbps);
	if (m->uplink_cap_width && m->uplink_cap_gbps > m->uplink_gbps * 1.01)
		diag_next(x, r,
			  "the link at %s can do %.1f GT/s x%" PRIu64
			  " (%.2f Gb/s) but trained lower: check the PCIe "
			  "switch's uplink (riser, cable or retimer) and the "
			  "BIOS PCIe settings of its slot, then reseat; every "
			  "device below that switch shares the link",
			  m->uplink_bdf, m->uplink_cap_gts, m->uplink_cap_width,
			  m->uplink_cap_gbps);
	else
		diag_next(x, r,
			  "the link at %s is built that way: expect at most "
			  "%.2f Gb/s from this port, shared with every device "
			  "below %s; a slot on a root port or a wider switch "
			  "would lift it",
			  m->uplink_bdf, m->uplink_gbps, m->uplink_bdf);
}

void check_hw_pcie_bandwidth(struct diag_ctx *x, const struct diag_target *t,
			     struct rd_result *r)
{
	const struct rd_port *p = t->p;
	struct rd_rate m;
	double need, worst, bound, gts;
	uint64_t width;
	bool up;

	if (!rd_port_active(p)) {
		diag_ev(x, r, "port state", "sysfs ports/<n>/state", "%s",
			p->state_num.ok && p->state ? p->state : "not read");
		if (!diag_have(x, r, p->state_num.ok,
			       "%s: port state not read: its link rate is not "
			       "known to be settled", t->name))
			return;
		diag_verdict(x, r, RD_UNKNOWN, "port_not_active",
			     "%s is not ACTIVE: its link rate is not "
			     "settled", t->name);
		return;
	}
	if (rd_rate_port(x->s, t->d->name, p->port, &m) < 0 || !m.link_ok) {
		diag_ev(x, r, "port rate", "sysfs ports/<n>/rate",
			"%s", p->rate_text ? p->rate_text : "not read");
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: link data rate not known (speed %s, "
			     "width %s)",
			     t->name, p->speed ? p->speed : "?",
			     p->width ? p->width : "?");
		return;
	}
	if (!diag_have(x, r, m.pcie_ok, "%s: PCIe link of %s not read", t->name,
		       t->d->pci_bdf ? t->d->pci_bdf : "the device"))
		return;
	evidence(x, r, &m);
	need = m.mtu_ok ? m.link_payload_gbps : m.link_gbps;
	shared_link(x, r, t->d, p, &m, need);
	up = m.uplink_ok && m.uplink_gbps < m.pcie_gbps;
	gts = up ? m.uplink_gts : m.pcie_gts;
	width = up ? m.uplink_width : m.pcie_width;
	bound = rd_rate_pcie_bound(&m);
	if (bound >= need) {
		/* A bound: the smallest MaxPayload must still do. */
		worst = m.pcie_upper_bound ? rd_rate_pcie_gbps(gts, width, 128,
							       false, NULL)
					   : bound;
		if (worst < need) {
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: PCIe %.1f GT/s x%" PRIu64
				     "%s%s carries %.2f to %.2f Gb/s "
				     "depending on MaxPayload (not read; needs "
				     "root), "
				     "the link %.2f Gb/s",
				     t->name, gts, width,
				     up ? " above the card at " : "",
				     up ? m.uplink_bdf : "", worst, bound,
				     need);
			return;
		}
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: PCIe carries %.2f Gb/s, more than the "
			     "link's %.2f Gb/s",
			     t->name, worst, need);
		return;
	}
	if (up) {
		uplink_limits(x, r, t, &m, need);
		return;
	}
	diag_verdict(x, r, RD_WARN, "pcie_limits",
		     "%s: PCIe %.1f GT/s x%" PRIu64 " carries %.2f Gb/s, "
		     "less than the link's %.2f Gb/s",
		     t->name, m.pcie_gts, m.pcie_width, m.pcie_gbps,
		     need);
	if (m.cap_width && m.pcie_cap_gbps > m.pcie_gbps * 1.01)
		diag_next(x, r,
			  "the card can do %.1f GT/s x%" PRIu64 " (%.2f Gb/s): "
			  "check the slot's electrical width and "
			  "generation, the riser and the BIOS PCIe "
			  "settings, then reseat the card",
			  m.cap_gts, m.cap_width, m.pcie_cap_gbps);
	else
		diag_next(x, r,
			  "the card's own PCIe (%.1f GT/s x%" PRIu64 ") is "
			  "the bound: expect at most %.2f Gb/s from this "
			  "port",
			  m.pcie_gts, m.pcie_width, m.pcie_gbps);
}
