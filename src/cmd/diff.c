// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag diff A B: compare the RDMA port of two hosts from their saved
 * snapshots (or recordings: the last frame), offline.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/recording.h"
#include "diag/compare.h"

enum { EXIT_SAME = 0, EXIT_DIFFER = 1, EXIT_DIFF_ERROR = 2 };

static void diff_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag diff [OPTIONS] A.json B.json\n"
		"  Compare one RDMA port of host A with one of host B, from their\n"
		"  snapshots (rdmadiag snapshot --json) or recordings (rdmadiag\n"
		"  capture: the last frame).  With several ports, the one with an\n"
		"  IPv4 RoCE v2 GID is taken, or the one named:\n"
		"  --device-a DEV, --port-a N   the port of A\n"
		"  --device-b DEV, --port-b N   the port of B\n"
		"exit status: 0 nothing differs, 1 mismatches listed, 2 bad usage\n"
		"or a file that cannot be read\n");
}

/* A snapshot file, or a recording's last frame. */
static int load(struct rd_cli *cli, const char *file, struct rd_snapshot *s)
{
	char err[1024];
	int r = rd_recording_load_last(file, s, err, sizeof(err));

	if (r < 0)
		cli_error(cli, "diff: %s", err);
	return r;
}

static void print_side(const char *label, const char *file,
		       const struct rd_cmp_side *s)
{
	printf("%s: %s, %s port %" PRIu64 "%s%s\n", label, rd_esc_tmp(file),
	       rd_esc_tmp(s->dev->name ? s->dev->name : "?"), s->port->port,
	       s->port->netdev ? " on " : "",
	       s->port->netdev ? rd_esc_tmp(s->port->netdev) : "");
}

int cmd_diff(struct rd_cli *cli, int argc, char **argv)
{
	const char *dev_a = NULL, *dev_b = NULL;
	uint64_t port_a = 0, port_b = 0;
	const struct cli_opt opts[] = {
		CLI_TEXT("device-a", 0, &dev_a),
		CLI_TEXT("device-b", 0, &dev_b),
		CLI_U64("port-a", 0, &port_a, 1, 255),
		CLI_U64("port-b", 0, &port_b, 1, 255),
		CLI_END,
	};
	struct rd_snapshot sa = { 0 }, sb = { 0 };
	struct rd_cmp_side a, b;
	struct rd_compare c;
	char err[256];
	int r, rc = EXIT_DIFF_ERROR;

	r = cli_parse(cli, "diff", opts, diff_usage, argc, argv);
	if (r < 0)
		return r == CLI_HELP ? 0 : EXIT_DIFF_ERROR;
	if (argc - r != 2) {
		cli_error(cli, "diff: two files are needed, A and B (see --help)");
		return EXIT_DIFF_ERROR;
	}
	if (load(cli, argv[r], &sa) < 0)
		return EXIT_DIFF_ERROR;
	if (load(cli, argv[r + 1], &sb) < 0)
		goto out;
	if (rd_cmp_pick(&sa, dev_a, port_a, &a, err, sizeof(err)) < 0) {
		cli_error(cli, "diff: %s: %s", argv[r], err);
		goto out;
	}
	if (rd_cmp_pick(&sb, dev_b, port_b, &b, err, sizeof(err)) < 0) {
		cli_error(cli, "diff: %s: %s", argv[r + 1], err);
		goto out;
	}
	if (rd_compare(&a, &b, &c) < 0) {
		cli_error(cli, "diff: out of memory");
		goto out;
	}
	print_side("A", argv[r], &a);
	print_side("B", argv[r + 1], &b);
	if (c.gid_a >= 0 && c.gid_b >= 0)
		printf("GID: use -x %" PRId64 " on A (%s) and -x %" PRId64
		       " on B (%s): their IPv4 RoCE v2 GIDs\n",
		       c.gid_a, c.addr_a, c.gid_b, c.addr_b);
	else
		printf("GID: no IPv4 RoCE v2 GID on %s: no GID pair works for "
		       "RoCE v2 over IPv4\n",
		       c.gid_a < 0 && c.gid_b < 0 ? "A or B" :
		       c.gid_a < 0 ? "A" : "B");
	for (size_t i = 0; i < c.n; i++)
		printf("%s differs: A %s, B %s\n  %s\n", c.items[i].what,
		       c.items[i].a, c.items[i].b, c.items[i].breaks);
	if (c.unread[0])
		printf("not compared (not in both snapshots): %s\n", c.unread);
	if (!c.n)
		printf("no mismatch found in what both snapshots show\n");
	rc = c.n ? EXIT_DIFFER : EXIT_SAME;
	rd_compare_free(&c);
out:
	rd_snapshot_free(&sa);
	rd_snapshot_free(&sb);
	return rc;
}
