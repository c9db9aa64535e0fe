// SPDX-License-Identifier: GPL-2.0-or-later
/* The console's model: updates adopted whole, selection kept by name. */
#include "config.h"

#include "diag_snap.h"

#include "console/state.h"

/* An update with a snapshot of the given ports ("mlx5_0" port 1, ...). */
static struct con_update *update_with(const char *const *devs, size_t n,
				      uint64_t t_ns)
{
	struct con_update *u = con_update_new(CON_UP_SNAPSHOT);
	struct rd_diag_opts o;
	struct rd_history h;

	assert_non_null(u);
	for (size_t i = 0; i < n; i++) {
		struct rd_device *d = snap_dev(&u->snap, devs[i], NULL);

		snap_port(d, 1, 4, 5, "Ethernet", NULL);
	}
	u->snap.monotonic_ns = rd_u64(t_ns);
	u->have_snap = true;
	rd_diag_opts_init(&o);
	rd_history_init(&h);
	assert_int_equal(rd_history_add(&h, &u->snap), 0);
	assert_int_equal(rd_diag_run(&u->snap, &h, &o, &u->results), 0);
	rd_history_free(&h);
	u->have_results = true;
	return u;
}

/* What the loop does with each update. */
static void adopt(struct con_state *st, struct con_update *u)
{
	con_state_adopt(st, u);
	con_update_free(u);
}

static void test_adopt_takes_ownership(void **unused)
{
	static const char *const two[] = { "mlx5_0", "mlx5_1" };
	struct con_state st;
	struct con_update *u = update_with(two, 2, 1000000000);

	con_state_init(&st, CON_LIVE, 1.0);
	assert_false(st.have_snap);
	assert_null(con_sel_port(&st));
	con_state_adopt(&st, u);
	/* The update gave what it brought away and took the state's old,
	 * empty, reading: freeing it frees nothing shown. */
	assert_int_equal(u->snap.n_devices, 0);
	assert_int_equal(u->results.n, 0);
	con_update_free(u);
	assert_true(st.have_snap);
	assert_true(st.have_results);
	assert_int_equal(st.n_ports, 2);
	assert_string_equal(con_sel_device(&st)->name, "mlx5_0");

	/* A second update takes the first reading away with it. */
	u = update_with(two + 1, 1, 2000000000);
	con_state_adopt(&st, u);
	assert_int_equal(u->snap.n_devices, 2);
	assert_string_equal(u->snap.devices[0].name, "mlx5_0");
	assert_true(u->results.n > 0);
	con_update_free(u);
	assert_int_equal(st.snap.n_devices, 1);
	assert_int_equal(st.n_ports, 1);
	assert_string_equal(con_sel_device(&st)->name, "mlx5_1");
	con_state_free(&st);
}

static void test_selection_follows_the_port(void **unused)
{
	static const char *const two[] = { "mlx5_0", "mlx5_1" };
	static const char *const three[] = { "mlx5_9", "mlx5_0", "mlx5_1" };
	static const char *const none[] = { NULL };
	struct con_state st;

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, update_with(two, 2, 1000000000));
	con_select(&st, 1);
	assert_string_equal(st.sel_dev, "mlx5_1");
	/* A device appears in front: the same port stays selected. */
	adopt(&st, update_with(three, 3, 2000000000));
	assert_int_equal(st.sel, 2);
	assert_string_equal(con_sel_device(&st)->name, "mlx5_1");
	/* Past the end: clamped to the last row. */
	con_select(&st, 99);
	assert_int_equal(st.sel, 2);
	/* Every device gone: no selection, no crash. */
	adopt(&st, update_with(none, 0, 3000000000));
	assert_int_equal(st.n_ports, 0);
	assert_null(con_sel_device(&st));
	assert_null(con_sel_port(&st));
	con_state_free(&st);
}

static void test_error_keeps_the_last_snapshot(void **unused)
{
	static const char *const one[] = { "rxe0" };
	struct con_state st;
	struct con_update *u = update_with(one, 1, 1000000000);

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, u);
	u = con_update_new(CON_UP_ERROR);
	snprintf(u->text, sizeof(u->text), "cannot take a snapshot: gone");
	adopt(&st, u);
	assert_true(st.have_snap);
	assert_string_equal(con_sel_device(&st)->name, "rxe0");
	assert_string_equal(st.source_err, "cannot take a snapshot: gone");
	con_state_free(&st);
}

static void test_new_source_forgets_history(void **unused)
{
	static const char *const one[] = { "rxe0" };
	struct con_state st;
	struct con_update *u;

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, update_with(one, 1, 1000000000));
	st.paused = true;
	u = update_with(one, 1, 5000000000);
	u->source = CON_DEMO;
	u->source_changed = true;
	adopt(&st, u);
	assert_int_equal(st.source, CON_DEMO);
	assert_false(st.paused);
	assert_true(st.hist.last_t >= 4.9);
	con_state_free(&st);
}

static void test_result_keys(void **unused)
{
	static const char *const one[] = { "rxe0" };
	struct con_update *u = update_with(one, 1, 1000000000);
	struct con_result_key k, other;

	assert_true(u->results.n > 0);
	con_result_key_of(&u->results.v[0], &k);
	assert_ptr_equal(con_find_result(&u->results, &k), &u->results.v[0]);
	other = k;
	snprintf(other.check, sizeof(other.check), "no.such.check");
	assert_false(con_result_key_eq(&k, &other));
	assert_null(con_find_result(&u->results, &other));
	con_update_free(u);
}

