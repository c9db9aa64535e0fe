// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bw/lat child: its argument vector, its JSON lines, and a real child
 * (a script standing in for rdmadiag) run, read, stopped and collected.
 */
#include "config.h"

#include "unit.h"

#include <poll.h>
#include <signal.h>

#include "console/test_run.h"
#include "console/worker.h"

static struct con_test_params params(bool lat)
{
	struct con_test_params p = { .lat = lat,
				     .mode = CON_TEST_LOOPBACK,
				     .op = CON_TEST_WRITE,
				     .size = "65536",
				     .duration = "5",
				     .dev = "mlx5_0",
				     .port = 1 };
	return p;
}

static void test_argv(void **unused)
{
	struct con_test_params p = params(false);
	const char *argv[32];
	char port[24];
	size_t n = 0;

	assert_int_equal(con_test_argv(&p, argv, 32, port, sizeof(port)), 0);
	while (argv[n])
		n++;
	assert_string_equal(argv[1], "bw");
	assert_string_equal(argv[3], "mlx5_0");
	assert_string_equal(argv[5], "1");
	assert_string_equal(argv[n - 1], "--loopback");
	p.mode = CON_TEST_CLIENT;
	snprintf(p.host, sizeof(p.host), "peer1");
	assert_int_equal(con_test_argv(&p, argv, 32, port, sizeof(port)), 0);
	assert_string_equal(argv[15], "peer1");
	/* What the form offers beyond that reaches the command line. */
	p.all_sizes = true;
	p.bidir = true;
	snprintf(p.gid, sizeof(p.gid), "3");
	snprintf(p.qps, sizeof(p.qps), "4");
	assert_int_equal(con_test_argv(&p, argv, 32, port, sizeof(port)), 0);
	assert_string_equal(argv[8], "-a");
	assert_string_equal(argv[9], "--progress-fd");
	assert_string_equal(argv[12], "-x");
	assert_string_equal(argv[13], "3");
	assert_string_equal(argv[14], "-q");
	assert_string_equal(argv[15], "4");
	assert_string_equal(argv[16], "-b");
	assert_string_equal(argv[17], "peer1");
	/* Latency has neither QPs nor both directions; no duration: -n. */
	p.lat = true;
	p.all_sizes = false;
	p.duration[0] = '\0';
	assert_int_equal(con_test_argv(&p, argv, 32, port, sizeof(port)), 0);
	assert_string_equal(argv[1], "lat");
	assert_string_equal(argv[8], "-s");
	assert_string_equal(argv[10], "--progress-fd");
	assert_string_equal(argv[13], "-x");
	assert_string_equal(argv[15], "peer1");
	assert_null(argv[16]);
	snprintf(p.gid, sizeof(p.gid), "x1");
	assert_int_equal(con_test_argv(&p, argv, 32, port, sizeof(port)),
			 -EINVAL);
}

static bool refused(const struct con_test_params *p)
{
	const char *argv[32];
	char port[24];

	return con_test_argv(p, argv, 32, port, sizeof(port)) == -EINVAL;
}

static void test_argv_refuses_bad_settings(void **unused)
{
	struct con_test_params p = params(true);

	p.mode = CON_TEST_CLIENT; /* no host */
	assert_true(refused(&p));
	snprintf(p.host, sizeof(p.host), "--output=/etc/x");
	assert_true(refused(&p));
	p = params(true);
	snprintf(p.size, sizeof(p.size), "12k");
	assert_true(refused(&p));
	p = params(true);
	snprintf(p.duration, sizeof(p.duration), "5s");
	assert_true(refused(&p));
	/* No duration is no -D: the command's iterations count. */
	p.duration[0] = '\0';
	assert_false(refused(&p));
	p = params(true);
	snprintf(p.dev, sizeof(p.dev), "-x");
	assert_true(refused(&p));
	p = params(true);
	p.op = CON_TEST_OPS;
	assert_true(refused(&p));
}

