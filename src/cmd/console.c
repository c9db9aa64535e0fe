// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interactive console (rdmadiag with no command, --demo, --replay)
 * and `rdmadiag capture`, which records snapshots for --replay.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "core/recording.h"
#include "diag/data.h"
#include "console/capture.h"
#include "core/outfile.h"
#include "console/fixup.h"
#include "views/tty.h"
#include "views/ui.h"

#define DEMO_FILE "demo/cx6dx-demo.jsonl"

static void console_usage(FILE *f)
{
	fprintf(f, "usage: rdmadiag [-d SECS] [--demo | --replay FILE] "
		   "[--no-color] [--ascii]\n"
		   "                [--confirm-within S] [--store DIR]\n"
		   "  (no command)    the interactive console on this host's "
		   "RDMA ports\n"
		   "  -d, --delay S   refresh every S seconds (default 1, 0.2 "
		   ".. 3600)\n"
		   "  --demo          play the recorded demo host (loops)\n"
		   "  --replay FILE   play a recording made with 'rdmadiag "
		   "capture', or one\n"
		   "                  snapshot ('rdmadiag snapshot --json')\n"
		   "  --no-color      monochrome (also NO_COLOR=1 or a "
		   "terminal without colours)\n"
		   "  --ascii         ASCII only: boxes, lines, graphs, "
		   "ellipses (default in\n"
		   "                  non-UTF-8 locales)\n"
		   "  --confirm-within S  a change to link state, MTU or PFC "
		   "made with f is\n"
		   "                  reverted by itself after S seconds "
		   "unless kept with y\n"
		   "                  (default 30, 0 .. 3600; 0: no timer)\n"
		   "  --store DIR     the flight recorder's store (rdmadiag "
		   "record) read for\n"
		   "                  what happened before (default "
		   "/var/lib/rdmadiag/record\n"
		   "                  when this host is read)\n"
		   "  --sysfs-root DIR and the other root options read a "
		   "fixture tree\n"
		   "Press ? in the console for the keys.\n");
}

/* The console's options: one table, which the man-page test reads too. */
static struct con_args {
	double interval;
	const char *replay, *store;
	bool demo, no_color, ascii;
	uint64_t within;
} con_args;

const struct cli_opt cmd_console_opts[] = {
	CLI_SECONDS("delay", 'd', &con_args.interval, 0.2, 3600),
	CLI_FLAG("demo", 0, &con_args.demo),
	CLI_TEXT("replay", 0, &con_args.replay),
	CLI_FLAG("no-color", 0, &con_args.no_color),
	CLI_FLAG("ascii", 0, &con_args.ascii),
	CLI_U64("confirm-within", 0, &con_args.within, 0, 3600),
	CLI_TEXT("store", 0, &con_args.store),
	CLI_END,
};

