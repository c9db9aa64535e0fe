// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag fix / undo: apply a check's fix-up, journalled, and revert it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "core/escape.h"
#include "diag/diag.h"
#include "fix/fix.h"
#include "probes/probe.h"

enum { FIX_OK = 0, FIX_NOT_PASS = 1, FIX_NOT_APPLIED = 2, FIX_USAGE = 3 };

static void fix_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag fix CHECK [--device DEV] [--port N] [--yes]\n"
		"                    [--confirm-within SECONDS] [--journal FILE]\n"
		"                    [--hugepages N] [--trust-env]\n"
		"       rdmadiag fix --confirm ENTRY [--journal FILE]\n"
		"  CHECK           a check id from 'rdmadiag check' (port.state, port.mtu, ...)\n"
		"  --device, --port  which target, when the check has several\n"
		"  --yes           do not ask (otherwise asks on the terminal)\n"
		"  --confirm-within SECONDS  revert the change by itself after SECONDS\n"
		"                  unless it is confirmed (on the terminal, or with\n"
		"                  'rdmadiag fix --confirm ENTRY')\n"
		"  --confirm ENTRY keep a change whose rollback timer is running\n"
		"  --journal FILE  journal, for tests (default %s;\n"
		"                  env RDMADIAG_JOURNAL); same ownership checks\n"
		"  --hugepages N   for host.hugepages: the count wanted\n"
		"  --trust-env     root only: honour RDMADIAG_* under sudo\n"
		"Shows the equivalent shell command, applies it as root, journals the\n"
		"value it replaces first, then probes again to see the check pass.\n"
		"Only from a live reading of this host: with --root, --*-root or\n"
		"RDMADIAG_*_ROOT it prints the command as a dry run and changes nothing.\n"
		"exit status: 0 applied and the check passes, 1 applied but the check\n"
		"             does not pass yet, 2 not applied (refused, declined,\n"
		"             failed, nothing to fix), 3 bad usage\n",
		rd_journal_default_path());
}

static void undo_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag undo [ENTRY] [--journal FILE] [--list]\n"
		"  ENTRY           a journal entry id (default: the last change still in place)\n"
		"  --list          list the journal's entries\n"
		"  --journal FILE  journal (default %s)\n"
		"Restores the value the change replaced, and journals that too.\n"
		"exit status: 0 restored, 2 not restored, 3 bad usage\n",
		rd_journal_default_path());
}

static int take(struct rd_cli *cli, struct rd_snapshot *s)
{
	return rd_snapshot_take(&cli->roots, NULL, 0, 0, s);
}

static bool same_target(const struct rd_result *r, const char *dev,
			uint64_t port)
{
	if (!dev)
		return r->device == NULL;
	return r->device && strcmp(r->device, dev) == 0 && r->port == port;
}

static bool confirm(const struct rd_result *r)
{
	FILE *tty = fopen("/dev/tty", "r+");
	char line[16] = "";
	bool yes;

	if (!tty)
		return false;
	fprintf(tty, "Apply \"%s\"%s? [y/N] ", rd_esc_tmp(r->fix->command),
		r->fix->undoable ? "" : " (cannot be undone)");
	fflush(tty);
	yes = fgets(line, sizeof(line), tty) &&
	      (line[0] == 'y' || line[0] == 'Y');
	fclose(tty);
	return yes;
}

/* The rollback dialog on the terminal: true when the person keeps it. */
static bool ask_keep(const struct rd_fix_done *d)
{
	FILE *tty = fopen("/dev/tty", "r+");
	struct timespec ts;
	struct pollfd p;
	char line[16] = "";
	double left;
	bool keep = false;

	if (!tty)
		return false;
	clock_gettime(CLOCK_REALTIME, &ts);
	/* Answer before the timer fires, with a second to spare. */
	left = d->confirm_by - ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9) - 1;
	fprintf(tty, "Keep this change? It is reverted in %.0f s unless you answer y. [y/N] ",
		left > 0 ? left : 0);
	fflush(tty);
	p = (struct pollfd){ .fd = fileno(tty), .events = POLLIN };
	if (left > 0 && poll(&p, 1, (int)(left * 1000)) == 1 &&
	    fgets(line, sizeof(line), tty))
		keep = line[0] == 'y' || line[0] == 'Y';
	else
		fputc('\n', tty);
	fclose(tty);
	return keep;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Probe again until the check passes for the target (links settle). */