static void test_lines(void **unused)
{
	struct con_test_run t;
	char l1[] = "{\"type\":\"progress\",\"gbps\":12.5}";
	char l2[] = "{\"type\":\"progress\",\"gbps\":\"many\"}";
	char l3[] = "not json: cannot open mlx5_0";
	char l4[] = "{\"type\":\"result\",\"op\":\"write\",\"results\":"
		    "[{\"size\":2,\"bw_avg_gbps\":1.0},"
		    "{\"size\":65536,\"bw_avg_gbps\":92.3125}]}";
	char l5[] = "{\"type\":\"error\",\"message\":\"peer went away\"}";
	char l6[] = "[1,2]";

	con_test_init(&t, NULL);
	con_test_feed_line(&t, l1);
	con_test_feed_line(&t, l2); /* not a number: no point */
	assert_int_equal(t.n_graph, 1);
	assert_true(t.graph[0] == 12.5);
	con_test_feed_line(&t, l3);
	assert_string_equal(t.last_err, "not json: cannot open mlx5_0");
	con_test_feed_line(&t, l4);
	assert_string_equal(t.cur.figure, "92.31 Gb/s");
	assert_true(t.cur.n_fields >= 3);
	con_test_feed_line(&t, l5);
	assert_string_equal(t.last_err, "peer went away");
	con_test_feed_line(&t, l6);
	assert_string_equal(t.last_err, "[1,2]");
}

/*
 * A result's figures as a person reads them: units, aligned numbers, two
 * decimals for latency, MiB/s under Gb/s; an iteration-bound run named
 * by its iterations once the result says how many.
 */
static void test_figures(void **unused)
{
	struct con_test_run t;
	char bw[] = "{\"type\":\"result\",\"results\":[{\"size\":65536,"
		    "\"iterations\":140000,\"seconds\":5.004927229999,"
		    "\"bw_peak_mibps\":30.98593777773,\"bw_avg_mibps\":29.5,"
		    "\"bw_peak_gbps\":0.26,\"bw_avg_gbps\":0.2474,"
		    "\"msg_rate_mpps\":0.000472}]}";
	char lat[] = "{\"type\":\"result\",\"results\":[{\"size\":2,"
		     "\"iterations\":1000,\"t_min\":31.56913571708,"
		     "\"t_max\":80.1,\"t_typical\":32.004,\"t_avg\":33.5,"
		     "\"t_p99\":40.25,\"t_p999\":70.126}]}";

	con_test_init(&t, NULL);
	t.cur.lat = false;
	con_test_feed_line(&t, bw);
	assert_int_equal(t.cur.n_figures, 8);
	assert_string_equal(t.cur.figures[0],
			    "bandwidth average          0.25 Gb/s");
	assert_string_equal(t.cur.figures[1],
			    "                          29.50 MiB/s");
	assert_string_equal(t.cur.figures[3],
			    "                          30.99 MiB/s");
	assert_string_equal(t.cur.figures[4],
			    "message rate              0.000 Mpps");
	assert_string_equal(t.cur.figures[6],
			    "iterations               140000 ");
	assert_string_equal(t.cur.figures[7],
			    "duration                   5.00 s");

	con_test_init(&t, NULL);
	t.cur.lat = true;
	snprintf(t.cur.what, sizeof(t.cur.what),
		 "lat send 2 B iterations loopback mlx5_0/1");
	con_test_feed_line(&t, lat);
	assert_string_equal(t.cur.figures[0],
			    "latency minimum           31.57 us");
	assert_string_equal(t.cur.figures[1],
			    "latency typical           32.00 us");
	assert_string_equal(t.cur.figures[4],
			    "latency p99.9             70.13 us");
	assert_string_equal(t.cur.figures[5],
			    "latency maximum           80.10 us");
	assert_string_equal(t.cur.what,
			    "lat send 2 B 1000 iterations loopback mlx5_0/1");
}

/*
 * The peer check the child prints before its figures: its heading and
 * indented list are kept with the result (escaped), not taken for the
 * child's error; a line that is neither ends it.
 */
