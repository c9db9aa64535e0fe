// SPDX-License-Identifier: GPL-2.0-or-later
/* The bw/lat test child: start, read its JSON lines, stop, collect. */
#include "config.h"
#include "console/test_run.h"

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

#include "console/worker.h"
#include "core/escape.h"

const char *const con_test_mode_names[CON_TEST_MODES] = { "loopback", "client",
							  "server" };
const char *const con_test_op_names[CON_TEST_OPS] = { "write", "read", "send" };

/* The child of the one run, for the crash handler. */
static volatile pid_t test_pid = -1;

void con_test_kill_now(void)
{
	pid_t pid = test_pid;

	if (pid > 0)
		kill(pid, SIGKILL);
}

void con_test_init(struct con_test_run *t, const char *self_exe)
{
	memset(t, 0, sizeof(*t));
	t->self_exe = self_exe;
	t->pid = -1;
	t->fd = -1;
}

bool con_test_running(const struct con_test_run *t)
{
	return t->pid > 0;
}

int con_test_fd(const struct con_test_run *t)
{
	return t->fd;
}

static bool digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int con_test_argv(const struct con_test_params *p, const char **argv,
		  size_t max, char *port, size_t portlen)
{
	size_t n = 0;

	if (max < 26 || (unsigned)p->op >= CON_TEST_OPS ||
	    (unsigned)p->mode >= CON_TEST_MODES || !p->dev[0] ||
	    (!p->all_sizes && !digits(p->size)) ||
	    (p->duration[0] && !digits(p->duration)) ||
	    (p->gid[0] && !digits(p->gid)) || (p->qps[0] && !digits(p->qps)) ||
	    (p->mode == CON_TEST_CLIENT && !p->host[0]) || p->host[0] == '-' ||
	    p->dev[0] == '-')
		return -EINVAL;
	snprintf(port, portlen, "%" PRIu64, p->port);
	argv[n++] = "rdmadiag";
	argv[n++] = p->lat ? "lat" : "bw";
	argv[n++] = "-d";
	argv[n++] = p->dev;
	argv[n++] = "-i";
	argv[n++] = port;
	argv[n++] = "--op";
	argv[n++] = con_test_op_names[p->op];
	/* -a takes neither -s nor -D */
	argv[n++] = p->all_sizes ? "-a" : "-s";
	if (!p->all_sizes)
		argv[n++] = p->size;
	if (!p->all_sizes && p->duration[0]) {
		argv[n++] = "-D";
		argv[n++] = p->duration;
	}
	argv[n++] = "--progress-fd";
	argv[n++] = "3";
	argv[n++] = "--json";
	if (p->gid[0]) {
		argv[n++] = "-x";
		argv[n++] = p->gid;
	}
	if (!p->lat && p->qps[0]) {
		argv[n++] = "-q";
		argv[n++] = p->qps;
	}
	if (!p->lat && p->bidir)
		argv[n++] = "-b";
	if (p->mode == CON_TEST_LOOPBACK)
		argv[n++] = "--loopback";
	else if (p->mode == CON_TEST_CLIENT)
		argv[n++] = p->host;
	argv[n] = NULL;
	return 0;
}

