// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCIe tree of GPU hosts: the ACS capability walk, the sysfs link
 * parse, NCCL's labels (checked against the topology NCCL printed for the
 * fixture's machine) and the gpu.* checks.
 */
#include "config.h"
#include "probe_unit.h"
#include "diag_snap.h"

#include "core/topo.h"
#include "diag/diag.h"
#include "probes/topo.h"

static void put32(uint8_t *c, unsigned off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		c[off + i] = (uint8_t)(v >> (8 * i));
}

static void test_parse_acs(void **state)
{
	uint8_t c[4096] = { 0 };
	unsigned off = 0, cap = 0, ctl = 0;

	(void)state;
	/* AER at 0x100 -> ACS at 0x148, control RR|CR|SV|UF. */
	put32(c, 0x100, 0x14810001);
	put32(c, 0x148, 0x0001000d);
	put32(c, 0x14c, 0x001d005f);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl), 0);
	assert_int_equal(off, 0x148);
	assert_int_equal(cap, 0x5f);
	assert_int_equal(ctl, 0x1d);
	/* What a reader without CAP_SYS_ADMIN gets: 64 bytes. */
	assert_int_equal(rd_topo_parse_acs(c, 64, &off, &cap, &ctl), -ENODATA);
	/* Cut inside the chain. */
	assert_int_equal(rd_topo_parse_acs(c, 0x14c, &off, &cap, &ctl),
			 -ENODATA);
	/* AER alone, end of chain; no extended capability at all. */
	put32(c, 0x100, 0x00010001);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl),
			 -ENOENT);
	put32(c, 0x100, 0);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl),
			 -ENOENT);
	put32(c, 0x100, 0xffffffff);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl),
			 -ENOENT);
	/* A next pointer into the standard space, and a loop. */
	put32(c, 0x100, 0x04010001);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl),
			 -EINVAL);
	put32(c, 0x100, 0x10010001);
	assert_int_equal(rd_topo_parse_acs(c, sizeof(c), &off, &cap, &ctl),
			 -EINVAL);
}

static void test_parse_link(void **state)
{
	char host[64], b[8][16];
	size_t n = 0;

	(void)state;
	assert_int_equal(rd_topo_parse_link("../../../devices/pci0000:64/"
					    "0000:64:00.0/0000:65:00.0/"
					    "0000:66:01.0/0000:68:00.0",
					    host, sizeof(host), b, 8, &n),
			 0);
	assert_string_equal(host, "pci0000:64");
	assert_int_equal(n, 4);
	assert_string_equal(b[0], "0000:64:00.0");
	assert_string_equal(b[3], "0000:68:00.0");
	/* A VMD domain: the run of addresses starts after the non-address. */
	assert_int_equal(rd_topo_parse_link("../../../devices/pci0000:00/"
					    "0000:00:0e.0/pci10000:e0/"
					    "10000:e0:1d.0/10000:e1:00.0",
					    host, sizeof(host), b, 8, &n),
			 0);
	assert_string_equal(host, "pci10000:e0");
	assert_int_equal(n, 2);
	assert_int_equal(rd_topo_parse_link("../../../devices/platform/foo",
					    host, sizeof(host), b, 8, &n),
			 -EINVAL);
	assert_int_equal(rd_topo_parse_link("0000:01:00.0", host, sizeof(host),
					    b, 8, &n),
			 -EINVAL);
}

static void test_gdr_level(void **state)
{
	enum rd_topo_dist d;

	(void)state;
	assert_int_equal(rd_topo_dist_parse("PXB", &d), 0);
	assert_int_equal(d, RD_DIST_PXB);
	assert_int_equal(rd_topo_dist_parse("SYS", &d), 0);
	assert_int_equal(d, RD_DIST_SYS);
	/* The old numbers: 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and up SYS. */
	assert_int_equal(rd_topo_dist_parse("0", &d), 0);
	assert_int_equal(d, RD_DIST_LOC);
	assert_int_equal(rd_topo_dist_parse("2", &d), 0);
	assert_int_equal(d, RD_DIST_PXB);
	assert_int_equal(rd_topo_dist_parse("3", &d), 0);
	assert_int_equal(d, RD_DIST_PHB);
	assert_int_equal(rd_topo_dist_parse("9", &d), 0);
	assert_int_equal(d, RD_DIST_SYS);
	assert_int_equal(rd_topo_dist_parse("pxb", &d), -EINVAL);
	assert_int_equal(rd_topo_dist_parse("", &d), -EINVAL);
	assert_int_equal(rd_topo_dist_parse("NET", &d), -EINVAL);
}

