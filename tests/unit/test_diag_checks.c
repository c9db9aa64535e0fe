// SPDX-License-Identifier: GPL-2.0-or-later
/* Host, QoS, driver, firmware and counter checks from in-memory snapshots. */
#include "config.h"

#include "diag_snap.h"
#include "diag/diag_int.h"
#include "fleet/nhc.h"

#include "core/history.h"

#define MIB (1024ull * 1024ull)

static void one_roce(struct rd_snapshot *s, const char *bdf)
{
	struct rd_device *d;

	rd_snapshot_init(s);
	d = snap_dev(s, "mlx5_0", bdf);
	d->fw_ver = rd_strdup("16.35.2000");
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	snap_netdev(s, "eth2", true, true, 9000);
}

static void test_memlock(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };

	(void)state;
	rd_snapshot_init(&s);
	run_only(&s, NULL, "host.memlock", &res);
	expect_verdict(&res, "host.memlock", NULL, 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);

	s.host.memlock_soft = rd_u64(64 * 1024);
	s.host.cap_ipc_lock = rd_bool(false);
	run_only(&s, NULL, "host.memlock", &res);
	expect_verdict(&res, "host.memlock", NULL, 0, RD_FAIL, "memlock_low");
	assert_non_null(strstr(res.v[0].summary, "64 KiB"));
	rd_results_free(&res);

	s.host.memlock_soft = rd_u64(8 * MIB);
	run_only(&s, NULL, "host.memlock", &res);
	expect_verdict(&res, "host.memlock", NULL, 0, RD_WARN, "memlock_low");
	rd_results_free(&res);

	s.host.memlock_soft = rd_u64(64 * 1024);
	s.host.cap_ipc_lock = rd_bool(true);
	run_only(&s, NULL, "host.memlock", &res);
	expect_verdict(&res, "host.memlock", NULL, 0, RD_PASS, "ok");
	rd_results_free(&res);

	s.host.cap_ipc_lock = rd_bool(false);
	s.host.memlock_soft.ok = false;
	s.host.memlock_unlimited = rd_bool(true);
	run_only(&s, NULL, "host.memlock", &res);
	expect_verdict(&res, "host.memlock", NULL, 0, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_hugepages(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	const struct rd_result *r;

	(void)state;
	rd_snapshot_init(&s);
	run_only(&s, NULL, "host.hugepages", &res);
	expect_verdict(&res, "host.hugepages", NULL, 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	s.host.hugepages_total = rd_u64(0);
	s.host.hugepages_free = rd_u64(0);
	run_only(&s, NULL, "host.hugepages", &res);
	expect_verdict(&res, "host.hugepages", NULL, 0, RD_WARN, "no_hugepages");
	rd_results_free(&res);
	s.host.hugepages_total = rd_u64(512);
	s.host.hugepages_free = rd_u64(100);
	run_only(&s, NULL, "host.hugepages", &res);
	expect_verdict(&res, "host.hugepages", NULL, 0, RD_PASS, "ok");
	rd_results_free(&res);

	rd_diag_opts_init(&o);
	o.only_area = "host.hugepages";
	o.hugepages_wanted = 300;
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "host.hugepages", NULL, 0, RD_WARN, "hugepages_low");
	r = find_result(&res, "host.hugepages", NULL, 0);
	/* 512 total, 100 free, 300 wanted: 200 more. */
	assert_string_equal(r->fix->command, "sysctl -w vm.nr_hugepages=712");
	fix_is_its_kind("hugepages", r);
	assert_string_equal(r->fix->arg, "/proc/sys/vm/nr_hugepages");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_pfc(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_dcb *dcb;
	const struct rd_result *r;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	dcb = &s.netdevs[0].dcb;
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);

	dcb->supported = rd_bool(false);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	assert_non_null(strstr(res.v[0].summary, "no DCB support"));
	rd_results_free(&res);

	dcb->supported = rd_bool(true);
	dcb->pfc_en = rd_u64(0);
	/* No trust mode, no APP table: the priority is not guessed. */
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);

	/* The APP table names RoCE v2's priority; pause state still unread. */
	snap_app(&s.netdevs[0], 3, 4791, 3);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);

	s.netdevs[0].ethtool.rx_pause = rd_bool(false);
	s.netdevs[0].ethtool.tx_pause = rd_bool(false);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_FAIL, "pfc_off");
	r = find_result(&res, "qos.pfc", "mlx5_0", 1);
	assert_string_equal(r->fix->command, "dcb pfc set dev eth2 prio-pfc 3:on");
	fix_is_its_kind("pfc", r);
	rd_results_free(&res);

	dcb->pfc_en = rd_u64(0x08);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);

	dcb->pfc_en = rd_u64(0x18);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_WARN, "pfc_extra_prio");
	/* The next step gives the whole command, nothing elided. */
	r = find_result(&res, "qos.pfc", "mlx5_0", 1);
	assert_non_null(strstr(r->next_step,
			       "dcb pfc set dev eth2 prio-pfc 0:off 1:off 2:off "
			       "3:on 4:off 5:off 6:off 7:off"));
	assert_null(strstr(r->next_step, "..."));
	rd_results_free(&res);

	/* The APP entry moves RoCE to priority 4: 0x08 is now wrong. */
	dcb->apps[0].priority = rd_u64(4);
	dcb->pfc_en = rd_u64(0x08);
	run_only(&s, NULL, "qos.pfc", &res);
	expect_verdict(&res, "qos.pfc", "mlx5_0", 1, RD_FAIL, "pfc_wrong_prio");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_ecn(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_ecn *e;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	e = &s.netdevs[0].ecn;
	s.netdevs[0].dcb.trust = rd_strdup("dscp");
	snap_app(&s.netdevs[0], 5, 26, 3);
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	e->present = rd_bool(true);
	rd_counters_add(&e->np_enable, "prio3", rd_u64(0));
	rd_counters_add(&e->rp_enable, "prio3", rd_u64(0));
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_WARN, "ecn_off");
	/* Both commands whole, for the priority that is off. */
	assert_non_null(strstr(find_result(&res, "qos.ecn", "mlx5_0", 1)->next_step,
			       "echo 1 > /sys/class/net/eth2/ecn/roce_np/enable/3; "
			       "echo 1 > /sys/class/net/eth2/ecn/roce_rp/enable/3"));
	rd_results_free(&res);
	e->np_enable.v[0].value = rd_u64(1);
	e->rp_enable.v[0].value = rd_u64(1);
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);
	/* RoCE on 3 and 4; 3 on, 4's files not read: not "off". */
	snap_app(&s.netdevs[0], 5, 34, 4);
	rd_counters_add(&e->np_enable, "prio4", rd_u64(0));
	rd_counters_add(&e->rp_enable, "prio4", rd_u64(0));
	e->np_enable.v[1].value.ok = false;
	e->rp_enable.v[1].value.ok = false;
	run_only(&s, NULL, "qos.ecn", &res);
	expect_verdict(&res, "qos.ecn", "mlx5_0", 1, RD_UNKNOWN, "no_data");
	assert_non_null(
		strstr(find_result(&res, "qos.ecn", "mlx5_0", 1)->summary,
		       "ECN enable for priority 4 not read"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_firmware(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);

	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x1017, "mlx5_core");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_PASS, "ok");
	rd_results_free(&res);

	free(s.devices[0].fw_ver);
	s.devices[0].fw_ver = rd_strdup("16.22.1002");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_FAIL, "fw_below_min");
	rd_results_free(&res);

	/* Same version text, unknown device: no minimum, no guess. */
	s.pci[0].device_id = rd_u64(0x1020);
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/*
	 * No PCI function read: ibstat's CA type (hca_type MT4125, the
	 * device id in decimal) or ibv_devinfo's vendor_part_id names it.
	 */
	one_roce(&s, "0000:3b:00.0");
	free(s.devices[0].fw_ver);
	s.devices[0].fw_ver = rd_strdup("22.27.1016");
	s.devices[0].hca_type = rd_strdup("MT4125");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_FAIL, "fw_below_min");
	assert_non_null(strstr(find_result(&res, "fw.version", "mlx5_0", 0)
				       ->summary, "ConnectX-6 Dx"));
	rd_results_free(&res);
	free(s.devices[0].hca_type);
	s.devices[0].hca_type = NULL;
	s.devices[0].verbs.vendor_id = rd_u64(0x02c9);
	s.devices[0].verbs.vendor_part_id = rd_u64(4125);
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_FAIL, "fw_below_min");
	rd_results_free(&res);
	/* Another vendor's part number is not a Mellanox device id. */
	s.devices[0].verbs.vendor_id = rd_u64(0x8086);
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* ConnectX-3 (mlx4): its last firmware is the minimum. */
	one_roce(&s, "0000:3b:00.0");
	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x1007, "mlx4_core");
	free(s.devices[0].fw_ver);
	s.devices[0].fw_ver = rd_strdup("2.40.7000");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_FAIL, "fw_below_min");
	rd_results_free(&res);
	free(s.devices[0].fw_ver);
	s.devices[0].fw_ver = rd_strdup("2.42.5000");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "mlx5_0", 0, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* A software device has no firmware. */
	rd_snapshot_init(&s);
	snap_dev(&s, "rxe0", NULL)->driver = rd_strdup("rxe");
	run_only(&s, NULL, "fw.version", &res);
	expect_verdict(&res, "fw.version", "rxe0", 0, RD_PASS, "not_applicable");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_pcie(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_pci *p;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	p = snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x101d, "mlx5_core");
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	p->link_speed_gts = rd_dbl(8.0);
	p->link_width = rd_u64(8);
	p->cap_speed_gts = rd_dbl(16.0);
	p->cap_width = rd_u64(16);
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_WARN,
		       "pcie_degraded");
	rd_results_free(&res);
	p->link_speed_gts = rd_dbl(16.0);
	p->link_width = rd_u64(16);
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * Width alone proves a degraded link, and so does speed alone; a link
 * that looks full on what was read is not known. "Needs root" only
 * where the process was not root, never for a file.
 */
