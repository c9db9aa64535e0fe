// SPDX-License-Identifier: GPL-2.0-or-later
/* Recordings (JSON Lines of snapshots): round trip, hostile files, and the
 * shipped demo recording's content. */
#include "config.h"

#include "unit.h"

#include "core/json.h"
#include "core/recording.h"

static char dir[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_rmtree(dir);
	return 0;
}

static void make_snapshot(struct rd_snapshot *s, unsigned i)
{
	struct rd_device *d;
	struct rd_port *p;
	char host[32];

	rd_snapshot_init(s);
	s->monotonic_ns = rd_u64(1000000000ull * (i + 1));
	snprintf(host, sizeof(host), "host%u", i);
	s->host.hostname = rd_strdup(host);
	d = RD_PUSH(s->devices, s->n_devices);
	assert_non_null(d);
	d->name = rd_strdup("mlx5_0");
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	p->state = rd_strdup("ACTIVE");
	rd_counters_add(&p->counters, "port_xmit_data", rd_u64(100u * i));
}

static const char *path_of(const char *name)
{
	static char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void write_frames(const char *name, unsigned n, const char *between)
{
	FILE *f = fopen(path_of(name), "w");

	assert_non_null(f);
	for (unsigned i = 0; i < n; i++) {
		struct rd_snapshot s;

		make_snapshot(&s, i);
		assert_int_equal(rd_recording_append(f, &s), 0);
		rd_snapshot_free(&s);
		if (between)
			fputs(between, f);
	}
	fclose(f);
}

static void test_round_trip(void **state)
{
	struct rd_recording rec;
	struct rd_snapshot s;
	char err[256];

	(void)state;
	write_frames("three.jsonl", 3, "\n  \n"); /* blank lines skipped */
	assert_int_equal(rd_recording_open(path_of("three.jsonl"), &rec, err,
					   sizeof(err)),
			 0);
	assert_int_equal(rec.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		char host[32];

		assert_int_equal(
			rd_recording_frame(&rec, i, &s, err, sizeof(err)), 0);
		snprintf(host, sizeof(host), "host%u", i);
		assert_string_equal(s.host.hostname, host);
		assert_true(s.monotonic_ns.ok);
		assert_int_equal(s.monotonic_ns.v, 1000000000ull * (i + 1));
		assert_int_equal(s.n_devices, 1);
		assert_int_equal(s.devices[0].ports[0].counters.v[0].value.v,
				 100u * i);
		rd_snapshot_free(&s);
	}
	/* Random access backwards works too. */
	assert_int_equal(rd_recording_frame(&rec, 0, &s, err, sizeof(err)), 0);
	assert_string_equal(s.host.hostname, "host0");
	rd_snapshot_free(&s);
	assert_int_equal(rd_recording_frame(&rec, 3, &s, err, sizeof(err)),
			 -ERANGE);
	rd_snapshot_free(&s);
	rd_recording_close(&rec);
}

static void put(const char *name, const char *content, size_t len)
{
	FILE *f = fopen(path_of(name), "w");

	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
}

static void expect_open_fails(const char *name, int err_expected,
			      const char *msg_part)
{
	struct rd_recording rec;
	char err[256] = "";
	int r = rd_recording_open(path_of(name), &rec, err, sizeof(err));

	assert_int_equal(r, err_expected);
	if (msg_part && !strstr(err, msg_part))
		fail_msg("error \"%s\" does not mention \"%s\"", err, msg_part);
	assert_null(rec.f);
}

static void test_hostile_files(void **state)
{
	(void)state;
	put("empty", "", 0);
	expect_open_fails("empty", -EINVAL, "no snapshots");
	put("blank", "\n\n   \n", 6);
	expect_open_fails("blank", -EINVAL, "no snapshots");
	put("garbage", "this is not json\n", 17);
	expect_open_fails("garbage", -EBADMSG, "frame 1");
	put("array", "[1,2,3]\n", 8);
	expect_open_fails("array", -EINVAL, "frame 1");
	put("nul", "{\"schema_version\":1}\n\0\n", 23);
	expect_open_fails("nul", -EINVAL, "binary");
	expect_open_fails("missing", -ENOENT, "missing");
	mkdir(path_of("adir"), 0755);
	expect_open_fails("adir", -EINVAL, "regular");
	/* Nobody writes to it: opening a FIFO for reading would block. */
	assert_int_equal(mkfifo(path_of("fifo"), 0600), 0);
	expect_open_fails("fifo", -EINVAL, "regular");
	/* A frame holding more counters than a port may have. */
	{
		FILE *f = fopen(path_of("counters"), "w");

		assert_non_null(f);
		fputs("{\"schema_version\":1,\"devices\":[{\"name\":\"x\","
		      "\"ports\":[{\"port\":1,\"hw_counters\":{", f);
		for (int i = 0; i < 50000; i++)
			fprintf(f, "%s\"c%d\":%d", i ? "," : "", i, i);
		fputs("}}]}]}\n", f);
		fclose(f);
		expect_open_fails("counters", -E2BIG,
				  "frame 1: devices[0].ports[0].hw_counters.c19999: "
				  "more than 20000 members");
	}
}

static void test_bad_frame_in_the_middle(void **state)
{
	struct rd_recording rec;
	struct rd_snapshot s;
	char err[256], *text;
	size_t len;
	FILE *f;

	(void)state;
	write_frames("mid.jsonl", 2, NULL);
	f = fopen(path_of("mid.jsonl"), "a");
	assert_non_null(f);
	fputs("{\"schema_version\": 1, \"devices\": [ {\"name\": \n", f);
	fclose(f);
	/* Then a truncated copy of frame 1: half a line, no newline. */
	assert_int_equal(
		rd_read_file(path_of("mid.jsonl"), 1 << 20, &text, &len), 0);
	f = fopen(path_of("mid.jsonl"), "a");
	fwrite(text, 1, strchr(text, '\n') - text - 10, f);
	fclose(f);
	free(text);

	assert_int_equal(
		rd_recording_open(path_of("mid.jsonl"), &rec, err, sizeof(err)),
		0);
	assert_int_equal(rec.n, 4);
	assert_int_equal(rd_recording_frame(&rec, 1, &s, err, sizeof(err)), 0);
	rd_snapshot_free(&s);
	assert_true(rd_recording_frame(&rec, 2, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "frame 3"));
	rd_snapshot_free(&s);
	assert_true(rd_recording_frame(&rec, 3, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "frame 4"));
	rd_snapshot_free(&s);
	rd_recording_close(&rec);
}

/* A recording's last frame, a single snapshot, and a file that is neither. */
static void test_load_last(void **state)
{
	struct rd_snapshot s;
	char err[1024] = "";
	FILE *f;

	(void)state;
	write_frames("three.jsonl", 3, NULL);
	assert_int_equal(rd_recording_load_last(path_of("three.jsonl"), &s, err,
						sizeof(err)),
			 0);
	assert_string_equal(s.host.hostname, "host2");
	rd_snapshot_free(&s);

	write_frames("one.json", 1, NULL);
	assert_int_equal(rd_recording_load_last(path_of("one.json"), &s, err,
						sizeof(err)),
			 0);
	assert_string_equal(s.host.hostname, "host0");
	rd_snapshot_free(&s);

	put("junk.json", "not json\n", 9);
	assert_true(rd_recording_load_last(path_of("junk.json"), &s, err,
					   sizeof(err)) < 0);
	assert_non_null(strstr(err, "not a recording either"));
	rd_snapshot_free(&s);

	/* The last frame is cut short: the error names the file and frame. */
	write_frames("cut.jsonl", 2, NULL);
	f = fopen(path_of("cut.jsonl"), "a");
	assert_non_null(f);
	fputs("{\"schema_version\": 1, \"devices\": [\n", f);
	fclose(f);
	assert_true(rd_recording_load_last(path_of("cut.jsonl"), &s, err,
					   sizeof(err)) < 0);
	assert_non_null(strstr(err, path_of("cut.jsonl")));
	assert_non_null(strstr(err, "frame 3"));
	rd_snapshot_free(&s);
}

/*
 * A file that is one JSON document is a snapshot: a bad value in it is told
 * alone, not followed by how it fails as a recording; a recording whose
 * first frame has a bad value is told as a recording, not as "trailing
 * data" of a snapshot.
 */
static void test_load_failure_told_once(void **state)
{
	static const char pretty[] = "{\n  \"schema_version\": 1,\n"
				     "  \"host\": { \"hostname\": 5 }\n}\n";
	static const char frames[] = "{\"schema_version\": 1, \"host\": "
				     "{\"hostname\": 5}}\n"
				     "{\"schema_version\": 1}\n";
	struct rd_snapshot s;
	char err[1024] = "";

	(void)state;
	put("pretty.json", pretty, sizeof(pretty) - 1);
	assert_true(rd_recording_load_last(path_of("pretty.json"), &s, err,
					   sizeof(err)) < 0);
	assert_non_null(strstr(err, "host.hostname: expected a string"));
	assert_null(strstr(err, "recording"));
	rd_snapshot_free(&s);

	put("badfirst.jsonl", frames, sizeof(frames) - 1);
	assert_true(rd_recording_load_last(path_of("badfirst.jsonl"), &s, err,
					   sizeof(err)) < 0);
	assert_non_null(strstr(err, "frame 1: host.hostname: expected a string"));
	assert_null(strstr(err, "trailing data"));
	rd_snapshot_free(&s);
}

/* Which reading's error is told, for each pair of outcomes. */
static void test_load_failure_choice(void **state)
{
	char err[256];

	(void)state;
	rd_load_failure(err, sizeof(err), -EINVAL, "S", -EBADMSG, "R");
	assert_string_equal(err, "S");
	rd_load_failure(err, sizeof(err), -EBADMSG, "S", -EINVAL, "R");
	assert_string_equal(err, "R");
	rd_load_failure(err, sizeof(err), -EBADMSG, "S", -EBADMSG, "R");
	assert_string_equal(err, "S (not a recording either: R)");
	/* The recording reading succeeded: its error text is never read. */
	rd_load_failure(err, sizeof(err), -EBADMSG, "S", 0, NULL);
	assert_string_equal(err, "S");
}

static void test_file_shrinks_under_us(void **state)
{
	struct rd_recording rec;
	struct rd_snapshot s;
	char err[256];

	(void)state;
	write_frames("shrink.jsonl", 3, NULL);
	assert_int_equal(rd_recording_open(path_of("shrink.jsonl"), &rec, err,
					   sizeof(err)),
			 0);
	assert_int_equal(truncate(path_of("shrink.jsonl"), 10), 0);
	assert_int_equal(rd_recording_frame(&rec, 2, &s, err, sizeof(err)),
			 -EIO);
	rd_snapshot_free(&s);
	rd_recording_close(&rec);
}

/* The demo the console plays: the host the README promises. */
static void test_demo_recording(void **state)
{
	struct rd_recording rec;
	struct rd_snapshot s, last;
	const char *src = getenv("RDMADIAG_SRCDIR");
	char path[PATH_MAX], err[512];
	const struct rd_port *p0, *p1, *q0;
	const struct rd_counter *c0, *c1;

	(void)state;
	snprintf(path, sizeof(path), "%s/data/demo/cx6dx-demo.jsonl",
		 src ? src : RD_SRCDATADIR "/..");
	assert_int_equal(rd_recording_open(path, &rec, err, sizeof(err)), 0);
	assert_true(rec.n >= 50 && rec.n <= 80);
	assert_int_equal(rd_recording_frame(&rec, 0, &s, err, sizeof(err)), 0);
	assert_int_equal(
		rd_recording_frame(&rec, rec.n - 1, &last, err, sizeof(err)),
		0);
	assert_non_null(rd_snapshot_device(&s, "mlx5_0"));
	assert_non_null(rd_snapshot_device(&s, "mlx5_1"));
	p0 = rd_device_port(rd_snapshot_device(&s, "mlx5_0"), 1);
	p1 = rd_device_port(rd_snapshot_device(&s, "mlx5_1"), 1);
	assert_non_null(p0);
	assert_non_null(p1);
	assert_int_equal(p0->state_num.v, 4);
	assert_int_equal(p1->state_num.v, 1);
	assert_string_equal(rd_snapshot_device(&s, "mlx5_0")->hca_type,
			    "MT4125");
	/* mlx5_1's netdev has no carrier. */
	assert_non_null(p1->netdev);
	assert_false(rd_snapshot_netdev(&s, p1->netdev)->carrier.v);
	/* PFC is off on the RoCE priority 3. */
	assert_true(rd_snapshot_netdev(&s, p0->netdev)->dcb.pfc_en.ok);
	assert_int_equal(rd_snapshot_netdev(&s, p0->netdev)->dcb.pfc_en.v &
				 (1u << 3),
			 0);
	/* Counters move between the first and last frame. */
	q0 = rd_device_port(rd_snapshot_device(&last, "mlx5_0"), 1);
	c0 = rd_counters_find(&p0->counters, "port_xmit_data");
	c1 = rd_counters_find(&q0->counters, "port_xmit_data");
	assert_non_null(c0);
	assert_non_null(c1);
	assert_true(c1->value.v > c0->value.v);
	assert_true(last.monotonic_ns.v > s.monotonic_ns.v);
	rd_snapshot_free(&s);
	rd_snapshot_free(&last);
	rd_recording_close(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile_files),
		cmocka_unit_test(test_bad_frame_in_the_middle),
		cmocka_unit_test(test_file_shrinks_under_us),
		cmocka_unit_test(test_load_last),
		cmocka_unit_test(test_load_failure_told_once),
		cmocka_unit_test(test_load_failure_choice),
		cmocka_unit_test(test_demo_recording),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