static void take_root(const char *root, struct rd_snapshot *s)
{
	struct rd_roots roots;

	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, root), 0);
	assert_int_equal(rd_snapshot_take(&roots, NULL, 0, 0, s), 0);
}

/*
 * The flavour of NVIDIA's kernel modules, by the module's own taint
 * letters: "POE" as a proprietary nvidia.ko shows it in public reports,
 * "OE" for the open (dual MIT/GPL, out-of-tree) one.
 */
static void test_nvidia_modules(void **state)
{
	static const struct {
		const char *taint, *want;
	} cases[] = {
		{ "POE\n", "proprietary" }, { "PO\n", "proprietary" },
		{ "OE\n", "open" },	    { "O\n", "open" },
		{ NULL, "not loaded" },
	};
	char root[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rd_snapshot s;

		unit_tmpdir(root, sizeof(root));
		unit_put(root, "sys/bus/pci/devices/.keep", "");
		if (cases[i].taint)
			unit_put(root, "sys/module/nvidia/taint",
				 cases[i].taint);
		take_root(root, &s);
		assert_string_equal(s.topo.nvidia_modules, cases[i].want);
		/* Neither peer-memory file: read as absent, not unread. */
		assert_true(s.topo.nv_peer_mem.ok && !s.topo.nv_peer_mem.v);
		rd_snapshot_free(&s);
		unit_rmtree(root);
	}
	/* The module there but its taint file not: not read. */
	{
		struct rd_snapshot s;

		unit_tmpdir(root, sizeof(root));
		unit_put(root, "sys/bus/pci/devices/.keep", "");
		unit_put(root, "sys/module/nvidia/version", "550.127.08\n");
		take_root(root, &s);
		assert_null(s.topo.nvidia_modules);
		assert_true(unit_has_error(&s, "module/nvidia/taint", NULL));
		rd_snapshot_free(&s);
		unit_rmtree(root);
	}
}

static void take(const char *name, struct rd_snapshot *s)
{
	char dir[PATH_MAX];
	struct rd_roots roots;

	rd_roots_init(&roots);
	assert_int_equal(
		rd_roots_under(&roots, unit_fixture(name, dir, sizeof(dir))),
		0);
	assert_int_equal(rd_snapshot_take(&roots, NULL, 0, 0, s), 0);
}

static enum rd_topo_dist dist(const struct rd_snapshot *s, const char *g,
			      const char *n, const char **smi)
{
	struct rd_topo_path p;
	long gi = rd_topo_find(&s->topo, g), ni = rd_topo_find(&s->topo, n);

	assert_true(gi >= 0 && ni >= 0);
	assert_int_equal(rd_topo_path(&s->topo, (size_t)gi, (size_t)ni, &p), 0);
	if (smi)
		*smi = p.smi;
	return p.dist;
}

/*
 * NCCL's own topology lines for this machine put NIC 67000 and GPU 68000
 * under PCI/0-65000 (the switch's upstream port) on CPU/0-0, and NICs
 * cb000 ... d7000 on CPU/0-1 behind a SYS link: PIX beside the GPU, PHB
 * to another switch of the same CPU, SYS across.
 */
