// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer greeting tells rdmadiag from perftest and from anything else,
 * and frame headers refuse lengths over the cap.
 */
#include "config.h"

#include "unit.h"

#include <pthread.h>
#include <sys/socket.h>

#include "core/escape.h"
#include "peer/session.h"
#include "peer/wire.h"
#include "perf/oob.h"

static enum rd_peer_hello classify(const char *bytes, size_t n, unsigned *proto,
				   char *what, size_t len)
{
	char buf[RD_PEER_HELLO_LEN] = { 0 };

	memcpy(buf, bytes, n);
	return rd_peer_hello_classify(buf, proto, what, len);
}

static void test_hello(void **state)
{
	char buf[RD_PEER_HELLO_LEN], what[64];
	unsigned proto;

	(void)state;
	rd_peer_hello_encode(buf);
	assert_int_equal(rd_peer_hello_classify(buf, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_OK);
	assert_int_equal(proto, RD_PEER_PROTOCOL);
	assert_int_equal(buf[RD_PEER_HELLO_LEN - 1], 0);
	assert_int_equal(classify("rdmadiag-peer/27", 16, &proto, what,
				  sizeof(what)), RD_PEER_HELLO_OTHER);
	assert_int_equal(classify("rdmadiag-peer/7", 15, &proto, what,
				  sizeof(what)), RD_PEER_HELLO_OK);
	assert_int_equal(proto, 7);
	assert_int_equal(classify("rdmadiag-peer/0", 15, &proto, what,
				  sizeof(what)), RD_PEER_HELLO_OTHER);
	assert_int_equal(classify("rdmadiag-peer/", 14, &proto, what,
				  sizeof(what)), RD_PEER_HELLO_OTHER);
	/* perftest's version message. */
	assert_int_equal(classify("6.06", 4, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_PERFTEST);
	assert_string_equal(what, "6.06");
	assert_int_equal(classify("5.70x", 5, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_OTHER);
	assert_int_equal(classify("6.", 2, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_OTHER);
	/* Anything else is described, escaped. */
	assert_int_equal(classify("\x1b[2J\xff", 5, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_OTHER);
	assert_true(rd_text_clean(what, strlen(what)));
	assert_non_null(strstr(what, "\\x1b"));
	assert_int_equal(classify("", 0, &proto, what, sizeof(what)),
			 RD_PEER_HELLO_OTHER);
}

/*
 * A bw/lat server's first 16 bytes from a client: the peer greeting is
 * taken aside; perftest's version message, marked or not, and anything
 * else go to the test's exchange as before.
 */
static void test_greeting_claims(void **state)
{
	char buf[RD_PEER_HELLO_LEN];

	(void)state;
	rd_peer_hello_encode(buf);
	assert_true(rd_peer_greeting_claims(buf, sizeof(buf)));
	assert_false(rd_peer_greeting_claims(buf, sizeof(buf) - 1));
	perf_oob_version_encode("6.06", buf, sizeof(buf));
	assert_false(rd_peer_greeting_claims(buf, sizeof(buf)));
	perf_oob_version_mark(buf, sizeof(buf), PERF_OOB_MARK_PROTO);
	assert_false(rd_peer_greeting_claims(buf, sizeof(buf)));
	memcpy(buf, "rdmadiag-peer/1x", 16);
	assert_false(rd_peer_greeting_claims(buf, sizeof(buf)));
	memset(buf, 0, sizeof(buf));
	assert_false(rd_peer_greeting_claims(buf, sizeof(buf)));
}

static void test_frame_header(void **state)
{
	uint8_t hdr[4];
	size_t len;

	(void)state;
	assert_int_equal(rd_peer_frame_header(0x1234, hdr), 0);
	assert_memory_equal(hdr, "\x00\x00\x12\x34", 4);
	assert_int_equal(rd_peer_frame_length(hdr, &len), 0);
	assert_int_equal(len, 0x1234);
	assert_int_equal(rd_peer_frame_header(RD_PEER_FRAME_MAX, hdr), 0);
	assert_int_equal(rd_peer_frame_length(hdr, &len), 0);
	assert_int_equal(rd_peer_frame_header(RD_PEER_FRAME_MAX + 1, hdr), -E2BIG);
	memcpy(hdr, "\xff\xff\xff\xff", 4);
	assert_int_equal(rd_peer_frame_length(hdr, &len), -E2BIG);
	assert_int_equal(len, 0xffffffffu);
}

/*
 * A carrier like -R's rdma_cm QP: one message per write, at most 64
 * bytes, a read must ask for exactly the message's length, and the other
 * side holds one receive: a second message sent before the first was read
 * is an error (counted in ahead).
 */
struct small {
	int fd;
	int *queued;	/* messages sent to the other side, not yet read */
	int *mine;	/* messages sent to this side, not yet read */
	int ahead;
	char err[64];
};

static int small_read(void *ctx, void *buf, size_t len, int timeout_ms,
		      const char *what)
{
	struct small *c = ctx;
	ssize_t n;

	(void)timeout_ms;
	(void)what;
	n = recv(c->fd, buf, len, MSG_TRUNC);
	if (n != (ssize_t)len) {
		snprintf(c->err, sizeof(c->err), "message of %zd bytes, read "
			 "of %zu", n, len);
		return -EPROTO;
	}
	__atomic_sub_fetch(c->mine, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int small_write(void *ctx, const void *buf, size_t len,
		       const char *what)
{
	struct small *c = ctx;

	(void)what;
	if (len > 64) {
		snprintf(c->err, sizeof(c->err), "%zu bytes: too long", len);
		return -EINVAL;
	}
	if (__atomic_add_fetch(c->queued, 1, __ATOMIC_SEQ_CST) > 1)
		c->ahead++;
	return send(c->fd, buf, len, 0) == (ssize_t)len ? 0 : -EIO;
}

static bool small_gone(void *ctx)
{
	(void)ctx;
	return false;
}

static const char *small_err(void *ctx)
{
	return ((struct small *)ctx)->err;
}

static const struct perf_oob_carrier small_carrier = {
	small_read, small_write, small_gone, small_err, 64,
};

struct sender {
	struct perf_oob o;
	const char *text;
	size_t len;
	int r;
};

static void *send_frame(void *arg)
{
	struct sender *s = arg;

	s->r = rd_peer_frame_send(&s->o, s->text, s->len, "test");
	return NULL;
}

static void test_frame_in_pieces(void **state)
{
	static const size_t lens[] = { 0, 1, 63, 64, 65, 1000, 4099 };
	int ab = 0, ba = 0, sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		struct small ca = { sv[0], &ab, &ba, 0, "" };
		struct small cb = { sv[1], &ba, &ab, 0, "" };
		struct sender s = { .o = { .timeout_ms = 2000,
					   .carrier = &small_carrier,
					   .carrier_ctx = &ca } };
		struct perf_oob rx = { .timeout_ms = 2000,
				       .carrier = &small_carrier,
				       .carrier_ctx = &cb };
		char *text = malloc(lens[k] + 1), *got = NULL;
		size_t len = 0;
		pthread_t t;

		assert_non_null(text);
		for (size_t i = 0; i < lens[k]; i++)
			text[i] = (char)('a' + i % 26);
		s.text = text;
		s.len = lens[k];
		assert_int_equal(pthread_create(&t, NULL, send_frame, &s), 0);
		assert_int_equal(rd_peer_frame_recv(&rx, &got, &len, 2000,
						    "test"), 0);
		assert_int_equal(pthread_join(t, NULL), 0);
		if (s.r != 0)
			fail_msg("send: %s", ca.err);
		assert_int_equal(len, lens[k]);
		assert_memory_equal(got, text, lens[k]);
		/* Never a message sent before the last was taken. */
		assert_int_equal(ca.ahead, 0);
		assert_int_equal(cb.ahead, 0);
		free(got);
		free(text);
	}
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello),
		cmocka_unit_test(test_greeting_claims),
		cmocka_unit_test(test_frame_header),
		cmocka_unit_test(test_frame_in_pieces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
