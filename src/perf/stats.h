/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency percentiles and bandwidth figures, in floating point throughout. */
#ifndef RD_PERF_STATS_H
#define RD_PERF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every sample is kept, so memory bounds the count: at most this many
 * samples (8 bytes each, 128 MiB) per message size.
 */
#define PERF_LAT_MAX_SAMPLES (1u << 24)
/* perftest leaves the largest samples out of its figures: this many. */
#define PERF_LAT_PERFTEST_TAIL 2

struct perf_lat_stats {
	size_t n; /* every sample */
	/*
	 * perftest's figures, from the samples it keeps (all but the
	 * PERF_LAT_PERFTEST_TAIL largest; all of them when n <= that + 1)
	 * and at the indices it reads: max is the smallest sample left out,
	 * p99/p999 the sample at index ceil(kept * p). Computed in floating
	 * point (perftest truncates each deviation of its stdev to whole
	 * usec).
	 */
	size_t kept;
	double min, max, median, avg, stdev, p99, p999; /* usec */
	/* Over every sample: the true maximum, nearest-rank p99.99, mean
	 * and population standard deviation. */
	double max_all, p9999, avg_all, stdev_all; /* usec */
};

/* Sorts usec[] in place and fills st. -EINVAL when n == 0. */
int perf_lat_stats(double *usec, size_t n, struct perf_lat_stats *st);

#define PERF_LAT_HIST_MAX 64
/*
 * A histogram for people: up to PERF_LAT_HIST_MAX bins of one round width
 * (1, 2 or 5 times a power of ten usec) from the minimum to the
 * nearest-rank p99 (of a few hundred samples p99.9 is the maximum), so a
 * few huge outliers do not squeeze every other sample into one bin; the
 * samples above the last bin are counted in `over`, and reach up to the
 * true maximum.
 */
struct perf_lat_hist {
	double lo, width; /* usec: bin b holds [lo + b w, lo + (b + 1) w) */
	size_t nbins;
	size_t counts[PERF_LAT_HIST_MAX];
	size_t over;	 /* samples above lo + nbins w */
	double max;	 /* usec: the largest sample */
	size_t total;	 /* every sample */
};

/* sorted[n] ascending; at most max_bins (1..PERF_LAT_HIST_MAX) bins.
 * -EINVAL when n == 0 or max_bins is out of range. */
int perf_lat_hist(const double *sorted, size_t n, size_t max_bins,
		  struct perf_lat_hist *h);

/* perftest's units: MiB/s is 2^20 bytes/s, Gb/s is 10^9 bit/s. */
double perf_bw_mib(double bytes, double seconds);
double perf_bw_gbit(double bytes, double seconds);
double perf_msg_rate_mpps(double msgs, double seconds);
/* Rate in the unit the report uses. */
double perf_bw_unit(double bytes, double seconds, bool gbits);

/*
 * Peak bandwidth as perftest defines it: the best rate over any run of
 * messages from a post to a later completion. posts: (time, index of the
 * first message posted at that time), ascending; comps: (time, number of
 * messages complete at that time), ascending. Returns bytes per second,
 * 0 when nothing completed.
 */
struct perf_mark {
	double t;   /* seconds */
	uint64_t n; /* message index or count */
};
double perf_bw_peak(const struct perf_mark *posts, size_t nposts,
		    const struct perf_mark *comps, size_t ncomps,
		    uint64_t msg_size);

#endif
