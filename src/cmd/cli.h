/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared command-line plumbing for the subcommands. */
#ifndef RD_CMD_CLI_H
#define RD_CMD_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/roots.h"
#include "diag/diag.h"

struct rd_cli {
	struct rd_roots roots;
	const char *prog;
	FILE *err;		/* where cli_error writes; NULL = stderr */
};

/*
 * A command's options as a table: one row per option, written with the
 * macros below, ended by CLI_END. cli_parse() adds the common options
 * (--sysfs-root, --proc-root, --dev-root, --etc-root, --root) and
 * -h/--help, parses, range-checks and stores each value.
 */
enum cli_kind {
	CLI_KIND_FLAG,		/* bool, set to true */
	CLI_KIND_TEXT,		/* const char *, the argument itself */
	CLI_KIND_U64,		/* uint64_t in lo..hi, decimal or 0x hex */
	CLI_KIND_UINT,		/* unsigned in lo..hi */
	CLI_KIND_INT,		/* int in lo..hi */
	CLI_KIND_REAL,		/* double in lo..hi (finite) */
	CLI_KIND_CALL,		/* parse(cli, arg, dst): 0, or -1 printed */
};

struct cli_opt {
	const char *name;	/* long name without "--"; NULL ends */
	int key;		/* short option letter, 0 for none */
	enum cli_kind kind;
	void *dst;
	double lo, hi;		/* numbers: the accepted range */
	const char *unit;	/* numbers: said in the error message */
	int (*parse)(struct rd_cli *cli, const char *arg, void *dst);
};

#define CLI_FLAG(name, key, p) { name, key, CLI_KIND_FLAG, p, 0, 0, NULL, NULL }
#define CLI_TEXT(name, key, p) { name, key, CLI_KIND_TEXT, p, 0, 0, NULL, NULL }
#define CLI_U64(name, key, p, lo, hi) \
	{ name, key, CLI_KIND_U64, p, lo, hi, NULL, NULL }
#define CLI_UINT(name, key, p, lo, hi) \
	{ name, key, CLI_KIND_UINT, p, lo, hi, NULL, NULL }
#define CLI_INT(name, key, p, lo, hi) \
	{ name, key, CLI_KIND_INT, p, lo, hi, NULL, NULL }
#define CLI_SECONDS(name, key, p, lo, hi) \
	{ name, key, CLI_KIND_REAL, p, lo, hi, "seconds", NULL }
#define CLI_CALL(name, key, p, fn) \
	{ name, key, CLI_KIND_CALL, p, 0, 0, NULL, fn }
/* --device NAME and --port N (1..255), the target of a command. */
#define CLI_TARGET(device, port) \
	CLI_TEXT("device", 0, device), CLI_U64("port", 0, port, 1, 255)
#define CLI_END { NULL, 0, CLI_KIND_FLAG, NULL, 0, 0, NULL, NULL }

enum { CLI_HELP = -1, CLI_BAD = -2 };

/*
 * Parse argv (argv[0] is the command) against opts. Returns the index of
 * the first operand; CLI_HELP after usage(stdout) for -h/--help; CLI_BAD
 * after an error message, or usage(stderr) for an unknown option.
 * Messages start with cmd (NULL: the program's name only).
 */
int cli_parse(struct rd_cli *cli, const char *cmd, const struct cli_opt *opts,
	      void (*usage)(FILE *f), int argc, char **argv);

/*
 * cli_parse() at the top of a command: -h/--help returns 0 from the
 * calling command, a bad option returns bad; otherwise optind is set to
 * the first operand.
 */
#define CLI_PARSE_OR_RETURN(cli, cmd, opts, usage, argc, argv, bad)          \
	do {                                                                 \
		int cli_r_ = cli_parse((cli), (cmd), (opts), (usage), (argc), \
				       (argv));                               \
		if (cli_r_ < 0)                                              \
			return cli_r_ == CLI_HELP ? 0 : (bad);               \
		optind = cli_r_;                                             \
	} while (0)

/*
 * Number options: the whole argument must be the number (decimal, or hex
 * with 0x; seconds may have a fraction) within lo..hi. 0, or -1 with the
 * reason printed ("-p: "x" is not a number in 1..65535").
 */
int cli_number(const struct rd_cli *cli, const char *opt, const char *arg,
	       uint64_t lo, uint64_t hi, uint64_t *out);
int cli_seconds(const struct rd_cli *cli, const char *opt, const char *arg,
		double lo, double hi, double *out);

/* The exit status for the worst verdict: 2 for FAIL, 1 for WARN (and for
 * UNKNOWN when strict), 0 otherwise. */
int cli_verdict_status(enum rd_verdict worst, bool strict);

/* Colour on stdout: a TTY, NO_COLOR unset, TERM not dumb. */
bool cli_use_color(FILE *f);

/* "rdmadiag: message" on stderr. */
void cli_error(const struct rd_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int cmd_snapshot(struct rd_cli *cli, int argc, char **argv);
/* The interactive console (no command, --demo, --replay) and capture. */
int cmd_console(struct rd_cli *cli, int argc, char **argv);
extern const struct cli_opt cmd_console_opts[];
int cmd_capture(struct rd_cli *cli, int argc, char **argv);
/* Verbs bandwidth / latency tests (src/perf). */
int cmd_bw(struct rd_cli *cli, int argc, char **argv);
int cmd_lat(struct rd_cli *cli, int argc, char **argv);

/* Diagnosis: checks, fix-ups and their undo (src/diag). */
int cmd_check(struct rd_cli *cli, int argc, char **argv);
/* Offline comparison of two hosts' snapshots (src/diag/compare). */
int cmd_diff(struct rd_cli *cli, int argc, char **argv);
/* Both ends of the link, over TCP (src/peer). */
int cmd_peer(struct rd_cli *cli, int argc, char **argv);
int cmd_fix(struct rd_cli *cli, int argc, char **argv);
int cmd_undo(struct rd_cli *cli, int argc, char **argv);

/* Many hosts' check --json in one table (src/fleet). */
int cmd_report(struct rd_cli *cli, int argc, char **argv);
/* What a completion error means, ranked by evidence (src/diag/explain). */
int cmd_explain(struct rd_cli *cli, int argc, char **argv);
/* NCCL/UCX/Open MPI variables for this host (src/cmd/env.c). */
int cmd_env(struct rd_cli *cli, int argc, char **argv);
/* Prometheus metrics (src/export). */
int cmd_export(struct rd_cli *cli, int argc, char **argv);
/* rdmadiag module: decode and judge a port's module, or a dump. */
int cmd_module(struct rd_cli *cli, int argc, char **argv);
/* The flight recorder and the story it kept (src/cmd/record.c). */
int cmd_record(struct rd_cli *cli, int argc, char **argv);
int cmd_timeline(struct rd_cli *cli, int argc, char **argv);

#endif