static void test_pcie_partial(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	const struct rd_result *r;
	struct rd_pci *p;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	p = snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x101d, "mlx5_core");
	p->link_width = rd_u64(8);
	p->cap_width = rd_u64(16);
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_WARN,
		       "pcie_degraded");
	r = find_result(&res, "hw.pcie_link", "mlx5_0", 0);
	assert_non_null(strstr(r->summary, "x8 of x16"));
	rd_results_free(&res);
	/* Speed alone. */
	p->link_width.ok = p->cap_width.ok = false;
	p->link_speed_gts = rd_dbl(8.0);
	p->cap_speed_gts = rd_dbl(16.0);
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_WARN,
		       "pcie_degraded");
	r = find_result(&res, "hw.pcie_link", "mlx5_0", 0);
	assert_non_null(strstr(r->summary, "8.0 GT/s of 16.0 GT/s"));
	rd_results_free(&res);
	/* Full on speed, width unread: not known, and why. */
	p->link_speed_gts = rd_dbl(16.0);
	s.host.is_root = rd_bool(true);
	run_only(&s, NULL, "hw.pcie_link", &res);
	expect_verdict(&res, "hw.pcie_link", "mlx5_0", 0, RD_UNKNOWN,
		       "no_data");
	r = find_result(&res, "hw.pcie_link", "mlx5_0", 0);
	assert_null(strstr(r->summary, "root"));
	assert_non_null(strstr(r->summary, "trained width, capable width"));
	rd_results_free(&res);
	s.host.is_root = rd_bool(false);
	run_only(&s, NULL, "hw.pcie_link", &res);
	r = find_result(&res, "hw.pcie_link", "mlx5_0", 0);
	assert_non_null(strstr(r->summary, "needs root"));
	rd_results_free(&res);
	/* The same from a file: what the file lacks, not a privilege. */
	rd_diag_opts_init(&o);
	o.only_area = "hw.pcie_link";
	o.from_file = true;
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	r = find_result(&res, "hw.pcie_link", "mlx5_0", 0);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_null(strstr(r->summary, "root"));
	assert_non_null(strstr(r->summary, "the file holds no PCIe trained width"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_verbs_checks(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_device *d;

	(void)state;
	one_roce(&s, NULL);
	d = &s.devices[0];
	run_only(&s, NULL, "user", &res);
	expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	d->uverbs = rd_strdup("uverbs0");	/* not listed: no provider */
	d->uverbs_dev = rd_strdup("/dev/infiniband/uverbs0");
	d->verbs.opened = rd_bool(false);
	d->verbs.listed = rd_bool(false);
	d->verbs.open_error = rd_strdup("no provider for mlx5_0");
	run_only(&s, NULL, "user.provider", &res);
	expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
		       "provider_missing");
	rd_results_free(&res);
	/*
	 * Listed but not opened: the provider is there; the errno says
	 * what is wrong, and no provider is to be installed.
	 */
	{
		static const struct {
			int err;
			const char *cause, *says, *next;
		} open_fails[] = {
			{ EACCES, "uverbs_denied",
			  "/dev/infiniband/uverbs0 cannot be opened: Permission denied",
			  "run as root" },
			{ EPERM, "uverbs_denied", "Operation not permitted",
			  "a container needs the device passed in" },
			{ ENOENT, "uverbs_missing",
			  "/dev/infiniband/uverbs0 does not exist", "udev" },
			{ ENODEV, "device_gone", "went away", "dmesg" },
			{ ENXIO, "device_gone", "went away", "reset" },
			{ EIO, "open_failed", "cannot open it: ibv_open_device",
			  "ibv_devinfo -d mlx5_0" },
		};

		d->verbs.listed = rd_bool(true);
		for (size_t i = 0; i < sizeof(open_fails) / sizeof(open_fails[0]);
		     i++) {
			const struct rd_result *r;

			d->verbs.open_errno = rd_u64((uint64_t)open_fails[i].err);
			free(d->verbs.open_error);
			d->verbs.open_error = rd_strdup("ibv_open_device: x");
			run_only(&s, NULL, "user.provider", &res);
			expect_verdict(&res, "user.provider", "mlx5_0", 0,
				       RD_FAIL, open_fails[i].cause);
			r = find_result(&res, "user.provider", "mlx5_0", 0);
			if (!strstr(r->summary, open_fails[i].says) ||
			    !strstr(r->next_step, open_fails[i].next))
				fail_msg("errno %d: %s / %s", open_fails[i].err,
					 r->summary, r->next_step);
			assert_null(strstr(r->summary, "provider"));
			assert_null(strstr(r->next_step, "provider"));
			assert_null(r->fix);
			rd_results_free(&res);
		}
		/* An errno and no words from the probe: the errno's. */
		free(d->verbs.open_error);
		d->verbs.open_error = NULL;
		run_only(&s, NULL, "user.provider", &res);
		expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
			       "open_failed");
		assert_non_null(
			strstr(find_result(&res, "user.provider", "mlx5_0", 0)
				       ->summary,
			       "cannot open it: Input/output error"));
		rd_results_free(&res);
		d->verbs.open_error = rd_strdup("ibv_open_device: x");
		/*
		 * No errno recorded: the open is what failed, not a query;
		 * only the probe's "ibv_query_device" says it opened.
		 */
		d->verbs.open_errno.ok = false;
		run_only(&s, NULL, "user.provider", &res);
		expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
			       "open_failed");
		assert_null(strstr(find_result(&res, "user.provider", "mlx5_0", 0)
					   ->summary, "query"));
		assert_non_null(strstr(find_result(&res, "user.provider",
						   "mlx5_0", 0)->summary,
				       "cannot open it: ibv_open_device: x"));
		rd_results_free(&res);
		free(d->verbs.open_error);
		d->verbs.open_error = NULL;
		run_only(&s, NULL, "user.provider", &res);
		expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
			       "open_failed");
		assert_non_null(strstr(find_result(&res, "user.provider",
						   "mlx5_0", 0)->summary,
				       "cannot open it (no errno recorded)"));
		rd_results_free(&res);
		/* Opened, then the query failed. */
		d->verbs.open_error =
			rd_strdup("ibv_query_device: Input/output error");
		run_only(&s, NULL, "user.provider", &res);
		expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
			       "query_failed");
		assert_non_null(strstr(find_result(&res, "user.provider",
						   "mlx5_0", 0)->summary,
				       "opens it but cannot query it"));
		rd_results_free(&res);
		/* A recording that did not keep the listing: no guess. */
		d->verbs.listed.ok = false;
		run_only(&s, NULL, "user.provider", &res);
		expect_verdict(&res, "user.provider", "mlx5_0", 0, RD_FAIL,
			       "open_failed");
		rd_results_free(&res);
	}
	d->verbs.max_cqe = rd_u64(1024);
	run_only(&s, NULL, "dev.cq_size", &res);
	expect_verdict(&res, "dev.cq_size", "mlx5_0", 0, RD_WARN, "cq_small");
	rd_results_free(&res);
	d->verbs.max_cqe = rd_u64(4194303);
	run_only(&s, NULL, "dev.cq_size", &res);
	expect_verdict(&res, "dev.cq_size", "mlx5_0", 0, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_container(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_devnode *n;

	(void)state;
	one_roce(&s, NULL);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	s.host.container = rd_strdup("docker");
	n = RD_PUSH(s.host.devnodes, s.host.n_devnodes);
	assert_non_null(n);
	n->path = rd_strdup("/dev/infiniband/uverbs0");
	n->exists = rd_bool(false);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_FAIL,
		       "container_no_devices");
	rd_results_free(&res);

	/* A pod given one of the host's devices: not a failure. */
	for (int i = 1; i <= 3; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/dev/infiniband/uverbs%d", i);
		n = RD_PUSH(s.host.devnodes, s.host.n_devnodes);
		assert_non_null(n);
		n->path = rd_strdup(path);
		n->exists = rd_bool(i == 3);
		n->readable = rd_bool(true);
		n->writable = rd_bool(true);
	}
	s.host.cap_ipc_lock = rd_bool(true);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_PASS, "ok");
	assert_non_null(strstr(res.v[0].summary, "1 of the 4 RDMA devices"));
	rd_results_free(&res);
	/* ... but without rdma_cm, programs that connect through it fail. */
	n = RD_PUSH(s.host.devnodes, s.host.n_devnodes);
	assert_non_null(n);
	n->path = rd_strdup("/dev/infiniband/rdma_cm");
	n->exists = rd_bool(false);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_WARN,
		       "container_no_rdma_cm");
	rd_results_free(&res);
	n->exists = rd_bool(true);
	n->readable = rd_bool(true);
	n->writable = rd_bool(true);
	/* No CAP_IPC_LOCK but a memlock limit that suffices: no warning. */
	s.host.cap_ipc_lock = rd_bool(false);
	s.host.memlock_unlimited = rd_bool(false);
	s.host.memlock_soft = rd_u64(64ull << 30);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_PASS, "ok");
	rd_results_free(&res);
	s.host.memlock_soft = rd_u64(64ull << 10);
	run_only(&s, NULL, "host.container", &res);
	expect_verdict(&res, "host.container", NULL, 0, RD_WARN,
		       "container_no_ipc_lock");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A NIC with no NUMA node on a host of several: locality not known. */
