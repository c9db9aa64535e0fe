// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency statistics and bandwidth units. */
#include "config.h"
#include "perf/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* s[i], or the largest sample when i is past the end. */
static double at(const double *s, size_t n, size_t i)
{
	return s[i < n ? i : n - 1];
}

static void mean_stdev(const double *s, size_t n, double *avg, double *sd)
{
	double sum = 0, var = 0;

	for (size_t i = 0; i < n; i++)
		sum += s[i];
	*avg = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = s[i] - *avg;

		var += d * d;
	}
	*sd = sqrt(var / (double)n);
}

int perf_lat_stats(double *usec, size_t n, struct perf_lat_stats *st)
{
	size_t k;

	if (n == 0)
		return -EINVAL;
	qsort(usec, n, sizeof(*usec), cmp_dbl);
	/* perftest drops its tail even from a handful of samples (and reads
	 * past them); keep at least one here. */
	k = n > PERF_LAT_PERFTEST_TAIL ? n - PERF_LAT_PERFTEST_TAIL : 1;
	st->n = n;
	st->kept = k;
	st->min = usec[0];
	st->max = at(usec, n, k);
	/* perftest's median: the middle one of the kept, the mean of the
	 * two middle ones for an even count. */
	st->median = (k % 2) ? usec[k / 2] : (usec[k / 2 - 1] + usec[k / 2]) / 2;
	mean_stdev(usec, k, &st->avg, &st->stdev);
	st->p99 = at(usec, n, (size_t)ceil((double)k * 0.99));
	st->p999 = at(usec, n, (size_t)ceil((double)k * 0.999));
	st->max_all = usec[n - 1];
	st->p9999 = rank(usec, n, 0.9999);
	mean_stdev(usec, n, &st->avg_all, &st->stdev_all);
	return 0;
}

/* The smallest of 1, 2, 5 x 10^k not below x (x > 0). */
static double round_width(double x)
{
	double p = pow(10, floor(log10(x)));

	if (x <= p)
		return p;
	if (x <= 2 * p)
		return 2 * p;
	if (x <= 5 * p)
		return 5 * p;
	return 10 * p;
}

int perf_lat_hist(const double *sorted, size_t n, size_t max_bins,
		  struct perf_lat_hist *h)
{
	double hi;

	memset(h, 0, sizeof(*h));
	if (n == 0 || max_bins == 0 || max_bins > PERF_LAT_HIST_MAX)
		return -EINVAL;
	hi = rank(sorted, n, 0.99);
	h->total = n;
	h->max = sorted[n - 1];
	/* Bins on round edges: the print shows 2 decimals, so no bin is
	 * narrower than 0.01 usec. */
	h->width = round_width(fmax((hi - sorted[0]) / (double)max_bins, 0.01));
	for (;;) {
		/* Rounding lo down may need one more bin than max_bins:
		 * then the next round width. */
		h->lo = floor(sorted[0] / h->width) * h->width;
		h->nbins = (size_t)floor((hi - h->lo) / h->width) + 1;
		if (h->nbins <= max_bins)
			break;
		h->width = round_width(h->width * 1.5);
	}
	for (size_t i = 0; i < n; i++) {
		double b = floor((sorted[i] - h->lo) / h->width);

		if (b < 0)
			b = 0; /* rounding at the lower edge */
		if (b >= (double)h->nbins)
			h->over++;
		else
			h->counts[(size_t)b]++;
	}
	return 0;
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
