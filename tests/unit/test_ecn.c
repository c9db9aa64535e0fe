// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "probe_unit.h"

#include "probes/ecn.h"
#include "probes/ib_sysfs.h"

static uint64_t ctr(const struct rd_counters *c, const char *name)
{
	const struct rd_counter *x = rd_counters_find(c, name);

	assert_non_null(x);
	assert_true(x->value.ok);
	return x->value.v;
}

static void test_cx6dx(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
	struct rd_netdev *nd;
	char dir[PATH_MAX];

	(void)state;
	unit_probe_ctx(&roots, &ctx,
		 unit_fixture("cx6dx-roce-port-down", dir, sizeof(dir)), NULL);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_IB_SYSFS, &s), 0);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_ECN, &s), 0);
	assert_int_equal(s.n_errors, 0);

	/* No netlink ran: the probe made the netdev entries itself. */
	nd = rd_snapshot_netdev(&s, "eth2");
	assert_non_null(nd);
	assert_string_equal(nd->rdma_device, "mlx5_0");
	assert_int_equal(nd->rdma_port.v, 1);
	assert_true(nd->ecn.present.ok && nd->ecn.present.v);
	assert_int_equal(nd->ecn.np_enable.n, 8);
	assert_int_equal(nd->ecn.rp_enable.n, 8);
	assert_int_equal(ctr(&nd->ecn.np_enable, "prio3"), 1);
	assert_int_equal(ctr(&nd->ecn.np_enable, "prio0"), 0);
	assert_int_equal(ctr(&nd->ecn.rp_enable, "prio3"), 1);
	assert_int_equal(ctr(&nd->ecn.params, "roce_np/cnp_dscp"), 48);
	assert_int_equal(ctr(&nd->ecn.params, "roce_rp/rpg_time_reset"), 300);
	/* The enable directories are not parameters. */
	assert_null(rd_counters_find(&nd->ecn.params, "roce_np/enable"));

	/* Upstream driver layout: no ecn directory at all. */
	nd = rd_snapshot_netdev(&s, "eth3");
	assert_non_null(nd);
	assert_true(nd->ecn.present.ok && !nd->ecn.present.v);
	assert_int_equal(nd->ecn.np_enable.n, 0);

	assert_int_equal(s.host.n_cm_ports, 1);
	assert_string_equal(s.host.cm_ports[0].device, "mlx5_0");
	assert_int_equal(s.host.cm_ports[0].port.v, 1);
	assert_string_equal(s.host.cm_ports[0].default_roce_mode, "RoCE v2");
	assert_int_equal(s.host.cm_ports[0].default_roce_tos.v, 106);
	rd_snapshot_free(&s);
}

static void test_existing_netdev_is_reused(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
	struct rd_netdev *nd;
	char dir[PATH_MAX];

	(void)state;
	unit_probe_ctx(&roots, &ctx,
		 unit_fixture("cx6dx-roce-port-down", dir, sizeof(dir)), NULL);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_IB_SYSFS, &s), 0);
	nd = RD_PUSH(s.netdevs, s.n_netdevs);
	nd->name = strdup("eth2");
	nd->mtu = rd_u64(9000);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_ECN, &s), 0);
	assert_int_equal(s.n_netdevs, 2);
	nd = rd_snapshot_netdev(&s, "eth2");
	assert_int_equal(nd->mtu.v, 9000);
	assert_true(nd->ecn.present.v);
	rd_snapshot_free(&s);
}

static void test_hostile(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
	struct rd_netdev *nd;
	struct rd_device *d;
	struct rd_port *p;
	char dir[PATH_MAX];

	(void)state;
	unit_probe_ctx(&roots, &ctx, unit_fixture("hostile", dir, sizeof(dir)), NULL);
	rd_snapshot_init(&s);
	/* A port whose netdev name would climb out of /sys/class/net. */
	d = RD_PUSH(s.devices, s.n_devices);
	d->name = strdup("mlx5_0");
	p = RD_PUSH(d->ports, d->n_ports);
	p->port = 1;
	p->netdev = strdup("../../..");
	p = RD_PUSH(d->ports, d->n_ports);
	p->port = 2;
	p->netdev = strdup("eth9");
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_ECN, &s), 0);
	assert_null(rd_snapshot_netdev(&s, "../../.."));
	assert_true(unit_has_error(&s, "../../..", NULL));

	nd = rd_snapshot_netdev(&s, "eth9");
	assert_non_null(nd);
	assert_true(nd->ecn.present.v);
	/* "yes" is no 0/1, priority 9 does not exist: neither believed. */
	assert_null(rd_counters_find(&nd->ecn.np_enable, "prio3"));
	assert_null(rd_counters_find(&nd->ecn.np_enable, "prio9"));
	assert_true(unit_has_error(&s, "roce_np/enable/3", NULL));
	assert_true(unit_has_error(&s, "roce_np/enable/9", NULL));
	assert_int_equal(rd_counters_find(&nd->ecn.rp_enable, "prio0")->value.v,
			 1);
	assert_null(
		rd_counters_find(&nd->ecn.params, "roce_rp/rpg_time_reset"));
	assert_true(unit_has_error(&s, "rpg_time_reset", NULL));

	/* configfs: an unknown mode, a ToS above 255, a port named "x". */
	assert_int_equal(s.host.n_cm_ports, 1);
	assert_null(s.host.cm_ports[0].default_roce_mode);
	assert_false(s.host.cm_ports[0].default_roce_tos.ok);
	assert_true(unit_has_error(&s, "default_roce_mode", NULL));
	assert_true(unit_has_error(&s, "default_roce_tos", NULL));
	assert_true(unit_has_error(&s, "ports/x", NULL));
	rd_snapshot_free(&s);
}

static void test_netdev_names(void **state)
{
	(void)state;
	assert_true(rd_netdev_name_ok("eth0"));
	assert_true(rd_netdev_name_ok("enp59s0f0np0"));
	assert_false(rd_netdev_name_ok("enp59s0f0np0xxxx"));
	assert_false(rd_netdev_name_ok(".."));
	assert_false(rd_netdev_name_ok("."));
	assert_false(rd_netdev_name_ok("a/b"));
	assert_false(rd_netdev_name_ok("a b"));
	assert_false(rd_netdev_name_ok(""));
	assert_false(rd_netdev_name_ok(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx6dx),
		cmocka_unit_test(test_existing_netdev_is_reused),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_netdev_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
