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
	/* perftest keeps 1, 2, 3; its max is the next one, 4. */
	assert_int_equal(st.n, 5);
	assert_int_equal(st.kept, 3);
	assert_true(st.min == 1 && st.max == 4);
	assert_true(st.median == 2 && st.avg == 2);
	assert_true(fabs(st.stdev - sqrt(2.0 / 3)) < 1e-12);
	/* ceil(3 * 0.99) = 3: index 3 of the sorted samples. */
	assert_true(st.p99 == 4 && st.p999 == 4);
	/* Every sample: 1..5. */
	assert_true(st.max_all == 5 && st.p9999 == 5 && st.avg_all == 3);
	assert_true(fabs(st.stdev_all - sqrt(2.0)) < 1e-12);
	assert_int_equal(perf_lat_stats(v, 0, &st), -EINVAL);
}

static void test_lat_fractional(void **state)
{
	/* perftest truncates each deviation to an integer: here every
	 * deviation is below 1 us, so it would report a stdev of 0. */
	double v[] = { 1.2, 1.8, 1.2, 1.8, 1.2, 1.8, 100, 100 };
	struct perf_lat_stats st;

	(void)state;
	assert_int_equal(perf_lat_stats(v, 8, &st), 0);
	assert_int_equal(st.kept, 6);
	assert_true(fabs(st.avg - 1.5) < 1e-12);
	assert_true(fabs(st.stdev - 0.3) < 1e-12);
	/* Even count: the median is the mean of the two middle samples. */
	assert_true(fabs(st.median - 1.5) < 1e-12);
	assert_true(st.max == 100 && st.max_all == 100);
}

/* ib_send_lat -n 3000: 2999 samples, 2997 kept. */
static void test_lat_like_perftest(void **state)
{
	size_t n = 2999;
	double *v = malloc(n * sizeof(*v));
	struct perf_lat_stats st;

	(void)state;
	assert_non_null(v);
	/* 2999..1 in reverse: sample i (0-based, sorted) is i + 1. */
	for (size_t i = 0; i < n; i++)
		v[i] = (double)(n - i);
	assert_int_equal(perf_lat_stats(v, n, &st), 0);
	assert_int_equal(st.kept, 2997);
	assert_true(st.min == 1);
	/* delta[measure_cnt] with measure_cnt = 2997: the 2998th. */
	assert_true(st.max == 2998);
	/* Odd count: delta[2997 / 2]. */
	assert_true(st.median == 1499);
	assert_true(st.avg == 1499);
	/* delta[ceil(2997 * 0.99)] = delta[2968]; delta[ceil(2994.003)]. */
	assert_true(st.p99 == 2969);
	assert_true(st.p999 == 2996);
	/* Every sample: the true max, nearest rank ceil(2998.7) = 2999. */
	assert_true(st.max_all == 2999);
	assert_true(st.p9999 == 2999);
	assert_true(st.avg_all == 1500);
	free(v);
}

static void test_lat_percentiles(void **state)
{
	double *v = malloc(20000 * sizeof(*v));
	struct perf_lat_stats st;

	(void)state;
	assert_non_null(v);
	/* 1..20000 shuffled by a stride: nearest-rank p99.99 of 20000 is the
	 * 19998th smallest. */
	for (size_t i = 0; i < 20000; i++)
		v[i] = (double)((i * 7919) % 20000 + 1);
	assert_int_equal(perf_lat_stats(v, 20000, &st), 0);
	assert_true(st.p9999 == 19998);
	assert_true(st.max_all == 20000);
	assert_true(st.max == 19999);
	free(v);
}

static void test_lat_one_and_two(void **state)
{
	double v[2] = { 7.25, 3 };
	struct perf_lat_stats st;

	(void)state;
	/* One sample: every figure is it. */
	assert_int_equal(perf_lat_stats(v, 1, &st), 0);
	assert_int_equal(st.kept, 1);
	assert_true(st.min == 7.25 && st.max == 7.25 && st.median == 7.25 &&
		    st.avg == 7.25 && st.p99 == 7.25 && st.p999 == 7.25 &&
		    st.stdev == 0);
	assert_true(st.max_all == 7.25 && st.p9999 == 7.25 &&
		    st.stdev_all == 0);
	/* Two: perftest's figures keep the smaller, max is the larger. */
	assert_int_equal(perf_lat_stats(v, 2, &st), 0);
	assert_int_equal(st.kept, 1);
	assert_true(st.min == 3 && st.median == 3 && st.avg == 3);
	assert_true(st.max == 7.25 && st.max_all == 7.25);
	assert_true(st.p99 == 7.25);
}