static void test_fixture_labels(void **state)
{
	struct rd_snapshot s;
	const char *smi;

	(void)state;
	take("h200x8-vm-topology", &s);
	assert_true(s.topo.read.ok && s.topo.read.v);
	assert_int_equal(rd_topo_count(&s.topo, "gpu"), 8);
	assert_int_equal(rd_topo_count(&s.topo, "nic"), 8);
	/* 8 switches of root, upstream and two downstream ports: 32. */
	assert_int_equal(rd_topo_count(&s.topo, "bridge"), 32);
	assert_int_equal(dist(&s, "0000:68:00.0", "0000:67:00.0", &smi),
			 RD_DIST_PIX);
	assert_string_equal(smi, "PIX");
	assert_int_equal(dist(&s, "0000:68:00.0", "0000:6c:00.0", &smi),
			 RD_DIST_PHB);
	assert_string_equal(smi, "PHB");
	assert_int_equal(dist(&s, "0000:68:00.0", "0000:cb:00.0", &smi),
			 RD_DIST_SYS);
	assert_string_equal(smi, "SYS");
	assert_int_equal(dist(&s, "0000:d8:00.0", "0000:d7:00.0", NULL),
			 RD_DIST_PIX);
	assert_true(s.topo.nvidia_peermem.v);
	assert_string_equal(s.topo.nvidia_peermem_version, "550.127.08");
	assert_string_equal(rd_topo_node(&s.topo, "0000:66:00.0")->acs, "read");
	assert_string_equal(rd_topo_node(&s.topo, "0000:6c:00.0")->rdma_device,
			    "mlx5_13");
	rd_snapshot_free(&s);
}

/* A node for an in-memory tree. */
static void node(struct rd_topo *t, const char *bdf, const char *kind,
		 const char *parent, const char *hb, unsigned depth, int numa)
{
	struct rd_topo_node *n = RD_PUSH(t->nodes, t->n_nodes);

	assert_non_null(n);
	n->bdf = strdup(bdf);
	n->kind = strdup(kind);
	n->parent = parent ? strdup(parent) : NULL;
	n->host_bridge = strdup(hb);
	n->depth = rd_u64(depth);
	if (numa != -2)
		n->numa_node = rd_s64(numa);
	n->acs = strdup("none");
}

/* Two switch levels: GPU and NIC under different inner switches. */
static void two_levels(struct rd_topo *t)
{
	node(t, "0000:00:01.0", "bridge", NULL, "pci0000:00", 0, 0);
	node(t, "0000:01:00.0", "bridge", "0000:00:01.0", "pci0000:00", 1, 0);
	node(t, "0000:02:00.0", "bridge", "0000:01:00.0", "pci0000:00", 2, 0);
	node(t, "0000:02:01.0", "bridge", "0000:01:00.0", "pci0000:00", 2, 0);
	node(t, "0000:03:00.0", "bridge", "0000:02:00.0", "pci0000:00", 3, 0);
	node(t, "0000:04:00.0", "bridge", "0000:03:00.0", "pci0000:00", 4, 0);
	node(t, "0000:05:00.0", "gpu", "0000:04:00.0", "pci0000:00", 5, 0);
	node(t, "0000:06:00.0", "bridge", "0000:02:01.0", "pci0000:00", 3, 0);
	node(t, "0000:07:00.0", "bridge", "0000:06:00.0", "pci0000:00", 4, 0);
	node(t, "0000:08:00.0", "nic", "0000:07:00.0", "pci0000:00", 5, 0);
}

/* A NIC on a root port of another host bridge, same NUMA node. */
static void other_bridge_nic(struct rd_topo *t)
{
	node(t, "0000:40:01.0", "bridge", NULL, "pci0000:40", 0, 0);
	node(t, "0000:41:00.0", "nic", "0000:40:01.0", "pci0000:40", 1, 0);
}

static void test_labels_by_rule(void **state)
{
	struct rd_snapshot s;
	const char *smi;

	(void)state;
	rd_snapshot_init(&s);
	two_levels(&s.topo);
	other_bridge_nic(&s.topo);
	/* And one whose NUMA node was not read. */
	node(&s.topo, "0000:80:01.0", "bridge", NULL, "pci0000:80", 0, -2);
	node(&s.topo, "0000:81:00.0", "nic", "0000:80:01.0", "pci0000:80", 1,
	     -2);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PXB);
	assert_string_equal(smi, "PXB");
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:41:00.0", &smi),
			 RD_DIST_PHB);
	assert_string_equal(smi, "NODE");
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:81:00.0", &smi),
			 RD_DIST_UNKNOWN);
	/* A NUMA node of -1 is one CPU node to NCCL, as read from the
	 * topmost function NCCL keeps of each chain. */
	s.topo.nodes[13].numa_node = rd_s64(-1);
	s.topo.nodes[0].numa_node = rd_s64(-1);
	s.topo.nodes[1].numa_node = rd_s64(-1);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:81:00.0", NULL),
			 RD_DIST_PHB);
	rd_snapshot_free(&s);
}