static int verify(struct rd_cli *cli, const struct rd_diag_opts *o,
		  const char *id, const char *dev, uint64_t port)
{
	enum rd_verdict v = RD_UNKNOWN;
	char summary[512] = "";

	for (int tries = 0; tries < 20; tries++) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		bool seen = false;

		if (take(cli, &s) < 0) {
			rd_snapshot_free(&s);
			break;
		}
		if (rd_diag_run(&s, NULL, o, &res) == 0)
			for (size_t i = 0; i < res.n; i++) {
				const struct rd_result *r = &res.v[i];

				if (strcmp(r->check_id, id) != 0)
					continue;
				/* rxe add: the host-wide result becomes a device. */
				if (!same_target(r, dev, port) && dev)
					continue;
				if (!seen || r->verdict > v) {
					v = r->verdict;
					snprintf(summary, sizeof(summary), "%s",
						 r->summary ? r->summary : "");
				}
				seen = true;
			}
		rd_results_free(&res);
		rd_snapshot_free(&s);
		if (seen && v == RD_PASS)
			break;
		sleep_ms(500);
	}
	printf("re-probe: %s %s\n", rd_verdict_name(v), rd_esc_tmp(summary));
	return v == RD_PASS ? FIX_OK : FIX_NOT_PASS;
}

int cmd_fix(struct rd_cli *cli, int argc, char **argv)
{
	struct rd_diag_opts o;
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *pick = NULL;
	const char *journal = NULL, *id, *confirm_id = NULL, *why;
	struct rd_fix_opts fo = { .roots = &cli->roots };
	struct rd_fix_done done;
	uint64_t within = 0;
	bool yes = false, trust_env = false, journal_opt;
	size_t nfix = 0;
	char msg[1024];
	int r, rc;

	rd_diag_opts_init(&o);
	/* Before anything reads the environment: main() read it already. */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--trust-env") == 0) {
			if (rd_env_trust() < 0) {
				cli_error(cli, "fix: --trust-env is for root only");
				return FIX_USAGE;
			}
			rd_roots_init(&cli->roots);
		}
	const struct cli_opt opts[] = {
		CLI_TARGET(&o.device, &o.port),
		CLI_FLAG("yes", 'y', &yes),
		CLI_TEXT("journal", 0, &journal),
		CLI_U64("hugepages", 0, &o.hugepages_wanted, 0, 1099511627776.0),
		CLI_U64("confirm-within", 0, &within, 1, 3600),
		CLI_TEXT("confirm", 0, &confirm_id),
		CLI_FLAG("trust-env", 0, &trust_env),
		CLI_END,
	};

	CLI_PARSE_OR_RETURN(cli, "fix", opts, fix_usage, argc, argv, FIX_USAGE);
	journal_opt = journal != NULL;
	if (!journal)
		journal = rd_journal_default_path();
	fo.journal = journal;
	fo.confirm_within = (unsigned)within;
	if (confirm_id) {
		if (optind != argc) {
			fix_usage(stderr);
			return FIX_USAGE;
		}
		r = rd_fix_confirm(journal, confirm_id, msg, sizeof(msg));
		if (r < 0) {
			cli_error(cli, "fix: %s", msg);
			return FIX_NOT_APPLIED;
		}
		printf("%s\n", msg);
		return FIX_OK;
	}
	if (optind + 1 != argc) {
		fix_usage(stderr);
		return FIX_USAGE;
	}
	id = argv[optind];
	if (!rd_check_find(id)) {
		cli_error(cli, "fix: no check \"%s\" (rdmadiag check lists them)",
			  rd_esc_tmp(id));
		return FIX_USAGE;
	}
	o.only_area = id;
	r = take(cli, &s);
	if (r < 0) {
		cli_error(cli, "cannot take a snapshot: %s", strerror(-r));
		rd_snapshot_free(&s);
		return FIX_NOT_APPLIED;
	}
	if (rd_diag_filter_check(&s, &o, msg, sizeof(msg)) < 0) {
		cli_error(cli, "fix: %s", msg);
		rd_snapshot_free(&s);
		return FIX_USAGE;
	}
	/*
	 * From a container a module, a sysctl or a link would be changed
	 * on the host's kernel through this namespace: refused.
	 */
	if (rd_diag_in_container(&s)) {
		cli_error(cli,
			  "fix: not applied: inside a %s container; modules, "
			  "sysctls and links belong to the host's kernel: run "
			  "rdmadiag check and fix on the host",
			  rd_esc_tmp(s.host.container));
		rd_snapshot_free(&s);
		return FIX_NOT_APPLIED;
	}
	r = rd_diag_run(&s, NULL, &o, &res);
	for (size_t i = 0; r == 0 && i < res.n; i++)
		rd_fix_bind(res.v[i].fix, &s);
	rd_snapshot_free(&s);
	if (r < 0) {
		cli_error(cli, "fix: %s", strerror(-r));
		rd_results_free(&res);
		return FIX_NOT_APPLIED;
	}
	for (size_t i = 0; i < res.n; i++)
		if (res.v[i].fix && res.v[i].verdict != RD_PASS) {
			if (!pick)
				pick = &res.v[i];
			nfix++;
		}
	if (!pick) {
		for (size_t i = 0; i < res.n; i++)
			printf("%s %s: %s%s%s\n", rd_verdict_name(res.v[i].verdict),
			       id, rd_esc_tmp(res.v[i].summary),
			       res.v[i].next_step ? "\n  next: " : "",
			       res.v[i].next_step ? rd_esc_tmp(res.v[i].next_step) : "");
		printf("nothing to fix automatically for %s\n", id);
		rd_results_free(&res);
		return FIX_NOT_APPLIED;
	}
	if (nfix > 1) {
		cli_error(cli, "fix: %s has %zu targets; pick one with --device/--port:",
			  id, nfix);
		for (size_t i = 0; i < res.n; i++)
			if (res.v[i].fix && res.v[i].verdict != RD_PASS)
				fprintf(stderr, "  --device %s --port %" PRIu64 "  %s\n",
					res.v[i].device ? rd_shquote_tmp(res.v[i].device) : "-",
					res.v[i].port, rd_esc_tmp(res.v[i].summary));
		rd_results_free(&res);
		return FIX_USAGE;
	}
	printf("%s %s: %s\n", rd_verdict_name(pick->verdict), id,
	       rd_esc_tmp(pick->summary));
	printf("  command: %s\n  impact:  %s%s\n  %s\n",
	       rd_esc_tmp(pick->fix->command), rd_esc_tmp(pick->fix->impact),
	       pick->fix->disruptive ? " (disruptive)" : "",
	       pick->fix->undoable ? "can be undone with 'rdmadiag undo'" :
				     "cannot be undone");
	why = rd_fix_refusal(&fo);
	if (why) {
		printf("dry run, not applied: %s\n", why);
		cli_error(cli, "fix: not applied: %s. The command is: %s", why,
			  rd_esc_tmp(pick->fix->command));
		rd_results_free(&res);
		return FIX_NOT_APPLIED;
	}
	if (!yes && !(isatty(STDIN_FILENO) && confirm(pick))) {
		printf("not applied%s\n",
		       isatty(STDIN_FILENO) ? "" : " (no terminal to ask; use --yes)");
		rd_results_free(&res);
		return FIX_NOT_APPLIED;
	}
	r = rd_fixup_apply(pick->fix, &fo, &done, msg, sizeof(msg));
	printf("%s\n", msg);
	if (r < 0) {
		rd_results_free(&res);
		return FIX_NOT_APPLIED;
	}
	rc = verify(cli, &o, id, pick->device, pick->port);
	if (within && done.id[0] && done.confirm_by <= 0)
		printf("no rollback timer: this change cannot be undone\n");
	if (done.confirm_by > 0) {
		if (isatty(STDIN_FILENO) && ask_keep(&done)) {
			r = rd_fix_confirm(journal, done.id, msg, sizeof(msg));
			printf("%s\n", msg);
			if (r < 0)
				rc = FIX_NOT_APPLIED;
		} else {
			printf("rollback timer: reverted %" PRIu64 " s after the change "
			       "unless kept with: rdmadiag fix --confirm %s%s%s\n",
			       within, rd_shquote_tmp(done.id),
			       journal_opt ? " --journal " : "",
			       journal_opt ? rd_shquote_tmp(journal) : "");
		}
	}
	rd_results_free(&res);
	return rc;
}

