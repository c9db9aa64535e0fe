/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Timestamps for the latency loop. One clock read per round trip is part
 * of every sample, and CLOCK_MONOTONIC can cost microseconds (a system
 * call that reads the HPET when the kernel does not trust the TSC, as
 * under emulation). So the loop reads the CPU's cycle counter (x86-64 TSC,
 * arm64 CNTVCT), a few nanoseconds, as perftest does; unlike perftest,
 * ticks become seconds through checkpoints of (ticks, CLOCK_MONOTONIC)
 * taken at the start, about every 0.1 s and at the end, by interpolating
 * between the two around each tick, so no CPU frequency is assumed. A
 * counter that runs backwards or unevenly between checkpoints is refused.
 * Elsewhere ticks are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef RD_PERF_CLOCK_H
#define RD_PERF_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

struct perf_clock_point {
	uint64_t ticks;
	double mono; /* seconds */
};

struct perf_clock {
	bool cycles; /* ticks: the cycle counter, else monotonic ns */
	/* Tests replace the two clocks a checkpoint reads. */
	double (*mono)(void); /* CLOCK_MONOTONIC seconds */
	uint64_t (*ticks)(void);
	struct perf_clock_point *cp;
	size_t n, cap;
	uint64_t check_ticks; /* about 0.1 s */
};

static inline uint64_t perf_clock_ticks(const struct perf_clock *c)
{
	struct timespec ts;

	if (c->cycles) {
#if defined(__x86_64__)
		return __rdtsc();
#elif defined(__aarch64__)
		uint64_t v;

		__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
		return v;
#endif
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Start: the first checkpoint, then more until 2 ms have passed, for a
 * first idea of the tick rate. cycles: use the cycle counter if this build
 * has one. c is zeroed, or has only mono and ticks set (tests). 0, -ENOMEM, or -ERANGE (the counter does not advance).
 */
int perf_clock_start(struct perf_clock *c, bool cycles);
/*
 * A checkpoint now; *now: seconds since the first. 0, -ENOMEM, or -ERANGE
 * when the counter went back or ran more than 5 % off its average rate
 * since the start over a stretch of at least 50 ms. A pair read across a
 * preemption of more than 0.5 ms is not kept.
 */
int perf_clock_checkpoint(struct perf_clock *c, double *now);
/* True when ticks is a checkpoint interval past the last checkpoint. */
static inline bool perf_clock_due(const struct perf_clock *c, uint64_t ticks)
{
	return ticks - c->cp[c->n - 1].ticks >= c->check_ticks;
}
/* Seconds since the first checkpoint, by the checkpoints around ticks
 * (ticks not before the first one). */
double perf_clock_seconds(const struct perf_clock *c, uint64_t ticks);
void perf_clock_free(struct perf_clock *c);
/* Whether this build reads a cycle counter. */
bool perf_clock_have_cycles(void);

#endif