static void switch_ids(struct rd_topo_node *n, unsigned dev, unsigned sub)
{
	n->vendor_id = rd_u64(0x1000);
	n->device_id = rd_u64(dev);
	n->subsys_vendor_id = rd_u64(0x1000);
	n->subsys_device_id = rd_u64(sub);
}

/*
 * NCCL's getBcmGen/ncclTopoFlattenBcmSwitches (src/graph/topo.cc): a
 * Broadcom PEX switch of two levels counts as one. The tree of
 * test_labels_by_rule, its switches made Broadcom: GPU and NIC under
 * different halves are PIX to NCCL, PXB to nvidia-smi.
 */
static void test_bcm_flatten(void **state)
{
	struct rd_snapshot s;
	const char *smi;
	struct rd_topo_path p;
	struct rd_topo_node *outer, *half_a, *half_b;

	(void)state;
	rd_snapshot_init(&s);
	two_levels(&s.topo);
	outer = &s.topo.nodes[1];
	half_a = &s.topo.nodes[4];
	half_b = &s.topo.nodes[7];
	/* Gen5 (PEX89000): subsystem 0x0xxx on top, 0x1xxx below. */
	switch_ids(outer, 0xc030, 0x0100);
	switch_ids(half_a, 0xc030, 0x1100);
	switch_ids(half_b, 0xc030, 0x1100);
	assert_int_equal(rd_topo_path(&s.topo, 6, 9, &p), 0);
	assert_int_equal(p.dist, RD_DIST_PIX);
	assert_string_equal(p.smi, "PXB");
	assert_true(p.flattened);
	/* The same lower level on top: not a PEX89000 pair. */
	switch_ids(outer, 0xc030, 0x1100);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PXB);
	/* Gen4 (PEX88000): subsystem 0xaxxx at both levels. */
	switch_ids(outer, 0xc010, 0xa064);
	switch_ids(half_a, 0xc010, 0xa064);
	switch_ids(half_b, 0xc010, 0xa064);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PIX);
	/* Only one half Broadcom: that side keeps its level. */
	switch_ids(half_b, 0xc010, 0x0001);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PXB);
	/* Another vendor's switch, or subsystem IDs not read: no change. */
	switch_ids(half_b, 0xc010, 0xa064);
	half_b->subsys_device_id.ok = false;
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PXB);
	switch_ids(half_b, 0xc010, 0xa064);
	outer->vendor_id = rd_u64(0x10b5);
	assert_int_equal(dist(&s, "0000:05:00.0", "0000:08:00.0", &smi),
			 RD_DIST_PXB);
	rd_snapshot_free(&s);
}

/*
 * A DGX A100's GPU and NIC below PEX88096 switches, as NVIDIA's GPUDirect
 * Storage configuration document shows them (lstopo, section 4.1): ports
 * 1000:c010 with subsystem 1000:a096, the two levels right above the GPU
 * with subsystem 10de:13b8 (not Broadcom's: NCCL leaves them), and the
 * NIC's 0a:00.0 from NVIDIA/nccl issue 1505's topology dump; the root port
 * is filled in. NCCL merges one half into the top (01:00.0) on each side;
 * the GPU still sits a switch lower, so both NCCL and nvidia-smi (ucx-py
 * issue 749's topo -m of a DGX A100) say PXB.
 */
