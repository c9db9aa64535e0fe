// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer check before a test, against a real exchange on loopback: a
 * child answers as 'rdmadiag peer --listen' (or as a perftest server, or
 * not at all); the list printed before the test and the explanation
 * after a failure must name what the two ports disagree on.
 */
#include "config.h"

#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "peer/precheck.h"
#include "peer/session.h"

/* One device rxe0, port 1 on eth0 with an IPv4 RoCE v2 GID at index 1. */
struct box {
	struct rd_snapshot s;
	struct rd_device dev;
	struct rd_port port;
	struct rd_gid gid[2];
	struct rd_netdev nd;
	struct rd_addr addr;
};

static void box_init(struct box *b, uint64_t active_mtu, uint64_t mtu,
		     uint8_t last_octet)
{
	static const uint8_t ll[16] = { 0xfe, 0x80, [15] = 7 };
	uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, [12] = 192, [13] = 0,
			   [14] = 2, [15] = last_octet };
	static char addr[2][16];

	memset(b, 0, sizeof(*b));
	snprintf(addr[last_octet & 1], sizeof(addr[0]), "192.0.2.%u",
		 last_octet);
	b->gid[0] = (struct rd_gid){ .index = 0, .raw_ok = true,
				     .type = (char *)"RoCE v2",
				     .netdev = (char *)"eth0" };
	memcpy(b->gid[0].raw, ll, 16);
	b->gid[1] = b->gid[0];
	b->gid[1].index = 1;
	memcpy(b->gid[1].raw, v4, 16);
	b->port.port = 1;
	b->port.link_layer = (char *)"Ethernet";
	b->port.netdev = (char *)"eth0";
	b->port.gids = b->gid;
	b->port.n_gids = 2;
	b->port.verbs.active_mtu = (struct rd_ou64){ active_mtu, true };
	b->dev.name = (char *)"rxe0";
	b->dev.ports = &b->port;
	b->dev.n_ports = 1;
	b->addr.family = (char *)"inet";
	b->addr.address = addr[last_octet & 1];
	b->addr.prefixlen = (struct rd_ou64){ 24, true };
	b->nd.name = (char *)"eth0";
	b->nd.mtu = (struct rd_ou64){ mtu, true };
	b->nd.addrs = &b->addr;
	b->nd.n_addrs = 1;
	b->s.schema_version = RD_SCHEMA_VERSION;
	b->s.devices = &b->dev;
	b->s.n_devices = 1;
	b->s.netdevs = &b->nd;
	b->s.n_netdevs = 1;
}

enum answer { ANSWER_PEER, ANSWER_PERFTEST };

/* A test that ended on retries: the wire lost every packet. */
static const struct perf_fail RETRY[1] = { { .kind = PERF_FAIL_WC,
					     .err = EIO, .wc_status = 12,
					     .cm_event = -1 } };
/* One that could not reach its peer's TCP port. */
static const struct perf_fail REFUSED[1] = { { .kind = PERF_FAIL_OOB,
					       .err = ECONNREFUSED,
					       .wc_status = -1,
					       .cm_event = -1 } };

/* A loopback listener on a free port, and a child answering one client. */
static pid_t serve(const struct box *theirs, enum answer how, uint16_t *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	pid_t pid;

	assert_true(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct perf_oob o = { .fd = accept(fd, NULL, NULL),
				      .timeout_ms = 2000 };
		struct rd_peer_summary mine, got;
		struct rd_cmp_side side;
		char err[512], v[16] = "6.06";

		if (o.fd < 0)
			_exit(3);
		if (how == ANSWER_PERFTEST) {
			if (write(o.fd, v, sizeof(v)) != (ssize_t)sizeof(v))
				_exit(4);
			(void)read(o.fd, err, sizeof(err));
			_exit(0);
		}
		if (rd_cmp_pick(&theirs->s, NULL, 0, &side, err, sizeof(err)) ||
		    rd_peer_summary_make(&side, &mine))
			_exit(5);
		if (rd_peer_serve(&o, 2000, &mine, NULL, &got, err,
				  sizeof(err)) < 0)
			_exit(6);
		_exit(0);
	}
	close(fd);
	return pid;
}

