// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reachable data rate of a port. Sources of the figures:
 *
 * InfiniBand lanes (IBTA Architecture Specification vol. 2, physical
 * layer; tabulated at https://infiniband.jp/2022/06/01/infiband-%E8%A6%8F
 * %E6%A0%BC/ and https://www.advancedclustering.com/act_kb/infiniband-
 * types-speeds/): SDR/DDR/QDR signal 2.5/5/10 Gb/s with 8b/10b; FDR10
 * 10.3125 and FDR 14.0625 Gb/s with 64b/66b; EDR 25.78125 Gb/s with
 * 64b/66b; HDR 53.125 and NDR 106.25 Gb/s (PAM4, 26.5625 and 53.125 GBd)
 * with 256b/257b transcoding and RS(544,514) FEC, which leaves 50 and 100.
 *
 * Ethernet lanes (IEEE 802.3 clauses 36, 49, 82, 107-109, 134-135, 162):
 * 1000BASE-X 1.25 GBd 8b/10b; 10/25/40/100G NRZ lanes 10.3125 or 25.78125
 * Gb/s with 64b/66b (RS(528,514) FEC on 25G lanes keeps that rate through
 * 256b/257b transcoding); 50/100/200 G per lane PAM4 at 53.125, 106.25,
 * 212.5 Gb/s with 256b/257b and RS(544,514). The MAC rate (ethtool's
 * speed) is what is left for frames.
 *
 * PCIe (PCI Express Base Specification; Intel AN 708 "Understanding PCI
 * Express throughput", https://www.intel.com/content/www/us/en/docs/
 * programmable/683390/; PLX PEX 8532 data book 8.4.1, "PCI Express
 * efficiency upper bound"): 2.5/5 GT/s use
 * 8b/10b, 8/16/32 GT/s 128b/130b. A TLP costs 24 bytes besides its payload:
 * framing (STP/END, or the 4-byte STP token from 8 GT/s on), a 2-byte
 * sequence number where framing does not hold it, a 16-byte header (64-bit
 * addresses) and the 4-byte LCRC. Each TLP the other direction sends costs
 * this direction an ACK and an UpdateFC DLLP, 8 bytes each with framing.
 * 64 GT/s uses 256-byte FLITs of which 236 bytes carry TLPs (the rest:
 * data-link payload, CRC, FEC); a TLP then costs its header only.
 *
 * Packet overhead: RoCE v2 (IBTA annex A17) carries per packet 8 bytes of
 * preamble and SFD, 12 of inter-frame gap, a 14-byte MAC header, 20 IPv4,
 * 8 UDP, 12 BTH, 4 ICRC and a 4-byte FCS; InfiniBand an 8-byte LRH, 12 BTH,
 * 4 ICRC and 2 VCRC. The RETH of a WRITE's first packet and an
 * occasional ACK are left out: less than 0.5 % at 64 KiB messages.
 */
#include "config.h"
#include "core/rate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/topo.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define ENC_8B10B "8b/10b"
#define ENC_64B66B "64b/66b"
#define ENC_PAM4 "PAM4, 256b/257b + RS(544,514) FEC"

/* 256b/257b transcoding with RS(544,514) FEC: 53.125 -> 50 Gb/s. */
#define PAM4_EFF (514.0 / 544.0 * 256.0 / 257.0)

static const struct rd_rate_lane ib_lanes[] = {
	{ "SDR", 2.5, 2.5 * 8 / 10, ENC_8B10B },
	{ "DDR", 5.0, 5.0 * 8 / 10, ENC_8B10B },
	{ "QDR", 10.0, 10.0 * 8 / 10, ENC_8B10B },
	{ "FDR10", 10.3125, 10.3125 * 64 / 66, ENC_64B66B },
	{ "FDR", 14.0625, 14.0625 * 64 / 66, ENC_64B66B },
	{ "EDR", 25.78125, 25.78125 * 64 / 66, ENC_64B66B },
	{ "HDR", 53.125, 53.125 * PAM4_EFF, ENC_PAM4 },
	{ "NDR", 106.25, 106.25 * PAM4_EFF, ENC_PAM4 },
	{ "XDR", 212.5, 212.5 * PAM4_EFF, ENC_PAM4 },
};

/* Keyed by data rate per lane, Gb/s. */
static const struct rd_rate_lane eth_lanes[] = {
	{ "1G", 1.25, 1.0, ENC_8B10B },
	{ "10G", 10.3125, 10.0, ENC_64B66B },
	{ "25G", 25.78125, 25.0, ENC_64B66B },
	{ "50G PAM4", 53.125, 50.0, ENC_PAM4 },
	{ "100G PAM4", 106.25, 100.0, ENC_PAM4 },
	{ "200G PAM4", 212.5, 200.0, ENC_PAM4 },
};

const char *rd_rate_limit_name(enum rd_rate_limit l)
{
	switch (l) {
	case RD_RATE_LIMIT_LINK:
		return "link";
	case RD_RATE_LIMIT_PCIE:
		return "PCIe";
	case RD_RATE_LIMIT_MTU:
		return "MTU";
	default:
		return "unknown";
	}
}

const struct rd_rate_lane *rd_rate_ib_lane(const char *speed)
{
	if (!speed)
		return NULL;
	for (size_t i = 0; i < N(ib_lanes); i++)
		if (strcmp(speed, ib_lanes[i].name) == 0)
			return &ib_lanes[i];
	return NULL;
}

static const struct rd_rate_lane *eth_lane_of(double lane_gbps)
{
	for (size_t i = 0; i < N(eth_lanes); i++)
		if (fabs(eth_lanes[i].data_gbps - lane_gbps) < 0.01)
			return &eth_lanes[i];
	return NULL;
}

const struct rd_rate_lane *rd_rate_eth_lane(uint64_t speed_mbps,
					    uint64_t lanes)
{
	double g = (double)speed_mbps / 1000.0;

	if (speed_mbps == 0 || speed_mbps > 10000000)
		return NULL;
	if (lanes)
		return eth_lane_of(g / (double)lanes);
	/* Without the lane count: the speeds that have one usual form. */
	switch (speed_mbps) {
	case 1000:
		return eth_lane_of(1);
	case 10000:
	case 40000:
		return eth_lane_of(10);
	case 25000:
		return eth_lane_of(25);
	case 400000:
	case 800000:
		return eth_lane_of(100);
	default:
		return NULL; /* 50/100/200G exist as NRZ and PAM4 lanes */
	}
}

const char *rd_rate_pcie_encoding(double gts)
{
	if (gts == 2.5 || gts == 5.0)
		return "8b/10b";
	if (gts == 8.0 || gts == 16.0 || gts == 32.0)
		return "128b/130b";
	if (gts == 64.0)
		return "1b/1b FLIT";
	return NULL;
}

#define TLP_OVERHEAD 24.0
#define TLP_HEADER 16.0
#define DLLP_PER_TLP 16.0

double rd_rate_pcie_gbps(double gts, uint64_t width, uint64_t max_payload,
			 bool bidir, bool *upper_bound)
{
	double raw, per_tlp, mps;
	bool flit = gts == 64.0;

	if (upper_bound)
		*upper_bound = max_payload == 0;
	if (width == 0 || width > 32 || !rd_rate_pcie_encoding(gts))
		return 0;
	if (max_payload != 0 &&
	    (max_payload < 128 || max_payload > 4096 ||
	     (max_payload & (max_payload - 1))))
		return 0;
	mps = max_payload ? (double)max_payload : 4096.0;
	if (gts < 8.0)
		raw = gts * 8.0 / 10.0;
	else if (!flit)
		raw = gts * 128.0 / 130.0;
	else
		raw = gts * 236.0 / 256.0;
	raw *= (double)width;
	per_tlp = flit ? TLP_HEADER : TLP_OVERHEAD;
	if (bidir)
		per_tlp += DLLP_PER_TLP;
	return raw * mps / (mps + per_tlp);
}

unsigned rd_rate_packet_overhead(bool ethernet)
{
	/* preamble+SFD, IFG, MAC, IPv4, UDP, BTH, ICRC, FCS */
	if (ethernet)
		return 8 + 12 + 14 + 20 + 8 + 12 + 4 + 4;
	/* LRH, BTH, ICRC, VCRC */
	return 8 + 12 + 4 + 2;
}

double rd_rate_mtu_efficiency(bool ethernet, uint64_t mtu)
{
	if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 &&
	    mtu != 4096)
		return 0;
	return (double)mtu / (double)(mtu + rd_rate_packet_overhead(ethernet));
}

