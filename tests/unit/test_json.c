// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <math.h>

#include "core/escape.h"
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

/*
 * Whether a netdev's addresses were read is kept; a document without it
 * (files only, an older recording) reads back as not known.
 */
static void test_netdev_addrs_read(void **state)
{
	const char *old = "{\"schema_version\":1,\"netdevs\":[{\"name\":\"eth2\","
			  "\"addresses\":[]}]}";
	struct rd_snapshot a, b;
	struct rd_netdev *n;
	char err[256] = "";
	char *ja;

	(void)state;
	probe_fixture("cx6dx-roce-port-down", &a);
	assert_true(a.n_netdevs > 0);
	for (size_t i = 0; i < a.n_netdevs; i++)
		assert_false(a.netdevs[i].addrs_read.ok);
	rd_snapshot_free(&a);

	rd_snapshot_init(&a);
	n = RD_PUSH(a.netdevs, a.n_netdevs);
	assert_non_null(n);
	n->name = strdup("eth2");
	n->addrs_read = rd_bool(true);
	ja = rd_snapshot_to_string(&a, 0);
	assert_non_null(strstr(ja, "\"addresses_read\":true"));
	assert_int_equal(rd_snapshot_from_string(ja, strlen(ja), &b, err,
						 sizeof(err)), 0);
	assert_true(b.netdevs[0].addrs_read.ok && b.netdevs[0].addrs_read.v);
	free(ja);
	rd_snapshot_free(&a);
	rd_snapshot_free(&b);

	assert_int_equal(rd_snapshot_from_string(old, strlen(old), &b, err,
						 sizeof(err)), 0);
	assert_int_equal(b.n_netdevs, 1);
	assert_false(b.netdevs[0].addrs_read.ok);
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
	/* A FIFO, a directory and a large file are refused before parsing. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* Nobody writes: opening it for reading would block forever. */
	assert_int_equal(rd_snapshot_load_file(path, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(rd_snapshot_load_file(dir, &s, err, sizeof(err)), -EISDIR);
	snprintf(path, sizeof(path), "%s/big.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), RD_SNAPSHOT_MAX + 1), 0);
	fclose(f);
	assert_int_equal(rd_snapshot_load_file(path, &s, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "larger than 32 MiB"));
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

static void expect_refused(const char *doc, int want, const char *msg)
{
	struct rd_snapshot s;
	char err[512] = "";
	int r = rd_snapshot_from_string(doc, strlen(doc), &s, err, sizeof(err));

	if (r != want || !strstr(err, msg))
		fail_msg("%.200s: got %d \"%s\", want %d \"%s\"", doc, r, err, want,
			 msg);
	rd_snapshot_free(&s);
}

/* What json-c alone would take silently is an error naming the path. */
static void test_refused_values(void **state)
{
	(void)state;
	expect_refused("{\"schema_version\":1,\"source\":\"a\",\"source\":\"b\"}",
		       -EINVAL, "(top): duplicate key \"source\"");
	/* The same key spelled with an escape is the same key. */
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"a\","
		       "\"n\\u0061me\":\"b\"}]}",
		       -EINVAL, "devices[0]: duplicate key \"name\"");
	/* The one-letter escapes decode too: "\/" and "\"" in a key. */
	expect_refused("{\"schema_version\":1,\"host\":{\"a/b\\\"\":1,"
		       "\"a\\/b\\\"\":2}}",
		       -EINVAL, "host: duplicate key");
	/* Not a JSON document at all: told apart from a refused value. */
	expect_refused("{\"schema_version\":1,\"host\":{\"a\\q\":1}}", -EBADMSG,
		       "malformed JSON");
	/* A parent's key seen again after a child object with keys of its own. */
	expect_refused("{\"schema_version\":1,\"host\":{\"x\":{\"a\":1,\"b\":2},"
		       "\"y\":[{\"a\":1},{\"a\":2}],\"x\":3}}",
		       -EINVAL, "host: duplicate key \"x\"");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"rx\\u0000e0\"}]}",
		       -EINVAL, "devices[0].name: a string holds a NUL character");
	/* json-c reads a lone surrogate as U+FFFD: two keys would be one. */
	expect_refused("{\"schema_version\":1,\"host\":{\"a\\ud800\":1,"
		       "\"a\\udbff\":2}}",
		       -EINVAL, "host.: a string holds a lone UTF-16 surrogate");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"x\\udc00y\"}]}",
		       -EINVAL, "devices[0].name: a string holds a lone UTF-16 surrogate");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"x\\ud800\\u0041\"}]}",
		       -EINVAL, "a lone UTF-16 surrogate");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"x\","
		       "\"ports\":[{\"port\":99999999999}]}]}",
		       -EINVAL, "devices[0].ports[0].port: 99999999999 is out of range 0..255");
	expect_refused("{\"schema_version\":1,\"time\":1e400}", -EINVAL,
		       "time: number is not finite");
	expect_refused("{\"schema_version\":1,\"time\":-1e400}", -EINVAL,
		       "time: number is not finite");
	expect_refused("{\"schema_version\":1,\"monotonic_ns\":18446744073709551616}",
		       -EINVAL, "monotonic_ns: number out of range");
	expect_refused("{\"schema_version\":1,\"x\":-9223372036854775809}",
		       -EINVAL, "x: number out of range");
	/* Control bytes in a counter name or any string value. */
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"x\",\"ports\":"
		       "[{\"port\":1,\"hw_counters\":{\"a\\u001b[2J\":1}}]}]}",
		       -EINVAL, "devices[0].ports[0].hw_counters.a\\x1b[2J: counter name");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"name\":\"x\",\"ports\":"
		       "[{\"port\":1,\"hw_counters\":{\"a\\u009b\":1}}]}]}",
		       -EINVAL, "counter name is empty or holds control characters");
	expect_refused("{\"schema_version\":1,\"devices\":[{\"fw_ver\":\"1.0\\n  PASS\"}]}",
		       -EINVAL, "devices[0].fw_ver: string holds control characters");
}

