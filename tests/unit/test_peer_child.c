// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's peer child: what `rdmadiag peer --json` prints becomes the
 * mismatch list and the GID pair, bounded and escaped; errors, garbage and
 * bad targets give one line; a real child (a script standing in for the
 * binary) is started, read without blocking and reaped.
 */
#include "config.h"

#include "unit.h"

#include <poll.h>

#include "console/peer_run.h"

static const char answer[] =
	"{\n"
	"  \"here\": { \"host\": \"a\", \"device\": \"rxe0\", \"port\": 1,"
	" \"netdev\": \"eth0\", \"gid_index\": 1, \"gid_ipv4\": \"10.0.0.1\" },\n"
	"  \"peer\": { \"address\": \"10.0.0.2:18515\", \"host\": \"b\x1b[2J\","
	" \"device\": \"rxe0\", \"port\": 1, \"netdev\": \"eth0\","
	" \"gid_index\": 3, \"gid_ipv4\": \"10.0.0.2\" },\n"
	"  \"mismatches\": [ { \"what\": \"active MTU\", \"here\": \"1024 bytes\","
	" \"peer\": \"4096 bytes\", \"breaks\": \"packets dropped\" } ],\n"
	"  \"not_compared\": \"FEC\"\n"
	"}\n";

static void test_parse_answer(void **state)
{
	struct rd_peer_child c;

	(void)state;
	con_peer_init(&c);
	rd_peer_child_parse(&c, answer, 1);
	assert_true(c.done);
	assert_true(c.ok);
	assert_string_equal(c.res.here, "a rxe0 port 1 on eth0");
	/* The peer's host name carried an escape sequence: shown, not sent. */
	assert_string_equal(c.res.peer,
			    "10.0.0.2:18515, b\\x1b[2J rxe0 port 1 on eth0");
	assert_string_equal(c.res.gid, "IPv4 RoCE v2: -x 1 here (10.0.0.1), "
					"-x 3 on the peer (10.0.0.2)");
	assert_int_equal(c.res.n_total, 1);
	assert_int_equal(c.res.n_items, 1);
	assert_string_equal(c.res.items[0].what, "active MTU");
	assert_string_equal(c.res.items[0].here, "1024 bytes");
	assert_string_equal(c.res.items[0].peer, "4096 bytes");
	assert_string_equal(c.res.not_compared, "FEC");
}

static void test_parse_no_gid(void **state)
{
	struct rd_peer_child c;

	(void)state;
	con_peer_init(&c);
	rd_peer_child_parse(&c,
			    "{\"here\": {\"gid_index\": null}, \"peer\": "
			    "{\"gid_index\": 2}, \"mismatches\": []}",
			    0);
	assert_true(c.ok);
	assert_int_equal(c.res.n_total, 0);
	assert_non_null(strstr(c.res.gid, "no IPv4 RoCE v2 GID here"));
}

/* More mismatches than kept: counted, the rest said to be left out. */
static void test_parse_many(void **state)
{
	struct rd_peer_child c;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	fputs("{\"here\": {}, \"peer\": {}, \"mismatches\": [", f);
	for (int i = 0; i < 40; i++)
		fprintf(f, "%s{\"what\": \"w%d\", \"here\": \"x\", \"peer\": "
			   "\"y\", \"breaks\": \"z\"}", i ? "," : "", i);
	fputs("]}", f);
	fclose(f);
	con_peer_init(&c);
	rd_peer_child_parse(&c, text, 1);
	assert_true(c.ok);
	assert_int_equal(c.res.n_total, 40);
	assert_int_equal(c.res.n_items, RD_PEER_CHILD_ITEMS);
	free(text);
}

static void test_parse_errors(void **state)
{
	struct rd_peer_child c;

	(void)state;
	con_peer_init(&c);
	rd_peer_child_parse(&c, "rdmadiag: peer: 10.0.0.2:18515 speaks "
				"perftest (version 6.06)\n", 2);
	assert_false(c.ok);
	assert_string_equal(c.err, "rdmadiag: peer: 10.0.0.2:18515 speaks "
				   "perftest (version 6.06)");
	rd_peer_child_parse(&c, "", 2);
	assert_false(c.ok);
	assert_string_equal(c.err, "rdmadiag peer exited 2 with no message");
	rd_peer_child_parse(&c, "{\"here\": [1,", 1);
	assert_false(c.ok);
	assert_string_equal(c.err, "rdmadiag peer printed no readable answer");
	rd_peer_child_parse(&c, "{\"mismatches\": []}", 0);
	assert_false(c.ok);
	assert_string_equal(c.err, "rdmadiag peer's answer names no ports");
	rd_peer_child_parse(&c, "bad\x1b]0;x\x07\n", 2);
	assert_string_equal(c.err, "bad\\x1b]0;x\\x07");
}