static void test_lat_all_equal(void **state)
{
	double v[1000];
	struct perf_lat_stats st;
	struct perf_lat_hist h;

	(void)state;
	for (size_t i = 0; i < 1000; i++)
		v[i] = 2.5;
	assert_int_equal(perf_lat_stats(v, 1000, &st), 0);
	assert_true(st.min == 2.5 && st.max == 2.5 && st.max_all == 2.5 &&
		    st.median == 2.5 && st.p9999 == 2.5);
	assert_true(st.stdev == 0 && st.stdev_all == 0);
	/* One bin of the narrowest width holds them all. */
	assert_int_equal(perf_lat_hist(v, 1000, 20, &h), 0);
	assert_int_equal(h.nbins, 1);
	assert_int_equal(h.counts[0], 1000);
	assert_int_equal(h.over, 0);
	assert_true(h.lo <= 2.5 && 2.5 < h.lo + h.width);
	assert_true(fabs(h.width - 0.01) < 1e-12);
}

static void test_lat_huge_outliers(void **state)
{
	size_t n = 10000;
	double *v = malloc(n * sizeof(*v));
	struct perf_lat_stats st;
	struct perf_lat_hist h;
	size_t sum = 0;

	(void)state;
	assert_non_null(v);
	/* 9997 samples between 10 and 12 usec, three of 1, 2 and 5 s. */
	for (size_t i = 0; i < n - 3; i++)
		v[i] = 10 + (double)(i % 201) / 100;
	v[n - 3] = 1e6;
	v[n - 2] = 2e6;
	v[n - 1] = 5e6;
	assert_int_equal(perf_lat_stats(v, n, &st), 0);
	/* perftest's max is the second largest; the true one is 5 s. */
	assert_true(st.max == 2e6);
	assert_true(st.max_all == 5e6);
	/* Nearest rank ceil(9999) = 9999th: the second largest. */
	assert_true(st.p9999 == 2e6);
	assert_true(st.p99 <= 12 && st.median >= 10 && st.median <= 12);
	/* perftest's mean still holds the 1 s sample. */
	assert_true(st.avg_all > 800 && st.avg > 100 && st.avg < 112);
	/* The histogram spans the samples up to p99 (11.98), the rest in
	 * over: the 12.00s and the three outliers. */
	assert_int_equal(perf_lat_hist(v, n, 20, &h), 0);
	assert_true(h.nbins >= 2 && h.nbins <= 20);
	assert_true(h.lo <= 10 && h.lo + h.width * (double)h.nbins > 11.98);
	assert_true(h.lo + h.width * (double)h.nbins <= 12);
	assert_int_equal(h.over, 49 + 3);
	assert_true(h.max == 5e6);
	for (size_t b = 0; b < h.nbins; b++)
		sum += h.counts[b];
	assert_int_equal(sum + h.over, n);
	assert_int_equal(h.total, n);
	free(v);
}

static void test_histogram(void **state)
{
	double v[] = { 0, 1, 2, 3, 10 };
	struct perf_lat_hist h;

	(void)state;
	/* Up to p99 (10), inclusive: 5 bins 2 wide end at 10, so the
	 * width goes to the next round one, 5, in 3 bins. */
	assert_int_equal(perf_lat_hist(v, 5, 5, &h), 0);
	assert_true(h.lo == 0 && h.width == 5);
	assert_int_equal(h.nbins, 3);
	assert_int_equal(h.counts[0], 4);
	assert_int_equal(h.counts[1], 0);
	assert_int_equal(h.counts[2], 1);
	assert_int_equal(h.over, 0);
	/* 20 bins would be 0.5 wide: 21 of them from 0 to 10. */
	assert_int_equal(perf_lat_hist(v, 5, 20, &h), 0);
	assert_true(h.width == 1);
	assert_int_equal(h.nbins, 11);
	assert_int_equal(h.counts[0], 1);
	assert_int_equal(h.counts[3], 1);
	assert_int_equal(h.counts[10], 1);
	/* A sample above p99 lands in over. */
	{
		double w[1001];

		for (size_t i = 0; i < 1000; i++)
			w[i] = 1 + (double)i / 1000;
		w[1000] = 50;
		assert_int_equal(perf_lat_hist(w, 1001, 10, &h), 0);
		assert_true(h.width == 0.1);
		assert_int_equal(h.over, 1);
		assert_true(h.max == 50);
	}
	/* Bad arguments. */
	assert_int_equal(perf_lat_hist(v, 0, 5, &h), -EINVAL);
	assert_int_equal(perf_lat_hist(v, 5, 0, &h), -EINVAL);
	assert_int_equal(perf_lat_hist(v, 5, PERF_LAT_HIST_MAX + 1, &h),
			 -EINVAL);
	/* One sample. */
	assert_int_equal(perf_lat_hist(v + 4, 1, 20, &h), 0);
	assert_int_equal(h.nbins, 1);
	assert_int_equal(h.counts[0], 1);
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
		cmocka_unit_test(test_lat_like_perftest),
		cmocka_unit_test(test_lat_percentiles),
		cmocka_unit_test(test_lat_one_and_two),
		cmocka_unit_test(test_lat_all_equal),
		cmocka_unit_test(test_lat_huge_outliers),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_peak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
