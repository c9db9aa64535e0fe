// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "probe_unit.h"

#include <sys/resource.h>

#include "core/attr.h"
#include "core/json.h"
#include "probes/host.h"
#include "probes/ib_sysfs.h"

static void probe_tree(const char *root, struct rd_snapshot *s)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;

	unit_probe_ctx(&roots, &ctx, root, NULL);
	rd_snapshot_init(s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_IB_SYSFS, s), 0);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_HOST, s), 0);
}

static const struct rd_devnode *devnode(const struct rd_snapshot *s,
					const char *name)
{
	for (size_t i = 0; i < s->host.n_devnodes; i++) {
		const char *p = s->host.devnodes[i].path;
		const char *b = strrchr(p, '/');

		if (b && strcmp(b + 1, name) == 0)
			return &s->host.devnodes[i];
	}
	return NULL;
}

static void test_cx6dx_host(void **state)
{
	const struct rd_host *h;
	const struct rd_devnode *d;
	struct rd_snapshot s;
	char dir[PATH_MAX];

	(void)state;
	probe_tree(unit_fixture("cx6dx-roce-port-down", dir, sizeof(dir)), &s);
	h = &s.host;
	assert_int_equal(s.n_errors, 0);
	assert_string_equal(h->hostname, "rdma-host01");
	assert_string_equal(h->kernel, "6.1.0-18-amd64");
	/* Facts about this process are not the fixture's: absent. */
	assert_false(h->is_root.ok);
	assert_false(h->memlock_unlimited.ok);
	assert_false(h->cap_ipc_lock.ok);
	assert_null(h->cpu_affinity);
	assert_null(h->mempolicy);
	assert_null(h->rdma_core_version);

	assert_true(h->mem_total_kb.ok);
	assert_int_equal(h->mem_total_kb.v, 394856236);
	assert_true(h->hugepages_total.ok);
	assert_int_equal(h->hugepages_total.v, 0);
	assert_true(h->hugepages_free.ok);
	assert_int_equal(h->hugepage_kb.v, 2048);
	assert_int_equal(h->numa_nodes.v, 2);
	assert_string_equal(h->container, "none");
	assert_true(h->tcp_ecn.ok);
	assert_int_equal(h->tcp_ecn.v, 2);
	assert_int_equal(h->rmem_default.v, 212992);
	assert_int_equal(h->rmem_max.v, 212992);
	assert_true(h->nr_hugepages.ok);
	assert_int_equal(h->nr_hugepages.v, 0);

	/* Only the memlock lines, with where they came from. */
	assert_int_equal(h->n_limits, 2);
	assert_string_equal(h->limits[0].domain, "@rdma");
	assert_string_equal(h->limits[0].type, "soft");
	assert_string_equal(h->limits[0].value, "unlimited");
	assert_int_equal(h->limits[0].line.v, 6);
	assert_non_null(strstr(h->limits[0].file, "security/limits.conf"));
	assert_string_equal(h->limits[1].type, "hard");

	/* uverbs1 exists in sysfs but not in /dev: listed as missing. */
	assert_int_equal(h->n_devnodes, 3);
	d = devnode(&s, "uverbs0");
	assert_non_null(d);
	assert_true(d->exists.ok && d->exists.v);
	{
		/* git keeps no permission bits but x: compare with the file. */
		struct stat st;
		char fx[PATH_MAX], node[PATH_MAX + 64];

		snprintf(node, sizeof(node), "%s/dev/infiniband/uverbs0",
			 unit_fixture("cx6dx-roce-port-down", fx, sizeof(fx)));
		assert_int_equal(stat(node, &st), 0);
		assert_int_equal(d->mode.v, st.st_mode & 07777);
	}
	assert_true(d->readable.ok);
	d = devnode(&s, "uverbs1");
	assert_non_null(d);
	assert_true(d->exists.ok && !d->exists.v);
	assert_false(d->mode.ok);
	d = devnode(&s, "rdma_cm");
	assert_non_null(d);
	assert_true(d->exists.v);
	rd_snapshot_free(&s);
}