static void reap(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Run the check against how/theirs; what it printed before and after. */
static int check(uint64_t active_mtu, uint64_t mtu, enum answer how,
		 struct rd_peer_precheck *pc, char **before, char **after)
{
	struct box mine, theirs;
	size_t n1, n2;
	FILE *f1 = open_memstream(before, &n1), *f2;
	uint16_t port;
	pid_t pid;
	int r;

	box_init(&mine, 1024, 1500, 1);
	box_init(&theirs, active_mtu, mtu, 2);
	pid = serve(&theirs, how, &port);
	r = rd_peer_precheck_run(pc, &mine.s, "rxe0", 1, "127.0.0.1", port,
				 2000, f1);
	fclose(f1);
	reap(pid);
	f2 = open_memstream(after, &n2);
	rd_peer_precheck_explain(pc, true, RETRY, f2);
	if (pc->ran)
		rd_peer_precheck_explain(pc, false, REFUSED, f2);
	fclose(f2);
	return r;
}

/* What explain says of the failure why, as a malloc'd string. */
static char *explain(const struct rd_peer_precheck *pc,
		     const struct perf_fail *why)
{
	char *after;
	size_t n;
	FILE *f = open_memstream(&after, &n);

	rd_peer_precheck_explain(pc, true, why, f);
	fclose(f);
	return after;
}

static void done(struct rd_peer_precheck *pc, char *before, char *after)
{
	rd_peer_precheck_free(pc);
	free(before);
	free(after);
}

static void test_mtu_mismatch(void **state)
{
	struct rd_peer_precheck pc;
	char *before, *after;

	(void)state;
	assert_int_equal(check(4096, 9000, ANSWER_PEER, &pc, &before, &after), 0);
	assert_true(pc.ran);
	assert_int_equal(pc.c.n, 2);
	assert_non_null(strstr(before, ": 2 mismatches\n"));
	assert_non_null(strstr(before, "  active MTU: here 1024 bytes, "
				       "peer 4096 bytes\n"));
	assert_non_null(strstr(before, "  netdev MTU: here 1500 bytes, "
				       "peer 9000 bytes\n"));
	assert_non_null(strstr(before, "  GID: -x 1 here (192.0.2.1), -x 1 "
				       "on the peer (192.0.2.2)\n"));
	assert_non_null(strstr(after, "peer check: completion status 12 "
				      "(transport retry counter exceeded): most "
				      "likely the netdev MTU mismatch (here 1500 "
				      "bytes, peer 9000 bytes): "));
	assert_non_null(strstr(after, "can also be explained by the active MTU "
				      "mismatch (here 1024 bytes, peer 4096 bytes)"));
	/* rdmadiag peer --listen runs no test: its choices are not known. */
	assert_non_null(strstr(after, "the tests' GIDs and MTUs were not "
				      "compared: rdmadiag peer --listen runs "
				      "no test\n"));
	assert_non_null(strstr(after, "peer check: the test failed before "
				      "its RDMA part, on the TCP exchange, so "
				      "the mismatches listed before the test "
				      "do not explain it\n"));
	done(&pc, before, after);
}

static void test_alike(void **state)
{
	struct rd_peer_precheck pc;
	char *before, *after;

	(void)state;
	assert_int_equal(check(1024, 1500, ANSWER_PEER, &pc, &before, &after), 0);
	assert_true(pc.ran);
	assert_int_equal(pc.c.n, 0);
	assert_non_null(strstr(before, ": no mismatch found\n"));
	assert_string_equal(after, "peer check: no mismatch between the two "
				   "ports explains completion status 12 "
				   "(transport retry counter exceeded)\n"
				   "peer check: the tests' GIDs and MTUs were "
				   "not compared: rdmadiag peer --listen runs "
				   "no test\n"
				   "peer check: the test failed before its "
				   "RDMA part, on the TCP exchange, so no port "
				   "setting explains it\n");
	done(&pc, before, after);
}

/* A perftest server on the peer port: named, the test goes on without. */
static void test_perftest_peer(void **state)
{
	struct rd_peer_precheck pc;
	char *before, *after;

	(void)state;
	assert_true(check(1024, 1500, ANSWER_PERFTEST, &pc, &before, &after) < 0);
	assert_false(pc.ran);
	assert_non_null(strstr(before, "perftest"));
	assert_non_null(strstr(before, "; the test runs without it\n"));
	assert_non_null(strstr(after, "peer check: not made ("));
	assert_non_null(strstr(after, "no mismatch of the two ports is known"));
	done(&pc, before, after);
}

/* Nothing listens: one line, no crash, nothing claimed. */
static void test_nobody(void **state)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	struct rd_peer_precheck pc;
	struct box mine;
	char *out;
	size_t n;
	FILE *f = open_memstream(&out, &n);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	/* A port that was free a moment ago: bound, never listened on. */
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	box_init(&mine, 1024, 1500, 1);
	assert_true(rd_peer_precheck_run(&pc, &mine.s, NULL, 0, "127.0.0.1",
					 ntohs(sa.sin_port), 500, f) < 0);
	fclose(f);
	close(fd);
	assert_false(pc.ran);
	assert_non_null(strstr(out, "peer check: 127.0.0.1:"));
	assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
	rd_peer_precheck_free(&pc);
	free(out);
}

