// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_ib.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct rd_field gid_fields[] = {
	RD_FLD_PU64(struct rd_gid, index, "index"),
	RD_FLD_GID(struct rd_gid, raw, raw_ok, "gid"),
	RD_FLD_STR(struct rd_gid, type, "type"),
	RD_FLD_STR(struct rd_gid, netdev, "netdev"),
	RD_FLD_END
};

static const struct rd_field verbs_port_fields[] = {
	RD_FLD_U64(struct rd_verbs_port, active_mtu, "active_mtu"),
	RD_FLD_U64(struct rd_verbs_port, max_mtu, "max_mtu"),
	RD_FLD_U64(struct rd_verbs_port, active_speed, "active_speed"),
	RD_FLD_U64(struct rd_verbs_port, active_width, "active_width"),
	RD_FLD_U64(struct rd_verbs_port, gid_tbl_len, "gid_tbl_len"),
	RD_FLD_U64(struct rd_verbs_port, pkey_tbl_len, "pkey_tbl_len"),
	RD_FLD_U64(struct rd_verbs_port, max_msg_sz, "max_msg_sz"),
	RD_FLD_END
};

const struct rd_field rd_port_fields[] = {
	RD_FLD_PU64(struct rd_port, port, "port"),
	RD_FLD_STR(struct rd_port, state, "state"),
	RD_FLD_U64(struct rd_port, state_num, "state_num"),
	RD_FLD_STR(struct rd_port, phys_state, "physical_state"),
	RD_FLD_U64(struct rd_port, phys_state_num, "physical_state_num"),
	RD_FLD_DBL(struct rd_port, rate_gbps, "rate_gbps"),
	RD_FLD_STR(struct rd_port, rate_text, "rate"),
	RD_FLD_STR(struct rd_port, width, "width"),
	RD_FLD_STR(struct rd_port, speed, "speed"),
	RD_FLD_STR(struct rd_port, link_layer, "link_layer"),
	RD_FLD_U64(struct rd_port, lid, "lid"),
	RD_FLD_U64(struct rd_port, sm_lid, "sm_lid"),
	RD_FLD_U64(struct rd_port, sm_sl, "sm_sl"),
	RD_FLD_U64(struct rd_port, lid_mask_count, "lid_mask_count"),
	RD_FLD_HEX(struct rd_port, cap_mask, "cap_mask"),
	RD_FLD_STR(struct rd_port, netdev, "netdev"),
	RD_FLD_U64(struct rd_port, netdev_ifindex, "netdev_index"),
	RD_FLD_HEX(struct rd_port, pkey0, "pkey0"),
	RD_FLD_ARRAY(struct rd_port, gids, n_gids, struct rd_gid, gid_fields,
		     "gids"),
	RD_FLD_COUNTERS(struct rd_port, counters, "counters"),
	RD_FLD_COUNTERS(struct rd_port, hw_counters, "hw_counters"),
	RD_FLD_U64(struct rd_port, xmit_bytes, "xmit_bytes"),
	RD_FLD_U64(struct rd_port, rcv_bytes, "rcv_bytes"),
	RD_FLD_STRUCT(struct rd_port, verbs, verbs_port_fields, "verbs"),
	RD_FLD_STR(struct rd_port, mismatch, "mismatch"),
	RD_FLD_END
};

static const struct rd_field verbs_dev_fields[] = {
	RD_FLD_BOOL(struct rd_verbs_dev, opened, "opened"),
	RD_FLD_STR(struct rd_verbs_dev, open_error, "open_error"),
	RD_FLD_BOOL(struct rd_verbs_dev, listed, "listed"),
	RD_FLD_U64(struct rd_verbs_dev, open_errno, "open_errno"),
	RD_FLD_BOOL(struct rd_verbs_dev, dmabuf, "dmabuf"),
	RD_FLD_U64(struct rd_verbs_dev, dmabuf_errno, "dmabuf_errno"),
	RD_FLD_U64(struct rd_verbs_dev, max_cqe, "max_cqe"),
	RD_FLD_U64(struct rd_verbs_dev, max_cq, "max_cq"),
	RD_FLD_U64(struct rd_verbs_dev, max_qp, "max_qp"),
	RD_FLD_U64(struct rd_verbs_dev, max_qp_wr, "max_qp_wr"),
	RD_FLD_U64(struct rd_verbs_dev, max_mr_size, "max_mr_size"),
	RD_FLD_U64(struct rd_verbs_dev, max_mr, "max_mr"),
	RD_FLD_U64(struct rd_verbs_dev, max_pd, "max_pd"),
	RD_FLD_U64(struct rd_verbs_dev, max_sge, "max_sge"),
	RD_FLD_U64(struct rd_verbs_dev, atomic_cap, "atomic_cap"),
	RD_FLD_U64(struct rd_verbs_dev, phys_port_cnt, "phys_port_cnt"),
	RD_FLD_HEX(struct rd_verbs_dev, vendor_id, "vendor_id"),
	RD_FLD_U64(struct rd_verbs_dev, vendor_part_id, "vendor_part_id"),
	RD_FLD_HEX(struct rd_verbs_dev, hw_ver, "hw_ver"),
	RD_FLD_END
};

