// SPDX-License-Identifier: GPL-2.0-or-later
/* Compare one RDMA port of two hosts: see compare.h. */
#include "config.h"

#include "diag/compare.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "diag/qos_model.h"

static bool gid_is_v4(const struct rd_gid *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return g->raw_ok && memcmp(g->raw, pfx, sizeof(pfx)) == 0;
}

static bool gid_is_v2(const struct rd_gid *g)
{
	return g->type && strcmp(g->type, "RoCE v2") == 0;
}

int64_t rd_cmp_gid_v2_ipv4(const struct rd_port *p, char *addr, size_t len)
{
	if (len)
		addr[0] = '\0';
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct rd_gid *g = &p->gids[i];

		if (!gid_is_v4(g) || !gid_is_v2(g))
			continue;
		if (len)
			snprintf(addr, len, "%u.%u.%u.%u", g->raw[12], g->raw[13],
				 g->raw[14], g->raw[15]);
		return (int64_t)g->index;
	}
	return -1;
}

/* Does the port list a GID of this RoCE type ("RoCE v2", "IB/RoCE v1")? */
static bool has_type(const struct rd_port *p, const char *type)
{
	for (size_t i = 0; i < p->n_gids; i++)
		if (p->gids[i].type && strcmp(p->gids[i].type, type) == 0)
			return true;
	return false;
}

static size_t n_rdma_ports(const struct rd_snapshot *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_devices; i++)
		n += s->devices[i].n_ports;
	return n;
}

int rd_cmp_pick(const struct rd_snapshot *s, const char *dev, uint64_t port,
		struct rd_cmp_side *side, char *err, size_t errlen)
{
	bool any = !dev && !port, one = n_rdma_ports(s) == 1;

	memset(side, 0, sizeof(*side));
	side->s = s;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->n_devices; i++) {
			const struct rd_device *d = &s->devices[i];

			if (dev && (!d->name || strcmp(d->name, dev) != 0))
				continue;
			for (size_t j = 0; j < d->n_ports; j++) {
				const struct rd_port *p = &d->ports[j];

				if (port && p->port != port)
					continue;
				/* Several candidates: the IPv4 RoCE v2 one. */
				if (pass == 0 && any && !one &&
				    rd_cmp_gid_v2_ipv4(p, NULL, 0) < 0)
					continue;
				side->dev = d;
				side->port = p;
				return 0;
			}
		}
	}
	if (!s->n_devices)
		snprintf(err, errlen, "the snapshot lists no RDMA device");
	else if (dev && port)
		snprintf(err, errlen, "no RDMA device %s with port %" PRIu64
			 " in the snapshot", rd_esc_tmp(dev), port);
	else if (dev)
		snprintf(err, errlen, "no RDMA device %s in the snapshot",
			 rd_esc_tmp(dev));
	else
		snprintf(err, errlen, "no port %" PRIu64 " in the snapshot", port);
	return -1;
}

