// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag report: many hosts' check --json in one table. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "fleet/fleet.h"

/* A host's verdict is a check verdict's number. */
_Static_assert((int)RD_FLEET_PASS == (int)RD_PASS &&
		       (int)RD_FLEET_UNKNOWN == (int)RD_UNKNOWN &&
		       (int)RD_FLEET_WARN == (int)RD_WARN &&
		       (int)RD_FLEET_FAIL == (int)RD_FAIL,
	       "fleet verdicts follow enum rd_verdict");

enum { REPORT_RUN_ERROR = 3 };

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag report [--json] [--hosts FILE] [--all] "
		"[DIR|FILE|-]\n"
		"  reads many hosts' 'rdmadiag check --json' and prints the "
		"findings\n"
		"  ranked across hosts, hosts with the same finding together, "
		"and\n"
		"  the hosts that did not answer, whose output is "
		"malformed, or in\n"
		"  conflict (named by two groups, results and a no-answer "
		"line, or\n"
		"  results naming another host; grouped output cannot vouch "
		"for\n"
		"  whose a group is: see the man page)\n"
		"  DIR               one file per host, named after the host\n"
		"                    (a \".json\" ending is dropped)\n"
		"  FILE, - (stdin)   gathered output: pdsh's \"host: line\" "
		"form with\n"
		"                    its error lines (2>&1), or clush -b's "
		"groups\n"
		"  --hosts FILE      the hosts that should answer, one name or "
		"node set\n"
		"                    (host[01-16]) a line; missing ones are "
		"listed\n"
		"  --all             every finding (default: the 40 worst)\n"
		"  --json            print the report as JSON\n"
		"exit status: 0 every host answered and none WARNs or FAILs,\n"
		"             1 a WARN, or a host did not answer or its output "
		"is\n"
		"             malformed or in conflict, 2 a FAIL, 3 the report "
		"could not run\n");
}

int cmd_report(struct rd_cli *cli, int argc, char **argv)
{
	const char *hosts = NULL, *in = "-";
	bool json = false, all = false;
	struct rd_fleet f;
	char err[512] = "";
	struct stat st;
	int r, rc;

	const struct cli_opt opts[] = {
		CLI_FLAG("json", 0, &json),
		CLI_TEXT("hosts", 0, &hosts),
		CLI_FLAG("all", 0, &all),
		CLI_END,
	};

	CLI_PARSE_OR_RETURN(cli, "report", opts, report_usage, argc, argv,
			    REPORT_RUN_ERROR);
	if (optind < argc)
		in = argv[optind++];
	if (optind < argc) {
		cli_error(cli, "report: unexpected argument \"%s\"",
			  argv[optind]);
		return REPORT_RUN_ERROR;
	}
	rd_fleet_init(&f);
	r = 0;
	if (hosts) {
		FILE *hf = fopen(hosts, "re");

		if (!hf) {
			cli_error(cli, "report: %s: %s", hosts,
				  strerror(errno));
			return REPORT_RUN_ERROR;
		}
		r = rd_fleet_read_host_list(&f, hf);
		fclose(hf);
		if (r < 0)
			snprintf(err, sizeof(err), "%s: %s", rd_esc_tmp(hosts),
				 r == -ERANGE ? "a node set has a number over "
						"999999999; refused"
				 : r == -E2BIG
					 ? "a node set names more than 100000 "
					   "hosts; refused"
					 : strerror(-r));
	}
	if (r == 0 && strcmp(in, "-") == 0 && isatty(STDIN_FILENO)) {
		cli_error(cli, "report: give a directory or a file, or pipe "
			       "gathered output in (see --help)");
		rd_fleet_free(&f);
		return REPORT_RUN_ERROR;
	}
	if (r == 0 && strcmp(in, "-") == 0) {
		r = rd_fleet_read_stream(&f, stdin, NULL);
		if (r < 0)
			snprintf(err, sizeof(err), "standard input: %s",
				 strerror(-r));
	} else if (r == 0 && stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
		r = rd_fleet_read_dir(&f, in, err, sizeof(err));
	} else if (r == 0) {
		FILE *fi = fopen(in, "re");
		const char *base = strrchr(in, '/');

		if (!fi) {
			snprintf(err, sizeof(err), "%s: %s", rd_esc_tmp(in),
				 strerror(errno));
			r = -errno;
		} else {
			r = rd_fleet_read_stream(&f, fi, base ? base + 1 : in);
			fclose(fi);
			if (r < 0)
				snprintf(err, sizeof(err), "%s: %s",
					 rd_esc_tmp(in), strerror(-r));
		}
	}
	if (r < 0) {
		cli_error(cli, "report: %s", err);
		rd_fleet_free(&f);
		return REPORT_RUN_ERROR;
	}
	rd_fleet_finish(&f);
	if (f.n_hosts == 0) {
		cli_error(cli, "report: no host output in %s",
			  strcmp(in, "-") ? in : "standard input");
		rd_fleet_free(&f);
		return REPORT_RUN_ERROR;
	}
	r = json ? rd_fleet_print_json(&f, stdout)
		 : rd_fleet_print_text(&f, stdout, all ? 0 : 40);
	rc = cli_verdict_status((enum rd_verdict)rd_fleet_worst(&f), false);
	for (size_t i = 0; i < f.n_hosts && rc == 0; i++)
		if (f.hosts[i].state != RD_FLEET_ANSWERED)
			rc = 1;
	if (r < 0 || fflush(stdout) != 0) {
		cli_error(cli, "report: cannot write output: %s",
			  strerror(r < 0 ? -r : errno));
		rc = REPORT_RUN_ERROR;
	}
	rd_fleet_free(&f);
	return rc;
}
