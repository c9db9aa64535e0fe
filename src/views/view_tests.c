// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tests: the form for a bandwidth or latency run, the live graph of its
 * progress, the results list and the port's busiest counters moving
 * beside it. The run itself (a child process) is src/console/test_run.c.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate.h"
#include "views/ui.h"

enum field {
	F_MODE,
	F_HOST,
	F_OP,
	F_SIZE,
	F_ALL,
	F_DURATION,
	F_GID,
	F_QPS,
	F_BIDIR,
	F_N
};

/* The form, one set of settings per kind of test with the command's own
 * defaults (bw: write, 64 KiB, 5 s; lat: send, 2 B, 1000 iterations); the
 * run itself is the model's (ui->test). */
static struct {
	bool form;
	enum field field;
	struct con_test_params *p;
	struct con_test_params bw, lat;
} fs = {
	.bw = { .op = CON_TEST_WRITE, .size = "65536", .duration = "5" },
	.lat = { .lat = true, .op = CON_TEST_SEND, .size = "2" },
};

static int form_key(struct ui *ui, int ch);

/* The fields typed as text, where they are in the settings; all but the
 * host take digits only. */
#define TEXT_FIELD(m)                         \
	{ offsetof(struct con_test_params, m), \
	  sizeof(((struct con_test_params *)NULL)->m) }
static const struct {
	size_t off, size;
} text_fields[F_N] = {
	[F_HOST] = TEXT_FIELD(host),
	[F_SIZE] = TEXT_FIELD(size),
	[F_DURATION] = TEXT_FIELD(duration),
	[F_GID] = TEXT_FIELD(gid),
	[F_QPS] = TEXT_FIELD(qps),
};
#undef TEXT_FIELD

static bool is_text_field(int f)
{
	return f >= 0 && f < F_N && text_fields[f].size;
}

/* Why no test can run from here, or NULL when one can. */
static const char *no_test_reason(const struct ui *ui)
{
	if (ui->st.source != CON_LIVE)
		return "this is a recording, not this host";
	if (ui->o.roots && ui->o.roots->redirected)
		return "a tree of files (--root) is not this host";
	if (!ui_sel_device(ui) || !ui_sel_port(ui))
		return "this host has no RDMA port to test";
	return NULL;
}

void view_tests_open_form(struct ui *ui, bool latency)
{
	const char *why = no_test_reason(ui);

	if (why) {
		ui_msg(ui, W_WARN, "no test runs here: %s", why);
		return;
	}
	if (con_test_running(&ui->test)) {
		ui_msg(ui, W_WARN, "a test is running: Esc stops it first");
		return;
	}
	ui_go(ui, &view_tests_screen);
	fs.form = true;
	ui->modal = form_key;
	fs.p = latency ? &fs.lat : &fs.bw;
	fs.field = F_MODE;
}

static int launch(struct ui *ui)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	char err[256];

	if (ui->st.source != CON_LIVE) {
		ui_msg(ui, W_WARN,
		       "tests run on this host's ports: not from a recording");
		return UI_REDO_DRAW;
	}
	if (!d || !p) {
		ui_msg(ui, W_WARN, "no RDMA port to test");
		return UI_REDO_DRAW;
	}
	snprintf(fs.p->dev, sizeof(fs.p->dev), "%s", ui_str(d->name));
	fs.p->port = p->port;
	if (con_test_start(&ui->test, fs.p, err, sizeof(err)) < 0)
		ui_msg(ui, W_WARN, "%s", err);
	return UI_REDO_DRAW;
}

static void text_edit(char *buf, size_t size, int ch, bool digits)
{
	size_t len = strlen(buf);

	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			buf[len - 1] = '\0';
		return;
	}
	if (digits ? (ch >= '0' && ch <= '9')
		   : (ch > 32 && ch < 127 && ch != '\'' && ch != '"')) {
		if (len + 1 < size) {
			buf[len] = (char)ch;
			buf[len + 1] = '\0';
		}
	}
}

