// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <math.h>

#include "perf/clock.h"

/* A fake pair of clocks: mono advances fake_step per read; ticks follow it
 * at `hz`, changed mid-way by the tests. */
static double fake_s, fake_step;
static double fake_hz;
static uint64_t fake_ticks_at;
static double fake_ticks_since;

static double fake_mono(void)
{
	fake_s += fake_step;
	return fake_s;
}

static uint64_t fake_ticks(void)
{
	return fake_ticks_at +
	       (uint64_t)llround((fake_s - fake_ticks_since) * fake_hz);
}

static void fake_reset(double hz)
{
	fake_s = 100;
	fake_step = 0.0001;
	fake_hz = hz;
	fake_ticks_at = 1ull << 40;
	fake_ticks_since = 100;
}

/* Change the tick rate from now on (ticks stay continuous). */
static void fake_rate(double hz)
{
	fake_ticks_at = fake_ticks();
	fake_ticks_since = fake_s;
	fake_hz = hz;
}

static struct perf_clock fake_clock(void)
{
	struct perf_clock c = { .mono = fake_mono, .ticks = fake_ticks };

	return c;
}

static void test_steady(void **state)
{
	struct perf_clock c = fake_clock();
	double now, t0;

	(void)state;
	fake_reset(1e9);
	assert_int_equal(perf_clock_start(&c, false), 0);
	assert_true(c.n >= 2);
	/* About 0.1 s of ticks between checkpoints. */
	assert_true(c.check_ticks > 90000000 && c.check_ticks < 110000000);
	assert_false(perf_clock_due(&c, c.cp[c.n - 1].ticks + 1000));
	assert_true(perf_clock_due(&c, c.cp[c.n - 1].ticks + c.check_ticks));
	for (int i = 0; i < 10; i++)
		fake_s += 0.1;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	assert_true(now > 1.0 && now < 1.1);
	/* A tick count between checkpoints maps onto the monotonic line. */
	t0 = perf_clock_seconds(&c, c.cp[0].ticks);
	assert_true(fabs(t0) < 1e-12);
	assert_true(fabs(perf_clock_seconds(&c, c.cp[0].ticks + 500000000) -
			 0.5) < 1e-6);
	perf_clock_free(&c);
}

static void test_rate_change_interpolated(void **state)
{
	struct perf_clock c = fake_clock();
	double now, a, b;
	uint64_t k1, k2;

	(void)state;
	fake_reset(1e9);
	assert_int_equal(perf_clock_start(&c, false), 0);
	fake_s += 0.04;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	k1 = c.cp[c.n - 1].ticks;
	/* A small change (2 %) over a short stretch is followed, not
	 * refused: each segment has its own rate. */
	fake_rate(1.02e9);
	fake_s += 0.04;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	k2 = c.cp[c.n - 1].ticks;
	a = perf_clock_seconds(&c, k1);
	b = perf_clock_seconds(&c, k1 + (k2 - k1) / 2);
	/* Half the ticks of the second stretch are half its time. */
	assert_true(fabs((b - a) * 2 - (perf_clock_seconds(&c, k2) - a)) <
		    1e-9);
	perf_clock_free(&c);
}

static void test_uneven_refused(void **state)
{
	struct perf_clock c = fake_clock();
	double now;

	(void)state;
	fake_reset(1e9);
	assert_int_equal(perf_clock_start(&c, false), 0);
	fake_s += 0.2;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	/* Half speed for 0.1 s: 50 % off the average. */
	fake_rate(0.5e9);
	fake_s += 0.1;
	assert_int_equal(perf_clock_checkpoint(&c, &now), -ERANGE);
	perf_clock_free(&c);
}

static void test_backwards_refused(void **state)
{
	struct perf_clock c = fake_clock();
	double now;

	(void)state;
	fake_reset(1e9);
	assert_int_equal(perf_clock_start(&c, false), 0);
	fake_ticks_at -= 100000000;
	assert_int_equal(perf_clock_checkpoint(&c, &now), -ERANGE);
	perf_clock_free(&c);
}

/* Reads 2 ms apart (a preemption each time): the pair is not kept, and
 * now comes from the checkpoints before. */
static void test_loose_pair_skipped(void **state)
{
	struct perf_clock c = fake_clock();
	size_t n;
	double now;

	(void)state;
	fake_reset(1e9);
	assert_int_equal(perf_clock_start(&c, false), 0);
	n = c.n;
	fake_s += 0.1;
	fake_step = 0.002;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	assert_int_equal(c.n, n);
	assert_true(now > 0.1 && now < 0.12);
	fake_step = 0.0001;
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	assert_int_equal(c.n, n + 1);
	perf_clock_free(&c);
}

static void test_stuck_refused(void **state)
{
	struct perf_clock c = fake_clock();

	(void)state;
	fake_reset(0);
	assert_int_equal(perf_clock_start(&c, false), -ERANGE);
	perf_clock_free(&c);
}

/* The real clocks: 20 ms of ticks come out as about 20 ms. */
static void test_real(void **state)
{
	struct perf_clock c = { 0 };
	struct timespec ts = { 0, 20000000 };
	uint64_t a, b;
	double now, d;

	(void)state;
	assert_int_equal(perf_clock_start(&c, true), 0);
	assert_true(c.cycles == perf_clock_have_cycles());
	a = perf_clock_ticks(&c);
	nanosleep(&ts, NULL);
	b = perf_clock_ticks(&c);
	assert_int_equal(perf_clock_checkpoint(&c, &now), 0);
	d = perf_clock_seconds(&c, b) - perf_clock_seconds(&c, a);
	/* Slept at least 20 ms; a busy machine may add to it. */
	assert_true(d >= 0.0195);
	assert_true(d <= now);
	perf_clock_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_rate_change_interpolated),
		cmocka_unit_test(test_uneven_refused),
		cmocka_unit_test(test_backwards_refused),
		cmocka_unit_test(test_loose_pair_skipped),
		cmocka_unit_test(test_stuck_refused),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
