// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix-up engine: the trust rules in one place. Every change and every
 * undo goes: who asks (root, a live reading) -> is it a target and value a
 * check could produce (ops->check) -> journal locked and readable -> the
 * current value -> the kernel's range and identity of the target
 * (ops->validate) -> journal the value replaced -> change -> read back ->
 * journal the result. Undo treats a journal entry as a new request and
 * also insists that the live value is the one the entry left.
 */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/snapshot.h"

/* The fix kinds: one row each, the ops struct its file defines. */
#define RD_FIX_KINDS(X)                                                        \
	X(rd_fix_link_up_ops)                                                  \
	X(rd_fix_link_mtu_ops)                                                 \
	X(rd_fix_rxe_ops)                                                      \
	X(rd_fix_module_ops)                                                   \
	X(rd_fix_sysctl_ops)                                                   \
	X(rd_fix_pfc_ops)

#define DECLARE_OPS(ops) extern const struct rd_fix_ops ops;
#define LIST_OPS(ops) &ops,
RD_FIX_KINDS(DECLARE_OPS)
static const struct rd_fix_ops *const all_ops[] = { RD_FIX_KINDS(LIST_OPS) };
#define N_OPS (sizeof(all_ops) / sizeof(all_ops[0]))

const struct rd_fix_ops *rd_fix_ops_by_kind(enum rd_fix_kind k)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (all_ops[i]->kind == k)
			return all_ops[i];
	return NULL;
}

void rd_fix_change_command(const struct rd_fix_ops *k,
			   const struct rd_fix_target *t, const char *from,
			   const char *to, char *buf, size_t len)
{
	if (k->change_command && from)
		k->change_command(t, from, to, buf, len);
	else
		k->command(t, to, buf, len);
}

const struct rd_fix_ops *rd_fix_ops_by_name(const char *name)
{
	for (size_t i = 0; name && i < N_OPS; i++)
		if (strcmp(all_ops[i]->name, name) == 0)
			return all_ops[i];
	return NULL;
}

/* ---- the live host: the ops themselves ---- */

static int live_read(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		     const struct rd_fix_target *t, char *val, size_t len,
		     char *msg, size_t ml)
{
	(void)h;
	return k->read(t, val, len, msg, ml);
}

static int live_validate(const struct rd_fix_host *h,
			 const struct rd_fix_ops *k,
			 const struct rd_fix_target *t, const char *value,
			 char *msg, size_t ml)
{
	(void)h;
	return k->validate ? k->validate(t, value, msg, ml) : 0;
}

static int live_apply(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		      const struct rd_fix_target *t, const char *value,
		      char *msg, size_t ml)
{
	(void)h;
	return k->apply(t, value, msg, ml);
}

const struct rd_fix_host rd_fix_live_host = {
	.read = live_read,
	.validate = live_validate,
	.apply = live_apply,
};

/* ---- who may ask ---- */

const char *rd_fix_refusal(const struct rd_fix_opts *o)
{
	if (o && o->from_recording)
		return "the reading comes from a file (--load, --replay or --demo), not from this host";
	if (o && o->roots && o->roots->redirected)
		return "the reading comes from redirected roots (--root, --*-root or RDMADIAG_*_ROOT), not from this host";
	if (geteuid() != 0)
		return "changing the host needs root";
	return NULL;
}

bool rd_fix_kind_cuts_session(enum rd_fix_kind kind)
{
	const struct rd_fix_ops *k = rd_fix_ops_by_kind(kind);

	return k && k->cuts_session;
}

void rd_fix_bind(struct rd_fixup *f, const struct rd_snapshot *s)
{
	const struct rd_fix_ops *k;
	const char *nd;
	const struct rd_netdev *n;

	if (!f || !s)
		return;
	k = rd_fix_ops_by_kind(f->kind);
	if (!k || k->netdev_arg == RD_FIX_NETDEV_NONE)
		return;
	nd = k->netdev_arg == RD_FIX_NETDEV_ARG2 ? f->arg2 : f->arg;
	if (!nd)
		return;
	n = rd_snapshot_netdev(s, nd);
	f->ifindex = n && n->ifindex.ok ? n->ifindex.v : 0;
}

