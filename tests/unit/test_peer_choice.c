// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The test's choices on one side: their text, their JSON both ways (a
 * peer's values are checked, its GID's family derived, never taken), and
 * the mismatches two sides' choices have.
 */
#include "config.h"

#include "unit.h"

#include "peer/choice.h"
#include "peer/summary.h"

static const uint8_t LL[16] = { 0xfe, 0x80, [14] = 0xab, [15] = 7 };
static const uint8_t V4[16] = { [10] = 0xff, [11] = 0xff, [12] = 198,
				[13] = 51, [14] = 100, [15] = 2 };
static const uint8_t V6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };

static struct rd_test_choice make(int idx, enum rd_test_gid_type type,
				  const uint8_t *gid, unsigned mtu)
{
	struct rd_test_choice t = { .set = true, .gid_index = idx,
				    .type = type, .mtu = mtu };

	if (gid)
		memcpy(t.gid, gid, 16);
	return t;
}

static void test_text(void **state)
{
	struct rd_test_choice t = make(0, RD_TEST_GID_ROCE_V2, LL, 1024);
	char buf[160];

	(void)state;
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "index 0, RoCE v2 fe80::ab07 (IPv6 link-local)");
	t = make(3, RD_TEST_GID_ROCE_V1, V4, 1024);
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "index 3, RoCE v1 198.51.100.2 (IPv4)");
	t = make(2, RD_TEST_GID_ROCE_V2, V6, 1024);
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "index 2, RoCE v2 2001:db8::9 (IPv6)");
	t = make(-1, RD_TEST_GID_NONE, NULL, 2048);
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "no GID (no GRH)");
	t.by_cm = true;
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "chosen by rdma_cm when it connects");
	t.set = false;
	rd_test_choice_text(&t, buf, sizeof(buf));
	assert_string_equal(buf, "not known");
}

static void test_family_name(void **state)
{
	(void)state;
	assert_string_equal(rd_test_family_name(RD_TEST_FAM_NONE),
			    "no IP address");
	assert_string_equal(rd_test_family_name(RD_TEST_FAM_IPV6), "IPv6");
	/* A value from no enumerator reads as no address, never past the
	 * table. */
	assert_string_equal(rd_test_family_name((enum rd_test_family)99),
			    "no IP address");
	assert_string_equal(rd_test_family_name((enum rd_test_family) - 1),
			    "no IP address");
}

static void test_json_round_trip(void **state)
{
	struct rd_test_choice in[] = {
		make(0, RD_TEST_GID_ROCE_V2, LL, 1024),
		make(1, RD_TEST_GID_ROCE_V2, V4, 4096),
		make(-1, RD_TEST_GID_NONE, NULL, 256),
		make(5, RD_TEST_GID_IB, V6, 2048),
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct json_object *j = rd_test_choice_to_json(&in[i]);
		struct rd_test_choice out;
		char err[160];

		assert_non_null(j);
		assert_int_equal(rd_test_choice_from_json(j, &out, err,
							  sizeof(err)), 0);
		json_object_put(j);
		assert_true(out.set);
		assert_int_equal(out.gid_index, in[i].gid_index);
		assert_int_equal(out.type, in[i].type);
		assert_int_equal(out.mtu, in[i].mtu);
		assert_memory_equal(out.gid, in[i].gid, 16);
		assert_int_equal(rd_test_choice_compare(&in[i], &out, NULL,
							NULL, (struct rd_cmp_item[4]){ 0 }),
				 0);
	}
}

