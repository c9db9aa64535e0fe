// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag check: probe, watch the counters for a window, evaluate. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "core/json.h"
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

static const char *const layer_titles[RD_LAYER_COUNT] = {
	"Hardware and firmware", "Kernel driver", "User-space library",
	"Network configuration", "Ports",	  "Host",
};

static const char *verdict_color(enum rd_verdict v)
{
	switch (v) {
	case RD_PASS:
		return "\033[32m";
	case RD_WARN:
		return "\033[33m";
	case RD_FAIL:
		return "\033[1;31m";
	default:
		return "\033[36m";
	}
}

static void print_result(FILE *f, const struct rd_result *r, bool color,
			 bool verbose)
{
	bool detail = verbose || r->verdict != RD_PASS;

	fprintf(f, "  %s%-7s%s %-18s %s\n", color ? verdict_color(r->verdict) : "",
		rd_verdict_name(r->verdict), color ? "\033[0m" : "", r->check_id,
		r->summary ? r->summary : "");
	if (!detail)
		return;
	if (r->n_path > 1 || (verbose && r->n_path))
		for (size_t i = 0; i < r->n_path; i++)
			fprintf(f, "%28s %s %s\n", i ? "" : "path:",
				i ? "->" : "  ", r->path[i].text);
	for (size_t i = 0; i < r->n_evidence; i++) {
		const struct rd_evidence *e = &r->evidence[i];

		fprintf(f, "%28s %s: %s%s%s%s\n", i ? "" : "evidence:", e->what,
			e->value, e->source[0] ? "  [" : "", e->source,
			e->source[0] ? "]" : "");
	}
	if (verbose && r->why)
		fprintf(f, "%28s %s\n", "why:", r->why);
	if (r->verdict != RD_PASS && r->next_step)
		fprintf(f, "%28s %s\n", "next:", r->next_step);
	if (r->fix) {
		fprintf(f, "%28s %s\n", "fix:", r->fix->command);
		fprintf(f, "%28s rdmadiag fix %s", "", r->check_id);
		if (r->device)
			fprintf(f, " --device %s", r->device);
		if (r->port)
			fprintf(f, " --port %" PRIu64, r->port);
		fputc('\n', f);
	}
}

static void print_text(FILE *f, const struct rd_results *res, bool color,
		       bool verbose)
{
	size_t count[4] = { 0 };

	for (int l = 0; l < RD_LAYER_COUNT; l++) {
		bool header = false;

		for (size_t i = 0; i < res->n; i++) {
			if ((int)res->v[i].layer != l)
				continue;
			if (!header) {
				fprintf(f, "%s%s%s\n", color ? "\033[1m" : "",
					layer_titles[l], color ? "\033[0m" : "");
				header = true;
			}
			print_result(f, &res->v[i], color, verbose);
		}
	}
	for (size_t i = 0; i < res->n; i++)
		count[res->v[i].verdict & 3]++;
	fprintf(f, "\n%zu results: %zu FAIL, %zu WARN, %zu UNKNOWN, %zu PASS\n",
		res->n, count[RD_FAIL], count[RD_WARN], count[RD_UNKNOWN],
		count[RD_PASS]);
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
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct timespec t0, t;
	uint64_t tick = 0;
	int r;

	if (!cache)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		double left;

		r = rd_snapshot_take(&cli->roots, cache, tick, 0, s);
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
		tick++;
	}
	if (r < 0)
		rd_snapshot_free(s);
	rd_probe_cache_free(cache);
	return r;
}

int cmd_check(struct rd_cli *cli, int argc, char **argv)
{
	struct rd_diag_opts o;
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res = { 0 };
	bool json = false, strict = false, verbose = false;
	const char *load = NULL;
	double window = 2.0;
	int r, rc;

	rd_diag_opts_init(&o);
	const struct cli_opt opts[] = {
		CLI_FLAG("json", 0, &json),
		CLI_TEXT("device", 0, &o.device),
		CLI_U64("port", 0, &o.port, 1, 255),
		CLI_TEXT("only", 0, &o.only_area),
		CLI_FLAG("strict", 0, &strict),
		CLI_SECONDS("window", 0, &window, 0, 3600),
		CLI_TEXT("load", 0, &load),
		CLI_U64("hugepages", 0, &o.hugepages_wanted, 0, 1099511627776.0),
		CLI_INT("numa-node", 0, &o.numa_node_wanted, 0, 4095),
		CLI_FLAG("verbose", 'v', &verbose),
		CLI_END,
	};

	r = cli_parse(cli, "check", opts, check_usage, argc, argv);
	if (r < 0)
		return r == CLI_HELP ? 0 : EXIT_RUN_ERROR;
	optind = r;
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
	if (json) {
		struct json_object *j = rd_results_to_json(&res);
		const char *txt = j ? json_object_to_json_string_ext(
					      j, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE) :
				      NULL;

		if (!txt) {
			json_object_put(j);
			cli_error(cli, "check: out of memory");
			rc = EXIT_RUN_ERROR;
			goto out;
		}
		fprintf(stdout, "%s\n", txt);
		json_object_put(j);
	} else {
		print_text(stdout, &res, cli_use_color(stdout), verbose);
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
