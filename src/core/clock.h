/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wall-clock times as people read them: one formatter for every time of
 * the epoch the project prints (a kernel-log record, a recorded event, a
 * snapshot), the caller choosing the zone and the strftime format. Only
 * numeric conversions are meant (%Y %m %d %H %M %S %z), which print the
 * same in every locale.
 */
#ifndef RD_CORE_CLOCK_H
#define RD_CORE_CLOCK_H

#include <stdbool.h>
#include <stddef.h>

enum rd_clock_zone {
	RD_CLOCK_UTC,
	RD_CLOCK_LOCAL, /* the host's TZ */
};

/* "2026-12-02 12:00:34 UTC": a moment on its own line of evidence. */
#define RD_CLOCK_UTC_LINE "%Y-%m-%d %H:%M:%S UTC"

/*
 * t (seconds since the epoch) written into buf with fmt in zone. False,
 * with buf set to fallback (NULL leaves buf alone), when t is not a
 * finite time, the zone conversion fails or the text does not fit.
 */
bool rd_clock_fmt(double t, enum rd_clock_zone zone, const char *fmt,
		  const char *fallback, char *buf, size_t size);

#endif
