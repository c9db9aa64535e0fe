// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's main loop: one poll() over the keyboard, a self-pipe for
 * signals and the test child's pipe, with the refresh timer as its
 * timeout. Keys go through one table of actions returning what to redo.
 */
#include "config.h"
#include "views/ui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
/* term.h defines these as macros; the console uses the names itself. */
#undef lines
#undef columns
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "probes/probe.h"

static const struct ui_screen *const screens[UI_NVIEWS] = {
	[UI_OVERVIEW] = &view_overview_screen,
	[UI_PORT] = &view_port_screen,
	[UI_COUNTERS] = &view_counters_screen,
	[UI_QOS] = &view_qos_screen,
	[UI_CHECKLIST] = &view_checklist_screen,
	[UI_TESTS] = &view_tests_screen,
	[UI_HELP] = &view_help_screen,
};

const struct ui_screen *ui_screen_of(enum ui_view v)
{
	return (unsigned)v < UI_NVIEWS ? screens[v] : screens[UI_OVERVIEW];
}

/* ---- terminal safety: restore the tty from any exit path ---- */

static int sig_pipe[2] = { -1, -1 };
static struct termios saved_tty;
static bool saved_tty_ok;
static char restore_seq[128];
static size_t restore_len;

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* A full pipe already holds a wake-up. */
	}
	errno = saved;
}

