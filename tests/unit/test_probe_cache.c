// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's kept cache: static data (modules, PCI functions, device
 * attributes) is served from memory between re-reads, and RD_PROBE_FRESH
 * (a fix-up, the refresh key) reads the truth again at once.
 */
#include "config.h"
#include "unit.h"

#include "probes/probe.h"

struct env {
	char dir[PATH_MAX];
	struct rd_roots roots;
	struct rd_probe_cache *cache;
};

static void env_setup(struct env *e)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX];

	unit_tmpdir(e->dir, sizeof(e->dir));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'",
		 unit_fixture("cx6dx-roce-port-down", src, sizeof(src)), e->dir);
	assert_int_equal(system(cmd), 0);
	rd_roots_init(&e->roots);
	assert_int_equal(rd_roots_under(&e->roots, e->dir), 0);
	e->cache = rd_probe_cache_new();
	assert_non_null(e->cache);
}

static void env_teardown(struct env *e)
{
	rd_probe_cache_free(e->cache);
	unit_rmtree(e->dir);
}

static void probe(struct env *e, uint64_t tick, unsigned extra,
		  struct rd_snapshot *s)
{
	struct rd_probe_ctx ctx = {
		.roots = &e->roots,
		.cache = e->cache,
		.flags = RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS | extra,
		.tick = tick,
	};

	rd_snapshot_init(s);
	assert_int_equal(rd_probe_all(&ctx, s), 0);
}

static bool module_loaded(const struct rd_snapshot *s, const char *name)
{
	const struct rd_module *m = rd_snapshot_module(s, name);

	return m && m->loaded.ok && m->loaded.v;
}

static void test_static_data_served_then_fresh(void **state)
{
	struct env e;
	struct rd_snapshot s;
	char cmd[2 * PATH_MAX];

	(void)state;
	env_setup(&e);
	probe(&e, 0, 0, &s);
	assert_true(module_loaded(&s, "mlx5_ib"));
	assert_non_null(rd_snapshot_pci(&s, "0000:3b:00.0"));
	rd_snapshot_free(&s);

	/* The module is unloaded and the function's link retrains. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/module/mlx5_ib'", e.dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/sys/bus/pci/devices/0000:3b:00.1'",
		 e.dir);
	assert_int_equal(system(cmd), 0);

	/* Within the re-read interval the kept reading is served. */
	probe(&e, 1, 0, &s);
	assert_true(module_loaded(&s, "mlx5_ib"));
	assert_non_null(rd_snapshot_pci(&s, "0000:3b:00.1"));
	rd_snapshot_free(&s);

	/* Asked for the truth: read again at once. */
	probe(&e, 2, RD_PROBE_FRESH, &s);
	assert_false(module_loaded(&s, "mlx5_ib"));
	assert_null(rd_snapshot_pci(&s, "0000:3b:00.1"));
	rd_snapshot_free(&s);

	/* And the fresh reading is what is kept from then on. */
	probe(&e, 3, 0, &s);
	assert_false(module_loaded(&s, "mlx5_ib"));
	rd_snapshot_free(&s);

	/* Past the interval, a plain refresh re-reads too. */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/module/mlx5_ib' && "
		 "echo live > '%s/sys/module/mlx5_ib/initstate'", e.dir, e.dir);
	assert_int_equal(system(cmd), 0);
	probe(&e, 2 + RD_PROBE_STATIC_EVERY, 0, &s);
	assert_true(module_loaded(&s, "mlx5_ib"));
	rd_snapshot_free(&s);
	env_teardown(&e);
}

