// SPDX-License-Identifier: GPL-2.0-or-later
/* Port checks: the port-DOWN decision tree, GIDs, MTU; sorting and JSON. */
#include "config.h"

#include "diag_snap.h"
#include "diag/diag_int.h"

#include <json-c/json.h>

static const uint8_t gid_v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
				    192, 0, 2, 1 };
static const uint8_t gid_ll[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				    0x02, 0, 0, 0xff, 0xfe, 0, 0, 1 };

/* mlx5_0/1 on eth2: everything healthy. */
static void healthy(struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	p = snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	p->verbs.active_mtu = rd_u64(4096);
	p->verbs.max_mtu = rd_u64(4096);
	snap_gid(p, 0, "IB/RoCE v1", gid_ll, "eth2");
	snap_gid(p, 1, "RoCE v2", gid_ll, "eth2");
	snap_gid(p, 3, "RoCE v2", gid_v4, "eth2");
	n = snap_netdev(s, "eth2", true, true, 9000);
	snap_addr4(n, "192.0.2.1");
}

static void test_healthy_pass(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	run_only(&s, NULL, "port", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_PASS, "ok");
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_PASS, "ok");
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_PASS, "ok");
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "index 3"));
	assert_null(find_result(&res, "port.state", "mlx5_0", 1)->fix);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * Whoever colours a port (the console, the snapshot printer) says what
 * port.state says, for every state.
 */
static void test_state_colour_is_the_check(void **state)
{
	for (uint64_t st = RD_PORT_DOWN; st <= RD_PORT_ACTIVE_DEFER; st++) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		const struct rd_result *r;

		(void)state;
		healthy(&s);
		s.devices[0].ports[0].state_num = rd_u64(st);
		run_only(&s, NULL, "port", &res);
		r = find_result(&res, "port.state", "mlx5_0", 1);
		assert_non_null(r);
		assert_int_equal(r->verdict,
				 rd_diag_port_state(&s.devices[0].ports[0]));
		assert_int_equal(r->verdict,
				 st >= RD_PORT_ACTIVE ? RD_PASS : RD_FAIL);
		rd_results_free(&res);
		rd_snapshot_free(&s);
	}
}

