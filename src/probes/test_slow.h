/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A probe for tests only: it blocks as a driver stuck in a netlink wait
 * would. Compiled into tests/tui/rdmadiag-test alone (RD_TEST_PROBES),
 * never into the installed binary.
 */
#ifndef RD_PROBES_TEST_SLOW_H
#define RD_PROBES_TEST_SLOW_H

#include "probes/probe.h"

/* Waits RDMADIAG_TEST_PROBE_DELAY_MS milliseconds (0..60000), if set. */
int probe_test_slow_collect(const struct rd_probe_ctx *ctx,
			    struct rd_snapshot *s);

#endif