/* The reachability matrix, when asked for: rows kept (escaped), or why
 * there are none; not asked for: nothing is read of it. */
static void test_parse_matrix(void **state)
{
	static const char rows[] =
		"{\"here\": {}, \"peer\": {}, \"mismatches\": [],"
		" \"reachability\": ["
		"{\"here\": 1, \"peer\": 3, \"roce\": \"v2\", \"family\":"
		" \"ipv4\", \"works\": true},"
		"{\"here\": 0, \"peer\": 0, \"roce\": \"v2\", \"family\":"
		" \"ipv6\", \"works\": false, \"why\": \"timed out\x1b\"},"
		"{\"here\": -1, \"peer\": \"x\", \"works\": true}]}";
	struct rd_peer_child c;

	(void)state;
	con_peer_init(&c);
	c.matrix = true;
	rd_peer_child_parse(&c, rows, 0);
	assert_true(c.ok);
	assert_int_equal(c.res.n_pairs, 2);
	assert_int_equal(c.res.pairs[0].here, 1);
	assert_int_equal(c.res.pairs[0].peer, 3);
	assert_true(c.res.pairs[0].works);
	assert_string_equal(c.res.pairs[0].family, "ipv4");
	assert_false(c.res.pairs[1].works);
	assert_string_equal(c.res.pairs[1].why, "timed out\\x1b");
	assert_string_equal(c.res.matrix_not, "");
	rd_peer_child_parse(&c,
			    "{\"here\": {}, \"peer\": {}, \"reachability\": [],"
			    " \"reachability_not_tested\": \"no device\"}",
			    0);
	assert_int_equal(c.res.n_pairs, 0);
	assert_string_equal(c.res.matrix_not, "no device");
	rd_peer_child_parse(&c, "{\"here\": {}, \"peer\": {},"
				" \"reachability\": []}", 0);
	assert_non_null(strstr(c.res.matrix_not, "no pair of GIDs"));
	c.matrix = false;
	rd_peer_child_parse(&c, rows, 0);
	assert_int_equal(c.res.n_pairs, 0);
	assert_string_equal(c.res.matrix_not, "");
}

static void test_bad_targets(void **state)
{
	static const char *const bad[] = {
		"", ":1", "h:", "h:0", "h:65536", "h:1x", "-d", "a b",
		"a;reboot", "h\x1b", "0123456789012345678901234567890123456789"
				     "012345678901234567890123456789",
	};
	struct rd_peer_child c;

	(void)state;
	con_peer_init(&c);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(con_peer_start(&c, "/bin/false", NULL, bad[i],
						NULL, 0, 1, false),
				 -EINVAL);
		assert_false(con_peer_running(&c));
		assert_non_null(strstr(c.err, "is not HOST or HOST:PORT"));
		assert_null(strchr(c.err, '\x1b'));
	}
}

/* A script stands in for rdmadiag: it echoes its words and answers. */
static void test_child_runs(void **state)
{
	char dir[] = "/tmp/rd-peer-child-XXXXXX", path[PATH_MAX];
	struct rd_peer_child c;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fake", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n"
		   "[ \"$*\" = 'peer host-b -p 4791 --json --no-matrix "
		   "--timeout 3 -d rxe0 -i 1' ] || { echo \"words: $*\"; "
		   "exit 2; }\n"
		   "sleep 0.2\ncat <<'E'\n%sE\nexit 1\n", answer);
	fclose(f);
	chmod(path, 0700);
	con_peer_init(&c);
	assert_int_equal(con_peer_start(&c, path, NULL, "host-b:4791", "rxe0",
					1, 3, false),
			 0);
	assert_true(con_peer_running(&c));
	for (int i = 0; i < 100 && con_peer_running(&c); i++) {
		struct pollfd p = { .fd = con_peer_fd(&c), .events = POLLIN };

		assert_true(poll(&p, 1, 100) >= 0);
		con_peer_readable(&c);
	}
	assert_false(con_peer_running(&c));
	assert_true(c.done);
	if (!c.ok)
		fail_msg("child: %s", c.err);
	assert_int_equal(c.res.n_total, 1);
	assert_string_equal(c.target, "host-b:4791");
	/* A second run stopped before it ends leaves no child behind. */
	assert_int_equal(con_peer_start(&c, path, NULL, "host-b:4791", "rxe0",
					1, 3, false),
			 0);
	con_peer_stop(&c);
	assert_false(con_peer_running(&c));
	assert_false(c.ok);
	free(c.out);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_answer),
		cmocka_unit_test(test_parse_no_gid),
		cmocka_unit_test(test_parse_many),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_matrix),
		cmocka_unit_test(test_bad_targets),
		cmocka_unit_test(test_child_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
