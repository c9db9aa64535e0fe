// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "core/clock.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

/* The format is the caller's, one of the numeric ones clock.h names. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
bool rd_clock_fmt(double t, enum rd_clock_zone zone, const char *fmt,
		  const char *fallback, char *buf, size_t size)
{
	struct tm tm, *ok;
	time_t tt;

	if (!size)
		return false;
	if (isfinite(t) && t > -1e15 && t < 1e15) {
		tt = (time_t)t;
		ok = zone == RD_CLOCK_LOCAL ? localtime_r(&tt, &tm)
					    : gmtime_r(&tt, &tm);
		if (ok && strftime(buf, size, fmt, &tm) > 0)
			return true;
	}
	if (fallback)
		snprintf(buf, size, "%s", fallback);
	return false;
}
#pragma GCC diagnostic pop
