// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every row of rd_checks[] against a snapshot whose data is complete, then
 * against the same snapshot with one source missing the way the probes
 * leave it missing: netlink refused or off, libibverbs off or failing, a
 * port without its netdev, a netdev without its device, a device without
 * its PCI function, the module list, libpci or the host's files. A result
 * that changed must not be a PASS, must offer no fix-up and must say why;
 * a row that reads the missing source must turn UNKNOWN with the reason.
 * Every row must be listed below with what it reads, so a new check is
 * held to the same rules the day it is added.
 */
#include "config.h"

#include "diag_snap.h"

#include "core/history.h"
#include "probes/probe.h"
#include "probe_unit.h"

#include <stdlib.h>
#include <sys/resource.h>

/* The ways a source goes missing. */
enum miss {
	MISS_NETLINK_REFUSED,	/* socket refused: no netdev data at all */
	MISS_NETLINK_ECN_ONLY,	/* refused; the ECN probe still names it */
	MISS_NETLINK_OFF,	/* files only: what sysfs tells of a netdev */
	MISS_VERBS_OFF,		/* no libibverbs query made */
	MISS_VERBS_LIST_FAILED, /* ibv_get_device_list failed */
	MISS_PORT_NETDEV,	/* a RoCE port whose netdev is not known */
	MISS_DEVICE_PARENT,	/* no PCI function or driver read */
	MISS_NETDEV_DEVICE,	/* a netdev whose RDMA device is gone */
	MISS_MODULES,		/* /sys/module not read */
	MISS_PCI,		/* libpci found nothing */
	MISS_HOST,		/* /proc, limits, /dev and configfs not read */
	/* One fact each, as a file or an older probe leaves it out. */
	MISS_MODULE_STATE,   /* modules listed, "loaded" not read */
	MISS_CONTAINER,	     /* no /proc: container not detected */
	MISS_DEVNODES,	     /* no /dev: device nodes not checked */
	MISS_DEVNODE_ACCESS, /* nodes present, access not checked */
	MISS_IB_WIDTH,	     /* an IB port's rate as a number only */
	MISS_PCIE_WIDTH,     /* PCIe width now and capable not read */
	MISS_PCIE_SPEED,     /* PCIe speed now and capable not read */
	MISS_FW_VER,	     /* fw_ver not read */
	MISS_PKEY,	     /* P_Key table not read */
	MISS_GIDS,	     /* GID table not read */
	MISS_GID_TYPES,	     /* GIDs read, their types not */
	MISS_MAX_CQE,	     /* device queried, max_cqe absent */
	MISS_CM_MODE,	     /* rdma_cm's default mode not read */
	MISS_PFC_EN,	     /* DCB answered, the PFC bitmap not read */
	MISS_ECN_VALUES,     /* the ECN directory, its values not read */
	MISS_AFFINITY,	     /* this process's CPUs not read */
	MISS_MEMLOCK,	     /* RLIMIT_MEMLOCK not read */
	MISS_HUGEPAGES,	     /* HugePages_* not read */
	MISS_ACS,	     /* config space cut at 64 bytes: ACS not read */
	MISS_TOPO_NUMA,	     /* the PCIe tree's NUMA nodes not read */
	MISS_PORT_STATE,     /* a port's state not read */
	MISS_GPU_LINK,	     /* a GPU's link width not read */
	MISS_PEERMEM,	     /* peer-memory files and dma-buf not read */
	MISS_GPU_DRIVER,     /* NVIDIA's module flavour not read */
	MISS_SRIOV_COUNTS,   /* sriov_numvfs not read */
	MISS_VF_SETTINGS,    /* the PF's VF list (rtnetlink) not read */
	MISS_BOND_MODE,	     /* a bond's mode not read */
	MISS_BOND_MEMBER,    /* a bond member's state not read */
	MISS_VF_LIST,	     /* VFs enabled, their virtfn links not read */
	MISS_NETNS_MODE,     /* RDMA netns mode not read */
	MISS_COUNT
};

static const char *const miss_names[MISS_COUNT] = {
	"netlink refused",
	"netlink refused, ECN read",
	"netlink off (sysfs only)",
	"verbs off",
	"ibv_get_device_list failed",
	"port without netdev",
	"device without PCI function or driver",
	"netdev without device",
	"modules not read",
	"PCI not read",
	"host files not read",
	"module state not read",
	"container not detected",
	"device nodes not checked",
	"device node access not checked",
	"IB width not read",
	"PCIe width not read",
	"PCIe speed not read",
	"fw_ver not read",
	"P_Key not read",
	"GID table not read",
	"GID types not read",
	"max_cqe not read",
	"rdma_cm mode not read",
	"PFC bitmap not read",
	"ECN values not read",
	"CPU affinity not read",
	"memlock not read",
	"huge pages not read",
	"ACS not read",
	"PCIe tree NUMA not read",
	"port state not read",
	"GPU link width not read",
	"peer memory not read",
	"GPU driver flavour not read",
	"SR-IOV counts not read",
	"VF settings not read",
	"bond mode not read",
	"bond member state not read",
	"VF list not read",
	"RDMA netns mode not read",
};

#define M(k) (1ull << (k))

/*
 * What each check reads: under these misses at least one of its results
 * must be UNKNOWN with a reason. A row missing here fails the test.
 */
