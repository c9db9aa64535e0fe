/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions a NIC shares out: SR-IOV virtual functions of each physical
 * function, and bonds of NIC ports (a RoCE LAG when the NIC offloads it).
 */
#ifndef RD_CORE_MODEL_VIRT_H
#define RD_CORE_MODEL_VIRT_H

#include "core/model.h"

struct rd_vf {
	struct rd_ou64 index; /* N of virtfnN */
	char *bdf;
	char *driver; /* "mlx5_core", "vfio-pci" (passed to a VM) */
	char *netdev;
	char *rdma_device;
};

/* One physical function with the SR-IOV capability. */
struct rd_sriov {
	char *pf_bdf;
	char *pf_rdma_device;
	char *pf_netdev;
	struct rd_ou64 totalvfs; /* 0: SR-IOV off in the NIC's firmware */
	struct rd_ou64 numvfs;
	struct rd_vf *vfs;
	size_t n_vfs;
};

struct rd_bond_member {
	char *name;
	char *operstate;
	struct rd_obool carrier;
	char *pci_bdf;
	char *rdma_device; /* the member's own RDMA device, if any */
};

/* A bonding master (sysfs bonding/): mode, hash policy, members. */
struct rd_bond {
	char *name;
	char *mode; /* "802.3ad", "active-backup", "balance-rr" */
	struct rd_ou64 mode_num;
	char *hash_policy; /* "layer3+4" */
	char *active_slave;
	struct rd_bond_member *members;
	size_t n_members;
	char *rdma_device; /* an RDMA device on the bond: mlx5_bond_0 */
	/* debugfs mlx5/<bdf>/lag/state of its first member, as root */
	char *lag_state;
};

extern const struct rd_field rd_sriov_fields[];
extern const struct rd_field rd_bond_fields[];

#endif