static void test_live_process_facts(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;
	struct rlimit rl;
	const struct rd_host *h;

	(void)state;
	rd_roots_init(&roots);
	if (roots.redirected)
		skip();
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_HOST, &s), 0);
	h = &s.host;
	assert_non_null(h->kernel);
	assert_true(h->is_root.ok);
	assert_true(h->is_root.v == (geteuid() == 0));
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	assert_true(h->memlock_unlimited.ok);
	assert_true(h->memlock_unlimited.v == (rl.rlim_cur == RLIM_INFINITY));
	if (rl.rlim_cur != RLIM_INFINITY)
		assert_true(h->memlock_soft.ok &&
			    h->memlock_soft.v == rl.rlim_cur);
	else
		assert_false(h->memlock_soft.ok);
	assert_true(h->cap_ipc_lock.ok);
	assert_true(h->cap_net_admin.ok);
	assert_non_null(h->cpu_affinity);
	assert_true(strlen(h->cpu_affinity) > 0);
	assert_non_null(h->container);
	rd_snapshot_free(&s);
}

static void test_lowered_memlock(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rlimit old, rl;
	struct rd_snapshot s;

	(void)state;
	rd_roots_init(&roots);
	if (roots.redirected)
		skip();
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &old), 0);
	/* Lowering the soft limit needs no privilege. */
	rl = old;
	rl.rlim_cur = 65536;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
		skip();
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_HOST, &s), 0);
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &old), 0);
	assert_true(s.host.memlock_unlimited.ok && !s.host.memlock_unlimited.v);
	assert_int_equal(s.host.memlock_soft.v, 65536);
	rd_snapshot_free(&s);
}

static void test_hostile(void **state)
{
	const struct rd_host *h;
	struct rd_snapshot s;
	char dir[PATH_MAX];

	(void)state;
	probe_tree(unit_fixture("hostile", dir, sizeof(dir)), &s);
	h = &s.host;
	/* Garbage meminfo: nothing believed, each bad key reported. */
	assert_false(h->mem_total_kb.ok);
	assert_false(h->hugepages_total.ok);
	assert_false(h->hugepages_free.ok);
	assert_false(h->hugepage_kb.ok);
	assert_true(unit_has_error(&s, "meminfo: MemTotal", NULL));
	assert_true(unit_has_error(&s, "meminfo: HugePages_Total", NULL));
	assert_true(unit_has_error(&s, "meminfo: Hugepagesize", NULL));
	assert_false(h->tcp_ecn.ok);
	assert_true(unit_has_error(&s, "tcp_ecn", NULL));
	assert_false(h->rmem_max.ok);

	/* limits.conf: four malformed lines by file:line, one good line. */
	assert_true(unit_has_error(&s, "limits.conf:1", "got 3 fields"));
	assert_true(unit_has_error(&s, "limits.conf:2", "type"));
	assert_true(unit_has_error(&s, "limits.conf:3", "memlock value"));
	assert_true(unit_has_error(&s, "limits.conf:4", "got 5 fields"));
	assert_true(unit_has_error(&s, "bin.conf:1", "not text"));
	assert_int_equal(h->n_limits, 1);
	assert_string_equal(h->limits[0].value, "1048576");
	assert_int_equal(h->limits[0].line.v, 5);
	/* Files in limits.d not named *.conf are not read. */
	assert_false(unit_has_error(&s, "README", NULL));
	rd_snapshot_free(&s);
}