double rd_rate_pcie_bound(const struct rd_rate *r)
{
	return r->uplink_ok && r->uplink_gbps < r->pcie_gbps ? r->uplink_gbps
							     : r->pcie_gbps;
}

void rd_rate_combine(struct rd_rate *r)
{
	double link, pcie = rd_rate_pcie_bound(r);

	r->ok = false;
	r->limit = RD_RATE_LIMIT_NONE;
	r->reachable_gbps = 0;
	if (!r->link_ok)
		return;
	link = r->link_gbps;
	if (r->mtu_ok) {
		r->link_payload_gbps = link * r->mtu_efficiency;
		link = r->link_payload_gbps;
	}
	r->ok = true;
	r->reachable_gbps = link;
	r->limit = RD_RATE_LIMIT_LINK;
	if (r->pcie_ok && pcie < link) {
		r->reachable_gbps = pcie;
		r->limit = RD_RATE_LIMIT_PCIE;
		return;
	}
	if (r->mtu_ok) {
		uint64_t bigger = r->max_mtu ? r->max_mtu : 4096;
		double better = r->link_gbps *
				rd_rate_mtu_efficiency(r->ethernet, bigger);

		if (r->pcie_ok && pcie < better)
			better = pcie;
		/* A larger MTU would gain at least 1 %. */
		if (bigger > r->mtu && better > link * 1.01)
			r->limit = RD_RATE_LIMIT_MTU;
	}
}

