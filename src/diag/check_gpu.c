// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GPU hosts: which NIC each GPU should use, whether GPUDirect RDMA can
 * work on that path (peer-to-peer not redirected by ACS, a peer-memory
 * module or dma-buf), and the PCIe links on the way. One result per GPU
 * (named by its PCI address), and one for the host's peer-memory path;
 * a host without a GPU gets none. Paths and labels come from core/topo.h,
 * which classifies them as NCCL does.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <string.h>

#include "core/topo.h"
#include "core/virt.h"

#define SRC_TREE "sysfs /sys/bus/pci/devices links"
#define SRC_ACS "config space, ACS extended capability"

/* A NIC's name for text: its RDMA device, else its PCI address. */
static const char *nic_name(const struct rd_topo_node *n)
{
	return n->rdma_device ? n->rdma_device : n->bdf;
}

/* The GPUs the --device filter keeps: those whose nearest NIC it names. */
static bool gpu_wanted(const struct diag_ctx *x, const struct rd_topo_choice *c)
{
	const struct rd_topo *t = &x->s->topo;

	if (!x->o || !x->o->device)
		return true;
	return c->nearest >= 0 && t->nodes[c->nearest].rdma_device &&
	       diag_wants(x, t->nodes[c->nearest].rdma_device, 0);
}

/* Start a GPU's result; NULL when the filter drops it. */
static struct rd_result *gpu_result(struct diag_ctx *x, size_t i,
				    struct rd_topo_choice *c)
{
	const struct rd_topo_node *g = &x->s->topo.nodes[i];
	struct rd_result *r;

	rd_topo_choose(x->s, i, c);
	if (!gpu_wanted(x, c))
		return NULL;
	r = diag_new(x, g->bdf, 0, NULL);
	diag_why(x, r, "%s", x->c->why);
	return r;
}

static void path_text(const struct rd_topo *t, const struct rd_topo_path *p,
		      char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
#define ADD(...)                                                               \
	do {                                                                   \
		int w_ = snprintf(buf + used, len - used, __VA_ARGS__);        \
		if (w_ > 0 && (size_t)w_ < len - used)                         \
			used += (size_t)w_;                                    \
	} while (0)
	for (size_t i = 0; i < p->n_up; i++)
		ADD("%s%s", i ? " > " : "", t->nodes[p->up[i]].bdf);
	if (p->has_lca)
		ADD(" > %s", t->nodes[p->lca].bdf);
	else
		ADD(" > %s > CPU > %s",
		    t->nodes[p->up[p->n_up - 1]].host_bridge
			    ? t->nodes[p->up[p->n_up - 1]].host_bridge
			    : "?",
		    t->nodes[p->down[p->n_down - 1]].host_bridge
			    ? t->nodes[p->down[p->n_down - 1]].host_bridge
			    : "?");
	for (size_t i = p->n_down; i-- > 0;)
		ADD(" < %s", t->nodes[p->down[i]].bdf);
#undef ADD
}

static void path_evidence(struct diag_ctx *x, struct rd_result *r,
			  const struct rd_topo_path *p)
{
	const struct rd_topo *t = &x->s->topo;
	char buf[1024];

	path_text(t, p, buf, sizeof(buf));
	diag_ev(x, r, "path", SRC_TREE, "%s: %s (nvidia-smi: %s)%s", buf,
		rd_topo_dist_name(p->dist), p->smi,
		p->flattened ? "; NCCL counts the two-level Broadcom PEX "
			       "switch as one"
			     : "");
	if (p->narrow_ok) {
		const struct rd_topo_node *n = &t->nodes[p->narrow];

		diag_ev(x, r, "narrowest link",
			"sysfs current_link_speed/width",
			"%s: %.1f GT/s x%" PRIu64 " (%.1f Gb/s)", n->bdf,
			n->speed_gts.v, n->width.v, p->narrow_gbps);
	}
}

