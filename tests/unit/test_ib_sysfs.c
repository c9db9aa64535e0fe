// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include "core/attr.h"
#include "probes/ib_sysfs.h"

struct env {
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
};

static void collect_root(struct env *e, const char *root,
			 struct rd_probe_cache *cache)
{
	rd_roots_init(&e->roots);
	assert_int_equal(rd_roots_under(&e->roots, root), 0);
	e->ctx.roots = &e->roots;
	e->ctx.cache = cache;
	e->ctx.flags = RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
	rd_snapshot_init(&e->s);
	assert_int_equal(rd_probe_run(&e->ctx, RD_PROBE_IB_SYSFS, &e->s), 0);
}

static uint64_t counter(const struct rd_counters *c, const char *name)
{
	const struct rd_counter *x = rd_counters_find(c, name);

	assert_non_null(x);
	assert_true(x->value.ok);
	return x->value.v;
}

static void test_parsers(void **state)
{
	char w[16], sp[32];
	double g;
	uint64_t v;

	(void)state;
	assert_int_equal(rd_parse_rate("100 Gb/sec (4X EDR)", &g, w, sizeof(w),
				       sp, sizeof(sp)), 0);
	assert_true(g == 100.0);
	assert_string_equal(w, "4X");
	assert_string_equal(sp, "EDR");
	assert_int_equal(rd_parse_rate("2.5 Gb/sec (1X SDR)", &g, w, sizeof(w),
				       sp, sizeof(sp)), 0);
	assert_true(g == 2.5);
	assert_int_equal(rd_parse_rate("10 Gb/sec (4X)", &g, w, sizeof(w), sp,
				       sizeof(sp)), 0);
	assert_string_equal(w, "4X");
	assert_string_equal(sp, "");
	assert_int_equal(rd_parse_rate("25 Gb/sec (1X 25.0 Gbps)", &g, w,
				       sizeof(w), sp, sizeof(sp)), 0);
	assert_string_equal(sp, "25.0 Gbps");
	assert_int_equal(rd_parse_rate("40 Gb/sec", &g, w, sizeof(w), sp,
				       sizeof(sp)), 0);
	assert_int_equal(rd_parse_rate("fast", &g, w, sizeof(w), sp, sizeof(sp)),
			 -EINVAL);
	assert_int_equal(rd_parse_rate("100 Mb/sec", &g, w, sizeof(w), sp,
				       sizeof(sp)), -EINVAL);
	assert_int_equal(rd_parse_rate("100 Gb/sec (4X", &g, w, sizeof(w), sp,
				       sizeof(sp)), -EINVAL);
	assert_int_equal(rd_parse_state_line("4: ACTIVE", &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(rd_parse_state_line("5: LinkUp", &v), 0);
	assert_int_equal(rd_parse_state_line("ACTIVE", &v), -EINVAL);
}

static void test_cx6dx(void **state)
{
	char root[PATH_MAX];
	struct env e;
	struct rd_device *d;
	struct rd_port *p;

	(void)state;
	collect_root(&e, unit_fixture("cx6dx-roce-port-down", root,
				      sizeof(root)), NULL);
	assert_int_equal(e.s.n_errors, 0);
	assert_int_equal(e.s.n_devices, 2);
	d = &e.s.devices[0];
	assert_string_equal(d->name, "mlx5_0");
	assert_string_equal(d->fw_ver, "22.31.1014");
	assert_string_equal(d->node_type, "CA");
	assert_true(d->node_guid.ok && d->node_guid.v == 0xb8cef60300a1b2c4ull);
	assert_string_equal(d->pci_bdf, "0000:3b:00.0");
	assert_string_equal(d->driver, "mlx5_core");
	assert_string_equal(d->uverbs, "uverbs0");
	assert_string_equal(d->hca_type, "MT4125");
	assert_int_equal(d->n_ports, 1);
	p = &d->ports[0];
	assert_int_equal(p->port, 1);
	assert_string_equal(p->state, "ACTIVE");
	assert_int_equal(p->state_num.v, 4);
	assert_string_equal(p->phys_state, "LINK_UP");
	assert_true(p->rate_gbps.ok && p->rate_gbps.v == 100.0);
	assert_string_equal(p->width, "2X");
	assert_string_equal(p->speed, "HDR");
	assert_string_equal(p->link_layer, "Ethernet");
	assert_string_equal(p->netdev, "eth2");
	assert_true(p->pkey0.ok && p->pkey0.v == 0xffff);
	/* 16 entries on disk, 4 non-empty. */
	assert_int_equal(p->n_gids, 4);
	assert_int_equal(p->gids[3].index, 3);
	assert_string_equal(p->gids[3].type, "RoCE v2");
	assert_int_equal(p->gids[3].raw[12], 192);
	assert_int_equal(counter(&p->counters, "port_xmit_data"), 7 * 104729);
	assert_true(p->xmit_bytes.ok && p->xmit_bytes.v == 4ull * 7 * 104729);
	assert_int_equal(counter(&p->hw_counters, "np_cnp_sent"), 7 * 17);
	/* lifespan is a setting, not a counter */
	assert_null(rd_counters_find(&p->hw_counters, "lifespan"));
	d = &e.s.devices[1];
	assert_string_equal(d->ports[0].state, "DOWN");
	assert_string_equal(d->ports[0].phys_state, "DISABLED");
	assert_int_equal(d->ports[0].phys_state_num.v, 3);
	rd_snapshot_free(&e.s);
}

static void test_cx5_ib_no_sm(void **state)
{
	char root[PATH_MAX];
	struct env e;
	struct rd_port *p;

	(void)state;
	collect_root(&e, unit_fixture("cx5-ib-init-no-sm", root, sizeof(root)),
		     NULL);
	assert_int_equal(e.s.n_errors, 0);
	assert_int_equal(e.s.n_devices, 1);
	p = &e.s.devices[0].ports[0];
	assert_string_equal(p->state, "INIT");
	assert_string_equal(p->phys_state, "LINK_UP");
	assert_string_equal(p->link_layer, "InfiniBand");
	assert_true(p->sm_lid.ok && p->sm_lid.v == 0);
	assert_true(p->lid.ok && p->lid.v == 0xffff);
	assert_null(p->netdev);
	assert_int_equal(p->n_gids, 1);
	assert_null(p->gids[0].type);
	rd_snapshot_free(&e.s);
}

static void test_no_devices(void **state)
{
	char dir[PATH_MAX];
	struct env e;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_put(dir, "sys/class/net/lo/mtu", "65536\n");
	collect_root(&e, dir, NULL);
	assert_int_equal(e.s.n_devices, 0);
	assert_int_equal(e.s.n_errors, 0);
	rd_snapshot_free(&e.s);
	unit_rmtree(dir);
}

static bool has_error(const struct rd_snapshot *s, const char *where_end)
{
	size_t n = strlen(where_end);

	for (size_t i = 0; i < s->n_errors; i++) {
		const char *w = s->errors[i].where;
		size_t wl = w ? strlen(w) : 0;

		if (wl >= n && strcmp(w + wl - n, where_end) == 0)
			return true;
	}
	return false;
}

/* Garbage of every kind: fields absent, errors listed, nothing else breaks. */
static void test_hostile(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 128];
	const char *p = "sys/class/infiniband/bad0/ports/1/";
	char rel[256];
	struct env e;
	struct rd_port *port;
	FILE *f;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_put(dir, "sys/class/infiniband/bad0/node_type", "banana\n");
	unit_put(dir, "sys/class/infiniband/bad0/node_guid", "0002:c903\n");
	unit_put(dir, "sys/class/infiniband/bad0/fw_ver", "");
#define P(file, content) \
	(snprintf(rel, sizeof(rel), "%s%s", p, file), unit_put(dir, rel, content))
	P("state", "-4: ACTIVE\n");
	P("phys_state", "99999999999999999999999: x\n");
	P("rate", "fast\n");
	P("lid", "0x1ffff\n");
	P("sm_lid", "\n");
	P("sm_sl", "3 4\n");
	P("lid_mask_count", "12\n");
	P("link_layer", "Ethernet\n");
	P("gids/0", "not-a-gid\n");
	P("gids/1", "fe80:0000:0000:0000:0000:0000:0000:0001\n");
	P("pkeys/0", "0x10000\n");
	P("counters/neg", "-1\n");
	P("counters/overflow", "18446744073709551616\n");
	P("counters/junk", "12abc\n");
	P("counters/good", "5\n");
	P("hw_counters/empty", "");
#undef P
	/* binary content */
	snprintf(path, sizeof(path), "%s/%scounters/binary", dir, p);
	f = fopen(path, "w");
	fwrite("\x01\x02\x00\xff", 1, 4, f);
	fclose(f);
	/* bigger than any attribute may be */
	snprintf(path, sizeof(path), "%s/%scap_mask", dir, p);
	f = fopen(path, "w");
	for (int i = 0; i < 1100; i++)
		fputs("0123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
		      "0123456789012345678901234567890123456789", f);
	fclose(f);
	/* a directory where a file should be, a FIFO, a symlink loop */
	snprintf(path, sizeof(path), "%s/%scounters/dir", dir, p);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%scounters/fifo", dir, p);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/%scounters/loop", dir, p);
	assert_int_equal(symlink("loop", path), 0);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/loop0", dir);
	assert_int_equal(symlink("loop0", path), 0);
	/* a port entry that is not a number */
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/bad0/ports/x", dir);
	mkdir(path, 0755);

	collect_root(&e, dir, NULL);
	assert_int_equal(e.s.n_devices, 1);
	assert_string_equal(e.s.devices[0].name, "bad0");
	assert_false(e.s.devices[0].node_type_num.ok);
	assert_false(e.s.devices[0].node_guid.ok);
	assert_int_equal(e.s.devices[0].n_ports, 1);
	port = &e.s.devices[0].ports[0];
	assert_false(port->state_num.ok);
	assert_null(port->state);
	assert_false(port->phys_state_num.ok);
	assert_false(port->rate_gbps.ok);
	assert_false(port->lid.ok);
	assert_false(port->sm_lid.ok);
	assert_false(port->sm_sl.ok);
	assert_false(port->lid_mask_count.ok);
	assert_false(port->cap_mask.ok);
	assert_false(port->pkey0.ok);
	assert_int_equal(port->n_gids, 1);
	assert_int_equal(port->gids[0].index, 1);
	assert_int_equal(counter(&port->counters, "good"), 5);
	const char *bad[] = { "neg", "overflow", "junk", "binary", "dir", "fifo",
			      "loop" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct rd_counter *c = rd_counters_find(&port->counters, bad[i]);

		assert_non_null(c);
		if (c->value.ok)
			fail_msg("counter %s read as %llu", bad[i],
				 (unsigned long long)c->value.v);
		snprintf(rel, sizeof(rel), "counters/%s", bad[i]);
		assert_true(has_error(&e.s, rel));
	}
	assert_false(rd_counters_find(&port->hw_counters, "empty")->value.ok);
	assert_true(has_error(&e.s, "ports/1/state"));
	assert_true(has_error(&e.s, "ports/1/cap_mask"));
	assert_true(has_error(&e.s, "gids/0"));
	assert_true(has_error(&e.s, "infiniband/loop0"));
	assert_true(has_error(&e.s, "bad0/ports"));
	rd_snapshot_free(&e.s);
	unit_rmtree(dir);
}

