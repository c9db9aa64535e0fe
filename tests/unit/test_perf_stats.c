// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <math.h>

#include "perf/stats.h"

static void test_lat_small(void **state)
{
	double v[] = { 5, 1, 3, 2, 4 };
	struct perf_lat_stats st;

	(void)state;
	assert_int_equal(perf_lat_stats(v, 5, &st), 0);
	assert_true(st.min == 1 && st.max == 5);
	assert_true(st.median == 3 && st.avg == 3);
	/* Population stdev of 1..5 is sqrt(2). */
	assert_true(fabs(st.stdev - sqrt(2.0)) < 1e-12);
	assert_true(st.p99 == 5 && st.p999 == 5);
	assert_int_equal(perf_lat_stats(v, 0, &st), -EINVAL);
}

static void test_lat_fractional(void **state)
{
	/* perftest truncates each deviation to an integer: here every
	 * deviation is below 1 us, so it would report a stdev of 0. */
	double v[] = { 1.2, 1.8, 1.2, 1.8 };
	struct perf_lat_stats st;

	(void)state;
	assert_int_equal(perf_lat_stats(v, 4, &st), 0);
	assert_true(fabs(st.avg - 1.5) < 1e-12);
	assert_true(fabs(st.stdev - 0.3) < 1e-12);
	/* Even count: the median is the mean of the two middle samples. */
	assert_true(fabs(st.median - 1.5) < 1e-12);
}

static void test_lat_percentiles(void **state)
{
	double *v = malloc(1000 * sizeof(*v));
	struct perf_lat_stats st;

	(void)state;
	assert_non_null(v);
	/* 1000..1 in reverse: nearest rank p99 is the 990th smallest. */
	for (int i = 0; i < 1000; i++)
		v[i] = 1000 - i;
	assert_int_equal(perf_lat_stats(v, 1000, &st), 0);
	assert_true(st.p99 == 990);
	assert_true(st.p999 == 999);
	assert_true(st.max == 1000);
	assert_true(st.median == 500.5);
	/* One sample. */
	v[0] = 7.25;
	assert_int_equal(perf_lat_stats(v, 1, &st), 0);
	assert_true(st.min == 7.25 && st.max == 7.25 && st.median == 7.25 &&
		    st.p99 == 7.25 && st.stdev == 0);
	free(v);
}

static void test_histogram(void **state)
{
	double v[] = { 0, 1, 2, 3, 10 };
	size_t bins[5];

	(void)state;
	perf_lat_histogram(v, 5, bins, 5);
	assert_int_equal(bins[0], 2);
	assert_int_equal(bins[1], 2);
	assert_int_equal(bins[4], 1);
	v[4] = 0;
	perf_lat_histogram(v, 1, bins, 5);
	assert_int_equal(bins[0], 1);
}

static void test_units(void **state)
{
	(void)state;
	/* 2^20 bytes in one second is 1 MB/s as perftest prints it. */
	assert_true(perf_bw_mib(1048576, 1) == 1);
	/* 125 000 000 bytes per second is 1 Gb/s. */
	assert_true(fabs(perf_bw_gbit(125000000, 1) - 1) < 1e-12);
	assert_true(fabs(perf_msg_rate_mpps(2e6, 2) - 1) < 1e-12);
	assert_true(perf_bw_mib(100, 0) == 0);
	assert_true(perf_bw_unit(125000000, 1, true) ==
		    perf_bw_gbit(125000000, 1));
}

static void test_peak(void **state)
{
	/* 10 messages of 1000 B: posted at t=0 (0..4) and t=1 (5..9);
	 * completions: 5 done at t=1.2, 10 done at t=1.6. Windows: 0..1.2
	 * 5000/1.2, 0..1.6 10000/1.6, 1..1.6 5000/0.6 (the best). */
	struct perf_mark posts[] = { { 0, 0 }, { 1, 5 } };
	struct perf_mark comps[] = { { 1.2, 5 }, { 1.6, 10 } };
	double pk;

	(void)state;
	pk = perf_bw_peak(posts, 2, comps, 2, 1000);
	assert_true(fabs(pk - 5000 / 0.6) < 1e-6);
	/* A completion before a post never pairs with it. */
	comps[0].t = 0.5;
	comps[1].t = 0.9;
	assert_true(fabs(perf_bw_peak(posts, 2, comps, 2, 1000) - 10000 / 0.9) <
		    1e-6);
	assert_true(perf_bw_peak(posts, 2, comps, 0, 1000) == 0);
	assert_true(perf_bw_peak(NULL, 0, comps, 2, 1000) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_small),
		cmocka_unit_test(test_lat_fractional),
		cmocka_unit_test(test_lat_percentiles),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_peak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