static int form_key(struct ui *ui, int ch)
{
	int step = 0;

	switch (ch) {
	case UI_KEY_ESC:
		fs.form = false;
		ui->modal = NULL;
		return UI_REDO_DRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		fs.form = false;
		ui->modal = NULL;
		return launch(ui);
	case KEY_UP:
	case KEY_BTAB:
		fs.field = (fs.field + F_N - 1) % F_N;
		return UI_REDO_DRAW;
	case KEY_DOWN:
	case '\t':
		fs.field = (fs.field + 1) % F_N;
		return UI_REDO_DRAW;
	case KEY_LEFT:
		step = -1;
		break;
	case KEY_RIGHT:
	case ' ':
		step = 1;
		break;
	default:
		break;
	}
	switch (fs.field) {
	case F_MODE:
		if (step)
			fs.p->mode = (fs.p->mode + CON_TEST_MODES + step) %
				     CON_TEST_MODES;
		break;
	case F_OP:
		if (step) {
			fs.p->op = (fs.p->op + CON_TEST_OPS + step) %
				   CON_TEST_OPS;
			/* perftest has no read latency over send semantics */
			if (fs.p->lat && fs.p->op == CON_TEST_READ)
				fs.p->op = (fs.p->op + CON_TEST_OPS + step) %
					   CON_TEST_OPS;
		}
		break;
	case F_ALL:
		if (step)
			fs.p->all_sizes = !fs.p->all_sizes;
		break;
	case F_BIDIR:
		if (step && !fs.p->lat)
			fs.p->bidir = !fs.p->bidir;
		break;
	default:
		/* a space is text only in a host name */
		if (is_text_field(fs.field) && !(fs.field == F_QPS && fs.p->lat) &&
		    (!step || (fs.field == F_HOST && ch == ' ')))
			text_edit((char *)fs.p + text_fields[fs.field].off,
				  text_fields[fs.field].size, ch,
				  fs.field != F_HOST);
		break;
	}
	return UI_REDO_DRAW;
}

static void draw_form(struct ui *ui, const struct rd_rect *r)
{
	static const char *const labels[F_N] = {
		"mode",		"host",	     "operation", "size (bytes)",
		"all sizes",	"duration (s)", "GID index", "QPs",
		"bidirectional",
	};
	const struct con_test_params *p = fs.p;
	const char *values[F_N] = {
		con_test_mode_names[p->mode],
		p->host,
		con_test_op_names[p->op],
		p->all_sizes ? "(every size)" : p->size,
		p->all_sizes ? "yes: 2 B to 8 MiB" : "no",
		p->all_sizes ? "(one pass per size)"
		: p->duration[0] ? p->duration
				 : "(1000 iterations)",
		p->gid[0] ? p->gid : "(chosen as perftest does)",
		p->qps[0] ? p->qps : "1",
		p->bidir ? "yes" : "no",
	};
	struct rd_rect in = { r->y + 1, r->x + 2, r->h - 2, r->w - 4 };

	w_box(r, p->lat ? "latency test" : "bandwidth test");
	w_printf(&in, 0, 0, W_NORMAL, "port %s/%" PRIu64, ui->st.sel_dev,
		 ui->st.sel_port);
	for (int i = 0; i < F_N; i++) {
		bool cur = (int)fs.field == i;
		bool text = is_text_field(i);

		if (i == F_HOST && p->mode != CON_TEST_CLIENT) {
			w_printf(&in, 1 + i, 0, cur ? W_SEL : W_DIM,
				 "%s %-14s (client only)", cur ? ">" : " ",
				 labels[i]);
			continue;
		}
		if ((i == F_QPS || i == F_BIDIR) && p->lat) {
			w_printf(&in, 1 + i, 0, cur ? W_SEL : W_DIM,
				 "%s %-14s (bandwidth only)", cur ? ">" : " ",
				 labels[i]);
			continue;
		}
		w_printf(&in, 1 + i, 0, cur ? W_SEL : W_NORMAL, "%s %-14s %s%s",
			 cur ? ">" : " ", labels[i], values[i],
			 cur && text ? "_" : "");
	}
	w_print(&in, F_N + 1, 0, W_DIM,
		"Up/Down field  Left/Right choose  type to edit");
	w_print(&in, F_N + 2, 0, W_DIM, "Enter start  Esc cancel");
}

