// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reachability matrix's choice of what to try: the candidate GIDs of
 * a port in order (IPv4 v2, IPv4 v1, IPv6 v2, IPv6 v1; empty and unknown
 * types left out) and the pairs of the same RoCE type and family.
 */
#include "config.h"

#include "unit.h"

#include "peer/matrix.h"

static void gid(struct rd_gid *g, uint64_t idx, const char *type, bool v4)
{
	static const uint8_t ll[16] = { 0xfe, 0x80, [15] = 7 };
	static const uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, [12] = 192,
					[13] = 0, [14] = 2, [15] = 7 };

	*g = (struct rd_gid){ .index = idx, .raw_ok = true, .type = (char *)type };
	memcpy(g->raw, v4 ? ip : ll, 16);
}

static void test_candidates(void **state)
{
	struct rd_gid g[7];
	struct rd_port p = { .gids = g, .n_gids = 7 };
	struct rd_peer_cand c[RD_PEER_CAND_MAX];
	size_t n;

	(void)state;
	gid(&g[0], 0, "IB/RoCE v1", false);
	gid(&g[1], 1, "RoCE v2", false);
	gid(&g[2], 2, "IB/RoCE v1", true);
	gid(&g[3], 3, "RoCE v2", true);
	gid(&g[4], 4, "RoCE v2", true);
	memset(g[4].raw, 0, 16);	/* an empty entry */
	gid(&g[5], 5, "RoCE v3", true);	/* a type not known */
	gid(&g[6], 6, NULL, true);
	n = rd_peer_candidates(&p, c, RD_PEER_CAND_MAX);
	assert_int_equal(n, 4);
	assert_int_equal(c[0].index, 3);
	assert_true(c[0].v2 && c[0].ipv4);
	assert_string_equal(c[0].addr, "192.0.2.7");
	assert_int_equal(c[1].index, 2);
	assert_int_equal(c[2].index, 1);
	assert_string_equal(c[2].addr, "fe80::7");
	assert_int_equal(c[3].index, 0);
	assert_false(c[3].v2 || c[3].ipv4);
	/* The cap holds. */
	assert_int_equal(rd_peer_candidates(&p, c, 2), 2);
}

static void test_pairs(void **state)
{
	struct rd_peer_cand a[3] = {
		{ .index = 3, .v2 = true, .ipv4 = true },
		{ .index = 2, .v2 = false, .ipv4 = true },
		{ .index = 1, .v2 = true, .ipv4 = false },
	};
	struct rd_peer_cand b[2] = {
		{ .index = 5, .v2 = true, .ipv4 = true },
		{ .index = 1, .v2 = true, .ipv4 = false },
	};
	struct rd_peer_pair p[RD_PEER_PAIRS_MAX];
	size_t n;

	(void)state;
	n = rd_peer_pairs(a, 3, b, 2, p, RD_PEER_PAIRS_MAX);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].a.index, 3);
	assert_int_equal(p[0].b.index, 5);
	assert_int_equal(p[0].result, RD_PEER_UNTRIED);
	assert_int_equal(p[1].a.index, 1);
	assert_int_equal(p[1].b.index, 1);
	assert_int_equal(rd_peer_pairs(a, 3, b, 2, p, 1), 1);
	assert_int_equal(rd_peer_pairs(a, 3, b, 0, p, RD_PEER_PAIRS_MAX), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
