// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag check: probe, watch the counters for a window, evaluate. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "console/store.h"
#include "core/attr.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/recording.h"
#include "core/print.h"
#include "diag/diag.h"
#include "fleet/nhc.h"
#include "probes/probe.h"

enum { EXIT_RUN_ERROR = 3 };

static void check_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag check [--json|--nhc] [--device DEV] [--port "
		"N] [--only AREA]\n"
		"                      [--strict] [--window SECONDS] [--load "
		"FILE [--frame N]] [-v]\n"
		"                      [--since DURATION] [--store DIR]\n"
		"  --json            print the results as a JSON array (each "
		"with the\n"
		"                    host name and the time of the snapshot)\n"
		"  --nhc             one line of at most 80 bytes and exit "
		"status 0 OK\n"
		"                    or 1 a FAIL (with --strict also a WARN or "
		"UNKNOWN),\n"
		"                    as Slurm NHC and node-problem-detector "
		"read them\n"
		"  --device DEV      only this RDMA device (host-wide checks "
		"still run)\n"
		"  --port N          only this port number\n"
		"  --only AREA       the checks of one area (port, qos, host, driver, dev,\n"
		"                    user, fw, hw, net, rdma_cm, counters, gpu, sriov,\n"
		"                    lag), one layer (hw, driver, user, port, netcfg,\n"
		"                    host, gpu) or one check id (port.mtu),\n"
		"                    in any letter case; a name both an area and a\n"
		"                    layer keeps both, \"port.\" the area alone\n"
		"  --window SECONDS  sample the counters this long to see them rise\n"
		"                    (default 2; 0 = one snapshot, counters UNKNOWN);\n"
		"                    with a recording: the seconds before the judged\n"
		"                    frame a counter's rate is taken over (default 10,\n"
		"                    as the console's)\n"
		"  --load FILE       evaluate a saved snapshot (rdmadiag snapshot --json)\n"
		"                    or a recording (rdmadiag capture): its last frame,\n"
		"                    with link downs counted over the whole recording\n"
		"  --frame N         with a recording: judge frame N (1 = the first)\n"
		"  --hugepages N     huge pages the workload needs (default: any)\n"
		"  --numa-node N     NUMA node the workload is planned to run on\n"
		"  --since D         what the flight recorder (rdmadiag record) kept of\n"
		"                    the last D (90s, 30m, 2h, 7d) is evidence: when\n"
		"                    each port went down and came back\n"
		"  --store DIR       the recorder's store (default " RD_STORE_DEFAULT ";\n"
		"                    alone: the last hour)\n"
		"  --strict          UNKNOWN counts like WARN for the exit status\n"
		"  -v                show evidence and decision path of every result\n"
		"                    (and keys of a loaded file that were not understood)\n"
		"exit status: 0 all PASS (UNKNOWN allowed unless --strict),\n"
		"             1 a WARN (or an UNKNOWN with --strict), 2 a "
		"FAIL,\n"
		"             3 the check could not run (bad option, no "
		"snapshot,\n"
		"             --device or --port naming nothing here);\n"
		"             nothing to judge (--only with no target here) is "
		"said,\n"
		"             and counts as an UNKNOWN\n");
}

/* Keys of the file the model did not take, as paths ("devices[0].x"). */
static void unknown_keys(struct json_object *in, struct json_object *known,
			 char *path, size_t len, const char *file, int *count)
{
	size_t off = strlen(path);

	if (json_object_is_type(in, json_type_array) &&
	    json_object_is_type(known, json_type_array)) {
		size_t n = json_object_array_length(in);

		if (json_object_array_length(known) < n)
			n = json_object_array_length(known);
		for (size_t i = 0; i < n; i++) {
			snprintf(path + off, len - off, "[%zu]", i);
			unknown_keys(json_object_array_get_idx(in, i),
				     json_object_array_get_idx(known, i), path,
				     len, file, count);
		}
		path[off] = '\0';
		return;
	}
	if (!json_object_is_type(in, json_type_object) ||
	    !json_object_is_type(known, json_type_object))
		return;
	json_object_object_foreach(in, key, val) {
		struct json_object *k;

		snprintf(path + off, len - off, "%s%s", off ? "." : "", key);
		if (!json_object_object_get_ex(known, key, &k)) {
			if (*count < 50)
				fprintf(stderr, "%s: unknown key %s (ignored)\n",
					rd_esc_tmp(file), rd_esc_tmp(path));
			(*count)++;
		} else {
			unknown_keys(val, k, path, len, file, count);
		}
		path[off] = '\0';
	}
}