/* What the tested port can reach, Gb/s, for the graph's reference line. */
static double reach_gbps(struct ui *ui, const struct con_test_run *tr)
{
	struct rd_rate m;

	if (tr->lat || !fs.p->dev[0] || !ui->st.have_snap ||
	    rd_rate_port(&ui->st.snap, fs.p->dev, fs.p->port, &m) < 0 || !m.ok)
		return NAN;
	return m.reachable_gbps;
}

static void draw_graph(const struct con_test_run *tr, const struct rd_rect *r,
		       double ref)
{
	static const char *const eighths[] = { " ",	 "\u2581", "\u2582",
					       "\u2583", "\u2584", "\u2585",
					       "\u2586", "\u2587", "\u2588" };
	double max = 0, last = tr->n_graph ? tr->graph[tr->n_graph - 1] : NAN;
	int gh = r->h - 2, gw = r->w - 8;
	size_t first;
	char lastbuf[32];

	for (size_t i = 0; i < tr->n_graph; i++)
		if (tr->graph[i] > max)
			max = tr->graph[i];
	if (isfinite(ref) && ref > max)
		max = ref;
	if (isfinite(last))
		snprintf(lastbuf, sizeof(lastbuf),
			 tr->lat ? "%.2f us" : "%.2f Gb/s", last);
	else
		snprintf(lastbuf, sizeof(lastbuf), "waiting for progress");
	w_printf(r, 0, 0, W_HEAD, "%s  now %s  %s",
		 con_test_running(tr) ? "RUNNING" : "last run", lastbuf,
		 con_test_running(tr) ? "(Esc stops)" : "");
	if (gh < 2 || gw < 4 || max <= 0)
		return;
	first = tr->n_graph > (size_t)gw ? tr->n_graph - (size_t)gw : 0;
	w_printf(r, 1, 0, W_DIM, "%6.1f", max);
	w_printf(r, gh, 0, W_DIM, "%6.1f", 0.0);
	if (isfinite(ref) && ref > 0) {
		/* The reference line: the row whose top the reachable rate
		 * reaches; bars drawn after it cover it where they rise. */
		int row = gh - (int)lround(ref / max * gh);

		if (row < 0)
			row = 0;
		if (row >= gh)
			row = gh - 1;
		for (int x = 7; x < 7 + gw; x++)
			w_print(r, 1 + row, x, W_DIM, w_utf8() ? "\u2504" : "-");
		w_printf(r, row ? row : 1, 7, W_DIM, "reachable %.2f Gb/s",
			 ref);
	}
	for (size_t i = first; i < tr->n_graph; i++) {
		int x = 7 + (int)(i - first);
		double cells = tr->graph[i] / max * gh;

		for (int row = 0; row < gh; row++) {
			double fill = cells - (gh - 1 - row);
			int e = fill >= 1 ? 8 : fill <= 0 ? 0 : (int)(fill * 8);

			if (!e)
				continue;
			w_print(r, 1 + row, x, W_GOOD,
				w_utf8() ? eighths[e] : (e >= 4 ? "#" : "."));
		}
	}
}

/*
 * The last latency result's histogram: one row per bin (neighbours merged
 * to fit the rows), its range in usec, count and bar; the tail above the
 * last bin in one more row.
 */
