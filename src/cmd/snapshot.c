// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag snapshot: probe once and print. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/json.h"
#include "probes/probe.h"
#include "views/text_snapshot.h"

static void snapshot_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag snapshot [--json] [--pretty] [-v] [--load FILE]\n"
		"  --json        print the snapshot as JSON (schema_version %d)\n"
		"  --pretty      indent the JSON\n"
		"  -v            list every attribute that could not be read\n"
		"  --load FILE   read a saved snapshot instead of probing\n"
		"exit status: 0 snapshot taken (even with unreadable items),\n"
		"             1 no snapshot could be taken\n",
		RD_SCHEMA_VERSION);
}

int cmd_snapshot(struct rd_cli *cli, int argc, char **argv)
{
	enum { OPT_JSON = 1, OPT_PRETTY, OPT_LOAD };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "pretty", no_argument, NULL, OPT_PRETTY },
		{ "load", required_argument, NULL, OPT_LOAD },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false, verbose = false;
	const char *load = NULL;
	struct rd_snapshot s;
	int opt, r;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		r = cli_common_option(cli, opt, optarg);
		if (r < 0)
			return 1;
		if (r > 0)
			continue;
		switch (opt) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_PRETTY:
			pretty = true;
			break;
		case OPT_LOAD:
			load = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			snapshot_usage(stdout);
			return 0;
		default:
			snapshot_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		cli_error(cli, "snapshot: unexpected argument \"%s\"", argv[optind]);
		return 2;
	}

	if (load) {
		char err[512];

		r = rd_snapshot_load_file(load, &s, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "%s", err);
			return 1;
		}
	} else {
		struct rd_probe_ctx ctx = { .roots = &cli->roots };

		if (cli->roots.redirected)
			ctx.flags |= RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
		rd_snapshot_init(&s);
		r = rd_probe_all(&ctx, &s);
		if (r < 0) {
			cli_error(cli, "cannot take a snapshot: %s: %s",
				  cli->roots.sysfs, strerror(-r));
			rd_snapshot_free(&s);
			return 1;
		}
	}
	if (json)
		r = rd_snapshot_write(&s, stdout, pretty);
	else
		view_text_snapshot(stdout, &s, cli_use_color(stdout), verbose);
	rd_snapshot_free(&s);
	if (fflush(stdout) != 0 || r < 0) {
		cli_error(cli, "cannot write output: %s", strerror(errno));
		return 1;
	}
	return 0;
}
