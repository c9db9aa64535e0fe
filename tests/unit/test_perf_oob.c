// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include "core/escape.h"
#include "perf/oob.h"

/* What perftest 6.06 writes for these keys (KEY_PRINT_FMT, NUL included). */
static const char plain_wire[PERF_OOB_KEYS_LEN] =
	"0001:0001:000011:5b1c7a:00000203:00007f0012345000:00000000";

static const char gid_wire[PERF_OOB_KEYS_GID_LEN] =
	"0000:0010:000012:abcdef:0000f00d:0000555500001000:"
	"00:00:00:00:00:00:00:00:00:00:ff:ff:c0:00:02:01:00000000:";

static void test_keys_plain_roundtrip(void **state)
{
	struct perf_oob_keys k = { .lid = 1,
				   .out_reads = 1,
				   .qpn = 0x11,
				   .psn = 0x5b1c7a,
				   .rkey = 0x203,
				   .vaddr = 0x7f0012345000ull };
	struct perf_oob_keys d;
	char buf[PERF_OOB_KEYS_GID_LEN], err[200];

	(void)state;
	assert_int_equal(sizeof(plain_wire), 59);
	assert_int_equal(perf_oob_keys_encode(&k, false, buf, sizeof(buf)),
			 PERF_OOB_KEYS_LEN);
	assert_memory_equal(buf, plain_wire, PERF_OOB_KEYS_LEN);
	assert_int_equal(perf_oob_keys_decode(plain_wire, sizeof(plain_wire),
					      false, &d, err, sizeof(err)),
			 0);
	assert_int_equal(d.lid, 1);
	assert_int_equal(d.qpn, 0x11);
	assert_int_equal(d.psn, 0x5b1c7a);
	assert_int_equal(d.rkey, 0x203);
	assert_true(d.vaddr == 0x7f0012345000ull);
}

static void test_keys_gid_roundtrip(void **state)
{
	struct perf_oob_keys k = { .lid = 0,
				   .out_reads = 0x10,
				   .qpn = 0x12,
				   .psn = 0xabcdef,
				   .rkey = 0xf00d,
				   .vaddr = 0x555500001000ull,
				   .gid = { [10] = 0xff,
					    [11] = 0xff,
					    [12] = 192,
					    [13] = 0,
					    [14] = 2,
					    [15] = 1 } };
	struct perf_oob_keys d;
	char buf[PERF_OOB_KEYS_GID_LEN], err[200];

	(void)state;
	assert_int_equal(sizeof(gid_wire), 108);
	assert_int_equal(perf_oob_keys_encode(&k, true, buf, sizeof(buf)),
			 PERF_OOB_KEYS_GID_LEN);
	assert_memory_equal(buf, gid_wire, PERF_OOB_KEYS_GID_LEN);
	assert_int_equal(perf_oob_keys_decode(gid_wire, sizeof(gid_wire), true,
					      &d, err, sizeof(err)),
			 0);
	assert_memory_equal(d.gid, k.gid, 16);
	assert_int_equal(d.out_reads, 0x10);
	assert_int_equal(d.psn, 0xabcdef);
	/* Uppercase hex is still hex. */
	memcpy(buf, gid_wire, sizeof(gid_wire));
	buf[17] = 'A';
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(gid_wire), true, &d,
					      err, sizeof(err)),
			 0);
	assert_int_equal(d.psn, 0xabcdef);
}

