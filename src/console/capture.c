// SPDX-License-Identifier: GPL-2.0-or-later
/* The capture loop: probe, append, wait for the next tick. */
#include "config.h"
#include "console/capture.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "console/source.h"
#include "console/worker.h"

/* Sleep until next (monotonic seconds), or until *stop. */
void con_wait_until(double next, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		double wait = next - con_now();
		struct timespec ts;

		if (wait <= 0)
			return;
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

int con_capture(const struct rd_roots *roots, FILE *f, const char *name,
		double seconds, double interval, volatile sig_atomic_t *stop,
		size_t *frames, char *err, size_t errlen)
{
	struct con_source src;
	double start, next;
	int r;

	*frames = 0;
	r = con_source_open_live(&src, roots, err, errlen);
	if (r < 0)
		return r;
	start = next = con_now();
	while (!*stop) {
		struct rd_snapshot s;

		rd_snapshot_init(&s);
		r = con_source_next(&src, false, &s, err, errlen);
		if (r == 0) {
			r = rd_recording_append(f, &s);
			if (r == 0 && fflush(f) != 0)
				r = -errno;
			if (r < 0)
				snprintf(err, errlen, "%s: cannot write: %s",
					 name, strerror(-r));
		}
		rd_snapshot_free(&s);
		if (r < 0)
			break;
		(*frames)++;
		next += interval;
		if (next - start >= seconds + 1e-9)
			break;
		con_wait_until(next, stop);
	}
	con_source_close(&src);
	return r;
}
