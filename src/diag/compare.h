/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compare one RDMA port of a host with one of another host (two
 * snapshots): what must agree for the two to talk, each mismatch with both
 * values and what it breaks, and the GID index each side should use.
 * Pure: no I/O; every string in a result is already escaped.
 */
#ifndef RD_DIAG_COMPARE_H
#define RD_DIAG_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/* One side: a snapshot, and the device and port of it compared. */
struct rd_cmp_side {
	const struct rd_snapshot *s;
	const struct rd_device *dev;
	const struct rd_port *port;
};

struct rd_cmp_item {
	char what[40];		/* "active MTU" */
	char a[160];		/* side a's value, escaped, with its unit */
	char b[160];
	char breaks[320];	/* what the mismatch breaks */
};

struct rd_compare {
	struct rd_cmp_item *items;
	size_t n;
	/* The IPv4 RoCE v2 GID index of each side, -1 for none. */
	int64_t gid_a, gid_b;
	char addr_a[64], addr_b[64];	/* their IPv4 addresses, escaped */
	/* What one snapshot lacks, so was not compared: "FEC, rate". */
	char unread[512];
};

/*
 * Pick the port of s to compare: by device name and/or port number when
 * given (dev NULL, port 0: any); else the only RDMA port; else the first
 * port with an IPv4 RoCE v2 GID.  0, or -1 with err set.
 */
int rd_cmp_pick(const struct rd_snapshot *s, const char *dev, uint64_t port,
		struct rd_cmp_side *side, char *err, size_t errlen);

/* Compare a with b into c (initialised here).  0, or -ENOMEM. */
int rd_compare(const struct rd_cmp_side *a, const struct rd_cmp_side *b,
	       struct rd_compare *c);
void rd_compare_free(struct rd_compare *c);

/* The IPv4 RoCE v2 GID index of a port (-1: none), its address in addr. */
int64_t rd_cmp_gid_v2_ipv4(const struct rd_port *p, char *addr, size_t len);

#endif