/* Served data is a deep copy: equal to what a one-shot probe reads. */
static void test_served_equals_read(void **state)
{
	struct env e;
	struct rd_snapshot a, b, c;
	struct rd_probe_ctx one = { .flags = RD_PROBE_NO_NETLINK |
					     RD_PROBE_NO_VERBS };

	(void)state;
	env_setup(&e);
	one.roots = &e.roots;
	probe(&e, 0, 0, &a);
	probe(&e, 1, 0, &b);
	rd_snapshot_init(&c);
	assert_int_equal(rd_probe_all(&one, &c), 0);
	assert_int_equal(b.n_modules, c.n_modules);
	assert_int_equal(b.n_pci, c.n_pci);
	for (size_t i = 0; i < b.n_pci; i++) {
		assert_string_equal(b.pci[i].bdf, c.pci[i].bdf);
		assert_true(b.pci[i].link_width.v == c.pci[i].link_width.v);
		/* Not the same memory: freeing one must not touch the other. */
		assert_ptr_not_equal(b.pci[i].bdf, a.pci[i].bdf);
	}
	for (size_t i = 0; i < b.n_modules; i++)
		assert_string_equal(b.modules[i].name, c.modules[i].name);
	assert_true(b.host.mlnx_ofed.ok == c.host.mlnx_ofed.ok);
	rd_snapshot_free(&a);
	rd_snapshot_free(&b);
	rd_snapshot_free(&c);
	env_teardown(&e);
}

/*
 * The table is indexed by enum rd_probe_id. A kept cache holds the state
 * of every row that ran and keeps the same block across refreshes; a row
 * whose needs are missing (netlink, verbs on a fixture) is not run and
 * gets none.
 */
static void test_state_per_table_row(void **state)
{
	struct env e;
	struct rd_snapshot s;
	void *first[RD_PROBE_COUNT];

	(void)state;
	env_setup(&e);
	for (size_t i = 0; i < RD_PROBE_COUNT; i++) {
		assert_non_null(rd_probes[i]);
		assert_non_null(rd_probes[i]->name);
		assert_non_null(rd_probes[i]->collect);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(rd_probes[i]->name,
						rd_probes[k]->name);
	}
	probe(&e, 0, 0, &s);
	assert_true(s.n_devices > 0 && s.n_netdevs > 0);
	for (size_t i = 0; i < RD_PROBE_COUNT; i++) {
		const struct rd_probe *p = rd_probes[i];
		bool runs = !(p->needs & (RD_NEEDS_NETLINK | RD_NEEDS_VERBS));

		first[i] = e.cache->state[i];
		assert_true((first[i] != NULL) == (runs && p->state_size));
	}
	rd_snapshot_free(&s);
	probe(&e, 1, 0, &s);
	for (size_t i = 0; i < RD_PROBE_COUNT; i++)
		assert_ptr_equal(e.cache->state[i], first[i]);
	rd_snapshot_free(&s);
	env_teardown(&e);
}

/* A row runs only with what it needs: netlink, verbs, devices, netdevs. */
static void test_needs(void **state)
{
	struct rd_roots roots;
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_probe_ctx ctx = { .roots = &roots,
				    .cache = cache,
				    .flags = RD_PROBE_NO_NETLINK |
					     RD_PROBE_NO_VERBS };
	struct rd_snapshot s;

	(void)state;
	assert_non_null(cache);
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probes[RD_PROBE_RDMA_NL]->needs, RD_NEEDS_NETLINK);
	assert_int_equal(rd_probes[RD_PROBE_DCB]->needs,
			 RD_NEEDS_NETLINK | RD_NEEDS_NETDEVS);
	assert_int_equal(rd_probes[RD_PROBE_ETHTOOL]->needs,
			 RD_NEEDS_NETLINK | RD_NEEDS_NETDEVS);
	assert_int_equal(rd_probes[RD_PROBE_VERBS]->needs,
			 RD_NEEDS_VERBS | RD_NEEDS_DEVICES);
	/* Devices and netdevs present: only the flags hold these rows back. */
	assert_non_null(RD_PUSH_NAMED(s.devices, s.n_devices, name, "mlx5_0"));
	assert_non_null(RD_PUSH_NAMED(s.netdevs, s.n_netdevs, name, "eth0"));
	for (size_t i = 0; i < RD_PROBE_COUNT; i++) {
		if (!rd_probes[i]->needs)
			continue;
		assert_int_equal(rd_probe_run(&ctx, (enum rd_probe_id)i, &s),
				 0);
		assert_null(cache->state[i]); /* not run: no state made */
	}
	assert_int_equal(s.n_errors, 0);
	assert_false(s.devices[0].verbs.opened.ok);
	assert_null(s.netdevs[0].ethtool.stats.v);
	rd_snapshot_free(&s);
	rd_probe_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_data_served_then_fresh),
		cmocka_unit_test(test_served_equals_read),
		cmocka_unit_test(test_state_per_table_row),
		cmocka_unit_test(test_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