const struct rd_field rd_device_fields[] = {
	RD_FLD_STR(struct rd_device, name, "name"),
	RD_FLD_U64(struct rd_device, index, "ifindex"),
	RD_FLD_STR(struct rd_device, node_type, "node_type"),
	RD_FLD_U64(struct rd_device, node_type_num, "node_type_num"),
	RD_FLD_GUID(struct rd_device, node_guid, "node_guid"),
	RD_FLD_GUID(struct rd_device, sys_image_guid, "sys_image_guid"),
	RD_FLD_STR(struct rd_device, fw_ver, "fw_ver"),
	RD_FLD_STR(struct rd_device, hca_type, "hca_type"),
	RD_FLD_STR(struct rd_device, board_id, "board_id"),
	RD_FLD_STR(struct rd_device, node_desc, "node_desc"),
	RD_FLD_STR(struct rd_device, driver, "driver"),
	RD_FLD_STR(struct rd_device, protocol, "protocol"),
	RD_FLD_STR(struct rd_device, pci_bdf, "pci"),
	RD_FLD_STR(struct rd_device, uverbs, "uverbs"),
	RD_FLD_STR(struct rd_device, uverbs_dev, "uverbs_dev"),
	RD_FLD_STRUCT(struct rd_device, verbs, verbs_dev_fields, "verbs"),
	RD_FLD_ARRAY(struct rd_device, ports, n_ports, struct rd_port,
		     rd_port_fields, "ports"),
	RD_FLD_END
};

/* Names as iproute2's rdma tool prints them, so outputs compare directly. */
static const char *const state_names[] = {
	[0] = "NOP", [1] = "DOWN", [2] = "INIT", [3] = "ARMED",
	[4] = "ACTIVE", [5] = "ACTIVE_DEFER",
};
static const char *const phys_names[] = {
	[0] = "NOP", [1] = "SLEEP", [2] = "POLLING", [3] = "DISABLED",
	[4] = "ARMED", [5] = "LINK_UP", [6] = "LINK_ERROR_RECOVER",
	[7] = "PHY_TEST", [9] = "OPA_OFFLINE", [11] = "OPA_LINK_UP",
};
static const char *const state_labels[] = {
	[0] = "NOP", [1] = "Down", [2] = "Initializing", [3] = "Armed",
	[4] = "Active", [5] = "Active_defer",
};
static const char *const phys_labels[] = {
	[0] = "NOP", [1] = "Sleep", [2] = "Polling", [3] = "Disabled",
	[4] = "PortConfigurationTraining", [5] = "LinkUp",
	[6] = "LinkErrorRecovery", [7] = "PhyTest",
};
static const char *const node_types[] = {
	[1] = "CA", [2] = "SWITCH", [3] = "ROUTER", [4] = "RNIC",
	[5] = "USNIC", [6] = "USNIC_UDP", [7] = "UNSPECIFIED",
};

static const char *lookup(const char *const *t, size_t n, uint64_t i)
{
	return i < n && t[i] ? t[i] : "UNKNOWN";
}

const char *rd_port_state_name(uint64_t s)
{
	return lookup(state_names, N(state_names), s);
}

const char *rd_port_phys_state_name(uint64_t s)
{
	return lookup(phys_names, N(phys_names), s);
}

const char *rd_port_state_label(uint64_t s)
{
	return lookup(state_labels, N(state_labels), s);
}

const char *rd_port_phys_state_label(uint64_t s)
{
	return lookup(phys_labels, N(phys_labels), s);
}

const char *rd_node_type_name(uint64_t t)
{
	return lookup(node_types, N(node_types), t);
}

bool rd_port_state_is(const struct rd_port *p, enum rd_port_state st)
{
	return p->state_num.ok && p->state_num.v == (uint64_t)st;
}

bool rd_port_phys_is(const struct rd_port *p, enum rd_port_phys_state st)
{
	return p->phys_state_num.ok && p->phys_state_num.v == (uint64_t)st;
}

bool rd_port_active(const struct rd_port *p)
{
	return rd_port_state_is(p, RD_PORT_ACTIVE) ||
	       rd_port_state_is(p, RD_PORT_ACTIVE_DEFER);
}

bool rd_port_is_eth(const struct rd_port *p)
{
	return p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
}

bool rd_port_is_ib(const struct rd_port *p)
{
	return p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0;
}

int rd_port_nums_from_names(struct rd_port *p, char *err, size_t errlen)
{
	struct {
		const char *key, *name;
		struct rd_ou64 *num;
		const char *(*of)(uint64_t);
	} f[] = {
		{ "state", p->state, &p->state_num, rd_port_state_name },
		{ "physical_state", p->phys_state, &p->phys_state_num,
		  rd_port_phys_state_name },
	};

	for (size_t k = 0; k < 2; k++) {
		const char *n = f[k].name;
		bool found = false;

		if (f[k].num->ok || !n)
			continue;
		if (n[0] >= '0' && n[0] <= '9' && strchr(n, ':'))
			n = strchr(n, ':') + 1;
		n += strspn(n, " ");
		for (uint64_t v = 0; v < 16 && !found; v++)
			if (strcasecmp(f[k].of(v), n) == 0 &&
			    strcmp(f[k].of(v), "UNKNOWN") != 0) {
				*f[k].num = rd_u64(v);
				found = true;
			}
		if (!found) {
			snprintf(err, errlen,
				 "%s \"%s\" is not a port state and %s_num is "
				 "missing",
				 f[k].key, f[k].name, f[k].key);
			return -EINVAL;
		}
	}
	return 0;
}
