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
	/*
	 * What the PF's driver holds for the VF (rtnetlink IFLA_VFINFO_LIST
	 * of the PF's netdev, as `ip link show PF` prints it). Absent where
	 * not read or where the driver does not say.
	 */
	char *mac;	     /* Ethernet VFs: "02:00:00:00:00:01" */
	struct rd_ou64 vlan; /* 0: none */
	struct rd_ou64 qos;
	struct rd_obool spoofchk;
	struct rd_obool trust;
	char *link_state;	    /* "auto", "enable", "disable" */
	struct rd_ou64 min_tx_rate; /* Mb/s; 0: no limit */
	struct rd_ou64 max_tx_rate;
	struct rd_ou64 node_guid; /* InfiniBand VFs: 0 until the PF sets it */
	struct rd_ou64 port_guid;
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
	/* the PF netdev's VF list was read from rtnetlink */
	struct rd_obool vfinfo_read;
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
