// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flight recorder's pure half: the events and counter deltas between
 * two snapshots, and the --since duration.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "diag_snap.h"

#include "cmd/record_diff.h"

#define NOW 1764640000.0

static void host(struct rd_snapshot *s, double t, uint64_t state, uint64_t phys,
		 bool carrier, uint64_t symbol_errors)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	s->time = rd_dbl(t);
	d = snap_dev(s, "mlx5_1", "0000:3b:00.1");
	p = snap_port(d, 1, state, phys, "Ethernet", "ens1f1np1");
	assert_non_null(rd_counters_add(&p->counters, "symbol_error",
					rd_u64(symbol_errors)));
	assert_non_null(rd_counters_add(&p->counters, "port_xmit_data",
					rd_u64(symbol_errors * 1000)));
	n = snap_netdev(s, "ens1f1np1", true, carrier, 9000);
	n->rdma_device = rd_strdup("mlx5_1");
	n->rdma_port = rd_u64(1);
	n->xcvr.present = rd_bool(true);
}

static const struct rd_rec_event *find(const struct rd_rec_batch *b,
				       const char *kind)
{
	for (size_t i = 0; i < b->n_events; i++)
		if (strcmp(b->events[i].kind, kind) == 0)
			return &b->events[i];
	return NULL;
}

static void test_first_interval(void **state)
{
	struct rd_snapshot s;
	struct rd_rec_batch b = { 0 };

	(void)state;
	host(&s, NOW, 4, 5, true, 3);
	assert_int_equal(rd_rec_diff(NULL, NULL, &s, NULL, &b), 0);
	assert_int_equal(b.n_events, 1);
	assert_string_equal(b.events[0].kind, "link");
	assert_string_equal(b.events[0].text,
			    "ACTIVE LINK_UP (recording started)");
	assert_int_equal(b.n_deltas, 0);
	rd_rec_batch_free(&b);
	rd_snapshot_free(&s);
}

static void test_port_down(void **state)
{
	struct rd_snapshot a, c;
	struct rd_rec_batch b = { 0 };
	const struct rd_rec_event *e;

	(void)state;
	host(&a, NOW, 4, 5, true, 3);
	host(&c, NOW + 10, 1, 3, false, 15);
	c.netdevs[0].xcvr.present = rd_bool(false);
	assert_int_equal(rd_rec_diff(&a, NULL, &c, NULL, &b), 0);
	e = find(&b, "link");
	assert_non_null(e);
	assert_string_equal(e->text, "DOWN (was ACTIVE)");
	assert_string_equal(e->device, "mlx5_1");
	assert_int_equal(e->port, 1);
	assert_true(e->time == NOW + 10);
	assert_string_equal(find(&b, "phys")->text, "DISABLED (was LINK_UP)");
	assert_string_equal(find(&b, "carrier")->text, "off (was on)");
	assert_string_equal(find(&b, "module")->text, "absent (was present)");
	/* symbol_error is bad when rising; port_xmit_data is not counted */
	assert_int_equal(b.n_deltas, 1);
	assert_string_equal(b.deltas[0].counter, "symbol_error");
	assert_int_equal(b.deltas[0].delta, 12);
	rd_rec_batch_free(&b);

	/* nothing changed: nothing written; a counter that went back: no delta
	 */
	assert_int_equal(rd_rec_diff(&c, NULL, &c, NULL, &b), 0);
	assert_int_equal(b.n_events, 0);
	assert_int_equal(rd_rec_diff(&c, NULL, &a, NULL, &b), 0);
	assert_int_equal(b.n_deltas, 0);
	rd_rec_batch_free(&b);
	rd_snapshot_free(&a);
	rd_snapshot_free(&c);
}

/* One lane of a module with limits: its Rx power and LOS. */
static void module_lane(struct rd_snapshot *s, double rx_mw, bool los)
{
	struct rd_xcvr *m = &s->netdevs[0].xcvr;
	struct rd_xcvr_lane *l;

	m->identifier = rd_u64(0x11);
	m->rx_power_limits.low_alarm = rd_dbl(0.02);
	m->rx_power_limits.low_warn = rd_dbl(0.05);
	l = RD_PUSH(m->lanes, m->n_lanes);
	assert_non_null(l);
	l->lane = 2;
	l->rx_power_mw = rd_dbl(rx_mw);
	l->rx_los = rd_bool(los);
}

/*
 * A lane's light changing class between two readings is an event, with
 * both readings; the same class, or a lane not read on one side, is not.
 */