static void test_admin_down(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	s.devices[0].ports[0].state_num = rd_u64(1);
	s.devices[0].ports[0].phys_state_num = rd_u64(3);
	s.netdevs[0].admin_up = rd_bool(false);
	s.netdevs[0].carrier = rd_bool(false);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "admin_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(r->fix);
	assert_string_equal(r->fix->command, "ip link set dev eth2 up");
	assert_int_equal(r->fix->kind, RD_FIX_LINK_UP);
	assert_string_equal(r->fix->arg, "eth2");
	assert_true(r->fix->undoable);
	/* The path stops at the failing step. */
	assert_true(r->n_path >= 3);
	assert_int_equal(r->path[r->n_path - 1].verdict, RD_FAIL);
	assert_non_null(strstr(r->path[r->n_path - 1].text, "down"));
	assert_string_equal(r->netdev, "eth2");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_no_carrier(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	s.devices[0].ports[0].state_num = rd_u64(1);
	s.devices[0].ports[0].phys_state_num = rd_u64(2);
	s.netdevs[0].carrier = rd_bool(false);
	s.netdevs[0].ethtool.ext_state = rd_strdup("cable issue");
	s.netdevs[0].ethtool.link_down_events = rd_u64(7);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "no_carrier");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "cable issue"));
	assert_null(r->fix);	/* a cable cannot be fixed from here */
	rd_results_free(&res);

	/* The NIC's reason picks the next step: autoneg is not "no cable". */
	s.netdevs[0].ethtool.ext_state_num = rd_u64(4);	/* no cable */
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "no cable"));
	assert_non_null(strstr(r->next_step, "connect the cable"));
	rd_results_free(&res);
	s.netdevs[0].ethtool.ext_state_num = rd_u64(0);	/* autoneg */
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "no_carrier");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "autonegotiation"));
	assert_null(strstr(r->next_step, "cable"));
	assert_non_null(strstr(r->next_step, "switch port is enabled"));
	/* DEV in the table became the netdev's name. */
	assert_non_null(strstr(r->next_step, "ethtool --show-fec eth2"));
	rd_results_free(&res);
	s.netdevs[0].ethtool.ext_substate_num = rd_u64(5);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "FEC mismatch"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_eth_without_netlink(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	rd_model_free(rd_netdev_fields, &s.netdevs[0]);
	free(s.netdevs);
	s.netdevs = NULL;
	s.n_netdevs = 0;
	/* DOWN/Polling: the phys state alone says "no carrier". */
	s.devices[0].ports[0].state_num = rd_u64(1);
	s.devices[0].ports[0].phys_state_num = rd_u64(2);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "no_carrier");
	rd_results_free(&res);
	/*
	 * DOWN/LinkUp with no netdev data: the port is down, a FAIL; only
	 * its cause is not known.
	 */
	s.devices[0].ports[0].phys_state_num = rd_u64(5);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "port_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "cause not known"));
	assert_non_null(strstr(r->summary, "carrier of eth2 not read"));
	assert_null(r->fix);
	rd_results_free(&res);
	/*
	 * DOWN/Disabled, the netdev named but its state not read: mlx5
	 * shows Disabled for a netdev that is down and for an up one
	 * without carrier. Both are said; nothing is changed on a guess.
	 */
	s.devices[0].ports[0].phys_state_num = rd_u64(3);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "admin_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "administratively down, or up "
					   "without carrier"));
	assert_non_null(strstr(r->path[r->n_path - 1].text, "not read"));
	assert_null(r->fix);
	rd_results_free(&res);
	/* DOWN/Disabled and the netdev's name not read either. */
	free(s.devices[0].ports[0].netdev);
	s.devices[0].ports[0].netdev = NULL;
	for (size_t i = 0; i < s.devices[0].ports[0].n_gids; i++) {
		free(s.devices[0].ports[0].gids[i].netdev);
		s.devices[0].ports[0].gids[i].netdev = NULL;
	}
	s.devices[0].ports[0].phys_state_num = rd_u64(3);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "port_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "DOWN/Disabled: cause not known: "
					   "netdev behind the port not read"));
	assert_null(r->netdev);
	assert_null(r->fix);
	/* The path names the fact that would settle it. */
	assert_non_null(strstr(r->path[r->n_path - 1].text, "would settle"));
	assert_non_null(strstr(r->next_step, "rdma link show"));
	rd_results_free(&res);
	/* DOWN/Disabled with no link layer and no netdev read. */
	free(s.devices[0].ports[0].link_layer);
	s.devices[0].ports[0].link_layer = NULL;
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "port_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "link layer and netdev were not "
					   "read"));
	assert_null(strstr(r->next_step ? r->next_step : "", "ibportstate"));
	rd_results_free(&res);
	/* No state at all. */
	s.devices[0].ports[0].state_num.ok = false;
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * A RoCE port DOWN: the netdev read as up but its carrier not read is no
 * "up with carrier"; a link layer not read is RoCE when a netdev is known.
 */
