/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording snapshots for --replay: the loop behind `rdmadiag capture`,
 * one JSON line per snapshot, flushed as it goes so an interrupted
 * capture keeps what it took.
 */
#ifndef RD_CONSOLE_CAPTURE_H
#define RD_CONSOLE_CAPTURE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "core/roots.h"

/*
 * Take a snapshot every interval seconds for seconds seconds (or until
 * *stop is set) and append each to f (name is for messages). frames
 * counts those written.
 * 0, or -errno with err saying why it ended early.
 */
int con_capture(const struct rd_roots *roots, FILE *f, const char *name,
		double seconds, double interval, volatile sig_atomic_t *stop,
		size_t *frames, char *err, size_t errlen);

/* Sleep until con_now() reaches next, or until *stop is set. */
void con_wait_until(double next, volatile sig_atomic_t *stop);

#endif
