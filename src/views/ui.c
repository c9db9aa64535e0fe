// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's main loop: one poll() over the keyboard, the signal
 * pipe, the worker's update pipe and the test child's pipe. Nothing in
 * it waits on the kernel: snapshots, checks and fix-ups arrive from the
 * worker when they are ready, so a key is answered at once. Keys go
 * through the registry's action tables, each returning what to redo.
 */
#include "config.h"
#include "views/ui.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "views/tty.h"

/* How long q waits for a probe to end before leaving it behind. */
#define UI_STOP_WAIT 0.3

/* ---- what the worker hands over ---- */

static void show_fix_done(struct ui *ui, const struct con_update *u)
{
	const struct rd_result *r =
		ui->st.have_results ? con_find_result(&ui->st.results, &u->key)
				    : NULL;

	if (!u->is_undo && u->rc >= 0 && u->confirm_by > 0) {
		char after[256] = "";

		if (r)
			snprintf(after, sizeof(after),
				 "Read again afterwards: %s is now %s.",
				 ui_str(r->title), rd_verdict_name(r->verdict));
		ui_rollback_open(ui, u, after);
		return;
	}
	ui_dialog_open(
		ui,
		u->rc < 0 ? (u->is_undo ? "Undo failed" : "Fix-up not applied")
			  : (u->is_undo ? "Undone" : "Fix-up applied"),
		NULL, NULL, NULL);
	ui_dialog_line(ui, "%s", u->text);
	if (!u->is_undo && u->rc >= 0 && r)
		ui_dialog_line(ui, "Read again afterwards: %s is now %s.",
			       ui_str(r->title), rd_verdict_name(r->verdict));
	else if (!u->is_undo && u->rc >= 0)
		ui_dialog_line(ui,
			       "Read again afterwards: %s no longer "
			       "reports this target.",
			       u->key.check);
	ui_msg(ui, u->rc < 0 ? W_BANNER_BAD : W_BANNER_OK, "%s", u->text);
}

/* How far back "since you were last here" looks (hours). */
#define UI_GREET_HOURS 6.0

/*
 * At start, once the past has been read: what happened in the last hours
 * (the ports that went down, how often, when last), in the banner for
 * half a minute.
 */
static void greet(struct ui *ui)
{
	struct timespec ts;
	char line[200];

	if (ui->greeted || !ui->st.have_past || ui->st.source != CON_LIVE)
		return;
	ui->greeted = true;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (!con_past_summary(&ui->st.past, (double)ts.tv_sec, UI_GREET_HOURS,
			      line, sizeof(line)))
		return;
	ui_msg(ui, W_TAG, "Since you were last here (%.0f h): %s - v: Events",
	       UI_GREET_HOURS, line);
	ui->msg_until = ui_now() + 30.0;
}

static int take_updates(struct ui *ui)
{
	struct con_update *u;
	int redo = 0;

	while ((u = con_worker_take(ui->worker))) {
		switch (u->kind) {
		case CON_UP_PROGRESS:
			if (ui->fix_dialog && ui->dialog.open)
				ui_dialog_line(ui, "... %s", u->text);
			break;
		case CON_UP_NOTICE:
			ui_msg(ui, W_WARN, "%s", u->text);
			break;
		case CON_UP_FIX_DONE:
			con_state_adopt(&ui->st, u);
			if (ui->fix_dialog || !ui->dialog.open ||
			    (u->confirm_by > 0 && u->rc >= 0))
				show_fix_done(ui, u);
			ui->fix_dialog = false;
			break;
		default:
			con_state_adopt(&ui->st, u);
			greet(ui);
			break;
		}
		con_update_free(u);
		redo |= UI_REDO_DRAW;
	}
	return redo;
}

/* ---- drawing ---- */

static void draw(struct ui *ui)
{
	erase();
	if (ui->lay.too_small) {
		chrome_too_small(ui);
	} else {
		chrome_title(ui);
		chrome_banner(ui);
		ui->view->draw(ui);
		chrome_bar(ui);
		if (ui->dialog.open) {
			const char *lines[16];

			for (size_t i = 0; i < ui->dialog.n; i++)
				lines[i] = ui->dialog.lines[i];
			w_dialog(ui->rows, ui->cols, ui->dialog.title, lines,
				 ui->dialog.n, ui->dialog.choices);
		}
	}
	refresh();
}

static void relayout(struct ui *ui)
{
	tty_size(&ui->rows, &ui->cols);
	rd_layout_compute(ui->rows, ui->cols, ui->view->layout, &ui->lay);
}