static void test_limits_file_edge_cases(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX], path[PATH_MAX];
	char *big;
	FILE *f;

	(void)state;
	unit_tmpdir(root, sizeof(root));
	/* CRLF, trailing comments, tabs, "-" type, a line too long. */
	big = malloc(9000);
	assert_non_null(big);
	memset(big, 'x', 8999);
	big[8998] = '\n';
	big[8999] = '\0';
	snprintf(path, sizeof(path), "%s/limits.conf", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("*\t-\tmemlock\tinfinity # all users\r\n", f);
	fputs(big, f);
	fputs("   # indented comment\n@x soft memlock 64\r\n", f);
	fputs("@ib hard memlock -1", f); /* no final newline */
	fclose(f);
	free(big);
	rd_snapshot_init(&s);
	assert_int_equal(rd_host_parse_limits(path, &s), 0);
	assert_int_equal(s.host.n_limits, 3);
	assert_string_equal(s.host.limits[0].type, "-");
	assert_string_equal(s.host.limits[0].value, "infinity");
	assert_string_equal(s.host.limits[1].value, "64");
	assert_string_equal(s.host.limits[2].value, "-1");
	assert_int_equal(s.host.limits[2].line.v, 5);
	assert_true(unit_has_error(&s, "limits.conf:2", "longer"));
	rd_snapshot_free(&s);

	/* A directory where the file should be; a missing file. */
	rd_snapshot_init(&s);
	assert_int_equal(rd_host_parse_limits(root, &s), -EINVAL);
	snprintf(path, sizeof(path), "%s/none.conf", root);
	assert_int_equal(rd_host_parse_limits(path, &s), -ENOENT);
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_meminfo_parse(void **state)
{
	struct rd_snapshot s;

	(void)state;
	rd_snapshot_init(&s);
	rd_host_parse_meminfo(
		"MemTotal:  100 kB\nHugePages_Total:   8\n"
		"HugePages_Free:    3\nHugepagesize:    1048576 kB\n"
		"MemTotalX: 5 kB\nHugePages_Total",
		"meminfo", &s);
	assert_int_equal(s.host.mem_total_kb.v, 100);
	assert_int_equal(s.host.hugepages_total.v, 8);
	assert_int_equal(s.host.hugepages_free.v, 3);
	assert_int_equal(s.host.hugepage_kb.v, 1048576);
	assert_int_equal(s.n_errors, 0);
	/* A size without its unit is not trusted. */
	rd_host_parse_meminfo("MemTotal: 100\n", "meminfo", &s);
	assert_int_equal(s.n_errors, 1);
	rd_host_parse_meminfo("", "meminfo", &s);
	rd_snapshot_free(&s);
}

/* Every error string is text, and the snapshot loads again. */
static void assert_errors_are_text(const struct rd_snapshot *s)
{
	struct rd_snapshot b;
	char err[256], *j;

	for (size_t i = 0; i < s->n_errors; i++) {
		const char *w = s->errors[i].where, *m = s->errors[i].message;

		assert_int_equal(rd_text_check(w, strlen(w)), 0);
		assert_int_equal(rd_text_check(m, strlen(m)), 0);
	}
	j = rd_snapshot_to_string(s, 0);
	assert_non_null(j);
	assert_int_equal(rd_snapshot_from_string(j, strlen(j), &b, err,
						 sizeof(err)),
			 0);
	rd_snapshot_free(&b);
	free(j);
}

/*
 * Errors quote what was read: raw bytes, or a UTF-8 character cut in half
 * by "%.32s", used to make the snapshot unloadable (found by
 * tests/fuzz/fuzz_hostfiles).
 */
static void test_error_text_loads(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX], path[PATH_MAX];
	FILE *f;

	(void)state;
	rd_snapshot_init(&s);
	rd_host_parse_meminfo("HugePages_Total: -8\x03\x1b[2J\n", "meminfo",
			      &s);
	assert_int_equal(s.n_errors, 1);
	assert_non_null(strstr(s.errors[0].message, "-8??[2J"));
	assert_errors_are_text(&s);
	rd_snapshot_free(&s);

	unit_tmpdir(root, sizeof(root));
	/* A file name with an escape byte, a value cut inside "\xc3\xa9". */
	snprintf(path, sizeof(path), "%s/a\x1b.conf", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("* soft memlock 1234567890123456789012345678901\xc3\xa9\n", f);
	fclose(f);
	rd_snapshot_init(&s);
	assert_int_equal(rd_host_parse_limits(path, &s), 0);
	assert_int_equal(s.n_errors, 1);
	assert_non_null(strstr(s.errors[0].where, "/a?.conf:1"));
	assert_non_null(strstr(s.errors[0].message, "8901?\""));
	assert_errors_are_text(&s);
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_cpulist(void **state)
{
	cpu_set_t set;
	char buf[64];

	(void)state;
	CPU_ZERO(&set);
	assert_int_equal(rd_cpulist_format(&set, sizeof(set), buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "");
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	CPU_SET(2, &set);
	CPU_SET(5, &set);
	CPU_SET(7, &set);
	CPU_SET(8, &set);
	CPU_SET(1023, &set);
	assert_int_equal(rd_cpulist_format(&set, sizeof(set), buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0-2,5,7-8,1023");
	assert_int_equal(rd_cpulist_format(&set, sizeof(set), buf, 6), -ENOSPC);
}

static void test_rdma_core_version(void **state)
{
	char v[64];

	(void)state;
	assert_int_equal(
		rd_rdma_core_version_from_path(
			"/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0", v,
			sizeof(v)),
		0);
	assert_string_equal(v, "44.0");
	assert_int_equal(
		rd_rdma_core_version_from_path(
			"libibverbs.so.1.13.2307mlnx47.51066", v, sizeof(v)),
		0);
	assert_string_equal(v, "2307mlnx47.51066");
	assert_int_equal(
		rd_rdma_core_version_from_path("libibverbs.so.1", v, sizeof(v)),
		-EINVAL);
	assert_int_equal(rd_rdma_core_version_from_path("libmlx5.so.1.24.44.0",
							v, sizeof(v)),
			 -EINVAL);
	assert_int_equal(rd_rdma_core_version_from_path("libibverbs.so.1.14.",
							v, sizeof(v)),
			 -EINVAL);
	assert_int_equal(rd_rdma_core_version_from_path(
				 "libibverbs.so.1.14.4 4", v, sizeof(v)),
			 -EINVAL);
}

static void test_container_hints(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	assert_string_equal(rd_container_from_cgroup(
				    "0::/kubepods.slice/kubepods-pod1.slice/x"),
			    "kubernetes");
	assert_string_equal(
		rd_container_from_cgroup("0::/system.slice/docker-abc.scope"),
		"docker");
	assert_null(rd_container_from_cgroup("0::/init.scope\n"));
	assert_true(rd_mountinfo_overlay_root(
		"1 0 0:1 / /proc rw - proc proc rw\n"
		"2 0 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/a\n"));
	assert_false(rd_mountinfo_overlay_root(
		"23 1 259:2 / / rw shared:1 - ext4 /dev/sda1 rw\n"
		"24 23 0:5 / /mnt rw - overlay overlay rw\n"));
	assert_false(rd_mountinfo_overlay_root("garbage\n - \n"));
	/* Mounts stacked on "/": the last one is what the process sees. */
	assert_false(rd_mountinfo_overlay_root(
		"2 0 0:52 / / rw - overlay overlay rw\n"
		"3 2 8:1 / / rw - ext4 /dev/sda1 rw\n"));
	assert_true(rd_mountinfo_overlay_root(
		"3 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"2 3 0:52 / / rw - overlay overlay rw\n"));

	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/class/.keep", "");
	unit_put(root, "proc/self/root/.dockerenv", "");
	probe_tree(root, &s);
	assert_string_equal(s.host.container, "docker");
	rd_snapshot_free(&s);
	unlink(strcat(root, "/proc/self/root/.dockerenv"));
	*strstr(root, "/proc/self") = '\0';
	unit_put(root, "proc/1/cgroup", "0::/lxc.payload.c1/init.scope\n");
	probe_tree(root, &s);
	assert_string_equal(s.host.container, "lxc");
	/* Nothing in /dev, nothing in sysfs: no device nodes listed. */
	assert_int_equal(s.host.n_devnodes, 0);
	assert_false(s.host.numa_nodes.ok);
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

/*
 * A tree with no /proc says nothing of a container, and one with no /dev
 * nothing of the device nodes: neither is "none" nor "missing".
 */
static void test_tree_without_proc_dev(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/class/infiniband/mlx5_0/.keep", "");
	probe_tree(root, &s);
	assert_null(s.host.container);
	assert_true(unit_has_error(&s, "container detection", NULL));
	assert_true(unit_has_error(&s, "/dev", "device nodes not checked"));
	assert_int_equal(s.host.n_devnodes, 0);
	rd_snapshot_free(&s);
	/* With /proc read and no hint, it is "none"; /dev there: nodes. */
	unit_put(root, "proc/1/cgroup", "0::/init.scope\n");
	unit_put(root, "dev/.keep", "");
	probe_tree(root, &s);
	assert_string_equal(s.host.container, "none");
	assert_false(unit_has_error(&s, "/dev", "device nodes not checked"));
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx6dx_host),
		cmocka_unit_test(test_live_process_facts),
		cmocka_unit_test(test_lowered_memlock),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_limits_file_edge_cases),
		cmocka_unit_test(test_meminfo_parse),
		cmocka_unit_test(test_error_text_loads),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_rdma_core_version),
		cmocka_unit_test(test_container_hints),
		cmocka_unit_test(test_tree_without_proc_dev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
