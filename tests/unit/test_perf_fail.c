// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test's failure records its kind where it happens: the out-of-band
 * channel on a socket pair whose other end closes, stays silent, sends
 * what is not perftest's, or is never there; a carrier's own record; and
 * the session that relays them keeps its first failure.
 */
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "perf/perf.h"

/* o on one end of a socket pair; returns the other end, the peer's. */
static int oob_pair(struct perf_oob *o, int timeout_ms)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	*o = (struct perf_oob){ .fd = sv[0], .timeout_ms = timeout_ms,
				.fail = PERF_FAIL_INIT };
	return sv[1];
}

static void expect(const struct perf_fail *f, enum perf_fail_kind kind,
		   int err)
{
	if (f->kind != kind || f->err != err)
		fail_msg("kind %d errno %d, want kind %d errno %d", f->kind,
			 f->err, kind, err);
	assert_int_equal(f->wc_status, -1);
	assert_int_equal(f->cm_event, -1);
}

static void test_oob_peer_closed(void **state)
{
	struct perf_oob o;
	char buf[8];

	(void)state;
	close(oob_pair(&o, 1000));
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 1000, "x"),
			 -ECONNRESET);
	expect(&o.fail, PERF_FAIL_OOB_CLOSED, ECONNRESET);
	assert_non_null(strstr(o.err, "peer closed the connection"));
	/* Writing to it: the same kind, with the errno send gave. */
	o.fail = PERF_FAIL_INIT;
	assert_int_equal(perf_oob_write(&o, "done", 5, "the goodbye"), -EPIPE);
	expect(&o.fail, PERF_FAIL_OOB_CLOSED, EPIPE);
	perf_oob_close(&o);
}

static void test_oob_silent(void **state)
{
	struct perf_oob o;
	char buf[16];
	int peer = oob_pair(&o, 50);

	(void)state;
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 50, "x"),
			 -ETIMEDOUT);
	expect(&o.fail, PERF_FAIL_OOB_SILENT, ETIMEDOUT);
	/* Part of a message, then nothing: silent too. */
	o.fail = PERF_FAIL_INIT;
	assert_int_equal(write(peer, "6.0", 3), 3);
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 50, "x"),
			 -ETIMEDOUT);
	expect(&o.fail, PERF_FAIL_OOB_SILENT, ETIMEDOUT);
	close(peer);
	perf_oob_close(&o);
}

static void test_oob_stopped(void **state)
{
	volatile sig_atomic_t stop = 1;
	struct perf_oob o;
	char buf[4];
	int peer = oob_pair(&o, 1000);

	(void)state;
	o.stop = &stop;
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 1000, "x"),
			 -EINTR);
	expect(&o.fail, PERF_FAIL_STOPPED, EINTR);
	close(peer);
	perf_oob_close(&o);
}