/* The console's path: a kept cache sees changes, removals and re-creation. */
static void test_cache_refresh(void **state)
{
	char dir[PATH_MAX], src[PATH_MAX], cmd[3 * PATH_MAX];
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct env e;
	const char *p0 = "sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/"
			 "infiniband/mlx5_0/ports/1/";
	char rel[256];

	(void)state;
	memset(&e, 0, sizeof(e));
	unit_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'",
		 unit_fixture("cx6dx-roce-port-down", src, sizeof(src)), dir);
	assert_int_equal(system(cmd), 0);

	collect_root(&e, dir, cache);
	assert_int_equal(e.s.n_devices, 2);
	rd_snapshot_free(&e.s);

	snprintf(rel, sizeof(rel), "%shw_counters/out_of_buffer", p0);
	unit_put(dir, rel, "42\n");
	snprintf(rel, sizeof(rel), "%sstate", p0);
	unit_put(dir, rel, "1: DOWN\n");
	e.ctx.tick = 1;
	rd_snapshot_init(&e.s);
	assert_int_equal(rd_probe_run(&e.ctx, RD_PROBE_IB_SYSFS, &e.s), 0);
	assert_int_equal(counter(&e.s.devices[0].ports[0].hw_counters,
				 "out_of_buffer"), 42);
	assert_string_equal(e.s.devices[0].ports[0].state, "DOWN");
	rd_snapshot_free(&e.s);

	/* The device goes away. */
	snprintf(cmd, sizeof(cmd), "%s/sys/class/infiniband/mlx5_1", dir);
	assert_int_equal(unlink(cmd), 0);
	e.ctx.tick = 2;
	rd_snapshot_init(&e.s);
	assert_int_equal(rd_probe_run(&e.ctx, RD_PROBE_IB_SYSFS, &e.s), 0);
	assert_int_equal(e.s.n_devices, 1);
	assert_int_equal(e.s.n_errors, 0);
	rd_snapshot_free(&e.s);

	/* The class directory disappears (module unloaded). */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/class/infiniband'", dir);
	assert_int_equal(system(cmd), 0);
	e.ctx.tick = 3;
	rd_snapshot_init(&e.s);
	assert_int_equal(rd_probe_run(&e.ctx, RD_PROBE_IB_SYSFS, &e.s), 0);
	assert_int_equal(e.s.n_devices, 0);
	rd_snapshot_free(&e.s);

	rd_probe_cache_free(cache);
	unit_rmtree(dir);
}

