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
#include "core/print.h"
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
		"  --json                       the same as one JSON object:\n"
		"    schema_version (1), a and b {file, device, port, netdev,\n"
		"    gid_index, ipv4} (the IPv4 RoCE v2 GID to give -x, null for\n"
		"    none), gid_pair (both have one), mismatches [{what, a, b,\n"
		"    breaks}], not_compared (text, or null)\n"
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

/* One side: text "A: FILE, DEV port N on NETDEV", or an object. */
static void print_side(struct rd_printer *p, const char *key,
		       const char *label, const char *file,
		       const struct rd_cmp_side *s, int64_t gid,
		       const char *addr)
{
	rd_print_open_object(p, key);
	rd_print_text(p, "%s: ", label);
	rd_print_str(p, "file", "%s, ", file);
	rd_print_str(p, "device", "%s port ", s->dev->name ? s->dev->name : "?");
	rd_print_u64(p, "port", "%" PRIu64, s->port->port);
	if (s->port->netdev)
		rd_print_str(p, "netdev", " on %s", s->port->netdev);
	else
		rd_print_null(p, "netdev", NULL);
	rd_print_text(p, "\n");
	if (gid >= 0) {
		rd_print_s64(p, "gid_index", NULL, gid);
		rd_print_str(p, "ipv4", NULL, addr);
	} else {
		rd_print_null(p, "gid_index", NULL);
		rd_print_null(p, "ipv4", NULL);
	}
	rd_print_close(p);
}

static void print_gid(struct rd_printer *p, const struct rd_compare *c)
{
	bool pair = c->gid_a >= 0 && c->gid_b >= 0;

	rd_print_bool(p, "gid_pair", NULL, pair);
	if (pair) {
		rd_print_text(p, "GID: use -x %" PRId64 " on A", c->gid_a);
		rd_print_str(p, NULL, " (%s)", c->addr_a);
		rd_print_text(p, " and -x %" PRId64 " on B", c->gid_b);
		rd_print_str(p, NULL, " (%s)", c->addr_b);
		rd_print_text(p, ": their IPv4 RoCE v2 GIDs\n");
	} else {
		rd_print_text(p,
			      "GID: no IPv4 RoCE v2 GID on %s: no GID pair "
			      "works for RoCE v2 over IPv4\n",
			      c->gid_a < 0 && c->gid_b < 0 ? "A or B"
			      : c->gid_a < 0		 ? "A"
							 : "B");
	}
}

static int print_result(const char *file_a, const char *file_b,
			const struct rd_cmp_side *a,
			const struct rd_cmp_side *b,
			const struct rd_compare *c, bool json)
{
	struct rd_printer p;

	rd_print_begin(&p, stdout, json);
	rd_print_open_object(&p, NULL);
	rd_print_u64(&p, "schema_version", NULL, 1);
	print_side(&p, "a", "A", file_a, a, c->gid_a, c->addr_a);
	print_side(&p, "b", "B", file_b, b, c->gid_b, c->addr_b);
	print_gid(&p, c);
	rd_print_open_array(&p, "mismatches");
	for (size_t i = 0; i < c->n; i++) {
		rd_print_open_object(&p, NULL);
		rd_print_str(&p, "what", "%s differs: ", c->items[i].what);
		rd_print_str(&p, "a", "A %s, ", c->items[i].a);
		rd_print_str(&p, "b", "B %s\n", c->items[i].b);
		rd_print_str(&p, "breaks", "  %s\n", c->items[i].breaks);
		rd_print_close(&p);
	}
	rd_print_close(&p);
	if (c->unread[0])
		rd_print_str(&p, "not_compared",
			     "not compared (not in both snapshots): %s\n",
			     c->unread);
	else
		rd_print_null(&p, "not_compared", NULL);
	if (!c->n)
		rd_print_text(&p, "no mismatch found in what both snapshots "
				  "show\n");
	rd_print_close(&p);
	return rd_print_end(&p);
}

int cmd_diff(struct rd_cli *cli, int argc, char **argv)
{
	const char *dev_a = NULL, *dev_b = NULL;
	uint64_t port_a = 0, port_b = 0;
	bool json = false;
	const struct cli_opt opts[] = {
		CLI_TEXT("device-a", 0, &dev_a),
		CLI_TEXT("device-b", 0, &dev_b),
		CLI_U64("port-a", 0, &port_a, 1, 255),
		CLI_U64("port-b", 0, &port_b, 1, 255),
		CLI_FLAG("json", 0, &json),
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
	if (print_result(argv[r], argv[r + 1], &a, &b, &c, json) < 0) {
		cli_error(cli, "diff: cannot write the result");
		rd_compare_free(&c);
		goto out;
	}
	rc = c.n ? EXIT_DIFFER : EXIT_SAME;
	rd_compare_free(&c);
out:
	rd_snapshot_free(&sa);
	rd_snapshot_free(&sb);
	return rc;
}