static void test_eth_carrier_unread(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	s.devices[0].ports[0].state_num = rd_u64(1);
	s.devices[0].ports[0].phys_state_num = rd_u64(5);
	s.netdevs[0].carrier.ok = false;
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_0", 1, RD_FAIL, "port_down");
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "cause not known: carrier of eth2 "
					   "not read"));
	assert_null(strstr(r->summary, "with carrier"));
	rd_results_free(&res);
	/* The link layer not read: the netdev makes it RoCE. */
	free(s.devices[0].ports[0].link_layer);
	s.devices[0].ports[0].link_layer = NULL;
	s.netdevs[0].carrier = rd_bool(false);
	s.devices[0].ports[0].phys_state_num = rd_u64(3);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_not_equal(r->cause, "port_disabled");
	assert_null(strstr(r->next_step ? r->next_step : "", "ibportstate"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_ib_tree(void **state)
{
	static const struct {
		uint64_t st, ph, sm;
		const char *cause;
	} cases[] = {
		{ 2, 5, 0, "no_sm" },
		{ 3, 5, 1, "sm_not_activating" },
		{ 1, 2, 0, "no_carrier" },
		{ 1, 3, 0, "port_disabled" },
		{ 1, 6, 0, "link_error_recovery" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		struct rd_device *d;
		struct rd_port *p;

		rd_snapshot_init(&s);
		d = snap_dev(&s, "mlx5_2", "0000:5e:00.0");
		p = snap_port(d, 1, cases[i].st, cases[i].ph, "InfiniBand",
			      NULL);
		p->sm_lid = rd_u64(cases[i].sm);
		run_only(&s, NULL, "port.state", &res);
		expect_verdict(&res, "port.state", "mlx5_2", 1, RD_FAIL,
			       cases[i].cause);
		rd_results_free(&res);
		rd_snapshot_free(&s);
	}
}

/*
 * An InfiniBand VF whose link is up while the SM answers and assigns no
 * LID: its GUIDs and the SM's virtualization, not "check dmesg". A PF in
 * INIT with an SM LID: the SM is reachable but not configuring the port;
 * without an SM LID: no SM.
 */
static void test_ib_vf_and_sm(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_device *d;
	struct rd_port *p;

	(void)state;
	rd_snapshot_init(&s);
	d = snap_dev(&s, "mlx5_7", "0000:4b:00.1");
	d->node_guid = rd_u64(0x9aecdde4e1e642baull);
	d->sys_image_guid = rd_u64(0x043f720300df3e00ull);
	p = snap_port(d, 1, 1, 5, "InfiniBand", NULL);
	p->sm_lid = rd_u64(1);
	p->lid = rd_u64(0xffff);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_7", 1, RD_FAIL,
		       "vf_not_configured");
	r = find_result(&res, "port.state", "mlx5_7", 1);
	assert_non_null(strstr(r->summary, "virtual function"));
	assert_non_null(strstr(r->next_step, "node_guid GUID port_guid GUID"));
	assert_non_null(strstr(r->next_step, "Follow"));
	assert_non_null(strstr(r->next_step, "virtualization"));
	assert_null(strstr(r->next_step, "dmesg"));
	rd_results_free(&res);

	/*
	 * A second PF of a dual-port card: its system image GUID is the
	 * first function's, one off in the low bits. Not a VF.
	 */
	d->node_guid = rd_u64(0x58a2e10300dae627ull);
	d->sys_image_guid = rd_u64(0x58a2e10300dae626ull);
	run_only(&s, NULL, "port.state", &res);
	r = find_result(&res, "port.state", "mlx5_7", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_not_equal(r->cause, "vf_not_configured");
	rd_results_free(&res);
	/* The same GUID twice, yet a VF's PCI device id (ConnectX-6 VF). */
	d->sys_image_guid = d->node_guid;
	snap_pci(&s, "0000:4b:00.1", 0x15b3, 0x101c, "mlx5_core");
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_7", 1, RD_FAIL,
		       "vf_not_configured");
	rd_results_free(&res);

	/* A PF (ConnectX-6) in INIT with an SM LID: reachable, not configuring. */
	s.pci[0].device_id = rd_u64(0x101b);
	p->state_num = rd_u64(2);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_7", 1, RD_FAIL,
		       "sm_not_activating");
	r = find_result(&res, "port.state", "mlx5_7", 1);
	assert_non_null(strstr(r->summary, "reachable"));
	assert_non_null(strstr(r->next_step, "SM's log"));
	rd_results_free(&res);
	/* The SM LID not read: whether an SM answers is not known. */
	p->sm_lid.ok = false;
	for (uint64_t st = 2; st <= 3; st++) {
		p->state_num = rd_u64(st);
		run_only(&s, NULL, "port.state", &res);
		expect_verdict(&res, "port.state", "mlx5_7", 1, RD_FAIL,
			       "not_activated");
		r = find_result(&res, "port.state", "mlx5_7", 1);
		assert_non_null(strstr(r->summary, "SM LID was not read"));
		assert_null(strstr(r->summary, "0x0"));
		rd_results_free(&res);
	}
	p->state_num = rd_u64(2);
	/* No SM LID: no SM at all. */
	p->sm_lid = rd_u64(0);
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", "mlx5_7", 1, RD_FAIL, "no_sm");
	r = find_result(&res, "port.state", "mlx5_7", 1);
	assert_non_null(strstr(r->next_step, "start or reach an SM"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_no_device_module(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	rd_snapshot_init(&s);
	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x1017, "mlx5_core");
	snap_module(&s, "ib_core");
	snap_module(&s, "ib_uverbs");
	snap_module(&s, "mlx5_core");
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", NULL, 0, RD_FAIL, "module_missing");
	r = find_result(&res, "port.state", NULL, 0);
	assert_string_equal(r->fix->command, "modprobe mlx5_ib");
	assert_false(r->fix->undoable);
	rd_results_free(&res);
	/* The driver check says the same from its layer. */
	run_only(&s, NULL, "driver.modules", &res);
	expect_verdict(&res, "driver.modules", NULL, 0, RD_FAIL,
		       "module_missing");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_no_device_rxe(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	rd_snapshot_init(&s);
	snap_module(&s, "ib_core");
	snap_module(&s, "ib_uverbs");
	snap_module(&s, "rdma_rxe");
	snap_netdev(&s, "lo", true, true, 65536);
	n = snap_netdev(&s, "veth0", true, true, 1500);
	snap_addr4(n, "192.0.2.1");
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", NULL, 0, RD_FAIL, "no_device");
	r = find_result(&res, "port.state", NULL, 0);
	assert_string_equal(r->fix->command,
			    "rdma link add rxe0 type rxe netdev veth0");
	assert_string_equal(r->fix->arg, "rxe0");
	assert_string_equal(r->fix->arg2, "veth0");
	fix_is_its_kind("rxe", r);
	rd_results_free(&res);
	/* A ConnectX on the bus with mlx5_ib loaded: the NIC made no
	 * device; neither "no RDMA NIC" nor Soft-RoCE. */
	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x101d, "mlx5_core");
	snap_module(&s, "mlx5_core");
	snap_module(&s, "mlx5_ib");
	run_only(&s, NULL, "port.state", &res);
	expect_verdict(&res, "port.state", NULL, 0, RD_FAIL, "no_device");
	r = find_result(&res, "port.state", NULL, 0);
	assert_non_null(strstr(r->summary, "NIC 0000:3b:00.0 (mlx5_core) is "
					   "on the bus and mlx5_ib is loaded"));
	assert_null(strstr(r->summary, "no RDMA NIC"));
	assert_null(r->fix);
	assert_non_null(strstr(r->next_step, "dmesg"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_mtu(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	healthy(&s);
	s.netdevs[0].mtu = rd_u64(1500);
	s.devices[0].ports[0].verbs.active_mtu = rd_u64(1024);
	run_only(&s, NULL, "port.mtu", &res);
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_WARN, "mtu_low");
	r = find_result(&res, "port.mtu", "mlx5_0", 1);
	assert_string_equal(r->fix->command, "ip link set dev eth2 mtu 9000");
	assert_int_equal(r->fix->value, 9000);
	assert_true(r->fix->disruptive);
	rd_results_free(&res);

	/* A netdev that cannot go higher: no fix-up offered. */
	s.netdevs[0].max_mtu = rd_u64(1500);
	run_only(&s, NULL, "port.mtu", &res);
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_WARN, "mtu_low");
	assert_null(find_result(&res, "port.mtu", "mlx5_0", 1)->fix);
	rd_results_free(&res);

	/* No verbs data: the kernel's rule from the netdev MTU decides. */
	s.netdevs[0].mtu = rd_u64(4200);
	s.devices[0].ports[0].verbs.active_mtu.ok = false;
	run_only(&s, NULL, "port.mtu", &res);
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);

	s.netdevs[0].mtu.ok = false;
	run_only(&s, NULL, "port.mtu", &res);
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	assert_int_equal(diag_roce_mtu(1500), 1024);
	assert_int_equal(diag_roce_mtu(4200), 4096);
	assert_int_equal(diag_roce_mtu(4191), 2048);
	assert_int_equal(diag_roce_mtu(9000), 4096);
	assert_int_equal(diag_roce_mtu(100), 0);
}

/* Check ids apply to their link layer: no RoCE MTU on an IB port. */
static void test_mtu_by_link_layer(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_device *d;
	struct rd_port *p;

	(void)state;
	rd_snapshot_init(&s);
	d = snap_dev(&s, "mlx5_2", "0000:5e:00.0");
	p = snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	p->verbs.active_mtu = rd_u64(2048);
	p->verbs.max_mtu = rd_u64(4096);
	run_only(&s, NULL, "port", &res);
	for (size_t i = 0; i < res.n; i++)
		assert_string_not_equal(res.v[i].check_id, "port.mtu");
	expect_verdict(&res, "port.ib_mtu", "mlx5_2", 1, RD_WARN, "mtu_low");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	healthy(&s);
	run_only(&s, NULL, "port", &res);
	for (size_t i = 0; i < res.n; i++)
		assert_string_not_equal(res.v[i].check_id, "port.ib_mtu");
	expect_verdict(&res, "port.mtu", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_gid(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_port *p;

	(void)state;
	healthy(&s);
	p = &s.devices[0].ports[0];
	/* Only link-local GIDs and no IPv4 address. */
	p->n_gids = 2;
	rd_model_free(rd_netdev_fields, &s.netdevs[0]);
	memset(&s.netdevs[0], 0, sizeof(s.netdevs[0]));
	s.netdevs[0].name = rd_strdup("eth2");
	s.netdevs[0].admin_up = rd_bool(true);
	s.netdevs[0].carrier = rd_bool(true);
	s.netdevs[0].addrs_read = rd_bool(true);
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_FAIL,
		       "no_ipv4_rocev2_gid");
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "eth2 has no IPv4 address"));
	assert_non_null(strstr(r->next_step, "ip addr add ADDR/LEN dev eth2"));
	rd_results_free(&res);
	/*
	 * Read from files only (a fixture tree, netlink refused): the GID
	 * table still lacks the GID, but nothing is known of the addresses.
	 */
	s.netdevs[0].addrs_read.ok = false;
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_FAIL,
		       "no_ipv4_rocev2_gid");
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_null(strstr(r->summary, "no IPv4 address"));
	assert_string_equal(r->summary,
			    "mlx5_0/1: no RoCE v2 IPv4 GID in the GID table "
			    "(the addresses of eth2 were not read)");
	assert_non_null(strstr(r->next_step, "ip -4 addr show dev eth2"));
	assert_null(strstr(r->next_step, "ip addr add"));
	assert_null(r->fix);
	rd_results_free(&res);
	/* More addresses than were kept: the list is not all of them. */
	s.netdevs[0].addrs_read = rd_bool(false);
	run_only(&s, NULL, "port.rocev2_gid", &res);
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_null(strstr(r->summary, "no IPv4 address"));
	assert_non_null(strstr(r->summary, "not every address of eth2 was read"));
	rd_results_free(&res);
	/* A name that is not a shell word is quoted in the command. */
	free(s.netdevs[0].name);
	s.netdevs[0].name = rd_strdup("e$(x)");
	free(p->netdev);
	p->netdev = rd_strdup("e$(x)");
	for (size_t k = 0; k < p->n_gids; k++) {
		free(p->gids[k].netdev);
		p->gids[k].netdev = rd_strdup("e$(x)");
	}
	run_only(&s, NULL, "port.rocev2_gid", &res);
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->next_step, "ip -4 addr show dev 'e$(x)'"));
	rd_results_free(&res);
	/* GID table not read at all. */
	p->n_gids = 0;
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_UNKNOWN,
		       "no_data");
	rd_results_free(&res);
	/* Not ACTIVE: left to port.state. */
	p->n_gids = 3;
	p->state_num = rd_u64(1);
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_UNKNOWN,
		       "port_not_active");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * The GID table speaks for itself: an IPv4 RoCE v2 GID settles the check
 * even when the port's state was not read. All-zero entries are empty
 * slots, not GIDs; a table of nothing else has no usable GID, and in a
 * container that is the pod's network namespace.
 */
