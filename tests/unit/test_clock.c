// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wall-clock formatting: the zone and format are the caller's, an unknown
 * or impossible time falls back to the caller's text, and a kernel-log
 * record without a wall time reads as dmesg prints its seconds since boot.
 */
#include "config.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/model_log.h"

/* 2026-12-02 12:00:34 UTC */
#define T0 1796212834.0

static void test_utc(void **state)
{
	char buf[40];

	(void)state;
	assert_true(rd_clock_fmt(T0, RD_CLOCK_UTC, RD_CLOCK_UTC_LINE, "?", buf,
				 sizeof(buf)));
	assert_string_equal(buf, "2026-12-02 12:00:34 UTC");
	assert_true(rd_clock_fmt(T0 + 0.9, RD_CLOCK_UTC, "%d %H:%M:%S", "?",
				 buf, sizeof(buf)));
	assert_string_equal(buf, "02 12:00:34");
}

static void test_local_zone(void **state)
{
	char buf[40];

	(void)state;
	setenv("TZ", "UTC-2", 1); /* POSIX: two hours east of UTC */
	tzset();
	assert_true(rd_clock_fmt(T0, RD_CLOCK_LOCAL, "%H:%M:%S%z", "?", buf,
				 sizeof(buf)));
	assert_string_equal(buf, "14:00:34+0200");
	assert_true(rd_clock_fmt(T0, RD_CLOCK_UTC, "%H:%M:%S", "?", buf,
				 sizeof(buf)));
	assert_string_equal(buf, "12:00:34");
}

static void test_fallback(void **state)
{
	char buf[12] = "untouched";

	(void)state;
	assert_false(
		rd_clock_fmt(NAN, RD_CLOCK_UTC, "%H", "?", buf, sizeof(buf)));
	assert_string_equal(buf, "?");
	assert_false(rd_clock_fmt(INFINITY, RD_CLOCK_UTC, "%H", NULL, buf,
				  sizeof(buf)));
	assert_string_equal(buf, "?");
	assert_false(rd_clock_fmt(1e300, RD_CLOCK_LOCAL, "%H", "far", buf,
				  sizeof(buf)));
	assert_string_equal(buf, "far");
	/* does not fit: the fallback, not a cut date */
	assert_false(rd_clock_fmt(T0, RD_CLOCK_UTC, RD_CLOCK_UTC_LINE, "?", buf,
				  sizeof(buf)));
	assert_string_equal(buf, "?");
}

static void test_kmsg_when(void **state)
{
	struct rd_kmsg_rec k;
	char buf[40];

	(void)state;
	memset(&k, 0, sizeof(k));
	rd_kmsg_rec_when(&k, RD_CLOCK_UTC, "%H:%M:%S", buf, sizeof(buf));
	assert_string_equal(buf, "[?]");
	k.ts_usec.ok = true;
	k.ts_usec.v = 1234567890u;
	rd_kmsg_rec_when(&k, RD_CLOCK_UTC, "%H:%M:%S", buf, sizeof(buf));
	assert_string_equal(buf, "[ 1234.567890]");
	k.wall_time.ok = true;
	k.wall_time.v = T0;
	rd_kmsg_rec_when(&k, RD_CLOCK_UTC, "%H:%M:%S", buf, sizeof(buf));
	assert_string_equal(buf, "12:00:34");
	k.wall_time.v = NAN;
	rd_kmsg_rec_when(&k, RD_CLOCK_UTC, "%H:%M:%S", buf, sizeof(buf));
	assert_string_equal(buf, "[ 1234.567890]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utc),
		cmocka_unit_test(test_local_zone),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_kmsg_when),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
