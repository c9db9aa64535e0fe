// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency statistics and bandwidth units. */
#include "config.h"
#include "perf/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest sample with at least p of them at or below. */
static double rank(const double *s, size_t n, double p)
{
	double r = ceil(p * (double)n);
	size_t i = r < 1 ? 0 : (size_t)r - 1;

	return s[i < n ? i : n - 1];
}

int perf_lat_stats(double *usec, size_t n, struct perf_lat_stats *st)
{
	double sum = 0, var = 0;

	if (n == 0)
		return -EINVAL;
	qsort(usec, n, sizeof(*usec), cmp_dbl);
	for (size_t i = 0; i < n; i++)
		sum += usec[i];
	st->n = n;
	st->avg = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = usec[i] - st->avg;

		var += d * d;
	}
	st->stdev = sqrt(var / (double)n);
	st->min = usec[0];
	st->max = usec[n - 1];
	st->median =
		(n % 2) ? usec[n / 2] : (usec[n / 2 - 1] + usec[n / 2]) / 2;
	st->p99 = rank(usec, n, 0.99);
	st->p999 = rank(usec, n, 0.999);
	return 0;
}

void perf_lat_histogram(const double *sorted, size_t n, size_t *bins,
			size_t nbins)
{
	double lo, width;

	for (size_t b = 0; b < nbins; b++)
		bins[b] = 0;
	if (n == 0 || nbins == 0)
		return;
	lo = sorted[0];
	width = (sorted[n - 1] - lo) / (double)nbins;
	for (size_t i = 0; i < n; i++) {
		size_t b = width > 0 ? (size_t)((sorted[i] - lo) / width) : 0;

		bins[b < nbins ? b : nbins - 1]++;
	}
}

double perf_bw_mib(double bytes, double seconds)
{
	return seconds > 0 ? bytes / seconds / 1048576.0 : 0;
}

double perf_bw_gbit(double bytes, double seconds)
{
	return seconds > 0 ? bytes * 8 / seconds / 1e9 : 0;
}

double perf_msg_rate_mpps(double msgs, double seconds)
{
	return seconds > 0 ? msgs / seconds / 1e6 : 0;
}

double perf_bw_unit(double bytes, double seconds, bool gbits)
{
	return gbits ? perf_bw_gbit(bytes, seconds)
		     : perf_bw_mib(bytes, seconds);
}

double perf_bw_peak(const struct perf_mark *posts, size_t nposts,
		    const struct perf_mark *comps, size_t ncomps,
		    uint64_t msg_size)
{
	double best = 0;
	/* Quadratic: sample the posts when there are many of them. */
	size_t step = nposts > 4096 ? nposts / 4096 : 1;
	size_t j0 = 0;

	for (size_t i = 0; i < nposts; i += step) {
		while (j0 < ncomps && comps[j0].n <= posts[i].n)
			j0++;
		for (size_t j = j0; j < ncomps; j++) {
			double dt = comps[j].t - posts[i].t;
			uint64_t msgs = comps[j].n - posts[i].n;
			double rate;

			if (dt <= 0)
				continue;
			rate = (double)msgs * (double)msg_size / dt;
			if (rate > best)
				best = rate;
		}
	}
	return best;
}