static uint64_t width_of(const char *w)
{
	char *end;
	unsigned long v;

	if (!w)
		return 0;
	v = strtoul(w, &end, 10);
	if (end == w || (*end != 'X' && *end != 'x') || end[1] || v == 0 ||
	    v > 32)
		return 0;
	return v;
}

/* Width and speed from the rate text's "(4X EDR)" when not given apart. */
static void from_rate_text(const char *text, uint64_t *lanes,
			   const char **speed, char *buf, size_t size)
{
	const char *o = text ? strchr(text, '(') : NULL;
	const char *sp = o ? strchr(o, ' ') : NULL;
	const char *c = sp ? strchr(sp, ')') : NULL;
	char w[8];

	if (!c || (size_t)(sp - o - 1) >= sizeof(w) ||
	    (size_t)(c - sp - 1) >= size)
		return;
	memcpy(w, o + 1, (size_t)(sp - o - 1));
	w[sp - o - 1] = '\0';
	memcpy(buf, sp + 1, (size_t)(c - sp - 1));
	buf[c - sp - 1] = '\0';
	if (!*lanes)
		*lanes = width_of(w);
	if (!*speed)
		*speed = buf;
}

static void link_of(const struct rd_snapshot *s, const struct rd_port *p,
		    struct rd_rate *r)
{
	bool eth = p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
	const struct rd_rate_lane *l = NULL;
	uint64_t lanes = width_of(p->width);
	const char *speed = p->speed;
	char sbuf[16];

	if (!lanes || !speed)
		from_rate_text(p->rate_text, &lanes, &speed, sbuf,
			       sizeof(sbuf));

	if (eth) {
		const struct rd_netdev *n =
			p->netdev ? rd_snapshot_netdev(s, p->netdev) : NULL;
		const struct rd_ethtool *e = n ? &n->ethtool : NULL;

		if (e && e->speed_mbps.ok && e->speed_mbps.v > 0 &&
		    e->speed_mbps.v < 10000000) {
			uint64_t el = e->lanes.ok ? e->lanes.v : 0;

			l = rd_rate_eth_lane(e->speed_mbps.v, el);
			r->link_ok = true;
			r->link_gbps = (double)e->speed_mbps.v / 1000.0;
			if (l) {
				r->lanes = (uint64_t)llround(r->link_gbps /
							     l->data_gbps);
				r->signal_gbps = l->signal_gbps *
						 (double)r->lanes;
				r->lane_name = l->name;
				r->encoding = l->encoding;
			}
			return;
		}
		/*
		 * No ethtool speed: the port's IB form of the Ethernet
		 * speed is the MAC rate only where the IB lane's data rate
		 * is an Ethernet lane's (EDR = 25G NRZ, HDR = 50G PAM4...).
		 */
		l = rd_rate_ib_lane(speed);
		if (!l || !lanes || !eth_lane_of(l->data_gbps))
			return;
		l = eth_lane_of(l->data_gbps);
	} else {
		l = rd_rate_ib_lane(speed);
		if (!l || !lanes)
			return;
	}
	r->link_ok = true;
	r->lanes = lanes;
	r->lane_name = l->name;
	r->encoding = l->encoding;
	r->link_gbps = l->data_gbps * (double)lanes;
	r->signal_gbps = l->signal_gbps * (double)lanes;
}

