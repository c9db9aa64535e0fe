// SPDX-License-Identifier: GPL-2.0-or-later
/* check --nhc line and exit status; host and time in check --json. */
#include "config.h"

#include "unit.h"

#include <json-c/json.h>

#include "fleet/nhc.h"

static void results(struct rd_results *res, struct rd_result *v, size_t n)
{
	memset(res, 0, sizeof(*res));
	res->v = v;
	res->n = n;
}

static void test_ok(void **state)
{
	struct rd_result v[2] = {
		{ .check_id = "port.state",
		  .verdict = RD_PASS,
		  .summary = "up" },
		{ .check_id = "port.mtu",
		  .verdict = RD_PASS,
		  .summary = "4096" },
	};
	struct rd_results res;
	char line[RD_NHC_LINE_MAX + 1];

	(void)state;
	results(&res, v, 2);
	assert_int_equal(rd_nhc_line(&res, false, line, sizeof(line)), 0);
	assert_string_equal(line, "OK: 2 PASS");
	assert_int_equal(rd_nhc_line(&res, true, line, sizeof(line)), 0);
}

static void test_warn_unknown(void **state)
{
	struct rd_result v[2] = {
		{ .check_id = "port.mtu",
		  .verdict = RD_WARN,
		  .summary = "MTU 1024" },
		{ .check_id = "qos.pfc",
		  .verdict = RD_UNKNOWN,
		  .summary = "n/a" },
	};
	struct rd_results res;
	char line[RD_NHC_LINE_MAX + 1];

	(void)state;
	results(&res, v, 2);
	assert_int_equal(rd_nhc_line(&res, false, line, sizeof(line)), 0);
	assert_string_equal(line,
			    "OK: 0 FAIL, 1 WARN, 1 UNKNOWN; port.mtu MTU 1024");
	assert_int_equal(rd_nhc_line(&res, true, line, sizeof(line)), 1);
	assert_string_equal(
		line, "ERROR: 0 FAIL, 1 WARN, 1 UNKNOWN; port.mtu MTU 1024");
	/* Only an UNKNOWN: a problem with strict only. */
	results(&res, v + 1, 1);
	assert_int_equal(rd_nhc_line(&res, false, line, sizeof(line)), 0);
	assert_int_equal(rd_nhc_line(&res, true, line, sizeof(line)), 1);
}

/* A FAIL: exit 1, the worst result named, cut to 80 bytes, escaped. */
static void test_fail_cut(void **state)
{
	char sum[300];
	struct rd_result v[2] = {
		{ .check_id = "port.mtu", .verdict = RD_WARN, .summary = "x" },
		{ .check_id = "port.state",
		  .verdict = RD_FAIL,
		  .summary = sum },
	};
	struct rd_results res;
	char line[RD_NHC_LINE_MAX + 1];

	(void)state;
	snprintf(sum, sizeof(sum), "mlx5_0/1 DOWN \x1b[31m%s",
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
		 "\xa9"
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
		 "\xa9"
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
		 "\xa9");
	results(&res, v, 2);
	assert_int_equal(rd_nhc_line(&res, false, line, sizeof(line)), 1);
	assert_true(strlen(line) <= RD_NHC_LINE_MAX);
	assert_true(strlen(line) >= RD_NHC_LINE_MAX - 1);
	assert_non_null(strstr(line, "ERROR: 1 FAIL, 1 WARN, 0 UNKNOWN; "
				     "port.state mlx5_0/1 DOWN \\x1b[31m"));
	assert_null(strchr(line, '\x1b'));
	/* Never half a character at the end. */
	assert_true(((unsigned char)line[strlen(line) - 1] & 0xc0) != 0xc0);
}

static void test_stamp(void **state)
{
	struct json_object *a = json_object_new_array();
	struct json_object *o = json_object_new_object(), *v;

	(void)state;
	json_object_array_add(a, o);
	assert_int_equal(rd_fleet_stamp(a, "node7", true, 1796036400.5), 0);
	assert_true(json_object_object_get_ex(o, "host", &v));
	assert_string_equal(json_object_get_string(v), "node7");
	assert_true(json_object_object_get_ex(o, "time", &v));
	assert_string_equal(json_object_get_string(v), "2026-11-30T11:00:00Z");
	/* Unknown host and time: null, not a guess. */
	assert_int_equal(rd_fleet_stamp(a, NULL, false, 0), 0);
	assert_true(json_object_object_get_ex(o, "host", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(o, "time", &v));
	assert_null(v);
	json_object_put(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok),
		cmocka_unit_test(test_warn_unknown),
		cmocka_unit_test(test_fail_cut),
		cmocka_unit_test(test_stamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