/* A device this host does not have: said, and nothing sent. */
static void test_no_such_device(void **state)
{
	struct rd_peer_precheck pc;
	struct box mine;

	(void)state;
	box_init(&mine, 1024, 1500, 1);
	assert_true(rd_peer_precheck_run(&pc, &mine.s, "mlx5_0", 1,
					 "127.0.0.1", 1, 500, NULL) < 0);
	assert_false(pc.ran);
	assert_non_null(strstr(pc.err, "mlx5_0"));
	rd_peer_precheck_free(&pc);
	assert_true(rd_peer_precheck_run(&pc, NULL, NULL, 0, "127.0.0.1", 1,
					 500, NULL) < 0);
	assert_false(pc.ran);
	assert_string_equal(pc.err, "this host's ports could not be read");
}

/*
 * Inside a test's channel: both sides run the check on one connection,
 * and the channel is still in step after it (the next message passes).
 * theirs NULL: that side could not read its ports and says so.
 */
static void inband_t(const struct box *mine, const struct box *theirs,
		     const struct rd_test_choice *mt,
		     const struct rd_test_choice *tt,
		     struct rd_peer_precheck *pc, char **out)
{
	struct perf_oob o = { .timeout_ms = 2000, .client = true };
	char buf[5] = "";
	size_t n;
	FILE *f;
	int sv[2];
	pid_t pid;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct perf_oob so = { .fd = sv[1], .timeout_ms = 2000 };
		struct rd_peer_precheck spc = { .ran = false };
		FILE *devnull = fopen("/dev/null", "w");
		int rc = 0;

		close(sv[0]);
		/* Everything freed before _exit: under valgrind the child's
		 * own leak check decides its exit status too. */
		if (rd_peer_precheck_inband(&spc, theirs ? &theirs->s : NULL,
					    "rxe0", 1, tt, &so, false,
					    "the client",
					    2000, devnull) < 0)
			rc = 7;
		else if (perf_oob_write(&so, "next", 5, "test") < 0)
			rc = 8;
		rd_peer_precheck_free(&spc);
		fclose(devnull);
		perf_oob_close(&so);
		_exit(rc);
	}
	close(sv[1]);
	/* Opened after the fork: the child must not inherit it. */
	f = open_memstream(out, &n);
	assert_non_null(f);
	o.fd = sv[0];
	assert_int_equal(rd_peer_precheck_inband(pc, &mine->s, "rxe0", 1, mt,
						 &o, true, "192.0.2.2:18515",
						 2000, f),
			 0);
	fclose(f);
	assert_int_equal(perf_oob_read(&o, buf, 5, 2000, "test"), 0);
	assert_string_equal(buf, "next");
	perf_oob_close(&o);
	reap(pid);
}

