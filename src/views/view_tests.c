// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tests: bandwidth and latency runs of this same binary (`rdmadiag bw|lat
 * --progress-fd 3 --json`) as a child process, so a crash or hang in a
 * test never takes the console down. Progress lines (JSON, one per line)
 * feed a live graph; the port's busiest counters move beside it. Esc
 * interrupts (SIGINT, then SIGKILL); results stay in a list.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "views/ui.h"

#define GRAPH_MAX 600
#define RESULTS_MAX 16
#define FIELDS_MAX 24

enum tmode { MODE_LOOPBACK, MODE_CLIENT, MODE_SERVER, MODE_N };
static const char *const mode_names[MODE_N] = { "loopback", "client",
						"server" };
enum top { OP_WRITE, OP_READ, OP_SEND, OP_N };
static const char *const op_names[OP_N] = { "write", "read", "send" };

enum field { F_MODE, F_HOST, F_OP, F_SIZE, F_DURATION, F_N };

struct tresult {
	bool lat;
	char what[96];	 /* "bw write 64 KiB loopback mlx5_0/1" */
	char figure[48]; /* "92.31 Gb/s" or "1.84 us" */
	char status[24]; /* done / aborted / failed */
	char fields[FIELDS_MAX][2][48];
	size_t n_fields;
};

static struct {
	/* form */
	bool form;
	bool lat;
	enum field field;
	enum tmode mode;
	enum top op;
	char host[64];
	char size[16];
	char duration[8];
	/* child */
	pid_t pid;
	int fd;
	char buf[8192];
	size_t len;
	double started;
	double abort_at; /* SIGINT sent; SIGKILL after a grace time */
	bool aborted;
	char dev[64];
	uint64_t port;
	/* live data */
	double graph[GRAPH_MAX];
	size_t n_graph;
	char last_err[256];
	struct tresult cur;
	bool have_result;
	struct tresult results[RESULTS_MAX];
	size_t n_results;
} ts = { .pid = -1, .fd = -1, .size = "65536", .duration = "5" };

int view_tests_fd(void)
{
	return ts.fd;
}

void view_tests_kill_now(void)
{
	if (ts.pid > 0)
		kill(ts.pid, SIGKILL);
}

static bool running(void)
{
	return ts.pid > 0;
}

static int form_key(struct ui *ui, int ch);

void view_tests_start(struct ui *ui, bool latency)
{
	if (running()) {
		ui_msg(ui, W_WARN, "a test is running: Esc stops it first");
		return;
	}
	ts.form = true;
	ui->modal = form_key;
	ts.lat = latency;
	ts.field = F_MODE;
	if (latency && ts.op == OP_READ)
		ts.op = OP_WRITE;
}

static void add_graph(double v)
{
	if (ts.n_graph == GRAPH_MAX) {
		memmove(ts.graph, ts.graph + 1,
			(GRAPH_MAX - 1) * sizeof(double));
		ts.n_graph--;
	}
	ts.graph[ts.n_graph++] = v;
}

static bool num(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x))
		return false;
	if (!json_object_is_type(x, json_type_double) &&
	    !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_double(x);
	return isfinite(*v);
}

/* The latency figure a progress or result line carries, by preference. */
static bool lat_figure(struct json_object *o, double *v)
{
	static const char *const keys[] = { "median_usec",  "t_typical",
					    "typical_usec", "avg_usec",
					    "t_avg",	    "usec" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (num(o, keys[i], v))
			return true;
	return false;
}

static void keep_fields(struct json_object *o, struct tresult *r)
{
	json_object_object_foreach(o, k, val)
	{
		if (r->n_fields == FIELDS_MAX)
			break;
		if (json_object_is_type(val, json_type_object) ||
		    json_object_is_type(val, json_type_array))
			continue;
		snprintf(r->fields[r->n_fields][0], 48, "%s", k);
		snprintf(r->fields[r->n_fields][1], 48, "%s",
			 json_object_get_string(val));
		r->n_fields++;
	}
}

static void handle_line(char *line)
{
	struct json_object *o, *type;
	const char *t;
	double v;

	if (!*line)
		return;
	o = json_tokener_parse(line);
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &type)) {
		/* The child's error messages: keep the last one. */
		snprintf(ts.last_err, sizeof(ts.last_err), "%s", line);
		json_object_put(o);
		return;
	}
	t = json_object_get_string(type);
	if (t && strcmp(t, "progress") == 0) {
		if (ts.lat ? lat_figure(o, &v) : num(o, "gbps", &v))
			add_graph(v);
	} else if (t && strcmp(t, "result") == 0) {
		struct json_object *arr, *last = NULL, *err;
		size_t n;

		ts.cur.n_fields = 0;
		keep_fields(o, &ts.cur);
		/* One entry per message size: the last is the one to show. */
		if (json_object_object_get_ex(o, "results", &arr) &&
		    json_object_is_type(arr, json_type_array) &&
		    (n = json_object_array_length(arr)) > 0) {
			last = json_object_array_get_idx(arr, n - 1);
			if (!json_object_is_type(last, json_type_object))
				last = NULL;
		}
		if (last)
			keep_fields(last, &ts.cur);
		if (last && (ts.lat ? lat_figure(last, &v)
				    : num(last, "bw_avg_gbps", &v)))
			snprintf(ts.cur.figure, sizeof(ts.cur.figure),
				 ts.lat ? "%.2f us" : "%.2f Gb/s", v);
		if (json_object_object_get_ex(o, "error", &err))
			snprintf(ts.last_err, sizeof(ts.last_err), "%s",
				 json_object_get_string(err));
		ts.have_result = true;
	} else if (t && strcmp(t, "error") == 0) {
		struct json_object *m;

		if (json_object_object_get_ex(o, "message", &m))
			snprintf(ts.last_err, sizeof(ts.last_err), "%s",
				 json_object_get_string(m));
	}
	json_object_put(o);
}

static void finish(struct ui *ui, int status)
{
	if (ts.fd >= 0)
		close(ts.fd);
	ts.fd = -1;
	ts.pid = -1;
	if (ts.aborted)
		snprintf(ts.cur.status, sizeof(ts.cur.status), "aborted");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		snprintf(ts.cur.status, sizeof(ts.cur.status), "done");
	else
		snprintf(ts.cur.status, sizeof(ts.cur.status), "failed");
	if (!ts.cur.figure[0])
		snprintf(ts.cur.figure, sizeof(ts.cur.figure), "-");
	if (ts.n_results == RESULTS_MAX) {
		memmove(ts.results, ts.results + 1,
			(RESULTS_MAX - 1) * sizeof(ts.results[0]));
		ts.n_results--;
	}
	ts.results[ts.n_results++] = ts.cur;
	ui_msg(ui, strcmp(ts.cur.status, "done") ? W_WARN : W_BANNER_OK,
	       "%s test %s: %s%s%s", ts.lat ? "latency" : "bandwidth",
	       ts.cur.status, ts.cur.figure,
	       ts.last_err[0] && strcmp(ts.cur.status, "done") ? " - " : "",
	       strcmp(ts.cur.status, "done") ? ts.last_err : "");
}

static void reap(struct ui *ui, bool block)
{
	int status = 0;
	pid_t r;

	if (ts.pid <= 0)
		return;
	do
		r = waitpid(ts.pid, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == ts.pid || (r < 0 && errno == ECHILD))
		finish(ui, status);
}

void view_tests_readable(struct ui *ui)
{
	ssize_t n;

	if (ts.fd < 0)
		return;
	n = read(ts.fd, ts.buf + ts.len, sizeof(ts.buf) - 1 - ts.len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* EOF: the child is gone or going; wait for it briefly. */
		close(ts.fd);
		ts.fd = -1;
		if (ts.len) {
			ts.buf[ts.len] = '\0';
			handle_line(ts.buf);
			ts.len = 0;
		}
		if (!ts.abort_at)
			ts.abort_at = ui_now(); /* escalate if it lingers */
		reap(ui, false);
		return;
	}
	ts.len += (size_t)n;
	ts.buf[ts.len] = '\0';
	for (;;) {
		char *nl = memchr(ts.buf, '\n', ts.len);
		size_t used;

		if (!nl)
			break;
		*nl = '\0';
		handle_line(ts.buf);
		used = (size_t)(nl - ts.buf) + 1;
		memmove(ts.buf, nl + 1, ts.len - used);
		ts.len -= used;
	}
	/* A line longer than the buffer is not ours: drop it. */
	if (ts.len == sizeof(ts.buf) - 1)
		ts.len = 0;
}

/* Called every loop turn: escalate an abort, collect the child. */
void view_tests_tick(struct ui *ui)
{
	if (ts.pid <= 0)
		return;
	if (ts.abort_at && ui_now() - ts.abort_at > 2.0) {
		kill(ts.pid, SIGKILL);
		reap(ui, true);
		return;
	}
	if (ts.fd < 0)
		reap(ui, false);
}

void view_tests_cleanup(void)
{
	if (ts.pid > 0) {
		int status;

		kill(ts.pid, SIGINT);
		for (int i = 0; i < 20; i++) {
			if (waitpid(ts.pid, &status, WNOHANG) == ts.pid) {
				ts.pid = -1;
				break;
			}
			usleep(50000);
		}
		if (ts.pid > 0) {
			kill(ts.pid, SIGKILL);
			waitpid(ts.pid, &status, 0);
		}
		ts.pid = -1;
	}
	if (ts.fd >= 0)
		close(ts.fd);
	ts.fd = -1;
}

static int launch(struct ui *ui)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	char portarg[16];
	const char *argv[24];
	int argc = 0, pfd[2];
	pid_t pid;

	if (ui->o.source != UI_LIVE) {
		ui_msg(ui, W_WARN,
		       "tests run on this host's ports: not from a recording");
		return UI_REDO_DRAW;
	}
	if (!d || !p) {
		ui_msg(ui, W_WARN, "no RDMA port to test");
		return UI_REDO_DRAW;
	}
	if (ts.mode == MODE_CLIENT && !ts.host[0]) {
		ui_msg(ui, W_WARN, "client mode needs the server's host name");
		return UI_REDO_DRAW;
	}
	snprintf(ts.dev, sizeof(ts.dev), "%s", ui_str(d->name));
	ts.port = p->port;
	snprintf(portarg, sizeof(portarg), "%" PRIu64, p->port);
	argv[argc++] = "rdmadiag";
	argv[argc++] = ts.lat ? "lat" : "bw";
	argv[argc++] = "-d";
	argv[argc++] = ts.dev;
	argv[argc++] = "-i";
	argv[argc++] = portarg;
	argv[argc++] = "--op";
	argv[argc++] = op_names[ts.op];
	argv[argc++] = "-s";
	argv[argc++] = ts.size;
	argv[argc++] = "-D";
	argv[argc++] = ts.duration;
	argv[argc++] = "--progress-fd";
	argv[argc++] = "3";
	argv[argc++] = "--json";
	if (ts.mode == MODE_LOOPBACK)
		argv[argc++] = "--loopback";
	else if (ts.mode == MODE_CLIENT)
		argv[argc++] = ts.host;
	argv[argc] = NULL;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		ui_msg(ui, W_BAD, "cannot start the test: %s", strerror(errno));
		return UI_REDO_DRAW;
	}
	pid = fork();
	if (pid < 0) {
		ui_msg(ui, W_BAD, "cannot start the test: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return UI_REDO_DRAW;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* Its own group: the terminal's Ctrl-C is the console's. */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		dup2(pfd[1], STDERR_FILENO);
		dup2(pfd[1], 3);
		execv(ui->o.self_exe ? ui->o.self_exe : "/proc/self/exe",
		      (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	ts.pid = pid;
	ts.fd = pfd[0];
	ts.len = 0;
	ts.n_graph = 0;
	ts.abort_at = 0;
	ts.aborted = false;
	ts.have_result = false;
	ts.last_err[0] = '\0';
	ts.started = ui_now();
	memset(&ts.cur, 0, sizeof(ts.cur));
	ts.cur.lat = ts.lat;
	snprintf(ts.cur.what, sizeof(ts.cur.what), "%s %s %s B %ss %s %s/%s",
		 ts.lat ? "lat" : "bw", op_names[ts.op], ts.size, ts.duration,
		 ts.mode == MODE_CLIENT ? ts.host : mode_names[ts.mode], ts.dev,
		 portarg);
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
		ts.form = false;
		ui->modal = NULL;
		return UI_REDO_DRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		ts.form = false;
		ui->modal = NULL;
		return launch(ui);
	case KEY_UP:
	case KEY_BTAB:
		ts.field = (ts.field + F_N - 1) % F_N;
		return UI_REDO_DRAW;
	case KEY_DOWN:
	case '\t':
		ts.field = (ts.field + 1) % F_N;
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
	switch (ts.field) {
	case F_MODE:
		if (step)
			ts.mode = (ts.mode + MODE_N + step) % MODE_N;
		break;
	case F_OP:
		if (step) {
			ts.op = (ts.op + OP_N + step) % OP_N;
			/* perftest has no read latency over send semantics */
			if (ts.lat && ts.op == OP_READ)
				ts.op = (ts.op + OP_N + step) % OP_N;
		}
		break;
	case F_HOST:
		if (!step || ch == ' ')
			text_edit(ts.host, sizeof(ts.host), ch, false);
		break;
	case F_SIZE:
		if (!step)
			text_edit(ts.size, sizeof(ts.size), ch, true);
		break;
	case F_DURATION:
		if (!step)
			text_edit(ts.duration, sizeof(ts.duration), ch, true);
		break;
	default:
		break;
	}
	return UI_REDO_DRAW;
}

static void draw_form(struct ui *ui, const struct rd_rect *r)
{
	const char *labels[F_N] = { "mode", "host", "operation", "size (bytes)",
				    "duration (s)" };
	const char *values[F_N] = { mode_names[ts.mode], ts.host,
				    op_names[ts.op], ts.size, ts.duration };
	struct rd_rect in = { r->y + 1, r->x + 2, r->h - 2, r->w - 4 };

	w_box(r, ts.lat ? "latency test" : "bandwidth test");
	w_printf(&in, 0, 0, W_NORMAL, "port %s/%" PRIu64, ui->sel_dev,
		 ui->sel_port);
	for (int i = 0; i < F_N; i++) {
		bool cur = (int)ts.field == i;

		if (i == F_HOST && ts.mode != MODE_CLIENT) {
			w_printf(&in, 1 + i, 0, W_DIM, "  %-14s (client only)",
				 labels[i]);
			continue;
		}
		w_printf(&in, 1 + i, 0, cur ? W_SEL : W_NORMAL, "%s %-14s %s%s",
			 cur ? ">" : " ", labels[i], values[i],
			 cur && (i == F_HOST || i == F_SIZE || i == F_DURATION)
				 ? "_"
				 : "");
	}
	w_print(&in, F_N + 1, 0, W_DIM,
		"Up/Down field  Left/Right choose  type to edit");
	w_print(&in, F_N + 2, 0, W_DIM, "Enter start  Esc cancel");
}

static void draw_graph(const struct rd_rect *r)
{
	static const char *const eighths[] = { " ",	 "\u2581", "\u2582",
					       "\u2583", "\u2584", "\u2585",
					       "\u2586", "\u2587", "\u2588" };
	double max = 0, last = ts.n_graph ? ts.graph[ts.n_graph - 1] : NAN;
	int gh = r->h - 2, gw = r->w - 8;
	size_t first;
	char lastbuf[32];

	for (size_t i = 0; i < ts.n_graph; i++)
		if (ts.graph[i] > max)
			max = ts.graph[i];
	if (isfinite(last))
		snprintf(lastbuf, sizeof(lastbuf),
			 ts.lat ? "%.2f us" : "%.2f Gb/s", last);
	else
		snprintf(lastbuf, sizeof(lastbuf), "waiting for progress");
	w_printf(r, 0, 0, W_HEAD, "%s  now %s  %s",
		 running() ? "RUNNING" : "last run", lastbuf,
		 running() ? "(Esc stops)" : "");
	if (gh < 2 || gw < 4 || max <= 0)
		return;
	first = ts.n_graph > (size_t)gw ? ts.n_graph - (size_t)gw : 0;
	w_printf(r, 1, 0, W_DIM, "%6.1f", max);
	w_printf(r, gh, 0, W_DIM, "%6.1f", 0.0);
	for (size_t i = first; i < ts.n_graph; i++) {
		int x = 7 + (int)(i - first);
		double cells = ts.graph[i] / max * gh;

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

static void draw_results(const struct rd_rect *r, int row)
{
	static const struct w_column cols[] = {
		{ "RESULT", 8, false },
		{ "FIGURE", 12, true },
		{ "TEST", 0, false },
	};

	w_table_header(r, row++, cols, 3);
	if (!ts.n_results)
		w_print(r, row, 0, W_DIM,
			"No tests yet: b bandwidth, l latency (selected "
			"port).");
	for (size_t i = ts.n_results; i-- > 0 && row < r->h;) {
		const struct tresult *t = &ts.results[i];
		const char *text[3] = { t->status, t->figure, t->what };
		enum w_style st[3] = { strcmp(t->status, "done") ? W_WARN
								 : W_GOOD,
				       W_NORMAL, W_NORMAL };

		w_table_row(r, row++, cols, 3, text, st, false);
	}
}

static void draw_last_fields(const struct rd_rect *r, int row)
{
	const struct tresult *t =
		ts.n_results ? &ts.results[ts.n_results - 1] : NULL;

	if (!t || !t->n_fields || row >= r->h)
		return;
	w_print(r, row++, 0, W_HEAD, "last result");
	for (size_t i = 0; i < t->n_fields && row < r->h; i += 2) {
		w_printf(r, row, 0, W_NORMAL, "  %-18s %s", t->fields[i][0],
			 t->fields[i][1]);
		if (i + 1 < t->n_fields)
			w_printf(r, row, r->w / 2, W_NORMAL, "%-18s %s",
				 t->fields[i + 1][0], t->fields[i + 1][1]);
		row++;
	}
}

struct busy {
	const char *name;
	const struct rd_series *s;
	double rate;
};

static int cmp_busy(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;

	return x->rate < y->rate   ? 1
	       : x->rate > y->rate ? -1
				   : strcmp(x->name, y->name);
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
				&ui->hist, d->name, p->port, nd ? nd->name : NULL,
				(enum rd_counter_group)g, name);
			double rate;

			if (rd_series_rate(s, ui->o.interval * 2.5, &rate) &&
			    rate > 0)
				b[n++] = (struct busy){ name, s, rate };
		}
	}
	qsort(b, n, sizeof(b[0]), cmp_busy);
	if (!n)
		w_print(&in, 0, 0, W_DIM, "nothing is moving on this port");
	for (size_t i = 0; i < n && (int)i < in.h; i++) {
		double rates[64];
		size_t nr = rd_series_rates(b[i].s, rates, 64);
		char rate[24], spark[256];
		int sw = in.w - 26 - 8;

		w_fmt_si(b[i].rate, rate, sizeof(rate));
		w_spark(rates, nr, sw > 30 ? 30 : sw, w_utf8(), spark,
			sizeof(spark));
		w_printf(&in, (int)i, 0, W_NORMAL, "%-25.25s %7s %s", b[i].name,
			 rate, spark);
	}
}

static void tests_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	int gh = r->h / 2;
	struct rd_rect graph = { r->y, r->x, gh, r->w };
	struct rd_rect lower = { r->y + gh, r->x, r->h - gh, r->w };

	if (ts.form) {
		struct rd_rect f = { r->y, r->x, r->h < 13 ? r->h : 13,
				     r->w < 60 ? r->w : 60 };

		draw_form(ui, &f);
	} else if (running() || ts.n_graph) {
		draw_graph(&graph);
		draw_results(&lower, 0);
	} else {
		draw_results(r, 0);
		draw_last_fields(r, (int)ts.n_results + 3);
	}
	if (!ts.form && !running() && ts.n_graph)
		draw_last_fields(&lower, (int)ts.n_results + 2);
	draw_moving(ui, ui_pane(ui, RD_PANE_SIDE));
}

static int tests_key(struct ui *ui, int ch)
{
	if (ts.form) {
		ui->modal = form_key;
		return form_key(ui, ch);
	}
	if (ch == UI_KEY_ESC && running()) {
		ts.aborted = true;
		ts.abort_at = ui_now();
		kill(ts.pid, SIGINT);
		ui_msg(ui, W_WARN, "stopping the test...");
		return UI_REDO_DRAW;
	}
	return UI_UNHANDLED;
}

const struct ui_screen view_tests_screen = {
	.name = "Tests",
	.fkey = 7,
	.letter = 't',
	.layout = RD_LAYOUT_SPLIT,
	.bar = "b bandwidth  l latency  Esc stop",
	.draw = tests_draw,
	.key = tests_key,
	.help = "b (bandwidth) or l (latency), from any screen, opens a "
		"small form for the selected port: mode (loopback on this "
		"port, client of HOST, or server for a peer's ib_write_bw / "
		"rdmadiag), operation, message size and duration. Enter runs "
		"'rdmadiag bw|lat' as a child process; its progress draws "
		"a live graph of Gb/s (or microseconds) while the port's "
		"busiest counters move beside it. Esc stops the test. "
		"Results stay in the list below.",
};