static const struct {
	const char *id;
	unsigned long long unknown_when;
} reads[] = {
	{ "hw.pcie_link",
	  M(MISS_PCI) | M(MISS_PCIE_WIDTH) | M(MISS_PCIE_SPEED) },
	{ "hw.pcie_bandwidth", M(MISS_DEVICE_PARENT) | M(MISS_PCI) },
	{ "fw.version", M(MISS_DEVICE_PARENT) | M(MISS_PCI) | M(MISS_FW_VER) },
	/* /dev/kmsg is one of the host's files */
	{ "kernel.events", M(MISS_HOST) },
	{ "driver.modules", M(MISS_MODULES) | M(MISS_MODULE_STATE) },
	{ "driver.ofed", M(MISS_MODULES) },
	{ "dev.cq_size",
	  M(MISS_VERBS_OFF) | M(MISS_VERBS_LIST_FAILED) | M(MISS_MAX_CQE) },
	{ "user.provider", M(MISS_VERBS_OFF) | M(MISS_VERBS_LIST_FAILED) },
	{ "user.uverbs",
	  M(MISS_HOST) | M(MISS_DEVNODES) | M(MISS_DEVNODE_ACCESS) },
	{ "port.state", 0 },
	{ "port.flaps", M(MISS_HOST) },
	{ "hw.health", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
			       M(MISS_NETLINK_OFF) | M(MISS_DEVICE_PARENT) },
	{ "phy.module", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
				M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) },
	{ "phy.optics", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
				M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) },
	{ "phy.fec", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
			     M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) },
	{ "phy.linkmodes", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
				   M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) },
	{ "port.rate", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
			       M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) |
			       M(MISS_IB_WIDTH) },
	{ "port.pkey", M(MISS_PKEY) },
	{ "counters.errors", 0 },
	{ "port.rocev2_gid", M(MISS_GIDS) | M(MISS_GID_TYPES) },
	{ "port.mtu", 0 },
	{ "port.ib_mtu", M(MISS_VERBS_OFF) | M(MISS_VERBS_LIST_FAILED) },
	{ "qos.pfc", M(MISS_NETLINK_REFUSED) | M(MISS_NETLINK_ECN_ONLY) |
			     M(MISS_NETLINK_OFF) | M(MISS_PORT_NETDEV) |
			     M(MISS_PFC_EN) },
	{ "qos.ecn",
	  M(MISS_NETLINK_REFUSED) | M(MISS_PORT_NETDEV) | M(MISS_ECN_VALUES) },
	{ "net.udp4791", M(MISS_DEVICE_PARENT) },
	{ "rdma_cm.roce_mode", M(MISS_HOST) | M(MISS_CM_MODE) },
	{ "host.memlock", M(MISS_HOST) | M(MISS_MEMLOCK) },
	{ "host.hugepages", M(MISS_HOST) | M(MISS_HUGEPAGES) },
	{ "host.numa", M(MISS_DEVICE_PARENT) | M(MISS_PCI) | M(MISS_HOST) |
			       M(MISS_AFFINITY) },
	{ "host.container", M(MISS_HOST) | M(MISS_CONTAINER) },
	{ "host.udp_buffers", M(MISS_HOST) },
	/* Beside its NIC under one switch: NUMA nodes do not matter. */
	{ "gpu.nic_affinity", M(MISS_PORT_STATE) },
	{ "gpu.gdr_path", M(MISS_ACS) },
	{ "gpu.peermem", M(MISS_PEERMEM) | M(MISS_GPU_DRIVER) },
	{ "gpu.pcie", M(MISS_GPU_LINK) },
	{ "sriov.vfs", M(MISS_SRIOV_COUNTS) | M(MISS_VF_LIST) },
	{ "lag.state", M(MISS_BOND_MODE) | M(MISS_BOND_MEMBER) },
	{ "host.rdma_netns", M(MISS_HOST) | M(MISS_NETNS_MODE) },
};

static const uint8_t gid_v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
				    192, 168, 10, 1 };

static void add_counter(struct rd_counters *c, const char *name, uint64_t v)
{
	assert_non_null(rd_counters_add(c, name, rd_u64(v)));
}

static void full_pci(struct rd_snapshot *s, const char *bdf, uint64_t devid,
		     const char *rdma)
{
	struct rd_pci *p = snap_pci(s, bdf, 0x15b3, devid, "mlx5_core");

	p->rdma_device = rd_strdup(rdma);
	p->link_speed_gts = rd_dbl(16.0);
	p->link_width = rd_u64(16);
	p->cap_speed_gts = rd_dbl(16.0);
	p->cap_width = rd_u64(16);
	p->max_payload = rd_u64(512);
	p->numa_node = rd_s64(0);
	p->local_cpulist = rd_strdup("0-7");
}

static struct rd_device *full_dev(struct rd_snapshot *s, const char *name,
				  const char *bdf, const char *uverbs)
{
	struct rd_device *d = snap_dev(s, name, bdf);
	char path[64];

	d->fw_ver = rd_strdup("22.36.1010");
	d->driver = rd_strdup("mlx5_core");
	d->uverbs = rd_strdup(uverbs);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", uverbs);
	d->uverbs_dev = rd_strdup(path);
	d->verbs.opened = rd_bool(true);
	d->verbs.max_cqe = rd_u64(4194303);
	d->verbs.max_cq = rd_u64(16777216);
	return d;
}

static void full_port(struct rd_port *p, const char *width)
{
	p->rate_gbps = rd_dbl(100);
	p->rate_text = rd_strdup("100 Gb/sec (2X HDR)");
	p->width = rd_strdup(width);
	p->speed = rd_strdup("HDR");
	p->pkey0 = rd_u64(0xffff);
	p->sm_lid = rd_u64(1);
	p->verbs.active_mtu = rd_u64(4096);
	p->verbs.max_mtu = rd_u64(4096);
	add_counter(&p->counters, "symbol_error", 5);
	add_counter(&p->counters, "port_xmit_data", 1000);
}

static void full_devnode(struct rd_host *h, const char *path)
{
	struct rd_devnode *n = RD_PUSH(h->devnodes, h->n_devnodes);

	assert_non_null(n);
	n->path = rd_strdup(path);
	n->exists = rd_bool(true);
	n->mode = rd_u64(0666);
	n->readable = rd_bool(true);
	n->writable = rd_bool(true);
}

/* devlink of a healthy mlx5 function: firmware running as stored. */
static void full_devlink(struct rd_snapshot *s, const char *bdf)
{
	struct rd_devlink *d = RD_PUSH(s->devlinks, s->n_devlinks);
	static const char *const names[] = { "fw", "fw_fatal", "tx", "rx" };

	assert_non_null(d);
	d->bus = rd_strdup("pci");
	d->dev = rd_strdup(bdf);
	d->reporters_read = rd_bool(true);
	for (int k = 0; k < 2; k++) {
		struct rd_devlink_version *v = RD_PUSH(d->versions, d->n_versions);

		assert_non_null(v);
		v->kind = rd_strdup(k ? "stored" : "running");
		v->name = rd_strdup("fw.version");
		v->value = rd_strdup("22.36.1010");
	}
	for (size_t i = 0; i < 4; i++) {
		struct rd_devlink_reporter *p = RD_PUSH(d->reporters, d->n_reporters);

		assert_non_null(p);
		p->name = rd_strdup(names[i]);
		p->state = rd_strdup("healthy");
		p->error_count = rd_u64(0);
		p->recover_count = rd_u64(0);
	}
}