static void test_bcm_dgx_a100(void **state)
{
	static const struct {
		const char *bdf, *kind, *parent;
		unsigned dev, sv, sd;
	} t[] = {
		{ "0000:00:01.1", "bridge", NULL, 0x1483, 0x1022, 0x1234 },
		{ "0000:01:00.0", "bridge", "0000:00:01.1", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:02:00.0", "bridge", "0000:01:00.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:03:00.0", "bridge", "0000:02:00.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:04:00.0", "bridge", "0000:03:00.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:05:00.0", "bridge", "0000:04:00.0", 0xc010, 0x10de,
		  0x13b8 },
		{ "0000:06:00.0", "bridge", "0000:05:00.0", 0xc010, 0x10de,
		  0x13b8 },
		{ "0000:07:00.0", "gpu", "0000:06:00.0", 0x20b2, 0x10de,
		  0x1463 },
		{ "0000:02:04.0", "bridge", "0000:01:00.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:0a:00.0", "bridge", "0000:02:04.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:0b:00.0", "bridge", "0000:0a:00.0", 0xc010, 0x1000,
		  0xa096 },
		{ "0000:0c:00.0", "nic", "0000:0b:00.0", 0x101b, 0x15b3,
		  0x0007 },
	};
	struct rd_snapshot s;
	struct rd_topo_path p;
	unsigned depth[] = { 0, 1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5 };

	(void)state;
	rd_snapshot_init(&s);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rd_topo_node *n;

		node(&s.topo, t[i].bdf, t[i].kind, t[i].parent, "pci0000:00",
		     depth[i], 3);
		n = &s.topo.nodes[s.topo.n_nodes - 1];
		n->vendor_id = rd_u64(t[i].dev == 0xc010   ? 0x1000
				      : t[i].dev == 0x20b2 ? 0x10de
				      : t[i].dev == 0x101b ? 0x15b3
							   : 0x1022);
		n->device_id = rd_u64(t[i].dev);
		n->subsys_vendor_id = rd_u64(t[i].sv);
		n->subsys_device_id = rd_u64(t[i].sd);
	}
	assert_int_equal(rd_topo_path(&s.topo, 7, 11, &p), 0);
	assert_int_equal(p.dist, RD_DIST_PXB);
	assert_string_equal(p.smi, "PXB");
	assert_false(p.flattened);
	/* Were the GPU's own two levels Broadcom's too, NCCL would merge
	 * 03:00.0 into 01:00.0 first and stop there: still PXB. */
	s.topo.nodes[5].subsys_vendor_id = rd_u64(0x1000);
	s.topo.nodes[5].subsys_device_id = rd_u64(0xa096);
	assert_int_equal(rd_topo_path(&s.topo, 7, 11, &p), 0);
	assert_int_equal(p.dist, RD_DIST_PXB);
	rd_snapshot_free(&s);
}

static const struct rd_result *find(const struct rd_results *r,
				    const char *check, const char *target)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].check_id, check) &&
		    ((!target && !r->v[i].device) ||
		     (target && r->v[i].device &&
		      !strcmp(r->v[i].device, target))))
			return &r->v[i];
	fail_msg("no %s result for %s", check, target ? target : "host");
	return NULL;
}

static void run(const struct rd_snapshot *s, struct rd_results *r)
{
	struct rd_diag_opts o;

	rd_diag_opts_init(&o);
	o.only_area = "gpu";
	assert_int_equal(rd_diag_run(s, NULL, &o, r), 0);
}

/* gpu.pcie on a path through two switch levels: an inner switch's
 * upstream link trained at x8 of x16 is judged, unless a hypervisor
 * emulates that port (its link is made up). */
static void test_gpu_pcie_switch(void **state)
{
	struct rd_snapshot s;
	struct rd_results r = { 0 };
	const struct rd_result *x;
	struct rd_topo_node *usp;

	(void)state;
	rd_snapshot_init(&s);
	two_levels(&s.topo);
	s.topo.read = rd_bool(true);
	for (size_t i = 0; i < s.topo.n_nodes; i++) {
		s.topo.nodes[i].width = rd_u64(16);
		s.topo.nodes[i].max_width = rd_u64(16);
	}
	usp = &s.topo.nodes[rd_topo_find(&s.topo, "0000:03:00.0")];
	usp->width = rd_u64(8);
	usp->vendor_id = rd_u64(0x1000);
	usp->device_id = rd_u64(0xc030);
	run(&s, &r);
	x = find(&r, "gpu.pcie", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_WARN);
	assert_string_equal(x->cause, "pcie_degraded");
	assert_non_null(strstr(x->summary, "the link of 0000:03:00.0 on its "
					   "path to 0000:08:00.0 trained at x8 "
					   "of x16"));
	rd_results_free(&r);
	/* QEMU's model of the XIO3130 upstream port. */
	usp->vendor_id = rd_u64(0x104c);
	usp->device_id = rd_u64(0x8232);
	run(&s, &r);
	assert_int_equal(find(&r, "gpu.pcie", "0000:05:00.0")->verdict,
			 RD_PASS);
	rd_results_free(&r);
	rd_snapshot_free(&s);
}