void check_gpu_nic_affinity(struct diag_ctx *x)
{
	const struct rd_topo *t = &x->s->topo;

	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;
		const struct rd_topo_node *g = &t->nodes[i], *n, *u;
		struct rd_result *r;
		long gi = rd_topo_gpu_index(t, i);

		if (!rd_topo_is_gpu(g) || !(r = gpu_result(x, i, &c)))
			continue;
		if (c.nearest < 0) {
			diag_verdict(x, r, RD_FAIL, "no_nic",
				     "GPU%ld %s: no RDMA NIC function on this "
				     "host: its traffic to other hosts cannot "
				     "use RDMA",
				     gi, g->bdf);
			diag_next(x, r,
				  "Check that the NICs are seen on the PCI "
				  "bus and their driver is loaded.");
			continue;
		}
		n = &t->nodes[c.nearest];
		path_evidence(x, r, &c.near);
		diag_ev(x, r, "nearest NIC", "RDMA device ports",
			"%s%s%s%s: %s", n->rdma_device ? n->rdma_device : "",
			n->rdma_device ? " (" : "", n->bdf,
			n->rdma_device ? ")" : "",
			c.near_state ? c.near_state
				     : rd_topo_nic_use_text(c.near_use));
		if (c.near.dist == RD_DIST_UNKNOWN) {
			diag_have(x, r, false,
				  "GPU%ld %s: NUMA node of its path or of %s "
				  "not read: the distance is unknown",
				  gi, g->bdf, nic_name(n));
			continue;
		}
		if (c.near_use == RD_NIC_UNREAD) {
			diag_have(x, r, false,
				  "GPU%ld %s: nearest NIC %s (%s): its port "
				  "state was not read",
				  gi, g->bdf, nic_name(n),
				  rd_topo_dist_name(c.near.dist));
			continue;
		}
		if (c.near_use == RD_NIC_ELSEWHERE) {
			const struct rd_netns_dev *away =
				rd_netns_of_function(x->s, n->bdf);
			char where[256] = "";

			if (away)
				rd_netns_where(away, where, sizeof(where));
			diag_have(x, r, false,
				  away ? "GPU%ld %s: its nearest NIC %s (%s) "
					 "is in network namespace %s: a job "
					 "there uses it; its port is not "
					 "seen from here"
				       : "GPU%ld %s: its nearest NIC %s (%s) "
					 "has no RDMA device in this network "
					 "namespace%s; in exclusive mode it "
					 "may be a pod's (the others were not "
					 "read)",
				  gi, g->bdf, nic_name(n),
				  rd_topo_dist_name(c.near.dist), where);
			continue;
		}
		if (c.near_use == RD_NIC_USABLE) {
			bool far = c.near.dist > RD_DIST_PXB;

			diag_verdict(x, r, far ? RD_WARN : RD_PASS,
				     far ? "nic_far" : "ok",
				     far ? "GPU%ld %s: the nearest NIC, %s, is "
					   "%s: no NIC shares a PCIe switch "
					   "with this GPU, so its traffic "
					   "crosses the CPU"
					 : "GPU%ld %s: use %s (%s)",
				     gi, g->bdf, nic_name(n),
				     rd_topo_dist_name(c.near.dist));
			if (far)
				diag_next(x, r,
					  "Nothing to change on this "
					  "host; place jobs so each GPU's "
					  "NIC is in its NUMA node.");
			continue;
		}
		u = c.usable >= 0 ? &t->nodes[c.usable] : NULL;
		if (u)
			diag_ev(x, r, "next usable NIC", SRC_TREE,
				"%s (%s): %s", nic_name(u), u->bdf,
				rd_topo_dist_name(c.use.dist));
		diag_verdict(
			x, r, RD_FAIL,
			c.near_use == RD_NIC_DOWN ? "nic_down"
						  : "nic_no_device",
			"GPU%ld %s: its nearest NIC %s (%s) has %s; %s%s%s", gi,
			g->bdf, nic_name(n), rd_topo_dist_name(c.near.dist),
			rd_topo_nic_use_text(c.near_use),
			u	      ? "its traffic goes to "
			: c.n_unknown ? "no other NIC was read as usable"
				      : "no other NIC is usable",
			u ? nic_name(u) : "",
			u ? (c.use.dist > RD_DIST_PXB ? " across the CPU" : "")
			  : "");
		diag_next(x, r,
			  c.near_use == RD_NIC_DOWN
				  ? "Bring %s's port up (see port.state for "
				    "why it is "
				    "down)."
				  : "Load the NIC's RDMA driver (mlx5_ib for "
				    "ConnectX) so "
				    "%s gets an RDMA device.",
			  nic_name(n));
	}
}