static void test_gid_table_speaks(void **state)
{
	static const uint8_t zero[16];
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_port *p;

	(void)state;
	healthy(&s);
	p = &s.devices[0].ports[0];
	p->state_num.ok = false;
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);
	/* Without that GID nothing is settled. */
	memcpy(p->gids[2].raw, gid_ll, 16);
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_UNKNOWN,
		       "no_data");
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "port state not read"));
	rd_results_free(&res);

	/* A saved table of zero entries, as a pod without its netdev has. */
	p->state_num = rd_u64(4);
	for (size_t k = 0; k < p->n_gids; k++)
		memcpy(p->gids[k].raw, zero, 16);
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_FAIL,
		       "no_usable_gid");
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "no usable GID"));
	assert_null(strstr(r->summary, "pod"));
	rd_results_free(&res);
	s.host.container = rd_strdup("kubernetes");
	run_only(&s, NULL, "port.rocev2_gid", &res);
	r = find_result(&res, "port.rocev2_gid", "mlx5_0", 1);
	assert_non_null(strstr(r->summary,
			       "no usable GID: the pod's network namespace "
			       "holds no netdev of this device (macvlan/SR-IOV "
			       "CNI, not the default CNI)"));
	rd_results_free(&res);
	/* Entries whose value was not read are not zero. */
	for (size_t k = 0; k < p->n_gids; k++)
		p->gids[k].raw_ok = false;
	run_only(&s, NULL, "port.rocev2_gid", &res);
	expect_verdict(&res, "port.rocev2_gid", "mlx5_0", 1, RD_UNKNOWN,
		       "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_filter_sort_json(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct json_object *j, *first, *v;
	struct rd_device *d;

	(void)state;
	healthy(&s);
	d = snap_dev(&s, "mlx5_1", "0000:3b:00.1");
	snap_port(d, 1, 1, 3, "Ethernet", "eth3");
	snap_netdev(&s, "eth3", false, false, 1500);
	rd_diag_opts_init(&o);
	o.device = "mlx5_0";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	for (size_t i = 0; i < res.n; i++)
		assert_true(!res.v[i].device ||
			    strcmp(res.v[i].device, "mlx5_0") == 0);
	rd_results_free(&res);

	o.device = NULL;
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	rd_results_sort(&res);
	for (size_t i = 1; i < res.n; i++) {
		const struct rd_result *a = &res.v[i - 1], *b = &res.v[i];

		assert_true(a->layer < b->layer ||
			    (a->layer == b->layer && a->verdict >= b->verdict));
	}
	assert_int_equal(rd_results_worst(&res), RD_FAIL);
	j = rd_results_to_json(&res);
	assert_non_null(j);
	assert_int_equal(json_object_array_length(j), res.n);
	first = json_object_array_get_idx(j, 0);
	assert_true(json_object_object_get_ex(first, "verdict", &v));
	assert_string_equal(json_object_get_string(v),
			    rd_verdict_name(res.v[0].verdict));
	assert_true(json_object_object_get_ex(first, "evidence", &v));
	assert_true(json_object_is_type(v, json_type_array));
	json_object_put(j);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* The walk over ports and devices follows the --device/--port filter. */
static void test_target_walk(void **state)
{
	struct rd_snapshot s;
	struct rd_diag_opts o;
	struct diag_ctx x = { .s = &s, .o = &o };
	struct rd_device *d;
	char seen[256];

	(void)state;
	rd_snapshot_init(&s);
	rd_diag_opts_init(&o);
	d = snap_dev(&s, "mlx5_0", "0000:3b:00.0");
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	snap_port(d, 2, 1, 3, "Ethernet", "eth3");
	snap_dev(&s, "mlx5_1", "0000:3b:00.1");	/* no ports */
	d = snap_dev(&s, "rxe0", NULL);
	snap_port(d, 1, 4, 5, "Ethernet", "veth0");

	seen[0] = '\0';
	for (struct diag_target tg = { 0 }; diag_next_port(&x, &tg);) {
		assert_true(tg.p->port == 1 || tg.p->port == 2);
		strcat(seen, tg.name);
		strcat(seen, " ");
	}
	assert_string_equal(seen, "mlx5_0/1 mlx5_0/2 rxe0/1 ");
	seen[0] = '\0';
	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);) {
		assert_null(tg.p);
		strcat(seen, tg.name);
		strcat(seen, " ");
	}
	assert_string_equal(seen, "mlx5_0 mlx5_1 rxe0 ");

	o.port = 2;
	seen[0] = '\0';
	for (struct diag_target tg = { 0 }; diag_next_port(&x, &tg);)
		strcat(seen, tg.name);
	assert_string_equal(seen, "mlx5_0/2");
	o.port = 0;
	o.device = "rxe0";
	seen[0] = '\0';
	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);)
		strcat(seen, tg.name);
	assert_string_equal(seen, "rxe0");
	o.device = "mlx5_9";
	{
		struct diag_target tg = { 0 };

		assert_false(diag_next_port(&x, &tg));
		assert_false(diag_next_device(&x, &tg));
	}
	rd_snapshot_free(&s);
}