static void inband(const struct box *mine, const struct box *theirs,
		   struct rd_peer_precheck *pc, char **out)
{
	inband_t(mine, theirs, NULL, NULL, pc, out);
}

static void test_inband(void **state)
{
	struct rd_peer_precheck pc;
	struct box mine, theirs;
	char *out, *after;

	(void)state;
	box_init(&mine, 1024, 9000, 1);
	box_init(&theirs, 1024, 1500, 2);
	inband(&mine, &theirs, &pc, &out);
	assert_true(pc.ran);
	assert_int_equal(pc.c.n, 1);
	assert_non_null(strstr(out, "peer check with rdmadiag at "
				    "192.0.2.2:18515, in the test's channel: "
				    "1 mismatch\n"));
	assert_non_null(strstr(out, "  netdev MTU: here 9000 bytes, peer "
				    "1500 bytes\n"));
	after = explain(&pc, RETRY);
	assert_non_null(strstr(after, "most likely the netdev MTU mismatch"));
	done(&pc, out, after);

	/* The server cannot describe its port: said, and the channel holds. */
	inband(&mine, NULL, &pc, &out);
	assert_false(pc.ran);
	assert_non_null(strstr(out, "peer check: rdmadiag at 192.0.2.2:18515, "
				    "in the test's channel: 192.0.2.2:18515: "));
	assert_non_null(strstr(out, "this host's ports could not be read"));
	assert_non_null(strstr(out, "; the test runs without it\n"));
	after = explain(&pc, RETRY);
	assert_non_null(strstr(after, "so no mismatch of the two ports is "
				      "known\n"));
	done(&pc, out, after);
}

static struct rd_test_choice choice(int index, const uint8_t *gid,
				    unsigned mtu)
{
	struct rd_test_choice t = { .set = true, .gid_index = index,
				    .type = RD_TEST_GID_ROCE_V2, .mtu = mtu };

	memcpy(t.gid, gid, 16);
	return t;
}

/*
 * The tests' own choices travel with the summaries: a link-local GID here
 * against an IPv4 one on the peer is listed before the test, and named
 * first when the QP's move to RTR is refused or the wire loses every
 * packet; a peer that sends no choices (an older rdmadiag) is said.
 */
