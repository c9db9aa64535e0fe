// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_topo.h"

#include <string.h>

static const struct rd_field node_fields[] = {
	RD_FLD_STR(struct rd_topo_node, bdf, "bdf"),
	RD_FLD_STR(struct rd_topo_node, kind, "kind"),
	RD_FLD_STR(struct rd_topo_node, parent, "parent"),
	RD_FLD_STR(struct rd_topo_node, host_bridge, "host_bridge"),
	RD_FLD_U64(struct rd_topo_node, depth, "depth"),
	RD_FLD_HEX(struct rd_topo_node, vendor_id, "vendor_id"),
	RD_FLD_HEX(struct rd_topo_node, device_id, "device_id"),
	RD_FLD_HEX(struct rd_topo_node, subsys_vendor_id, "subsys_vendor_id"),
	RD_FLD_HEX(struct rd_topo_node, subsys_device_id, "subsys_device_id"),
	RD_FLD_HEX(struct rd_topo_node, class_id, "class_id"),
	RD_FLD_STR(struct rd_topo_node, driver, "driver"),
	RD_FLD_STR(struct rd_topo_node, rdma_device, "rdma_device"),
	RD_FLD_S64(struct rd_topo_node, numa_node, "numa_node"),
	RD_FLD_DBL(struct rd_topo_node, speed_gts, "link_speed_gts"),
	RD_FLD_U64(struct rd_topo_node, width, "link_width"),
	RD_FLD_DBL(struct rd_topo_node, max_speed_gts, "max_link_speed_gts"),
	RD_FLD_U64(struct rd_topo_node, max_width, "max_link_width"),
	RD_FLD_STR(struct rd_topo_node, acs, "acs"),
	RD_FLD_HEX(struct rd_topo_node, acs_offset, "acs_offset"),
	RD_FLD_HEX(struct rd_topo_node, acs_cap, "acs_cap"),
	RD_FLD_HEX(struct rd_topo_node, acs_ctl, "acs_ctl"),
	RD_FLD_U64(struct rd_topo_node, iommu_group, "iommu_group"),
	RD_FLD_STR(struct rd_topo_node, iommu_type, "iommu_type"),
	RD_FLD_END
};

const struct rd_field rd_topo_fields[] = {
	RD_FLD_BOOL(struct rd_topo, read, "read"),
	RD_FLD_ARRAY(struct rd_topo, nodes, n_nodes, struct rd_topo_node,
		     node_fields, "nodes"),
	RD_FLD_BOOL(struct rd_topo, iommu, "iommu"),
	RD_FLD_STR(struct rd_topo, cmdline, "cmdline"),
	RD_FLD_BOOL(struct rd_topo, nvidia_peermem, "nvidia_peermem"),
	RD_FLD_STR(struct rd_topo, nvidia_peermem_version,
		   "nvidia_peermem_version"),
	RD_FLD_BOOL(struct rd_topo, nv_peer_mem, "nv_peer_mem"),
	RD_FLD_STR(struct rd_topo, nv_peer_mem_version, "nv_peer_mem_version"),
	RD_FLD_STR(struct rd_topo, nvidia_modules, "nvidia_modules"),
	RD_FLD_END
};

const struct rd_topo_node *rd_topo_node(const struct rd_topo *t,
					const char *bdf)
{
	for (size_t i = 0; t && bdf && i < t->n_nodes; i++)
		if (t->nodes[i].bdf && strcmp(t->nodes[i].bdf, bdf) == 0)
			return &t->nodes[i];
	return NULL;
}