/* What walk_record saw: "target(netdev)" for each target judged. */
static char walked[512];

static void walk_record(struct diag_ctx *x, const struct diag_target *t,
			struct rd_result *r)
{
	char one[160];

	snprintf(one, sizeof(one), "%s(%s) ", t->name,
		 r->netdev ? r->netdev : "-");
	strcat(walked, one);
	diag_verdict(x, r, RD_PASS, "ok", "judged");
}

/* Walk one row over the snapshot; the results stay in out. */
static void walk_row(const struct rd_snapshot *s, const struct rd_check *c,
		     struct rd_results *out)
{
	struct rd_diag_opts o;
	struct diag_ctx x = { .c = c, .s = s, .o = &o, .out = out };

	rd_diag_opts_init(&o);
	out->v = NULL;
	out->n = 0;
	walked[0] = '\0';
	diag_walk(&x);
	assert_int_equal(x.err, 0);
}

/*
 * A row's walk keeps the targets it names: RoCE or InfiniBand ports,
 * hardware devices, devices with a RoCE port; an inactive port is
 * UNKNOWN without being judged; the row's why goes to every result
 * judged.
 */
static void test_walk_rows(void **state)
{
	struct rd_snapshot s;
	struct rd_results res;
	struct rd_device *d;
	struct rd_check c = { .id = "t.walk", .title = "walk", .area = "t",
			      .layer = RD_LAYER_PORT, .each = walk_record };

	(void)state;
	rd_snapshot_init(&s);
	d = snap_dev(&s, "mlx5_0", "0000:3b:00.0");
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	snap_port(d, 2, 1, 3, "Ethernet", "eth3");
	d = snap_dev(&s, "mlx5_1", "0000:5e:00.0");
	snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	d = snap_dev(&s, "rxe0", NULL);
	d->driver = rd_strdup("rdma_rxe");
	snap_port(d, 1, 4, 5, "Ethernet", "veth0");

	c.walk = RD_WALK_HOST;
	c.why = "it matters";
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "host(-) ");
	assert_int_equal(res.n, 1);
	assert_null(res.v[0].device);
	assert_string_equal(res.v[0].why, "it matters");
	rd_results_free(&res);

	c.walk = RD_WALK_DEVICE;
	c.only = RD_ONLY_ROCE;
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "mlx5_0(-) rxe0(-) ");
	rd_results_free(&res);

	c.walk = RD_WALK_PORT;
	c.only = RD_ONLY_ROCE | RD_NAME_NETDEV;
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "mlx5_0/1(eth2) mlx5_0/2(eth3) rxe0/1(veth0) ");
	rd_results_free(&res);

	c.only = RD_ONLY_HW;
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "mlx5_0/1(-) mlx5_0/2(-) mlx5_1/1(-) ");
	rd_results_free(&res);

	c.only = RD_ONLY_IB | RD_ONLY_ACTIVE;
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "mlx5_1/1(-) ");
	rd_results_free(&res);

	/* mlx5_0/2 is DOWN: a result, UNKNOWN, not judged, without the why. */
	c.only = RD_ONLY_ROCE | RD_ONLY_ACTIVE | RD_NAME_NETDEV;
	walk_row(&s, &c, &res);
	assert_string_equal(walked, "mlx5_0/1(eth2) rxe0/1(veth0) ");
	assert_int_equal(res.n, 3);
	assert_int_equal(res.v[1].verdict, RD_UNKNOWN);
	assert_string_equal(res.v[1].cause, "port_not_active");
	assert_string_equal(res.v[1].summary, "mlx5_0/2 not ACTIVE: see port.state");
	assert_string_equal(res.v[1].netdev, "eth3");
	assert_null(res.v[1].why);
	assert_string_equal(res.v[2].why, "it matters");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* diag_have: present data leaves the result alone; absent data is
 * UNKNOWN no_data with the reason. */
