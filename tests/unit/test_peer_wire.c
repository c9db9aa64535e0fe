// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer greeting tells rdmadiag from perftest and from anything else,
 * and frame headers refuse lengths over the cap.
 */
#include "config.h"

#include "unit.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello),
		cmocka_unit_test(test_greeting_claims),
		cmocka_unit_test(test_frame_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