/* ---- shared steps ---- */

/*
 * A message cut short by its buffer may end inside a UTF-8 character:
 * drop the partial character so nothing invalid reaches a terminal.
 */
static char *tidy(char *s)
{
	size_t n = strlen(s), start = n;

	while (start > 0 && ((unsigned char)s[start - 1] & 0xc0) == 0x80)
		start--;
	if (start > 0 && (unsigned char)s[start - 1] >= 0xc0) {
		unsigned char c = (unsigned char)s[start - 1];
		size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;

		if (n - (start - 1) < want)
			s[start - 1] = '\0';
	}
	return s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *user_name(void)
{
	struct passwd *pw = getpwuid(getuid());
	char buf[64];

	if (pw && pw->pw_name)
		return strdup(pw->pw_name);
	snprintf(buf, sizeof(buf), "uid %u", (unsigned)getuid());
	return strdup(buf);
}

/* A new line for the journal: what it is about from src, made now. */
static void entry_start(struct rd_journal_entry *e,
			const struct rd_journal_entry *src, char *id, char *cmd)
{
	*e = *src;
	rd_journal_new_id(id, RD_JOURNAL_ID_MAX);
	e->id = id;
	e->time = now();
	e->user = user_name();
	e->command = cmd;
}

static bool produced_by(const struct rd_fix_ops *k, const char *check)
{
	for (size_t i = 0; check && k->checks[i]; i++)
		if (strcmp(k->checks[i], check) == 0)
			return true;
	return false;
}

/*
 * Journal e, change the host to e->after, read back, journal the result.
 * The journal stays locked throughout (jf).
 */
static int change(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		  const struct rd_fix_target *t, struct rd_journal_file *jf,
		  struct rd_journal_entry *e, char *msg, size_t ml)
{
	char err[512] = "", got[RD_FIX_VALUE_MAX] = "", res[600];
	int r;

	r = rd_journal_append_apply(jf, e, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", tidy(err));
		return r;
	}
	r = h->apply(h, k, t, e->after, err, sizeof(err));
	if (r == 0 && h->read(h, k, t, got, sizeof(got), err, sizeof(err)) < 0)
		got[0] = '\0';
	/* Accepted is not done: believe the state read back, not the ack. */
	if (r == 0 && got[0] && strcmp(got, e->after) != 0) {
		snprintf(err, sizeof(err),
			 "the change was accepted but the state is still %s",
			 rd_esc_tmp(got));
		r = -EIO;
	}
	if (r < 0)
		snprintf(res, sizeof(res), "failed: %s",
			 err[0] ? tidy(err) : strerror(-r));
	else
		snprintf(res, sizeof(res), "ok");
	tidy(res);
	if (rd_journal_append_result(jf, e->id, res, got[0] ? got : NULL, err,
				     sizeof(err)) < 0 && r == 0) {
		snprintf(msg, ml, "%s done, but the result was not journalled: %s",
			 rd_esc_tmp(e->command), tidy(err));
		return 0;
	}
	if (r < 0)
		snprintf(msg, ml, "%s %s", rd_esc_tmp(e->command), rd_esc_tmp(res));
	else
		snprintf(msg, ml, "%s: %s -> %s (journal %s, entry %s)",
			 rd_esc_tmp(e->command), rd_esc_tmp(e->before),
			 rd_esc_tmp(got[0] ? got : e->after),
			 rd_esc_tmp(jf->path), rd_esc_tmp(e->id));
	return r;
}

static int open_journal(const char *path, struct rd_journal_file *jf,
			struct rd_journal *j, char *msg, size_t ml)
{
	char err[512] = "";
	int r;

	r = rd_journal_open(path, RD_JOURNAL_WRITE, jf, err, sizeof(err));
	if (r == 0) {
		r = rd_journal_load(jf, j, err, sizeof(err));
		if (r < 0)
			rd_journal_close(jf);
	}
	if (r < 0)
		snprintf(msg, ml, "not changed: %s",
			 err[0] ? tidy(err) : strerror(-r));
	return r;
}

/* ---- apply ---- */

static int engine_apply(const struct rd_fix_host *h, const struct rd_fixup *f,
			const char *journal, unsigned confirm_within,
			struct rd_fix_done *done, char *msg, size_t ml)
{
	const struct rd_fix_ops *k = f ? rd_fix_ops_by_kind(f->kind) : NULL;
	char before[RD_FIX_VALUE_MAX] = "", after[RD_FIX_VALUE_MAX] = "";
	char id[RD_JOURNAL_ID_MAX], cmd[512], err[512] = "";
	struct rd_fix_target t;
	struct rd_journal_file jf;
	struct rd_journal j;
	struct rd_journal_entry e = { 0 };
	int r;

	if (done)
		memset(done, 0, sizeof(*done));
	if (!k || !f->arg) {
		snprintf(msg, ml, "no fix-up to apply");
		return -EINVAL;
	}
	t = (struct rd_fix_target){ f->arg, f->arg2, f->ifindex };
	if (!produced_by(k, f->id)) {
		snprintf(msg, ml, "not changed: check %s does not make %s fix-ups",
			 rd_esc_tmp(f->id), k->name);
		return -EINVAL;
	}
	r = open_journal(journal, &jf, &j, msg, ml);
	if (r < 0)
		return r;
	rd_journal_free(&j);
	r = h->read(h, k, &t, before, sizeof(before), err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: cannot read the current state: %s",
			 tidy(err));
		goto out;
	}
	if (k->target_value)
		r = k->target_value(f, before, after, sizeof(after));
	else
		r = snprintf(after, sizeof(after), "%s", k->words[0]) < 0;
	if (r == 0)
		r = k->check(&t, after, err, sizeof(err));
	if (r == 0 && k->revertible)
		r = k->check(&t, before, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", err[0] ? tidy(err) : "bad fix-up");
		r = -EINVAL;
		goto out;
	}
	if (strcmp(before, after) == 0) {
		snprintf(msg, ml, "nothing to change: already %s",
			 rd_esc_tmp(after));
		r = 0;
		goto out;
	}
	r = h->validate(h, k, &t, after, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", tidy(err));
		goto out;
	}
	rd_fix_change_command(k, &t, before, after, cmd, sizeof(cmd));
	entry_start(&e,
		    &(struct rd_journal_entry){
			    .check = f->id, .device = f->device, .port = f->port,
			    .kind = (char *)k->name, .arg = f->arg,
			    .arg2 = f->arg2, .ifindex = f->ifindex },
		    id, cmd);
	e.before = before;
	e.after = after;
	e.undoable = f->undoable && k->revertible;
	if (confirm_within && e.undoable)
		e.confirm_by = e.time + confirm_within;
	r = change(h, k, &t, &jf, &e, msg, ml);
	free(e.user);
	if (r == 0 && done) {
		snprintf(done->id, sizeof(done->id), "%s", id);
		done->confirm_by = e.confirm_by;
	}
out:
	rd_journal_close(&jf);
	return r;
}