/* ---- keys every screen answers ---- */

static size_t view_index(const struct ui *ui)
{
	for (size_t i = 0; i < ui_n_screens; i++)
		if (ui_screens[i] == ui->view)
			return i;
	return 0;
}

static int act_quit(struct ui *ui, int ch)
{
	return UI_REDO_QUIT;
}
static int act_next_screen(struct ui *ui, int ch)
{
	return ui_go(ui, ui_screens[(view_index(ui) + 1) % ui_n_screens]);
}
static int act_prev_screen(struct ui *ui, int ch)
{
	return ui_go(
		ui,
		ui_screens[(view_index(ui) + ui_n_screens - 1) % ui_n_screens]);
}
static int act_refresh(struct ui *ui, int ch)
{
	clearok(curscr, TRUE);
	return UI_REDO_PROBE | UI_REDO_DRAW;
}
static int act_pause(struct ui *ui, int ch)
{
	if (ui->st.source == CON_LIVE) {
		ui_msg(ui, W_NORMAL, "pause applies to --replay and --demo");
		return UI_REDO_DRAW;
	}
	ui->st.paused = !ui->st.paused;
	con_worker_settings(ui->worker, ui->st.interval, ui->st.paused);
	return UI_REDO_DRAW;
}
static int act_prev_port(struct ui *ui, int ch)
{
	if (ui->st.sel > 0)
		ui_select(ui, ui->st.sel - 1);
	return UI_REDO_DRAW;
}
static int act_next_port(struct ui *ui, int ch)
{
	ui_select(ui, ui->st.sel + 1);
	return UI_REDO_DRAW;
}
static int act_next_finding(struct ui *ui, int ch)
{
	if (!con_select_next_finding(&ui->st, ch == 'N' ? -1 : 1))
		ui_msg(ui, W_NORMAL,
		       "no other port has a result that is not PASS");
	return UI_REDO_DRAW;
}
static int set_interval(struct ui *ui, double s)
{
	ui->st.interval = s;
	con_worker_settings(ui->worker, s, ui->st.paused);
	ui_msg(ui, W_NORMAL, "refresh every %.2g s", s);
	return UI_REDO_DRAW;
}
static int act_faster(struct ui *ui, int ch)
{
	return set_interval(ui, ui->st.interval > 0.25 ? ui->st.interval / 2
						       : ui->st.interval);
}
static int act_slower(struct ui *ui, int ch)
{
	return set_interval(ui, ui->st.interval < 60 ? ui->st.interval * 2
						     : ui->st.interval);
}

/* A host with no RDMA device can still show what the console does. */
static int act_demo(struct ui *ui, int ch)
{
	if (ui->st.source == CON_DEMO) {
		ui_msg(ui, W_NORMAL, "this is the demo, playing");
		return UI_REDO_DRAW;
	}
	if (ui->st.source != CON_LIVE) {
		ui_msg(ui, W_NORMAL,
		       "a recording is playing, not a host: D "
		       "is for a host with no RDMA device");
		return UI_REDO_DRAW;
	}
	if (ui->st.have_snap && ui->st.snap.n_devices) {
		ui_msg(ui, W_NORMAL,
		       "D plays the demo when this host has no RDMA device");
		return UI_REDO_DRAW;
	}
	if (!ui->o.demo_path) {
		ui_msg(ui, W_WARN, "the demo recording is not installed");
		return UI_REDO_DRAW;
	}
	con_worker_play(ui->worker, CON_DEMO, ui->o.demo_path);
	return UI_REDO_DRAW;
}

const struct ui_action ui_global_actions[] = {
	{ "Tab", act_next_screen, NULL, "next screen" },
	{ "Shift-Tab", act_prev_screen, NULL, "previous screen" },
	{ "< , > .", NULL, NULL, "previous / next port on any screen" },
	{ "n N", NULL, NULL,
	  "next / previous port that is not PASS (in Checks: result)" },
	{ "r Ctrl-L", act_refresh, NULL, "read the host again now" },
	{ "Space", act_pause, NULL, "pause / resume a replay or the demo" },
	{ "+ -", NULL, NULL, "refresh faster / slower" },
	{ "D", act_demo, NULL,
	  "play the demo (when this host has no RDMA device)" },
	{ "F10 q Ctrl-C", act_quit, NULL, "quit" },
	{ NULL, NULL, NULL, NULL },
};