/* Crash: nothing but async-signal-safe calls, then die as intended. */
static void on_crash(int sig)
{
	view_tests_kill_now();
	if (restore_len && write(STDOUT_FILENO, restore_seq, restore_len) < 0) {
		/* Nothing left to do about it. */
	}
	if (saved_tty_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void add_cap(const char *name)
{
	char *s = tigetstr((char *)name);
	size_t len;

	if (!s || s == (char *)-1)
		return;
	len = strlen(s);
	if (restore_len + len < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

static int signals_setup(void)
{
	static const int quit_sigs[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP,
					 SIGQUIT };
	static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					  SIGABRT };
	struct sigaction sa;

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof(quit_sigs) / sizeof(quit_sigs[0]); i++)
		sigaction(quit_sigs[i], &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash_sigs) / sizeof(crash_sigs[0]); i++)
		sigaction(crash_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static void signals_restore(void)
{
	static const int sigs[] = {
		SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT,
		SIGSEGV,  SIGBUS, SIGFPE,  SIGILL, SIGABRT
	};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	if (sig_pipe[0] >= 0)
		close(sig_pipe[0]);
	if (sig_pipe[1] >= 0)
		close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
}

/* ---- helpers for screens ---- */

double ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ui_msg(struct ui *ui, enum w_style s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_style = s;
	ui->msg_until = ui_now() + 6.0;
}

const char *ui_str(const char *s)
{
	return s && *s ? s : "-";
}

const struct rd_device *ui_sel_device(const struct ui *ui)
{
	if (!ui->have_snap || ui->sel >= ui->n_ports)
		return NULL;
	return &ui->snap.devices[ui->ports[ui->sel].d];
}

const struct rd_port *ui_sel_port(const struct ui *ui)
{
	const struct rd_device *d = ui_sel_device(ui);

	return d ? &d->ports[ui->ports[ui->sel].p] : NULL;
}

const struct rd_netdev *ui_port_netdev(const struct ui *ui,
				       const struct rd_port *p)
{
	if (!p || !p->netdev)
		return NULL;
	return rd_snapshot_netdev(&ui->snap, p->netdev);
}

const struct rd_pci *ui_device_pci(const struct ui *ui,
				   const struct rd_device *d)
{
	if (!d || !d->pci_bdf)
		return NULL;
	return rd_snapshot_pci(&ui->snap, d->pci_bdf);
}

void ui_select(struct ui *ui, size_t row)
{
	const struct rd_device *d;

	if (ui->n_ports == 0)
		return;
	if (row >= ui->n_ports)
		row = ui->n_ports - 1;
	ui->sel = row;
	d = ui_sel_device(ui);
	snprintf(ui->sel_dev, sizeof(ui->sel_dev), "%s", ui_str(d->name));
	ui->sel_port = ui_sel_port(ui)->port;
}

bool ui_port_worst(const struct ui *ui, const char *dev, uint64_t port,
		   enum rd_verdict *v)
{
	bool any = false;

	if (!ui->have_results)
		return false;
	for (size_t i = 0; i < ui->results.n; i++) {
		const struct rd_result *r = &ui->results.v[i];

		if (!r->device || !dev || strcmp(r->device, dev) != 0)
			continue;
		if (port && r->port && r->port != port)
			continue;
		if (!any || r->verdict > *v)
			*v = r->verdict;
		any = true;
	}
	return any;
}

enum w_style ui_verdict_style(enum rd_verdict v)
{
	switch (v) {
	case RD_PASS:
		return W_GOOD;
	case RD_FAIL:
		return W_BAD;
	case RD_WARN:
		return W_WARN;
	default:
		return W_DIM;
	}
}

enum w_style ui_state_style(const struct rd_port *p)
{
	if (!p->state_num.ok)
		return W_DIM;
	switch (p->state_num.v) {
	case 4:
	case 5:
		return W_GOOD;
	case 1:
		return W_BAD;
	default:
		return W_WARN;
	}
}

void ui_dialog_open(struct ui *ui, const char *title, const char *choices,
		    ui_confirm_fn confirm, void *arg)
{
	struct ui_dialog *d = &ui->dialog;

	memset(d, 0, sizeof(*d));
	d->open = true;
	snprintf(d->title, sizeof(d->title), "%s", title);
	snprintf(d->choices, sizeof(d->choices), "%s",
		 choices ? choices : "Enter/Esc: close");
	d->confirm = confirm;
	d->arg = arg;
}

void ui_dialog_line(struct ui *ui, const char *fmt, ...)
{
	struct ui_dialog *d = &ui->dialog;
	va_list ap;

	if (d->n >= sizeof(d->lines) / sizeof(d->lines[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(d->lines[d->n++], sizeof(d->lines[0]), fmt, ap);
	va_end(ap);
}

struct rd_rect *ui_pane(struct ui *ui, enum rd_pane p)
{
	return &ui->lay.pane[p];
}

/* ---- data: live probing or playing a recording ---- */

static void rebuild_ports(struct ui *ui)
{
	size_t want = 0, n = 0;
	bool found = false;

	free(ui->ports);
	ui->ports = NULL;
	ui->n_ports = 0;
	for (size_t d = 0; d < ui->snap.n_devices; d++)
		want += ui->snap.devices[d].n_ports;
	if (!want) {
		ui->sel = 0;
		return;
	}
	ui->ports = calloc(want, sizeof(*ui->ports));
	if (!ui->ports)
		return;
	for (size_t d = 0; d < ui->snap.n_devices; d++) {
		const struct rd_device *dev = &ui->snap.devices[d];

		for (size_t p = 0; p < dev->n_ports; p++) {
			ui->ports[n] = (struct ui_portref){ d, p };
			/* Keep the same port selected across refreshes. */
			if (!found && dev->name &&
			    strcmp(dev->name, ui->sel_dev) == 0 &&
			    dev->ports[p].port == ui->sel_port) {
				ui->sel = n;
				found = true;
			}
			n++;
		}
	}
	ui->n_ports = n;
	if (!found)
		ui_select(ui, ui->sel < n ? ui->sel : 0);
}

static int next_frame(struct ui *ui, struct rd_snapshot *s)
{
	char err[512];
	uint64_t ns;
	int r;

	for (size_t tries = 0; tries < ui->rec.n; tries++) {
		if (ui->have_snap)
			ui->frame = (ui->frame + 1) % ui->rec.n;
		r = rd_recording_frame(&ui->rec, ui->frame, s, err,
				       sizeof(err));
		if (r == 0)
			break;
		rd_snapshot_free(s);
		snprintf(ui->source_err, sizeof(ui->source_err), "%s", err);
		if (!ui->have_snap)
			ui->have_snap = true; /* advance next time */
	}
	if (!s->monotonic_ns.ok)
		return -EINVAL;
	/* Looping: shift recorded times so the history never runs back. */
	ns = s->monotonic_ns.v + ui->replay_shift_ns;
	if (ui->replay_last_ns && ns <= ui->replay_last_ns) {
		ui->replay_shift_ns += ui->replay_last_ns - ns +
				       (uint64_t)(ui->o.interval * 1e9);
		ns = s->monotonic_ns.v + ui->replay_shift_ns;
	}
	s->monotonic_ns.v = ns;
	ui->replay_last_ns = ns;
	return 0;
}

static int take_snapshot(struct ui *ui, bool fresh)
{
	struct rd_snapshot s;
	double t0 = ui_now();
	int r;

	if (ui->o.source == UI_LIVE) {
		/* A refresh key or a fix-up wants what is true now. */
		r = rd_snapshot_take(ui->o.roots, ui->cache, ui->tick++,
				     fresh ? RD_PROBE_FRESH : 0, &s);
		if (r < 0) {
			snprintf(ui->source_err, sizeof(ui->source_err),
				 "cannot take a snapshot: %s: %s",
				 ui->o.roots->sysfs, strerror(-r));
			return r;
		}
	} else {
		r = next_frame(ui, &s);
		if (r < 0) {
			rd_snapshot_free(&s);
			return r;
		}
	}
	if (ui->have_snap)
		rd_snapshot_free(&ui->snap);
	ui->snap = s;
	ui->have_snap = true;
	rd_history_add(&ui->hist, &ui->snap);
	rebuild_ports(ui);
	ui->probe_ms = (ui_now() - t0) * 1000.0;
	return 0;
}

static void run_diag(struct ui *ui)
{
	struct rd_diag_opts o;

	if (ui->have_results)
		rd_results_free(&ui->results);
	ui->have_results = false;
	if (!ui->have_snap)
		return;
	rd_diag_opts_init(&o);
	memset(&ui->results, 0, sizeof(ui->results));
	if (rd_diag_run(&ui->snap, &ui->hist, &o, &ui->results) < 0) {
		rd_results_free(&ui->results);
		return;
	}
	rd_results_sort(&ui->results);
	ui->have_results = true;
}

/* ---- drawing: title, banner, bar, the screen, a dialog on top ---- */

static const char *source_tag(const struct ui *ui)
{
	switch (ui->o.source) {
	case UI_DEMO:
		return "DEMO";
	case UI_REPLAY:
		return "REPLAY";
	default:
		return NULL;
	}
}

static void draw_title(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_TITLE);
	const char *tag = source_tag(ui);
	int x = 0;

	w_fill_row(r, 0, W_TITLE);
	x += w_print(r, 0, x, W_TITLE, " rdmadiag ");
	if (tag) {
		x += w_printf(r, 0, x, W_TAG, " %s %zu/%zu%s ", tag,
			      ui->frame + 1, ui->rec.n,
			      ui->paused ? " PAUSED" : "");
		x++;
	} else if (!ui->root) {
		x += w_print(r, 0, x, W_TAG, " READ-ONLY ");
		x++;
	}
	x += w_printf(r, 0, x, W_TITLE, "%s ", ui_str(ui->snap.host.hostname));
	for (int v = 0; v < UI_NVIEWS && x < r->w; v++) {
		const struct ui_screen *sc = screens[v];

		x += w_printf(r, 0, x, v == (int)ui->view ? W_SEL : W_TITLE,
			      " %s ", sc->name);
	}
	if (ui->n_ports && r->w - x > 14) {
		char sel[96];
		int len = snprintf(sel, sizeof(sel), "%s/%llu ", ui->sel_dev,
				   (unsigned long long)ui->sel_port);

		if (len < r->w - x)
			w_print(r, 0, r->w - len, W_TITLE, sel);
	}
}

/*
 * The most important finding: the worst result that is not PASS; among
 * equals a port that is down comes first (the on-call path), then the
 * lower layers, whose failures explain the ones above them.
 */
static int finding_rank(const struct rd_result *r)
{
	int rank = (int)r->verdict * 100;

	if (r->check_id && strcmp(r->check_id, "port.state") == 0)
		rank += 50;
	return rank + (RD_LAYER_COUNT - (int)r->layer);
}

static const struct rd_result *top_finding(const struct ui *ui)
{
	const struct rd_result *best = NULL;

	if (!ui->have_results)
		return NULL;
	for (size_t i = 0; i < ui->results.n; i++) {
		const struct rd_result *r = &ui->results.v[i];

		if (r->verdict != RD_FAIL && r->verdict != RD_WARN)
			continue;
		if (!best || finding_rank(r) > finding_rank(best))
			best = r;
	}
	return best;
}

static void draw_banner(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_BANNER);
	const struct rd_result *f;

	if (ui->msg[0] && ui_now() < ui->msg_until) {
		w_fill_row(r, 0, ui->msg_style);
		w_printf(r, 0, 1, ui->msg_style, "%s", ui->msg);
		return;
	}
	ui->msg[0] = '\0';
	if (ui->source_err[0] && !ui->have_snap) {
		w_fill_row(r, 0, W_BANNER_BAD);
		w_printf(r, 0, 1, W_BANNER_BAD, "%s", ui->source_err);
		return;
	}
	if (ui->have_snap && ui->snap.n_devices == 0) {
		w_fill_row(r, 0, W_BANNER_BAD);
		w_print(r, 0, 1, W_BANNER_BAD,
			ui->o.source == UI_LIVE
				? "No RDMA devices on this host - k: checklist "
				  "explains why, D: play the demo (rdmadiag "
				  "--demo)"
				: "No RDMA devices in this recording");
		return;
	}
	f = top_finding(ui);
	if (f) {
		enum w_style st = f->verdict == RD_FAIL ? W_BANNER_BAD : W_TAG;
		static const char key[] = " k: checklist ";
		int kw = (int)sizeof(key) - 1;
		/* The key that explains it stays visible however long the text.
		 */
		struct rd_rect text = { r->y, r->x, 1, r->w - kw - 1 };

		w_fill_row(r, 0, st);
		w_printf(&text, 0, 1, st, "%s %s", rd_verdict_name(f->verdict),
			 ui_str(f->summary ? f->summary : f->title));
		w_print(r, 0, r->w - kw, W_BARKEY, key);
		return;
	}
	if (ui->have_results)
		w_print(r, 0, 1, W_BANNER_OK, "All checks pass");
}

static void draw_bar(struct ui *ui)
{
	static const struct {
		const char *key, *label, *brief;
	} fkeys[] = {
		{ "F1", "Help", "Help" },  { "F2", "Overview", "Ovw" },
		{ "F3", "Port", "Port" },  { "F4", "Counters", "Cntr" },
		{ "F5", "QoS", "QoS" },	   { "F6", "Checks", "Chk" },
		{ "F7", "Tests", "Test" }, { "F10", "Quit", "Quit" },
	};
	const struct rd_rect *r = ui_pane(ui, RD_PANE_BAR);
	const char *own = screens[ui->view]->bar;
	int x = 0;

	w_fill_row(r, 0, W_BAR);
	for (size_t i = 0; i < sizeof(fkeys) / sizeof(fkeys[0]); i++) {
		/* Narrow terminals get the short form: the key letter only. */
		x += w_print(r, 0, x, W_BARKEY, fkeys[i].key);
		x += w_printf(r, 0, x, W_BAR, "%s ",
			      r->w < 100 ? fkeys[i].brief : fkeys[i].label);
	}
	if (own && x + 4 < r->w)
		w_printf(r, 0, x + 1, W_BAR, "| %s", own);
}

static void draw_too_small(struct ui *ui)
{
	struct rd_rect all = { 0, 0, ui->rows, ui->cols };
	char line[96];
	int len = snprintf(line, sizeof(line),
			   "terminal too small: %dx%d, need %dx%d", ui->cols,
			   ui->rows, RD_LAYOUT_MIN_COLS, RD_LAYOUT_MIN_ROWS);
	int x = ui->cols > len ? (ui->cols - len) / 2 : 0;

	w_print(&all, ui->rows / 2, x, W_WARN, line);
	if (ui->rows > ui->rows / 2 + 1)
		w_print(&all, ui->rows / 2 + 1, x, W_DIM, "q: quit");
}

static void draw(struct ui *ui)
{
	erase();
	if (ui->lay.too_small) {
		draw_too_small(ui);
	} else {
		draw_title(ui);
		draw_banner(ui);
		screens[ui->view]->draw(ui);
		draw_bar(ui);
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
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, ui->rows, ui->cols);
	rd_layout_compute(ui->rows, ui->cols, screens[ui->view]->layout,
			  &ui->lay);
}

/* ---- keys: one table of actions ---- */

static int go(struct ui *ui, enum ui_view v)
{
	if (ui->view != v)
		ui->back = ui->view;
	ui->view = v;
	rd_layout_compute(ui->rows, ui->cols, screens[v]->layout, &ui->lay);
	return UI_REDO_DRAW;
}

static int act_quit(struct ui *ui)
{
	return UI_REDO_QUIT;
}
static int act_help(struct ui *ui)
{
	return go(ui, ui->view == UI_HELP ? ui->back : UI_HELP);
}
static int act_overview(struct ui *ui)
{
	return go(ui, UI_OVERVIEW);
}
static int act_port(struct ui *ui)
{
	return go(ui, UI_PORT);
}
static int act_counters(struct ui *ui)
{
	return go(ui, UI_COUNTERS);
}
static int act_qos(struct ui *ui)
{
	return go(ui, UI_QOS);
}
static int act_checklist(struct ui *ui)
{
	return go(ui, UI_CHECKLIST);
}
static int act_tests(struct ui *ui)
{
	return go(ui, UI_TESTS);
}
static int act_next_screen(struct ui *ui)
{
	return go(ui, (ui->view + 1) % UI_NVIEWS);
}
static int act_prev_screen(struct ui *ui)
{
	return go(ui, (ui->view + UI_NVIEWS - 1) % UI_NVIEWS);
}
static int act_refresh(struct ui *ui)
{
	clearok(curscr, TRUE);
	return UI_REDO_PROBE | UI_REDO_DRAW;
}
static int act_pause(struct ui *ui)
{
	if (ui->o.source == UI_LIVE) {
		ui_msg(ui, W_NORMAL, "pause applies to --replay and --demo");
		return UI_REDO_DRAW;
	}
	ui->paused = !ui->paused;
	return UI_REDO_DRAW;
}
static int act_prev_port(struct ui *ui)
{
	if (ui->sel > 0)
		ui_select(ui, ui->sel - 1);
	return UI_REDO_DRAW;
}
static int act_next_port(struct ui *ui)
{
	ui_select(ui, ui->sel + 1);
	return UI_REDO_DRAW;
}
static int act_bw(struct ui *ui)
{
	go(ui, UI_TESTS);
	view_tests_start(ui, false);
	return UI_REDO_DRAW;
}
static int act_lat(struct ui *ui)
{
	go(ui, UI_TESTS);
	view_tests_start(ui, true);
	return UI_REDO_DRAW;
}
static int act_faster(struct ui *ui)
{
	if (ui->o.interval > 0.25)
		ui->o.interval /= 2;
	ui_msg(ui, W_NORMAL, "refresh every %.2g s", ui->o.interval);
	return UI_REDO_DRAW;
}
static int act_slower(struct ui *ui)
{
	if (ui->o.interval < 60)
		ui->o.interval *= 2;
	ui_msg(ui, W_NORMAL, "refresh every %.2g s", ui->o.interval);
	return UI_REDO_DRAW;
}

/* A host with no RDMA device can still show what the console does. */
static int act_demo(struct ui *ui)
{
	char err[512];

	if (ui->o.source != UI_LIVE || (ui->have_snap && ui->snap.n_devices)) {
		ui_msg(ui, W_NORMAL,
		       "D plays the demo when this host has no RDMA device");
		return UI_REDO_DRAW;
	}
	if (!ui->o.demo_path || rd_recording_open(ui->o.demo_path, &ui->rec,
						  err, sizeof(err)) < 0) {
		ui_msg(ui, W_WARN, "the demo recording is not installed");
		return UI_REDO_DRAW;
	}
	ui->rec_open = true;
	ui->o.source = UI_DEMO;
	if (ui->have_snap)
		rd_snapshot_free(&ui->snap);
	ui->have_snap = false;
	rd_snapshot_init(&ui->snap);
	rd_history_free(&ui->hist);
	rd_history_init(&ui->hist);
	ui->frame = 0;
	ui->replay_last_ns = ui->replay_shift_ns = 0;
	return UI_REDO_PROBE | UI_REDO_DRAW;
}

struct ui_key {
	int key;
	int (*fn)(struct ui *ui);
	const char *name;
	const char *help;
};

static const struct ui_key global_keys[] = {
	{ KEY_F(1), act_help, "F1 ?",
	  "help: every key and what each screen shows" },
	{ '?', act_help, NULL, NULL },
	{ 'h', act_help, NULL, NULL },
	{ KEY_F(2), act_overview, "F2 o", "overview: one row per device port" },
	{ 'o', act_overview, NULL, NULL },
	{ KEY_F(3), act_port, "F3 p",
	  "port detail, GID table, port-down path" },
	{ 'p', act_port, NULL, NULL },
	{ KEY_F(4), act_counters, "F4 c", "counters of the selected port" },
	{ 'c', act_counters, NULL, NULL },
	{ KEY_F(5), act_qos, "F5 d", "QoS: PFC, ETS, trust, DSCP, ECN, CNP" },
	{ 'd', act_qos, NULL, NULL },
	{ KEY_F(6), act_checklist, "F6 k",
	  "checklist: verdicts, evidence, fix-ups" },
	{ 'k', act_checklist, NULL, NULL },
	{ KEY_F(7), act_tests, "F7 t",
	  "bandwidth / latency tests and results" },
	{ 't', act_tests, NULL, NULL },
	{ 'b', act_bw, "b",
	  "bandwidth test on the selected port (from anywhere)" },
	{ 'l', act_lat, "l",
	  "latency test on the selected port (from anywhere)" },
	{ '\t', act_next_screen, "Tab", "next screen (Shift-Tab: previous)" },
	{ KEY_BTAB, act_prev_screen, NULL, NULL },
	{ '<', act_prev_port, "< >", "previous / next port on any screen" },
	{ ',', act_prev_port, NULL, NULL },
	{ '>', act_next_port, NULL, NULL },
	{ '.', act_next_port, NULL, NULL },
	{ 'r', act_refresh, "r", "refresh now (also Ctrl-L)" },
	{ UI_KEY_CTRL('l'), act_refresh, NULL, NULL },
	{ ' ', act_pause, "Space", "pause / resume a replay or the demo" },
	{ '+', act_faster, "+ -", "refresh faster / slower" },
	{ 'D', act_demo, "D",
	  "play the demo (when this host has no RDMA device)" },
	{ '-', act_slower, NULL, NULL },
	{ KEY_F(10), act_quit, "F10 q", "quit (also Ctrl-C)" },
	{ 'q', act_quit, NULL, NULL },
	{ 0, NULL, NULL, NULL },
};

size_t ui_global_keys(const char **names, const char **helps, size_t max)
{
	size_t n = 0;

	for (const struct ui_key *k = global_keys; k->fn && n < max; k++) {
		if (!k->name)
			continue;
		names[n] = k->name;
		helps[n] = k->help;
		n++;
	}
	return n;
}

static int dialog_key(struct ui *ui, int ch)
{
	struct ui_dialog *d = &ui->dialog;

	if (d->confirm && (ch == 'y' || ch == 'Y')) {
		ui_confirm_fn fn = d->confirm;
		void *arg = d->arg;

		d->open = false;
		return fn(ui, arg) | UI_REDO_DRAW;
	}
	if (ch == UI_KEY_ESC || ch == 'n' || ch == 'N' || ch == 'q' ||
	    (!d->confirm && (ch == '\n' || ch == '\r' || ch == KEY_ENTER)))
		d->open = false;
	return UI_REDO_DRAW;
}

static int handle_key(struct ui *ui, int ch)
{
	int r;

	if (ch == KEY_RESIZE)
		return UI_REDO_LAYOUT | UI_REDO_DRAW;
	if (ui->dialog.open)
		return dialog_key(ui, ch);
	if (ui->modal)
		return ui->modal(ui, ch) & ~UI_UNHANDLED;
	if (ui->lay.too_small && ch != 'q' && ch != KEY_F(10))
		return UI_REDO_NOTHING;
	if (screens[ui->view]->key) {
		r = screens[ui->view]->key(ui, ch);
		if (!(r & UI_UNHANDLED))
			return r;
	}
	for (const struct ui_key *k = global_keys; k->fn; k++)
		if (k->key == ch)
			return k->fn(ui);
	return UI_REDO_NOTHING;
}

/* ---- setup and the loop ---- */

static void ui_free(struct ui *ui)
{
	view_tests_cleanup();
	if (ui->have_results)
		rd_results_free(&ui->results);
	if (ui->have_snap)
		rd_snapshot_free(&ui->snap);
	rd_history_free(&ui->hist);
	if (ui->cache)
		rd_probe_cache_free(ui->cache);
	if (ui->rec_open)
		rd_recording_close(&ui->rec);
	free(ui->ports);
}

static int read_signals(void)
{
	unsigned char buf[32];
	ssize_t n;
	int redo = 0;

	while ((n = read(sig_pipe[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			redo |= buf[i] == SIGWINCH
					? UI_REDO_LAYOUT | UI_REDO_DRAW
					: UI_REDO_QUIT;
	return redo;
}

static int loop(struct ui *ui)
{
	double next = ui_now() + ui->o.interval;
	int redo = UI_REDO_DIAG | UI_REDO_LAYOUT | UI_REDO_DRAW;

	for (;;) {
		struct pollfd fds[3];
		nfds_t nfds = 2;
		double now = ui_now();
		int timeout, ch;

		if ((redo & UI_REDO_PROBE) ||
		    (now >= next && !(ui->paused && ui->o.source != UI_LIVE))) {
			take_snapshot(ui, redo & UI_REDO_PROBE);
			next = now + ui->o.interval;
			redo |= UI_REDO_DIAG | UI_REDO_DRAW;
		} else if (now >= next) {
			next = now + ui->o.interval;
		}
		view_tests_tick(ui);
		if (redo & UI_REDO_DIAG)
			run_diag(ui);
		if (redo & UI_REDO_LAYOUT)
			relayout(ui);
		if (redo & UI_REDO_DRAW)
			draw(ui);
		redo = 0;

		fds[0] =
			(struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		if (view_tests_fd() >= 0) {
			fds[2] = (struct pollfd){ .fd = view_tests_fd(),
						  .events = POLLIN };
			nfds = 3;
		}
		timeout = (int)((next - ui_now()) * 1000.0) + 1;
		if (timeout < 0)
			timeout = 0;
		/* Wake up to clear an expired message. */
		if (ui->msg[0] && ui->msg_until > ui_now() &&
		    (ui->msg_until - ui_now()) * 1000.0 < timeout)
			timeout =
				(int)((ui->msg_until - ui_now()) * 1000.0) + 1;
		if (poll(fds, nfds, timeout) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ui->msg[0] && ui_now() >= ui->msg_until)
			redo |= UI_REDO_DRAW;
		if (fds[1].revents & POLLIN)
			redo |= read_signals();
		if (nfds == 3 && fds[2].revents)
			view_tests_readable(ui), redo |= UI_REDO_DRAW;
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			redo |= UI_REDO_QUIT;
		if (fds[0].revents & POLLIN)
			while ((ch = getch()) != ERR)
				redo |= handle_key(ui, ch);
		if (redo & UI_REDO_QUIT)
			return 0;
	}
}

int ui_run(const struct ui_opts *o)
{
	struct ui *ui = calloc(1, sizeof(*ui));
	char err[512];
	int r;

	if (!ui)
		return -ENOMEM;
	ui->o = *o;
	if (ui->o.interval <= 0)
		ui->o.interval = 1.0;
	ui->root = geteuid() == 0;
	ui->view = ui->back = UI_OVERVIEW;
	rd_history_init(&ui->hist);
	rd_snapshot_init(&ui->snap);
	if (o->source == UI_LIVE) {
		ui->cache = rd_probe_cache_new();
		if (!ui->cache) {
			r = -ENOMEM;
			goto out;
		}
	} else {
		r = rd_recording_open(o->replay_path, &ui->rec, err,
				      sizeof(err));
		if (r < 0) {
			fprintf(stderr, "rdmadiag: %s\n", err);
			goto out;
		}
		ui->rec_open = true;
	}
	r = take_snapshot(ui, true);
	if (r < 0 && o->source != UI_LIVE) {
		fprintf(stderr, "rdmadiag: %s\n", ui->source_err);
		goto out;
	}

	if (tcgetattr(STDIN_FILENO, &saved_tty) == 0)
		saved_tty_ok = true;
	if (!initscr()) {
		r = -ENOTTY;
		goto out;
	}
	add_cap("sgr0");
	add_cap("cnorm");
	add_cap("rmkx");
	add_cap("rmcup");
	r = signals_setup();
	if (r < 0)
		goto out_curses;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	w_init(o->color, o->utf8);
	r = loop(ui);
out_curses:
	view_tests_cleanup();
	endwin();
	signals_restore();
out:
	ui_free(ui);
	free(ui);
	return r;
}
