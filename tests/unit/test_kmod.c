// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "probe_unit.h"

#include "probes/kmod.h"

static void probe_tree(const char *root, struct rd_snapshot *s)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;

	unit_probe_ctx(&roots, &ctx, root, NULL);
	rd_snapshot_init(s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_KMOD, s), 0);
}

static void test_cx6dx_modules(void **state)
{
	struct rd_snapshot s;
	struct rd_module *m;
	char dir[PATH_MAX];
	size_t n = 0;

	(void)state;
	probe_tree(unit_fixture("cx6dx-roce-port-down", dir, sizeof(dir)), &s);
	while (rd_rdma_modules[n])
		n++;
	/* Every module of the set has an entry, loaded or not. */
	assert_int_equal(s.n_modules, n);
	assert_int_equal(s.n_errors, 0);

	m = rd_snapshot_module(&s, "mlx5_core");
	assert_non_null(m);
	assert_true(m->loaded.ok && m->loaded.v);
	assert_true(m->builtin.ok && !m->builtin.v);
	assert_string_equal(m->initstate, "live");
	assert_string_equal(m->srcversion, "60E3DD54B8BC4DB79C2A6E7");
	assert_true(m->refcnt.ok);
	assert_int_equal(m->refcnt.v, 1);
	assert_null(m->version);
	/* A fixture says nothing about the running kernel's modules. */
	assert_false(m->available.ok);

	m = rd_snapshot_module(&s, "ib_core");
	assert_int_equal(m->refcnt.v, 6);

	m = rd_snapshot_module(&s, "ib_umad");
	assert_true(m->loaded.v);
	assert_true(m->builtin.ok && m->builtin.v);
	assert_null(m->initstate);
	assert_false(m->refcnt.ok);

	m = rd_snapshot_module(&s, "rdma_rxe");
	assert_true(m->loaded.ok && !m->loaded.v);
	assert_false(m->builtin.ok);

	/* Inbox driver: mlx_compat absent. */
	assert_true(s.host.mlnx_ofed.ok);
	assert_false(s.host.mlnx_ofed.v);
	rd_snapshot_free(&s);
}

static void test_ofed_detected(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/module/mlx_compat/initstate", "live\n");
	unit_put(root, "sys/module/mlx_compat/version", "23.10-1.1.9\n");
	unit_put(root, "sys/module/mlx_compat/refcnt", "12\n");
	probe_tree(root, &s);
	assert_true(s.host.mlnx_ofed.ok && s.host.mlnx_ofed.v);
	assert_string_equal(rd_snapshot_module(&s, "mlx_compat")->version,
			    "23.10-1.1.9");
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

/* Each string a module states is kept only when it is of its kind. */
static void test_strings_checked(void **state)
{
	struct rd_snapshot s;
	struct rd_module *m;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/module/ib_core/initstate", "dead\n");
	unit_put(root, "sys/module/ib_core/version", "\n");
	unit_put(root, "sys/module/ib_core/srcversion", "60E3 DD54\n");
	unit_put(root, "sys/module/ib_core/refcnt", "-1\n");
	probe_tree(root, &s);
	m = rd_snapshot_module(&s, "ib_core");
	assert_true(m->loaded.v);
	assert_null(m->initstate);
	assert_null(m->version);
	assert_null(m->srcversion);
	assert_false(m->refcnt.ok);
	assert_true(unit_has_error(&s, "ib_core/initstate",
				   "unexpected value \"dead\""));
	assert_true(unit_has_error(&s, "ib_core/version", NULL));
	assert_true(unit_has_error(&s, "ib_core/srcversion", "60E3 DD54"));
	assert_true(unit_has_error(&s, "ib_core/refcnt", NULL));
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_hostile(void **state)
{
	struct rd_snapshot s;
	struct rd_module *m;
	char dir[PATH_MAX];

	(void)state;
	probe_tree(unit_fixture("hostile", dir, sizeof(dir)), &s);
	m = rd_snapshot_module(&s, "ib_core");
	assert_true(m->loaded.v);
	assert_false(m->refcnt.ok);
	assert_true(unit_has_error(&s, "ib_core/refcnt", NULL));
	m = rd_snapshot_module(&s, "mlx5_core");
	assert_null(m->initstate);
	assert_true(unit_has_error(&s, "mlx5_core/initstate", NULL));
	/* Control bytes in initstate: refused by the reader. */
	m = rd_snapshot_module(&s, "mlx5_ib");
	assert_null(m->initstate);
	assert_true(unit_has_error(&s, "mlx5_ib/initstate", NULL));
	rd_snapshot_free(&s);
}

static void test_no_module_dir(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/class/.keep", "");
	probe_tree(root, &s);
	/* Unreadable /sys/module: nothing claimed, one error line. */
	assert_true(unit_has_error(&s, "/sys/module", NULL));
	for (size_t i = 0; i < s.n_modules; i++)
		assert_false(s.modules[i].loaded.ok);
	assert_false(s.host.mlnx_ofed.ok);
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_available_from_index(void **state)
{
	struct rd_snapshot s;
	char dir[PATH_MAX];

	(void)state;
	rd_snapshot_init(&s);
	unit_fixture("kmod-moddir/6.1.0-fixture", dir, sizeof(dir));
	assert_int_equal(probe_kmod_available(dir, &s), 0);
	assert_int_equal(s.n_errors, 0);
	assert_true(rd_snapshot_module(&s, "rdma_rxe")->available.ok);
	assert_true(rd_snapshot_module(&s, "rdma_rxe")->available.v);
	assert_true(rd_snapshot_module(&s, "mlx5_ib")->available.v);
	assert_true(rd_snapshot_module(&s, "ib_umad")->available.v);
	assert_true(rd_snapshot_module(&s, "irdma")->available.ok);
	assert_false(rd_snapshot_module(&s, "irdma")->available.v);
	assert_false(rd_snapshot_module(&s, "siw")->available.v);
	rd_snapshot_free(&s);
}

static void test_available_without_index(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	rd_snapshot_init(&s);
	assert_int_equal(probe_kmod_available(root, &s), 0);
	/* No index: unknown, not "cannot be loaded". */
	for (size_t i = 0; i < s.n_modules; i++)
		assert_false(s.modules[i].available.ok);
	assert_true(unit_has_error(&s, root, NULL));
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx6dx_modules),
		cmocka_unit_test(test_ofed_detected),
		cmocka_unit_test(test_strings_checked),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_no_module_dir),
		cmocka_unit_test(test_available_from_index),
		cmocka_unit_test(test_available_without_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