static void drop_devlinks(struct rd_snapshot *s)
{
	rd_model_free_array(rd_devlink_fields, (void **)&s->devlinks,
			    &s->n_devlinks, sizeof(*s->devlinks));
}

/* A 100G optical module at healthy light levels, RS-FEC, autoneg agreed. */
static void full_phy(struct rd_netdev *n)
{
	struct rd_xcvr *m = &n->xcvr;

	n->ethtool.lanes = rd_u64(4);
	n->ethtool.autoneg = rd_bool(true);
	n->ethtool.fec_active = rd_strdup("RS");
	n->ethtool.fec_configured = rd_strdup("Auto");
	n->ethtool.modes_advertised = rd_strdup("100000baseSR4/Full");
	n->ethtool.modes_partner = rd_strdup("100000baseSR4/Full");
	add_counter(&n->ethtool.fec_stats, "uncorrectable_blocks", 0);
	m->present = rd_bool(true);
	m->identifier = rd_u64(0x11);
	m->type = rd_strdup("QSFP28");
	m->media = rd_strdup("optical");
	m->media_lanes = rd_u64(4);
	m->nominal_mbps = rd_u64(25500);
	m->dom = rd_bool(true);
	m->temperature_c = rd_dbl(40);
	m->temperature_limits.high_alarm = rd_dbl(75);
	m->temperature_limits.high_warn = rd_dbl(70);
	m->rx_power_limits.low_alarm = rd_dbl(0.05);
	m->rx_power_limits.low_warn = rd_dbl(0.1);
	for (unsigned i = 1; i <= 4; i++) {
		struct rd_xcvr_lane *l = RD_PUSH(m->lanes, m->n_lanes);

		assert_non_null(l);
		l->lane = i;
		l->rx_power_mw = rd_dbl(0.8);
		l->tx_power_mw = rd_dbl(0.9);
		l->rx_los = rd_bool(false);
		l->tx_fault = rd_bool(false);
	}
}

/* A function of the PCIe tree, its link full at 16 GT/s x16. */
static void full_topo_node(struct rd_snapshot *s, const char *bdf,
			   const char *kind, const char *parent, unsigned depth,
			   const char *acs)
{
	struct rd_topo_node *n = RD_PUSH(s->topo.nodes, s->topo.n_nodes);

	assert_non_null(n);
	n->bdf = rd_strdup(bdf);
	n->kind = rd_strdup(kind);
	n->parent = rd_strdup(parent);
	n->host_bridge = rd_strdup("pci0000:38");
	n->depth = rd_u64(depth);
	n->numa_node = rd_s64(0);
	n->speed_gts = n->max_speed_gts = rd_dbl(16.0);
	n->width = n->max_width = rd_u64(16);
	if (acs) {
		n->acs = rd_strdup(acs);
		if (strcmp(acs, "read") == 0) {
			n->acs_offset = rd_u64(0x148);
			n->acs_cap = rd_u64(0x5f);
			n->acs_ctl = rd_u64(0);
		}
	}
	if (strcmp(kind, "nic") == 0)
		n->rdma_device = rd_strdup("mlx5_0");
}

/*
 * A GPU beside mlx5_0 under one PCIe switch; no peer-memory module, and
 * GPUDirect RDMA through dma-buf (mlx5_0 registers it, NVIDIA's open
 * kernel modules export it).
 */
static void full_topo(struct rd_snapshot *s)
{
	s->topo.read = rd_bool(true);
	full_topo_node(s, "0000:38:00.0", "bridge", NULL, 0, "read");
	full_topo_node(s, "0000:39:00.0", "bridge", "0000:38:00.0", 1, "none");
	full_topo_node(s, "0000:3a:00.0", "bridge", "0000:39:00.0", 2, "read");
	full_topo_node(s, "0000:3a:01.0", "bridge", "0000:39:00.0", 2, "read");
	full_topo_node(s, "0000:3b:00.0", "nic", "0000:3a:00.0", 3, NULL);
	full_topo_node(s, "0000:3c:00.0", "gpu", "0000:3a:01.0", 3, NULL);
	s->topo.nodes[5].vendor_id = rd_u64(0x10de);
	s->topo.nvidia_peermem = rd_bool(false);
	s->topo.nv_peer_mem = rd_bool(false);
	s->topo.nvidia_modules = rd_strdup("open");
	s->devices[0].verbs.dmabuf = rd_bool(true);
}

/*
 * mlx5_0's function with SR-IOV, one VF passed to a VM with what the PF
 * holds for it, and a bond with its port.
 */
static void full_virt(struct rd_snapshot *s)
{
	struct rd_sriov *sv = RD_PUSH(s->sriov, s->n_sriov);
	struct rd_bond *b = RD_PUSH(s->bonds, s->n_bonds);
	struct rd_bond_member *m;
	struct rd_vf *v;

	assert_non_null(sv);
	sv->pf_bdf = rd_strdup("0000:3b:00.0");
	sv->pf_rdma_device = rd_strdup("mlx5_0");
	sv->pf_netdev = rd_strdup("eth2");
	sv->totalvfs = rd_u64(8);
	sv->numvfs = rd_u64(1);
	sv->vfinfo_read = rd_bool(true);
	v = RD_PUSH(sv->vfs, sv->n_vfs);
	assert_non_null(v);
	v->index = rd_u64(0);
	v->bdf = rd_strdup("0000:3b:00.2");
	v->driver = rd_strdup("vfio-pci");
	v->mac = rd_strdup("02:00:00:00:00:01");
	v->vlan = rd_u64(0);
	v->qos = rd_u64(0);
	v->spoofchk = rd_bool(true);
	v->trust = rd_bool(false);
	v->link_state = rd_strdup("auto");
	assert_non_null(b);
	b->name = rd_strdup("bond0");
	b->mode = rd_strdup("802.3ad");
	b->mode_num = rd_u64(4);
	b->hash_policy = rd_strdup("layer3+4");
	b->rdma_device = rd_strdup("mlx5_0");
	m = RD_PUSH(b->members, b->n_members);
	assert_non_null(m);
	m->name = rd_strdup("eth2");
	m->operstate = rd_strdup("up");
	m->carrier = rd_bool(true);
	m->rdma_device = rd_strdup("mlx5_0");
}