/* ---- undo ---- */

static int undo_refuse(char *msg, size_t ml, const struct rd_journal_entry *t,
		       const char *why)
{
	snprintf(msg, ml, "entry %s not undone, nothing changed: %s",
		 rd_esc_tmp(t->id), why);
	return -EINVAL;
}

static int engine_undo(const struct rd_fix_host *h, const char *journal,
		       const char *entry, bool timer_only, char *msg,
		       size_t ml)
{
	const struct rd_journal_entry *t;
	const struct rd_fix_ops *k;
	char id[RD_JOURNAL_ID_MAX], cmd[512], err[512] = "", why[600];
	char live[RD_FIX_VALUE_MAX] = "";
	struct rd_fix_target tg;
	struct rd_journal_file jf;
	struct rd_journal j;
	struct rd_journal_entry e = { 0 };
	bool interrupted;
	int r;

	r = open_journal(journal, &jf, &j, msg, ml);
	if (r < 0)
		return r;
	t = entry ? rd_journal_find(&j, entry) : rd_journal_last_change(&j);
	if (!t) {
		if (entry)
			snprintf(msg, ml, "no entry %s in %s", rd_esc_tmp(entry),
				 rd_esc_tmp(journal));
		else
			snprintf(msg, ml, "nothing to undo in %s",
				 rd_esc_tmp(journal));
		r = -ENOENT;
		goto out;
	}
	if (timer_only) {
		if (t->confirmed || t->undone) {
			snprintf(msg, ml, "entry %s %s; kept", rd_esc_tmp(t->id),
				 t->confirmed ? "was confirmed" : "is already undone");
			r = 0;
			goto out;
		}
		/*
		 * The timer measured its wait on CLOCK_BOOTTIME: a wall clock
		 * stepped back since must not keep the change in place.
		 */
		if (t->confirm_by <= 0) {
			r = undo_refuse(msg, ml, t, "it has no rollback timer");
			goto out;
		}
	}
	k = rd_fix_ops_by_name(t->kind);
	if (t->undo_of) {
		r = undo_refuse(msg, ml, t, "it is itself an undo");
		goto out;
	}
	if (t->undone) {
		r = undo_refuse(msg, ml, t, "it is already undone");
		goto out;
	}
	if (!k) {
		r = undo_refuse(msg, ml, t, "unknown kind of change");
		goto out;
	}
	if (!k->revertible || !t->undoable) {
		r = undo_refuse(msg, ml, t, "this kind of change is not undone");
		goto out;
	}
	if (!produced_by(k, t->check)) {
		snprintf(why, sizeof(why), "check %s does not make %s changes",
			 rd_esc_tmp(t->check), k->name);
		r = undo_refuse(msg, ml, t, tidy(why));
		goto out;
	}
	tg = (struct rd_fix_target){ t->arg, t->arg2, t->ifindex };
	if (!t->arg || !t->before || !t->after ||
	    k->check(&tg, t->before, err, sizeof(err)) < 0 ||
	    k->check(&tg, t->after, err, sizeof(err)) < 0) {
		r = undo_refuse(msg, ml, t, err[0] ? tidy(err) : "target or values missing");
		goto out;
	}
	if (t->result && strcmp(t->result, "ok") != 0) {
		r = undo_refuse(msg, ml, t, "the change did not succeed");
		goto out;
	}
	r = h->read(h, k, &tg, live, sizeof(live), err, sizeof(err));
	if (r < 0) {
		snprintf(why, sizeof(why), "cannot read the current state: %s", tidy(err));
		r = undo_refuse(msg, ml, t, tidy(why));
		goto out;
	}
	interrupted = !t->result;
	if (interrupted && strcmp(live, t->before) == 0 &&
	    strcmp(live, t->after) != 0) {
		/* Stopped before the change took: record that, touch nothing. */
		snprintf(why, sizeof(why),
			 "interrupted: not in effect (found %s)", live);
		r = rd_journal_append_result(&jf, t->id, why, live, err,
					     sizeof(err));
		snprintf(msg, ml,
			 "entry %s was interrupted before its change took effect "
			 "(%s is %s, as before); nothing to undo%s",
			 rd_esc_tmp(t->id), rd_esc_tmp(t->arg), rd_esc_tmp(live),
			 r < 0 ? " (not journalled)" : "");
		goto out;
	}
	if (strcmp(live, t->after) != 0) {
		snprintf(why, sizeof(why),
			 "%s is %s, but the change left %s: something else changed it since",
			 rd_esc_tmp(t->arg), rd_esc_tmp(live), rd_esc_tmp(t->after));
		r = undo_refuse(msg, ml, t, tidy(why));
		r = -ESTALE;
		goto out;
	}
	r = h->validate(h, k, &tg, t->before, err, sizeof(err));
	if (r < 0) {
		r = undo_refuse(msg, ml, t, tidy(err));
		goto out;
	}
	rd_fix_change_command(k, &tg, t->after, t->before, cmd, sizeof(cmd));
	entry_start(&e,
		    &(struct rd_journal_entry){
			    .check = t->check, .device = t->device,
			    .port = t->port, .kind = t->kind, .arg = t->arg,
			    .arg2 = t->arg2, .ifindex = t->ifindex },
		    id, cmd);
	e.before = live;
	e.after = t->before;
	e.undo_of = t->id;
	r = change(h, k, &tg, &jf, &e, msg, ml);
	free(e.user);
	if (interrupted && r == 0) {
		size_t n = strlen(msg);

		snprintf(msg + n, ml - n,
			 "; entry %s had no result line (interrupted) and its change was in effect",
			 rd_esc_tmp(t->id));
	}
out:
	rd_journal_free(&j);
	rd_journal_close(&jf);
	return r;
}

