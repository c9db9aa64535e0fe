/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `rdmadiag peer HOST --json` (with --no-matrix unless the
 * reachability matrix is asked for) printed, as the console keeps it: the
 * mismatch list, the GID pair and the matrix. The console runs it as a
 * child (console/peer_run.c). What the child prints came from another
 * host: it is bounded, parsed with limits and escaped again before it is
 * kept.
 */
#ifndef RD_PEER_CHILD_H
#define RD_PEER_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/roots.h"

#define RD_PEER_CHILD_OUT_MAX (128u * 1024)
#define RD_PEER_CHILD_ITEMS 32

struct rd_peer_child_item {
	char what[48], here[160], peer[160], breaks[320];
};

/* One row of the reachability matrix: GID index here and there. */
struct rd_peer_child_pair {
	int64_t here, peer;
	char roce[4], family[8];
	bool works;
	char why[200];
};

#define RD_PEER_CHILD_PAIRS 16

struct rd_peer_child_result {
	char here[200], peer[240]; /* "host rxe0 port 1 on eth0" */
	char gid[200];		   /* the GID pair, or why there is none */
	struct rd_peer_child_item items[RD_PEER_CHILD_ITEMS];
	size_t n_items, n_total;
	char not_compared[256];
	/* the matrix, when it was asked for: its rows, or why none */
	struct rd_peer_child_pair pairs[RD_PEER_CHILD_PAIRS];
	size_t n_pairs;
	char matrix_not[256];
};

struct rd_peer_child {
	pid_t pid;
	int fd;
	char *out;
	size_t len;
	bool truncated;
	char target[128];	/* HOST[:PORT] as asked, escaped */
	bool matrix;		/* the reachability matrix was asked for */
	/* after the child ended */
	bool done, ok;
	char err[300];
	struct rd_peer_child_result res;
};

/* Parse a finished child's output (also used by the unit test). */
void rd_peer_child_parse(struct rd_peer_child *c, const char *out,
			 int exit_status);

#endif