static int list_journal(struct rd_cli *cli, const char *journal)
{
	struct rd_journal j;
	char err[512];

	if (rd_journal_read(journal, &j, err, sizeof(err)) < 0) {
		/* err escapes what it quotes */
		cli_error(cli, "%s", err);
		return FIX_NOT_APPLIED;
	}
	for (size_t i = 0; i < j.n; i++)
		rd_journal_print_entry(stdout, &j.v[i]);
	if (!j.n)
		printf("journal %s is empty\n", rd_esc_tmp(journal));
	rd_journal_free(&j);
	return 0;
}

int cmd_undo(struct rd_cli *cli, int argc, char **argv)
{
	const char *journal = NULL, *entry = NULL;
	struct rd_fix_opts fo = { 0 };
	bool list = false;
	char msg[1024];
	const struct cli_opt opts[] = {
		CLI_TEXT("journal", 0, &journal),
		CLI_FLAG("list", 0, &list),
		CLI_END,
	};
	int r;

	CLI_PARSE_OR_RETURN(cli, "undo", opts, undo_usage, argc, argv,
			    FIX_USAGE);
	if (optind < argc)
		entry = argv[optind++];
	if (optind < argc) {
		undo_usage(stderr);
		return FIX_USAGE;
	}
	if (!journal)
		journal = rd_journal_default_path();
	if (list)
		return list_journal(cli, journal);
	fo.journal = journal;
	r = rd_fixup_undo(&fo, entry, msg, sizeof(msg));
	if (r < 0) {
		cli_error(cli, "undo: %s", msg);
		return FIX_NOT_APPLIED;
	}
	printf("%s\n", msg);
	return 0;
}