/*
 * A nearest NIC whose use is not known (its port state not read, or its
 * RDMA device in a pod's namespace) is no reason for a FAIL, and which
 * NIC NCCL uses is not known either; a usable far NIC changes neither.
 */
static void test_nic_unknown(void **state)
{
	struct rd_snapshot s;
	struct rd_results r = { 0 };
	const struct rd_result *x;
	struct rd_topo_node *near;
	struct rd_netns_dev *away;
	struct rd_device *d;

	(void)state;
	rd_snapshot_init(&s);
	two_levels(&s.topo);
	other_bridge_nic(&s.topo);
	s.topo.nodes[s.topo.n_nodes - 1].rdma_device = strdup("mlx5_1");
	s.topo.nodes[6].vendor_id = rd_u64(0x10de);
	s.topo.read = rd_bool(true);
	d = snap_dev(&s, "mlx5_1", "0000:41:00.0");
	snap_port(d, 1, RD_PORT_ACTIVE, 5, "Ethernet", NULL);
	near = &s.topo.nodes[rd_topo_find(&s.topo, "0000:08:00.0")];

	/* Its device in a pod's namespace, read as root. */
	(void)rd_str_set(&s.host.rdma_netns_mode, "exclusive");
	(void)rd_str_set(&s.host.netns_scan, "read");
	away = RD_PUSH(s.host.netns_devs, s.host.n_netns_devs);
	assert_non_null(away);
	away->netns = strdup("cni-1");
	away->rdma_device = strdup("mlx5_0");
	away->pci_bdf = strdup("0000:08:00.0");
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "is in network namespace cni-1"));
	x = find(&r, "gpu.gdr_path", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "which NIC NCCL uses is not known"));
	rd_results_free(&r);

	/* The other namespaces not read (no root): not known either. */
	(void)rd_str_set(&s.host.netns_scan, "not root");
	free(away->netns);
	free(away->rdma_device);
	free(away->pci_bdf);
	s.host.n_netns_devs = 0;
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "may be a pod's"));
	rd_results_free(&r);

	/* Shared mode: no device on the function is a fact. */
	(void)rd_str_set(&s.host.rdma_netns_mode, "shared");
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_string_equal(x->cause, "nic_no_device");
	assert_non_null(strstr(x->summary, "its traffic goes to mlx5_1"));
	rd_results_free(&r);

	/* Its device here, its port state not read. */
	near->rdma_device = strdup("mlx5_0");
	d = snap_dev(&s, "mlx5_0", "0000:08:00.0");
	d->ports = calloc(1, sizeof(*d->ports));
	assert_non_null(d->ports);
	d->n_ports = 1;
	d->ports[0].port = 1;
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	x = find(&r, "gpu.gdr_path", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "port state not read"));
	rd_results_free(&r);

	/* Read DOWN: judged, and the far NIC carries the traffic. */
	d->ports[0].state_num = rd_u64(RD_PORT_DOWN);
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_string_equal(x->cause, "nic_down");
	x = find(&r, "gpu.gdr_path", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_WARN);
	assert_string_equal(x->cause, "gdr_distance");
	rd_results_free(&r);

	/* The far NIC's state not read either: the FAIL stands (the near
	 * one was read DOWN) but claims no more than was read. */
	s.devices[0].ports[0].state_num.ok = false;
	run(&s, &r);
	x = find(&r, "gpu.nic_affinity", "0000:05:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_non_null(strstr(x->summary, "no other NIC was read as usable"));
	rd_results_free(&r);
	rd_snapshot_free(&s);
}