static void test_keys_hostile(void **state)
{
	struct perf_oob_keys d, k = { .qpn = 0x1000000 };
	char buf[PERF_OOB_KEYS_GID_LEN], err[200];

	(void)state;
	/* Wrong size either way. */
	assert_int_equal(perf_oob_keys_decode(plain_wire, 58, false, &d, err,
					      sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "58 bytes"));
	assert_int_equal(perf_oob_keys_decode(gid_wire, sizeof(gid_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	/* A 59-byte message read as the GID form is short. */
	assert_int_equal(perf_oob_keys_decode(plain_wire, sizeof(plain_wire),
					      true, &d, err, sizeof(err)),
			 -EPROTO);
	/* Non-hex digit. */
	memcpy(buf, plain_wire, sizeof(plain_wire));
	buf[12] = 'g';
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(plain_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "QPN"));
	/* Separator moved. */
	memcpy(buf, plain_wire, sizeof(plain_wire));
	buf[4] = '-';
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(plain_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	/* No terminating NUL. */
	memcpy(buf, plain_wire, sizeof(plain_wire));
	buf[58] = 'x';
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(plain_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	memcpy(buf, gid_wire, sizeof(gid_wire));
	buf[107] = '!';
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(gid_wire), true, &d,
					      err, sizeof(err)),
			 -EPROTO);
	/* Special QPs and absurd outstanding reads are refused. */
	memcpy(buf, plain_wire, sizeof(plain_wire));
	memcpy(buf + 10, "000001", 6);
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(plain_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	memcpy(buf, plain_wire, sizeof(plain_wire));
	memcpy(buf + 5, "ffff", 4);
	assert_int_equal(perf_oob_keys_decode(buf, sizeof(plain_wire), false,
					      &d, err, sizeof(err)),
			 -EPROTO);
	/* All garbage, all zero bytes. */
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(perf_oob_keys_decode(buf, PERF_OOB_KEYS_GID_LEN, true,
					      &d, err, sizeof(err)),
			 -EPROTO);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(perf_oob_keys_decode(buf, PERF_OOB_KEYS_LEN, false, &d,
					      err, sizeof(err)),
			 -EPROTO);
	/* A QPN wider than 24 bits would shift the peer's fields. */
	assert_int_equal(perf_oob_keys_encode(&k, false, buf, sizeof(buf)),
			 -ERANGE);
	assert_int_equal(perf_oob_keys_encode(&k, false, buf, 10), -ENOSPC);
}

static void test_version(void **state)
{
	char buf[PERF_OOB_VERSION_LEN], err[200];
	unsigned v;

	(void)state;
	assert_int_equal(perf_oob_version_encode("6.06", buf, sizeof(buf)), 16);
	assert_string_equal(buf, "6.06");
	for (int i = 4; i < 16; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, 606);
	memset(buf, 0, sizeof(buf));
	strcpy(buf, "5.7");
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, 570);
	strcpy(buf, "6.28");
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, 628);
	/* Not terminated, not a number, wrong size, trailing junk. */
	memset(buf, 'A', sizeof(buf));
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 -EPROTO);
	memset(buf, 0, sizeof(buf));
	strcpy(buf, "GET / HTTP");
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(perf_oob_version_decode(buf, 8, &v, err, sizeof(err)),
			 -EPROTO);
	memset(buf, 0, sizeof(buf));
	strcpy(buf, "6.06x");
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 -EPROTO);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(
		perf_oob_version_encode("0123456789abcdef", buf, sizeof(buf)),
		-ENOSPC);
}

/* The error names what the peer sent, but never passes its bytes raw to
 * the terminal (found by tests/fuzz/fuzz_oob). */
static void test_version_error_is_text(void **state)
{
	char buf[PERF_OOB_VERSION_LEN] = "6.05\xf9\x1b[2J\"\\";
	char err[200];
	unsigned v;

	(void)state;
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err,
						 sizeof(err)),
			 -EPROTO);
	assert_string_equal(err, "version \"6.05\\xf9\\x1b[2J\\x22\\x5c\" "
				 "is not a perftest version");
	memset(buf, 0xff, sizeof(buf));
	buf[15] = '\0';
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err,
						 sizeof(err)),
			 -EPROTO);
	for (const char *p = err; *p; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
	assert_non_null(strstr(err, "\\xff\\xff"));
}

/*
 * rdmadiag's mark sits after the version's NUL, where perftest (atof,
 * strverscmp) never reads: the version still decodes as 6.06, and a
 * stock message, zeros after the NUL, has no mark.
 */
