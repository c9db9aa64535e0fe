// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "cmd/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"

void cli_error(const struct rd_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli && cli->prog ? cli->prog : "rdmadiag");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_common_option(struct rd_cli *cli, int opt, const char *arg)
{
	char *dst;

	switch (opt) {
	case CLI_OPT_SYSFS_ROOT:
		dst = cli->roots.sysfs;
		break;
	case CLI_OPT_PROC_ROOT:
		dst = cli->roots.proc;
		break;
	case CLI_OPT_DEV_ROOT:
		dst = cli->roots.dev;
		break;
	case CLI_OPT_ETC_ROOT:
		dst = cli->roots.etc;
		break;
	case CLI_OPT_ROOT:
		if (rd_roots_under(&cli->roots, arg) < 0) {
			cli_error(cli, "invalid path \"%s\"", arg ? arg : "");
			return -1;
		}
		return 1;
	default:
		return 0;
	}
	if (rd_roots_set(dst, arg) < 0) {
		cli_error(cli, "invalid path \"%s\"", arg ? arg : "");
		return -1;
	}
	cli->roots.redirected = true;
	return 1;
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
	char label[64];
	uint64_t u;
	double d;
	int r;

	if (o->kind == CLI_KIND_REAL) {
		r = rd_parse_double(arg, &d);
		if (r == 0 && isfinite(d) && d >= o->lo && d <= o->hi) {
			*(double *)o->dst = d;
			return 0;
		}
	} else {
		bool hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');

		r = rd_parse_u64(hex ? arg + 2 : arg, hex ? 16 : 10, &u);
		if (r == 0 && (double)u >= o->lo && (double)u <= o->hi) {
			if (o->kind == CLI_KIND_U64)
				*(uint64_t *)o->dst = u;
			else if (o->kind == CLI_KIND_UINT)
				*(unsigned *)o->dst = (unsigned)u;
			else
				*(int *)o->dst = (int)u;
			return 0;
		}
	}
	opt_label(o, label, sizeof(label));
	cli_error(cli, "%s%s%s \"%s\" is not a number in %.15g..%.15g%s%s",
		  cmd ? cmd : "", cmd ? ": " : "", label, arg, o->lo, o->hi,
		  o->unit ? " " : "", o->unit ? o->unit : "");
	return -1;
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
	static const struct option common[] = {
		CLI_COMMON_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
	};
	const size_t n_common = sizeof(common) / sizeof(common[0]);
	struct option *lo;
	char shorts[128] = "h";
	size_t n = 0, ns = 1;
	int opt, r = 0;

	while (opts[n].name)
		n++;
	lo = calloc(n + n_common + 1, sizeof(*lo));
	if (!lo) {
		cli_error(cli, "out of memory");
		return CLI_BAD;
	}
	for (size_t i = 0; i < n; i++) {
		bool arg = opts[i].kind != CLI_KIND_FLAG;

		lo[i] = (struct option){ opts[i].name,
					 arg ? required_argument : no_argument,
					 NULL,
					 opts[i].key ? opts[i].key :
						       CLI_ROW_VAL + (int)i };
		if (opts[i].key && ns + 3 < sizeof(shorts)) {
			shorts[ns++] = (char)opts[i].key;
			if (arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	memcpy(lo + n, common, sizeof(common));
	optind = 1;
	while (r == 0 && (opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *o = NULL;

		r = cli_common_option(cli, opt, optarg);
		if (r != 0) {
			r = r > 0 ? 0 : CLI_BAD;
			continue;
		}
		if (opt == 'h') {
			usage(stdout);
			r = CLI_HELP;
			break;
		}
		for (size_t i = 0; i < n && !o; i++)
			if (opt == (opts[i].key ? opts[i].key :
						  CLI_ROW_VAL + (int)i))
				o = &opts[i];
		if (!o) {
			usage(stderr);
			r = CLI_BAD;
			break;
		}
		if (store(cli, cmd, o, optarg) < 0)
			r = CLI_BAD;
	}
	free(lo);
	return r < 0 ? r : optind;
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
