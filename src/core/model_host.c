// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_host.h"

const char *const rd_rdma_modules[] = {
	"ib_core",  "ib_uverbs",      "ib_umad",   "ib_cm",	 "iw_cm",
	"rdma_cm",  "rdma_ucm",	      "mlx5_core", "mlx5_ib",	 "mlx4_core",
	"mlx4_ib",  "mlx4_en",	      "irdma",	   "bnxt_re",	 "bnxt_en",
	"qedr",	    "hns_roce_hw_v2", "efa",	   "erdma",	 "mana_ib",
	"iw_cxgb4", "rdma_rxe",	      "siw",	   "mlx_compat", NULL,
};

const struct rd_field rd_pci_fields[] = {
	RD_FLD_STR(struct rd_pci, bdf, "bdf"),
	RD_FLD_HEX(struct rd_pci, vendor_id, "vendor_id"),
	RD_FLD_HEX(struct rd_pci, device_id, "device_id"),
	RD_FLD_HEX(struct rd_pci, subsys_vendor_id, "subsys_vendor_id"),
	RD_FLD_HEX(struct rd_pci, subsys_device_id, "subsys_device_id"),
	RD_FLD_HEX(struct rd_pci, class_id, "class"),
	RD_FLD_STR(struct rd_pci, vendor_name, "vendor_name"),
	RD_FLD_STR(struct rd_pci, device_name, "device_name"),
	RD_FLD_STR(struct rd_pci, driver, "driver"),
	RD_FLD_STR(struct rd_pci, rdma_device, "rdma_device"),
	RD_FLD_DBL(struct rd_pci, link_speed_gts, "link_speed_gts"),
	RD_FLD_U64(struct rd_pci, link_width, "link_width"),
	RD_FLD_DBL(struct rd_pci, cap_speed_gts, "cap_speed_gts"),
	RD_FLD_U64(struct rd_pci, cap_width, "cap_width"),
	RD_FLD_U64(struct rd_pci, max_payload, "max_payload"),
	RD_FLD_U64(struct rd_pci, max_read_req, "max_read_req"),
	RD_FLD_STR(struct rd_pci, link_source, "link_source"),
	RD_FLD_S64(struct rd_pci, numa_node, "numa_node"),
	RD_FLD_STR(struct rd_pci, local_cpulist, "local_cpulist"),
	RD_FLD_STR(struct rd_pci, vpd_part_number, "vpd_part_number"),
	RD_FLD_STR(struct rd_pci, vpd_serial, "vpd_serial"),
	RD_FLD_END
};

const struct rd_field rd_module_fields[] = {
	RD_FLD_STR(struct rd_module, name, "name"),
	RD_FLD_BOOL(struct rd_module, loaded, "loaded"),
	RD_FLD_BOOL(struct rd_module, builtin, "builtin"),
	RD_FLD_BOOL(struct rd_module, available, "available"),
	RD_FLD_STR(struct rd_module, version, "version"),
	RD_FLD_STR(struct rd_module, srcversion, "srcversion"),
	RD_FLD_U64(struct rd_module, refcnt, "refcnt"),
	RD_FLD_STR(struct rd_module, initstate, "initstate"),
	RD_FLD_END
};

static const struct rd_field limit_fields[] = {
	RD_FLD_STR(struct rd_limit_line, file, "file"),
	RD_FLD_U64(struct rd_limit_line, line, "line"),
	RD_FLD_STR(struct rd_limit_line, domain, "domain"),
	RD_FLD_STR(struct rd_limit_line, type, "type"),
	RD_FLD_STR(struct rd_limit_line, item, "item"),
	RD_FLD_STR(struct rd_limit_line, value, "value"),
	RD_FLD_END
};

static const struct rd_field devnode_fields[] = {
	RD_FLD_STR(struct rd_devnode, path, "path"),
	RD_FLD_BOOL(struct rd_devnode, exists, "exists"),
	RD_FLD_U64(struct rd_devnode, mode, "mode"),
	RD_FLD_BOOL(struct rd_devnode, readable, "readable"),
	RD_FLD_BOOL(struct rd_devnode, writable, "writable"),
	RD_FLD_END
};

