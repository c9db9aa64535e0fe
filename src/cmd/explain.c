// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag explain: what a completion error means, and its likely causes here. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "console/store.h"
#include "core/attr.h"
#include "core/escape.h"
#include "diag/data.h"
#include "diag/diag.h"
#include "diag/explain.h"

enum { EXIT_UNKNOWN = 1, EXIT_RUN_ERROR = 3 };

static void explain_usage(FILE *f)
{
	fprintf(f, "usage: rdmadiag explain [--load FILE] [--window SECONDS] "
		   "[--device DEV]\n"
		   "                        [--port N] [--since DURATION] "
		   "[--store DIR] TEXT...\n"
		   "  TEXT              what the failing program printed: a "
		   "status name or\n"
		   "                    number (IBV_WC_RETRY_EXC_ERR, 12, "
		   "\"transport retry\n"
		   "                    counter exceeded\"), perftest's "
		   "\"Failed status 12: wr_id 0\n"
		   "                    syndrom 0x81\", NCCL's or UCX's error "
		   "line, an mlx5\n"
		   "                    \"vendor err 129\"; \"-\" or none "
		   "reads standard input\n"
		   "  --load FILE       rank the causes by a saved snapshot or "
		   "recording\n"
		   "                    instead of this host\n"
		   "  --window SECONDS  sample this host's counters this long "
		   "(default 2;\n"
		   "                    0 = one snapshot: totals, no rise)\n"
		   "  --device DEV      only this RDMA device's evidence "
		   "(default: the one\n"
		   "                    the text names, else every device)\n"
		   "  --port N          only this port's evidence\n"
		   "  --since D         the flight recorder's last D (90s, "
		   "30m, 2h, 7d) is\n"
		   "                    evidence too: a port that went down "
		   "and came back\n"
		   "  --store DIR       the recorder's store "
		   "(default " RD_STORE_DEFAULT ")\n"
		   "  --                the rest is text, even when it starts "
		   "with \"-\"\n"
		   "exit status: 0 explained, 1 the text is not a completion "
		   "error this\n"
		   "             table knows, 3 bad option, unreadable tables, "
		   "or --device\n"
		   "             or --port naming nothing here\n");
}

/* TEXT from the arguments, or standard input (bounded). */
static char *input_text(int argc, char **argv)
{
	size_t len = 0, cap = RD_EXPLAIN_INPUT_MAX + 2;
	char *t;

	if (argc > 0 && strcmp(argv[0], "-") != 0) {
		for (int i = 0; i < argc; i++)
			len += strlen(argv[i]) + 1;
		t = malloc(len + 1);
		if (!t)
			return NULL;
		t[0] = '\0';
		for (int i = 0; i < argc; i++) {
			if (i)
				strcat(t, " ");
			strcat(t, argv[i]);
		}
		return t;
	}
	t = malloc(cap);
	if (!t)
		return NULL;
	len = fread(t, 1, cap - 1, stdin);
	t[len] = '\0';
	/* NUL bytes end the text; the parser sees what precedes them. */
	return t;
}

int cmd_explain(struct rd_cli *cli, int argc, char **argv)
{
	struct cli_explain_job j = { 0 };
	struct cli_past past = { 0 };
	char *text;
	const char *load = NULL, *device = NULL;
	double window = 2.0;
	uint64_t port = 0;
	int r, known;

	const struct cli_opt opts[] = {
		CLI_TEXT("load", 0, &load),
		CLI_SECONDS("window", 0, &window, 0, 3600),
		CLI_TARGET(&device, &port),
		CLI_PAST(&past),
		CLI_END,
	};

	/* Options may follow the text; "--" ends them for text starting "-". */
	CLI_PARSE_OR_RETURN(cli, "explain", opts, explain_usage, argc, argv,
			    EXIT_RUN_ERROR);
	if (cli_explain_tables(cli, &j.wc, &j.m) < 0)
		return EXIT_RUN_ERROR;
	if (optind == argc && isatty(STDIN_FILENO)) {
		cli_error(cli, "explain: give the error text, or pipe it in");
		explain_usage(stderr);
		return EXIT_RUN_ERROR;
	}
	text = input_text(argc - optind, argv + optind);
	if (!text) {
		cli_error(cli, "explain: out of memory");
		return EXIT_RUN_ERROR;
	}
	known = rd_explain_parse(text, j.wc, j.m, &j.in);
	free(text);
	if (known < 0) {
		cli_error(cli, "explain: out of memory");
		return EXIT_RUN_ERROR;
	}
	if (j.in.truncated)
		fprintf(stderr, "rdmadiag: explain: only the first %d bytes were read\n",
			RD_EXPLAIN_INPUT_MAX);
	if (!known) {
		printf("Recognised: %s\n",
		       j.in.recognised[0] ? j.in.recognised : "nothing");
		if (j.in.status >= 0)
			printf("Status %d is not an ibv_wc_status value (they run 0 to %zu).\n",
			       j.in.status,
			       j.wc->n ? (size_t)j.wc->v[j.wc->n - 1].value : 0);
		else
			printf("Unknown: no completion status found in the text.\n");
		if (j.in.vendor_err >= 0 || j.in.syndrome >= 0)
			rd_explain_write_meaning(stdout, &j.in, j.wc, j.m);
		return EXIT_UNKNOWN;
	}
	rd_history_init(&j.h);
	cli_explain_gather(cli, load, window, &past, &j);
	/* --device/--port naming nothing here end the command, as for check. */
	if (j.have && (device || port)) {
		struct rd_diag_opts o;
		char why[256];

		rd_diag_opts_init(&o);
		o.device = device;
		o.port = port;
		if (rd_diag_filter_check(&j.s, &o, why, sizeof(why)) < 0) {
			cli_error(cli, "explain: %s", why);
			cli_explain_job_free(&j);
			cli_past_free(&past);
			return EXIT_RUN_ERROR;
		}
	}
	printf("Recognised: %s\n",
	       j.in.recognised[0] ? j.in.recognised : "nothing");
	j.ev.device = device ? device : j.in.device[0] ? j.in.device : NULL;
	j.ev.port = port ? (unsigned)port : j.in.port;
	/* A device the text names that this host does not have: look at all. */
	if (j.have && !device && j.ev.device) {
		bool found = false;

		for (size_t i = 0; i < j.s.n_devices && !found; i++)
			found = j.s.devices[i].name &&
				strcmp(j.s.devices[i].name, j.ev.device) == 0;
		if (!found) {
			printf("Note: %s is not a device %s; every device's evidence is used.\n",
			       rd_esc_tmp(j.ev.device), j.label);
			j.ev.device = NULL;
			j.ev.port = 0;
		}
	}
	r = rd_explain_write(stdout, &j.in, j.wc, j.m, &j.ev, j.label);
	cli_explain_job_free(&j);
	cli_past_free(&past);
	if (r < 0) {
		cli_error(cli, "explain: out of memory");
		return EXIT_RUN_ERROR;
	}
	if (fflush(stdout) != 0)
		return EXIT_RUN_ERROR;
	return 0;
}
