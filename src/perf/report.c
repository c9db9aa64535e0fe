// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress lines for the console: one JSON object per line on a file
 * descriptor, written whole so a reader never sees half a line. */
#include "config.h"
#include "perf/perf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void emit(int fd, const char *line, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, line, len);

		if (n <= 0)
			return; /* the reader went away: the test goes on */
		line += n;
		len -= (size_t)n;
	}
}

void perf_progress_bw(const struct perf_opts *o, double t, uint64_t size,
		      double bytes, uint64_t msgs, double interval_bytes,
		      double interval_s)
{
	char line[512];
	int n;

	if (o->progress_fd < 0)
		return;
	n = snprintf(
		line, sizeof(line),
		"{\"type\":\"progress\",\"test\":\"bw\",\"op\":\"%s\","
		"\"t\":%.3f,\"size\":%llu,\"bytes\":%.0f,\"msgs\":%llu,"
		"\"gbps\":%.6f,\"mibps\":%.3f,\"mpps\":%.6f}\n",
		perf_op_name(o->op), t, (unsigned long long)size, bytes,
		(unsigned long long)msgs,
		perf_bw_gbit(interval_bytes, interval_s),
		perf_bw_mib(interval_bytes, interval_s),
		perf_msg_rate_mpps(interval_bytes / (double)size, interval_s));
	if (n > 0 && (size_t)n < sizeof(line))
		emit(o->progress_fd, line, (size_t)n);
}

void perf_progress_lat(const struct perf_opts *o, double t, uint64_t size,
		       uint64_t n, double *interval_usec, size_t ni)
{
	struct perf_lat_stats st;
	char line[512];
	int len;

	if (o->progress_fd < 0 || ni == 0 ||
	    perf_lat_stats(interval_usec, ni, &st) < 0)
		return;
	len = snprintf(line, sizeof(line),
		       "{\"type\":\"progress\",\"test\":\"lat\",\"op\":\"%s\","
		       "\"t\":%.3f,\"size\":%llu,\"msgs\":%llu,\"samples\":%zu,"
		       "\"t_min\":%.3f,\"t_typical\":%.3f,\"t_avg\":%.3f,"
		       "\"t_p99\":%.3f,\"t_max\":%.3f}\n",
		       perf_op_name(o->op), t, (unsigned long long)size,
		       (unsigned long long)n, ni, st.min, st.median, st.avg,
		       st.p99, st.max);
	if (len > 0 && (size_t)len < sizeof(line))
		emit(o->progress_fd, line, (size_t)len);
}