static void draw_hist(const struct con_test_result *t, const struct rd_rect *r)
{
	int rows = r->h - 1 - (t->hist_over > 0);
	size_t per, most = t->hist_over;
	uint64_t merged[CON_TEST_HIST_MAX];
	size_t nm = 0;
	int bw = r->w - 32;

	w_printf(r, 0, 0, W_HEAD, "last run: latency histogram (usec: samples)");
	if (rows < 1 || bw < 4)
		return;
	per = (t->n_hist + (size_t)rows - 1) / (size_t)rows;
	for (size_t b = 0; b < t->n_hist; b += per, nm++) {
		merged[nm] = 0;
		for (size_t k = b; k < b + per && k < t->n_hist; k++)
			merged[nm] += t->hist[k];
		most = merged[nm] > most ? merged[nm] : most;
	}
	for (size_t i = 0; i <= nm; i++) {
		double lo = t->hist_lo + t->hist_width * (double)(i * per);
		double hi = i < nm ? lo + t->hist_width * (double)per
				   : t->hist_max;
		uint64_t n = i < nm ? merged[i] : t->hist_over;
		int len = most ? (int)((n * (uint64_t)bw + most - 1) / most) : 0;

		if (i == nm && !n)
			break;
		w_printf(r, 1 + (int)i, 0, W_NORMAL, "%9.2f-%-9.2f %10llu ",
			 lo, hi, (unsigned long long)n);
		for (int k = 0; k < len; k++)
			w_print(r, 1 + (int)i, 31 + k, i < nm ? W_GOOD : W_WARN,
				w_utf8() ? "\u2588" : "#");
	}
}

/* why: no_test_reason(), said instead of offering b and l. */
static void draw_results(const struct con_test_run *tr, const struct rd_rect *r,
			 int row, const char *why)
{
	static const struct w_column cols[] = {
		{ "RESULT", 8, false },
		{ "FIGURE", 12, true },
		{ "TEST", 0, false },
	};

	w_table_header(r, row++, cols, 3);
	if (!tr->n_results && why)
		w_printf(r, row, 0, W_DIM, "No test runs here: %s.", why);
	else if (!tr->n_results)
		w_print(r, row, 0, W_DIM,
			"No tests yet: b bandwidth, l latency (selected "
			"port).");
	for (size_t i = tr->n_results; i-- > 0 && row < r->h;) {
		const struct con_test_result *t = &tr->results[i];
		const char *text[3] = { t->status, t->figure, t->what };
		enum w_style st[3] = { strcmp(t->status, "done") ? W_WARN
								 : W_GOOD,
				       W_NORMAL, W_NORMAL };

		w_table_row(r, row++, cols, 3, text, st, false);
	}
}

static void draw_last_fields(const struct con_test_run *tr,
			     const struct rd_rect *r, int row)
{
	const struct con_test_result *t =
		tr->n_results ? &tr->results[tr->n_results - 1] : NULL;

	if (!t || !t->n_figures || row >= r->h)
		return;
	w_print(r, row++, 0, W_HEAD, "last result");
	/* One figure a line, numbers aligned, each with its unit. */
	for (size_t i = 0; i < t->n_figures && row < r->h; i++)
		w_printf(r, row++, 0, W_NORMAL, "  %s", t->figures[i]);
}

/* The peer check the test printed before its figures; the next row. */
static int draw_peer(const struct con_test_result *t, const struct rd_rect *r,
		     int row)
{
	if (!t || !t->n_peer || row >= r->h)
		return row;
	w_print(r, row++, 0, W_HEAD, "peer check");
	for (size_t i = 0; i < t->n_peer && row < r->h; i++)
		w_print(r, row++, 0,
			strncmp(t->peer[i], "  ", 2) ? W_NORMAL : W_WARN,
			t->peer[i]);
	if (t->peer_more && row < r->h)
		w_printf(r, row++, 0, W_DIM, "  (%zu more lines)",
			 t->peer_more);
	return row + 1;
}

struct busy {
	const char *name;
	const struct rd_series *s;
	double rate;
	enum rd_counter_group group;
};

static int cmp_busy(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;

	return x->rate < y->rate   ? 1
	       : x->rate > y->rate ? -1
				   : strcmp(x->name, y->name);
}

/* What moved on the port while the last test ran: kept for after it. */
static struct {
	char port[96];	/* "mlx5_0/1" */
	size_t n;
	struct {
		char name[64];
		double rate;
		enum rd_counter_group group;
	} v[16];
} moved;