static void test_inband_choices(void **state)
{
	static const uint8_t ll[16] = { 0xfe, 0x80, [15] = 7 };
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, [12] = 192,
					[13] = 0, [14] = 2, [15] = 2 };
	struct rd_test_choice mt = choice(0, ll, 1024), tt = choice(1, v4, 1024);
	struct perf_fail rtr;
	struct rd_peer_precheck pc;
	struct box mine, theirs;
	char *out, *after;

	(void)state;
	box_init(&mine, 1024, 1500, 1);
	box_init(&theirs, 1024, 1500, 2);
	inband_t(&mine, &theirs, &mt, &tt, &pc, &out);
	assert_true(pc.ran);
	assert_int_equal(pc.nt, 1);
	assert_non_null(strstr(out, ": 1 mismatch\n  the test's GID: here "
				    "index 0, RoCE v2 fe80::7 (IPv6 "
				    "link-local), peer index 1, RoCE v2 "
				    "192.0.2.2 (IPv4)\n    breaks: the two "
				    "ends speak different address families; "
				    "RoCE v2 packets between them cannot be "
				    "routed: use -x 1 here\n"));
	rtr = perf_fail_of(PERF_FAIL_QP_RTR, ENETUNREACH);
	after = explain(&pc, &rtr);
	assert_non_null(strstr(after, "peer check: the QP's move to RTR was "
				      "refused (Network is unreachable): most "
				      "likely the test's GID mismatch (here "
				      "index 0, RoCE v2 fe80::7 (IPv6 "
				      "link-local), peer index 1"));
	free(after);
	after = explain(&pc, RETRY);
	assert_non_null(strstr(after, "(transport retry counter exceeded): "
				      "most likely the test's GID mismatch"));
	done(&pc, out, after);

	/* The same GID family on both: agreed, and said so. */
	mt = choice(1, v4, 1024);
	mt.gid[15] = 1;
	inband_t(&mine, &theirs, &mt, &tt, &pc, &out);
	assert_int_equal(pc.nt, 0);
	assert_non_null(strstr(out, "no mismatch found\n  the tests' GIDs "
				    "agree: here index 1, RoCE v2 192.0.2.1 "
				    "(IPv4), peer index 1, RoCE v2 192.0.2.2 "
				    "(IPv4)\n"));
	after = explain(&pc, RETRY);
	assert_string_equal(after, "peer check: no mismatch between the two "
				   "ports or the tests' choices explains "
				   "completion status 12 (transport retry "
				   "counter exceeded)\n");
	done(&pc, out, after);

	/* -R: rdma_cm picks both GIDs later; nothing to compare yet. */
	mt = (struct rd_test_choice){ .set = true, .by_cm = true,
				      .gid_index = -1, .mtu = 1024 };
	tt = mt;
	inband_t(&mine, &theirs, &mt, &tt, &pc, &out);
	assert_int_equal(pc.nt, 0);
	assert_non_null(strstr(out, "no mismatch found\n  the tests' GIDs: "
				    "rdma_cm picks them when it connects\n"));
	done(&pc, out, NULL);

	/* An older peer sends no choices. */
	inband_t(&mine, &theirs, &mt, NULL, &pc, &out);
	assert_non_null(strstr(out, "  the tests' GIDs and MTUs: not compared: "
				    "the peer's rdmadiag does not send them "
				    "(an older release)\n"));
	after = explain(&pc, RETRY);
	assert_non_null(strstr(after, "no mismatch between the two ports "
				      "explains completion status 12"));
	assert_non_null(strstr(after, "the tests' GIDs and MTUs were not "
				      "compared: the peer's rdmadiag"));
	done(&pc, out, after);
}

/*
 * A client that marked its version message and then announces a frame
 * over the limit, or sends half a frame and goes silent: the channel is
 * out of step, so the server's test ends with that reason, in one line.
 */
static void hostile_client(const char *bytes, size_t n, const char *want)
{
	struct perf_oob so = { .timeout_ms = 300 };
	struct rd_peer_precheck pc;
	struct box mine;
	int sv[2];

	box_init(&mine, 1024, 1500, 1);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], bytes, n), (ssize_t)n);
	so.fd = sv[1];
	assert_true(rd_peer_precheck_inband(&pc, &mine.s, "rxe0", 1, NULL, &so,
					    false,
					    "the client 192.0.2.9:4000", 300,
					    NULL) < 0);
	assert_false(pc.ran);
	if (!strstr(so.err, want))
		fail_msg("\"%s\" does not say \"%s\"", so.err, want);
	assert_null(strchr(so.err, '\n'));
	close(sv[0]);
	close(sv[1]);
}

static void test_inband_hostile(void **state)
{
	(void)state;
	hostile_client("\xff\xff\xff\xff", 4, "more than a frame holds");
	hostile_client("\0\0\0\x40{\"rdmadiag", 13, "then nothing for 300 ms");
	hostile_client("", 0, "then nothing for 300 ms");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mtu_mismatch),
		cmocka_unit_test(test_alike),
		cmocka_unit_test(test_perftest_peer),
		cmocka_unit_test(test_nobody),
		cmocka_unit_test(test_no_such_device),
		cmocka_unit_test(test_inband),
		cmocka_unit_test(test_inband_choices),
		cmocka_unit_test(test_inband_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