static void acs_evidence(struct diag_ctx *x, struct rd_result *r,
			 const struct rd_topo_node *b)
{
	char bits[160];

	if (!b->acs || strcmp(b->acs, "read") != 0) {
		diag_ev(x, r, "ACS", SRC_ACS, "%s: %s", b->bdf,
			b->acs ? b->acs : "not read");
		return;
	}
	rd_topo_acs_text((unsigned)b->acs_ctl.v, bits, sizeof(bits));
	diag_ev(x, r, "ACSCtl", SRC_ACS,
		"%s at 0x%" PRIx64 ": 0x%04" PRIx64 " %s", b->bdf,
		b->acs_offset.v, b->acs_ctl.v, bits);
}

static void iommu_evidence(struct diag_ctx *x, struct rd_result *r,
			   const struct rd_topo_node *g,
			   const struct rd_topo_node *n)
{
	const struct rd_topo *t = &x->s->topo;

	if (t->iommu.ok)
		diag_ev(x, r, "IOMMU", "/sys/class/iommu", "%s",
			t->iommu.v ? "on" : "off");
	if (g->iommu_type || n->iommu_type)
		diag_ev(x, r, "IOMMU domains",
			"/sys/kernel/iommu_groups/N/type", "GPU %s, NIC %s",
			g->iommu_type ? g->iommu_type : "not read",
			n->iommu_type ? n->iommu_type : "not read");
	if (t->cmdline && t->cmdline[0])
		diag_ev(x, r, "kernel command line", "/proc/cmdline", "%s",
			t->cmdline);
}

