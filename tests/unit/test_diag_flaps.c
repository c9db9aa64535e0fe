// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * port.flaps: link downs in the counters' window, in the last hour of the
 * kernel log (mlx5's "Link down" lines, classified by data/kmsg.tsv), and
 * the counts since boot as evidence.
 */
#include "config.h"

#include "diag_snap.h"

#include "core/history.h"

#define NOW 1764640000.0	/* the snapshot's wall clock */

static void host(struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	s->time = rd_dbl(NOW);
	s->monotonic_ns = rd_u64(100000ull * 1000000000ull);
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	p = snap_port(d, 1, 4, 5, "Ethernet", "ens1f0np0");
	assert_non_null(rd_counters_add(&p->counters, "link_downed", rd_u64(2)));
	n = snap_netdev(s, "ens1f0np0", true, true, 9000);
	n->rdma_device = rd_strdup("mlx5_0");
	n->rdma_port = rd_u64(1);
	n->carrier_down_count = rd_u64(2);
	n->ethtool.link_down_events = rd_u64(9);
}

/* A "Link down" line ago seconds before the snapshot, tied to mlx5_0. */
static void logged(struct rd_snapshot *s, double ago)
{
	struct rd_kmsg_rec *k = RD_PUSH(s->kmsg.records, s->kmsg.n_records);

	assert_non_null(k);
	k->seq = s->kmsg.n_records;
	k->message = rd_strdup("mlx5_core 0000:3b:00.0 ens1f0np0: Link down");
	k->rdma_device = rd_strdup("mlx5_0");
	k->port = rd_u64(1);
	k->wall_time = rd_dbl(NOW - ago);
	s->kmsg.readable = rd_bool(true);
	s->kmsg.wall_clock = rd_bool(true);
}

static const struct rd_result *flaps(const struct rd_snapshot *s,
				     const struct rd_history *h,
				     struct rd_results *res)
{
	rd_results_free(res);
	run_only(s, h, "port.flaps", res);
	return find_result(res, "port.flaps", "mlx5_0", 1);
}

static bool evidence_has(const struct rd_result *r, const char *text)
{
	for (size_t i = 0; i < r->n_evidence; i++)
		if (r->evidence[i].value && strstr(r->evidence[i].value, text))
			return true;
	return false;
}

static void test_kernel_log(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	host(&s);
	/* Nothing to look back with: not known, whatever the counts. */
	r = flaps(&s, NULL, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	/* The firmware saw downs the host did not. */
	assert_true(evidence_has(r, "while the driver was not watching"));

	logged(&s, 7200);	/* two hours ago: not recent */
	logged(&s, 1800);
	logged(&s, 600);
	r = flaps(&s, NULL, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "went down 2 times in the last hour"));
	logged(&s, 60);
	r = flaps(&s, NULL, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "flapping");
	assert_non_null(strstr(r->summary, "3 times in the last hour"));
	/* Times on the wall clock, UTC: 1764640000 - 60 is 01:45:40. */
	assert_non_null(strstr(r->summary, "01:45:40"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_window(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_history h;
	const struct rd_result *r;

	(void)state;
	host(&s);
	rd_history_init(&h);
	assert_int_equal(rd_history_add(&h, &s), 0);
	s.monotonic_ns.v += 2000000000ull;
	assert_int_equal(rd_history_add(&h, &s), 0);
	r = flaps(&s, &h, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "kernel log was not read"));
	s.devices[0].ports[0].counters.v[0].value = rd_u64(3);
	s.monotonic_ns.v += 2000000000ull;
	assert_int_equal(rd_history_add(&h, &s), 0);
	r = flaps(&s, &h, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_non_null(strstr(r->summary, "went down 1 time in the last"));
	rd_history_free(&h);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* link_downed is 8 bits wide: 255 means at least 255. */
static void test_saturated(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	host(&s);
	s.devices[0].ports[0].counters.v[0].value = rd_u64(255);
	r = flaps(&s, NULL, &res);
	assert_true(evidence_has(r, "counter is full"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A full link_downed cannot rise; the PHY's own count still can. */
static void test_phy_count_beside_full(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_history h;
	struct rd_counter *c;
	const struct rd_result *r;

	(void)state;
	host(&s);
	s.devices[0].ports[0].counters.v[0].value = rd_u64(255);
	c = rd_counters_add(&s.netdevs[0].ethtool.stats, "link_down_events_phy",
			    rd_u64(100));
	assert_non_null(c);
	rd_history_init(&h);
	assert_int_equal(rd_history_add(&h, &s), 0);
	s.netdevs[0].ethtool.stats.v[0].value = rd_u64(104);
	s.monotonic_ns.v += 2000000000ull;
	assert_int_equal(rd_history_add(&h, &s), 0);
	r = flaps(&s, &h, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "flapping");
	assert_non_null(strstr(r->summary, "went down 4 times in the last"));
	rd_history_free(&h);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static const struct rd_result *flaps_past(const struct rd_snapshot *s,
					  const struct rd_events *past,
					  struct rd_results *res)
{
	struct rd_diag_opts o;

	rd_results_free(res);
	rd_diag_opts_init(&o);
	o.only_area = "port.flaps";
	o.past = past;
	assert_int_equal(rd_diag_run(s, NULL, &o, res), 0);
	return find_result(res, "port.flaps", "mlx5_0", 1);
}

static void down_up(struct rd_events *ev, double ago, double back)
{
	assert_int_equal(rd_events_add(ev, NOW - ago, "mlx5_0", 1, "ens1f0np0",
				       "link", "DOWN (was ACTIVE)",
				       "flight recorder"),
			 0);
	/* the carrier goes with it: the same down, not a second one */
	assert_int_equal(rd_events_add(ev, NOW - ago, "mlx5_0", 1, "ens1f0np0",
				       "carrier", "off (was on)",
				       "flight recorder"),
			 0);
	assert_int_equal(rd_events_add(ev, NOW - ago + back, "mlx5_0", 1,
				       "ens1f0np0", "link", "ACTIVE (was DOWN)",
				       "flight recorder"),
			 0);
}

/* The flight recorder's store: when each down was and when it came back. */
static void test_recorded(void **state)
{
	struct rd_events ev = { 0 };
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	host(&s);
	ev.from = rd_strdup("/var/lib/rdmadiag/record");
	ev.since = NOW - 2 * 3600;
	/* read, nothing recorded: a PASS that says since when */
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "no down recorded since 23:46:40 UTC"));
	/* where the recording starts is not a down */
	assert_int_equal(rd_events_add(&ev, NOW - 5000, "mlx5_0", 1, NULL,
				       "link", "DOWN DISABLED (recording started)",
				       "flight recorder"),
			 0);
	down_up(&ev, 3000, 20);
	rd_events_sort(&ev);
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "went down once, at 00:56:40 UTC"));
	assert_true(evidence_has(r, "00:56:40 UTC, up again at 00:57:00 UTC"));
	/* two more within the hour: flapping */
	down_up(&ev, 1200, 5);
	down_up(&ev, 600, 7);
	assert_int_equal(rd_events_add(&ev, NOW - 601, "mlx5_0", 1, NULL,
				       "kernel",
				       "mlx5_core 0000:3b:00.0: Port module "
				       "event: module 0, Cable unplugged",
				       "flight recorder"),
			 0);
	rd_events_sort(&ev);
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "flapping");
	assert_non_null(strstr(r->summary, "went down 3 times between 00:56:40 "
					   "and 01:36:40 UTC (3 within one hour)"));
	assert_true(evidence_has(r, "Cable unplugged"));
	/* a window that starts after them holds none */
	ev.since = NOW - 300;
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_PASS);
	/* another port's downs are not this one's */
	rd_results_free(&res);
	assert_int_equal(rd_events_downs(&ev, "mlx5_0", 2, NULL, 0, NULL, 0), 0);
	assert_int_equal(rd_events_downs(&ev, "mlx5_0", 1, NULL, 0, NULL, 0), 3);
	rd_events_free(&ev);
	rd_snapshot_free(&s);
}

/*
 * The module's light recorded around the downs: each change is evidence,
 * and when a lane's light dropped with every down, the summary says so.
 */
static void test_recorded_light(void **state)
{
	struct rd_events ev = { 0 };
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	static const long ago[] = { 3000, 1200, 600 };

	(void)state;
	host(&s);
	ev.from = rd_strdup("/var/lib/rdmadiag/record");
	ev.since = NOW - 2 * 3600;
	for (size_t i = 0; i < 3; i++) {
		down_up(&ev, ago[i], 20);
		assert_int_equal(
			rd_events_add(&ev, NOW - ago[i] - (i == 1 ? 10 : 0),
				      "mlx5_0", 1, "ens1f0np0", "light",
				      "lane 2 Rx dark, -40.00 dBm (was ok, "
				      "-2.31 dBm)",
				      "flight recorder"),
			0);
		assert_int_equal(rd_events_add(&ev, NOW - ago[i] + 20, "mlx5_0",
					       1, "ens1f0np0", "light",
					       "lane 2 Rx ok, -2.40 dBm (was "
					       "dark, -40.00 dBm)",
					       "flight recorder"),
				 0);
	}
	rd_events_sort(&ev);
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_non_null(strstr(
		r->summary, "went down 3 times between 00:56:40 and 01:36:40 "
			    "UTC, each with the received light dropping on "
			    "lane 2 (3 within one hour)"));
	assert_true(evidence_has(r, "00:56:40 UTC lane 2 Rx dark, -40.00 dBm"));
	rd_events_free(&ev);

	/* light that dropped before one down only: not said of every down */
	memset(&ev, 0, sizeof(ev));
	ev.from = rd_strdup("/var/lib/rdmadiag/record");
	ev.since = NOW - 2 * 3600;
	for (size_t i = 0; i < 3; i++)
		down_up(&ev, ago[i], 20);
	assert_int_equal(rd_events_add(&ev, NOW - 600, "mlx5_0", 1, "ens1f0np0",
				       "light",
				       "lane 3 Rx low, -12.00 dBm (was ok, "
				       "-2.31 dBm)",
				       "flight recorder"),
			 0);
	/* another port's light is not this one's */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(rd_events_add(&ev, NOW - ago[i], "mlx5_0", 2,
					       "ens1f1np1", "light",
					       "lane 1 Rx dark, no light (was "
					       "ok, -2.00 dBm)",
					       "flight recorder"),
				 0);
	rd_events_sort(&ev);
	r = flaps_past(&s, &ev, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_null(strstr(r->summary, "light"));
	assert_true(evidence_has(r, "lane 3 Rx low"));
	assert_false(evidence_has(r, "lane 1 Rx dark"));
	rd_results_free(&res);
	rd_events_free(&ev);
	rd_snapshot_free(&s);
}

/* A store that could not be read is said, never taken for quiet. */
static void test_store_unread(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	const struct rd_result *r;

	(void)state;
	host(&s);
	rd_diag_opts_init(&o);
	o.only_area = "port.flaps";
	o.past_error = "store /x: is not owned by the effective user; refused";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	r = find_result(&res, "port.flaps", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_true(evidence_has(r, "not read: store /x"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_log),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_phy_count_beside_full),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_recorded_light),
		cmocka_unit_test(test_store_unread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