static void report_unknown_keys(const char *file, const char *text,
				const struct rd_snapshot *s)
{
	struct json_object *in = text ? json_tokener_parse(text) : NULL;
	struct json_object *known = rd_snapshot_to_json(s);
	char path[1024] = "";
	int count = 0;

	if (in && known)
		unknown_keys(in, known, path, sizeof(path), file, &count);
	if (count > 50)
		fprintf(stderr, "%s: %d more unknown keys\n", rd_esc_tmp(file),
			count - 50);
	json_object_put(in);
	json_object_put(known);
}

/* Evidence judged from a file says so; its source stays (what the host
 * read, or what rdmadiag derived from it, e.g. the QoS model). */
static void label_evidence(struct rd_results *res, const char *label)
{
	for (size_t i = 0; i < res->n; i++)
		for (size_t k = 0; k < res->v[i].n_evidence; k++) {
			struct rd_evidence *e = &res->v[i].evidence[k];
			char *n = NULL;

			if (asprintf(&n, "%s%s%s", label,
				     e->source && e->source[0] ? "; source: " : "",
				     e->source ? e->source : "") < 0)
				continue;
			free(e->source);
			e->source = n;
		}
}

int cmd_check(struct rd_cli *cli, int argc, char **argv)
{
	struct rd_diag_opts o;
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res = { 0 };
	struct rd_printer pr;
	bool json = false, strict = false, verbose = false, nhc = false;
	const char *load = NULL;
	struct cli_loaded ld = { .label = "" };
	struct cli_past past = { 0 };
	double window = -1;	/* not given */
	uint64_t frame = 0;
	char nothing[256] = "";	/* why no result was judged */
	int r, rc;

	rd_diag_opts_init(&o);
	const struct cli_opt opts[] = {
		CLI_FLAG("json", 0, &json),
		CLI_FLAG("nhc", 0, &nhc),
		CLI_TARGET(&o.device, &o.port),
		CLI_TEXT("only", 0, &o.only_area),
		CLI_FLAG("strict", 0, &strict),
		CLI_SECONDS("window", 0, &window, 0, 3600),
		CLI_TEXT("load", 0, &load),
		CLI_U64("frame", 0, &frame, 1, RD_RECORDING_FRAMES_MAX),
		CLI_U64("hugepages", 0, &o.hugepages_wanted, 0,
			1099511627776.0),
		CLI_INT("numa-node", 0, &o.numa_node_wanted, 0, 4095),
		CLI_FLAG("verbose", 'v', &verbose),
		CLI_PAST(&past),
		CLI_END,
	};

	CLI_PARSE_OR_RETURN(cli, "check", opts, check_usage, argc, argv,
			    EXIT_RUN_ERROR);
	if (optind < argc) {
		cli_error(cli, "check: unexpected argument \"%s\"", argv[optind]);
		return EXIT_RUN_ERROR;
	}
	if (o.only_area && !rd_diag_only_known(o.only_area)) {
		cli_error(cli, "check: unknown area \"%s\" (see --help)",
			  o.only_area);
		return EXIT_RUN_ERROR;
	}

	if (nhc && json) {
		cli_error(cli, "check: --nhc and --json exclude each other");
		return EXIT_RUN_ERROR;
	}
	if (frame && !load) {
		cli_error(cli, "check: --frame needs --load FILE");
		return EXIT_RUN_ERROR;
	}
	rd_history_init(&h);
	if (load) {
		r = cli_evidence_load(cli, load, frame, &s, &h, &ld);
		if (r < 0) {
			free(ld.text);
			rd_history_free(&h);
			return EXIT_RUN_ERROR;
		}
		if (verbose)
			report_unknown_keys(load, ld.text, &s);
		/* A rate over the seconds asked for, else the console's;
		 * --window 0: the judged frame alone, as one snapshot. */
		o.rate_window = window > 0 && ld.window > 0 ? window + 1e-6 : 0;
		window = window == 0 ? 0 : ld.window;
	} else {
		if (window < 0)
			window = 2.0;
		r = cli_evidence_collect(cli, &window, &s, &h);
		if (r < 0) {
			cli_error(cli, "cannot take a snapshot: %s: %s",
				  cli->roots.sysfs, strerror(-r));
			rd_history_free(&h);
			return EXIT_RUN_ERROR;
		}
	}
	o.counter_window = window > 0 ? window + 1.0 : 0;
	if (!load)	/* all that was watched */
		o.rate_window = o.counter_window;
	o.from_file = load != NULL;
	cli_past_load(&past, &s, &o);
	{
		char why[256];

		if (rd_diag_filter_check(&s, &o, why, sizeof(why)) < 0) {
			cli_error(cli, "check: %s", why);
			rc = EXIT_RUN_ERROR;
			goto out;
		}
	}
	r = rd_diag_run(&s, window > 0 ? &h : NULL, &o, &res);
	if (r < 0) {
		cli_error(cli, "check: %s", strerror(-r));
		rc = EXIT_RUN_ERROR;
		goto out;
	}
	if (res.n == 0) {
		/*
		 * Nothing judged is neither a FAIL nor a PASS: it is said, and
		 * counts as an UNKNOWN (an error under --strict). It is not a
		 * check that could not run: on a fleet of both kinds, --only
		 * qos has nothing to judge on an InfiniBand host, which is no
		 * reason to take it out of service.
		 */
		snprintf(nothing, sizeof(nothing),
			 "nothing to judge: %s%s apply to no device or port here",
			 o.only_area ? "the checks of " : "the checks",
			 o.only_area ? rd_esc_tmp(o.only_area) : "");
	}
	rd_results_sort(&res);
	if (load)
		label_evidence(&res, ld.label);
	if (json) {
		struct json_object *j = rd_fleet_results_json(&res, &s);

		r = j ? rd_print_json_to(stdout, j, false) : -ENOMEM;
		json_object_put(j);
		if (r < 0) {
			cli_error(cli, "check: cannot write the results: %s",
				  strerror(-r));
			rc = EXIT_RUN_ERROR;
			goto out;
		}
	} else if (!nhc && nothing[0]) {
		printf("%s\n", nothing);
	} else if (!nhc) {
		rd_print_begin(&pr, stdout, false);
		pr.color = cli_use_color(stdout);
		rd_results_print(&pr, &res, verbose);
		if (rd_print_end(&pr) < 0) {
			cli_error(cli, "check: cannot write the results");
			rc = EXIT_RUN_ERROR;
			goto out;
		}
	}
	rc = cli_verdict_status(nothing[0] ? RD_UNKNOWN : rd_results_worst(&res),
				strict);
	if (nhc) {
		char line[RD_NHC_LINE_MAX + 1];

		if (nothing[0])
			snprintf(line, sizeof(line), "%s: %s",
				 strict ? "ERROR" : "OK", nothing);
		else
			rc = rd_nhc_line(&res, strict, line, sizeof(line));
		printf("%s\n", line);
	}
	if (fflush(stdout) != 0) {
		cli_error(cli, "cannot write output: %s", strerror(errno));
		rc = EXIT_RUN_ERROR;
	}
out:
	free(ld.text);
	cli_past_free(&past);
	rd_results_free(&res);
	rd_snapshot_free(&s);
	rd_history_free(&h);
	return rc;
}