int cmd_console(struct rd_cli *cli, int argc, char **argv)
{
	struct ui_opts o = { .source = CON_LIVE,
			     .self_exe = "/proc/self/exe" };
	const char *nc = getenv("NO_COLOR"), *cs;
	bool stuck;
	char demo[4096], err[256];
	int r;

	/*
	 * Under sudo, the caller's terminal database and locale files stay
	 * the caller's: root's ncurses and setlocale never load them.
	 */
	rd_env_scrub();
	con_args = (struct con_args){ .interval = 1.0,
				       .no_color = nc && *nc,
				       .within = CON_FIXUP_CONFIRM_DEFAULT };
	CLI_PARSE_OR_RETURN(cli, NULL, cmd_console_opts, console_usage, argc,
			    argv, 2);
	o.interval = con_args.interval;
	o.replay_path = con_args.replay;
	o.store = con_args.store;
	con_fixup_set_confirm_within((unsigned)con_args.within);
	if (o.replay_path)
		o.source = CON_REPLAY;
	else if (con_args.demo)
		o.source = CON_DEMO;
	if (optind < argc) {
		cli_error(cli, "unknown command \"%s\"", argv[optind]);
		return 2;
	}
	if (rd_data_path(DEMO_FILE, demo, sizeof(demo)) == 0)
		o.demo_path = demo;
	if (o.source == CON_DEMO) {
		if (!o.demo_path) {
			cli_error(cli, "the demo recording %s is not installed",
				  DEMO_FILE);
			return 1;
		}
		o.replay_path = demo;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error(cli, "the console needs a terminal; for text output "
			       "use 'rdmadiag snapshot' or 'rdmadiag check'");
		return 2;
	}
	if (tty_check(err, sizeof(err)) < 0) {
		cli_error(cli, "the console cannot run here: %s; for text "
			       "output use 'rdmadiag snapshot' or 'rdmadiag "
			       "check'", err);
		return 2;
	}
	setlocale(LC_ALL, "");
	/*
	 * The locale's characters, never its numbers: outside text
	 * ("8.0 GT/s", JSON) is read, and numbers are shown, as `check`
	 * does, whatever the decimal separator of the locale.
	 */
	setlocale(LC_NUMERIC, "C");
	cs = nl_langinfo(CODESET);
	o.utf8 = !con_args.ascii && cs && strcmp(cs, "UTF-8") == 0;
	o.color = !con_args.no_color;
	o.roots = &cli->roots;
	r = ui_run(&o, &stuck);
	if (stuck) {
		/* A probe still blocks in the kernel: leave without tearing
		 * down the libraries it is inside. */
		fflush(NULL);
		_exit(r < 0 ? 1 : 0);
	}
	return r < 0 ? 1 : 0; /* ui_run said why */
}

/* ---- capture ---- */

static volatile sig_atomic_t capture_stop;

static void capture_on_signal(int sig)
{
	capture_stop = 1;
}

static void capture_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag capture -o FILE [--force] [--seconds N] "
		"[--interval S]\n"
		"  -o, --output FILE   write the recording to this new file "
		"('-' =\n"
		"                      stdout); an existing name, a symlink "
		"too, is\n"
		"                      refused\n"
		"  --force             replace FILE (never what a symlink there "
		"points\n"
		"                      to) through a new file renamed over it "
		"at the end\n"
		"  --seconds N         how long to record (default 60)\n"
		"  --interval S        seconds between snapshots (default 1)\n"
		"The file has one JSON snapshot per line; play it with\n"
		"'rdmadiag --replay FILE'. Ctrl-C stops early and keeps what "
		"was taken.\n");
}

int cmd_capture(struct rd_cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = capture_on_signal };
	const char *out = NULL;
	double seconds = 60, interval = 1;
	struct rd_outfile of = { .f = NULL, .dirfd = -1 };
	bool force = false;
	size_t frames = 0;
	char err[512], cerr[512];
	const struct cli_opt opts[] = {
		CLI_TEXT("output", 'o', &out),
		CLI_FLAG("force", 0, &force),
		CLI_SECONDS("seconds", 0, &seconds, 0.001, 7 * 86400),
		CLI_SECONDS("interval", 0, &interval, 0.2, 3600),
		CLI_END,
	};
	FILE *f;
	int r;

	CLI_PARSE_OR_RETURN(cli, "capture", opts, capture_usage, argc, argv, 2);
	r = 0;
	if (!out || optind < argc) {
		capture_usage(stderr);
		return 2;
	}
	if (strcmp(out, "-") == 0) {
		f = stdout;
	} else if (rd_outfile_open(&of, out, force, 0644, err, sizeof(err)) <
		   0) {
		cli_error(cli, "capture: %s", err);
		return 1;
	} else {
		f = of.f;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	r = con_capture(&cli->roots, f, out, seconds, interval, &capture_stop,
			&frames, err, sizeof(err));
	if (r < 0)
		cli_error(cli, "%s", err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* What was taken is kept, also after Ctrl-C or a failed probe. */
	if (f != stdout && rd_outfile_close(&of, true, cerr, sizeof(cerr)) < 0 &&
	    r == 0) {
		cli_error(cli, "capture: %s", cerr);
		r = -EIO;
	}
	fprintf(stderr, "rdmadiag: captured %zu snapshot%s to %s\n", frames,
		frames == 1 ? "" : "s", out);
	return r < 0 ? 1 : 0;
}