static void add_graph(struct con_test_run *t, double v)
{
	if (t->n_graph == CON_TEST_GRAPH_MAX) {
		memmove(t->graph, t->graph + 1,
			(CON_TEST_GRAPH_MAX - 1) * sizeof(double));
		t->n_graph--;
	}
	t->graph[t->n_graph++] = v;
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

/* A run bound by iterations names them once the result says how many:
 * "lat send 2 B 1000 iterations ..." for the "lat send 2 B iterations ...". */
static void iterations_said(struct con_test_result *r, struct json_object *res)
{
	char *at = strstr(r->what, " B iterations "), rest[128];
	double v;

	if (!at || !num(res, "iterations", &v))
		return;
	snprintf(rest, sizeof(rest), "%s", at + strlen(" B iterations "));
	snprintf(at, sizeof(r->what) - (size_t)(at - r->what),
		 " B %.0f iterations %s", v, rest);
}

static void keep_fields(struct json_object *o, struct con_test_result *r)
{
	json_object_object_foreach(o, k, val)
	{
		if (r->n_fields == CON_TEST_FIELDS_MAX)
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

/* decimals: digits after the point. */
static void figure(struct con_test_result *r, const char *label, double v,
		   int decimals, const char *unit)
{
	char num[32];

	if (r->n_figures == CON_TEST_FIGURES_MAX || !isfinite(v))
		return;
	snprintf(num, sizeof(num), "%.*f", decimals, v);
	snprintf(r->figures[r->n_figures++], sizeof(r->figures[0]),
		 "%-18s %12s %s", label, num, unit);
}

/*
 * The last size's figures as perftest's people read them: bandwidth
 * average and peak in Gb/s and MiB/s, the message rate in Mpps; latency
 * minimum, typical, average, p99, p99.9 and maximum in us with two
 * decimals; then iterations and duration. Fields the result lacks are
 * left out.
 */
static void keep_figures(struct json_object *res, struct con_test_result *r)
{
	static const struct {
		const char *key, *label;
	} lat[] = { { "t_min", "latency minimum" },
		    { "t_typical", "latency typical" },
		    { "t_avg", "latency average" },
		    { "t_p99", "latency p99" },
		    { "t_p999", "latency p99.9" },
		    { "t_max", "latency maximum" } };
	double v, mib;

	r->n_figures = 0;
	if (r->lat) {
		for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
			if (num(res, lat[i].key, &v))
				figure(r, lat[i].label, v, 2, "us");
	} else {
		if (num(res, "bw_avg_gbps", &v)) {
			figure(r, "bandwidth average", v, 2, "Gb/s");
			if (num(res, "bw_avg_mibps", &mib))
				figure(r, "", mib, 2, "MiB/s");
		}
		if (num(res, "bw_peak_gbps", &v)) {
			figure(r, "bandwidth peak", v, 2, "Gb/s");
			if (num(res, "bw_peak_mibps", &mib))
				figure(r, "", mib, 2, "MiB/s");
		}
		if (num(res, "msg_rate_mpps", &v))
			figure(r, "message rate", v, 3, "Mpps");
	}
	if (num(res, "size", &v))
		figure(r, "message size", v, 0, "B");
	if (num(res, "iterations", &v))
		figure(r, "iterations", v, 0, "");
	if (num(res, "seconds", &v))
		figure(r, "duration", v, 2, "s");
}

/* A latency result's histogram (see perf_result_json); partial or
 * malformed ones are dropped whole. */
static void keep_hist(struct json_object *res, struct con_test_result *r)
{
	struct json_object *h, *counts, *c;
	double lo, width, over, max, v;
	size_t n;

	r->n_hist = 0;
	if (!json_object_object_get_ex(res, "histogram", &h) ||
	    !json_object_is_type(h, json_type_object) ||
	    !json_object_object_get_ex(h, "counts", &counts) ||
	    !json_object_is_type(counts, json_type_array) ||
	    !num(h, "lo", &lo) || !num(h, "width", &width) ||
	    !num(h, "over", &over) || !num(h, "max", &max) || width <= 0 ||
	    over < 0)
		return;
	n = json_object_array_length(counts);
	if (n == 0 || n > CON_TEST_HIST_MAX)
		return;
	for (size_t b = 0; b < n; b++) {
		c = json_object_array_get_idx(counts, b);
		if (!json_object_is_type(c, json_type_int) ||
		    (v = (double)json_object_get_int64(c)) < 0)
			return;
		r->hist[b] = (uint64_t)v;
	}
	r->hist_lo = lo;
	r->hist_width = width;
	r->hist_max = max;
	r->hist_over = (uint64_t)over;
	r->n_hist = n;
}

static void keep_text(char *dst, size_t size, struct json_object *o)
{
	const char *s = o ? json_object_get_string(o) : NULL;

	snprintf(dst, size, "%s", s ? s : "");
}

/*
 * The child's peer check: a line "peer check..." and the indented lines
 * of its list under it. true when line was one of them (kept).
 */
static bool keep_peer(struct con_test_run *t, const char *line)
{
	struct con_test_result *c = &t->cur;

	if (strncmp(line, "peer check", 10) == 0)
		t->in_peer = true;
	else if (!t->in_peer || strncmp(line, "  ", 2) != 0)
		return t->in_peer = false;
	if (c->n_peer == CON_TEST_PEER_MAX) {
		c->peer_more++;
		return true;
	}
	rd_esc(c->peer[c->n_peer], sizeof(c->peer[0]), line);
	rd_utf8_trim_cut(c->peer[c->n_peer]);
	c->n_peer++;
	return true;
}

void con_test_feed_line(struct con_test_run *t, char *line)
{
	struct json_object *o, *type;
	const char *ty;
	double v;

	if (!*line)
		return;
	o = json_tokener_parse(line);
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &type)) {
		/* The child's error messages: keep the last one. */
		if (!keep_peer(t, line))
			snprintf(t->last_err, sizeof(t->last_err), "%s", line);
		json_object_put(o);
		return;
	}
	t->in_peer = false;
	ty = json_object_get_string(type);
	if (ty && strcmp(ty, "progress") == 0) {
		if (t->lat ? lat_figure(o, &v) : num(o, "gbps", &v))
			add_graph(t, v);
	} else if (ty && strcmp(ty, "result") == 0) {
		struct json_object *arr, *last = NULL, *err;
		size_t n;

		t->cur.n_fields = 0;
		keep_fields(o, &t->cur);
		/* One entry per message size: the last is the one to show. */
		if (json_object_object_get_ex(o, "results", &arr) &&
		    json_object_is_type(arr, json_type_array) &&
		    (n = json_object_array_length(arr)) > 0) {
			last = json_object_array_get_idx(arr, n - 1);
			if (!json_object_is_type(last, json_type_object))
				last = NULL;
		}
		if (last) {
			keep_fields(last, &t->cur);
			keep_hist(last, &t->cur);
			keep_figures(last, &t->cur);
			iterations_said(&t->cur, last);
		}
		if (last && (t->lat ? lat_figure(last, &v)
				    : num(last, "bw_avg_gbps", &v)))
			snprintf(t->cur.figure, sizeof(t->cur.figure),
				 t->lat ? "%.2f us" : "%.2f Gb/s", v);
		if (json_object_object_get_ex(o, "error", &err))
			keep_text(t->last_err, sizeof(t->last_err), err);
	} else if (ty && strcmp(ty, "error") == 0) {
		struct json_object *m;

		if (json_object_object_get_ex(o, "message", &m))
			keep_text(t->last_err, sizeof(t->last_err), m);
	}
	json_object_put(o);
}

static void finish(struct con_test_run *t, int status)
{
	struct con_test_result *c = &t->cur;
	bool done;

	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->pid = test_pid = -1;
	if (t->aborted)
		snprintf(c->status, sizeof(c->status), "aborted");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		snprintf(c->status, sizeof(c->status), "done");
	else
		snprintf(c->status, sizeof(c->status), "failed");
	if (!c->figure[0])
		snprintf(c->figure, sizeof(c->figure), "-");
	if (t->n_results == CON_TEST_RESULTS_MAX) {
		memmove(t->results, t->results + 1,
			(CON_TEST_RESULTS_MAX - 1) * sizeof(t->results[0]));
		t->n_results--;
	}
	t->results[t->n_results++] = *c;
	done = strcmp(c->status, "done") == 0;
	t->ended = true;
	t->ended_ok = done;
	snprintf(t->summary, sizeof(t->summary), "%s test %s: %s%s%s",
		 t->lat ? "latency" : "bandwidth", c->status, c->figure,
		 t->last_err[0] && !done ? " - " : "", done ? "" : t->last_err);
}

bool con_test_take_ended(struct con_test_run *t)
{
	bool e = t->ended;

	t->ended = false;
	return e;
}

static void reap(struct con_test_run *t, bool block)
{
	int status = 0;
	pid_t r;

	if (t->pid <= 0)
		return;
	do
		r = waitpid(t->pid, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == t->pid || (r < 0 && errno == ECHILD))
		finish(t, status);
}

void con_test_readable(struct con_test_run *t)
{
	ssize_t n;

	if (t->fd < 0)
		return;
	n = read(t->fd, t->buf + t->len, sizeof(t->buf) - 1 - t->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* EOF: the child is gone or going; wait for it briefly. */
		close(t->fd);
		t->fd = -1;
		if (t->len) {
			t->buf[t->len] = '\0';
			con_test_feed_line(t, t->buf);
			t->len = 0;
		}
		if (!t->abort_at)
			t->abort_at = con_now(); /* escalate if it lingers */
		reap(t, false);
		return;
	}
	t->len += (size_t)n;
	t->buf[t->len] = '\0';
	for (;;) {
		char *nl = memchr(t->buf, '\n', t->len);
		size_t used;

		if (!nl)
			break;
		*nl = '\0';
		con_test_feed_line(t, t->buf);
		used = (size_t)(nl - t->buf) + 1;
		memmove(t->buf, nl + 1, t->len - used);
		t->len -= used;
	}
	/* A line longer than the buffer is not ours: drop it. */
	if (t->len == sizeof(t->buf) - 1)
		t->len = 0;
}

void con_test_tick(struct con_test_run *t)
{
	if (t->pid <= 0)
		return;
	if (t->abort_at && con_now() - t->abort_at > 2.0) {
		kill(t->pid, SIGKILL);
		reap(t, true);
		return;
	}
	if (t->fd < 0)
		reap(t, false);
}

void con_test_stop(struct con_test_run *t)
{
	if (t->pid <= 0)
		return;
	t->aborted = true;
	t->abort_at = con_now();
	kill(t->pid, SIGINT);
}

void con_test_cleanup(struct con_test_run *t)
{
	if (t->pid > 0) {
		int status;

		kill(t->pid, SIGINT);
		for (int i = 0; i < 20; i++) {
			if (waitpid(t->pid, &status, WNOHANG) == t->pid) {
				t->pid = -1;
				break;
			}
			usleep(50000);
		}
		if (t->pid > 0) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, &status, 0);
		}
		t->pid = test_pid = -1;
	}
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int con_test_start(struct con_test_run *t, const struct con_test_params *p,
		   char *err, size_t errlen)
{
	char port[24];
	const char *argv[32];
	int pfd[2], r;
	pid_t pid;

	if (t->pid > 0) {
		snprintf(err, errlen, "a test is running: Esc stops it first");
		return -EBUSY;
	}
	if (con_test_argv(p, argv, 32, port, sizeof(port)) < 0) {
		snprintf(err, errlen,
			 p->mode == CON_TEST_CLIENT && !p->host[0]
				 ? "client mode needs the server's host name"
				 : "the test's settings are not valid");
		return -EINVAL;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot start the test: %s",
			 strerror(errno));
		return r;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot start the test: %s",
			 strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return r;
	}
	if (pid == 0) {
		/* Async-signal-safe calls only: the parent has threads. */
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
		execv(t->self_exe ? t->self_exe : "/proc/self/exe",
		      (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	t->pid = test_pid = pid;
	t->fd = pfd[0];
	t->len = 0;
	t->lat = p->lat;
	t->n_graph = 0;
	t->abort_at = 0;
	t->aborted = false;
	t->ended = false;
	t->last_err[0] = '\0';
	t->in_peer = false;
	t->started = con_now();
	memset(&t->cur, 0, sizeof(t->cur));
	t->cur.lat = p->lat;
	{
		char size[32], span[24] = "";

		/* "2 B 5s", "2 B iterations" (named with their number when
		 * the result comes), "all sizes" */
		if (p->all_sizes)
			snprintf(size, sizeof(size), "all sizes");
		else
			snprintf(size, sizeof(size), "%s B", p->size);
		if (!p->all_sizes && p->duration[0])
			snprintf(span, sizeof(span), " %ss", p->duration);
		else if (!p->all_sizes)
			snprintf(span, sizeof(span), " iterations");
		snprintf(t->cur.what, sizeof(t->cur.what), "%s %s %s%s %s %s/%s",
			 p->lat ? "lat" : "bw", con_test_op_names[p->op], size,
			 span,
			 p->mode == CON_TEST_CLIENT ? p->host
						    : con_test_mode_names[p->mode],
			 p->dev, port);
	}
	return 0;
}

static int test_fd(const void *ctx)
{
	return con_test_fd(ctx);
}

static bool test_running(const void *ctx)
{
	return con_test_running(ctx);
}

static void test_readable(void *ctx)
{
	con_test_readable(ctx);
}

static void test_tick(void *ctx)
{
	con_test_tick(ctx);
}

static void test_stop(void *ctx)
{
	con_test_cleanup(ctx);
}

struct con_child con_test_child(struct con_test_run *t)
{
	return (struct con_child){ .ctx = t,
				   .fd = test_fd,
				   .running = test_running,
				   .readable = test_readable,
				   .tick = test_tick,
				   .stop = test_stop };
}