/*
 * A healthy host: mlx5_0 a RoCE port on eth2, mlx5_1 an InfiniBand port,
 * both ACTIVE, a GPU beside mlx5_0, every source read.
 */
static void full(struct rd_snapshot *s)
{
	static const char *const mods[] = { "ib_core", "ib_uverbs",
					    "mlx5_core", "mlx5_ib", "rdma_cm",
					    "rdma_ucm" };
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;
	struct rd_cm_port *cm;

	rd_snapshot_init(s);
	d = full_dev(s, "mlx5_0", "0000:3b:00.0", "uverbs0");
	p = snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	full_port(p, "2X");
	snap_gid(p, 3, "RoCE v2", gid_v4, "eth2");
	d = full_dev(s, "mlx5_1", "0000:5e:00.0", "uverbs1");
	p = snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	full_port(p, "4X");

	n = snap_netdev(s, "eth2", true, true, 9000);
	n->rdma_device = rd_strdup("mlx5_0");
	n->rdma_port = rd_u64(1);
	n->operstate = rd_strdup("up");
	snap_addr4(n, "192.168.10.1");
	n->ethtool.speed_mbps = rd_u64(100000);
	n->ethtool.rx_pause = rd_bool(false);
	n->ethtool.tx_pause = rd_bool(false);
	full_phy(n);
	n->dcb.supported = rd_bool(true);
	n->dcb.pfc_en = rd_u64(0x08);
	snap_app(n, 3, 4791, 3);
	n->ecn.present = rd_bool(true);
	add_counter(&n->ecn.np_enable, "prio3", 1);
	add_counter(&n->ecn.rp_enable, "prio3", 1);

	full_devlink(s, "0000:3b:00.0");
	full_devlink(s, "0000:5e:00.0");
	full_pci(s, "0000:3b:00.0", 0x101d, "mlx5_0");
	full_pci(s, "0000:5e:00.0", 0x101b, "mlx5_1");
	full_topo(s);
	full_virt(s);
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		snap_module(s, mods[i]);

	s->host.memlock_unlimited = rd_bool(true);
	s->host.cap_ipc_lock = rd_bool(false);
	s->host.hugepages_total = rd_u64(512);
	s->host.hugepages_free = rd_u64(100);
	s->host.numa_nodes = rd_u64(2);
	s->host.cpu_affinity = rd_strdup("0-3");
	s->host.container = rd_strdup("none");
	s->host.rdma_netns_mode = rd_strdup("shared");
	s->host.rmem_default = rd_u64(212992);
	s->host.rmem_max = rd_u64(212992);
	full_devnode(&s->host, "/dev/infiniband/uverbs0");
	full_devnode(&s->host, "/dev/infiniband/uverbs1");
	cm = RD_PUSH(s->host.cm_ports, s->host.n_cm_ports);
	assert_non_null(cm);
	cm->device = rd_strdup("mlx5_0");
	cm->port = rd_u64(1);
	cm->default_roce_mode = rd_strdup("RoCE v2");
	/* The kernel log, read, saying nothing about the devices. */
	s->kmsg.readable = rd_bool(true);
	s->kmsg.wall_clock = rd_bool(true);
	s->kmsg.records_read = rd_u64(1200);
	s->kmsg.first_seq = rd_u64(0);
}

/* Two readings 2 s apart, nothing rising: counters can be judged. */
static void history_of(struct rd_history *h, struct rd_snapshot *s)
{
	rd_history_init(h);
	s->monotonic_ns = rd_u64(1000000000ull);
	assert_int_equal(rd_history_add(h, s), 0);
	s->monotonic_ns = rd_u64(3000000000ull);
	assert_int_equal(rd_history_add(h, s), 0);
}

static void drop_netdevs(struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_netdevs; i++)
		rd_model_free(rd_netdev_fields, &s->netdevs[i]);
	free(s->netdevs);
	s->netdevs = NULL;
	s->n_netdevs = 0;
}

