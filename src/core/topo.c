// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/topo.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/virt.h"

static const char *const dist_names[] = {
	[RD_DIST_LOC] = "LOC", [RD_DIST_NVL] = "NVL",	[RD_DIST_NVB] = "NVB",
	[RD_DIST_C2C] = "C2C", [RD_DIST_PIX] = "PIX",	[RD_DIST_PXB] = "PXB",
	[RD_DIST_P2C] = "P2C", [RD_DIST_PXN] = "PXN",	[RD_DIST_PHB] = "PHB",
	[RD_DIST_SYS] = "SYS", [RD_DIST_UNKNOWN] = "?",
};

const char *rd_topo_dist_name(enum rd_topo_dist d)
{
	return (unsigned)d <= RD_DIST_UNKNOWN ? dist_names[d] : "?";
}

int rd_topo_dist_parse(const char *s, enum rd_topo_dist *d)
{
	static const enum rd_topo_dist old[] = { RD_DIST_LOC, RD_DIST_PIX,
						 RD_DIST_PXB, RD_DIST_PHB,
						 RD_DIST_SYS, RD_DIST_SYS };
	uint64_t v = 0;

	if (!s)
		return -EINVAL;
	for (int i = RD_DIST_LOC; i <= RD_DIST_SYS; i++)
		if (strcmp(s, dist_names[i]) == 0) {
			*d = (enum rd_topo_dist)i;
			return 0;
		}
	/* The old scale: a leading number, anything above 5 is SYS. */
	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	for (const char *p = s; *p >= '0' && *p <= '9'; p++)
		v = v > 1000 ? v : v * 10 + (uint64_t)(*p - '0');
	*d = old[v > 5 ? 5 : v];
	return 0;
}

bool rd_topo_is_gpu(const struct rd_topo_node *n)
{
	return n && n->kind && strcmp(n->kind, "gpu") == 0;
}

bool rd_topo_is_nic(const struct rd_topo_node *n)
{
	return n && n->kind && strcmp(n->kind, "nic") == 0;
}

long rd_topo_find(const struct rd_topo *t, const char *bdf)
{
	for (size_t i = 0; bdf && i < t->n_nodes; i++)
		if (t->nodes[i].bdf && strcmp(t->nodes[i].bdf, bdf) == 0)
			return (long)i;
	return -1;
}

long rd_topo_nth(const struct rd_topo *t, const char *kind, size_t i)
{
	for (size_t k = 0; k < t->n_nodes; k++)
		if (t->nodes[k].kind && strcmp(t->nodes[k].kind, kind) == 0 &&
		    i-- == 0)
			return (long)k;
	return -1;
}

size_t rd_topo_count(const struct rd_topo *t, const char *kind)
{
	size_t n = 0;

	while (rd_topo_nth(t, kind, n) >= 0)
		n++;
	return n;
}

double rd_topo_link_gbps(double gts, unsigned long long width)
{
	/* 8b/10b up to 5 GT/s, 128b/130b at 8 to 32 GT/s, FLIT (242/256) at 64.
	 */
	double enc = gts <= 5.0	  ? 0.8
		     : gts < 64.0 ? 128.0 / 130.0
				  : 242.0 / 256.0;

	return gts * (double)width * enc;
}

bool rd_topo_acs_redirects(const struct rd_topo_node *n)
{
	return n->acs && strcmp(n->acs, "read") == 0 && n->acs_ctl.ok &&
	       (n->acs_ctl.v & (RD_ACS_RR | RD_ACS_CR)) &&
	       !(n->acs_ctl.v & RD_ACS_DT);
}

void rd_topo_acs_text(unsigned ctl, char *buf, size_t len)
{
	static const char *const names[] = { "SrcValid",    "TransBlk",
					     "ReqRedir",    "CmpltRedir",
					     "UpstreamFwd", "EgressCtrl",
					     "DirectTrans" };
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 7 && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s%c", i ? " " : "",
				 names[i], (ctl >> i) & 1 ? '+' : '-');

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

const char *rd_topo_gpu_vendor(const struct rd_topo_node *n)
{
	if (n->vendor_id.ok && n->vendor_id.v == 0x10de)
		return "NVIDIA";
	if (n->vendor_id.ok && n->vendor_id.v == 0x1002)
		return "AMD";
	return "GPU";
}

