/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a bw/lat server listens when --bind is not given: the IPv4 address
 * of the netdev behind the selected port, so the out-of-band port is open
 * on the network the test runs on and not on every interface of the host.
 */
#ifndef RD_PERF_BIND_H
#define RD_PERF_BIND_H

#include <stddef.h>

struct rd_snapshot;

/*
 * 0 with addr set (a global-scope IPv4 address first, else any IPv4
 * address) and why saying where it came from; -ENOENT with why saying what
 * is missing (no such port, no netdev, no IPv4 address on it).
 */
int perf_bind_default(const struct rd_snapshot *s, const char *dev,
		      unsigned port, char *addr, size_t addrlen, char *why,
		      size_t whylen);

#endif
