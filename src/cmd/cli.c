// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "cmd/cli.h"
#include "core/attr.h"
#include "core/escape.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/escape.h"

void cli_error(const struct rd_cli *cli, const char *fmt, ...)
{
	FILE *f = cli && cli->err ? cli->err : stderr;
	va_list ap;
	char *msg = NULL;

	/* Messages quote paths, names and arguments: escape the whole line. */
	fprintf(f, "%s: ", cli && cli->prog ? cli->prog : "rdmadiag");
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	rd_fputs_esc(msg ? msg : "(message lost: out of memory)", f);
	free(msg);
	fputc('\n', f);
}

/* The root options: a path read in place of /sys, /proc, /dev, /etc. */
static int set_root(struct rd_cli *cli, const char *arg, void *dst)
{
	if (rd_roots_set(dst, arg) < 0) {
		cli_error(cli, "invalid path \"%s\"",
			  arg ? arg : "");
		return -1;
	}
	cli->roots.redirected = true;
	return 0;
}

/* --root DIR: all four under one tree. */
static int set_all_roots(struct rd_cli *cli, const char *arg, void *dst)
{
	if (rd_roots_under(dst, arg) < 0) {
		cli_error(cli, "invalid path \"%s\"",
			  arg ? arg : "");
		return -1;
	}
	return 0;
}

/* getopt's value for row i of a table without a short letter. */
#define CLI_ROW_VAL 0x2000

static void opt_label(const struct cli_opt *o, char *buf, size_t size)
{
	if (o->key)
		snprintf(buf, size, "-%c", o->key);
	else
		snprintf(buf, size, "--%s", o->name);
}

static int store_number(struct rd_cli *cli, const char *cmd,
			const struct cli_opt *o, const char *arg)
{
	char label[64], name[128];
	uint64_t u;
	double d;

	opt_label(o, label, sizeof(label));
	snprintf(name, sizeof(name), "%s%s%s", cmd ? cmd : "", cmd ? ": " : "",
		 label);
	if (o->kind == CLI_KIND_REAL) {
		if (cli_seconds(cli, name, arg, o->lo, o->hi, &d) < 0)
			return -1;
		*(double *)o->dst = d;
		return 0;
	}
	if (cli_number(cli, name, arg, (uint64_t)o->lo, (uint64_t)o->hi, &u) < 0)
		return -1;
	if (o->kind == CLI_KIND_U64)
		*(uint64_t *)o->dst = u;
	else if (o->kind == CLI_KIND_UINT)
		*(unsigned *)o->dst = (unsigned)u;
	else
		*(int *)o->dst = (int)u;
	return 0;
}

static int store(struct rd_cli *cli, const char *cmd, const struct cli_opt *o,
		 const char *arg)
{
	switch (o->kind) {
	case CLI_KIND_FLAG:
		*(bool *)o->dst = true;
		return 0;
	case CLI_KIND_TEXT:
		*(const char **)o->dst = arg;
		return 0;
	case CLI_KIND_CALL:
		return o->parse(cli, arg, o->dst);
	default:
		return store_number(cli, cmd, o, arg);
	}
}

int cli_parse(struct rd_cli *cli, const char *cmd, const struct cli_opt *opts,
	      void (*usage)(FILE *f), int argc, char **argv)
{
	const struct cli_opt common[] = {
		CLI_CALL("sysfs-root", 0, cli->roots.sysfs, set_root),
		CLI_CALL("proc-root", 0, cli->roots.proc, set_root),
		CLI_CALL("dev-root", 0, cli->roots.dev, set_root),
		CLI_CALL("etc-root", 0, cli->roots.etc, set_root),
		CLI_CALL("root", 0, &cli->roots, set_all_roots),
	};
	const size_t n_common = sizeof(common) / sizeof(common[0]);
	struct cli_opt *all;
	struct option *lo;
	char shorts[128] = "h";
	size_t n = 0, ns = 1;
	int opt, r = 0;

	while (opts[n].name)
		n++;
	all = calloc(n + n_common, sizeof(*all));
	lo = calloc(n + n_common + 2, sizeof(*lo));
	if (!all || !lo) {
		free(all);
		free(lo);
		cli_error(cli, "out of memory");
		return CLI_BAD;
	}
	memcpy(all, opts, n * sizeof(*all));
	memcpy(all + n, common, sizeof(common));
	n += n_common;
	for (size_t i = 0; i < n; i++) {
		bool arg = all[i].kind != CLI_KIND_FLAG;

		lo[i] = (struct option){ all[i].name,
					 arg ? required_argument : no_argument,
					 NULL,
					 all[i].key ? all[i].key :
						      CLI_ROW_VAL + (int)i };
		if (all[i].key && ns + 3 < sizeof(shorts)) {
			shorts[ns++] = (char)all[i].key;
			if (arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	optind = 1;
	while (r == 0 && (opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *o = NULL;

		if (opt == 'h') {
			usage(stdout);
			r = CLI_HELP;
			break;
		}
		for (size_t i = 0; i < n && !o; i++)
			if (opt == (all[i].key ? all[i].key :
						 CLI_ROW_VAL + (int)i))
				o = &all[i];
		if (!o) {
			usage(stderr);
			r = CLI_BAD;
			break;
		}
		if (store(cli, cmd, o, optarg) < 0)
			r = CLI_BAD;
	}
	free(lo);
	free(all);
	return r < 0 ? r : optind;
}

int cli_verdict_status(enum rd_verdict worst, bool strict)
{
	switch (worst) {
	case RD_FAIL:
		return 2;
	case RD_WARN:
		return 1;
	case RD_UNKNOWN:
		return strict ? 1 : 0;
	default:
		return 0;
	}
}

bool cli_use_color(FILE *f)
{
	const char *term = getenv("TERM");
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return false;
	if (!term || strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(f));
}

int cli_number(const struct rd_cli *cli, const char *opt, const char *arg,
	       uint64_t lo, uint64_t hi, uint64_t *out)
{
	bool hex = arg && arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');
	uint64_t v;

	/* Decimal, or hexadecimal after 0x; a leading 0 is not octal. */
	if (!arg || rd_parse_u64(hex ? arg + 2 : arg, hex ? 16 : 10, &v) < 0 ||
	    v < lo || v > hi) {
		cli_error(cli, "%s \"%s\" is not a number in %" PRIu64 "..%" PRIu64,
			  opt, arg ? arg : "", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_seconds(const struct rd_cli *cli, const char *opt, const char *arg,
		double lo, double hi, double *out)
{
	double v;

	if (!arg || rd_parse_double(arg, &v) < 0 || !isfinite(v) || v < lo ||
	    v > hi) {
		cli_error(cli, "%s \"%s\" is not %g..%g seconds", opt,
			  arg ? arg : "", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}