void check_gpu_gdr_path(struct diag_ctx *x)
{
	const struct rd_topo *t = &x->s->topo;

	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;
		const struct rd_topo_node *g = &t->nodes[i], *n;
		const struct rd_topo_path *p;
		struct rd_result *r;
		long gi = rd_topo_gpu_index(t, i);
		char hops[512] = "";
		size_t used = 0;
		bool unknown;

		if (!rd_topo_is_gpu(g) || !(r = gpu_result(x, i, &c)))
			continue;
		if (!diag_have(x, r, c.nearest >= 0,
			       "GPU%ld %s: no NIC to reach", gi, g->bdf))
			continue;
		/* The NIC NCCL will use: the usable one when the nearest is
		 * not; not known when the nearest's state is not. */
		unknown = rd_topo_nic_use_unknown(c.near_use);
		p = c.near_use == RD_NIC_USABLE || unknown || c.usable < 0
			    ? &c.near
			    : &c.use;
		n = &t->nodes[p == &c.near ? c.nearest : c.usable];
		path_evidence(x, r, p);
		for (size_t k = 0; k < p->n_up; k++)
			if (!rd_topo_is_gpu(&t->nodes[p->up[k]]))
				acs_evidence(x, r, &t->nodes[p->up[k]]);
		for (size_t k = 0; k < p->n_down; k++)
			if (!rd_topo_is_nic(&t->nodes[p->down[k]]))
				acs_evidence(x, r, &t->nodes[p->down[k]]);
		iommu_evidence(x, r, g, n);
		if (!diag_have(x, r, !unknown,
			       "GPU%ld %s: its nearest NIC %s (%s): %s; which "
			       "NIC NCCL uses is not known",
			       gi, g->bdf, nic_name(n),
			       rd_topo_dist_name(p->dist),
			       rd_topo_nic_use_text(c.near_use)))
			continue;
		if (!diag_have(x, r, p->dist != RD_DIST_UNKNOWN,
			       "GPU%ld %s: NUMA node of the path to %s not "
			       "read: distance unknown",
			       gi, g->bdf, nic_name(n)))
			continue;
		for (size_t k = 0; k < p->n_redirect; k++) {
			const struct rd_topo_node *b =
				&t->nodes[p->redirect[k]];
			int w = snprintf(
				hops + used, sizeof(hops) - used,
				"%s%s (%s%s%s)", k ? ", " : "", b->bdf,
				b->acs_ctl.v & RD_ACS_RR ? "ReqRedir" : "",
				(b->acs_ctl.v & RD_ACS_RR) &&
						(b->acs_ctl.v & RD_ACS_CR)
					? "+"
					: "",
				b->acs_ctl.v & RD_ACS_CR ? "CmpltRedir" : "");

			if (w > 0 && (size_t)w < sizeof(hops) - used)
				used += (size_t)w;
		}
		if (p->n_redirect && p->dist <= RD_DIST_GDR_DEFAULT) {
			const struct rd_topo_node *b =
				&t->nodes[p->redirect[0]];

			diag_verdict(x, r, RD_FAIL, "acs_redirect",
				     "GPU%ld %s to %s (%s): ACS on %s sends "
				     "peer-to-peer traffic up to the root "
				     "complex: GPUDirect RDMA is slow or "
				     "faults",
				     gi, g->bdf, nic_name(n),
				     rd_topo_dist_name(p->dist), hops);
			diag_next(x, r,
				  "On bare metal clear ACS redirection "
				  "on these ports (kernel parameter "
				  "pci=disable_acs_redir=%s, or 'setpci "
				  "-s %s ECAP_ACS+0x6.w=0000' until the "
				  "next boot). In a VM with passthrough, "
				  "keep ACS and enable ATS on the NIC "
				  "instead, with Direct Translated P2P "
				  "on these ports.",
				  b->bdf, b->bdf);
			continue;
		}
		if (p->n_unread && p->dist <= RD_DIST_GDR_DEFAULT) {
			diag_have(x, r, false,
				  "GPU%ld %s to %s (%s): ACS of %s not read "
				  "(config space beyond 64 bytes needs root)",
				  gi, g->bdf, nic_name(n),
				  rd_topo_dist_name(p->dist),
				  t->nodes[p->unread[0]].bdf);
			continue;
		}
		if (p->dist > RD_DIST_GDR_DEFAULT) {
			diag_verdict(x, r, RD_WARN, "gdr_distance",
				     "GPU%ld %s to %s is %s: NCCL does not use "
				     "GPUDirect RDMA above %s by default; data "
				     "is staged through host memory",
				     gi, g->bdf, nic_name(n),
				     rd_topo_dist_name(p->dist),
				     rd_topo_dist_name(RD_DIST_GDR_DEFAULT));
			diag_next(x, r,
				  "Use a NIC behind the GPU's own PCIe "
				  "switch; forcing NCCL_NET_GDR_LEVEL "
				  "across the CPU is usually slower.");
			continue;
		}
		diag_verdict(x, r, RD_PASS, "ok",
			     "GPU%ld %s to %s (%s): no bridge on the path "
			     "redirects peer-to-peer traffic; NCCL uses "
			     "GPUDirect RDMA up to %s",
			     gi, g->bdf, nic_name(n),
			     rd_topo_dist_name(p->dist),
			     rd_topo_dist_name(RD_DIST_GDR_DEFAULT));
	}
}

