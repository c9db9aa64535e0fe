// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>

#include "perf/gid.h"

static struct perf_gid_cand cand(int index, const char *addr,
				 enum perf_gid_type type)
{
	struct perf_gid_cand c = { .index = index, .type = type };

	assert_int_equal(inet_pton(AF_INET6, addr, c.raw), 1);
	return c;
}

static void test_rxe_table(void **state)
{
	/* Soft-RoCE on a netdev with 192.0.2.1: link-local v1/v2, then the
	 * IPv4-mapped address as v1 (2) and v2 (3). */
	struct perf_gid_cand c[] = {
		cand(0, "fe80::200:ff:fe00:1", PERF_GID_IB_ROCE_V1),
		cand(1, "fe80::200:ff:fe00:1", PERF_GID_ROCE_V2),
		cand(2, "::ffff:192.0.2.1", PERF_GID_IB_ROCE_V1),
		cand(3, "::ffff:192.0.2.1", PERF_GID_ROCE_V2),
	};
	char why[200];

	(void)state;
	assert_int_equal(perf_gid_choose(c, 4, true, why, sizeof(why)), 3);
	assert_non_null(strstr(why, "RoCE v2"));
	assert_non_null(strstr(why, "::ffff:192.0.2.1"));
	/* Only the link-local pair: v2 wins, and the reason says so. */
	assert_int_equal(perf_gid_choose(c, 2, true, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "only link-local"));
	/* IPv6 wanted: a global IPv6 entry beats IPv4-mapped ones. */
	struct perf_gid_cand d[] = {
		c[2],
		c[3],
		cand(4, "2001:db8::1", PERF_GID_IB_ROCE_V1),
		cand(5, "2001:db8::1", PERF_GID_ROCE_V2),
	};
	assert_int_equal(perf_gid_choose(d, 4, false, why, sizeof(why)), 5);
}

static void test_lab_index1(void **state)
{
	/* The lab's rxe0 before an address is added: index 1 (v2). */
	struct perf_gid_cand c[] = {
		cand(0, "fe80::ff:fe00:1", PERF_GID_IB_ROCE_V1),
		cand(1, "fe80::ff:fe00:1", PERF_GID_ROCE_V2),
	};

	(void)state;
	assert_int_equal(perf_gid_choose(c, 2, true, NULL, 0), 1);
}

static void test_empty(void **state)
{
	struct perf_gid_cand c[] = { cand(0, "::", PERF_GID_ROCE_V2) };
	char why[200];

	(void)state;
	assert_int_equal(perf_gid_choose(c, 1, true, why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "no entries"));
	assert_int_equal(perf_gid_choose(NULL, 0, true, why, sizeof(why)),
			 -ENOENT);
	/* Ties go to the lowest index. */
	struct perf_gid_cand t[] = {
		cand(7, "::ffff:10.0.0.1", PERF_GID_ROCE_V2),
		cand(5, "::ffff:10.0.0.2", PERF_GID_ROCE_V2),
	};
	assert_int_equal(perf_gid_choose(t, 2, true, NULL, 0), 5);
}

static void test_predicates(void **state)
{
	uint8_t g[16] = { 0 };

	(void)state;
	assert_true(perf_gid_is_zero(g));
	g[0] = 0xfe;
	g[1] = 0x80;
	assert_true(perf_gid_is_link_local(g));
	assert_false(perf_gid_is_v4mapped(g));
	memset(g, 0, 16);
	g[10] = g[11] = 0xff;
	assert_true(perf_gid_is_v4mapped(g));
	assert_false(perf_gid_is_zero(g));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxe_table),
		cmocka_unit_test(test_lab_index1),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_predicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
