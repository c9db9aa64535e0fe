// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag: the subcommand table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"

struct subcommand {
	const char *name;
	int (*run)(struct rd_cli *cli, int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "snapshot", cmd_snapshot,
	  "print every RDMA device and port once (text or --json)" },
	{ "capture", cmd_capture,
	  "record snapshots for 'rdmadiag --replay FILE' (-o FILE)" },
	{ "bw", cmd_bw,
	  "verbs bandwidth test, perftest-compatible (ib_write_bw & co)" },
	{ "lat", cmd_lat,
	  "verbs latency test, perftest-compatible (ib_send_lat & co)" },
	{ "check", cmd_check,
	  "run the checklist: verdicts with evidence (text or --json)" },
	{ "diff", cmd_diff,
	  "compare the RDMA port of two hosts' snapshots (A.json B.json)" },
	{ "peer", cmd_peer,
	  "compare this host's RDMA port with another host's (peer HOST, --listen)" },
	{ "fix", cmd_fix, "apply a check's fix-up (root, journalled)" },
	{ "undo", cmd_undo, "revert the last (or a named) journalled fix-up" },
	{ "report", cmd_report,
	  "many hosts' check --json (pdsh, clush -b, a directory) in one table" },
	{ "explain", cmd_explain,
	  "what a completion error means, causes ranked by this host's evidence" },
	{ "env", cmd_env,
	  "NCCL, UCX or Open MPI variables for this host (NAME=value lines)" },
	{ "module", cmd_module,
	  "the cable or optics of a port, or an ethtool -m dump, decoded and judged" },
	{ "export", cmd_export,
	  "Prometheus metrics: stdout, a textfile, or HTTP (--listen)" },
	{ "record", cmd_record,
	  "the flight recorder: port, health and kernel log changes to a store" },
	{ "timeline", cmd_timeline,
	  "what the flight recorder kept, oldest first" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rdmadiag [COMMAND] [OPTIONS]\n\n"
		"With no command: the interactive console. Its options:\n"
		"  -d SECS            refresh interval (default 1)\n"
		"  --demo             play the recorded demo host\n"
		"  --replay FILE      play a recording made by 'rdmadiag capture' or a snapshot\n"
		"  --no-color, --ascii  monochrome / ASCII graphs\n"
		"\ncommands:\n");
	for (const struct subcommand *c = subcommands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f,
		"\ncommon options:\n"
		"  --root DIR         a fixture tree: DIR/sys, DIR/proc, DIR/dev, DIR/etc\n"
		"  --sysfs-root DIR   read DIR instead of /sys (env RDMADIAG_SYSFS_ROOT)\n"
		"  --proc-root DIR    read DIR instead of /proc (env RDMADIAG_PROC_ROOT)\n"
		"  --dev-root DIR     read DIR instead of /dev (env RDMADIAG_DEV_ROOT)\n"
		"  --etc-root DIR     read DIR instead of /etc (env RDMADIAG_ETC_ROOT)\n"
		"\n'rdmadiag COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
	struct rd_cli cli = { .prog = "rdmadiag" };

	rd_roots_init(&cli.roots);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("rdmadiag %s\n", PACKAGE_VERSION);
		return 0;
	}
	/* No command, or only options: the interactive console. */
	if (argc < 2 || argv[1][0] == '-')
		return cmd_console(&cli, argc, argv);
	for (const struct subcommand *c = subcommands; c->name; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->run(&cli, argc - 1, argv + 1);
	cli_error(&cli, "unknown command \"%s\"", argv[1]);
	usage(stderr);
	return 2;
}
