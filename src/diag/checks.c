// SPDX-License-Identifier: GPL-2.0-or-later
/* The check table, in the order of the layers (hardware first), and the
 * lookups checks share. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

/* A row: the area, the rest of the id, the title, the layer, the function;
 * the id is area.rest, so the area always matches it. */
#define CHECK(area, rest, title, layer, fn) \
	{ area "." rest, title, area, RD_LAYER_##layer, fn }

/* Ids are stable: scripts and the journal name checks by them. */
const struct rd_check rd_checks[] = {
	CHECK("hw", "pcie_link", "PCIe link at full speed and width",
	      HW, check_hw_pcie_link),
	CHECK("hw", "pcie_bandwidth", "PCIe carries the port's link rate",
	      HW, check_hw_pcie_bandwidth),
	CHECK("fw", "version", "Firmware at or above the minimum",
	      HW, check_fw_version),
	CHECK("driver", "modules", "RDMA kernel modules loaded",
	      DRIVER, check_driver_modules),
	CHECK("driver", "ofed", "Driver stack (inbox or MLNX_OFED)",
	      DRIVER, check_driver_ofed),
	CHECK("dev", "cq_size", "Completion queue size",
	      DRIVER, check_dev_cq_size),
	CHECK("user", "provider", "libibverbs provider opens the device",
	      USER, check_user_provider),
	CHECK("user", "uverbs", "/dev/infiniband/uverbsN present and usable",
	      USER, check_user_uverbs),
	CHECK("port", "state", "Port ACTIVE (port-down decision tree)",
	      PORT, check_port_state),
	CHECK("port", "rate", "Port rate matches the link",
	      PORT, check_port_rate),
	CHECK("port", "pkey", "P_Key table entry 0",
	      PORT, check_port_pkey),
	CHECK("counters", "errors", "Error counters not rising",
	      PORT, check_counters_errors),
	CHECK("port", "rocev2_gid", "RoCE v2 GID for an IPv4 address",
	      NETCFG, check_port_rocev2_gid),
	CHECK("port", "mtu", "RoCE MTU",
	      NETCFG, check_port_mtu),
	CHECK("port", "ib_mtu", "InfiniBand MTU set by the subnet manager",
	      NETCFG, check_port_mtu),
	CHECK("qos", "pfc", "PFC on the RoCE priority",
	      NETCFG, check_qos_pfc),
	CHECK("qos", "ecn", "ECN (DCQCN) for RoCE",
	      NETCFG, check_qos_ecn),
	CHECK("net", "udp4791", "RoCE v2 UDP port 4791 not filtered",
	      NETCFG, check_net_udp4791),
	CHECK("rdma_cm", "roce_mode", "rdma_cm default RoCE mode",
	      NETCFG, check_rdma_cm_roce_mode),
	CHECK("host", "memlock", "Locked-memory limit",
	      HOST, check_host_memlock),
	CHECK("host", "hugepages", "HugePages reserved",
	      HOST, check_host_hugepages),
	CHECK("host", "numa", "NUMA locality to the NIC",
	      HOST, check_host_numa),
	CHECK("host", "container", "Container access to RDMA",
	      HOST, check_host_container),
	CHECK("host", "udp_buffers", "UDP socket buffers (information)",
	      HOST, check_host_udp_buffers),
};
#undef CHECK
const size_t rd_n_checks = sizeof(rd_checks) / sizeof(rd_checks[0]);

const struct rd_check *rd_check_find(const char *id)
{
	for (size_t i = 0; id && i < rd_n_checks; i++)
		if (strcmp(rd_checks[i].id, id) == 0)
			return &rd_checks[i];
	return NULL;
}

bool diag_port_is_eth(const struct rd_port *p)
{
	return p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
}

const char *diag_port_netdev_name(const struct rd_snapshot *s,
				  const struct rd_device *d,
				  const struct rd_port *p)
{
	if (p->netdev && *p->netdev)
		return p->netdev;
	for (size_t i = 0; i < p->n_gids; i++)
		if (p->gids[i].netdev && *p->gids[i].netdev)
			return p->gids[i].netdev;
	for (size_t i = 0; i < s->n_netdevs && d->name; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		if (n->name && n->rdma_device &&
		    strcmp(n->rdma_device, d->name) == 0 && !n->lower &&
		    (!n->rdma_port.ok || n->rdma_port.v == p->port))
			return n->name;
	}
	return NULL;
}

bool diag_device_is_soft(const struct rd_device *d)
{
	static const char *const soft[] = { "rxe", "rdma_rxe", "siw" };

	if (d->pci_bdf)
		return false;
	for (size_t i = 0; i < sizeof(soft) / sizeof(soft[0]); i++)
		if (d->driver && strcmp(d->driver, soft[i]) == 0)
			return true;
	/* Without a driver name, the conventional names still tell. */
	return d->name && (strncmp(d->name, "rxe", 3) == 0 ||
			   strncmp(d->name, "siw", 3) == 0);
}

/* RDMA drivers per PCI network driver (mlx5_core alone gives no RDMA device). */
static const struct {
	const char *net;
	const char *ib;
} rdma_of_net[] = {
	{ "mlx5_core", "mlx5_ib" }, { "mlx4_core", "mlx4_ib" },
	{ "bnxt_en", "bnxt_re" },   { "qede", "qedr" },
	{ "ice", "irdma" },	    { "i40e", "irdma" },
	{ "cxgb4", "iw_cxgb4" },    { "hns3", "hns_roce_hw_v2" },
};

const char *diag_rdma_module_of(const char *net_driver)
{
	for (size_t k = 0; net_driver &&
			   k < sizeof(rdma_of_net) / sizeof(rdma_of_net[0]);
	     k++)
		if (strcmp(net_driver, rdma_of_net[k].net) == 0)
			return rdma_of_net[k].ib;
	return NULL;
}

bool diag_is_rdma_nic_module(const char *module)
{
	for (size_t k = 0; module &&
			   k < sizeof(rdma_of_net) / sizeof(rdma_of_net[0]);
	     k++)
		if (strcmp(module, rdma_of_net[k].ib) == 0)
			return true;
	return false;
}

enum diag_mod diag_module(const struct rd_snapshot *s, const char *name)
{
	const struct rd_module *m;

	if (s->n_modules == 0)
		return DIAG_MOD_UNKNOWN;
	m = rd_snapshot_module(s, name);
	/* The module probe lists /sys/module: not listed means not loaded. */
	if (!m)
		return DIAG_MOD_ABSENT;
	if (!m->loaded.ok)
		return DIAG_MOD_UNKNOWN;
	return m->loaded.v ? DIAG_MOD_LOADED : DIAG_MOD_ABSENT;
}

int diag_cpulist_parse(const char *s, uint64_t set[16])
{
	const char *p = s;

	memset(set, 0, 16 * sizeof(uint64_t));
	if (!s)
		return -EINVAL;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= 1024)
			return -EINVAL;
		for (unsigned long i = a; i <= b; i++)
			set[i / 64] |= 1ull << (i % 64);
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == ' ' || *p == '\n')
			p++;
		return *p ? -EINVAL : 0;
	}
}

int diag_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		uint64_t x = 0, y = 0;

		while (*a >= '0' && *a <= '9')
			x = x * 10 + (uint64_t)(*a++ - '0');
		while (*b >= '0' && *b <= '9')
			y = y * 10 + (uint64_t)(*b++ - '0');
		if (x != y)
			return x < y ? -1 : 1;
		/* Skip one separator; stop at anything that is not a number. */
		if (*a == '.')
			a++;
		else if (*a)
			a = "";
		if (*b == '.')
			b++;
		else if (*b)
			b = "";
	}
	return 0;
}
