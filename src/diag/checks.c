// SPDX-License-Identifier: GPL-2.0-or-later
/* The check table, in the order of the layers (hardware first), and the
 * lookups checks share. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

/* Ids are stable: scripts and the journal name checks by them. */
const struct rd_check rd_checks[] = {
	{ "hw.pcie_link", "PCIe link at full speed and width", "hw",
	  RD_LAYER_HW, check_hw_pcie_link },
	{ "hw.pcie_bandwidth", "PCIe carries the port's link rate", "hw",
	  RD_LAYER_HW, check_hw_pcie_bandwidth },
	{ "fw.version", "Firmware at or above the minimum", "fw",
	  RD_LAYER_HW, check_fw_version },
	{ "driver.modules", "RDMA kernel modules loaded", "driver",
	  RD_LAYER_DRIVER, check_driver_modules },
	{ "driver.ofed", "Driver stack (inbox or MLNX_OFED)", "driver",
	  RD_LAYER_DRIVER, check_driver_ofed },
	{ "dev.cq_size", "Completion queue size", "dev", RD_LAYER_DRIVER,
	  check_dev_cq_size },
	{ "user.provider", "libibverbs provider opens the device", "user",
	  RD_LAYER_USER, check_user_provider },
	{ "user.uverbs", "/dev/infiniband/uverbsN present and usable", "user",
	  RD_LAYER_USER, check_user_uverbs },
	{ "port.state", "Port ACTIVE (port-down decision tree)", "port",
	  RD_LAYER_PORT, check_port_state },
	{ "port.rate", "Port rate matches the link", "port", RD_LAYER_PORT,
	  check_port_rate },
	{ "port.pkey", "P_Key table entry 0", "port", RD_LAYER_PORT,
	  check_port_pkey },
	{ "counters.errors", "Error counters not rising", "counters",
	  RD_LAYER_PORT, check_counters_errors },
	{ "port.rocev2_gid", "RoCE v2 GID for an IPv4 address", "port",
	  RD_LAYER_NETCFG, check_port_rocev2_gid },
	{ "port.mtu", "RoCE MTU", "port", RD_LAYER_NETCFG, check_port_mtu },
	{ "port.ib_mtu", "InfiniBand MTU set by the subnet manager", "port",
	  RD_LAYER_NETCFG, check_port_mtu },
	{ "qos.pfc", "PFC on the RoCE priority", "qos", RD_LAYER_NETCFG,
	  check_qos_pfc },
	{ "qos.ecn", "ECN (DCQCN) for RoCE", "qos", RD_LAYER_NETCFG,
	  check_qos_ecn },
	{ "net.udp4791", "RoCE v2 UDP port 4791 not filtered", "net",
	  RD_LAYER_NETCFG, check_net_udp4791 },
	{ "rdma_cm.roce_mode", "rdma_cm default RoCE mode", "rdma_cm",
	  RD_LAYER_NETCFG, check_rdma_cm_roce_mode },
	{ "host.memlock", "Locked-memory limit", "host", RD_LAYER_HOST,
	  check_host_memlock },
	{ "host.hugepages", "HugePages reserved", "host", RD_LAYER_HOST,
	  check_host_hugepages },
	{ "host.numa", "NUMA locality to the NIC", "host", RD_LAYER_HOST,
	  check_host_numa },
	{ "host.container", "Container access to RDMA", "host", RD_LAYER_HOST,
	  check_host_container },
	{ "host.udp_buffers", "UDP socket buffers (information)", "host",
	  RD_LAYER_HOST, check_host_udp_buffers },
};
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