static void test_light(void **state)
{
	struct rd_snapshot a, c;
	struct rd_rec_batch b = { 0 };
	const struct rd_rec_event *e;

	(void)state;
	host(&a, NOW, 4, 5, true, 3);
	host(&c, NOW + 10, 4, 5, true, 3);
	module_lane(&a, 0.5, false);
	module_lane(&c, 0.0, true);
	assert_int_equal(rd_rec_diff(&a, NULL, &c, NULL, &b), 0);
	e = find(&b, "light");
	assert_non_null(e);
	assert_string_equal(e->text,
			    "lane 2 Rx dark, no light (was ok, -3.01 dBm)");
	assert_string_equal(e->device, "mlx5_1");
	assert_int_equal(e->port, 1);
	rd_rec_batch_free(&b);
	/* back to a low warning, then light that moves within its class */
	c.netdevs[0].xcvr.lanes[0].rx_power_mw = rd_dbl(0.03);
	c.netdevs[0].xcvr.lanes[0].rx_los = rd_bool(false);
	assert_int_equal(rd_rec_diff(&a, NULL, &c, NULL, &b), 0);
	assert_string_equal(find(&b, "light")->text,
			    "lane 2 Rx low, -15.23 dBm (was ok, -3.01 dBm)");
	rd_rec_batch_free(&b);
	c.netdevs[0].xcvr.lanes[0].rx_power_mw = rd_dbl(0.4);
	assert_int_equal(rd_rec_diff(&a, NULL, &c, NULL, &b), 0);
	assert_null(find(&b, "light"));
	rd_rec_batch_free(&b);
	/* a lane with nothing read on one side says nothing */
	c.netdevs[0].xcvr.lanes[0].rx_power_mw.ok = false;
	c.netdevs[0].xcvr.lanes[0].rx_los.ok = false;
	assert_int_equal(rd_rec_diff(&a, NULL, &c, NULL, &b), 0);
	assert_null(find(&b, "light"));
	rd_rec_batch_free(&b);
	rd_snapshot_free(&a);
	rd_snapshot_free(&c);
}

static void test_health_kmsg_verdicts(void **state)
{
	struct rd_snapshot a, c;
	struct rd_rec_batch b = { 0 };
	struct rd_devlink *dl[2];
	struct rd_result ra = { .check_id = "port.state", .verdict = RD_PASS };
	struct rd_result rc = { .check_id = "port.state", .verdict = RD_FAIL };
	struct rd_results pa = { &ra, 1 }, pc = { &rc, 1 };
	struct rd_snapshot *snaps[2] = { &a, &c };

	(void)state;
	host(&a, NOW, 4, 5, true, 0);
	host(&c, NOW + 10, 4, 5, true, 0);
	for (int i = 0; i < 2; i++) {
		struct rd_devlink_reporter *r;

		dl[i] = RD_PUSH(snaps[i]->devlinks, snaps[i]->n_devlinks);
		dl[i]->dev = rd_strdup("0000:3b:00.1");
		r = RD_PUSH(dl[i]->reporters, dl[i]->n_reporters);
		r->name = rd_strdup("fw_fatal");
		r->state = rd_strdup(i ? "error" : "healthy");
		r->error_count = rd_u64(i);
	}
	a.kmsg.last_seq = rd_u64(41);
	for (uint64_t seq = 40; seq <= 42; seq++) {
		struct rd_kmsg_rec *k =
			RD_PUSH(c.kmsg.records, c.kmsg.n_records);

		k->seq = seq;
		k->message = rd_strdup(
			seq == 42 ? "mlx5_core 0000:3b:00.1: Link down"
				  : "old");
		k->rdma_device = rd_strdup("mlx5_1");
		k->wall_time = rd_dbl(NOW + 5);
	}
	ra.device = rc.device = "mlx5_1";
	ra.port = rc.port = 1;
	rc.summary = "mlx5_1/1 DOWN";
	assert_int_equal(rd_rec_diff(&a, &pa, &c, &pc, &b), 0);
	assert_int_equal(b.n_events, 3);
	assert_string_equal(find(&b, "health")->device, "mlx5_1");
	assert_string_equal(
		find(&b, "health")->text,
		"reporter fw_fatal error, 1 errors (was healthy, 0 errors)");
	assert_string_equal(find(&b, "kernel")->text,
			    "mlx5_core 0000:3b:00.1: Link down");
	assert_true(find(&b, "kernel")->time == NOW + 5);
	assert_string_equal(find(&b, "check")->text,
			    "port.state FAIL (was PASS): mlx5_1/1 DOWN");
	rd_rec_batch_free(&b);
	/* the same verdict again: no event */
	assert_int_equal(rd_rec_diff(&a, &pc, &c, &pc, &b), 0);
	assert_null(find(&b, "check"));
	rd_rec_batch_free(&b);
	rd_snapshot_free(&a);
	rd_snapshot_free(&c);
}

static void test_duration(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(rd_rec_parse_duration("90", &v), 0);
	assert_true(v == 90);
	assert_int_equal(rd_rec_parse_duration("90s", &v), 0);
	assert_true(v == 90);
	assert_int_equal(rd_rec_parse_duration("30m", &v), 0);
	assert_true(v == 1800);
	assert_int_equal(rd_rec_parse_duration("2h", &v), 0);
	assert_true(v == 7200);
	assert_int_equal(rd_rec_parse_duration("1.5h", &v), 0);
	assert_true(v == 5400);
	assert_int_equal(rd_rec_parse_duration("7d", &v), 0);
	assert_true(v == 604800);
	assert_int_equal(rd_rec_parse_duration("", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("h", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("0", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("-2h", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("2hh", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("2 h", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("1,5h", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("2w", &v), -EINVAL);
	assert_int_equal(rd_rec_parse_duration("1.2.3", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_interval),
		cmocka_unit_test(test_port_down),
		cmocka_unit_test(test_light),
		cmocka_unit_test(test_health_kmsg_verdicts),
		cmocka_unit_test(test_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