static void test_peer_lines(void **unused)
{
	struct con_test_run t;
	char h[] = "peer check with rdmadiag at 192.0.2.2:18515, in the "
		   "test's channel: 1 mismatch";
	char i1[] = "  netdev MTU: here 1500 bytes, peer 9000 bytes";
	char i2[] = "    breaks: frames \x1b[2J above 1500 bytes";
	char i3[] = "  GID: -x 1 here (192.0.2.1), -x 1 on the peer (192.0.2.2)";
	char evil[] = "  \x1b[2J\033";
	char other[] = "rdmadiag: cannot connect";
	char after[] = "  indented, but not the peer check's";
	char line[64];

	(void)unused;
	con_test_init(&t, NULL);
	con_test_feed_line(&t, h);
	con_test_feed_line(&t, i1);
	con_test_feed_line(&t, i2);
	con_test_feed_line(&t, i3);
	assert_int_equal(t.cur.n_peer, 4);
	assert_string_equal(t.cur.peer[0], h);
	assert_string_equal(t.cur.peer[1], i1);
	assert_string_equal(t.cur.peer[3], i3);
	assert_string_equal(t.last_err, "");
	/* Bytes a terminal would act on are escaped again. */
	evil[2] = 0x1b;
	con_test_feed_line(&t, evil);
	assert_null(strchr(t.cur.peer[4], 0x1b));
	con_test_feed_line(&t, other);
	assert_string_equal(t.last_err, "rdmadiag: cannot connect");
	con_test_feed_line(&t, after);
	assert_int_equal(t.cur.n_peer, 5);
	assert_string_equal(t.last_err, "  indented, but not the peer check's");
	/* A long list is cut, and how much was left out is counted. */
	for (int i = 0; i < CON_TEST_PEER_MAX + 3; i++) {
		snprintf(line, sizeof(line), i ? "  item %d" : "peer check: %d",
			 i);
		con_test_feed_line(&t, line);
	}
	assert_int_equal(t.cur.n_peer, CON_TEST_PEER_MAX);
	assert_int_equal(t.cur.peer_more, 8);
}

/* A latency result's histogram reaches the result; a broken one does not. */
static void test_lat_histogram(void **unused)
{
	struct con_test_run t;
	char ok[] = "{\"type\":\"result\",\"test\":\"lat\",\"results\":"
		    "[{\"size\":2,\"t_typical\":14.5,\"histogram\":"
		    "{\"unit\":\"usec\",\"lo\":12,\"width\":0.5,"
		    "\"counts\":[3,40,7],\"over\":2,\"max\":812.5}}]}";
	char neg[] = "{\"type\":\"result\",\"results\":[{\"histogram\":"
		     "{\"lo\":12,\"width\":0.5,\"counts\":[3,-1],"
		     "\"over\":0,\"max\":13}}]}";
	char nowidth[] = "{\"type\":\"result\",\"results\":[{\"histogram\":"
			 "{\"lo\":12,\"width\":0,\"counts\":[3],"
			 "\"over\":0,\"max\":13}}]}";
	char text[] = "{\"type\":\"result\",\"results\":[{\"histogram\":"
		      "{\"lo\":12,\"width\":1,\"counts\":[\"3\"],"
		      "\"over\":0,\"max\":13}}]}";

	(void)unused;
	con_test_init(&t, NULL);
	t.lat = true;
	con_test_feed_line(&t, ok);
	assert_string_equal(t.cur.figure, "14.50 us");
	assert_int_equal(t.cur.n_hist, 3);
	assert_true(t.cur.hist_lo == 12 && t.cur.hist_width == 0.5);
	assert_int_equal(t.cur.hist[1], 40);
	assert_int_equal(t.cur.hist_over, 2);
	assert_true(t.cur.hist_max == 812.5);
	con_test_feed_line(&t, neg);
	assert_int_equal(t.cur.n_hist, 0);
	con_test_feed_line(&t, ok);
	con_test_feed_line(&t, nowidth);
	assert_int_equal(t.cur.n_hist, 0);
	con_test_feed_line(&t, ok);
	con_test_feed_line(&t, text);
	assert_int_equal(t.cur.n_hist, 0);
}