void check_gpu_peermem(struct diag_ctx *x)
{
	const struct rd_topo *t = &x->s->topo;
	struct rd_result *r;
	size_t nv = 0, tried = 0, untried = 0;
	const char *dmabuf = NULL;
	const char *mods;
	char why[256] = "";

	for (size_t i = 0; i < t->n_nodes; i++)
		if (rd_topo_is_gpu(&t->nodes[i]) &&
		    t->nodes[i].vendor_id.v == 0x10de)
			nv++;
	/* NCCL's peer-memory files are NVIDIA's; AMD GPUs are not judged. */
	if (!nv || !diag_wants(x, NULL, 0))
		return;
	for (size_t i = 0; i < x->s->n_devices; i++) {
		const struct rd_device *d = &x->s->devices[i];

		if (!d->verbs.dmabuf.ok) {
			/* A soft device carries no GPU traffic anyway. */
			untried += !diag_device_is_soft(d);
			continue;
		}
		tried++;
		if (d->verbs.dmabuf.v && !dmabuf)
			dmabuf = d->name;
	}
	r = diag_new(x, NULL, 0, NULL);
	diag_why(x, r, "%s", x->c->why);
	if (t->nvidia_peermem.ok)
		diag_ev(x, r, "nvidia_peermem",
			"/sys/module/nvidia_peermem/version", "%s",
			!t->nvidia_peermem.v ? "not loaded"
			: t->nvidia_peermem_version
				? t->nvidia_peermem_version
				: "loaded, version not read");
	if (t->nv_peer_mem.ok)
		diag_ev(x, r, "nv_peer_mem",
			"/sys/kernel/mm/memory_peers/nv_mem/version", "%s",
			!t->nv_peer_mem.v	 ? "not loaded"
			: t->nv_peer_mem_version ? t->nv_peer_mem_version
						 : "loaded, version not read");
	if ((t->nvidia_peermem.ok && t->nvidia_peermem.v) ||
	    (t->nv_peer_mem.ok && t->nv_peer_mem.v)) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s loaded: NICs can register GPU memory",
			     t->nvidia_peermem.v ? "nvidia_peermem"
						 : "nv_peer_mem");
		return;
	}
	mods = t->nvidia_modules;
	if (mods)
		diag_ev(x, r, "NVIDIA kernel modules",
			"/sys/module/nvidia/taint", "%s", mods);
	if (dmabuf)
		diag_ev(x, r, "dma-buf registration",
			"ibv_reg_dmabuf_mr, fd -1", "%s accepts it", dmabuf);
	if (tried > (dmabuf != NULL))
		diag_ev(x, r, "dma-buf registration",
			"ibv_reg_dmabuf_mr, fd -1", "refused by %zu device%s",
			tried - (dmabuf != NULL),
			tried - (dmabuf != NULL) == 1 ? "" : "s");
	/* dma-buf needs both ends: the NIC's registration, and the GPU
	 * driver's export, which only NVIDIA's open kernel modules have. */
	if (dmabuf && mods && !strcmp(mods, "open")) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "no peer-memory module, but %s registers dma-buf "
			     "memory and NVIDIA's open kernel modules export "
			     "GPU memory as dma-buf: GPUDirect RDMA works "
			     "through dma-buf",
			     dmabuf);
		return;
	}
	if (!dmabuf && untried)
		snprintf(why, sizeof(why),
			 "whether %zu RDMA device%s register%s dma-buf memory "
			 "(verbs not read)",
			 untried, untried == 1 ? "" : "s",
			 untried == 1 ? "s" : "");
	else if (!dmabuf && !tried)
		snprintf(why, sizeof(why),
			 "whether the NICs register dma-buf memory (%s)",
			 x->s->n_devices
				 ? "the RDMA devices' verbs were not read"
				 : "no RDMA device to try it on");
	else if (dmabuf && !mods)
		snprintf(why, sizeof(why),
			 "whether the GPU driver exports GPU memory as dma-buf "
			 "for %s (NVIDIA's open kernel modules)",
			 dmabuf);
	else if (!t->nvidia_peermem.ok || !t->nv_peer_mem.ok)
		snprintf(why, sizeof(why), "whether %s is loaded",
			 !t->nvidia_peermem.ok ? "nvidia_peermem"
					       : "nv_peer_mem");
	if (!diag_have(x, r, !why[0],
		       "no peer-memory module loaded; %s was not read: "
		       "GPUDirect RDMA may be impossible",
		       why)) {
		diag_next(x, r,
			  "modprobe nvidia-peermem, then NCCL's INFO line "
			  "'GPU Direct RDMA Enabled' confirms it.");
		return;
	}
	if (dmabuf)
		diag_verdict(x, r, RD_FAIL, "no_peermem",
			     "no peer-memory module (nvidia_peermem, "
			     "nv_peer_mem), and NVIDIA's kernel modules are "
			     "%s: no GPU memory is exported as dma-buf for "
			     "%s: GPUDirect RDMA is impossible, every transfer "
			     "is staged through host memory",
			     mods, dmabuf);
	else
		diag_verdict(x, r, RD_FAIL, "no_peermem",
			     "no peer-memory module (nvidia_peermem, "
			     "nv_peer_mem) and no NIC registers dma-buf "
			     "memory: GPUDirect RDMA is impossible, every "
			     "transfer is staged through host memory");
	diag_next(x, r,
		  "modprobe nvidia-peermem (shipped with the NVIDIA "
		  "driver); NCCL then prints 'GPU Direct RDMA Enabled'.");
}

