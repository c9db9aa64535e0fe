// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_virt.h"

static const struct rd_field vf_fields[] = {
	RD_FLD_U64(struct rd_vf, index, "index"),
	RD_FLD_STR(struct rd_vf, bdf, "bdf"),
	RD_FLD_STR(struct rd_vf, driver, "driver"),
	RD_FLD_STR(struct rd_vf, netdev, "netdev"),
	RD_FLD_STR(struct rd_vf, rdma_device, "rdma_device"),
	RD_FLD_STR(struct rd_vf, mac, "mac"),
	RD_FLD_U64(struct rd_vf, vlan, "vlan"),
	RD_FLD_U64(struct rd_vf, qos, "qos"),
	RD_FLD_BOOL(struct rd_vf, spoofchk, "spoofchk"),
	RD_FLD_BOOL(struct rd_vf, trust, "trust"),
	RD_FLD_STR(struct rd_vf, link_state, "link_state"),
	RD_FLD_U64(struct rd_vf, min_tx_rate, "min_tx_rate_mbps"),
	RD_FLD_U64(struct rd_vf, max_tx_rate, "max_tx_rate_mbps"),
	RD_FLD_GUID(struct rd_vf, node_guid, "node_guid"),
	RD_FLD_GUID(struct rd_vf, port_guid, "port_guid"),
	RD_FLD_END
};

const struct rd_field rd_sriov_fields[] = {
	RD_FLD_STR(struct rd_sriov, pf_bdf, "pf_bdf"),
	RD_FLD_STR(struct rd_sriov, pf_rdma_device, "pf_rdma_device"),
	RD_FLD_STR(struct rd_sriov, pf_netdev, "pf_netdev"),
	RD_FLD_U64(struct rd_sriov, totalvfs, "totalvfs"),
	RD_FLD_U64(struct rd_sriov, numvfs, "numvfs"),
	RD_FLD_ARRAY(struct rd_sriov, vfs, n_vfs, struct rd_vf, vf_fields,
		     "vfs"),
	RD_FLD_BOOL(struct rd_sriov, vfinfo_read, "vfinfo_read"),
	RD_FLD_END
};

static const struct rd_field member_fields[] = {
	RD_FLD_STR(struct rd_bond_member, name, "name"),
	RD_FLD_STR(struct rd_bond_member, operstate, "operstate"),
	RD_FLD_BOOL(struct rd_bond_member, carrier, "carrier"),
	RD_FLD_STR(struct rd_bond_member, pci_bdf, "pci_bdf"),
	RD_FLD_STR(struct rd_bond_member, rdma_device, "rdma_device"),
	RD_FLD_END
};

const struct rd_field rd_bond_fields[] = {
	RD_FLD_STR(struct rd_bond, name, "name"),
	RD_FLD_STR(struct rd_bond, mode, "mode"),
	RD_FLD_U64(struct rd_bond, mode_num, "mode_num"),
	RD_FLD_STR(struct rd_bond, hash_policy, "hash_policy"),
	RD_FLD_STR(struct rd_bond, active_slave, "active_slave"),
	RD_FLD_ARRAY(struct rd_bond, members, n_members, struct rd_bond_member,
		     member_fields, "members"),
	RD_FLD_STR(struct rd_bond, rdma_device, "rdma_device"),
	RD_FLD_STR(struct rd_bond, lag_state, "lag_state"),
	RD_FLD_END
};