static void drop_counters(struct rd_counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static void clear_verbs(struct rd_device *d)
{
	free(d->verbs.open_error);
	memset(&d->verbs, 0, sizeof(d->verbs));
	for (size_t j = 0; j < d->n_ports; j++)
		memset(&d->ports[j].verbs, 0, sizeof(d->ports[j].verbs));
}

/* Take away one source as the probes would leave it. */
static void take_away(struct rd_snapshot *s, enum miss k)
{
	struct rd_netdev *n = &s->netdevs[0];

	switch (k) {
	case MISS_NETLINK_REFUSED:
		drop_netdevs(s);
		drop_devlinks(s);
		break;
	case MISS_NETLINK_ECN_ONLY:
	case MISS_NETLINK_OFF: {
		/*
		 * What collect_sysfs reads (name, MTU, flags, carrier), or
		 * with netlink refused only what the ECN probe names.
		 */
		struct rd_netdev keep = { 0 };

		keep.name = rd_strdup(n->name);
		keep.rdma_device = rd_strdup(n->rdma_device);
		keep.rdma_port = n->rdma_port;
		if (k == MISS_NETLINK_OFF) {
			keep.mtu = n->mtu;
			keep.admin_up = n->admin_up;
			keep.carrier = n->carrier;
			keep.operstate = rd_strdup(n->operstate);
		}
		drop_devlinks(s);
		/* ECN is a sysfs directory, read without netlink. */
		keep.ecn = n->ecn;
		memset(&n->ecn, 0, sizeof(n->ecn));
		rd_model_free(rd_netdev_fields, n);
		*n = keep;
		break;
	}
	case MISS_VERBS_OFF:
		for (size_t i = 0; i < s->n_devices; i++)
			clear_verbs(&s->devices[i]);
		break;
	case MISS_VERBS_LIST_FAILED:
		/* What probe_verbs leaves when the list cannot be had. */
		for (size_t i = 0; i < s->n_devices; i++) {
			clear_verbs(&s->devices[i]);
			s->devices[i].verbs.open_error = rd_strdup(
				"ibv_get_device_list: Function not implemented");
		}
		break;
	case MISS_PORT_NETDEV: {
		struct rd_port *p = &s->devices[0].ports[0];

		free(p->netdev);
		p->netdev = NULL;
		for (size_t j = 0; j < p->n_gids; j++) {
			free(p->gids[j].netdev);
			p->gids[j].netdev = NULL;
		}
		free(n->rdma_device);
		n->rdma_device = NULL;
		n->rdma_port.ok = false;
		break;
	}
	case MISS_DEVICE_PARENT:
		/* An unreadable "device" link, under a name of any kind. */
		for (size_t i = 0; i < s->n_devices; i++) {
			free(s->devices[i].pci_bdf);
			s->devices[i].pci_bdf = NULL;
			free(s->devices[i].driver);
			s->devices[i].driver = NULL;
		}
		break;
	case MISS_NETDEV_DEVICE:
		/* mlx5_0 went away; eth2 still names it. */
		rd_model_free(rd_device_fields, &s->devices[0]);
		memmove(&s->devices[0], &s->devices[1], sizeof(s->devices[0]));
		s->n_devices = 1;
		break;
	case MISS_MODULES:
		rd_model_free_array(rd_module_fields, (void **)&s->modules,
				    &s->n_modules, sizeof(*s->modules));
		break;
	case MISS_ACS:
		for (size_t i = 0; i < s->topo.n_nodes; i++)
			if (s->topo.nodes[i].acs)
				(void)rd_str_set(&s->topo.nodes[i].acs,
						 "unreadable");
		break;
	case MISS_TOPO_NUMA:
		for (size_t i = 0; i < s->topo.n_nodes; i++)
			s->topo.nodes[i].numa_node.ok = false;
		break;
	case MISS_PORT_STATE:
		s->devices[0].ports[0].state_num.ok = false;
		free(s->devices[0].ports[0].state);
		s->devices[0].ports[0].state = NULL;
		break;
	case MISS_GPU_LINK:
		s->topo.nodes[5].width.ok = false;
		break;
	case MISS_PEERMEM:
		s->topo.nvidia_peermem.ok = false;
		s->topo.nv_peer_mem.ok = false;
		for (size_t i = 0; i < s->n_devices; i++)
			s->devices[i].verbs.dmabuf.ok = false;
		break;
	case MISS_GPU_DRIVER:
		(void)rd_str_set(&s->topo.nvidia_modules, NULL);
		break;
	case MISS_SRIOV_COUNTS:
		s->sriov[0].numvfs.ok = false;
		break;
	case MISS_VF_SETTINGS: {
		/* As the VF list leaves them when netlink is off. */
		struct rd_vf *v = &s->sriov[0].vfs[0];

		s->sriov[0].vfinfo_read.ok = false;
		(void)rd_str_set(&v->mac, NULL);
		(void)rd_str_set(&v->link_state, NULL);
		v->vlan.ok = v->qos.ok = false;
		v->spoofchk.ok = v->trust.ok = false;
		break;
	}
	case MISS_BOND_MODE:
		s->bonds[0].mode_num.ok = false;
		break;
	case MISS_BOND_MEMBER:
		(void)rd_str_set(&s->bonds[0].members[0].operstate, NULL);
		break;
	case MISS_VF_LIST: {
		/* The PF and its counts kept, its VFs not listed. */
		struct rd_sriov *sv = &s->sriov[0], keep = {
			.pf_bdf = rd_strdup(sv->pf_bdf),
			.pf_rdma_device = rd_strdup(sv->pf_rdma_device),
			.pf_netdev = rd_strdup(sv->pf_netdev),
			.totalvfs = sv->totalvfs,
			.numvfs = sv->numvfs,
		};

		rd_model_free(rd_sriov_fields, sv);
		*sv = keep;
		break;
	}
	case MISS_NETNS_MODE:
		free(s->host.rdma_netns_mode);
		s->host.rdma_netns_mode = NULL;
		break;
	case MISS_PCI:
		rd_model_free_array(rd_pci_fields, (void **)&s->pci, &s->n_pci,
				    sizeof(*s->pci));
		break;
	case MISS_HOST: {
		/* Keep only what other probes put there. */
		struct rd_host h = { 0 };

		rd_model_free(rd_host_fields, &s->host);
		s->host = h;
		rd_model_reset(rd_kmsg_fields, &s->kmsg, sizeof(s->kmsg));
		break;
	}
	case MISS_MODULE_STATE:
		/* As a transcribed lsmod-less snapshot has them. */
		for (size_t i = 0; i < s->n_modules; i++)
			if (strcmp(s->modules[i].name, "ib_uverbs") == 0 ||
			    strcmp(s->modules[i].name, "rdma_cm") == 0 ||
			    strcmp(s->modules[i].name, "rdma_ucm") == 0)
				s->modules[i].loaded.ok = false;
		break;
	case MISS_CONTAINER:
		free(s->host.container);
		s->host.container = NULL;
		break;
	case MISS_DEVNODES:
		for (size_t i = 0; i < s->host.n_devnodes; i++)
			free(s->host.devnodes[i].path);
		free(s->host.devnodes);
		s->host.devnodes = NULL;
		s->host.n_devnodes = 0;
		break;
	case MISS_DEVNODE_ACCESS:
		for (size_t i = 0; i < s->host.n_devnodes; i++) {
			s->host.devnodes[i].readable.ok = false;
			s->host.devnodes[i].writable.ok = false;
		}
		break;
	case MISS_IB_WIDTH: {
		struct rd_port *p = &s->devices[1].ports[0];

		free(p->rate_text);
		p->rate_text = NULL;
		free(p->width);
		p->width = NULL;
		free(p->speed);
		p->speed = NULL;
		break;
	}
	case MISS_PCIE_WIDTH:
	case MISS_PCIE_SPEED:
		for (size_t i = 0; i < s->n_pci; i++) {
			struct rd_pci *p = &s->pci[i];

			if (k == MISS_PCIE_WIDTH)
				p->link_width.ok = p->cap_width.ok = false;
			else
				p->link_speed_gts.ok = p->cap_speed_gts.ok =
					false;
		}
		break;
	case MISS_FW_VER:
		for (size_t i = 0; i < s->n_devices; i++) {
			free(s->devices[i].fw_ver);
			s->devices[i].fw_ver = NULL;
		}
		break;
	case MISS_PKEY:
		for (size_t i = 0; i < s->n_devices; i++)
			s->devices[i].ports[0].pkey0.ok = false;
		break;
	case MISS_GIDS:
	case MISS_GID_TYPES:
		for (size_t i = 0; i < s->n_devices; i++) {
			struct rd_port *p = &s->devices[i].ports[0];

			for (size_t j = 0; j < p->n_gids; j++) {
				free(p->gids[j].type);
				p->gids[j].type = NULL;
			}
			if (k != MISS_GIDS)
				continue;
			for (size_t j = 0; j < p->n_gids; j++)
				free(p->gids[j].netdev);
			free(p->gids);
			p->gids = NULL;
			p->n_gids = 0;
		}
		break;
	case MISS_MAX_CQE:
		for (size_t i = 0; i < s->n_devices; i++)
			s->devices[i].verbs.max_cqe.ok = false;
		break;
	case MISS_CM_MODE:
		for (size_t i = 0; i < s->host.n_cm_ports; i++) {
			free(s->host.cm_ports[i].default_roce_mode);
			s->host.cm_ports[i].default_roce_mode = NULL;
		}
		break;
	case MISS_PFC_EN:
		n->dcb.pfc_en.ok = false;
		break;
	case MISS_ECN_VALUES:
		drop_counters(&n->ecn.np_enable);
		drop_counters(&n->ecn.rp_enable);
		break;
	case MISS_AFFINITY:
		free(s->host.cpu_affinity);
		s->host.cpu_affinity = NULL;
		break;
	case MISS_MEMLOCK:
		s->host.memlock_unlimited.ok = false;
		s->host.memlock_soft.ok = false;
		s->host.memlock_hard.ok = false;
		break;
	case MISS_HUGEPAGES:
		s->host.hugepages_total.ok = false;
		s->host.hugepages_free.ok = false;
		break;
	case MISS_COUNT:
		break;
	}
}

static const struct rd_result *same_target(const struct rd_results *res,
					   const struct rd_result *r)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *o = &res->v[i];

		if (strcmp(o->check_id, r->check_id) == 0 &&
		    (o->device && r->device ?
			     strcmp(o->device, r->device) == 0 :
			     o->device == r->device) &&
		    o->port == r->port)
			return o;
	}
	return NULL;
}