static int add(struct rd_compare *c, const char *what, const char *a,
	       const char *b, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int add(struct rd_compare *c, const char *what, const char *a,
	       const char *b, const char *fmt, ...)
{
	struct rd_cmp_item *it, *n;
	va_list ap;

	n = realloc(c->items, (c->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->items = n;
	it = &n[c->n++];
	snprintf(it->what, sizeof(it->what), "%s", what);
	snprintf(it->a, sizeof(it->a), "%s", a);
	snprintf(it->b, sizeof(it->b), "%s", b);
	va_start(ap, fmt);
	vsnprintf(it->breaks, sizeof(it->breaks), fmt, ap);
	va_end(ap);
	return 0;
}

/* Note a fact that could not be compared: missing from one snapshot. */
static void unknown(struct rd_compare *c, const char *what)
{
	size_t len = strlen(c->unread);

	snprintf(c->unread + len, sizeof(c->unread) - len, "%s%s",
		 len ? ", " : "", what);
}

static const struct rd_netdev *side_netdev(const struct rd_cmp_side *s)
{
	if (!s->port->netdev)
		return NULL;
	return rd_snapshot_netdev(s->s, s->port->netdev);
}

/* The prefix length of IPv4 address addr on the side's netdev, or -1. */
static int prefix_of(const struct rd_cmp_side *s, const char *addr)
{
	const struct rd_netdev *n = side_netdev(s);

	for (size_t i = 0; n && i < n->n_addrs; i++) {
		const struct rd_addr *a = &n->addrs[i];

		if (a->family && strcmp(a->family, "inet") == 0 && a->address &&
		    strcmp(a->address, addr) == 0 && a->prefixlen.ok &&
		    a->prefixlen.v <= 32)
			return (int)a->prefixlen.v;
	}
	return -1;
}

static uint32_t v4(const char *addr)
{
	struct in_addr in;

	if (inet_pton(AF_INET, addr, &in) != 1)
		return 0;
	return ntohl(in.s_addr);
}

static uint32_t mask(int len)
{
	return len <= 0 ? 0 : len >= 32 ? 0xffffffffu : ~(0xffffffffu >> len);
}

static void text_u64(char *buf, size_t len, struct rd_ou64 v, const char *unit)
{
	if (v.ok)
		snprintf(buf, len, "%" PRIu64 "%s", v.v, unit);
	else
		snprintf(buf, len, "unknown");
}

static void gid_text(char *buf, size_t len, int64_t idx, const char *addr)
{
	if (idx < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "index %" PRId64 " (%s)", idx, addr);
}

static int cmp_gids(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		    struct rd_compare *c)
{
	char va[160], vb[160];
	int pa, pb;

	c->gid_a = rd_cmp_gid_v2_ipv4(a->port, c->addr_a, sizeof(c->addr_a));
	c->gid_b = rd_cmp_gid_v2_ipv4(b->port, c->addr_b, sizeof(c->addr_b));
	if (c->gid_a < 0 || c->gid_b < 0) {
		if (c->gid_a < 0 && c->gid_b < 0)
			return 0;
		gid_text(va, sizeof(va), c->gid_a, c->addr_a);
		gid_text(vb, sizeof(vb), c->gid_b, c->addr_b);
		return add(c, "IPv4 RoCE v2 GID", va, vb,
			   "a host without one has no IPv4 address on the port's netdev "
			   "(or no RoCE v2): RoCE v2 over IPv4 cannot reach it");
	}
	pa = prefix_of(a, c->addr_a);
	pb = prefix_of(b, c->addr_b);
	if (pa < 0 || pb < 0)
		unknown(c, "IPv4 subnet");
	if (pa >= 0 && pb >= 0 &&
	    ((v4(c->addr_a) & mask(pa)) != (v4(c->addr_b) & mask(pa)) ||
	     (v4(c->addr_a) & mask(pb)) != (v4(c->addr_b) & mask(pb)))) {
		snprintf(va, sizeof(va), "%s/%d", c->addr_a, pa);
		snprintf(vb, sizeof(vb), "%s/%d", c->addr_b, pb);
		if (add(c, "IPv4 subnet", va, vb,
			"the two are not on one subnet: RoCE v2 packets need a route "
			"(and PFC/ECN along it) between them") < 0)
			return -ENOMEM;
	}
	if (c->gid_a != c->gid_b) {
		snprintf(va, sizeof(va), "%" PRId64, c->gid_a);
		snprintf(vb, sizeof(vb), "%" PRId64, c->gid_b);
		return add(c, "IPv4 RoCE v2 GID index", va, vb,
			   "one -x N (or NCCL_IB_GID_INDEX/UCX_IB_GID_INDEX) for both "
			   "hosts picks another GID on one of them: give each host its own");
	}
	return 0;
}

static int cmp_roce(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		    struct rd_compare *c)
{
	bool a1 = has_type(a->port, "IB/RoCE v1"), a2 = has_type(a->port, "RoCE v2");
	bool b1 = has_type(b->port, "IB/RoCE v1"), b2 = has_type(b->port, "RoCE v2");

	if (!(a1 || a2) || !(b1 || b2) || (a1 && b1) || (a2 && b2))
		return 0;
	return add(c, "RoCE version", a2 ? "RoCE v2 only" : "RoCE v1 only",
		   b2 ? "RoCE v2 only" : "RoCE v1 only",
		   "no GID type is on both hosts: a v1 and a v2 end cannot connect");
}

static int cmp_str(struct rd_compare *c, const char *what, const char *a,
		   const char *b, const char *breaks)
{
	char va[160], vb[160];

	if (!a || !b) {
		unknown(c, what);
		return 0;
	}
	if (strcmp(a, b) == 0)
		return 0;
	rd_esc(va, sizeof(va), a);
	rd_esc(vb, sizeof(vb), b);
	return add(c, what, va, vb, "%s", breaks);
}

/* What a module receives: "-2.31 dBm (weakest of 4 lanes)", "no light ...". */
static bool light_text(const struct rd_netdev *n, char *buf, size_t size,
		       bool *dark)
{
	const struct rd_xcvr *m = n ? &n->xcvr : NULL;
	struct rd_xcvr_rx rx;
	double dbm;
	bool lit;

	if (!m || !m->identifier.ok)
		return false;
	rd_xcvr_rx_scan(m, &rx);
	if (!rx.lanes)
		return false;
	lit = rx.weakest >= 0 && rd_mw_to_dbm(rx.weakest_mw, &dbm);
	*dark = rx.los == rx.lanes || (rx.weakest >= 0 && !lit);
	if (*dark)
		snprintf(buf, size, "no light (LOS on %u of %u lanes)", rx.los,
			 rx.lanes);
	else if (lit)
		snprintf(buf, size, "%.2f dBm (weakest of %u lanes)", dbm,
			 rx.lanes);
	else
		snprintf(buf, size, "light on %u of %u lanes",
			 rx.lanes - rx.los, rx.lanes);
	return true;
}

/*
 * Light at both ends of a link: one end dark while the other receives
 * points at one direction of the fibre, or at the dark end's far
 * transmitter. Compared only when both modules report it.
 */
static int cmp_light(const struct rd_netdev *na, const struct rd_netdev *nb,
		     struct rd_compare *c)
{
	char va[160], vb[160];
	bool da = false, db = false;
	bool ha = light_text(na, va, sizeof(va), &da);
	bool hb = light_text(nb, vb, sizeof(vb), &db);

	/* Neither end has a module that reports light: nothing to say. */
	if (!ha && !hb)
		return 0;
	if (!ha || !hb) {
		unknown(c, "received light");
		return 0;
	}
	if (da == db)
		return 0;
	return add(c, "received light", va, vb,
		   "one end receives light and the other none: the fibre's "
		   "direction toward the dark end, or the transmitter at the "
		   "other end, is at fault (directly cabled; through a switch, "
		   "compare each end with its switch port)") < 0 ? -ENOMEM : 0;
}

static int cmp_mtu(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		   struct rd_compare *c)
{
	const struct rd_netdev *na = side_netdev(a), *nb = side_netdev(b);
	struct rd_ou64 ma = a->port->verbs.active_mtu, mb = b->port->verbs.active_mtu;
	char va[160], vb[160];

	if (!ma.ok || !mb.ok)
		unknown(c, "active MTU");
	if (ma.ok && mb.ok && ma.v != mb.v) {
		text_u64(va, sizeof(va), ma, " bytes");
		text_u64(vb, sizeof(vb), mb, " bytes");
		if (add(c, "active MTU", va, vb,
			"ends that exchange the MTU (perftest, rdmadiag) use the "
			"smaller, %" PRIu64 " bytes; an end that uses its own %" PRIu64
			" bytes (or -m above the smaller) sends packets the other "
			"side's network may drop",
			ma.v < mb.v ? ma.v : mb.v, ma.v < mb.v ? mb.v : ma.v) < 0)
			return -ENOMEM;
	}
	if (!na || !nb || !na->mtu.ok || !nb->mtu.ok)
		unknown(c, "netdev MTU");
	else if (na->mtu.v != nb->mtu.v) {
		text_u64(va, sizeof(va), na->mtu, " bytes");
		text_u64(vb, sizeof(vb), nb->mtu, " bytes");
		if (add(c, "netdev MTU", va, vb,
			"frames above %" PRIu64 " bytes from the larger end may be "
			"dropped on the way to the smaller one; the RoCE active MTU "
			"follows the netdev MTU",
			na->mtu.v < nb->mtu.v ? na->mtu.v : nb->mtu.v) < 0)
			return -ENOMEM;
	}
	if (cmp_light(na, nb, c) < 0)
		return -ENOMEM;
	if (!na || !nb)
		unknown(c, "FEC");
	else if (cmp_str(c, "FEC", na->ethtool.fec_active, nb->ethtool.fec_active,
		    "FEC is agreed per link: two ports cabled to each other with "
		    "different modes stay down or take errors (through a switch, "
		    "compare each with its switch port)") < 0)
		return -ENOMEM;
	return 0;
}

/* rdma_cm's defaults for the side's port (configfs), or NULL. */
static const struct rd_cm_port *side_cm(const struct rd_cmp_side *s)
{
	const struct rd_host *h = &s->s->host;

	for (size_t i = 0; s->dev->name && i < h->n_cm_ports; i++) {
		const struct rd_cm_port *cm = &h->cm_ports[i];

		if (cm->device && strcmp(cm->device, s->dev->name) == 0 &&
		    cm->port.ok && cm->port.v == s->port->port)
			return cm;
	}
	return NULL;
}

static int cmp_cm(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		  struct rd_compare *c)
{
	const struct rd_cm_port *ca = side_cm(a), *cb = side_cm(b);
	char va[160], vb[160];

	if (!ca || !cb) {
		unknown(c, "rdma_cm defaults");
		return 0;
	}
	if (cmp_str(c, "rdma_cm default RoCE mode", ca->default_roce_mode,
		    cb->default_roce_mode,
		    "rdma_cm users (perftest -R, NCCL, UCX, NVMe-oF, SMB Direct) "
		    "pick a GID of this type on each side: v1 against v2 cannot "
		    "connect") < 0)
		return -ENOMEM;
	if (!ca->default_roce_tos.ok || !cb->default_roce_tos.ok)
		unknown(c, "rdma_cm default ToS");
	else if (ca->default_roce_tos.v != cb->default_roce_tos.v) {
		text_u64(va, sizeof(va), ca->default_roce_tos, "");
		text_u64(vb, sizeof(vb), cb->default_roce_tos, "");
		return add(c, "rdma_cm default ToS", va, vb,
			   "rdma_cm traffic leaves the two hosts with different DSCP "
			   "values, so on different priorities unless the network "
			   "maps both to the lossless one");
	}
	return 0;
}

static const char *trust_name(enum rd_qos_trust t)
{
	return t == RD_QOS_TRUST_DSCP ? "dscp" : "pcp";
}

/* A known protection state (not RD_QOS_LL_UNKNOWN). */
static const char *protection(enum rd_qos_lossless l)
{
	if (l == RD_QOS_LOSSY)
		return "lossy";
	return l == RD_QOS_BY_PFC ? "lossless (PFC)" : "lossless (global pause)";
}

/* ECN enables of priority prio (np, rp: 0/1); false when not read. */
static bool ecn_of(const struct rd_netdev *n, int prio, bool *np, bool *rp)
{
	const struct rd_counter *cn, *cr;
	char key[16];

	if (!n || !n->ecn.present.ok || !n->ecn.present.v || prio < 0)
		return false;
	snprintf(key, sizeof(key), "prio%d", prio);
	cn = rd_counters_find(&n->ecn.np_enable, key);
	cr = rd_counters_find(&n->ecn.rp_enable, key);
	if (!cn || !cr || !cn->value.ok || !cr->value.ok)
		return false;
	*np = cn->value.v != 0;
	*rp = cr->value.v != 0;
	return true;
}

/*
 * ECN on each side's RoCE priority: the receiving end's notification
 * point sends CNPs, the sending end's reaction point slows down on them.
 */
static int cmp_ecn(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		   int pa, int pb, struct rd_compare *c)
{
	bool npa, rpa, npb, rpb;
	char va[160], vb[160];

	if (!ecn_of(side_netdev(a), pa, &npa, &rpa) ||
	    !ecn_of(side_netdev(b), pb, &npb, &rpb)) {
		unknown(c, "ECN");
		return 0;
	}
	if (npa == npb && rpa == rpb)
		return 0;
	snprintf(va, sizeof(va), "priority %d: notification %s, reaction %s",
		 pa, npa ? "on" : "off", rpa ? "on" : "off");
	snprintf(vb, sizeof(vb), "priority %d: notification %s, reaction %s",
		 pb, npb ? "on" : "off", rpb ? "on" : "off");
	return add(c, "ECN", va, vb,
		   "congestion control works one way only: an end whose "
		   "notification point is off sends no CNPs, so its sender never "
		   "slows down; one whose reaction point is off ignores CNPs, so "
		   "congestion ends in pauses or drops");
}

/* The RoCE priority and its protection, from the QoS model of each side. */
static int cmp_qos(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
		   struct rd_compare *c)
{
	struct rd_qos_model ma, mb;
	enum rd_qos_lossless la, lb;
	char va[160], vb[160];

	rd_qos_derive(a->s, a->dev, a->port, side_netdev(a), &ma);
	rd_qos_derive(b->s, b->dev, b->port, side_netdev(b), &mb);
	if (ma.trust == RD_QOS_TRUST_UNKNOWN || mb.trust == RD_QOS_TRUST_UNKNOWN)
		unknown(c, "trust mode");
	else if (ma.trust != mb.trust &&
	    add(c, "trust mode", trust_name(ma.trust), trust_name(mb.trust),
		"the two NICs classify received RoCE by different fields (VLAN "
		"PCP or IP DSCP): the same packets land on different priorities") < 0)
		return -ENOMEM;
	if (ma.prio < 0 || mb.prio < 0) {
		unknown(c, "RoCE priority");
		return 0;
	}
	if (ma.prio != mb.prio) {
		snprintf(va, sizeof(va), "%d", ma.prio);
		snprintf(vb, sizeof(vb), "%d", mb.prio);
		if (add(c, "RoCE priority", va, vb,
			"RoCE travels on a different priority from each end: PFC "
			"and ECN must cover both, on the hosts and every switch") < 0)
			return -ENOMEM;
	}
	if (cmp_ecn(a, b, ma.prio, mb.prio, c) < 0)
		return -ENOMEM;
	la = rd_qos_lossless(&ma, ma.prio);
	lb = rd_qos_lossless(&mb, mb.prio);
	if (la == RD_QOS_LL_UNKNOWN || lb == RD_QOS_LL_UNKNOWN)
		unknown(c, "lossless RoCE");
	if (la == RD_QOS_LL_UNKNOWN || lb == RD_QOS_LL_UNKNOWN ||
	    (la == RD_QOS_LOSSY) == (lb == RD_QOS_LOSSY))
		return 0;
	snprintf(va, sizeof(va), "priority %d %s", ma.prio, protection(la));
	snprintf(vb, sizeof(vb), "priority %d %s", mb.prio, protection(lb));
	return add(c, "lossless RoCE", va, vb,
		   "the lossy end neither sends nor honours pauses: under "
		   "congestion packets are dropped and RC retransmits (out-of-"
		   "sequence NAKs, timeouts)");
}

int rd_compare(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
	       struct rd_compare *c)
{
	const struct rd_port *pa = a->port, *pb = b->port;
	char va[160], vb[160];

	memset(c, 0, sizeof(*c));
	c->gid_a = c->gid_b = -1;
	if (cmp_str(c, "link layer", pa->link_layer, pb->link_layer,
		    "InfiniBand and Ethernet (RoCE) ports are on different fabrics "
		    "and cannot connect") < 0 ||
	    cmp_gids(a, b, c) < 0 || cmp_roce(a, b, c) < 0 ||
	    cmp_cm(a, b, c) < 0 || cmp_mtu(a, b, c) < 0 || cmp_qos(a, b, c) < 0)
		goto nomem;
	if (!pa->rate_gbps.ok || !pb->rate_gbps.ok)
		unknown(c, "rate");
	else if (pa->rate_gbps.v != pb->rate_gbps.v) {
		snprintf(va, sizeof(va), "%g Gb/s", pa->rate_gbps.v);
		snprintf(vb, sizeof(vb), "%g Gb/s", pb->rate_gbps.v);
		if (add(c, "rate", va, vb,
			"a test between them runs at most at the slower %g Gb/s; the "
			"faster sender fills buffers (pauses, ECN marks) on the way",
			pa->rate_gbps.v < pb->rate_gbps.v ? pa->rate_gbps.v :
							    pb->rate_gbps.v) < 0)
			goto nomem;
	}
	if (!pa->pkey0.ok || !pb->pkey0.ok)
		unknown(c, "P_Key");
	else if (pa->pkey0.v != pb->pkey0.v) {
		snprintf(va, sizeof(va), "0x%04" PRIx64, pa->pkey0.v);
		snprintf(vb, sizeof(vb), "0x%04" PRIx64, pb->pkey0.v);
		if (add(c, "P_Key (index 0)", va, vb,
			"QPs on different partitions cannot exchange packets") < 0)
			goto nomem;
	}
	if (cmp_str(c, "driver", a->dev->driver, b->dev->driver,
		    "different drivers: features and defaults may differ") < 0)
		goto nomem;
	if (a->dev->hca_type && b->dev->hca_type &&
	    strcmp(a->dev->hca_type, b->dev->hca_type) == 0 &&
	    cmp_str(c, "firmware", a->dev->fw_ver, b->dev->fw_ver,
		    "the same adapter model on different firmware: fixes and "
		    "defaults (congestion control, QoS) may differ") < 0)
		goto nomem;
	return 0;
nomem:
	rd_compare_free(c);
	return -ENOMEM;
}

void rd_compare_free(struct rd_compare *c)
{
	free(c->items);
	c->items = NULL;
	c->n = 0;
}