static void test_have(void **state)
{
	struct rd_results out = { 0 };
	struct rd_check c = { .id = "t.have", .title = "have", .area = "t" };
	struct diag_ctx x = { .c = &c, .out = &out };
	struct rd_result *r = diag_new(&x, "mlx5_0", 1, NULL);

	(void)state;
	diag_verdict(&x, r, RD_PASS, "ok", "fine");
	assert_true(diag_have(&x, r, true, "%s: not read", "mlx5_0/1"));
	assert_int_equal(r->verdict, RD_PASS);
	assert_string_equal(r->summary, "fine");
	assert_false(diag_have(&x, r, false, "%s: not read", "mlx5_0/1"));
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "no_data");
	assert_string_equal(r->summary, "mlx5_0/1: not read");
	assert_int_equal(x.err, 0);
	rd_results_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_pass),
		cmocka_unit_test(test_state_colour_is_the_check),
		cmocka_unit_test(test_admin_down),
		cmocka_unit_test(test_no_carrier),
		cmocka_unit_test(test_eth_without_netlink),
		cmocka_unit_test(test_eth_carrier_unread),
		cmocka_unit_test(test_ib_tree),
		cmocka_unit_test(test_ib_vf_and_sm),
		cmocka_unit_test(test_no_device_module),
		cmocka_unit_test(test_no_device_rxe),
		cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_mtu_by_link_layer),
		cmocka_unit_test(test_gid),
		cmocka_unit_test(test_gid_table_speaks),
		cmocka_unit_test(test_filter_sort_json),
		cmocka_unit_test(test_target_walk),
		cmocka_unit_test(test_walk_rows),
		cmocka_unit_test(test_have),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