static const struct rd_field cm_fields[] = {
	RD_FLD_STR(struct rd_cm_port, device, "device"),
	RD_FLD_U64(struct rd_cm_port, port, "port"),
	RD_FLD_STR(struct rd_cm_port, default_roce_mode, "default_roce_mode"),
	RD_FLD_U64(struct rd_cm_port, default_roce_tos, "default_roce_tos"),
	RD_FLD_END
};

const struct rd_field rd_netns_dev_fields[] = {
	RD_FLD_STR(struct rd_netns_dev, netns, "netns"),
	RD_FLD_STR(struct rd_netns_dev, owner, "owner"),
	RD_FLD_STR(struct rd_netns_dev, rdma_device, "rdma_device"),
	RD_FLD_STR(struct rd_netns_dev, netdev, "netdev"),
	RD_FLD_STR(struct rd_netns_dev, pci_bdf, "pci_bdf"),
	RD_FLD_END
};

const struct rd_field rd_host_fields[] = {
	RD_FLD_STR(struct rd_host, hostname, "hostname"),
	RD_FLD_STR(struct rd_host, kernel, "kernel"),
	RD_FLD_STR(struct rd_host, rdma_core_version, "rdma_core_version"),
	RD_FLD_BOOL(struct rd_host, is_root, "is_root"),
	RD_FLD_BOOL(struct rd_host, memlock_unlimited, "memlock_unlimited"),
	RD_FLD_U64(struct rd_host, memlock_soft, "memlock_soft"),
	RD_FLD_U64(struct rd_host, memlock_hard, "memlock_hard"),
	RD_FLD_BOOL(struct rd_host, memlock_hard_unlimited,
		    "memlock_hard_unlimited"),
	RD_FLD_BOOL(struct rd_host, cap_ipc_lock, "cap_ipc_lock"),
	RD_FLD_BOOL(struct rd_host, cap_net_admin, "cap_net_admin"),
	RD_FLD_ARRAY(struct rd_host, limits, n_limits, struct rd_limit_line,
		     limit_fields, "memlock_limits_conf"),
	RD_FLD_U64(struct rd_host, hugepages_total, "hugepages_total"),
	RD_FLD_U64(struct rd_host, hugepages_free, "hugepages_free"),
	RD_FLD_U64(struct rd_host, hugepage_kb, "hugepage_kb"),
	RD_FLD_U64(struct rd_host, mem_total_kb, "mem_total_kb"),
	RD_FLD_U64(struct rd_host, numa_nodes, "numa_nodes"),
	RD_FLD_STR(struct rd_host, cpu_affinity, "cpu_affinity"),
	RD_FLD_STR(struct rd_host, mempolicy, "mempolicy"),
	RD_FLD_STR(struct rd_host, container, "container"),
	RD_FLD_STR(struct rd_host, rdma_netns_mode, "rdma_netns_mode"),
	RD_FLD_BOOL(struct rd_host, rdma_copy_on_fork, "rdma_copy_on_fork"),
	RD_FLD_ARRAY(struct rd_host, devnodes, n_devnodes, struct rd_devnode,
		     devnode_fields, "devnodes"),
	RD_FLD_BOOL(struct rd_host, mlnx_ofed, "mlnx_ofed"),
	RD_FLD_S64(struct rd_host, tcp_ecn, "tcp_ecn"),
	RD_FLD_U64(struct rd_host, rmem_default, "rmem_default"),
	RD_FLD_U64(struct rd_host, rmem_max, "rmem_max"),
	RD_FLD_U64(struct rd_host, nr_hugepages, "nr_hugepages"),
	RD_FLD_ARRAY(struct rd_host, cm_ports, n_cm_ports, struct rd_cm_port,
		     cm_fields, "rdma_cm"),
	RD_FLD_STR(struct rd_host, netns_scan, "netns_scan"),
	RD_FLD_ARRAY(struct rd_host, netns_devs, n_netns_devs,
		     struct rd_netns_dev, rd_netns_dev_fields, "netns_devices"),
	RD_FLD_END
};

bool rd_devnode_denied(const struct rd_devnode *n)
{
	return (n->readable.ok && !n->readable.v) ||
	       (n->writable.ok && !n->writable.v);
}