void check_gpu_pcie(struct diag_ctx *x)
{
	const struct rd_topo *t = &x->s->topo;

	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;
		const struct rd_topo_node *g = &t->nodes[i];
		struct rd_result *r;
		long gi = rd_topo_gpu_index(t, i);
		const struct rd_topo_node *bad = NULL;

		if (!rd_topo_is_gpu(g) || !(r = gpu_result(x, i, &c)))
			continue;
		if (!diag_have(x, r, g->width.ok && g->max_width.ok,
			       "GPU%ld %s: link width not read", gi, g->bdf))
			continue;
		diag_ev(x, r, "GPU link", "sysfs current_link_*/max_link_*",
			"%.1f GT/s x%" PRIu64 " of %.1f GT/s x%" PRIu64,
			g->speed_gts.ok ? g->speed_gts.v : 0, g->width.v,
			g->max_speed_gts.ok ? g->max_speed_gts.v : 0,
			g->max_width.v);
		if (g->width.v < g->max_width.v) {
			diag_verdict(x, r, RD_FAIL, "pcie_degraded",
				     "GPU%ld %s: PCIe link trained at x%" PRIu64
				     " of x%" PRIu64 ": %s of its bandwidth "
				     "to the NIC and host",
				     gi, g->bdf, g->width.v, g->max_width.v,
				     g->width.v * 2 <= g->max_width.v
					     ? "half or less"
					     : "part");
			diag_next(x, r,
				  "Reseat the GPU or its riser; the "
				  "slot's wiring and the BIOS lane "
				  "setting decide the width.");
			continue;
		}
		/* The links of the path to its NIC (switch ports). */
		if (c.nearest >= 0) {
			const struct rd_topo_path *p = &c.near;

			for (size_t k = 0; k < p->n_up + p->n_down && !bad;
			     k++) {
				const struct rd_topo_node *n =
					&t->nodes[k < p->n_up
							  ? p->up[k]
							  : p->down[k -
								    p->n_up]];

				/* A VM's emulated ports make their links up. */
				if (n->depth.ok && n->depth.v % 2 &&
				    n->width.ok && n->max_width.ok &&
				    n->width.v < n->max_width.v &&
				    !rd_topo_emulated_bridge(n))
					bad = n;
			}
		}
		if (bad) {
			diag_verdict(x, r, RD_WARN, "pcie_degraded",
				     "GPU%ld %s: the link of %s on its path to "
				     "%s trained at x%" PRIu64 " of x%" PRIu64,
				     gi, g->bdf, bad->bdf,
				     nic_name(&t->nodes[c.nearest]),
				     bad->width.v, bad->max_width.v);
			diag_next(x, r, "Reseat the card at %s.", bad->bdf);
			continue;
		}
		diag_verdict(x, r, RD_PASS, "ok",
			     "GPU%ld %s: PCIe x%" PRIu64 " (full width); its "
			     "speed is not judged: GPUs lower it when idle",
			     gi, g->bdf, g->width.v);
	}
}
