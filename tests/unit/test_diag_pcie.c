// SPDX-License-Identifier: GPL-2.0-or-later
/* hw.pcie_bandwidth: PCIe against the port's link, from built snapshots. */
#include "config.h"
#include "unit.h"

#include "diag_snap.h"

#define ID "hw.pcie_bandwidth"

/* One IB port at speed x width, its PCIe link at gts x lanes, MPS mps. */
static void host(struct rd_snapshot *s, const char *speed, uint64_t st,
		 double gts, uint64_t lanes, uint64_t mps)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_pci *pci;

	memset(s, 0, sizeof(*s));
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	d->driver = rd_strdup("mlx5_core");
	p = snap_port(d, 1, st, st == 4 ? 5 : 2, "InfiniBand", NULL);
	p->speed = rd_strdup(speed);
	p->width = rd_strdup("4X");
	p->verbs.active_mtu = rd_u64(4096);
	p->verbs.max_mtu = rd_u64(4096);
	pci = snap_pci(s, "0000:3b:00.0", 0x15b3, 0x101b, "mlx5_core");
	pci->rdma_device = rd_strdup("mlx5_0");
	pci->link_speed_gts = rd_dbl(gts);
	pci->link_width = rd_u64(lanes);
	pci->cap_speed_gts = rd_dbl(16.0);
	pci->cap_width = rd_u64(16);
	if (mps) {
		pci->max_payload = rd_u64(mps);
		pci->max_read_req = rd_u64(512);
	}
}

static const char *evidence(const struct rd_result *r, const char *what)
{
	for (size_t i = 0; i < r->n_evidence; i++)
		if (strcmp(r->evidence[i].what, what) == 0)
			return r->evidence[i].value;
	fail_msg("no evidence \"%s\"", what);
	return NULL;
}

static const struct rd_result *judge(const struct rd_snapshot *s,
				     struct rd_results *res)
{
	const struct rd_result *r;

	run_only(s, NULL, ID, res);
	r = find_result(res, ID, "mlx5_0", 1);
	assert_non_null(r);
	return r;
}

