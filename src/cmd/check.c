// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag check: probe, watch the counters for a window, evaluate. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "core/json.h"
#include "core/print.h"
#include "diag/diag.h"
#include "probes/probe.h"

enum { EXIT_RUN_ERROR = 3 };

static void check_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag check [--json] [--device DEV] [--port N] [--only AREA]\n"
		"                      [--strict] [--window SECONDS] [--load FILE] [-v]\n"
		"  --json            print the results as a JSON array\n"
		"  --device DEV      only this RDMA device (host-wide checks still run)\n"
		"  --port N          only this port number\n"
		"  --only AREA       one area (port, qos, host, driver, dev, user, fw,\n"
		"                    hw, net, rdma_cm, counters), a layer (hw, driver,\n"
		"                    user, netcfg, port, host) or a check id (port.mtu)\n"
		"  --window SECONDS  sample the counters this long to see them rise\n"
		"                    (default 2; 0 = one snapshot, counters UNKNOWN)\n"
		"  --load FILE       evaluate a saved snapshot (rdmadiag snapshot --json)\n"
		"  --hugepages N     huge pages the workload needs (default: any)\n"
		"  --numa-node N     NUMA node the workload is planned to run on\n"
		"  --strict          UNKNOWN counts like WARN for the exit status\n"
		"  -v                show evidence and decision path of every result\n"
		"exit status: 0 all PASS (UNKNOWN allowed unless --strict),\n"
		"             1 a WARN (or an UNKNOWN with --strict), 2 a FAIL,\n"
		"             3 the check could not run (bad option, no snapshot)\n");
}

static void sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Probe now, then every second until the window ends; keep the last. */
static int collect(struct rd_cli *cli, double window, struct rd_snapshot *s,
		   struct rd_history *h)
{
	struct rd_probe_ctx ctx = { .roots = &cli->roots };
	struct timespec t0, t;
	int r;

	ctx.cache = rd_probe_cache_new();
	if (!ctx.cache)
		return -ENOMEM;
	if (cli->roots.redirected)
		ctx.flags |= RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		double left;

		rd_snapshot_init(s);
		r = rd_probe_all(&ctx, s);
		if (r < 0)
			break;
		r = rd_history_add(h, s);
		if (r < 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = window - ((double)(t.tv_sec - t0.tv_sec) +
				 (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
		if (left <= 0.01)
			break;
		rd_snapshot_free(s);
		sleep_seconds(left < 1.0 ? left : 1.0);
		ctx.tick++;
	}
	if (r < 0)
		rd_snapshot_free(s);
	rd_probe_cache_free(ctx.cache);
	return r;
}

int cmd_check(struct rd_cli *cli, int argc, char **argv)
{
	enum {
		OPT_JSON = 1,
		OPT_DEVICE,
		OPT_PORT,
		OPT_ONLY,
		OPT_STRICT,
		OPT_WINDOW,
		OPT_LOAD,
		OPT_HUGE,
		OPT_NUMA,
	};
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "load", required_argument, NULL, OPT_LOAD },
		{ "hugepages", required_argument, NULL, OPT_HUGE },
		{ "numa-node", required_argument, NULL, OPT_NUMA },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct rd_diag_opts o;
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res = { 0 };
	struct rd_printer pr;
	bool json = false, strict = false, verbose = false;
	const char *load = NULL;
	double window = 2.0;
	uint64_t u;
	int opt, r, rc;

	rd_diag_opts_init(&o);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		r = cli_common_option(cli, opt, optarg);
		if (r < 0)
			return EXIT_RUN_ERROR;
		if (r > 0)
			continue;
		switch (opt) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_DEVICE:
			o.device = optarg;
			break;
		case OPT_PORT:
			if (cli_number(cli, "check: --port", optarg, 1, 255,
				       &o.port))
				return EXIT_RUN_ERROR;
			break;
		case OPT_ONLY:
			o.only_area = optarg;
			break;
		case OPT_STRICT:
			strict = true;
			break;
		case OPT_WINDOW:
			if (cli_seconds(cli, "check: --window", optarg, 0, 3600,
					&window))
				return EXIT_RUN_ERROR;
			break;
		case OPT_LOAD:
			load = optarg;
			break;
		case OPT_HUGE:
			if (cli_number(cli, "check: --hugepages", optarg, 0,
				       UINT64_C(1) << 40, &o.hugepages_wanted))
				return EXIT_RUN_ERROR;
			break;
		case OPT_NUMA:
			if (cli_number(cli, "check: --numa-node", optarg, 0, 4095,
				       &u))
				return EXIT_RUN_ERROR;
			o.numa_node_wanted = (int)u;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			check_usage(stdout);
			return 0;
		default:
			check_usage(stderr);
			return EXIT_RUN_ERROR;
		}
	}
	if (optind < argc) {
		cli_error(cli, "check: unexpected argument \"%s\"", argv[optind]);
		return EXIT_RUN_ERROR;
	}
	if (o.only_area) {
		bool known = false;

		for (size_t i = 0; i < rd_n_checks && !known; i++) {
			const struct rd_check *c = &rd_checks[i];

			known = strcmp(c->area, o.only_area) == 0 ||
				strcmp(c->id, o.only_area) == 0 ||
				strcmp(rd_layer_name(c->layer), o.only_area) == 0;
		}
		if (!known) {
			cli_error(cli, "check: unknown area \"%s\" (see --help)",
				  o.only_area);
			return EXIT_RUN_ERROR;
		}
	}

	rd_history_init(&h);
	if (load) {
		char err[512];

		r = rd_snapshot_load_file(load, &s, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "%s", err);
			rd_history_free(&h);
			return EXIT_RUN_ERROR;
		}
		window = 0;
	} else {
		r = collect(cli, window, &s, &h);
		if (r < 0) {
			cli_error(cli, "cannot take a snapshot: %s: %s",
				  cli->roots.sysfs, strerror(-r));
			rd_history_free(&h);
			return EXIT_RUN_ERROR;
		}
	}
	o.counter_window = window > 0 ? window + 1.0 : 0;
	r = rd_diag_run(&s, window > 0 ? &h : NULL, &o, &res);
	if (r < 0) {
		cli_error(cli, "check: %s", strerror(-r));
		rc = EXIT_RUN_ERROR;
		goto out;
	}
	rd_results_sort(&res);
	rd_print_begin(&pr, stdout, json);
	pr.color = !json && cli_use_color(stdout);
	rd_results_print(&pr, &res, verbose);
	if (rd_print_end(&pr) < 0) {
		cli_error(cli, "check: cannot write the results");
		rc = EXIT_RUN_ERROR;
		goto out;
	}
	switch (rd_results_worst(&res)) {
	case RD_FAIL:
		rc = 2;
		break;
	case RD_WARN:
		rc = 1;
		break;
	case RD_UNKNOWN:
		rc = strict ? 1 : 0;
		break;
	default:
		rc = 0;
	}
	if (fflush(stdout) != 0) {
		cli_error(cli, "cannot write output: %s", strerror(errno));
		rc = EXIT_RUN_ERROR;
	}
out:
	rd_results_free(&res);
	rd_snapshot_free(&s);
	rd_history_free(&h);
	return rc;
}
