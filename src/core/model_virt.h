/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions a NIC shares out: SR-IOV virtual functions of each physical
 * function, and bonds of NIC ports (a RoCE LAG when the NIC offloads it).
 */
#ifndef RD_CORE_MODEL_VIRT_H
#define RD_CORE_MODEL_VIRT_H

#include <stdbool.h>

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

struct rd_snapshot;

/* Its operstate says up and its carrier was not read to be off. */
bool rd_bond_member_up(const struct rd_bond_member *m);
/* The physical function whose RDMA device is dev, or NULL. */
const struct rd_sriov *rd_sriov_of_pf(const struct rd_snapshot *s,
				      const char *dev);
/* The virtual function whose RDMA device is dev (its PF in *pf). */
const struct rd_vf *rd_vf_of_device(const struct rd_snapshot *s,
				    const char *dev,
				    const struct rd_sriov **pf);
/*
 * The bond whose RoCE LAG device is dev, or whose master or member is
 * the netdev (NULL: none), or NULL.
 */
const struct rd_bond *rd_bond_of(const struct rd_snapshot *s, const char *dev,
				 const char *netdev);

extern const struct rd_field rd_sriov_fields[];
extern const struct rd_field rd_bond_fields[];

#endif
