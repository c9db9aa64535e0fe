/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared command-line plumbing for the subcommands. */
#ifndef RD_CMD_CLI_H
#define RD_CMD_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/roots.h"

struct rd_cli {
	struct rd_roots roots;
	const char *prog;
};

/* Long options every subcommand accepts (values above any short option). */
enum {
	CLI_OPT_SYSFS_ROOT = 0x1000,
	CLI_OPT_PROC_ROOT,
	CLI_OPT_DEV_ROOT,
	CLI_OPT_ETC_ROOT,
	CLI_OPT_ROOT,
};
#define CLI_COMMON_LONGOPTS                                               \
	{ "sysfs-root", required_argument, NULL, CLI_OPT_SYSFS_ROOT },    \
	{ "proc-root", required_argument, NULL, CLI_OPT_PROC_ROOT },      \
	{ "dev-root", required_argument, NULL, CLI_OPT_DEV_ROOT },        \
	{ "etc-root", required_argument, NULL, CLI_OPT_ETC_ROOT },        \
	{ "root", required_argument, NULL, CLI_OPT_ROOT }

/* Handle a common option: 1 handled, 0 not ours, -1 bad value (printed). */
int cli_common_option(struct rd_cli *cli, int opt, const char *arg);

/* Colour on stdout: a TTY, NO_COLOR unset, TERM not dumb. */
bool cli_use_color(FILE *f);

/* "rdmadiag: message" on stderr. */
void cli_error(const struct rd_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int cmd_snapshot(struct rd_cli *cli, int argc, char **argv);
/* The interactive console (no command, --demo, --replay) and capture. */
int cmd_console(struct rd_cli *cli, int argc, char **argv);
int cmd_capture(struct rd_cli *cli, int argc, char **argv);
/* Verbs bandwidth / latency tests (src/perf). */
int cmd_bw(struct rd_cli *cli, int argc, char **argv);
int cmd_lat(struct rd_cli *cli, int argc, char **argv);

/* Diagnosis: checks, fix-ups and their undo (src/diag). */
int cmd_check(struct rd_cli *cli, int argc, char **argv);
int cmd_fix(struct rd_cli *cli, int argc, char **argv);
int cmd_undo(struct rd_cli *cli, int argc, char **argv);

/* Prometheus metrics (src/export). */
int cmd_export(struct rd_cli *cli, int argc, char **argv);

#endif
