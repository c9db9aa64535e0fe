/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency percentiles and bandwidth figures, in floating point throughout. */
#ifndef RD_PERF_STATS_H
#define RD_PERF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_lat_stats {
	size_t n;
	double min, max, median, avg, stdev, p99, p999; /* usec */
};

/*
 * Sorts usec[] in place. median is the middle value (mean of the two
 * middle ones for even n); p99/p99.9 are nearest-rank percentiles;
 * stdev is the population standard deviation. -EINVAL when n == 0.
 */
int perf_lat_stats(double *usec, size_t n, struct perf_lat_stats *st);

/* Histogram of sorted samples: nbins equal-width bins from min to max. */
void perf_lat_histogram(const double *sorted, size_t n, size_t *bins,
			size_t nbins);

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