/*
 * A snapshot that went through jq 1.6 holds 2^64 - 1 (max_mr_size on
 * mlx5) as the double it became, 18446744073709552000: read as 2^64 - 1,
 * in either spelling; any other value above 2^64 - 1 is still refused.
 */
static void test_u64_max_through_jq(void **state)
{
	static const char *const docs[] = {
		"{\"schema_version\":1,\"devices\":[{\"name\":\"mlx5_0\","
		"\"verbs\":{\"max_mr_size\":18446744073709552000}}]}",
		"{\"schema_version\":1,\"devices\":[{\"name\":\"mlx5_0\","
		"\"verbs\":{\"max_mr_size\":1.8446744073709552e+19}}]}",
		"{\"schema_version\":1,\"devices\":[{\"name\":\"mlx5_0\","
		"\"verbs\":{\"max_mr_size\":18446744073709551615}}]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct rd_snapshot s;
		char err[512] = "";

		if (rd_snapshot_from_string(docs[i], strlen(docs[i]), &s, err,
					    sizeof(err)) != 0)
			fail_msg("%s: %s", docs[i], err);
		assert_int_equal(s.n_devices, 1);
		assert_true(s.devices[0].verbs.max_mr_size.ok);
		assert_true(s.devices[0].verbs.max_mr_size.v == UINT64_MAX);
		rd_snapshot_free(&s);
	}
	expect_refused("{\"schema_version\":1,\"monotonic_ns\":18446744073709552001}",
		       -EINVAL, "monotonic_ns: number out of range");
	expect_refused("{\"schema_version\":1,\"monotonic_ns\":18446744073709553000}",
		       -EINVAL, "monotonic_ns: number out of range");
	expect_refused("{\"schema_version\":1,\"monotonic_ns\":-18446744073709552000}",
		       -EINVAL, "monotonic_ns: number out of range");
	/* A double that is not 2^64 is no unsigned integer. */
	expect_refused("{\"schema_version\":1,\"monotonic_ns\":1.8446744073709556e+19}",
		       -EINVAL, "monotonic_ns: expected an unsigned integer");
}