static void keep_moved(const char *port, const struct busy *b, size_t n)
{
	if (!n)
		return;
	snprintf(moved.port, sizeof(moved.port), "%s", port);
	moved.n = 0;
	for (size_t i = 0; i < n && moved.n < 16; i++, moved.n++) {
		snprintf(moved.v[i].name, sizeof(moved.v[i].name), "%s",
			 b[i].name);
		moved.v[i].rate = b[i].rate;
		moved.v[i].group = b[i].group;
	}
}

/* After a run: what moved during it, when nothing moves now. */
static void draw_moved(const struct rd_rect *in, const char *port)
{
	if (!moved.n || strcmp(moved.port, port)) {
		w_print(in, 0, 0, W_DIM, "nothing is moving on this port");
		return;
	}
	w_print(in, 0, 0, W_DIM,
		"moved during the last run:");
	for (size_t i = 0; i < moved.n && (int)i + 1 < in->h; i++) {
		char rate[32], name[128];
		int nc;

		w_fmt_counter_rate(rd_counter_unit_of(rd_data_counters(),
						      moved.v[i].group,
						      moved.v[i].name),
				   moved.v[i].rate, rate, sizeof(rate));
		nc = w_fit(moved.v[i].name, 25, w_utf8(), name, sizeof(name));
		w_printf(in, (int)i + 1, 0, W_NORMAL, "%s%*s %13s", name,
			 25 - nc, "", rate);
	}
}

/* The port's counters that move the most, with their sparklines. */
static void draw_moving(struct ui *ui, const struct rd_rect *r)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	const struct rd_netdev *nd = ui_port_netdev(ui, p);
	struct busy b[512];
	size_t n = 0;
	struct rd_rect in = { r->y + 1, r->x + 1, r->h - 2, r->w - 2 };

	char port[96];

	w_box(r, "port counters moving");
	if (!d || !p)
		return;
	const struct rd_counters *groups[3] = { &p->counters, &p->hw_counters,
						nd ? &nd->ethtool.stats
						   : NULL };

	for (int g = 0; g < 3; g++) {
		for (size_t i = 0; groups[g] && i < groups[g]->n && n < 512;
		     i++) {
			const char *name = groups[g]->v[i].name;
			const struct rd_series *s = rd_history_counter(
				&ui->st.hist, d->name, p->port,
				nd ? nd->name : NULL, (enum rd_counter_group)g,
				name);
			double rate;

			if (rd_series_rate(s, ui->st.interval * 2.5, &rate) &&
			    rate > 0)
				b[n++] = (struct busy){ name, s, rate,
							(enum rd_counter_group)g };
		}
	}
	qsort(b, n, sizeof(b[0]), cmp_busy);
	snprintf(port, sizeof(port), "%s/%" PRIu64, d->name, p->port);
	if (con_test_running(&ui->test))
		keep_moved(port, b, n);
	if (!n)
		draw_moved(&in, port);
	for (size_t i = 0; i < n && (int)i < in.h; i++) {
		double rates[64];
		size_t nr = rd_series_rates(b[i].s, rates, 64);
		char rate[32], spark[256], name[128];
		int sw = in.w - 26 - 14, nc;

		/* The rate in the counter's own unit (data/counters.tsv). */
		w_fmt_counter_rate(rd_counter_unit_of(rd_data_counters(),
						      b[i].group, b[i].name),
				   b[i].rate, rate, sizeof(rate));
		nc = w_fit(b[i].name, 25, w_utf8(), name, sizeof(name));
		w_spark(rates, nr, sw > 30 ? 30 : sw, w_utf8(), spark,
			sizeof(spark));
		w_printf(&in, (int)i, 0, W_NORMAL, "%s%*s %13s %s", name,
			 25 - nc, "", rate, spark);
	}
}