/* The chain of node indexes from i up to the top of its tree. */
static int chain(const struct rd_topo *t, size_t i, size_t *out, size_t *n)
{
	*n = 0;
	for (long k = (long)i; k >= 0;) {
		if (*n >= RD_TOPO_MAX_DEPTH)
			return -EINVAL; /* deeper than any real tree: a loop */
		out[(*n)++] = (size_t)k;
		k = t->nodes[k].parent ? rd_topo_find(t, t->nodes[k].parent)
				       : -1;
	}
	return 0;
}

/*
 * NCCL's parent of a device: the function two levels up, or the CPU node
 * when the host bridge comes first. Within a chain that is two steps up.
 */
static long nccl_parent(const size_t *ch, size_t n, size_t pos)
{
	return pos + 2 < n ? (long)ch[pos + 2] : -1;
}

/* The NUMA node NCCL's CPU node of this chain takes: the top PCI node's. */
static const struct rd_topo_node *nccl_top(const struct rd_topo *t,
					   const size_t *ch, size_t n)
{
	size_t pos = 0;

	while (nccl_parent(ch, n, pos) >= 0)
		pos += 2;
	return &t->nodes[ch[pos]];
}

static bool same_str(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/*
 * NCCL's Broadcom switch generation of a switch node at a level (0: the
 * top of a two-level PEX switch, 1: one of its halves): 4 for PEX88000
 * (1000:c010, subsystem 1000:axxx at both levels), 5 for PEX89000
 * (1000:c030, subsystem 1000:0xxx on top, 1000:1xxx below); else 0.
 */
static int bcm_gen(const struct rd_topo_node *n, unsigned level)
{
	if (!n->vendor_id.ok || !n->device_id.ok || !n->subsys_vendor_id.ok ||
	    !n->subsys_device_id.ok || n->vendor_id.v != 0x1000 ||
	    n->subsys_vendor_id.v != 0x1000)
		return 0;
	if (n->device_id.v == 0xc010 &&
	    (n->subsys_device_id.v & 0xf000) == 0xa000)
		return 4;
	if (n->device_id.v == 0xc030 &&
	    (n->subsys_device_id.v & 0xf000) == level * 0x1000)
		return 5;
	return 0;
}

/*
 * NCCL flattens a two-level Broadcom PEX switch into one (its halves are
 * meant to carry full bandwidth between all ports): a switch node of the
 * top level takes in the lower halves of the same generation linked below
 * it, once (its ID is then changed so it merges nothing more), from the
 * top of the tree down. Along a chain's NCCL nodes (every second function)
 * that is: from the top, where a node may still merge and the one below it
 * is a lower half of its generation, the half and the link to it leave
 * the chain and the node merges no more.
 */
static void nccl_flatten(const struct rd_topo *t, size_t *ch, size_t *n)
{
	/* The top NCCL node's position, then down in steps of two. */
	size_t top = 0;

	while (top + 2 < *n)
		top += 2;
	for (size_t p = top; p >= 4; p -= 2) {
		int gen = bcm_gen(&t->nodes[ch[p]], 0);

		if (!gen || bcm_gen(&t->nodes[ch[p - 2]], 1) != gen)
			continue;
		/* ch[p - 2] (the half) and ch[p - 1] (the port above it)
		 * leave; ch[p] merged and stays, so skip past it. */
		memmove(&ch[p - 2], &ch[p], (*n - p) * sizeof(*ch));
		*n -= 2;
		if (p < 6)
			break;
		p -= 2;
	}
}

static enum rd_topo_dist nccl_dist(const struct rd_topo *t, const size_t *g,
				   size_t ng, const size_t *c, size_t nc)
{
	const struct rd_topo_node *tg, *tc;

	/* NCCL nodes above each end: every second function of its chain. */
	for (size_t i = 2; i < ng; i += 2)
		for (size_t k = 2; k < nc; k += 2)
			if (g[i] == c[k])
				return i == 2 && k == 2 ? RD_DIST_PIX
							: RD_DIST_PXB;
	tg = nccl_top(t, g, ng);
	tc = nccl_top(t, c, nc);
	/* One CPU node per numa_node value (as NCCL reads it, -1 too). */
	if (!tg->numa_node.ok || !tc->numa_node.ok)
		return RD_DIST_UNKNOWN;
	return tg->numa_node.v == tc->numa_node.v ? RD_DIST_PHB : RD_DIST_SYS;
}

static void judge_bridge(const struct rd_topo *t, size_t i,
			 struct rd_topo_path *p)
{
	const struct rd_topo_node *n = &t->nodes[i];

	if (rd_topo_is_gpu(n) || rd_topo_is_nic(n))
		return;
	p->bridges++;
	if (rd_topo_acs_redirects(n))
		p->redirect[p->n_redirect++] = i;
	else if (!n->acs || (strcmp(n->acs, "read") && strcmp(n->acs, "none")))
		p->unread[p->n_unread++] = i;
}

static void judge_link(const struct rd_topo *t, size_t i,
		       struct rd_topo_path *p)
{
	const struct rd_topo_node *n = &t->nodes[i];
	double g;

	if (!n->depth.ok || n->depth.v % 2 == 0 || !n->speed_gts.ok ||
	    !n->width.ok)
		return;
	g = rd_topo_link_gbps(n->speed_gts.v, n->width.v);
	if (!p->narrow_ok || g < p->narrow_gbps) {
		p->narrow_ok = true;
		p->narrow = i;
		p->narrow_gbps = g;
	}
}

bool rd_topo_emulated_bridge(const struct rd_topo_node *n)
{
	unsigned v, d;

	if (!n->kind || strcmp(n->kind, "bridge") != 0 || !n->vendor_id.ok ||
	    !n->device_id.ok)
		return false;
	v = (unsigned)n->vendor_id.v;
	d = (unsigned)n->device_id.v;
	/* A real XIO3130 or IOH3420 is a PCIe 1.x/2.0 part of 2009 or
	 * before: never above a card whose link it could bound today. */
	return v == 0x1b36 || v == 0x15ad ||
	       (v == 0x104c && (d == 0x8232 || d == 0x8233)) ||
	       (v == 0x8086 && d == 0x3420);
}

bool rd_topo_narrowest_above(const struct rd_topo *t, size_t i, size_t *at,
			     size_t *emulated)
{
	size_t c[RD_TOPO_MAX_DEPTH], nc;
	struct rd_topo_path p = { 0 };

	*emulated = 0;
	if (i >= t->n_nodes || chain(t, i, c, &nc) < 0)
		return false;
	for (size_t k = 0; k < nc; k++) {
		if (rd_topo_emulated_bridge(&t->nodes[c[k]])) {
			(*emulated)++;
			continue;
		}
		judge_link(t, c[k], &p);
	}
	if (p.narrow_ok)
		*at = p.narrow;
	return p.narrow_ok;
}

int rd_topo_path(const struct rd_topo *t, size_t gpu, size_t nic,
		 struct rd_topo_path *p)
{
	size_t g[RD_TOPO_MAX_DEPTH], c[RD_TOPO_MAX_DEPTH], ng, nc;
	size_t gi = 0, ci = 0;
	const struct rd_topo_node *tg, *tc;
	enum rd_topo_dist raw;

	memset(p, 0, sizeof(*p));
	if (gpu >= t->n_nodes || nic >= t->n_nodes ||
	    chain(t, gpu, g, &ng) < 0 || chain(t, nic, c, &nc) < 0)
		return -EINVAL;
	{
		size_t fg[RD_TOPO_MAX_DEPTH], fc[RD_TOPO_MAX_DEPTH];
		size_t nfg = ng, nfc = nc;

		memcpy(fg, g, ng * sizeof(*g));
		memcpy(fc, c, nc * sizeof(*c));
		nccl_flatten(t, fg, &nfg);
		nccl_flatten(t, fc, &nfc);
		p->dist = nccl_dist(t, fg, nfg, fc, nfc);
		/* nvidia-smi does not flatten. */
		raw = nccl_dist(t, g, ng, c, nc);
		p->flattened = raw != p->dist;
	}
	/* The real tree's lowest common bridge. */
	for (gi = 0; gi < ng && !p->has_lca; gi++)
		for (ci = 0; ci < nc; ci++)
			if (g[gi] == c[ci]) {
				p->has_lca = true;
				p->lca = g[gi];
				break;
			}
	if (p->has_lca) {
		gi--;
	} else {
		gi = ng;
		ci = nc;
	}
	p->n_up = gi;
	memcpy(p->up, g, gi * sizeof(*g));
	p->n_down = ci;
	memcpy(p->down, c, ci * sizeof(*c));
	for (size_t i = 0; i < p->n_up; i++) {
		judge_bridge(t, p->up[i], p);
		judge_link(t, p->up[i], p);
	}
	for (size_t i = 0; i < p->n_down; i++) {
		judge_bridge(t, p->down[i], p);
		judge_link(t, p->down[i], p);
	}
	tg = &t->nodes[g[ng - 1]];
	tc = &t->nodes[c[nc - 1]];
	if (raw == RD_DIST_PIX || raw == RD_DIST_PXB)
		p->smi = rd_topo_dist_name(raw);
	else if (p->has_lca || same_str(tg->host_bridge, tc->host_bridge))
		p->smi = "PHB";
	else if (p->dist == RD_DIST_PHB)
		p->smi = "NODE";
	else if (p->dist == RD_DIST_SYS)
		p->smi = "SYS";
	else
		p->smi = "?";
	return 0;
}

enum rd_nic_use rd_topo_nic_use(const struct rd_snapshot *s,
				const struct rd_topo_node *nic,
				const char **state)
{
	const struct rd_device *d;
	bool unread = false;

	if (state)
		*state = NULL;
	/* Exclusive netns mode: a pod may hold the function's device. */
	if (!nic->rdma_device)
		return rd_netns_of_function(s, nic->bdf) || rd_netns_unread(s)
			       ? RD_NIC_ELSEWHERE
			       : RD_NIC_NO_DEVICE;
	/* Named by the function but not in the snapshot: not read. */
	d = rd_snapshot_device(s, nic->rdma_device);
	if (!d)
		return RD_NIC_UNREAD;
	for (size_t i = 0; i < d->n_ports; i++) {
		const struct rd_port *p = &d->ports[i];

		if (!p->state_num.ok) {
			unread = true;
			continue;
		}
		if (rd_port_active(p))
			return RD_NIC_USABLE;
		if (state && !*state)
			*state = p->state;
	}
	return unread || d->n_ports == 0 ? RD_NIC_UNREAD : RD_NIC_DOWN;
}

const char *rd_topo_nic_use_text(enum rd_nic_use u)
{
	switch (u) {
	case RD_NIC_USABLE:
		return "ACTIVE";
	case RD_NIC_DOWN:
		return "no port ACTIVE";
	case RD_NIC_NO_DEVICE:
		return "no RDMA device on the function";
	case RD_NIC_UNREAD:
		return "port state not read";
	case RD_NIC_ELSEWHERE:
		return "no RDMA device in this network namespace (it may be a "
		       "pod's)";
	}
	return "?";
}

bool rd_topo_nic_use_unknown(enum rd_nic_use u)
{
	return u == RD_NIC_UNREAD || u == RD_NIC_ELSEWHERE;
}

/* Among equally near NICs, the one to name: usable, then unknown. */
static int use_rank(enum rd_nic_use u)
{
	return u == RD_NIC_USABLE ? 0 : rd_topo_nic_use_unknown(u) ? 1 : 2;
}

/* Is path a better than path b for NCCL: nearer, then wider? */
static bool better(const struct rd_topo_path *a, const struct rd_topo_path *b)
{
	if (a->dist != b->dist)
		return a->dist < b->dist;
	if (a->narrow_ok != b->narrow_ok)
		return a->narrow_ok;
	return a->narrow_ok && a->narrow_gbps > b->narrow_gbps;
}

void rd_topo_choose(const struct rd_snapshot *s, size_t gpu,
		    struct rd_topo_choice *c)
{
	const struct rd_topo *t = &s->topo;
	struct rd_topo_path p;

	memset(c, 0, sizeof(*c));
	c->nearest = c->usable = -1;
	for (size_t i = 0; i < t->n_nodes; i++) {
		enum rd_nic_use u;
		const char *st;

		if (!rd_topo_is_nic(&t->nodes[i]) ||
		    rd_topo_path(t, gpu, i, &p) < 0)
			continue;
		u = rd_topo_nic_use(s, &t->nodes[i], &st);
		c->n_unknown += use_rank(u) == 1;
		if (c->nearest < 0 || better(&p, &c->near) ||
		    (!better(&c->near, &p) &&
		     use_rank(u) < use_rank(c->near_use))) {
			c->nearest = (long)i;
			c->near = p;
			c->near_use = u;
			c->near_state = st;
		}
		if (u == RD_NIC_USABLE &&
		    (c->usable < 0 || better(&p, &c->use))) {
			c->usable = (long)i;
			c->use = p;
		}
	}
}

long rd_topo_gpu_index(const struct rd_topo *t, size_t node)
{
	long k = 0;

	for (size_t i = 0; i < t->n_nodes && i < node; i++)
		k += rd_topo_is_gpu(&t->nodes[i]);
	return node < t->n_nodes && rd_topo_is_gpu(&t->nodes[node]) ? k : -1;
}