static unsigned long long unknown_when(const char *id)
{
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++)
		if (strcmp(reads[i].id, id) == 0)
			return reads[i].unknown_when;
	fail_msg("check %s is not listed with what it reads", id);
	return 0;
}

static void run_all(const struct rd_snapshot *s, const struct rd_history *h,
		    struct rd_results *res)
{
	assert_int_equal(rd_diag_run(s, h, NULL, res), 0);
}

/* The healthy host gives every row a result and a PASS where it can. */
static void test_full_is_healthy(void **state)
{
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res;

	(void)state;
	full(&s);
	history_of(&h, &s);
	run_all(&s, &h, &res);
	for (size_t i = 0; i < res.n; i++)
		if (res.v[i].verdict != RD_PASS)
			fail_msg("healthy host: %s %s: %s %s",
				 res.v[i].check_id,
				 res.v[i].device ? res.v[i].device : "host",
				 rd_verdict_name(res.v[i].verdict),
				 res.v[i].summary ? res.v[i].summary : "");
	for (size_t c = 0; c < rd_n_checks; c++) {
		bool seen = false;

		(void)unknown_when(rd_checks[c].id);
		for (size_t i = 0; i < res.n && !seen; i++)
			seen = strcmp(res.v[i].check_id, rd_checks[c].id) == 0;
		if (!seen)
			fail_msg("healthy host: no result for %s",
				 rd_checks[c].id);
	}
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);
}

/* Each source taken away in turn, every row of the table judged. */
static void test_missing_source(void **state)
{
	(void)state;
	for (int k = 0; k < MISS_COUNT; k++) {
		struct rd_snapshot s;
		struct rd_history h;
		struct rd_results before, after;

		full(&s);
		history_of(&h, &s);
		run_all(&s, &h, &before);
		take_away(&s, (enum miss)k);
		run_all(&s, &h, &after);
		for (size_t i = 0; i < after.n; i++) {
			const struct rd_result *r = &after.v[i];
			const struct rd_result *o = same_target(&before, r);
			const char *tgt = r->device ? r->device : "host";

			if (o && o->verdict == r->verdict &&
			    strcmp(o->cause, r->cause) == 0)
				continue;
			/* A missing fact is never a PASS, nor a FAIL. */
			if (r->verdict == RD_PASS || r->verdict == RD_FAIL)
				fail_msg("%s: %s %s/%u %s: %s", miss_names[k],
					 r->check_id, tgt, (unsigned)r->port,
					 rd_verdict_name(r->verdict),
					 r->summary);
			if (r->fix)
				fail_msg("%s: %s %s/%u offers \"%s\"",
					 miss_names[k], r->check_id, tgt,
					 (unsigned)r->port, r->fix->command);
			if (!r->summary || !*r->summary)
				fail_msg("%s: %s %s/%u: no reason given",
					 miss_names[k], r->check_id, tgt,
					 (unsigned)r->port);
		}
		for (size_t c = 0; c < rd_n_checks; c++) {
			bool unknown = false;

			if (!(unknown_when(rd_checks[c].id) & M(k)))
				continue;
			for (size_t i = 0; i < after.n && !unknown; i++)
				unknown = strcmp(after.v[i].check_id,
						 rd_checks[c].id) == 0 &&
					  after.v[i].verdict == RD_UNKNOWN &&
					  after.v[i].summary &&
					  *after.v[i].summary;
			if (!unknown)
				fail_msg("%s: %s is not UNKNOWN with a reason",
					 miss_names[k], rd_checks[c].id);
		}
		rd_results_free(&before);
		rd_results_free(&after);
		rd_history_free(&h);
		rd_snapshot_free(&s);
	}
}

/*
 * A port that is not ACTIVE: the checks that need traffic on it say
 * port_not_active; port.state gives its FAIL; the checks of the port's
 * configuration still judge it.
 */
static bool needs_active(const struct rd_check *c)
{
	/* hw.pcie_bandwidth walks its own way but needs a settled rate. */
	return (c->only & RD_ONLY_ACTIVE) ||
	       strcmp(c->id, "hw.pcie_bandwidth") == 0;
}