static void test_version_mark(void **state)
{
	char buf[PERF_OOB_VERSION_LEN], err[200];
	unsigned v = 0;

	(void)state;
	perf_oob_version_encode("6.06", buf, sizeof(buf));
	assert_int_equal(perf_oob_version_marked(buf, sizeof(buf)), 0);
	assert_int_equal(perf_oob_version_mark(buf, sizeof(buf), 1), 0);
	assert_memory_equal(buf, "6.06\0rdmadiag/1\0", 16);
	assert_int_equal(perf_oob_version_marked(buf, sizeof(buf)), 1);
	/* What perftest reads of it. */
	assert_string_equal(buf, "6.06");
	assert_true(atof(buf) == 6.06);
	assert_int_equal(perf_oob_version_decode(buf, 16, &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, 606);
	/* A wrong length, a wrong word, a missing NUL or trailing bytes:
	 * no mark. */
	assert_int_equal(perf_oob_version_marked(buf, 15), 0);
	buf[6] = 'R';
	assert_int_equal(perf_oob_version_marked(buf, 16), 0);
	perf_oob_version_mark(buf, sizeof(buf), 1);
	buf[15] = 'x';
	assert_int_equal(perf_oob_version_marked(buf, 16), 0);
	memcpy(buf, "6.06\0rdmadiag/0\0", 16);
	assert_int_equal(perf_oob_version_marked(buf, 16), 0);
	memcpy(buf, "0123456789abcdef", 16);
	assert_int_equal(perf_oob_version_marked(buf, 16), 0);
	/* No room after a long version, no protocol 0 or 10. */
	perf_oob_version_encode("6.0612345", buf, sizeof(buf));
	assert_int_equal(perf_oob_version_mark(buf, sizeof(buf), 1), -ENOSPC);
	perf_oob_version_encode("6.06", buf, sizeof(buf));
	assert_int_equal(perf_oob_version_mark(buf, sizeof(buf), 0), -ENOSPC);
	assert_int_equal(perf_oob_version_mark(buf, sizeof(buf), 10), -ENOSPC);
	assert_int_equal(perf_oob_version_marked(buf, 16), 0);
}

static void test_sysdata_mtu(void **state)
{
	uint8_t b[8];
	char m[2], err[200];
	uint32_t cb, cl;
	int e;

	(void)state;
	perf_oob_sysdata_encode(4096, 64, b);
	assert_memory_equal(b, "\x00\x00\x10\x00\x00\x00\x00\x40", 8);
	assert_int_equal(
		perf_oob_sysdata_decode(b, 8, &cb, &cl, err, sizeof(err)), 0);
	assert_int_equal(cb, 4096);
	assert_int_equal(cl, 64);
	/* Little-endian by mistake, zero, not a power of two, short. */
	memcpy(b, "\x00\x10\x00\x00\x40\x00\x00\x00", 8);
	assert_int_equal(
		perf_oob_sysdata_decode(b, 8, &cb, &cl, err, sizeof(err)),
		-EPROTO);
	memset(b, 0, 8);
	assert_int_equal(
		perf_oob_sysdata_decode(b, 8, &cb, &cl, err, sizeof(err)),
		-EPROTO);
	perf_oob_sysdata_encode(4096, 65, b);
	assert_int_equal(
		perf_oob_sysdata_decode(b, 8, &cb, &cl, err, sizeof(err)),
		-EPROTO);
	assert_int_equal(
		perf_oob_sysdata_decode(b, 4, &cb, &cl, err, sizeof(err)),
		-EPROTO);

	assert_int_equal(perf_oob_mtu_encode(3, m, sizeof(m)), 2);
	assert_memory_equal(m, "3\0", 2);
	assert_int_equal(perf_oob_mtu_decode(m, 2, &e, err, sizeof(err)), 0);
	assert_int_equal(e, 3);
	assert_int_equal(perf_oob_mtu_encode(0, m, sizeof(m)), -ERANGE);
	assert_int_equal(perf_oob_mtu_encode(6, m, sizeof(m)), -ERANGE);
	assert_int_equal(perf_oob_mtu_decode("6", 2, &e, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(perf_oob_mtu_decode("0", 2, &e, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(perf_oob_mtu_decode("55", 2, &e, err, sizeof(err)),
			 -EPROTO);
	assert_int_equal(
		perf_oob_mtu_decode("\xff\xfe", 2, &e, err, sizeof(err)),
		-EPROTO);
	assert_int_equal(perf_oob_mtu_decode("5", 1, &e, err, sizeof(err)),
			 -EPROTO);
}

static void test_report(void **state)
{
	struct perf_oob_report r = { .size = 65536,
				     .iters = 5000,
				     .bw_peak = 1234.5,
				     .bw_avg = 1200.25,
				     .msg_rate = 0.0192 };
	struct perf_oob_report d = { 0 };
	uint8_t b[8], want_size[8] = { 0, 0, 0, 0, 0, 1, 0, 0 };
	/* 1234.5 as an IEEE double, most significant byte first. */
	uint8_t want_peak[8] = { 0x40, 0x93, 0x4a, 0, 0, 0, 0, 0 };
	char err[200];

	(void)state;
	perf_oob_report_field_encode(&r, 0, b);
	assert_memory_equal(b, want_size, 8);
	perf_oob_report_field_encode(&r, 2, b);
	assert_memory_equal(b, want_peak, 8);
	for (int i = 0; i < PERF_OOB_REPORT_FIELDS; i++) {
		perf_oob_report_field_encode(&r, i, b);
		assert_int_equal(perf_oob_report_field_decode(b, i, &d, err,
							      sizeof(err)),
				 0);
	}
	assert_true(d.size == 65536 && d.iters == 5000);
	assert_true(d.bw_peak == 1234.5 && d.bw_avg == 1200.25 &&
		    d.msg_rate == 0.0192);
	/* NaN, negative, infinite, zero size, absurd iterations. */
	r.bw_avg = NAN;
	perf_oob_report_field_encode(&r, 3, b);
	assert_int_equal(
		perf_oob_report_field_decode(b, 3, &d, err, sizeof(err)),
		-EPROTO);
	r.bw_avg = -1;
	perf_oob_report_field_encode(&r, 3, b);
	assert_int_equal(
		perf_oob_report_field_decode(b, 3, &d, err, sizeof(err)),
		-EPROTO);
	r.msg_rate = INFINITY;
	perf_oob_report_field_encode(&r, 4, b);
	assert_int_equal(
		perf_oob_report_field_decode(b, 4, &d, err, sizeof(err)),
		-EPROTO);
	assert_string_equal(err, "peer's report: message rate inf is not a "
				 "rate");
	r.size = 0;
	perf_oob_report_field_encode(&r, 0, b);
	assert_int_equal(
		perf_oob_report_field_decode(b, 0, &d, err, sizeof(err)),
		-EPROTO);
	assert_string_equal(err,
			    "peer's report: message size 0 is out of range");
	memset(b, 0xff, 8);
	assert_int_equal(
		perf_oob_report_field_decode(b, 1, &d, err, sizeof(err)),
		-EPROTO);
	assert_non_null(strstr(err, "iterations 18446744073709551615 is out"));
	assert_int_equal(
		perf_oob_report_field_decode(b, 7, &d, err, sizeof(err)),
		-EPROTO);
	/* Nothing is read from a field that does not exist. */
	perf_oob_report_field_encode(&r, 7, b);
	assert_memory_equal(b, (uint8_t[8]){ 0 }, 8);
	/* A rejected field leaves what was decoded before it. */
	assert_true(d.size == 65536 && d.iters == 5000);
}

/* ---- the socket side: short, silent and closing peers ---- */

struct peer {
	int fd;
	const char *send;
	size_t len;
	int linger_ms;
};

static void *peer_main(void *arg)
{
	struct peer *p = arg;

	if (p->len && write(p->fd, p->send, p->len) < 0)
		return NULL;
	usleep((useconds_t)p->linger_ms * 1000);
	close(p->fd);
	return NULL;
}

static void with_peer(const char *data, size_t len, int linger_ms, size_t want,
		      int timeout_ms, int expect, const char *msg)
{
	int sv[2];
	pthread_t th;
	struct peer p;
	struct perf_oob o = { .timeout_ms = timeout_ms };
	char buf[256];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	o.fd = sv[0];
	p = (struct peer){
		.fd = sv[1], .send = data, .len = len, .linger_ms = linger_ms
	};
	assert_int_equal(pthread_create(&th, NULL, peer_main, &p), 0);
	assert_int_equal(perf_oob_read(&o, buf, want, timeout_ms, "test data"),
			 expect);
	if (msg)
		assert_non_null(strstr(o.err, msg));
	pthread_join(th, NULL);
	close(sv[0]);
}

static void test_socket_read(void **state)
{
	(void)state;
	/* Whole message. */
	with_peer("0123456789abcdef", 16, 0, 16, 1000, 0, NULL);
	/* Short then silent: timeout, saying how much came. */
	with_peer("0123", 4, 800, 16, 200, -ETIMEDOUT, "4 of 16 bytes");
	/* Silent. */
	with_peer("", 0, 800, 16, 200, -ETIMEDOUT, "0 of 16 bytes");
	/* Short then closed. */
	with_peer("01234567", 8, 0, 16, 1000, -ECONNRESET, "closed");
}

static void test_socket_stop(void **state)
{
	int sv[2];
	volatile sig_atomic_t stop = 1;
	struct perf_oob o = { .timeout_ms = -1, .stop = &stop };
	char buf[4];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	o.fd = sv[0];
	assert_int_equal(perf_oob_read(&o, buf, 4, -1, "x"), -EINTR);
	assert_false(perf_oob_peer_gone(&o));
	close(sv[1]);
	assert_true(perf_oob_peer_gone(&o));
	close(sv[0]);
}

static void test_connect_refused(void **state)
{
	struct perf_oob o = { .timeout_ms = 300 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int fd;

	(void)state;
	/* A port nobody listens on: bind one, note it, close it. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	close(fd);
	assert_int_equal(
		perf_oob_connect(&o, "127.0.0.1", ntohs(sa.sin_port), 300),
		-ECONNREFUSED);
	assert_non_null(strstr(o.err, "no server listening"));
	assert_int_equal(perf_oob_connect(&o, "no-such-host.invalid", 1, 300),
			 -EHOSTUNREACH);
}

struct server_run {
	struct perf_oob o;
	const char *addr, *addr2;
	uint16_t port;
	int r;
	char got[8];
};

/* Accept one client, answer two messages, then hang up. */
static void *serve_one(void *arg)
{
	struct server_run *sr = arg;

	sr->r = perf_oob_accept(&sr->o, sr->addr, sr->addr2, sr->port, 5000);
	if (sr->r < 0)
		return NULL;
	for (int i = 0; i < 2 && sr->r == 0; i++) {
		sr->r = perf_oob_read(&sr->o, sr->got, 4, 5000, "test");
		if (sr->r == 0)
			sr->r = perf_oob_write(&sr->o, i ? "done" : "pong", 4,
					       "test");
	}
	perf_oob_close(&sr->o);
	return NULL;
}

static uint16_t free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/*
 * A second client is refused while the first one's run goes on: the
 * server listens on a loopback address and on 127.0.0.1, as on a port's
 * netdev address and loopback, and the first client came through either.
 */
static void second_peer_refused(const char *first)
{
	struct server_run sr = { .o = { .timeout_ms = 5000 },
				 .addr = "127.0.0.2", .addr2 = "127.0.0.1" };
	struct perf_oob c1 = { .timeout_ms = 2000 }, c2 = { .timeout_ms = 300 };
	char buf[8] = "";
	pthread_t t;

	sr.port = free_port();
	assert_int_equal(pthread_create(&t, NULL, serve_one, &sr), 0);
	assert_int_equal(perf_oob_connect(&c1, first, sr.port, 2000), 0);
	assert_int_equal(perf_oob_write(&c1, "ping", 4, "test"), 0);
	assert_int_equal(perf_oob_read(&c1, buf, 4, 2000, "test"), 0);
	assert_memory_equal(buf, "pong", 4);
	/* The first client is being served: nobody else gets in. */
	assert_int_equal(perf_oob_connect(&c2, "127.0.0.1", sr.port, 300),
			 -ECONNREFUSED);
	assert_int_equal(perf_oob_connect(&c2, "127.0.0.2", sr.port, 300),
			 -ECONNREFUSED);
	/* And the first client's run was not disturbed. */
	assert_int_equal(perf_oob_write(&c1, "more", 4, "test"), 0);
	assert_int_equal(perf_oob_read(&c1, buf, 4, 2000, "test"), 0);
	assert_memory_equal(buf, "done", 4);
	perf_oob_close(&c1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(sr.r, 0);
	assert_memory_equal(sr.got, "more", 4);
	/* The client's own address: loopback, whichever it was sent to. */
	assert_true(strncmp(sr.o.peer, "127.0.0.", 8) == 0);
	assert_non_null(strchr(sr.o.peer, ':'));
}

static void test_second_peer_refused(void **state)
{
	(void)state;
	second_peer_refused("127.0.0.2");
	second_peer_refused("127.0.0.1");
}

/* --bind takes only an IPv4 address; a bad one is refused with its text. */
static void test_bind_address(void **state)
{
	struct perf_oob o = { .timeout_ms = 300 };

	(void)state;
	assert_int_equal(perf_oob_accept(&o, "eth0\x1b[2J", NULL, 1, 100), -EINVAL);
	assert_non_null(strstr(o.err, "invalid IPv4 address \"eth0\\x1b[2J\""));
	/* Nobody connects to a listener on this host's loopback: timeout. */
	assert_int_equal(perf_oob_accept(&o, "127.0.0.1", NULL, free_port(), 200),
			 -ETIMEDOUT);
}

/* A message too long for o.err is cut before a whole character. */
static void test_err_cut_whole_chars(void **state)
{
	struct perf_oob o = { .timeout_ms = 300 };
	char addr[2 * 200 + 1];

	(void)state;
	for (size_t i = 0; i < 200; i++)
		memcpy(addr + 2 * i, "\xc3\xa9", 2); /* U+00E9 */
	addr[sizeof(addr) - 1] = '\0';
	assert_int_equal(perf_oob_accept(&o, addr, NULL, 1, 100), -EINVAL);
	assert_true(strlen(o.err) > 200 && strlen(o.err) < sizeof(o.err));
	assert_true(rd_text_clean(o.err, strlen(o.err)));
}

/* Clients that are not the test's, then the test's own. */
struct aside_run {
	struct perf_oob o;
	uint16_t port;
	int r, served;
	char first[PERF_OOB_VERSION_LEN];
};

static bool claims_hello(const char *first, size_t len, void *ctx)
{
	(void)ctx;
	return len == 16 && memcmp(first, "hello", 5) == 0;
}

static void serve_hello(struct perf_oob *o, void *ctx)
{
	struct aside_run *ar = ctx;
	char buf[16];

	/* The bytes already read come again first. */
	if (perf_oob_read(o, buf, 16, 2000, "test") == 0 &&
	    memcmp(buf, "hello", 5) == 0)
		perf_oob_write(o, "served", 6, "test");
	ar->served++;
}

static void *accept_aside(void *arg)
{
	struct aside_run *ar = arg;
	struct perf_oob_aside aside = { claims_hello, serve_hello, ar };

	ar->r = perf_oob_accept_aside(&ar->o, "127.0.0.1", NULL, ar->port,
				      5000, &aside);
	if (ar->r == 0)
		ar->r = perf_oob_read(&ar->o, ar->first, 16, 2000, "test");
	if (ar->r == 0)
		ar->r = perf_oob_write(&ar->o, "test!!", 6, "test");
	perf_oob_close(&ar->o);
	return NULL;
}

static void aside_client(uint16_t port, const char *first, const char *want)
{
	struct perf_oob c = { .timeout_ms = 2000 };
	char msg[16] = { 0 }, buf[8] = "";

	memcpy(msg, first, strlen(first));
	assert_int_equal(perf_oob_connect(&c, "127.0.0.1", port, 2000), 0);
	assert_int_equal(perf_oob_write(&c, msg, 16, "test"), 0);
	assert_int_equal(perf_oob_read(&c, buf, 6, 2000, "test"), 0);
	assert_memory_equal(buf, want, 6);
	perf_oob_close(&c);
}

static void test_accept_aside(void **state)
{
	struct aside_run ar = { .o = { .timeout_ms = 2000 } };
	pthread_t t;

	(void)state;
	ar.port = free_port();
	assert_int_equal(pthread_create(&t, NULL, accept_aside, &ar), 0);
	/* Two clients the aside claims; the server keeps waiting... */
	aside_client(ar.port, "hello", "served");
	aside_client(ar.port, "hello again", "served");
	/* ...for one that sends a version message, which it reads whole. */
	aside_client(ar.port, "6.06", "test!!");
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(ar.r, 0);
	assert_int_equal(ar.served, 2);
	assert_memory_equal(ar.first, "6.06\0\0\0\0\0\0\0\0\0\0\0\0", 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_plain_roundtrip),
		cmocka_unit_test(test_keys_gid_roundtrip),
		cmocka_unit_test(test_keys_hostile),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_version_error_is_text),
		cmocka_unit_test(test_version_mark),
		cmocka_unit_test(test_sysdata_mtu),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_socket_read),
		cmocka_unit_test(test_socket_stop),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_second_peer_refused),
		cmocka_unit_test(test_bind_address),
		cmocka_unit_test(test_err_cut_whole_chars),
		cmocka_unit_test(test_accept_aside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