/* Build "{"schema_version":1,PREFIX N x ITEM SUFFIX}". */
static char *repeat_doc(const char *prefix, const char *item, size_t n,
			const char *suffix)
{
	size_t il = strlen(item), len = 64 + strlen(prefix) + n * (il + 1) +
					strlen(suffix);
	char *d = malloc(len), *p;

	assert_non_null(d);
	p = d + sprintf(d, "{\"schema_version\":1,%s", prefix);
	for (size_t i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		memcpy(p, item, il);
		p += il;
	}
	strcpy(p, suffix);
	strcat(p, "}");
	return d;
}

static void test_limits(void **state)
{
	char *d;
	char key[64];
	struct rd_snapshot s;
	char err[512];

	static const struct {
		const char *prefix, *item;
		size_t n;
		const char *suffix, *msg;
	} big[] = {
		{ "\"devices\":[", "{}", 1025, "]", "devices: more than 1024 entries" },
		{ "\"devices\":[", "{}", 20001, "]",
		  "devices[20000]: more than 20000 elements" },
		{ "\"devices\":[{\"name\":\"x\",\"ports\":[", "{\"port\":1}", 257,
		  "]}]", "devices[0].ports: more than 256 entries" },
		{ "\"x\":[", "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]", 1, "]",
		  "nested deeper than 16 levels" },
		{ "\"x\":[", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1]", 18000, "]",
		  "more than 250000 values" },
		{ "\"x\":[", "[[],[],[],[]]", 12000, "]",
		  "more than 50000 objects and arrays" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		d = repeat_doc(big[i].prefix, big[i].item, big[i].n,
			       big[i].suffix);
		expect_refused(d, -E2BIG, big[i].msg);
		free(d);
	}
	d = malloc(5000);
	assert_non_null(d);
	memset(d, 'a', 4097);
	d[4097] = '\0';
	{
		char *doc = malloc(5100);

		assert_non_null(doc);
		sprintf(doc, "{\"schema_version\":1,\"source\":\"%s\"}", d);
		expect_refused(doc, -E2BIG, "source: a string longer than 4096 bytes");
		free(doc);
	}
	free(d);
	/* Counters per group: 16384 load, 16385 do not. */
	{
		size_t cap = 16385 * 24 + 256, n;
		char *doc = malloc(cap);

		assert_non_null(doc);
		n = (size_t)sprintf(doc, "{\"schema_version\":1,\"devices\":[{\"name\":"
					 "\"x\",\"ports\":[{\"port\":1,\"counters\":{");
		for (int i = 0; i < 16384; i++) {
			snprintf(key, sizeof(key), "%s\"c%d\":%d", i ? "," : "", i, i);
			n += (size_t)sprintf(doc + n, "%s", key);
		}
		strcpy(doc + n, "}}]}]}");
		assert_int_equal(rd_snapshot_from_string(doc, strlen(doc), &s, err,
							 sizeof(err)), 0);
		assert_int_equal(s.devices[0].ports[0].counters.n, 16384);
		rd_snapshot_free(&s);
		sprintf(doc + n, ",\"more\":1}}]}]}");
		expect_refused(doc, -E2BIG, "devices[0].ports[0].counters: more than 16384 counters");
		free(doc);
	}
}

/* What is written is valid JSON even when what was read was not text. */
static void test_output_is_valid_json(void **state)
{
	struct rd_snapshot s;
	struct json_object *j, *v;
	char *text;
	struct rd_device *d;
	struct rd_port *p;

	(void)state;
	rd_snapshot_init(&s);
	s.time = rd_dbl(INFINITY);
	d = RD_PUSH(s.devices, s.n_devices);
	assert_non_null(d);
	d->name = strdup("x\xff");
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	assert_non_null(rd_counters_add(&p->hw_counters, "bad\xff\x1b", rd_u64(1)));
	text = rd_snapshot_to_string(&s, 0);
	assert_non_null(text);
	assert_null(strstr(text, "Infinity"));
	assert_true(rd_text_clean(text, strlen(text)));
	assert_non_null(strstr(text, "\"bad\\\\xff\\\\x1b\":1"));
	j = json_tokener_parse(text);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "time", &v));
	assert_null(v);
	json_object_put(j);
	free(text);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_absent_and_extremes),
		cmocka_unit_test(test_netdev_addrs_read),
		cmocka_unit_test(test_bad_documents),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_refused_values),
		cmocka_unit_test(test_u64_max_through_jq),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_output_is_valid_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