static void test_checks_broken(void **state)
{
	struct rd_snapshot s;
	struct rd_results r = { 0 };
	const struct rd_result *x;

	(void)state;
	take("h200x8-vm-topology-broken", &s);
	run(&s, &r);
	assert_int_equal(r.n, 8 * 3 + 1);
	/* GPU0's switch mate mlx5_12 is down: NCCL goes across the CPU. */
	x = find(&r, "gpu.nic_affinity", "0000:68:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_string_equal(x->cause, "nic_down");
	assert_non_null(strstr(x->summary, "mlx5_13 across the CPU"));
	/* Its path to mlx5_13 is PHB: above NCCL's default GDR level. */
	x = find(&r, "gpu.gdr_path", "0000:68:00.0");
	assert_int_equal(x->verdict, RD_WARN);
	assert_string_equal(x->cause, "gdr_distance");
	x = find(&r, "gpu.gdr_path", "0000:6b:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_string_equal(x->cause, "acs_redirect");
	assert_non_null(
		strstr(x->summary, "0000:6a:00.0 (ReqRedir+CmpltRedir)"));
	x = find(&r, "gpu.pcie", "0000:cc:00.0");
	assert_int_equal(x->verdict, RD_FAIL);
	assert_non_null(strstr(x->summary, "x8 of x16"));
	x = find(&r, "gpu.pcie", "0000:d8:00.0");
	assert_int_equal(x->verdict, RD_PASS);
	/* No peer-memory module and dma-buf not probed: not judged. */
	x = find(&r, "gpu.peermem", NULL);
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary,
			       "whether 8 RDMA devices register dma-buf "
			       "memory (verbs not read)"));
	rd_results_free(&r);

	/* dma-buf refused by every NIC: GPUDirect RDMA impossible. */
	for (size_t i = 0; i < s.n_devices; i++)
		s.devices[i].verbs.dmabuf = rd_bool(false);
	run(&s, &r);
	assert_int_equal(find(&r, "gpu.peermem", NULL)->verdict, RD_FAIL);
	rd_results_free(&r);
	/* ... but whether nvidia_peermem is loaded was not read. */
	s.topo.nvidia_peermem.ok = false;
	run(&s, &r);
	x = find(&r, "gpu.peermem", NULL);
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "whether nvidia_peermem is loaded "
					   "was not read"));
	rd_results_free(&r);
	s.topo.nvidia_peermem.ok = true;
	/* One NIC's verbs not read: the others' refusal proves nothing. */
	s.devices[2].verbs.dmabuf.ok = false;
	run(&s, &r);
	x = find(&r, "gpu.peermem", NULL);
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "whether 1 RDMA device registers "
					   "dma-buf memory (verbs not read)"));
	rd_results_free(&r);
	s.devices[2].verbs.dmabuf = rd_bool(false);
	/* The NIC takes dma-buf; the GPU side is the driver's flavour,
	 * not read here (the fixture's nvidia module has no taint file). */
	s.devices[3].verbs.dmabuf = rd_bool(true);
	assert_null(s.topo.nvidia_modules);
	run(&s, &r);
	x = find(&r, "gpu.peermem", NULL);
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "whether the GPU driver exports"));
	rd_results_free(&r);
	(void)rd_str_set(&s.topo.nvidia_modules, "proprietary");
	run(&s, &r);
	x = find(&r, "gpu.peermem", NULL);
	assert_int_equal(x->verdict, RD_FAIL);
	assert_non_null(strstr(x->summary, "kernel modules are proprietary: "
					   "no GPU memory is exported as "
					   "dma-buf"));
	rd_results_free(&r);
	(void)rd_str_set(&s.topo.nvidia_modules, "open");
	run(&s, &r);
	assert_int_equal(find(&r, "gpu.peermem", NULL)->verdict, RD_PASS);
	rd_results_free(&r);

	/* A reader without root: ACS unread is UNKNOWN, never PASS. */
	for (size_t i = 0; i < s.topo.n_nodes; i++)
		if (!strcmp(s.topo.nodes[i].kind, "bridge"))
			(void)rd_str_set(&s.topo.nodes[i].acs, "unreadable");
	run(&s, &r);
	x = find(&r, "gpu.gdr_path", "0000:6b:00.0");
	assert_int_equal(x->verdict, RD_UNKNOWN);
	assert_non_null(strstr(x->summary, "needs root"));
	rd_results_free(&r);
	rd_snapshot_free(&s);
}