/* Keys that share a row but not an action. */
static int split_action(struct ui *ui, int ch)
{
	switch (ch) {
	case '<':
	case ',':
		return act_prev_port(ui, ch);
	case '>':
	case '.':
		return act_next_port(ui, ch);
	case 'n':
	case 'N':
		return act_next_finding(ui, ch);
	case '+':
		return act_faster(ui, ch);
	case '-':
		return act_slower(ui, ch);
	default:
		return UI_UNHANDLED;
	}
}

static bool action_has_key(const struct ui_action *a, int ch)
{
	const char *p = a->keys;

	while (*p) {
		char name[24];
		size_t n = strcspn(p, " ");

		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (ui_key_code(name) == ch)
				return true;
		}
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

static int run_actions(struct ui *ui, const struct ui_action *acts, int ch)
{
	for (const struct ui_action *a = acts; a && a->keys; a++)
		if (action_has_key(a, ch))
			return a->fn ? a->fn(ui, ch) : split_action(ui, ch);
	return UI_UNHANDLED;
}

static int dialog_key(struct ui *ui, int ch)
{
	struct ui_dialog *d = &ui->dialog;

	if (d->kind && d->kind->key)
		return d->kind->key(ui, ch);
	if (d->confirm && (ch == 'y' || ch == 'Y')) {
		ui_confirm_fn fn = d->confirm;
		void *arg = d->arg;

		d->open = false;
		return fn(ui, arg) | UI_REDO_DRAW;
	}
	if (ch == UI_KEY_ESC || ch == 'n' || ch == 'N' || ch == 'q' ||
	    (!d->confirm && ch == '\r')) {
		d->open = false;
		ui->fix_dialog =
			false; /* the result still shows in the banner */
	}
	return UI_REDO_DRAW;
}

static int handle_key(struct ui *ui, int ch)
{
	int r;

	if (ch == KEY_RESIZE)
		return UI_REDO_LAYOUT | UI_REDO_DRAW;
	if (ch == '\n' || ch == KEY_ENTER)
		ch = '\r';
	if (ui->dialog.open)
		return dialog_key(ui, ch);
	if (ui->modal) {
		/* A prompt that closed and gave the key back (a function
		 * key): the key does what it does everywhere. */
		r = ui->modal(ui, ch);
		if (!(r & UI_UNHANDLED) || ui->modal)
			return r & ~UI_UNHANDLED;
	}
	if (ui->lay.too_small && ch != 'q' && ch != KEY_F(10))
		return UI_REDO_NOTHING;
	r = run_actions(ui, ui->view->actions, ch);
	if (!(r & UI_UNHANDLED))
		return r;
	for (size_t i = 0; i < ui_n_screens; i++) {
		const struct ui_screen *sc = ui_screens[i];

		if (ch == KEY_F(sc->fkey) || ch == sc->letter)
			return sc->enter ? sc->enter(ui, ch) : ui_go(ui, sc);
	}
	for (size_t i = 0; i < ui_n_screens; i++) {
		r = run_actions(ui, ui_screens[i]->anywhere, ch);
		if (!(r & UI_UNHANDLED))
			return r;
	}
	r = run_actions(ui, ui_global_actions, ch);
	return r & UI_UNHANDLED ? UI_REDO_NOTHING : r;
}

/* ---- the loop ---- */

static int loop(struct ui *ui)
{
	int redo = UI_REDO_LAYOUT | UI_REDO_DRAW;

	for (;;) {
		struct pollfd fds[3 + 2];
		size_t slot[2];
		nfds_t nfds = 3;
		bool running = false;
		int timeout = -1, ch;
		double busy;

		if (redo & UI_REDO_PROBE)
			con_worker_refresh(ui->worker, true);
		for (size_t i = 0; i < ui->n_children; i++)
			if (ui->children[i].tick)
				ui->children[i].tick(ui->children[i].ctx);
		if (con_test_take_ended(&ui->test)) {
			ui_msg(ui, ui->test.ended_ok ? W_BANNER_OK : W_WARN,
			       "%s", ui->test.summary);
			redo |= UI_REDO_DRAW;
		}
		if (ui->live_dialog && ui->live_dialog->tick)
			redo |= ui->live_dialog->tick(ui);
		if (redo & UI_REDO_LAYOUT)
			relayout(ui);
		if (redo & UI_REDO_DRAW)
			draw(ui);
		redo = 0;

		fds[0] =
			(struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = tty_signal_fd(),
					  .events = POLLIN };
		fds[2] = (struct pollfd){ .fd = con_worker_fd(ui->worker),
					  .events = POLLIN };
		for (size_t i = 0; i < ui->n_children; i++) {
			const struct con_child *c = &ui->children[i];
			int fd = c->fd(c->ctx);

			slot[i] = fd >= 0 ? nfds : 0;
			if (fd >= 0)
				fds[nfds++] =
					(struct pollfd){ .fd = fd,
							 .events = POLLIN };
			running |= c->running(c->ctx);
		}
		/* Wake up to clear an expired message, to count a slow
		 * probe's seconds in the title, and to escalate a test abort.
		 */
		if (ui->msg[0]) {
			double left = ui->msg_until - ui_now();

			timeout = left > 0 ? (int)(left * 1000.0) + 1 : 0;
		}
		busy = con_worker_busy_since(ui->worker);
		if (busy > 0 && (timeout < 0 || timeout > 500))
			timeout = 500;
		if (running && (timeout < 0 || timeout > 250))
			timeout = 250;
		/* a live dialog's countdown */
		if (ui->live_dialog && ui->live_dialog->wake_ms > 0 &&
		    (timeout < 0 || timeout > ui->live_dialog->wake_ms))
			timeout = ui->live_dialog->wake_ms;
		if (poll(fds, nfds, timeout) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ui->msg[0] && ui_now() >= ui->msg_until)
			redo |= UI_REDO_DRAW;
		if (busy > 0 || con_worker_busy_since(ui->worker) > 0)
			redo |= UI_REDO_DRAW;
		if (fds[1].revents & POLLIN) {
			int ev = tty_read_signals();

			if (ev & TTY_RESIZE)
				redo |= UI_REDO_LAYOUT | UI_REDO_DRAW;
			if (ev & TTY_QUIT)
				redo |= UI_REDO_QUIT;
		}
		if (fds[2].revents & POLLIN)
			redo |= take_updates(ui);
		for (size_t i = 0; i < ui->n_children; i++) {
			const struct con_child *c = &ui->children[i];

			if (slot[i] && fds[slot[i]].revents) {
				c->readable(c->ctx);
				redo |= UI_REDO_DRAW;
			}
			if (c->redraw_while_running && c->running(c->ctx))
				redo |= UI_REDO_DRAW;
		}
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			redo |= UI_REDO_QUIT;
		if (fds[0].revents & POLLIN)
			while ((ch = getch()) != ERR)
				redo |= handle_key(ui, ch);
		if (redo & UI_REDO_QUIT)
			return 0;
	}
}

int ui_run(const struct ui_opts *o, bool *stuck)
{
	struct ui *ui = calloc(1, sizeof(*ui));
	struct con_source src;
	char err[512];
	int r;

	*stuck = false;
	if (!ui) {
		fprintf(stderr, "rdmadiag: console: out of memory\n");
		return -ENOMEM;
	}
	ui->o = *o;
	con_state_init(&ui->st, o->source, o->interval);
	con_test_init(&ui->test, o->self_exe);
	con_peer_init(&ui->peer);
	ui->children[ui->n_children++] = con_test_child(&ui->test);
	ui->children[ui->n_children++] = con_peer_child(&ui->peer);
	ui->root = geteuid() == 0;
	ui->view = ui->back = ui_screens[0];
	ui->screens = ui_screens;
	ui->n_screens = ui_n_screens;
	ui->global_actions = ui_global_actions;
	if (o->source == CON_LIVE) {
		r = con_source_open_live(&src, o->roots, err, sizeof(err));
		src.store = o->store;
	} else
		r = con_source_open_recording(&src, o->source, o->replay_path,
					      ui->st.interval, err,
					      sizeof(err));
	if (r < 0) {
		fprintf(stderr, "rdmadiag: %s\n", err);
		goto out;
	}
	r = con_worker_start(&ui->worker, &src, ui->st.interval, err,
			     sizeof(err));
	if (r < 0) {
		con_source_close(&src);
		fprintf(stderr, "rdmadiag: %s\n", err);
		goto out;
	}
	r = tty_start(o->color, o->utf8);
	if (r == 0)
		r = loop(ui);
	for (size_t i = 0; i < ui->n_children; i++)
		ui->children[i].stop(ui->children[i].ctx);
	free(ui->peer.out);
	tty_stop();
	if (r < 0) /* after tty_stop, so the line stays on the screen */
		fprintf(stderr, "rdmadiag: console: %s\n", strerror(-r));
out:
	/* A thread stuck in a probe keeps what it owns; the caller exits. */
	if (ui->worker && con_worker_stop(ui->worker, UI_STOP_WAIT) < 0)
		*stuck = true;
	con_state_free(&ui->st);
	free(ui);
	return r;
}
