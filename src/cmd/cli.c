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

void cli_error(const struct rd_cli *cli, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	/* Messages quote paths, names and arguments: escape the whole line. */
	fprintf(stderr, "%s: ", cli && cli->prog ? cli->prog : "rdmadiag");
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	rd_fputs_esc(msg ? msg : "(message lost: out of memory)", stderr);
	free(msg);
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
	uint64_t v;

	if (!arg || rd_parse_u64(arg, 0, &v) < 0 || v < lo || v > hi) {
		cli_error(cli, "%s: \"%s\" is not a number in %" PRIu64 "..%" PRIu64,
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
		cli_error(cli, "%s: \"%s\" is not %g..%g seconds", opt,
			  arg ? arg : "", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}