static void test_checks_healthy(void **state)
{
	struct rd_snapshot s;
	struct rd_results r = { 0 };
	struct rd_diag_opts o;

	(void)state;
	take("h200x8-vm-topology", &s);
	run(&s, &r);
	assert_int_equal(r.n, 25);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(r.v[i].verdict, RD_PASS);
	assert_non_null(
		strstr(find(&r, "gpu.nic_affinity", "0000:cc:00.0")->summary,
		       "use mlx5_8 (PIX)"));
	rd_results_free(&r);
	/* --device keeps the GPUs whose nearest NIC it names. */
	rd_diag_opts_init(&o);
	o.only_area = "gpu.nic_affinity";
	o.device = "mlx5_13";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &r), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].device, "0000:6b:00.0");
	rd_results_free(&r);
	rd_snapshot_free(&s);

	/* A host without a GPU gets no GPU result. */
	take("cx6dx-roce-port-down", &s);
	assert_true(s.topo.read.v);
	assert_int_equal(rd_topo_count(&s.topo, "gpu"), 0);
	run(&s, &r);
	assert_int_equal(r.n, 0);
	rd_results_free(&r);
	rd_snapshot_free(&s);
}

/* A console's kept cache serves the tree for a while; a fresh read sees
 * what changed. */
static void test_kept(void **state)
{
	char root[PATH_MAX], link[PATH_MAX];
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_roots roots;
	struct rd_snapshot s;

	(void)state;
	assert_non_null(cache);
	unit_tmpdir(root, sizeof(root));
	unit_put(root,
		 "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/vendor",
		 "0x10de\n");
	unit_put(root, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/class",
		 "0x030200\n");
	unit_put(root, "sys/devices/pci0000:00/0000:00:01.0/class",
		 "0x060400\n");
	unit_put(root, "sys/bus/pci/devices/.keep", "");
	snprintf(link, sizeof(link), "%s/sys/bus/pci/devices/0000:01:00.0",
		 root);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:00:01.0/"
				 "0000:01:00.0",
				 link),
			 0);
	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, root), 0);
	assert_int_equal(rd_snapshot_take(&roots, cache, 0, 0, &s), 0);
	assert_int_equal(rd_topo_count(&s.topo, "gpu"), 1);
	rd_snapshot_free(&s);
	/* The GPU's link gone: a kept reading still has it... */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(rd_snapshot_take(&roots, cache, 1, 0, &s), 0);
	assert_int_equal(rd_topo_count(&s.topo, "gpu"), 1);
	rd_snapshot_free(&s);
	/* ...a fresh one does not. */
	assert_int_equal(rd_snapshot_take(&roots, cache, 2, RD_PROBE_FRESH, &s),
			 0);
	assert_int_equal(rd_topo_count(&s.topo, "gpu"), 0);
	assert_true(s.topo.read.v);
	rd_snapshot_free(&s);
	rd_probe_cache_free(cache);
	unit_rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_acs),
		cmocka_unit_test(test_parse_link),
		cmocka_unit_test(test_gdr_level),
		cmocka_unit_test(test_fixture_labels),
		cmocka_unit_test(test_nvidia_modules),
		cmocka_unit_test(test_labels_by_rule),
		cmocka_unit_test(test_gpu_pcie_switch),
		cmocka_unit_test(test_bcm_flatten),
		cmocka_unit_test(test_bcm_dgx_a100),
		cmocka_unit_test(test_nic_unknown),
		cmocka_unit_test(test_checks_broken),
		cmocka_unit_test(test_checks_healthy),
		cmocka_unit_test(test_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
