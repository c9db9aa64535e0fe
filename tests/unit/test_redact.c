// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include "core/redact.h"
#include "core/snapshot.h"

/* Learn text, then return it redacted (the caller frees). */
static char *redact(struct rd_redact *r, const char *text)
{
	size_t n;
	char *out;

	assert_int_equal(rd_redact_learn(r, text, strlen(text)), 0);
	out = rd_redact_text(r, text, strlen(text), &n);
	assert_non_null(out);
	assert_int_equal(n, strlen(out));
	return out;
}

static void test_addresses(void **state)
{
	struct rd_redact *r = rd_redact_new();
	char *out;

	(void)state;
	out = redact(r,
		     "mac b8:ce:f6:a1:b2:c4 guid b8ce:f603:00a1:b2c4 "
		     "ip 192.168.10.1/24 peer 192.168.10.2 v6 "
		     "fe80::bace:f6ff:fea1:b2c4 "
		     "gid 0000:0000:0000:0000:0000:ffff:c0a8:0a01 "
		     "bdf 0000:3b:00.0 fw 22.36.1010 lo 127.0.0.1 so.1.14.44.0 "
		     "zero 00:00:00:00:00:00 time 10:17:10.");
	assert_string_equal(
		out, "mac 02:00:00:00:00:01 guid 0200:0000:0000:0001 "
		     "ip 198.18.1.1/24 peer 198.18.1.2 v6 fe80::ff:fe00:1 "
		     "gid 0000:0000:0000:0000:0000:ffff:c612:0101 "
		     "bdf 0000:3b:00.0 fw 22.36.1010 lo 127.0.0.1 so.1.14.44.0 "
		     "zero 00:00:00:00:00:00 time 10:17:10.");
	free(out);
	/* The same value, the same stand-in, also in another text. */
	out = rd_redact_text(r, "B8:CE:F6:A1:B2:C4", 17, &(size_t){ 0 });
	assert_string_equal(out, "02:00:00:00:00:01");
	free(out);
	rd_redact_free(r);
}

/* A stand-in is never a value the text holds. */
static void test_no_collision(void **state)
{
	struct rd_redact *r = rd_redact_new();
	char *out;

	(void)state;
	out = redact(
		r,
		"a 02:00:00:00:00:01 b 02:00:00:00:00:02 c 00:11:22:33:44:55");
	assert_string_equal(
		out,
		"a 02:00:00:00:00:03 b 02:00:00:00:00:04 c 02:00:00:00:00:05");
	free(out);
	rd_redact_free(r);
}

static void test_words_and_pages(void **state)
{
	struct rd_redact *r = rd_redact_new();
	struct rd_snapshot s;
	struct rd_netdev nd = { 0 };
	struct rd_xcvr_page pg = { .i2c = 0x50, .page = 0, .offset = 128 };
	char hex[257];
	char *out;

	(void)state;
	rd_snapshot_init(&s);
	s.host.hostname = strdup("node01.cluster.example");
	memset(hex, '0', 256);
	hex[256] = '\0';
	/* SFF-8636 serial at 196..211: "ABC123" padded with spaces */
	memcpy(hex + 2 * (196 - 128), "414243313233202020202020202020", 30);
	pg.hex = hex;
	nd.xcvr.spec = (char *)"SFF-8636";
	nd.xcvr.serial = (char *)"ABC123";
	nd.xcvr.pages = &pg;
	nd.xcvr.n_pages = 1;
	s.netdevs = &nd;
	s.n_netdevs = 1;
	assert_int_equal(rd_redact_snapshot(r, &s), 0);
	/* serial-1 in ASCII, then spaces */
	assert_memory_equal(hex + 2 * (196 - 128),
			    "73657269616c2d3120202020202020202020", 32);
	out = redact(r,
		     "node01 mlx5_0; node01.cluster.example; node01x; ABC123");
	assert_string_equal(
		out,
		"host-1 mlx5_0; host-1.example.invalid; node01x; serial-1");
	free(out);
	s.netdevs = NULL;
	s.n_netdevs = 0;
	rd_snapshot_free(&s);
	rd_redact_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_no_collision),
		cmocka_unit_test(test_words_and_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