/* A loopback port that was free a moment ago: bound, never listened on. */
static uint16_t closed_port(int *fd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	*fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(*fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(*fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(*fd, (struct sockaddr *)&sa, &len), 0);
	return ntohs(sa.sin_port);
}

static void test_oob_no_server(void **state)
{
	struct perf_oob o = { .fd = -1, .fail = PERF_FAIL_INIT };
	int fd;
	uint16_t port = closed_port(&fd);

	(void)state;
	assert_int_equal(perf_oob_connect(&o, "127.0.0.1", port, 200),
			 -ECONNREFUSED);
	expect(&o.fail, PERF_FAIL_OOB, ECONNREFUSED);
	close(fd);
	/* A server nobody connects to within its wait. */
	o = (struct perf_oob){ .fd = -1, .timeout_ms = 50,
			       .fail = PERF_FAIL_INIT };
	assert_int_equal(perf_oob_accept(&o, "127.0.0.1", NULL, 0, 50),
			 -ETIMEDOUT);
	expect(&o.fail, PERF_FAIL_OOB, ETIMEDOUT);
	/* An address that is not one: this host's mistake. */
	o.fail = PERF_FAIL_INIT;
	assert_int_equal(perf_oob_accept(&o, "300.1.2.3", NULL, 0, 50),
			 -EINVAL);
	expect(&o.fail, PERF_FAIL_LOCAL, EINVAL);
}

/* A carrier that fails every call with r, and with rec when given. */
struct fake {
	int r;
	const struct perf_fail *rec;
};

static int fake_read(void *ctx, void *buf, size_t len, int timeout_ms,
		     const char *what)
{
	(void)buf, (void)len, (void)timeout_ms, (void)what;
	return ((struct fake *)ctx)->r;
}

static int fake_write(void *ctx, const void *buf, size_t len,
		      const char *what)
{
	(void)buf, (void)len, (void)what;
	return ((struct fake *)ctx)->r;
}

static bool fake_gone(void *ctx)
{
	(void)ctx;
	return false;
}

static const char *fake_err(void *ctx)
{
	(void)ctx;
	return "the carrier failed";
}

static const struct perf_fail *fake_fail(void *ctx)
{
	return ((struct fake *)ctx)->rec;
}

static void test_carrier(void **state)
{
	static const struct perf_oob_carrier with = {
		.read = fake_read, .write = fake_write, .peer_gone = fake_gone,
		.err = fake_err, .msg_max = 64, .fail = fake_fail,
	};
	static const struct perf_oob_carrier without = {
		.read = fake_read, .write = fake_write, .peer_gone = fake_gone,
		.err = fake_err, .msg_max = 64,
	};
	struct perf_fail cm = perf_fail_of(PERF_FAIL_CM, ETIMEDOUT);
	struct fake f = { .r = -ETIMEDOUT, .rec = &cm };
	struct perf_oob o = { .fd = -1, .carrier = &with, .carrier_ctx = &f,
			      .fail = PERF_FAIL_INIT };
	char buf[4];

	(void)state;
	/* Its own record travels as it is. */
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 50, "x"),
			 -ETIMEDOUT);
	expect(&o.fail, PERF_FAIL_CM, ETIMEDOUT);
	assert_string_equal(o.err, "the carrier failed");
	/* Without one, the errno says which. */
	o.carrier = &without;
	assert_int_equal(perf_oob_read(&o, buf, sizeof(buf), 50, "x"),
			 -ETIMEDOUT);
	expect(&o.fail, PERF_FAIL_OOB_SILENT, ETIMEDOUT);
	f.r = -ECONNRESET;
	assert_int_equal(perf_oob_write(&o, buf, sizeof(buf), "x"),
			 -ECONNRESET);
	expect(&o.fail, PERF_FAIL_OOB_CLOSED, ECONNRESET);
	f.r = -EPROTO;
	assert_int_equal(perf_oob_write(&o, buf, sizeof(buf), "x"), -EPROTO);
	expect(&o.fail, PERF_FAIL_OOB, EPROTO);
}

/* A client session of one QP on one end of a socket pair. */
struct sess {
	struct perf_opts o;
	struct perf_session s;
	struct perf_oob_keys keys;
	int peer;
};

static void sess_init(struct sess *x)
{
	memset(x, 0, sizeof(*x));
	x->peer = oob_pair(&x->s.oob, 100);
	x->s.oob.client = true;
	x->o = (struct perf_opts){ .role = PERF_CLIENT, .op = PERF_OP_WRITE,
				   .nqp = 1, .timeout_ms = 100 };
	x->keys = (struct perf_oob_keys){ .lid = 1, .qpn = 0x11, .psn = 7 };
	x->s.o = &x->o;
	x->s.fail = PERF_FAIL_INIT;
	x->s.a.nqp = 1;
	x->s.a.mine = &x->keys;
}

static void sess_free(struct sess *x)
{
	perf_oob_close(&x->s.oob);
	if (x->peer >= 0)
		close(x->peer);
}

/* The peer's half of a barrier: this side's keys read, its own sent. */
static void peer_keys(struct sess *x)
{
	char buf[PERF_OOB_KEYS_LEN];

	assert_int_equal(perf_oob_keys_encode(&x->keys, false, buf,
					      sizeof(buf)),
			 PERF_OOB_KEYS_LEN);
	assert_int_equal(write(x->peer, buf, sizeof(buf)), sizeof(buf));
}