static void test_numa_none(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_pci *p;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	s.host.numa_nodes = rd_u64(2);
	p = rd_snapshot_pci(&s, s.devices[0].pci_bdf);
	if (!p)
		p = snap_pci(&s, s.devices[0].pci_bdf, 0x15b3, 0x101d,
			     "mlx5_core");
	p->numa_node = rd_s64(-1);
	run_only(&s, NULL, "host.numa", &res);
	expect_verdict(&res, "host.numa", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	assert_non_null(strstr(res.v[0].summary, "no NUMA node (-1) on a host "
						 "of several nodes"));
	rd_results_free(&res);
	s.host.numa_nodes = rd_u64(1);
	run_only(&s, NULL, "host.numa", &res);
	expect_verdict(&res, "host.numa", "mlx5_0", 0, RD_PASS, "ok");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * No RDMA device inside a container: the container is the first finding
 * (in the console and in check --nhc alike), and no module, sysctl or
 * link fix-up is offered. On the host the same facts give one command
 * from port.state and driver.modules alike.
 */
static void test_container_first(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r, *top;
	char line[RD_NHC_LINE_MAX + 1];

	(void)state;
	rd_snapshot_init(&s);
	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x1017, "mlx5_core");
	snap_module(&s, "mlx5_core");
	snap_module(&s, "mlx5_ib");
	s.host.container = rd_strdup("kubernetes");
	s.host.hugepages_total = rd_u64(0);
	s.host.hugepages_free = rd_u64(0);
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	rd_results_sort(&res);
	top = rd_results_top(&res);
	assert_non_null(top);
	assert_string_equal(top->check_id, "host.container");
	assert_int_equal(top->verdict, RD_FAIL);
	assert_non_null(strstr(top->next_step, "pass /dev/infiniband and the "
					       "netdev into the container"));
	assert_non_null(strstr(top->next_step, "check on the host"));
	for (size_t i = 0; i < res.n; i++)
		if (res.v[i].fix)
			fail_msg("in a container: %s offers \"%s\"",
				 res.v[i].check_id, res.v[i].fix->command);
	r = find_result(&res, "port.state", NULL, 0);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_non_null(strstr(r->summary, "container"));
	assert_non_null(strstr(rd_result_no_fix_reason(r), "container"));
	r = find_result(&res, "driver.modules", NULL, 0);
	assert_non_null(strstr(rd_result_no_fix_reason(r), "host"));
	/* check --nhc names the same finding. */
	assert_int_equal(rd_nhc_line(&res, false, line, sizeof(line)), 1);
	assert_non_null(strstr(line, "; host.container in a kubernetes"));
	rd_results_free(&res);

	/* An overlay root alone is no container: the fix-ups stay. */
	free(s.host.container);
	s.host.container = rd_strdup("overlay-root");
	assert_false(rd_diag_in_container(&s));
	/* On the host: one command, the same from both checks. */
	free(s.host.container);
	s.host.container = rd_strdup("none");
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	rd_results_sort(&res);
	r = find_result(&res, "port.state", NULL, 0);
	assert_non_null(r->fix);
	assert_string_equal(r->fix->command, "modprobe ib_uverbs");
	r = find_result(&res, "driver.modules", NULL, 0);
	assert_non_null(r->fix);
	assert_string_equal(r->fix->command, "modprobe ib_uverbs");
	assert_string_equal(rd_results_top(&res)->check_id, "port.state");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* Under --root the probe names nodes ROOT/dev/...: they still count. */
static void test_uverbs_under_root(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_devnode *n;

	(void)state;
	one_roce(&s, NULL);
	s.devices[0].uverbs = rd_strdup("uverbs1");
	s.devices[0].uverbs_dev = rd_strdup("/dev/infiniband/uverbs1");
	n = RD_PUSH(s.host.devnodes, s.host.n_devnodes);
	assert_non_null(n);
	n->path = rd_strdup("tests/fixtures/x/dev/infiniband/uverbs11");
	n->exists = rd_bool(true);
	run_only(&s, NULL, "user.uverbs", &res);
	expect_verdict(&res, "user.uverbs", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	n = RD_PUSH(s.host.devnodes, s.host.n_devnodes);
	assert_non_null(n);
	n->path = rd_strdup("tests/fixtures/x/dev/infiniband/uverbs1");
	n->exists = rd_bool(false);
	run_only(&s, NULL, "user.uverbs", &res);
	expect_verdict(&res, "user.uverbs", "mlx5_0", 0, RD_FAIL,
		       "uverbs_missing");
	/* How to make udev apply its rules, and how to see the node. */
	r = find_result(&res, "user.uverbs", "mlx5_0", 0);
	assert_non_null(strstr(r->next_step, "udevadm trigger "
					     "--subsystem-match=infiniband_verbs"));
	assert_non_null(strstr(r->next_step, "ls -l "));
	rd_results_free(&res);
	s.host.devnodes[1].exists = rd_bool(true);
	s.host.devnodes[1].readable = rd_bool(true);
	s.host.devnodes[1].writable = rd_bool(false);
	run_only(&s, NULL, "user.uverbs", &res);
	expect_verdict(&res, "user.uverbs", "mlx5_0", 0, RD_FAIL,
		       "uverbs_denied");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* Both ports of a NIC want mlx5_ib: it is listed, and asked for, once. */
static void test_modules_listed_once(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	size_t n = 0;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	snap_pci(&s, "0000:3b:00.0", 0x15b3, 0x101d, "mlx5_core");
	snap_pci(&s, "0000:3b:00.1", 0x15b3, 0x101d, "mlx5_core");
	snap_module(&s, "ib_core");
	snap_module(&s, "ib_uverbs");
	snap_module(&s, "mlx5_core");
	run_only(&s, NULL, "driver.modules", &res);
	expect_verdict(&res, "driver.modules", NULL, 0, RD_FAIL,
		       "module_missing");
	r = find_result(&res, "driver.modules", NULL, 0);
	for (size_t i = 0; i < r->n_evidence; i++)
		if (strcmp(r->evidence[i].what, "mlx5_ib") == 0)
			n++;
	assert_int_equal(n, 1);
	assert_string_equal(r->fix->command, "modprobe mlx5_ib");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * Each soft device wants its own module (siw is not rdma_rxe), and a
 * module the probe never looks for is not "not loaded".
 */
static void test_modules_of_soft_and_unlisted(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_device *d;

	(void)state;
	rd_snapshot_init(&s);
	d = snap_dev(&s, "siw0", NULL);
	d->driver = rd_strdup("siw");
	snap_port(d, 1, 4, 5, "Ethernet", "eth0");
	snap_module(&s, "ib_core");
	snap_module(&s, "ib_uverbs");
	snap_module(&s, "siw");
	snap_module(&s, "rdma_cm");
	snap_module(&s, "rdma_ucm");
	run_only(&s, NULL, "driver.modules", &res);
	expect_verdict(&res, "driver.modules", NULL, 0, RD_PASS, "ok");
	rd_results_free(&res);
	/* rdma_ucm missing: that is what rdma_cm programs need. */
	rd_model_free(rd_module_fields, &s.modules[4]);
	s.n_modules--;
	run_only(&s, NULL, "driver.modules", &res);
	r = find_result(&res, "driver.modules", NULL, 0);
	assert_int_equal(r->verdict, RD_WARN);
	assert_non_null(strstr(r->summary, "rdma_ucm is not loaded: rdma_cm "
					   "programs will fail"));
	rd_results_free(&res);
	assert_int_equal(diag_module(&s, "no_such_module"), DIAG_MOD_UNKNOWN);
	assert_int_equal(diag_module(&s, "iw_cxgb4"), DIAG_MOD_ABSENT);
	assert_int_equal(diag_module(&s, "siw"), DIAG_MOD_LOADED);
	rd_snapshot_free(&s);
}

/* Build a history of two snapshots 2 s apart with one counter moving. */
static void counter_history(struct rd_history *h, struct rd_snapshot *s,
			    const char *name, uint64_t v0, uint64_t v1)
{
	struct rd_port *p = &s->devices[0].ports[0];

	rd_history_init(h);
	rd_counters_add(&p->counters, name, rd_u64(v0));
	rd_counters_add(&p->counters, "port_xmit_data", rd_u64(1000));
	s->monotonic_ns = rd_u64(1000000000ull);
	assert_int_equal(rd_history_add(h, s), 0);
	p->counters.v[0].value = rd_u64(v1);
	p->counters.v[1].value = rd_u64(999999);
	s->monotonic_ns = rd_u64(3000000000ull);
	assert_int_equal(rd_history_add(h, s), 0);
}

static void test_counters(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_history h;
	const struct rd_result *r;

	(void)state;
	/* One snapshot: rising cannot be seen. */
	one_roce(&s, NULL);
	rd_counters_add(&s.devices[0].ports[0].counters, "symbol_error",
			rd_u64(5));
	run_only(&s, NULL, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_UNKNOWN,
		       "no_history");
	rd_results_free(&res);
	rd_snapshot_free(&s);

	/* +4 in 2 s = 2/s: above warn (0), below fail (10). */
	one_roce(&s, NULL);
	counter_history(&h, &s, "symbol_error", 5, 9);
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_WARN,
		       "error_counter_rising");
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "symbol_error"));
	assert_non_null(r->next_step);
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);

	/* +100 in 2 s = 50/s: above fail (10). */
	one_roce(&s, NULL);
	counter_history(&h, &s, "symbol_error", 5, 105);
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_FAIL,
		       "error_counter_rising");
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);

	/* Steady error counter, busy data counter: PASS. */
	one_roce(&s, NULL);
	counter_history(&h, &s, "symbol_error", 5, 5);
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_PASS, "ok");
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);

	/*
	 * Samples 30 s apart, further than the 10 s rate window (a slow
	 * refresh): the rate comes from the newest two, +60 in 30 s = 2/s.
	 */
	one_roce(&s, NULL);
	counter_history(&h, &s, "symbol_error", 5, 5);
	s.devices[0].ports[0].counters.v[0].value = rd_u64(65);
	s.monotonic_ns = rd_u64(33000000000ull);
	assert_int_equal(rd_history_add(&h, &s), 0);
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_WARN,
		       "error_counter_rising");
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "rising at 2 events/s"));
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);

	/* A counter with no value yet: judged are only those sampled. */
	one_roce(&s, NULL);
	counter_history(&h, &s, "symbol_error", 5, 5);
	assert_non_null(rd_counters_add(&s.devices[0].ports[0].counters,
					"link_downed", rd_u64(0)));
	s.devices[0].ports[0].counters.v[1].value.ok = false;
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_PASS, "ok");
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_non_null(strstr(r->summary, "none of 1 error counters rising "
					   "(1 more not sampled yet)"));
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);

	/* link_downed: any rise fails. */
	one_roce(&s, NULL);
	counter_history(&h, &s, "link_downed", 0, 1);
	run_only(&s, &h, "counters.errors", &res);
	expect_verdict(&res, "counters.errors", "mlx5_0", 1, RD_FAIL,
		       "error_counter_rising");
	rd_results_free(&res);
	rd_history_free(&h);
	rd_snapshot_free(&s);
}