int rd_fix_engine_apply(const struct rd_fix_host *h, const struct rd_fixup *f,
			const char *journal, unsigned confirm_within,
			struct rd_fix_done *done, char *msg, size_t ml)
{
	int r = engine_apply(h, f, journal, confirm_within, done, msg, ml);

	tidy(msg);
	return r;
}

int rd_fix_engine_undo(const struct rd_fix_host *h, const char *journal,
		       const char *entry, bool timer_only, char *msg,
		       size_t ml)
{
	int r = engine_undo(h, journal, entry, timer_only, msg, ml);

	tidy(msg);
	return r;
}

/* ---- confirm and the rollback timer ---- */

int rd_fix_confirm(const char *journal, const char *id, char *msg, size_t ml)
{
	const struct rd_journal_entry *t;
	struct rd_journal_file jf;
	struct rd_journal j;
	char err[512] = "";
	int r;

	if (!journal)
		journal = rd_journal_default_path();
	r = open_journal(journal, &jf, &j, msg, ml);
	if (r < 0)
		return r;
	t = rd_journal_find(&j, id);
	if (!t || t->undo_of) {
		snprintf(msg, ml, "no change %s in %s", rd_esc_tmp(id),
			 rd_esc_tmp(journal));
		r = -ENOENT;
	} else if (t->undone) {
		snprintf(msg, ml, "entry %s was already reverted; nothing kept",
			 rd_esc_tmp(id));
		r = -ESTALE;
	} else if (t->confirmed) {
		snprintf(msg, ml, "entry %s was already confirmed", rd_esc_tmp(id));
	} else if ((r = rd_journal_append_confirm(&jf, t->id, err,
						  sizeof(err))) < 0) {
		snprintf(msg, ml, "not confirmed: %s", tidy(err));
	} else {
		snprintf(msg, ml, "kept: %s (entry %s)", rd_esc_tmp(t->command),
			 rd_esc_tmp(t->id));
	}
	rd_journal_free(&j);
	rd_journal_close(&jf);
	tidy(msg);
	return r;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double real_now(void)
{
	return clock_s(CLOCK_REALTIME);
}

static double boot_now(void)
{
	return clock_s(CLOCK_BOOTTIME);
}

static void boot_sleep_until(double t)
{
	struct timespec ts = { (time_t)t,
			       (long)((t - (double)(time_t)t) * 1e9) };

	while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Where an operator looks when nothing else is left: syslog and the
 * kernel log. */
static void alert_logs(const char *line)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	openlog("rdmadiag", LOG_PID, LOG_DAEMON);
	syslog(LOG_CRIT, "%s", line);
	closelog();
	if (fd >= 0) {
		char buf[1200];
		int n = snprintf(buf, sizeof(buf), "<2>rdmadiag[%ld]: %s\n",
				 (long)getpid(), line);

		if (n > 0)
			(void)!write(fd, buf,
				     (size_t)n < sizeof(buf) ? (size_t)n
							     : sizeof(buf) - 1);
		close(fd);
	}
}

struct rd_fix_timer_env rd_fix_timer_env = {
	.real_now = real_now,
	.boot_now = boot_now,
	.boot_sleep_until = boot_sleep_until,
	.alert = alert_logs,
	.tries = RD_FIX_TIMER_TRIES,
	.retry_s = RD_FIX_TIMER_RETRY_S,
};

/* A failure another try may get past: the lock, a full disk, I/O. */
static bool worth_retrying(int r)
{
	return r != -EINVAL && r != -ENOENT && r != -ESTALE && r != -EPERM;
}

int rd_fix_timer_run(const struct rd_fix_host *h, const char *journal,
		     const char *id, double confirm_by, char *msg, size_t ml)
{
	const struct rd_fix_timer_env *env = &rd_fix_timer_env;
	/* The time left, read once on the wall clock, then measured on a
	 * clock nobody steps. */
	double left = confirm_by - env->real_now();
	double due = env->boot_now() + (left > 0 ? left : 0);
	struct rd_journal_file jf;
	char line[1024], err[256];
	int r = -EIO;

	env->boot_sleep_until(due);
	for (unsigned i = 0; i < env->tries; i++) {
		if (i)
			env->boot_sleep_until(env->boot_now() + env->retry_s);
		r = rd_fix_engine_undo(h, journal, id, true, msg, ml);
		if (r == 0 || !worth_retrying(r))
			break;
	}
	if (r == 0)
		return 0;
	/* Given up: say so where it will be seen, the change is still in. */
	rd_snprintf_text(line, sizeof(line),
			 "the rollback timer could not revert entry %s after "
			 "%u tries: %s",
			 id, env->tries, msg);
	if (rd_journal_open(journal, RD_JOURNAL_WRITE, &jf, err,
			    sizeof(err)) == 0) {
		(void)rd_journal_append_rollback_failed(&jf, id, msg, err,
							sizeof(err));
		rd_journal_close(&jf);
	}
	env->alert(line);
	snprintf(msg, ml, "%s", line);
	tidy(msg);
	return r;
}

/*
 * The rollback timer: a grandchild in its own session that ignores
 * SIGHUP, so closing the terminal or losing the SSH session does not stop
 * it. When the deadline passes it undoes the entry through the journal
 * (every check of undo again) unless a confirm line names it; see
 * rd_fix_timer_run.
 */
static int start_timer(const char *journal, const char *id, double deadline)
{
	pid_t pid = fork();
	int st = 0, r;

	if (pid < 0)
		return -errno;
	if (pid > 0) {
		while ((r = (int)waitpid(pid, &st, 0)) < 0 && errno == EINTR)
			;
		/* With SIGCHLD ignored the child is reaped for us: no status. */
		if (r < 0)
			return errno == ECHILD ? 0 : -errno;
		return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -ECHILD;
	}
	if (setsid() < 0)
		_exit(1);
	pid = fork();
	if (pid != 0)
		_exit(pid < 0 ? 1 : 0);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	{
		int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		long max = sysconf(_SC_OPEN_MAX);
		char msg[1024];

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		for (long i = 3; i < (max > 0 && max < 65536 ? max : 1024); i++)
			close((int)i);
		(void)rd_fix_timer_run(&rd_fix_live_host, journal, id, deadline,
				       msg, sizeof(msg));
		_exit(0);
	}
}

/* ---- the public entry points ---- */

int rd_fixup_apply(const struct rd_fixup *f, const struct rd_fix_opts *o,
		   struct rd_fix_done *done, char *msg, size_t ml)
{
	const char *why = rd_fix_refusal(o);
	const char *journal = o && o->journal ? o->journal :
						rd_journal_default_path();
	struct rd_fix_done d;
	int r;

	if (done)
		memset(done, 0, sizeof(*done));
	if (why) {
		snprintf(msg, ml, "not applied: %s; the command is: %s", why,
			 f && f->command ? rd_esc_tmp(f->command) : "-");
		tidy(msg);
		return -EPERM;
	}
	r = rd_fix_engine_apply(&rd_fix_live_host, f, journal,
				o ? o->confirm_within : 0, &d, msg, ml);
	if (r == 0 && d.id[0] && d.confirm_by > 0 &&
	    start_timer(journal, d.id, d.confirm_by) < 0) {
		/* No timer, no unattended change: revert now. */
		char m2[512];

		rd_fix_engine_undo(&rd_fix_live_host, journal, d.id, false, m2,
				   sizeof(m2));
		snprintf(msg, ml, "reverted: the rollback timer could not start (%s)",
			 m2);
		tidy(msg);
		return -ECHILD;
	}
	if (done)
		*done = d;
	return r;
}

int rd_fixup_undo(const struct rd_fix_opts *o, const char *entry, char *msg,
		  size_t ml)
{
	const char *journal = o && o->journal ? o->journal :
						rd_journal_default_path();

	if (geteuid() != 0) {
		snprintf(msg, ml, "undo needs root");
		return -EPERM;
	}
	return rd_fix_engine_undo(&rd_fix_live_host, journal, entry, false, msg,
				  ml);
}