static char dir[] = "/tmp/rdmadiag-test-run-XXXXXX";

/* A stand-in for rdmadiag: script text run as "self". */
static const char *script(const char *name, const char *body)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(path, 0700), 0);
	return path;
}

/* Start a stand-in child running body; the run is in *t. */
static void start(struct con_test_run *t, bool lat, const char *name,
		  const char *body)
{
	struct con_test_params p = params(lat);
	char err[256];

	con_test_init(t, script(name, body));
	assert_int_equal(con_test_start(t, &p, err, sizeof(err)), 0);
	assert_true(con_test_running(t));
}

/* Run the loop's part until the test ends (or secs pass). */
static bool run_until_end(struct con_test_run *t, double secs)
{
	double end = con_now() + secs;

	while (con_now() < end) {
		struct pollfd p = { .fd = con_test_fd(t), .events = POLLIN };

		if (p.fd >= 0 && poll(&p, 1, 50) > 0)
			con_test_readable(t);
		else if (p.fd < 0)
			poll(NULL, 0, 20);
		con_test_tick(t);
		if (con_test_take_ended(t))
			return true;
	}
	return false;
}

static void test_child_done(void **unused)
{
	struct con_test_params p = params(false);
	struct con_test_run t;
	char err[256];

	con_test_init(&t,
		      script("ok.sh",
			     "echo '{\"type\":\"progress\",\"gbps\":40}' >&3\n"
			     "echo '{\"type\":\"result\",\"results\":"
			     "[{\"bw_avg_gbps\":42}]}' >&3\n"
			     "exit 0"));
	assert_int_equal(con_test_start(&t, &p, err, sizeof(err)), 0);
	assert_true(con_test_running(&t));
	/* One run at a time. */
	assert_int_equal(con_test_start(&t, &p, err, sizeof(err)), -EBUSY);
	assert_true(run_until_end(&t, 5));
	assert_false(con_test_running(&t));
	assert_true(t.ended_ok);
	assert_string_equal(t.summary, "bandwidth test done: 42.00 Gb/s");
	assert_int_equal(t.n_results, 1);
	assert_int_equal(t.n_graph, 1);
	assert_string_equal(t.results[0].what,
			    "bw write 65536 B 5s loopback mlx5_0/1");
	con_test_cleanup(&t);
}

static void test_child_failed(void **unused)
{
	struct con_test_run t;

	start(&t, true, "fail.sh", "echo 'no such device' >&2\nexit 1");
	assert_true(run_until_end(&t, 5));
	assert_false(t.ended_ok);
	assert_string_equal(t.results[0].status, "failed");
	assert_non_null(strstr(t.summary, "no such device"));
	con_test_cleanup(&t);
}

static void test_child_stopped(void **unused)
{
	struct con_test_run t;
	double t0;

	/* It ignores SIGINT: the SIGKILL 2 s later ends it. */
	start(&t, false, "hang.sh", "trap '' INT\nexec sleep 30");
	t0 = con_now();
	con_test_stop(&t);
	assert_true(run_until_end(&t, 5));
	assert_true(con_now() - t0 < 4);
	assert_string_equal(t.results[0].status, "aborted");
	con_test_cleanup(&t);
}

static void test_cleanup_kills(void **unused)
{
	struct con_test_run t;
	pid_t pid;

	start(&t, false, "long.sh", "exec sleep 30");
	pid = t.pid;
	con_test_cleanup(&t);
	assert_false(con_test_running(&t));
	assert_int_equal(kill(pid, 0), -1); /* reaped: no such process */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_argv_refuses_bad_settings),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_lat_histogram),
		cmocka_unit_test(test_peer_lines),
		cmocka_unit_test(test_child_done),
		cmocka_unit_test(test_child_failed),
		cmocka_unit_test(test_child_stopped),
		cmocka_unit_test(test_cleanup_kills),
	};
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	unit_rmtree(dir);
	return r;
}