static void test_session_relays(void **state)
{
	struct sess x;

	(void)state;
	/* The peer is gone: the barrier's write finds it so. */
	sess_init(&x);
	close(x.peer);
	x.peer = -1;
	assert_true(perf_session_barrier(&x.s, 100) < 0);
	expect(&x.s.fail, PERF_FAIL_OOB_CLOSED, EPIPE);
	assert_non_null(strstr(x.s.err, "the synchronisation message"));
	sess_free(&x);

	/* The peer is there and says nothing. */
	sess_init(&x);
	assert_int_equal(perf_session_barrier(&x.s, 100), -ETIMEDOUT);
	expect(&x.s.fail, PERF_FAIL_OOB_SILENT, ETIMEDOUT);
	sess_free(&x);

	/* The peer answers with what are not QP keys. */
	sess_init(&x);
	{
		char junk[PERF_OOB_KEYS_LEN];

		memset(junk, 'z', sizeof(junk));
		assert_int_equal(write(x.peer, junk, sizeof(junk)),
				 sizeof(junk));
	}
	assert_true(perf_session_barrier(&x.s, 100) < 0);
	assert_int_equal(x.s.fail.kind, PERF_FAIL_OOB);
	assert_true(x.s.fail.err > 0);
	assert_non_null(strstr(x.s.err, "bad the synchronisation message"));
	sess_free(&x);

	/* The bandwidth test's report: the barrier passes, then the peer
	 * closes before its report. */
	sess_init(&x);
	peer_keys(&x);
	shutdown(x.peer, SHUT_WR);
	{
		struct perf_bw_result last = { .size = 64, .iters = 10 };

		assert_true(perf_bw_finish(&x.s, &last) < 0);
	}
	expect(&x.s.fail, PERF_FAIL_OOB_CLOSED, ECONNRESET);
	assert_non_null(strstr(x.s.err, "the bandwidth report"));
	sess_free(&x);
}

/* Ctrl-C, and the peer gone between two checks. */
static void test_should_stop(void **state)
{
	volatile sig_atomic_t stop = 1;
	struct sess x;

	(void)state;
	sess_init(&x);
	x.s.stop = &stop;
	assert_true(perf_should_stop(&x.s, "the bandwidth test"));
	expect(&x.s.fail, PERF_FAIL_STOPPED, 0);
	sess_free(&x);

	sess_init(&x);
	close(x.peer);
	x.peer = -1;
	assert_true(perf_should_stop(&x.s, "the latency test"));
	expect(&x.s.fail, PERF_FAIL_OOB_CLOSED, 0);
	sess_free(&x);
}

/* The first failure is the cause: what follows does not replace it. */
static void test_first_counts(void **state)
{
	volatile sig_atomic_t stop = 0;
	struct sess x;
	char first[sizeof(x.s.err)];

	(void)state;
	sess_init(&x);
	x.s.stop = &stop;
	assert_int_equal(perf_session_barrier(&x.s, 100), -ETIMEDOUT);
	snprintf(first, sizeof(first), "%s", x.s.err);
	stop = 1;
	assert_true(perf_should_stop(&x.s, "the bandwidth test"));
	assert_int_equal(perf_err(&x.s, -ENOMEM, PERF_FAIL_LOCAL,
				  "out of memory"),
			 -ENOMEM);
	assert_int_equal(perf_failed(&x.s, -EIO, PERF_FAIL_LOCAL), -EIO);
	expect(&x.s.fail, PERF_FAIL_OOB_SILENT, ETIMEDOUT);
	assert_string_equal(x.s.err, first);
	sess_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oob_peer_closed),
		cmocka_unit_test(test_oob_silent),
		cmocka_unit_test(test_oob_stopped),
		cmocka_unit_test(test_oob_no_server),
		cmocka_unit_test(test_carrier),
		cmocka_unit_test(test_session_relays),
		cmocka_unit_test(test_should_stop),
		cmocka_unit_test(test_first_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
