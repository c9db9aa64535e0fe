/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCIe tree between GPUs and RDMA NIC functions: each GPU, each NIC
 * function, every bridge above them up to the host bridge, each with its
 * NUMA node, its link and its ACS control bits, and what GPUDirect RDMA
 * needs from the host (a peer-memory module, dma-buf registration).
 */
#ifndef RD_CORE_MODEL_TOPO_H
#define RD_CORE_MODEL_TOPO_H

#include "core/model.h"

/* ACS control bits (PCIe extended capability 0x000d, register +6). */
enum {
	RD_ACS_SV = 0x0001, /* Source Validation */
	RD_ACS_TB = 0x0002, /* Translation Blocking */
	RD_ACS_RR = 0x0004, /* P2P Request Redirect */
	RD_ACS_CR = 0x0008, /* P2P Completion Redirect */
	RD_ACS_UF = 0x0010, /* Upstream Forwarding */
	RD_ACS_EC = 0x0020, /* P2P Egress Control */
	RD_ACS_DT = 0x0040, /* Direct Translated P2P */
};

struct rd_topo_node {
	char *bdf;  /* "0000:17:00.0" */
	char *kind; /* "gpu", "nic" or "bridge" */
	/* The bridge above (a BDF), or NULL: on the host bridge. */
	char *parent;
	char *host_bridge;    /* "pci0000:00": the root complex above */
	struct rd_ou64 depth; /* functions above it: 0 on the host bridge */
	struct rd_ou64 vendor_id;
	struct rd_ou64 device_id;
	struct rd_ou64 class_id;
	/* sysfs subsystem_vendor/_device: NCCL tells Broadcom switch
	 * levels apart by them */
	struct rd_ou64 subsys_vendor_id;
	struct rd_ou64 subsys_device_id;
	char *driver;
	char *rdma_device;	  /* a NIC function's RDMA device, if any */
	struct rd_os64 numa_node; /* -1: the kernel has no NUMA node */
	/* The function's own link (sysfs current_/max_link_*). */
	struct rd_odbl speed_gts;
	struct rd_ou64 width;
	struct rd_odbl max_speed_gts;
	struct rd_ou64 max_width;
	/*
	 * "read": acs_cap and acs_ctl hold the capability; "none": the
	 * extended capability chain has no ACS; "unreadable": config space
	 * ended before 0x100 (a reader without CAP_SYS_ADMIN sees 64 bytes);
	 * "invalid": the chain is broken. Bridges only.
	 */
	char *acs;
	struct rd_ou64 acs_offset; /* where in config space */
	struct rd_ou64 acs_cap;
	struct rd_ou64 acs_ctl;
	/* /sys/kernel/iommu_groups/<n>/type: "DMA", "DMA-FQ", "identity" */
	struct rd_ou64 iommu_group;
	char *iommu_type;
};

struct rd_topo {
	/* The tree was walked (bus/pci/devices read): the GPUs and the
	 * NIC functions with every bridge above them. It serves the
	 * GPU-to-NIC paths and each NIC's links up to its root port. */
	struct rd_obool read;
	struct rd_topo_node *nodes;
	size_t n_nodes;
	/* /sys/class/iommu holds a unit: the IOMMU is on. */
	struct rd_obool iommu;
	/* The words of /proc/cmdline about IOMMU and ACS ("iommu=pt"). */
	char *cmdline;
	/* NCCL's peer-memory files: nvidia_peermem, or nv_peer_mem's. */
	struct rd_obool nvidia_peermem;
	char *nvidia_peermem_version;
	struct rd_obool nv_peer_mem;
	char *nv_peer_mem_version;
	/* NVIDIA's kernel modules by /sys/module/nvidia/taint: "open" (dual
	 * MIT/GPL: they export GPU memory as dma-buf), "proprietary" (taint
	 * P: they do not), "not loaded"; NULL when not read. */
	char *nvidia_modules;
};

extern const struct rd_field rd_topo_fields[];

/* The node of that BDF, or NULL. */
const struct rd_topo_node *rd_topo_node(const struct rd_topo *t,
					const char *bdf);

#endif
