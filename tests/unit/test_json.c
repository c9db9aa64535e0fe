// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include "core/json.h"
#include "probes/probe.h"

static void probe_fixture(const char *name, struct rd_snapshot *s)
{
	struct rd_roots roots;
	char dir[PATH_MAX];
	struct rd_probe_ctx ctx = { .roots = &roots,
				    .flags = RD_PROBE_NO_NETLINK |
					     RD_PROBE_NO_VERBS };

	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, unit_fixture(name, dir,
							      sizeof(dir))), 0);
	rd_snapshot_init(s);
	assert_int_equal(rd_probe_all(&ctx, s), 0);
}

static void test_round_trip(void **state)
{
	const char *fixtures[] = { "cx6dx-roce-port-down", "cx5-ib-init-no-sm" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct rd_snapshot a, b;
		char err[256] = "";
		char *ja, *jb;

		probe_fixture(fixtures[i], &a);
		assert_true(a.n_devices > 0);
		ja = rd_snapshot_to_string(&a, 1);
		assert_non_null(ja);
		assert_int_equal(rd_snapshot_from_string(ja, strlen(ja), &b, err,
							 sizeof(err)), 0);
		jb = rd_snapshot_to_string(&b, 1);
		assert_string_equal(ja, jb);
		assert_int_equal(b.n_devices, a.n_devices);
		assert_string_equal(b.devices[0].name, a.devices[0].name);
		free(ja);
		free(jb);
		rd_snapshot_free(&a);
		rd_snapshot_free(&b);
	}
}

static void test_round_trip_absent_and_extremes(void **state)
{
	struct rd_snapshot a, b;
	struct rd_device *d;
	struct rd_port *p;
	char err[256];
	char *ja, *jb;

	(void)state;
	rd_snapshot_init(&a);
	d = RD_PUSH(a.devices, a.n_devices);
	d->name = strdup("dev\"quote\\");
	d->node_guid = rd_u64(UINT64_MAX);
	p = RD_PUSH(d->ports, d->n_ports);
	p->port = 1;
	p->rate_gbps = rd_dbl(2.5);
	p->lid = rd_u64(0);	/* present zero is not absent */
	rd_counters_add(&p->counters, "big", rd_u64(UINT64_MAX));
	rd_counters_add(&p->counters, "unreadable", (struct rd_ou64){ 0 });
	a.host.numa_nodes = rd_u64(2);
	a.host.tcp_ecn = rd_s64(-1);
	rd_snapshot_error(&a, "test", "/x", -EACCES, NULL);

	ja = rd_snapshot_to_string(&a, 0);
	assert_non_null(strstr(ja, "\"lid\":0"));
	assert_non_null(strstr(ja, "\"sm_lid\":null"));
	assert_non_null(strstr(ja, "\"big\":18446744073709551615"));
	assert_non_null(strstr(ja, "\"unreadable\":null"));
	assert_int_equal(rd_snapshot_from_string(ja, strlen(ja), &b, err,
						 sizeof(err)), 0);
	assert_true(b.devices[0].ports[0].lid.ok);
	assert_false(b.devices[0].ports[0].sm_lid.ok);
	assert_false(b.devices[0].ports[0].counters.v[1].value.ok);
	assert_int_equal(b.errors[0].err.v, EACCES);
	jb = rd_snapshot_to_string(&b, 0);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	rd_snapshot_free(&a);
	rd_snapshot_free(&b);
}

static void expect_load_error(const char *text, size_t len, const char *want)
{
	struct rd_snapshot s;
	char err[256] = "";

	assert_true(rd_snapshot_from_string(text, len, &s, err, sizeof(err)) < 0);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not mention \"%s\"", err, want);
	assert_int_equal(s.n_devices, 0);
	rd_snapshot_free(&s);
}

static void test_bad_documents(void **state)
{
	(void)state;
	expect_load_error("", 0, "truncated");
	expect_load_error("{\"schema_version\":1,\"devices\":[", 31, "truncated");
	expect_load_error("{]", 2, "malformed");
	expect_load_error("[1,2]", 5, "not a snapshot");
	expect_load_error("{\"devices\":[]}", 14, "schema_version");
	expect_load_error("{\"schema_version\":99}", 21, "not supported");
	expect_load_error("{\"schema_version\":1} x", 22, "trailing");
	const char *t1 = "{\"schema_version\":1,\"devices\":[{\"name\":5}]}";
	expect_load_error(t1, strlen(t1), "devices[0].name");
	const char *t2 = "{\"schema_version\":1,\"devices\":[{\"name\":\"a\","
			 "\"ports\":[{\"port\":1,\"lid\":-3}]}]}";
	expect_load_error(t2, strlen(t2), "devices[0].ports[0].lid");
	const char *t3 = "{\"schema_version\":1,\"devices\":[{\"node_guid\":\"zz\"}]}";
	expect_load_error(t3, strlen(t3), "node_guid");
	const char *t4 = "{\"schema_version\":1,\"devices\":[{\"ports\":[{\"port\":1,"
			 "\"counters\":{\"a\":\"x\"}}]}]}";
	expect_load_error(t4, strlen(t4), "counter");
	const char *t5 = "{\"schema_version\":1,\"devices\":{}}";
	expect_load_error(t5, strlen(t5), "expected an array");
	const char *t6 = "{\"schema_version\":1,\"devices\":[{\"name\":\"a\\u0007\"}]}";
	expect_load_error(t6, strlen(t6), "control");
}

static void test_load_file(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512];
	struct rd_snapshot s;
	FILE *f;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/none.json", dir);
	assert_int_equal(rd_snapshot_load_file(path, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "none.json"));
	unit_put(dir, "empty.json", "");
	snprintf(path, sizeof(path), "%s/empty.json", dir);
	assert_true(rd_snapshot_load_file(path, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "empty"));
	snprintf(path, sizeof(path), "%s/bin.json", dir);
	f = fopen(path, "w");
	fwrite("{\"a\0\"}", 1, 6, f);
	fclose(f);
	assert_true(rd_snapshot_load_file(path, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "binary"));
	unit_put(dir, "ok.json", "{\"schema_version\":1,\"devices\":[{\"name\":\"x\"}]}\n");
	snprintf(path, sizeof(path), "%s/ok.json", dir);
	assert_int_equal(rd_snapshot_load_file(path, &s, err, sizeof(err)), 0);
	assert_string_equal(s.devices[0].name, "x");
	rd_snapshot_free(&s);
	unit_rmtree(dir);
}

/* Every prefix of a valid document must fail cleanly, never crash. */
static void test_every_truncation(void **state)
{
	struct rd_snapshot a, b;
	char err[256];
	char *j;
	size_t len;

	(void)state;
	probe_fixture("cx5-ib-init-no-sm", &a);
	j = rd_snapshot_to_string(&a, 0);
	len = strlen(j);
	for (size_t i = 0; i < len; i += 7) {
		assert_true(rd_snapshot_from_string(j, i, &b, err, sizeof(err)) < 0);
		rd_snapshot_free(&b);
	}
	free(j);
	rd_snapshot_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_absent_and_extremes),
		cmocka_unit_test(test_bad_documents),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_every_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
