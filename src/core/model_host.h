/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host around the NICs: PCI functions, kernel modules, limits, memory. */
#ifndef RD_CORE_MODEL_HOST_H
#define RD_CORE_MODEL_HOST_H

#include "core/model.h"

struct rd_pci {
	char *bdf;			/* "0000:3b:00.0" */
	struct rd_ou64 vendor_id;
	struct rd_ou64 device_id;
	struct rd_ou64 subsys_vendor_id;
	struct rd_ou64 subsys_device_id;
	struct rd_ou64 class_id;	/* 24-bit class code */
	char *vendor_name;
	char *device_name;
	char *driver;
	char *rdma_device;		/* RDMA device on this function, if any */
	struct rd_odbl link_speed_gts;	/* LnkSta, GT/s */
	struct rd_ou64 link_width;
	struct rd_odbl cap_speed_gts;	/* LnkCap */
	struct rd_ou64 cap_width;
	struct rd_ou64 max_payload;	/* DevCtl MaxPayload, bytes */
	struct rd_ou64 max_read_req;	/* DevCtl MaxReadReq, bytes */
	char *link_source;		/* "config" (LnkSta/LnkCap) or "sysfs" */
	struct rd_os64 numa_node;	/* -1: no NUMA information */
	char *local_cpulist;
	char *vpd_part_number;
	char *vpd_serial;
};

/* The modules the kmod probe looks for (each is reported loaded or
 * not), NULL-terminated. */
extern const char *const rd_rdma_modules[];

struct rd_module {
	char *name;
	struct rd_obool loaded;
	struct rd_obool builtin;	/* part of the kernel image */
	struct rd_obool available;	/* found in the running kernel's modules */
	char *version;
	char *srcversion;
	struct rd_ou64 refcnt;
	char *initstate;
};

struct rd_limit_line {
	char *file;
	struct rd_ou64 line;
	char *domain;
	char *type;	/* soft / hard / - */
	char *item;	/* memlock */
	char *value;
};

struct rd_devnode {
	char *path;		/* "/dev/infiniband/uverbs0" */
	struct rd_obool exists;
	struct rd_ou64 mode;	/* st_mode & 07777 */
	struct rd_obool readable;	/* by this process */
	struct rd_obool writable;
};

struct rd_cm_port {
	char *device;
	struct rd_ou64 port;
	char *default_roce_mode;
	struct rd_ou64 default_roce_tos;
};

/*
 * An RDMA device, or a netdev on a PCI function, that lives in another
 * network namespace (RDMA netns mode exclusive: invisible from here), as
 * read from inside that namespace.
 */
struct rd_netns_dev {
	char *netns;	   /* "c1" (/run/netns/c1) or "pid 4242" */
	char *owner;	   /* its first process: "pause", a pod's UID */
	char *rdma_device; /* NULL: a netdev without an RDMA device */
	char *netdev;
	char *pci_bdf;
};

struct rd_host {
	char *hostname;
	char *kernel;			/* uname -r */
	char *rdma_core_version;
	struct rd_obool is_root;	/* effective uid 0 */
	struct rd_obool memlock_unlimited;
	struct rd_ou64 memlock_soft;	/* bytes, when limited */
	struct rd_ou64 memlock_hard;
	struct rd_obool memlock_hard_unlimited;
	struct rd_obool cap_ipc_lock;	/* effective */
	struct rd_obool cap_net_admin;
	struct rd_limit_line *limits;	/* memlock lines of limits.conf(.d) */
	size_t n_limits;
	struct rd_ou64 hugepages_total;
	struct rd_ou64 hugepages_free;
	struct rd_ou64 hugepage_kb;
	struct rd_ou64 mem_total_kb;
	struct rd_ou64 numa_nodes;
	char *cpu_affinity;		/* this process, cpulist form */
	char *mempolicy;
	char *container;		/* "none", "docker", "lxc", ... */
	/* RDMA netlink SYS_GET: "shared" (every device in every network
	 * namespace) or "exclusive" (each in the one it was moved to). */
	char *rdma_netns_mode;
	struct rd_obool rdma_copy_on_fork;
	struct rd_devnode *devnodes;
	size_t n_devnodes;
	struct rd_obool mlnx_ofed;	/* mlx_compat loaded */
	struct rd_os64 tcp_ecn;
	struct rd_ou64 rmem_default;
	struct rd_ou64 rmem_max;
	struct rd_ou64 nr_hugepages;
	struct rd_cm_port *cm_ports;	/* configfs rdma_cm defaults */
	size_t n_cm_ports;
	/* Other network namespaces, read in exclusive mode: "read", or why
	 * not (NULL in shared mode, where every device is seen here). */
	char *netns_scan;
	struct rd_netns_dev *netns_devs;
	size_t n_netns_devs;
};

extern const struct rd_field rd_netns_dev_fields[];

/* The node was read as not readable or not writable by this process. */
bool rd_devnode_denied(const struct rd_devnode *n);

extern const struct rd_field rd_pci_fields[];
extern const struct rd_field rd_module_fields[];
extern const struct rd_field rd_host_fields[];

#endif