static void test_port_not_active(void **state)
{
	static const struct {
		uint64_t st, ph;
		const char *name;
	} states[] = {
		{ 1, 3, "DOWN/Disabled" }, { 1, 2, "DOWN/Polling" },
		{ 2, 5, "INIT/LinkUp" },   { 3, 5, "ARMED/LinkUp" },
		{ 1, 1, "DOWN/Sleep" },    { 2, 4, "INIT/Training" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
		for (size_t dev = 0; dev < 2; dev++) {
			struct rd_snapshot s;
			struct rd_history h;
			struct rd_results res;
			struct rd_port *p;
			const char *name;

			full(&s);
			p = &s.devices[dev].ports[0];
			name = s.devices[dev].name;
			p->state_num = rd_u64(states[k].st);
			p->phys_state_num = rd_u64(states[k].ph);
			/* The RoCE port's netdev agrees with the state. */
			if (dev == 0) {
				s.netdevs[0].carrier = rd_bool(false);
				s.netdevs[0].admin_up =
					rd_bool(states[k].ph != 3);
			}
			history_of(&h, &s);
			run_all(&s, &h, &res);
			for (size_t i = 0; i < res.n; i++) {
				const struct rd_result *r = &res.v[i];
				const struct rd_check *c =
					rd_check_find(r->check_id);

				if (!r->device || strcmp(r->device, name) ||
				    r->port != 1)
					continue;
				if (strcmp(r->check_id, "port.state") == 0) {
					if (r->verdict != RD_FAIL)
						fail_msg("%s %s: port.state %s",
							 name, states[k].name,
							 rd_verdict_name(r->verdict));
					continue;
				}
				if (!needs_active(c))
					continue;
				if (r->verdict != RD_UNKNOWN ||
				    strcmp(r->cause, "port_not_active") != 0 ||
				    r->fix)
					fail_msg("%s %s: %s %s %s", name,
						 states[k].name, r->check_id,
						 rd_verdict_name(r->verdict),
						 r->cause);
			}
			rd_results_free(&res);
			rd_history_free(&h);
			rd_snapshot_free(&s);
		}
	}
}

/*
 * ACTIVE_DEFER carries traffic: judged like ACTIVE. A state that was not
 * read is not a port known to be down: no_data, never "not ACTIVE".
 */
static void test_port_state_edges(void **state)
{
	(void)state;
	for (int unread = 0; unread < 2; unread++) {
		struct rd_snapshot s;
		struct rd_history h;
		struct rd_results res;

		full(&s);
		for (size_t dev = 0; dev < 2; dev++) {
			struct rd_port *p = &s.devices[dev].ports[0];

			p->state_num = rd_u64(5);
			if (unread)
				p->state_num.ok = false;
		}
		history_of(&h, &s);
		run_all(&s, &h, &res);
		for (size_t i = 0; i < res.n; i++) {
			const struct rd_result *r = &res.v[i];

			if (!r->port || !needs_active(rd_check_find(r->check_id)))
				continue;
			/* Its own data settles it: the full host's does. */
			if (unread && (rd_check_find(r->check_id)->only &
				       RD_STATE_UNREAD_OK)) {
				if (r->verdict != RD_PASS)
					fail_msg("state unread: %s %s",
						 r->check_id, r->summary);
				continue;
			}
			if (!unread && r->verdict != RD_PASS)
				fail_msg("ACTIVE_DEFER: %s %s/%u %s %s",
					 r->check_id, r->device,
					 (unsigned)r->port,
					 rd_verdict_name(r->verdict), r->summary);
			if (unread && (r->verdict != RD_UNKNOWN ||
				       strcmp(r->cause, "no_data") != 0 ||
				       !strstr(r->summary, "port state not read")))
				fail_msg("state unread: %s %s/%u %s %s: %s",
					 r->check_id, r->device,
					 (unsigned)r->port,
					 rd_verdict_name(r->verdict), r->cause,
					 r->summary);
		}
		rd_results_free(&res);
		rd_history_free(&h);
		rd_snapshot_free(&s);
	}
}

/*
 * A device without a uverbs interface: libibverbs could not try any
 * provider, so user.provider is UNKNOWN pointing at user.uverbs (which
 * fails with its own fix-up), not a provider to install.
 */
static void test_provider_without_uverbs(void **state)
{
	struct rd_snapshot s;
	struct rd_results res;
	const struct rd_result *r;
	struct rd_device *d;

	(void)state;
	full(&s);
	d = &s.devices[0];
	free(d->uverbs);
	d->uverbs = NULL;
	free(d->uverbs_dev);
	d->uverbs_dev = NULL;
	clear_verbs(d);
	d->verbs.opened = rd_bool(false);
	d->verbs.open_error = rd_strdup(
		"no uverbs interface for this device (is ib_uverbs loaded?)");
	run_only(&s, NULL, "user", &res);
	r = find_result(&res, "user.provider", "mlx5_0", 0);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_null(r->fix);
	assert_non_null(strstr(r->summary, "see user.uverbs"));
	r = find_result(&res, "user.provider", "mlx5_1", 0);
	assert_int_equal(r->verdict, RD_PASS);
	rd_results_free(&res);
	/* A provider that is truly missing still fails. */
	d->uverbs = rd_strdup("uverbs0");
	d->verbs.listed = rd_bool(false);
	free(d->verbs.open_error);
	d->verbs.open_error = rd_strdup("libibverbs does not list this device: "
					"no user-space provider for driver mlx5_core");
	run_only(&s, NULL, "user.provider", &res);
	r = find_result(&res, "user.provider", "mlx5_0", 0);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "provider_missing");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * counters.errors on a RoCE port whose netdev statistics were not read
 * judges the counters it has and says the PHY's were not among them.
 */
static void test_counters_without_ethtool(void **state)
{
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res;
	const struct rd_result *r;

	(void)state;
	full(&s);
	add_counter(&s.netdevs[0].ethtool.stats, "rx_crc_errors_phy", 0);
	history_of(&h, &s);
	run_only(&s, &h, "counters.errors", &res);
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_PASS);
	assert_null(strstr(r->summary, "ethtool"));
	rd_results_free(&res);
	rd_history_free(&h);
	take_away(&s, MISS_NETLINK_REFUSED);
	history_of(&h, &s);
	run_only(&s, &h, "counters.errors", &res);
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "no ethtool statistics read"));
	/* An InfiniBand port has none to read. */
	r = find_result(&res, "counters.errors", "mlx5_1", 1);
	assert_null(strstr(r->summary, "ethtool"));
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);
}

