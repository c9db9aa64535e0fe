// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "cmd/cli.h"
#include "core/escape.h"

#include <errno.h>
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
