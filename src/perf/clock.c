// SPDX-License-Identifier: GPL-2.0-or-later
/* Cycle-counter timestamps mapped to CLOCK_MONOTONIC by checkpoints. */
#include "config.h"
#include "perf/clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool perf_clock_have_cycles(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return true;
#else
	return false;
#endif
}

static double sys_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t read_ticks(const struct perf_clock *c)
{
	return c->ticks ? c->ticks() : perf_clock_ticks(c);
}

/* Ticks per second between two checkpoints. */
static double rate(const struct perf_clock_point *a,
		   const struct perf_clock_point *b)
{
	return (double)(b->ticks - a->ticks) / (b->mono - a->mono);
}

/*
 * One (ticks, mono) pair: the monotonic read between two tick reads,
 * paired with their middle; of a few tries the tightest, so a preemption
 * in between does not skew the pair.
 */
static struct perf_clock_point take(const struct perf_clock *c,
				    uint64_t *gap)
{
	struct perf_clock_point best = { 0, 0 };
	uint64_t best_gap = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		uint64_t t0 = read_ticks(c);
		double m = c->mono();
		uint64_t t1 = read_ticks(c);

		if (t1 >= t0 && t1 - t0 < best_gap) {
			best_gap = t1 - t0;
			best.ticks = t0 + (t1 - t0) / 2;
			best.mono = m;
		}
	}
	if (best_gap == UINT64_MAX) /* the counter went back every time */
		best.ticks = 0;
	*gap = best_gap;
	return best;
}

static int add(struct perf_clock *c, struct perf_clock_point p)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 64;
		struct perf_clock_point *v = realloc(c->cp, nc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->cp = v;
		c->cap = nc;
	}
	c->cp[c->n++] = p;
	return 0;
}

int perf_clock_start(struct perf_clock *c, bool cycles)
{
	struct perf_clock_point p;
	uint64_t gap;
	double (*mono)(void) = c->mono ? c->mono : sys_mono;
	uint64_t (*ticks)(void) = c->ticks;
	int r;

	memset(c, 0, sizeof(*c));
	c->mono = mono;
	c->ticks = ticks;
	c->cycles = cycles && perf_clock_have_cycles();
	r = add(c, take(c, &gap));
	if (r < 0)
		return r;
	do {
		p = take(c, &gap);
	} while (p.mono - c->cp[0].mono < 0.002 && p.mono >= c->cp[0].mono);
	if (p.ticks <= c->cp[0].ticks || p.mono <= c->cp[0].mono)
		return -ERANGE;
	c->check_ticks = (uint64_t)(rate(&c->cp[0], &p) * 0.1);
	if (c->check_ticks == 0)
		c->check_ticks = 1;
	return add(c, p);
}

int perf_clock_checkpoint(struct perf_clock *c, double *now)
{
	uint64_t gap;
	struct perf_clock_point p = take(c, &gap);
	const struct perf_clock_point *first = &c->cp[0], *last = &c->cp[c->n - 1];
	int r;

	if (p.ticks < last->ticks || p.mono < last->mono)
		return -ERANGE;
	/* Preempted between the reads every time: a loose pair would
	 * look like an uneven counter. Go on from the last good one. */
	if (gap > c->check_ticks / 200) {
		*now = perf_clock_seconds(c, p.ticks);
		return 0;
	}
	if (p.mono - last->mono >= 0.05) {
		double avg = rate(first, &p), seg = rate(last, &p);

		if (fabs(seg - avg) > 0.05 * avg)
			return -ERANGE;
	}
	r = add(c, p);
	if (r < 0)
		return r;
	c->check_ticks = (uint64_t)(rate(&c->cp[0], &p) * 0.1);
	if (c->check_ticks == 0)
		c->check_ticks = 1;
	*now = p.mono - c->cp[0].mono;
	return 0;
}

double perf_clock_seconds(const struct perf_clock *c, uint64_t ticks)
{
	size_t lo = 0, hi = c->n - 1;
	const struct perf_clock_point *a, *b;

	/* The segment holding ticks; past either end, the nearest one. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->cp[mid].ticks <= ticks)
			lo = mid;
		else
			hi = mid;
	}
	a = &c->cp[lo];
	b = &c->cp[hi];
	if (b->ticks == a->ticks)
		return a->mono - c->cp[0].mono;
	return a->mono - c->cp[0].mono +
	       (double)(int64_t)(ticks - a->ticks) / rate(a, b);
}

void perf_clock_free(struct perf_clock *c)
{
	free(c->cp);
	c->cp = NULL;
	c->n = c->cap = 0;
}
