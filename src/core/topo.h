/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GPU-to-NIC paths over the PCIe tree of the snapshot, classified the way
 * NCCL classifies them, so what rdmadiag says matches NCCL's own INFO
 * lines. Pure: the checks, `env nccl` and the console share it.
 *
 * NCCL's model (src/graph/xml.cc, paths.cc): a device's parent is the
 * function two levels up its sysfs path, so a PCIe switch (an upstream
 * port with its downstream ports) is one node, and a device whose path
 * reaches the host bridge within two levels hangs off a CPU node, one per
 * NUMA node. A path's type is the worst of its hops: device to switch is
 * PIX, switch to switch PXB, anything touching a CPU node PHB, and CPU to
 * CPU SYS. nvidia-smi's NODE (two host bridges of one NUMA node) is NCCL's
 * PHB.
 */
#ifndef RD_CORE_TOPO_H
#define RD_CORE_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model_topo.h"
#include "core/snapshot.h"

/* NCCL's path types, with its numbers (src/include/graph.h). */
enum rd_topo_dist {
	RD_DIST_LOC = 0,
	RD_DIST_NVL = 1,
	RD_DIST_NVB = 2,
	RD_DIST_C2C = 3,
	RD_DIST_PIX = 4,
	RD_DIST_PXB = 5,
	RD_DIST_P2C = 6,
	RD_DIST_PXN = 7,
	RD_DIST_PHB = 8,
	RD_DIST_SYS = 9,
	RD_DIST_UNKNOWN = 10,
};

/* NCCL's default NCCL_NET_GDR_LEVEL: GPUDirect RDMA up to PXB. */
#define RD_DIST_GDR_DEFAULT RD_DIST_PXB

const char *rd_topo_dist_name(enum rd_topo_dist d);
/*
 * NCCL_NET_GDR_LEVEL as NCCL reads it: a path type's name (LOC ... SYS),
 * or a number of the old scale (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and above
 * SYS). -EINVAL for anything else (NCCL then keeps its default).
 */
int rd_topo_dist_parse(const char *s, enum rd_topo_dist *d);

#define RD_TOPO_MAX_DEPTH 16

/* One GPU-to-NIC path. */
struct rd_topo_path {
	enum rd_topo_dist dist; /* NCCL's label; UNKNOWN: a NUMA node unread */
	/* NCCL flattened a two-level Broadcom PEX switch on the path, so
	 * its label is nearer than the tree's (PIX where smi says PXB) */
	bool flattened;
	const char *smi; /* nvidia-smi topo's: PIX PXB PHB NODE SYS, or "?" */
	/* Node indexes from the GPU up, and from the NIC up, each ending
	 * below the common bridge (lca) or at the top of its tree. */
	size_t up[RD_TOPO_MAX_DEPTH], n_up;
	size_t down[RD_TOPO_MAX_DEPTH], n_down;
	bool has_lca;
	size_t lca; /* the lowest bridge both hang below */
	/* The narrowest link on the path as trained now (a node owns the
	 * link above it when its depth is odd: endpoints and switch
	 * upstream ports; a downstream port's is inside the switch). */
	bool narrow_ok;
	size_t narrow;	    /* the node whose link it is */
	double narrow_gbps; /* after line encoding */
	/* Bridges on the path whose ACS redirects peer traffic (RR or CR
	 * without DT), and those whose ACS could not be read. */
	size_t redirect[RD_TOPO_MAX_DEPTH * 2], n_redirect;
	size_t unread[RD_TOPO_MAX_DEPTH * 2], n_unread;
	size_t bridges; /* bridges on the path, the lca excluded */
};

/* Index of the node of that BDF, or -1. */
long rd_topo_find(const struct rd_topo *t, const char *bdf);
/* Is the node a GPU / a NIC function? */
bool rd_topo_is_gpu(const struct rd_topo_node *n);
bool rd_topo_is_nic(const struct rd_topo_node *n);
/* GPUs and NICs in tree order; index into t->nodes, -1 past the end. */
long rd_topo_nth(const struct rd_topo *t, const char *kind, size_t i);
size_t rd_topo_count(const struct rd_topo *t, const char *kind);

/* The path from node gpu to node nic. 0, or -EINVAL (bad index, loop). */
int rd_topo_path(const struct rd_topo *t, size_t gpu, size_t nic,
		 struct rd_topo_path *p);

/*
 * The narrowest link as trained now between node i and the root port
 * above it, by the rule of rd_topo_path's narrow (the node that owns
 * it in *at). The links of emulated bridges are left out (their count
 * in *emulated): a VM's bridges report made-up links (QEMU's switch
 * 2.5 GT/s x1) that a passed-through device's traffic never crosses.
 * False when no other link on the way was read, or the chain is broken.
 */
bool rd_topo_narrowest_above(const struct rd_topo *t, size_t i, size_t *at,
			     size_t *emulated);
/* A bridge a hypervisor emulates: QEMU's (Red Hat 1b36, its models of
 * TI's XIO3130 and Intel's IOH3420) and VMware's (15ad). */
bool rd_topo_emulated_bridge(const struct rd_topo_node *n);

/* Payload rate of a link of that speed and width, Gb/s, after encoding. */
double rd_topo_link_gbps(double gts, unsigned long long width);

/* Does this node's ACS control redirect peer-to-peer traffic upstream? */
bool rd_topo_acs_redirects(const struct rd_topo_node *n);
/* "SrcValid+ TransBlk- ReqRedir+ ..." as lspci prints ACSCtl. */
void rd_topo_acs_text(unsigned ctl, char *buf, size_t len);
/* Vendor name of a GPU: "NVIDIA", "AMD", or "GPU". */
const char *rd_topo_gpu_vendor(const struct rd_topo_node *n);

/* Can a NIC function carry RDMA traffic now? */
enum rd_nic_use {
	RD_NIC_USABLE,	  /* an RDMA device with a port ACTIVE */
	RD_NIC_DOWN,	  /* its ports read, none ACTIVE */
	RD_NIC_NO_DEVICE, /* no RDMA device on the function */
	RD_NIC_UNREAD,	  /* the device's port states were not read */
	RD_NIC_ELSEWHERE, /* none here, but in another network namespace,
			     or exclusive mode and the others not read */
};
/* state: a port state as read ("DOWN"), for the text; may be NULL. */
enum rd_nic_use rd_topo_nic_use(const struct rd_snapshot *s,
				const struct rd_topo_node *nic,
				const char **state);
const char *rd_topo_nic_use_text(enum rd_nic_use u);
/* Whether the NIC can be used is not known: unread, or in another netns. */
bool rd_topo_nic_use_unknown(enum rd_nic_use u);

/*
 * The NIC a GPU should use, chosen as NCCL does (the nearest by path
 * type, then the widest narrowest link), and the nearest usable one when
 * that one is not usable. -1 where there is none.
 */
struct rd_topo_choice {
	long nearest;
	struct rd_topo_path near;
	enum rd_nic_use near_use;
	const char *near_state;
	long usable;
	struct rd_topo_path use;
	/* NICs whose use is not known (unread, or in another namespace). */
	size_t n_unknown;
};
void rd_topo_choose(const struct rd_snapshot *s, size_t gpu,
		    struct rd_topo_choice *c);
/* The GPU's number in tree order (nvidia-smi's order by PCI address). */
long rd_topo_gpu_index(const struct rd_topo *t, size_t node);

#endif