/* An empty snapshot: no check may PASS on data it does not have. */
static void test_empty_snapshot(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };

	(void)state;
	rd_snapshot_init(&s);
	run_only(&s, NULL, NULL, &res);
	for (size_t i = 0; i < res.n; i++) {
		const struct rd_result *r = &res.v[i];

		assert_non_null(r->summary);
		assert_non_null(r->cause);
		if (strcmp(r->check_id, "port.state") == 0)
			continue;	/* "no device" is what sysfs said */
		if (r->verdict != RD_UNKNOWN)
			fail_msg("%s: %s on an empty snapshot (%s)", r->check_id,
				 rd_verdict_name(r->verdict), r->summary);
	}
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* Evidence names the file read, never a placeholder for it. */
static void test_evidence_sources(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	bool fw = false;

	(void)state;
	one_roce(&s, "0000:3b:00.0");
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	for (size_t i = 0; i < res.n; i++)
		for (size_t k = 0; k < res.v[i].n_evidence; k++) {
			const char *src = res.v[i].evidence[k].source;

			assert_non_null(src);
			if (strchr(src, '<') || strstr(src, "/X/") ||
			    strstr(src, "BDF") || strstr(src, "/N/"))
				fail_msg("%s: placeholder in \"%s\"",
					 res.v[i].check_id, src);
			if (strcmp(src, "/sys/class/infiniband/mlx5_0/fw_ver") == 0)
				fw = true;
		}
	assert_true(fw);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A result without a fix-up says why there is none. */
static void test_no_fix_reason(void **state)
{
	struct rd_result r = { .verdict = RD_FAIL, .cause = (char *)"no_sm" };

	(void)state;
	assert_non_null(strstr(rd_result_no_fix_reason(&r), "subnet manager"));
	r.cause = (char *)"port_not_active";
	r.verdict = RD_UNKNOWN;
	assert_non_null(strstr(rd_result_no_fix_reason(&r), "ACTIVE"));
	r.cause = (char *)"no_data";
	assert_non_null(strstr(rd_result_no_fix_reason(&r), "not read"));
	r.cause = NULL;
	r.verdict = RD_WARN;
	assert_true(strlen(rd_result_no_fix_reason(&r)) > 10);
}

/* The walk a person takes: hardware, driver, port, network configuration,
 * host; the check table is in that order, and each layer has one title. */
static void test_layer_order(void **state)
{
	(void)state;
	assert_true(RD_LAYER_HW < RD_LAYER_DRIVER);
	assert_true(RD_LAYER_DRIVER < RD_LAYER_PORT);
	assert_true(RD_LAYER_PORT < RD_LAYER_NETCFG);
	assert_true(RD_LAYER_NETCFG < RD_LAYER_HOST);
	for (size_t i = 1; i < rd_n_checks; i++)
		assert_true(rd_checks[i - 1].layer <= rd_checks[i].layer);
	assert_string_equal(rd_layer_title(RD_LAYER_DRIVER), "Driver");
	assert_string_equal(rd_layer_name(RD_LAYER_NETCFG), "netcfg");
	assert_string_equal(rd_layer_title(RD_LAYER_NETCFG),
			    "Network configuration");
	assert_string_equal(rd_layer_title((enum rd_layer)99), "?");
}

/*
 * Every row can be run: it has a per-target function (the walk calls it)
 * or a walk of its own; what it keeps fits what it walks; ids are unique
 * and begin with the area.
 */
static void test_rows_runnable(void **state)
{
	const unsigned port_only = RD_ONLY_IB | RD_ONLY_ACTIVE | RD_NAME_NETDEV;

	(void)state;
	for (size_t i = 0; i < rd_n_checks; i++) {
		const struct rd_check *c = &rd_checks[i];
		size_t n = strlen(c->area);

		assert_true(c->each || c->run);
		if (c->walk != RD_WALK_PORT)
			assert_int_equal(c->only & port_only, 0);
		if (c->walk == RD_WALK_HOST)
			assert_int_equal(c->only, 0);
		assert_true(strncmp(c->id, c->area, n) == 0 && c->id[n] == '.');
		assert_true(!c->why || *c->why);
		assert_ptr_equal(rd_check_find(c->id), c);
	}
}

/* One string per verdict; a value out of range reads as UNKNOWN. */
static void test_verdict_pick(void **state)
{
	static const char *const by[] = { "p", "u", "w", "f" };

	(void)state;
	assert_string_equal(rd_verdict_pick(RD_PASS, by), "p");
	assert_string_equal(rd_verdict_pick(RD_UNKNOWN, by), "u");
	assert_string_equal(rd_verdict_pick(RD_WARN, by), "w");
	assert_string_equal(rd_verdict_pick(RD_FAIL, by), "f");
	assert_string_equal(rd_verdict_pick((enum rd_verdict)7, by), "u");
}

/*
 * The man page's CHECKS table and the README's table of checks list the
 * registry's ids, each once, no more and no fewer. tab: the man page's
 * rows (id, a tab, the text); else the README's ("| `id` | ...").
 */
static void docs_list(const char *path, bool tab, const char *start,
		      const char *end)
{
	bool seen[256] = { false }, in = false;
	char line[4096];
	size_t listed = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_true(rd_n_checks <= 256);
	while (fgets(line, sizeof(line), f)) {
		const struct rd_check *c;
		char id[64];
		size_t n;

		line[strcspn(line, "\n")] = '\0';
		if (!in) {
			in = strcmp(line, start) == 0;
			continue;
		}
		if (strncmp(line, end, strlen(end)) == 0)
			break;
		if (tab) {
			n = strcspn(line, "\t");
			if (!line[n])
				continue;
			snprintf(id, sizeof(id), "%.*s", (int)n, line);
		} else {
			if (strncmp(line, "| `", 3) != 0)
				continue;
			n = strcspn(line + 3, "`");
			snprintf(id, sizeof(id), "%.*s", (int)n, line + 3);
		}
		c = rd_check_find(id);
		if (!c)
			fail_msg("%s lists \"%s\", which is no check", path,
				 id);
		if (seen[c - rd_checks])
			fail_msg("%s lists %s twice", path, id);
		seen[c - rd_checks] = true;
		listed++;
	}
	fclose(f);
	assert_true(in);
	for (size_t i = 0; i < rd_n_checks; i++)
		if (!seen[i])
			fail_msg("%s does not list %s", path, rd_checks[i].id);
	assert_int_equal(listed, rd_n_checks);
}

static void test_docs_list_the_checks(void **state)
{
	char path[4096];

	(void)state;
	snprintf(path, sizeof(path), "%s/rdmadiag.8", RD_SRCDATADIR);
	docs_list(path, true, ".SH CHECKS", ".TE");
	snprintf(path, sizeof(path), "%s/../README.md", RD_SRCDATADIR);
	docs_list(path, false, "| id | checks |", "#");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_pick),
		cmocka_unit_test(test_docs_list_the_checks),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_hugepages),
		cmocka_unit_test(test_pfc),
		cmocka_unit_test(test_ecn),
		cmocka_unit_test(test_firmware),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_pcie_partial),
		cmocka_unit_test(test_verbs_checks),
		cmocka_unit_test(test_container),
		cmocka_unit_test(test_numa_none),
		cmocka_unit_test(test_container_first),
		cmocka_unit_test(test_uverbs_under_root),
		cmocka_unit_test(test_modules_listed_once),
		cmocka_unit_test(test_modules_of_soft_and_unlisted),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_empty_snapshot),
		cmocka_unit_test(test_layer_order),
		cmocka_unit_test(test_rows_runnable),
		cmocka_unit_test(test_evidence_sources),
		cmocka_unit_test(test_no_fix_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