static void test_counters_loaded_with_the_state(void **unused)
{
	struct con_state st;

	con_state_init(&st, CON_LIVE, 0);
	/* The table is read once here, not by the first draw. */
	assert_non_null(st.counters);
	assert_true(st.counters->n > 0);
	assert_true(st.interval > 0);
	con_state_free(&st);
}

/* Three devices: mlx5_0 port 1 ACTIVE, mlx5_1 port 1 DOWN (admin down),
 * and nop0 whose ports could not be read. */
static struct con_update *update_down(void)
{
	struct con_update *u = con_update_new(CON_UP_SNAPSHOT);
	struct rd_device *d;

	assert_non_null(u);
	d = snap_dev(&u->snap, "mlx5_0", NULL);
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	snap_netdev(&u->snap, "eth2", true, true, 9000);
	d = snap_dev(&u->snap, "mlx5_1", NULL);
	snap_port(d, 1, 1, 3, "Ethernet", "eth3");
	snap_netdev(&u->snap, "eth3", false, false, 9000);
	snap_dev(&u->snap, "nop0", NULL);
	u->snap.monotonic_ns = rd_u64(1000000000);
	u->have_snap = true;
	assert_int_equal(rd_diag_run(&u->snap, NULL, NULL, &u->results), 0);
	rd_results_sort(&u->results);
	u->have_results = true;
	return u;
}

static void test_worst_port_selected_at_start(void **unused)
{
	struct con_state st;
	const struct rd_result *top;
	struct con_update *u;

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, update_down());
	/* The port that is down, not the first row. */
	top = con_top_finding(&st);
	assert_non_null(top);
	assert_string_equal(top->check_id, "port.state");
	assert_string_equal(top->device, "mlx5_1");
	assert_string_equal(st.sel_dev, "mlx5_1");
	assert_int_equal(st.sel_port, 1);
	/* Only at start: the person's own choice stays afterwards. */
	con_select(&st, 0);
	adopt(&st, update_down());
	assert_string_equal(st.sel_dev, "mlx5_0");
	/* A new source picks again. */
	u = update_down();
	u->source_changed = true;
	adopt(&st, u);
	assert_string_equal(st.sel_dev, "mlx5_1");
	con_state_free(&st);
}

/*
 * Inside a container that was given no RDMA device, the console's first
 * finding is the container, as check --nhc's line is, with no fix-up.
 */
static void test_container_first_finding(void **unused)
{
	struct con_state st;
	const struct rd_result *top;
	struct con_update *u = con_update_new(CON_UP_SNAPSHOT);

	(void)unused;
	assert_non_null(u);
	snap_pci(&u->snap, "0000:3b:00.0", 0x15b3, 0x1017, "mlx5_core");
	snap_module(&u->snap, "mlx5_core");
	u->snap.host.container = rd_strdup("docker");
	u->have_snap = true;
	assert_int_equal(rd_diag_run(&u->snap, NULL, NULL, &u->results), 0);
	rd_results_sort(&u->results);
	u->have_results = true;
	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, u);
	top = con_top_finding(&st);
	assert_non_null(top);
	assert_string_equal(top->check_id, "host.container");
	assert_null(top->fix);
	assert_ptr_equal(top, rd_results_top(&st.results));
	con_state_free(&st);
}

static void test_device_without_ports_keeps_its_row(void **unused)
{
	struct con_state st;

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, update_down());
	assert_int_equal(st.n_ports, 3);
	con_select(&st, 2);
	assert_string_equal(con_sel_device(&st)->name, "nop0");
	assert_null(con_sel_port(&st));
	assert_int_equal(st.sel_port, 0);
	/* Kept across a refresh by its name. */
	adopt(&st, update_down());
	assert_int_equal(st.sel, 2);
	con_state_free(&st);
}

static void test_next_finding(void **unused)
{
	struct con_state st;
	enum rd_verdict v;

	con_state_init(&st, CON_LIVE, 1.0);
	adopt(&st, update_down());
	con_select(&st, 0);
	/* Forward and back, round the end, over rows that are not PASS. */
	assert_true(con_select_next_finding(&st, 1));
	assert_true(st.sel != 0);
	assert_true(con_port_worst(&st, st.sel_dev, st.sel_port, &v));
	assert_int_not_equal(v, RD_PASS);
	{
		size_t fwd = st.sel;

		assert_true(con_select_next_finding(&st, -1));
		assert_true(con_select_next_finding(&st, 1));
		assert_int_equal(st.sel, fwd);
	}
	con_state_free(&st);
	/* Nothing to go to: false, selection unchanged. */
	con_state_init(&st, CON_LIVE, 1.0);
	assert_false(con_select_next_finding(&st, 1));
	con_state_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adopt_takes_ownership),
		cmocka_unit_test(test_selection_follows_the_port),
		cmocka_unit_test(test_error_keeps_the_last_snapshot),
		cmocka_unit_test(test_new_source_forgets_history),
		cmocka_unit_test(test_result_keys),
		cmocka_unit_test(test_counters_loaded_with_the_state),
		cmocka_unit_test(test_worst_port_selected_at_start),
		cmocka_unit_test(test_container_first_finding),
		cmocka_unit_test(test_device_without_ports_keeps_its_row),
		cmocka_unit_test(test_next_finding),
	};

	setenv("RDMADIAG_DATADIR", RD_SRCDATADIR, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