static void test_json_hostile(void **state)
{
	static const struct {
		const char *json, *want;
	} t[] = {
		{ "[]", "not an object" },
		{ "{\"gid_type\":\"RoCE v2\",\"mtu\":1024}", "no GID index" },
		{ "{\"gid_index\":70000,\"gid_type\":\"RoCE v2\",\"mtu\":1024}",
		  "no GID index" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v2\",\"mtu\":1000,"
		  "\"gid\":\"fe80::1\"}", "no MTU" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v2\",\"mtu\":8192,"
		  "\"gid\":\"fe80::1\"}", "no MTU" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v9\\u001b[2J\",\"mtu\":1024,"
		  "\"gid\":\"fe80::1\"}", "an unknown GID type \"RoCE v9\\x1b[2J\"" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v2\",\"mtu\":1024}",
		  "no GID address" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v2\",\"mtu\":1024,"
		  "\"gid\":\"198.51.100.2\"}", "no GID address" },
		{ "{\"gid_index\":0,\"gid_type\":\"RoCE v2\",\"mtu\":1024,"
		  "\"gid\":\"fe80::1 \\n\"}", "no GID address" },
		{ "{\"gid_index\":-1,\"gid_type\":\"RoCE v2\",\"mtu\":1024,"
		  "\"gid\":\"fe80::1\"}", "does not go with" },
		{ "{\"gid_index\":1,\"gid_type\":\"none\",\"mtu\":1024}",
		  "does not go with" },
		{ "{\"gid_index\":-1,\"gid_type\":\"none\",\"mtu\":1024,"
		  "\"by_cm\":1}", "by_cm is not" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct json_object *j = json_tokener_parse(t[i].json);
		struct rd_test_choice out;
		char err[160] = "";

		assert_non_null(j);
		assert_int_equal(rd_test_choice_from_json(j, &out, err,
							  sizeof(err)),
				 -EPROTO);
		json_object_put(j);
		assert_false(out.set);
		if (!strstr(err, t[i].want))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err, t[i].want);
		assert_null(strchr(err, '\033'));
	}
}

static void test_compare(void **state)
{
	struct rd_test_choice ll = make(0, RD_TEST_GID_ROCE_V2, LL, 1024),
			      v4 = make(1, RD_TEST_GID_ROCE_V2, V4, 1024),
			      v4b = make(3, RD_TEST_GID_ROCE_V2, V4, 1024),
			      v1 = make(2, RD_TEST_GID_ROCE_V1, V4, 1024),
			      none = make(-1, RD_TEST_GID_NONE, NULL, 1024),
			      big = make(1, RD_TEST_GID_ROCE_V2, V4, 4096),
			      cm = none, unknown = { .set = false };
	struct rd_gid gids[2] = {
		{ .index = 0, .raw_ok = true, .type = (char *)"RoCE v2" },
		{ .index = 1, .raw_ok = true, .type = (char *)"RoCE v2" },
	};
	struct rd_port port = { .port = 1, .gids = gids, .n_gids = 2 };
	struct rd_cmp_item it[RD_TEST_ITEMS_MAX];

	(void)state;
	memcpy(gids[0].raw, LL, 16);
	memcpy(gids[1].raw, V4, 16);
	cm.by_cm = true;
	/* Families: the fix is the IPv4 RoCE v2 GID of this port. */
	assert_int_equal(rd_test_choice_compare(&ll, &v4, &port, &port, it), 1);
	assert_string_equal(it[0].what, "the test's GID");
	assert_non_null(strstr(it[0].breaks, "cannot be routed: use -x 1 here"));
	assert_int_equal(rd_test_choice_compare(&v4, &ll, &port, &port, it), 1);
	assert_non_null(strstr(it[0].breaks, "use -x 1 on the peer"));
	assert_int_equal(rd_test_choice_compare(&ll, &v4, NULL, NULL, it), 1);
	assert_non_null(strstr(it[0].breaks, "give both ends GIDs of one"));
	/* Another index of the same kind of GID on each host is fine. */
	assert_int_equal(rd_test_choice_compare(&v4, &v4b, &port, &port, it), 0);
	assert_int_equal(rd_test_choice_compare(&v1, &v4, &port, &port, it), 1);
	assert_string_equal(it[0].what, "the test's GID type");
	assert_int_equal(rd_test_choice_compare(&none, &v4, &port, &port, it), 1);
	assert_string_equal(it[0].what, "the test's GRH");
	assert_int_equal(rd_test_choice_compare(&ll, &big, &port, &port, it), 2);
	assert_string_equal(it[1].what, "the test's MTU");
	assert_string_equal(it[1].a, "1024 bytes");
	assert_string_equal(it[1].b, "4096 bytes");
	assert_non_null(strstr(it[1].breaks, "the lower, 1024 bytes"));
	/* Each asks for its port's active MTU: the ports' list says it. */
	{
		struct rd_port pa = port, pb = port;

		pa.verbs.active_mtu = (struct rd_ou64){ 1024, true };
		pb.verbs.active_mtu = (struct rd_ou64){ 4096, true };
		assert_int_equal(rd_test_choice_compare(&v4, &big, &pa, &pb, it), 0);
		pb.verbs.active_mtu.v = 2048; /* the peer gave -m 4096 */
		assert_int_equal(rd_test_choice_compare(&v4, &big, &pa, &pb, it), 1);
	}
	/* rdma_cm picks later; unknown choices are not compared. */
	assert_int_equal(rd_test_choice_compare(&cm, &v4, &port, &port, it), 0);
	assert_int_equal(rd_test_choice_compare(&unknown, &v4, &port, &port, it), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_family_name),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_hostile),
		cmocka_unit_test(test_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