/*
 * The narrowest link between the card and its root port, where it is
 * not the card's own and carries less: a switch between them trained
 * slower or narrower than the card.
 */
static void uplink_of(const struct rd_snapshot *s, const char *bdf,
		      uint64_t mps, struct rd_rate *r)
{
	long i = bdf ? rd_topo_find(&s->topo, bdf) : -1;
	const struct rd_topo_node *n;
	size_t at, emulated = 0;
	double g;
	bool found = i >= 0 && rd_topo_narrowest_above(&s->topo, (size_t)i, &at,
						       &emulated);

	r->uplink_emulated = emulated;
	if (!found || at == (size_t)i)
		return;
	n = &s->topo.nodes[at];
	g = rd_rate_pcie_gbps(n->speed_gts.v, n->width.v, mps, false, NULL);
	if (!(g > 0 && g < r->pcie_gbps))
		return;
	r->uplink_ok = true;
	r->uplink_bdf = n->bdf;
	r->uplink_gts = n->speed_gts.v;
	r->uplink_width = n->width.v;
	r->uplink_gbps = g;
	if (n->max_speed_gts.ok && n->max_width.ok) {
		r->uplink_cap_gts = n->max_speed_gts.v;
		r->uplink_cap_width = n->max_width.v;
		r->uplink_cap_gbps = rd_rate_pcie_gbps(r->uplink_cap_gts,
						       r->uplink_cap_width, mps,
						       false, NULL);
	}
}

int rd_rate_port(const struct rd_snapshot *s, const char *device,
		 uint64_t port, struct rd_rate *r)
{
	const struct rd_device *d = device ? rd_snapshot_device(s, device) :
					     NULL;
	const struct rd_port *p = d ? rd_device_port(d, port) : NULL;
	const struct rd_pci *pci;
	bool eth;

	memset(r, 0, sizeof(*r));
	if (!p)
		return -ENOENT;
	eth = p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
	r->ethernet = eth;
	link_of(s, p, r);
	if (p->verbs.active_mtu.ok &&
	    rd_rate_mtu_efficiency(eth, p->verbs.active_mtu.v) > 0) {
		r->mtu_ok = true;
		r->mtu = p->verbs.active_mtu.v;
		r->mtu_efficiency = rd_rate_mtu_efficiency(eth, r->mtu);
		if (p->verbs.max_mtu.ok &&
		    rd_rate_mtu_efficiency(eth, p->verbs.max_mtu.v) > 0)
			r->max_mtu = p->verbs.max_mtu.v;
	}
	pci = d->pci_bdf ? rd_snapshot_pci(s, d->pci_bdf) : NULL;
	if (pci && pci->link_speed_gts.ok && pci->link_width.ok) {
		uint64_t mps = pci->max_payload.ok ? pci->max_payload.v : 0;

		r->pcie_gts = pci->link_speed_gts.v;
		r->pcie_width = pci->link_width.v;
		r->pcie_gbps = rd_rate_pcie_gbps(r->pcie_gts, r->pcie_width,
						 mps, false,
						 &r->pcie_upper_bound);
		r->pcie_ok = r->pcie_gbps > 0;
		r->max_payload = r->pcie_ok ? mps : 0;
		r->max_read_req = r->pcie_ok && pci->max_read_req.ok ?
					  pci->max_read_req.v : 0;
		if (r->pcie_ok && pci->cap_speed_gts.ok && pci->cap_width.ok) {
			r->cap_gts = pci->cap_speed_gts.v;
			r->cap_width = pci->cap_width.v;
			r->pcie_cap_gbps = rd_rate_pcie_gbps(
				r->cap_gts, r->cap_width, mps, false, NULL);
		}
		if (r->pcie_ok)
			uplink_of(s, pci->bdf, mps, r);
	}
	rd_rate_combine(r);
	return 0;
}
