// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag snapshot: probe once and print. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

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
		"  --bench N     refresh N times the way the console does and print\n"
		"                the cost per refresh (time, counters read)\n"
		"exit status: 0 snapshot taken (even with unreadable items),\n"
		"             1 no snapshot could be taken\n",
		RD_SCHEMA_VERSION);
}

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t count_counters(const struct rd_snapshot *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_devices; i++)
		for (size_t j = 0; j < s->devices[i].n_ports; j++)
			n += s->devices[i].ports[j].counters.n +
			     s->devices[i].ports[j].hw_counters.n;
	for (size_t i = 0; i < s->n_netdevs; i++)
		n += s->netdevs[i].ethtool.stats.n;
	return n;
}

/*
 * The console's steady state: one long-lived cache, refreshed N times.
 * Syscalls are counted from outside (tests/bench/refresh.sh runs this
 * under strace), so the loop does nothing but probe.
 */
static int run_bench(struct rd_cli *cli, long n)
{
	struct rd_probe_cache *cache = rd_probe_cache_new();
	double best = 1e9, t0, c0, total;
	size_t counters = 0, devices = 0, ports = 0, errors = 0;
	struct rusage ru;

	if (!cache)
		return 1;
	t0 = now_s(CLOCK_MONOTONIC);
	c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (long i = 0; i < n; i++) {
		struct rd_snapshot s;
		double a = now_s(CLOCK_MONOTONIC), b;

		if (rd_snapshot_take(&cli->roots, cache, (uint64_t)i, 0, &s) < 0) {
			cli_error(cli, "cannot take a snapshot: %s", cli->roots.sysfs);
			rd_probe_cache_free(cache);
			return 1;
		}
		b = now_s(CLOCK_MONOTONIC) - a;
		if (b < best)
			best = b;
		counters = count_counters(&s);
		devices = s.n_devices;
		errors = s.n_errors;
		ports = 0;
		for (size_t d = 0; d < s.n_devices; d++)
			ports += s.devices[d].n_ports;
		rd_snapshot_free(&s);
	}
	total = now_s(CLOCK_MONOTONIC) - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("refreshes          %ld\n", n);
	printf("devices/ports      %zu/%zu\n", devices, ports);
	printf("counters/refresh   %zu\n", counters);
	printf("errors/refresh     %zu\n", errors);
	if (n > 0) {
		printf("wall us/refresh    %.1f (best %.1f)\n", total * 1e6 / (double)n,
		       best * 1e6);
		printf("cpu us/refresh     %.1f\n",
		       (now_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e6 / (double)n);
	}
	printf("peak rss KiB       %ld\n", ru.ru_maxrss);
	rd_probe_cache_free(cache);
	return 0;
}

int cmd_snapshot(struct rd_cli *cli, int argc, char **argv)
{
	bool json = false, pretty = false, verbose = false;
	const char *load = NULL;
	uint64_t bench = UINT64_MAX;	/* stays so without --bench */
	struct rd_snapshot s;
	const struct cli_opt opts[] = {
		CLI_FLAG("json", 0, &json),
		CLI_FLAG("pretty", 0, &pretty),
		CLI_TEXT("load", 0, &load),
		CLI_U64("bench", 0, &bench, 0, 10000000),
		CLI_FLAG("verbose", 'v', &verbose),
		CLI_END,
	};
	int r;

	CLI_PARSE_OR_RETURN(cli, "snapshot", opts, snapshot_usage, argc, argv,
			    2);
	if (optind < argc) {
		cli_error(cli, "snapshot: unexpected argument \"%s\"", argv[optind]);
		return 2;
	}

	if (bench != UINT64_MAX)
		return run_bench(cli, (long)bench);
	if (load) {
		char err[512];

		r = rd_snapshot_load_file(load, &s, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "%s", err);
			return 1;
		}
	} else {
		r = rd_snapshot_take(&cli->roots, NULL, 0, 0, &s);
		if (r < 0) {
			cli_error(cli, "cannot take a snapshot: %s: %s",
				  cli->roots.sysfs, strerror(-r));
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