static void test_verdicts(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	/* ConnectX-6 HDR at Gen4 x16, 256 B payloads: PCIe carries more. */
	host(&s, "HDR", 4, 16.0, 16, 256);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_PASS);
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* The same card in a Gen3 x16 slot: PCIe limits, with evidence. */
	host(&s, "HDR", 4, 8.0, 16, 256);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "pcie_limits");
	assert_non_null(strstr(r->summary, "115.23 Gb/s"));
	assert_non_null(strstr(r->summary, "198.74 Gb/s"));
	assert_non_null(strstr(r->next_step, "16.0 GT/s x16"));
	assert_string_equal(evidence(r, "MaxReadReq"), "512 B per read request");
	assert_non_null(strstr(evidence(r, "PCIe now"), "8.0 GT/s x16"));
	assert_non_null(strstr(evidence(r, "PCIe capable"), "16.0 GT/s x16"));
	assert_non_null(strstr(evidence(r, "link"), "200.00 Gb/s"));
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* FDR at Gen3 x8 with MaxPayload unread: 53 to 62.6 Gb/s against
	 * 54.2, so it depends on what was not read. */
	host(&s, "FDR", 4, 8.0, 8, 0);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(strstr(r->summary, "MaxPayload"));
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* ...and clearly enough even at the least MaxPayload: PASS. */
	host(&s, "EDR", 4, 8.0, 16, 0);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_PASS);
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* A port that is not ACTIVE has no settled rate. */
	host(&s, "HDR", 1, 8.0, 16, 256);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "port_not_active");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* No PCIe link state: UNKNOWN, never PASS. */
	host(&s, "HDR", 4, 8.0, 16, 256);
	s.pci[0].link_width.ok = false;
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* A speed the model has no figures for. */
	host(&s, "25.0 Gbps", 4, 8.0, 16, 256);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_shared_link(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_device *d;
	struct rd_port *p;

	(void)state;
	/* A dual-port EDR card at Gen3 x16: each port fits, both do not;
	 * said as evidence, the verdict stays PASS. */
	host(&s, "EDR", 4, 8.0, 16, 256);
	d = snap_dev(&s, "mlx5_1", "0000:3b:00.1");
	p = snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	p->speed = rd_strdup("EDR");
	p->width = rd_strdup("4X");
	p->verbs.active_mtu = rd_u64(4096);
	r = judge(&s, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(evidence(r, "shared PCIe link"),
			       "with mlx5_1/1: all 2 ports at once need 198.74 Gb/s"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A node of the PCIe tree, its link as sysfs has it (gts 0: not read). */
static struct rd_topo_node *node(struct rd_snapshot *s, const char *bdf,
				 const char *kind, const char *parent,
				 unsigned depth, unsigned vendor,
				 unsigned device, double gts, uint64_t width,
				 double max_gts, uint64_t max_width)
{
	struct rd_topo_node *n = RD_PUSH(s->topo.nodes, s->topo.n_nodes);

	assert_non_null(n);
	n->bdf = rd_strdup(bdf);
	n->kind = rd_strdup(kind);
	n->parent = parent ? rd_strdup(parent) : NULL;
	n->host_bridge = rd_strdup("pci0000:3a");
	n->depth = rd_u64(depth);
	n->vendor_id = rd_u64(vendor);
	n->device_id = rd_u64(device);
	if (gts > 0) {
		n->speed_gts = rd_dbl(gts);
		n->width = rd_u64(width);
		n->max_speed_gts = rd_dbl(max_gts);
		n->max_width = rd_u64(max_width);
	}
	return n;
}

/* The card of host() behind a PCIe switch on a root port: the switch's
 * upstream link at gts x width of max_gts x max_width. */
static void behind_switch(struct rd_snapshot *s, unsigned vendor, double gts,
			  uint64_t width, double max_gts, uint64_t max_width)
{
	bool qemu = vendor == 0x104c;

	s->topo.read = rd_bool(true);
	node(s, "0000:3a:00.0", "bridge", NULL, 0, qemu ? 0x1b36 : 0x8086,
	     qemu ? 0x000c : 0x347a, 16.0, 16, 16.0, 16);
	node(s, "0000:3b:00.0", "bridge", "0000:3a:00.0", 1, vendor,
	     qemu ? 0x8232 : 0xc030, gts, width, max_gts, max_width);
	node(s, "0000:3c:08.0", "bridge", "0000:3b:00.0", 2, vendor,
	     qemu ? 0x8233 : 0xc030, 16.0, 16, 16.0, 16);
	node(s, "0000:3d:00.0", "nic", "0000:3c:08.0", 3, 0x15b3, 0x101b, 16.0,
	     16, 16.0, 16)
		->rdma_device = rd_strdup("mlx5_0");
}

/* host()'s card moved to 0000:3d:00.0 behind the switch of
 * behind_switch(), judged; the result stays in *res. */
static const struct rd_result *
judge_behind(struct rd_snapshot *s, struct rd_results *res, unsigned vendor,
	     double gts, uint64_t width, double max_gts, uint64_t max_width)
{
	host(s, "HDR", 4, 16.0, 16, 256);
	free(s->devices[0].pci_bdf);
	s->devices[0].pci_bdf = rd_strdup("0000:3d:00.0");
	free(s->pci[0].bdf);
	s->pci[0].bdf = rd_strdup("0000:3d:00.0");
	behind_switch(s, vendor, gts, width, max_gts, max_width);
	return judge(s, res);
}

static void test_uplink(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	/* An HDR card at Gen4 x16 behind a Broadcom switch whose upstream
	 * link trained at x8 of x16: the switch, not the card, bounds. */
	r = judge_behind(&s, &res, 0x1000, 16.0, 8, 16.0, 16);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "pcie_uplink_limits");
	assert_non_null(strstr(r->summary, "at 0000:3b:00.0, is 16.0 GT/s x8 "
					   "and carries 115.23 Gb/s, less than "
					   "the link's 198.74 Gb/s"));
	assert_non_null(strstr(r->summary, "16.0 GT/s x16 would carry"));
	assert_non_null(strstr(r->next_step, "can do 16.0 GT/s x16"));
	assert_non_null(strstr(evidence(r, "PCIe above the card"),
			       "0000:3b:00.0's link 16.0 GT/s x8 (capable of "
			       "16.0 GT/s x16): 115.23 Gb/s"));
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* The switch is built with an x8 uplink: the bound is by design. */
	r = judge_behind(&s, &res, 0x1000, 16.0, 8, 16.0, 8);
	assert_string_equal(r->cause, "pcie_uplink_limits");
	assert_non_null(strstr(r->next_step, "built that way"));
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* The uplink as wide as the card: nothing above it to say. */
	r = judge_behind(&s, &res, 0x1000, 16.0, 16, 16.0, 16);
	assert_int_equal(r->verdict, RD_PASS);
	for (size_t i = 0; i < r->n_evidence; i++)
		assert_string_not_equal(r->evidence[i].what,
					"PCIe above the card");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* A VM: QEMU's emulated switch says 2.5 GT/s x1, which the
	 * passed-through card's traffic never crosses. */
	r = judge_behind(&s, &res, 0x104c, 2.5, 1, 2.5, 1);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(evidence(r, "PCIe above the card"),
			       "3 emulated bridges"));
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* The switch's link not read: the card's own link is judged. */
	r = judge_behind(&s, &res, 0x1000, 0, 0, 0, 0);
	assert_int_equal(r->verdict, RD_PASS);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_soft_device_skipped(void **state)
{
	struct rd_snapshot s = { 0 };
	struct rd_results res = { 0 };
	struct rd_device *d;

	(void)state;
	d = snap_dev(&s, "rxe0", NULL);
	d->driver = rd_strdup("rxe");
	snap_port(d, 1, 4, 5, "Ethernet", "veth0");
	run_only(&s, NULL, ID, &res);
	for (size_t i = 0; i < res.n; i++)
		assert_string_not_equal(res.v[i].check_id, ID);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_shared_link),
		cmocka_unit_test(test_uplink),
		cmocka_unit_test(test_soft_device_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