/* The fix-up comes with the state it fixes, read, and never without. */
static void test_port_down_fix(void **state)
{
	struct rd_snapshot s;
	struct rd_results res;
	const struct rd_result *r;

	(void)state;
	full(&s);
	s.devices[0].ports[0].state_num = rd_u64(1);
	s.devices[0].ports[0].phys_state_num = rd_u64(3);
	s.netdevs[0].admin_up = rd_bool(false);
	s.netdevs[0].carrier = rd_bool(false);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "admin_down");
	assert_non_null(r->fix);
	assert_string_equal(r->fix->command, "ip link set dev eth2 up");
	rd_results_free(&res);

	/* An InfiniBand port up without an SM: FAIL, and nothing to run. */
	s.devices[1].ports[0].state_num = rd_u64(2);
	s.devices[1].ports[0].phys_state_num = rd_u64(5);
	s.devices[1].ports[0].sm_lid = rd_u64(0);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_1", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_sm");
	assert_null(r->fix);
	rd_results_free(&res);

	/*
	 * Netlink refused: DOWN/Disabled still fails (the port state was
	 * read) but the netdev's flags were not, and a RoCE port is also
	 * Disabled when its netdev is up without carrier: no fix-up.
	 */
	take_away(&s, MISS_NETLINK_REFUSED);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_null(r->fix);
	assert_non_null(strstr(r->summary, "state was not read"));
	assert_non_null(strstr(r->summary, "or up without carrier"));
	assert_non_null(r->next_step);
	assert_non_null(strstr(rd_result_no_fix_reason(r), "not read"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * Netlink refused for real: the fixture host's sysfs is read, then every
 * new descriptor is refused (RLIMIT_NOFILE at the lowest free one) while
 * the netlink probes run, as a locked-down host refuses the sockets. The
 * port that is DOWN/Disabled keeps its FAIL without a fix-up, and the
 * checks that need the netdev are UNKNOWN, never PASS.
 */
static void test_netlink_refused_probes(void **state)
{
	static const enum rd_probe_id order[] = {
		RD_PROBE_IB_SYSFS, RD_PROBE_RDMA_NL, RD_PROBE_NETDEV,
		RD_PROBE_ETHTOOL,  RD_PROBE_DCB,     RD_PROBE_PCI,
		RD_PROBE_KMOD,	   RD_PROBE_HOST,    RD_PROBE_ECN,
	};
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
	struct rd_results res;
	struct {
		struct rlimit was;
	} save;
	const struct rd_result *r;
	char dir[PATH_MAX];

	(void)state;
	unit_probe_ctx(&roots, &ctx, unit_fixture("cx6dx-roce-port-down", dir,
						  sizeof(dir)),
		       NULL);
	ctx.flags = RD_PROBE_NO_VERBS;	/* netlink allowed, and refused */
	rd_snapshot_init(&s);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &save.was), 0);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		bool refuse = order[i] == RD_PROBE_RDMA_NL ||
			      order[i] == RD_PROBE_NETDEV ||
			      order[i] == RD_PROBE_ETHTOOL ||
			      order[i] == RD_PROBE_DCB;

		if (refuse) {
			int fd = dup(0);
			struct rlimit lim = save.was;

			assert_true(fd >= 0);
			close(fd);
			lim.rlim_cur = (rlim_t)fd;
			assert_int_equal(setrlimit(RLIMIT_NOFILE, &lim), 0);
		}
		(void)rd_probe_run(&ctx, order[i], &s);
		if (refuse)
			assert_int_equal(setrlimit(RLIMIT_NOFILE, &save.was), 0);
	}
	assert_true(s.n_devices == 2);
	/* Only the ECN directories' netdevs, with nothing netlink tells. */
	for (size_t i = 0; i < s.n_netdevs; i++) {
		assert_false(s.netdevs[i].admin_up.ok);
		assert_false(s.netdevs[i].mtu.ok);
		assert_false(s.netdevs[i].dcb.supported.ok);
	}
	assert_true(unit_has_error(&s, "NETLINK_ROUTE", NULL));
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	r = find_result(&res, "port.state", "mlx5_1", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_null(r->fix);
	for (size_t i = 0; i < res.n; i++) {
		const struct rd_result *x = &res.v[i];

		if (strcmp(x->check_id, "qos.pfc") == 0 ||
		    strcmp(x->check_id, "qos.ecn") == 0 ||
		    (strcmp(x->check_id, "port.rate") == 0 && x->port == 1 &&
		     strcmp(x->device, "mlx5_0") == 0))
			if (x->verdict != RD_UNKNOWN || x->fix)
				fail_msg("netlink refused: %s %s/%u %s",
					 x->check_id, x->device,
					 (unsigned)x->port,
					 rd_verdict_name(x->verdict));
	}
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * The verbs probe when libibverbs cannot list devices (its sysfs is made
 * unreadable through SYSFS_PATH, which libibverbs honours): the devices
 * are left not queried, with the reason, and user.provider is UNKNOWN,
 * not a missing provider.
 */
static void test_verbs_list_failed(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;
	struct rd_results res;
	struct rd_device *d;
	const struct rd_result *r;
	bool failed = false;

	(void)state;
	assert_int_equal(setenv("SYSFS_PATH", "/nonexistent-rdmadiag-test", 1),
			 0);
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	d = snap_dev(&s, "mlx5_0", "0000:3b:00.0");
	d->uverbs = rd_strdup("uverbs0");
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	for (size_t i = 0; i < s.n_errors; i++)
		failed |= strcmp(s.errors[i].where, "ibv_get_device_list") == 0;
	assert_true(failed);
	d = &s.devices[0];
	assert_false(d->verbs.opened.ok);
	assert_non_null(d->verbs.open_error);
	assert_non_null(strstr(d->verbs.open_error, "ibv_get_device_list"));
	run_only(&s, NULL, "user.provider", &res);
	r = find_result(&res, "user.provider", "mlx5_0", 0);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_null(r->fix);
	assert_non_null(strstr(r->summary, "ibv_get_device_list"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_is_healthy),
		cmocka_unit_test(test_missing_source),
		cmocka_unit_test(test_port_not_active),
		cmocka_unit_test(test_port_state_edges),
		cmocka_unit_test(test_port_down_fix),
		cmocka_unit_test(test_verbs_list_failed),
		cmocka_unit_test(test_provider_without_uverbs),
		cmocka_unit_test(test_counters_without_ethtool),
		cmocka_unit_test(test_netlink_refused_probes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