/*
 * A netdev renamed while its port stays DOWN: the kept cache must show the
 * new name at the next refresh, not after the next periodic GID table read.
 */
static void test_cache_netdev_rename(void **state)
{
	char dir[PATH_MAX], src[PATH_MAX], cmd[3 * PATH_MAX], rel[256];
	struct rd_probe_cache *cache = rd_probe_cache_new();
	const char *p0 = "sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/"
			 "infiniband/mlx5_0/ports/1/";
	const struct rd_port *p;
	struct env e = { 0 };

	(void)state;
	assert_non_null(cache);
	unit_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'",
		 unit_fixture("cx6dx-roce-port-down", src, sizeof(src)), dir);
	assert_int_equal(system(cmd), 0);

	collect_root(&e, dir, cache);
	assert_string_equal(e.s.devices[0].ports[0].netdev, "eth2");
	rd_snapshot_free(&e.s);

	for (int g = 0; g < 4; g++) {
		snprintf(rel, sizeof(rel), "%sgid_attrs/ndevs/%d", p0, g);
		unit_put(dir, rel, "renamed0\n");
	}
	e.ctx.tick = 1;
	rd_snapshot_init(&e.s);
	assert_int_equal(rd_probe_run(&e.ctx, RD_PROBE_IB_SYSFS, &e.s), 0);
	p = &e.s.devices[0].ports[0];
	assert_string_equal(p->netdev, "renamed0");
	assert_true(p->n_gids > 0);
	assert_string_equal(p->gids[0].netdev, "renamed0");
	rd_snapshot_free(&e.s);

	/* Unchanged: served from the cache, still right. */
	e.ctx.tick = 2;
	rd_snapshot_init(&e.s);
	assert_int_equal(rd_probe_run(&e.ctx, RD_PROBE_IB_SYSFS, &e.s), 0);
	assert_string_equal(e.s.devices[0].ports[0].netdev, "renamed0");
	rd_snapshot_free(&e.s);

	rd_probe_cache_free(cache);
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_cx6dx),
		cmocka_unit_test(test_cx5_ib_no_sm),
		cmocka_unit_test(test_no_devices),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_cache_refresh),
		cmocka_unit_test(test_cache_netdev_rename),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