static void tests_draw(struct ui *ui)
{
	const struct con_test_run *tr = &ui->test;
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	int gh = r->h / 2;
	struct rd_rect graph = { r->y, r->x, gh, r->w };
	struct rd_rect lower = { r->y + gh, r->x, r->h - gh, r->w };
	const struct con_test_result *last =
		tr->n_results ? &tr->results[tr->n_results - 1] : NULL;

	if (fs.form) {
		const struct rd_rect *side = ui_pane(ui, RD_PANE_SIDE);
		struct rd_rect f = { r->y, r->x, r->h, r->w < 60 ? r->w : 60 };

		/* Every field in view: on a narrow screen the form takes the
		 * pane below too. */
		if (side->y > r->y && f.h < F_N + 5)
			f.h = side->y + side->h - r->y;
		if (f.h > F_N + 5)
			f.h = F_N + 5;
		draw_form(ui, &f);
		if (f.y + f.h > side->y && side->y > r->y)
			return;
	} else if (!con_test_running(tr) && last && last->lat &&
		   last->n_hist) {
		draw_hist(last, &graph);
		draw_results(tr, &lower, 0, no_test_reason(ui));
	} else if (con_test_running(tr) || tr->n_graph) {
		draw_graph(tr, &graph, reach_gbps(ui, tr));
		draw_results(tr, &lower, 0, no_test_reason(ui));
	} else {
		draw_results(tr, r, 0, no_test_reason(ui));
		draw_last_fields(tr, r,
				 draw_peer(last, r, (int)tr->n_results + 3));
	}
	if (!fs.form && con_test_running(tr))
		draw_peer(&tr->cur, &lower, (int)tr->n_results + 2);
	else if (!fs.form && (tr->n_graph || (last && last->n_hist)))
		draw_last_fields(tr, &lower,
				 draw_peer(last, &lower,
					   (int)tr->n_results + 2));
	draw_moving(ui, ui_pane(ui, RD_PANE_SIDE));
}

static int tests_stop(struct ui *ui, int ch)
{
	if (!con_test_running(&ui->test))
		return UI_UNHANDLED;
	con_test_stop(&ui->test);
	ui_msg(ui, W_WARN, "stopping the test...");
	return UI_REDO_DRAW;
}

static bool tests_can_run(struct ui *ui)
{
	return !no_test_reason(ui);
}

static const struct ui_action tests_actions[] = {
	{ "Esc", tests_stop, "b bandwidth  l latency  Esc stop",
	  "stop the running test (SIGINT, then SIGKILL after 2 s)",
	  tests_can_run },
	{ NULL, NULL, NULL, NULL },
};

static const char tests_help[] =
	"b (bandwidth) or l (latency), from any screen, opens a "
	"small form for the selected port: mode (loopback on this "
	"port, client of HOST, or server for a peer's ib_write_bw / "
	"rdmadiag), operation, message size or all sizes, duration, GID "
	"index, and for bandwidth the number of QPs and both directions; "
	"each kind keeps its own settings (latency starts at send, 2 B, as "
	"rdmadiag lat does). Where no test can run (a recording, a tree of "
	"files, no port) b and l say why instead. Enter runs "
	"'rdmadiag bw|lat' as a child process; its progress draws "
	"a live graph of Gb/s (or microseconds) while the port's "
	"busiest counters move beside it; a dashed line marks the rate "
	"the port can reach (link, PCIe and MTU); once the run ends, the "
	"panel keeps what moved during it. Esc stops the test. "
	"Results stay in the list below, the last one's figures with "
	"their units.";
static int tests_bw_anywhere(struct ui *ui, int ch)
{
	view_tests_open_form(ui, false);
	return UI_REDO_DRAW;
}

static int tests_lat_anywhere(struct ui *ui, int ch)
{
	view_tests_open_form(ui, true);
	return UI_REDO_DRAW;
}

static const struct ui_action tests_anywhere[] = {
	{ "b", tests_bw_anywhere, NULL,
	  "bandwidth test on the selected port (from anywhere)" },
	{ "l", tests_lat_anywhere, NULL,
	  "latency test on the selected port (from anywhere)" },
	{ NULL, NULL, NULL, NULL },
};

UI_SCREEN_FULL(view_tests_screen, "Tests", "Test", 7, 't', RD_LAYOUT_SPLIT,
	       tests_draw, tests_actions, tests_help, NULL, NULL,
	       tests_anywhere);
