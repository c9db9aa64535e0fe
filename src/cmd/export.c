// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag export: the snapshot and the verdicts in the Prometheus text
 * format, on stdout, into a node_exporter textfile directory, or served
 * over HTTP at /metrics.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "core/attr.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/outfile.h"
#include "core/recording.h"
#include "diag/diag.h"
#include "export/metrics.h"
#include "probes/probe.h"

/*
 * HTTP limits. Every reply closes its connection (node_exporter's clients
 * expect nothing else), so no connection keeps a slot by completing
 * requests; one that is HTTP_MAX_AGE_S old is shut down by the sweep
 * whatever it completed, and one idle for HTTP_TIMEOUT_S is closed by the
 * library. One address holds at most half the slots, counting a loopback
 * /8 and an IPv6 /64 as one address (any local user can send from every
 * 127.x). A new connection is not refused for want of a slot: the oldest
 * of its address's (or of all) that has sent no complete request in
 * HTTP_IDLE_S is shut down to make room, so whoever holds slots cannot
 * keep a scraper out; only when HTTP_SLOTS are open at once is one
 * refused.
 */
#define HTTP_MAX_CONNECTIONS 32
#define HTTP_PER_ADDRESS (HTTP_MAX_CONNECTIONS / 2)
#define HTTP_TIMEOUT_S 10
#define HTTP_MAX_AGE_S 10.0
#define HTTP_IDLE_S 1.0
#define HTTP_CONN_MEMORY 16384
/* Room for the connections shut down and not yet closed by the library. */
#define HTTP_SLOTS (HTTP_MAX_CONNECTIONS * 2)
/* Scrapes closer together than this are served the same text. */
#define MIN_PROBE_INTERVAL_S 0.5

struct exporter {
	struct rd_cli *cli;
	unsigned flags;		/* enum rd_export_flags */
	bool checks;
	bool loaded;		/* s holds a --load file, probed never */
	double window;		/* seconds a loaded recording spans; 0 none */
	struct rd_snapshot s;
	struct rd_probe_cache *cache;
	uint64_t tick;
	struct rd_history h;
	char *text;
	size_t len;
	double made_at;		/* monotonic seconds; 0 = never */
	pthread_mutex_t lock;
	/* Open connections: when each was opened, and by which address. */
	struct http_conn {
		struct MHD_Connection *c;
		int fd;
		double since;	/* monotonic seconds; 0 = already shut down */
		bool asked;	/* its request's headers are complete */
		unsigned char key[17];	/* its address group (http_addr_key) */
	} conns[HTTP_SLOTS];
	pthread_mutex_t conn_lock;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double mono_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void export_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag export [--textfile DIR [--interval S]] [--listen [ADDR:]PORT]\n"
		"                       [--compat node_exporter] [--no-checks] [--load FILE]\n"
		"Print the ports, counters, QoS, PCIe links and check verdicts in the\n"
		"Prometheus text format (on stdout unless told otherwise).\n"
		"  --textfile DIR     write DIR/rdmadiag.prom atomically, for\n"
		"                     node_exporter's textfile collector\n"
		"  --interval S       with --textfile: rewrite it every S seconds; a\n"
		"                     later failed write is told and tried again\n"
		"  --listen ADDR:PORT serve /metrics over HTTP (ADDR defaults to\n"
		"                     127.0.0.1; [::1]:PORT for IPv6)\n"
		"  --compat node_exporter  also name the IB port counters, state and\n"
		"                     rate as node_exporter's infiniband collector does\n"
		"                     (node_infiniband_*); leave that collector off then\n"
		"  --no-checks        leave out rdmadiag_check_* (no verdicts)\n"
		"  --load FILE        export a saved snapshot or a recording's last frame\n"
		"  --bench N          render N times and print CPU time and bytes per scrape\n"
		"exit status: 0 done (or stopped by a signal), 1 error, 2 bad usage\n");
}

/* Probe (unless loaded), judge and render into ex->text. 0 or -errno. */
static int render(struct exporter *ex)
{
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct rd_prom w;
	char *text;
	size_t len;
	int r;

	if (!ex->loaded) {
		rd_snapshot_free(&ex->s);
		r = rd_snapshot_take(&ex->cli->roots, ex->cache, ex->tick++, 0,
				     &ex->s);
		if (r < 0)
			return r;
		if (rd_history_add(&ex->h, &ex->s) < 0)
			return -ENOMEM;
	}
	rd_diag_opts_init(&o);
	o.from_file = ex->loaded;
	if (ex->loaded)	/* a recording's span; rates over RD_RATE_WINDOW */
		o.counter_window = ex->window > 0 ? ex->window + 1.0 : 0;
	if (ex->checks)
		rd_diag_run(&ex->s, ex->loaded && ex->window <= 0 ? NULL : &ex->h,
			    &o, &res);
	rd_prom_init(&w);
	rd_export_metrics(&w, &ex->s, ex->checks ? &res : NULL, ex->flags);
	r = rd_prom_render(&w, &text, &len);
	rd_prom_free(&w);
	rd_results_free(&res);
	if (r < 0)
		return r;
	free(ex->text);
	ex->text = text;
	ex->len = len;
	ex->made_at = mono_s(CLOCK_MONOTONIC);
	return 0;
}

/*
 * DIR/rdmadiag.prom by temp file + rename, relative to one handle on DIR
 * (a symlinked DIR, or one others can write to and not sticky, refused):
 * node_exporter reads only "*.prom", so it never sees the half-written
 * ".rdmadiag.prom.XXXXXX". 0, or -errno with err set.
 */
static int write_textfile(const char *dir, const char *text, size_t len,
			  char *err, size_t errlen)
{
	char why[4200];
	int dfd = rd_outdir_open(dir, why, sizeof(why)), r;

	if (dfd < 0) {
		snprintf(err, errlen, "cannot create a file in %s", why);
		return dfd;
	}
	r = rd_outdir_replace(dfd, "rdmadiag.prom", text, len, 0644, err,
			      errlen);
	close(dfd);
	return r;
}

static void sleep_until(double t)
{
	double left = t - mono_s(CLOCK_MONOTONIC);
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);	/* a signal cuts it short: we are stopping */
}

/* One round: a snapshot rendered and written. 0, or -errno with err set. */
static int textfile_round(struct exporter *ex, const char *dir, char *err,
			  size_t errlen)
{
	int r = render(ex);

	if (r < 0) {
		snprintf(err, errlen, "cannot take a snapshot: %s", strerror(-r));
		return r;
	}
	return write_textfile(dir, ex->text, ex->len, err, errlen);
}

/*
 * Once, or every interval until a signal. A failure of the first round ends
 * the command (a wrong directory is found at once); a later one is told
 * when it starts and when it ends, and the next round tries again: the file
 * keeps its last values meanwhile, and node_exporter's
 * node_textfile_mtime_seconds shows how old they are.
 */
static int run_textfile(struct exporter *ex, const char *dir, double interval)
{
	double next = mono_s(CLOCK_MONOTONIC);
	char err[4400], told[4400] = "";
	bool first = true;

	do {
		if (textfile_round(ex, dir, err, sizeof(err)) < 0) {
			if (first || interval <= 0) {
				cli_error(ex->cli, "export: %s", err);
				return 1;
			}
			if (strcmp(err, told) != 0)
				cli_error(ex->cli,
					  "export: %s (trying again every %g s)",
					  err, interval);
			snprintf(told, sizeof(told), "%s", err);
		} else if (told[0]) {
			cli_error(ex->cli, "export: %s/rdmadiag.prom written again",
				  rd_esc_tmp(dir));
			told[0] = '\0';
		}
		first = false;
		next += interval;
		/* Behind by a whole interval (a slow probe): start afresh. */
		if (next < mono_s(CLOCK_MONOTONIC))
			next = mono_s(CLOCK_MONOTONIC) + interval;
		if (interval > 0 && !stop_signal)
			sleep_until(next);
	} while (interval > 0 && !stop_signal);
	return 0;
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned status,
			       const char *type, const char *body, size_t len,
			       bool copy)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
		len, (void *)body,
		copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result r;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, "Allow", "GET, HEAD");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	r = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return r;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req)
{
	static const char index[] =
		"rdmadiag exporter: the metrics are at /metrics\n";
	static int seen;
	struct exporter *ex = cls;
	enum MHD_Result ret;
	int r = 0;

	if (!*req) {	/* headers only so far: answer once they are complete */
		*req = &seen;
		pthread_mutex_lock(&ex->conn_lock);
		for (size_t i = 0; i < HTTP_SLOTS; i++)
			if (ex->conns[i].c == c)
				ex->conns[i].asked = true;
		pthread_mutex_unlock(&ex->conn_lock);
		return MHD_YES;
	}
	if (*upload_size) {	/* a body is read and ignored */
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		static const char m[] = "only GET and HEAD are served\n";

		return respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			       m, sizeof(m) - 1, false);
	}
	if (strcmp(url, "/") == 0)
		return respond(c, MHD_HTTP_OK, "text/plain; charset=utf-8",
			       index, sizeof(index) - 1, false);
	if (strcmp(url, "/metrics") != 0) {
		static const char m[] = "not found: the metrics are at /metrics\n";

		return respond(c, MHD_HTTP_NOT_FOUND, "text/plain", m,
			       sizeof(m) - 1, false);
	}
	pthread_mutex_lock(&ex->lock);
	if (!ex->text ||
	    mono_s(CLOCK_MONOTONIC) - ex->made_at >= MIN_PROBE_INTERVAL_S)
		r = (ex->loaded && ex->text) ? 0 : render(ex);
	if (r < 0 || !ex->text) {
		static const char m[] = "cannot take a snapshot\n";

		pthread_mutex_unlock(&ex->lock);
		return respond(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
			       m, sizeof(m) - 1, false);
	}
	ret = respond(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
		      ex->text, ex->len, true);
	pthread_mutex_unlock(&ex->lock);
	return ret;
}

/*
 * The address group of a client: a loopback /8 (every 127.x is this host)
 * and an IPv6 /64 (what one host is given) are one address; an IPv4
 * address in IPv6 is that IPv4 address. 17 bytes: the family, then the
 * address bytes kept.
 */
static void http_addr_key(const struct sockaddr *sa, unsigned char key[17])
{
	memset(key, 0, 17);
	if (sa && sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a6 = (const void *)sa;

		if (!IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
			key[0] = 6;
			memcpy(key + 1, &a6->sin6_addr, 8);
			return;
		}
		memcpy(key + 1, &a6->sin6_addr.s6_addr[12], 4);
	} else if (sa && sa->sa_family == AF_INET) {
		memcpy(key + 1, &((const struct sockaddr_in *)(const void *)sa)
					 ->sin_addr,
		       4);
	} else {
		return;
	}
	key[0] = 4;
	if (key[1] == 127)
		memset(key + 2, 0, 3);
}

/*
 * Shut down the oldest open connection (of the address group key, or of
 * any when key is NULL) that has held its slot for HTTP_IDLE_S without a
 * complete request: a client sends its request as it connects, and one
 * being answered is never cut (it closes after its reply). The library
 * sees the end of the stream and closes it. Under conn_lock. false when
 * there was none.
 */
static bool evict_oldest(struct exporter *ex, const unsigned char *key)
{
	double now = mono_s(CLOCK_MONOTONIC);
	struct http_conn *pick = NULL;

	for (size_t i = 0; i < HTTP_SLOTS; i++) {
		struct http_conn *k = &ex->conns[i];

		if (!k->c || k->since <= 0 || k->asked ||
		    now - k->since < HTTP_IDLE_S ||
		    (key && memcmp(k->key, key, 17)))
			continue;
		if (!pick || k->since < pick->since)
			pick = k;
	}
	if (!pick)
		return false;
	shutdown(pick->fd, SHUT_RDWR);
	pick->since = 0;
	return true;
}

/*
 * The library's thread, before a connection is taken: room is made for
 * it, within its address's share and the total.
 */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr,
				 socklen_t addrlen)
{
	struct exporter *ex = cls;
	unsigned char key[17];
	size_t mine = 0, all = 0, free_slots = 0;

	(void)addrlen;
	http_addr_key(addr, key);
	pthread_mutex_lock(&ex->conn_lock);
	for (size_t i = 0; i < HTTP_SLOTS; i++) {
		const struct http_conn *k = &ex->conns[i];

		if (!k->c) {
			free_slots++;
			continue;
		}
		if (k->since <= 0)
			continue;
		all++;
		mine += memcmp(k->key, key, 17) == 0;
	}
	/*
	 * Over its address's share, its own idle connection goes first; over
	 * the total, anyone's. With none idle, the connections are being
	 * answered and close soon: the new one is taken while a slot is free.
	 */
	if (mine >= HTTP_PER_ADDRESS && !evict_oldest(ex, key) &&
	    all >= HTTP_MAX_CONNECTIONS)
		evict_oldest(ex, NULL);
	else if (mine < HTTP_PER_ADDRESS && all >= HTTP_MAX_CONNECTIONS)
		evict_oldest(ex, NULL);
	pthread_mutex_unlock(&ex->conn_lock);
	return free_slots ? MHD_YES : MHD_NO;
}

/* The library's thread: a connection opened or closed. */
static void on_connection(void *cls, struct MHD_Connection *c, void **sock,
			  enum MHD_ConnectionNotificationCode what)
{
	struct exporter *ex = cls;
	const union MHD_ConnectionInfo *ci;

	(void)sock;
	pthread_mutex_lock(&ex->conn_lock);
	for (size_t i = 0; i < HTTP_SLOTS; i++) {
		struct http_conn *k = &ex->conns[i];

		if (what == MHD_CONNECTION_NOTIFY_CLOSED && k->c == c) {
			k->c = NULL;	/* before the library closes the fd */
			break;
		}
		if (what == MHD_CONNECTION_NOTIFY_STARTED && !k->c) {
			ci = MHD_get_connection_info(
				c, MHD_CONNECTION_INFO_CONNECTION_FD);
			if (!ci)
				break;
			k->c = c;
			k->fd = ci->connect_fd;
			k->since = mono_s(CLOCK_MONOTONIC);
			k->asked = false;
			ci = MHD_get_connection_info(
				c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
			http_addr_key(ci ? ci->client_addr : NULL, k->key);
			break;
		}
	}
	pthread_mutex_unlock(&ex->conn_lock);
}

/*
 * Shut down connections older than HTTP_MAX_AGE_S, whatever they
 * completed: the library then sees the end of the stream and closes them
 * itself. The fd is still the connection's: the library forgets it here
 * before closing.
 */
static void sweep_connections(struct exporter *ex)
{
	double now = mono_s(CLOCK_MONOTONIC);

	pthread_mutex_lock(&ex->conn_lock);
	for (size_t i = 0; i < HTTP_SLOTS; i++) {
		struct http_conn *k = &ex->conns[i];

		if (k->c && k->since > 0 &&
		    now - k->since >= HTTP_MAX_AGE_S) {
			shutdown(k->fd, SHUT_RDWR);
			k->since = 0;
		}
	}
	pthread_mutex_unlock(&ex->conn_lock);
}

/* "[ADDR:]PORT", "[::1]:PORT"; ADDR defaults to 127.0.0.1. */
static int parse_listen(const char *arg, struct sockaddr_storage *ss)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[128] = "127.0.0.1";
	const char *colon = strrchr(arg, ':'), *port = arg;
	uint64_t p;

	memset(ss, 0, sizeof(*ss));
	if (colon) {
		size_t n = (size_t)(colon - arg);

		if (n >= sizeof(host))
			return -EINVAL;
		if (n > 0) {
			memcpy(host, arg, n);
			host[n] = '\0';
		}
		port = colon + 1;
	}
	if (rd_parse_u64(port, 10, &p) < 0 || p == 0 || p > 65535)
		return -EINVAL;
	if (host[0] == '[') {
		size_t n = strlen(host);

		if (n < 3 || host[n - 1] != ']')
			return -EINVAL;
		host[n - 1] = '\0';
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)p);
		return inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1 ?
			       0 : -EINVAL;
	}
	in4->sin_family = AF_INET;
	in4->sin_port = htons((uint16_t)p);
	return inet_pton(AF_INET, host, &in4->sin_addr) == 1 ? 0 : -EINVAL;
}

static int run_listen(struct exporter *ex, const char *arg)
{
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	sigset_t set, old;
	int sig = 0;

	if (parse_listen(arg, &ss) < 0) {
		cli_error(ex->cli,
			  "export: --listen \"%s\" is not [ADDR:]PORT (an IPv4 address, or [IPv6])",
			  arg);
		return 2;
	}
	/* The server thread inherits a mask without the stop signals. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, on_accept, ex, on_request, ex, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)HTTP_SLOTS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)HTTP_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)HTTP_CONN_MEMORY, MHD_OPTION_NOTIFY_CONNECTION,
		on_connection, ex, MHD_OPTION_END);
	if (!d) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		cli_error(ex->cli, "export: cannot listen on %s: %s",
			  arg, strerror(errno ? errno : EADDRINUSE));
		return 1;
	}
	fprintf(stderr, "rdmadiag: serving /metrics on %s\n", rd_esc_tmp(arg));
	for (;;) {
		static const struct timespec second = { 1, 0 };

		sig = sigtimedwait(&set, NULL, &second);
		if (sig > 0)
			break;
		if (errno == EAGAIN)
			sweep_connections(ex);
	}
	MHD_stop_daemon(d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

static int run_bench(struct exporter *ex, long n)
{
	double c0 = mono_s(CLOCK_PROCESS_CPUTIME_ID), cpu;
	size_t bytes = 0;

	for (long i = 0; i < n; i++) {
		int r = render(ex);

		if (r < 0) {
			cli_error(ex->cli, "export: cannot take a snapshot: %s",
				  strerror(-r));
			return 1;
		}
		bytes = ex->len;
	}
	cpu = mono_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("scrapes            %ld\n", n);
	printf("bytes/scrape       %zu\n", bytes);
	if (n > 0)
		printf("cpu ms/scrape      %.3f\n", cpu * 1e3 / (double)n);
	return 0;
}

int cmd_export(struct rd_cli *cli, int argc, char **argv)
{
	struct exporter ex = { .cli = cli, .checks = true };
	const char *textfile = NULL, *listen = NULL, *load = NULL;
	double interval = 0;
	const char *compat = NULL;
	uint64_t bench = 0;
	bool no_checks = false;
	struct sigaction sa = { .sa_handler = on_signal };
	int r, ret = 1;

	const struct cli_opt opts[] = {
		CLI_TEXT("textfile", 0, &textfile),
		CLI_SECONDS("interval", 0, &interval, 0.1, 86400),
		CLI_TEXT("listen", 0, &listen),
		CLI_TEXT("compat", 0, &compat),
		CLI_FLAG("no-checks", 0, &no_checks),
		CLI_TEXT("load", 0, &load),
		CLI_U64("bench", 0, &bench, 1, 1000000),
		CLI_END,
	};

	CLI_PARSE_OR_RETURN(cli, "export", opts, export_usage, argc, argv, 2);
	if (compat) {
		if (strcmp(compat, "node_exporter") != 0) {
			cli_error(cli, "export: --compat knows only node_exporter, not \"%s\"",
				  compat);
			return 2;
		}
		ex.flags |= RD_EXPORT_COMPAT_NODE;
	}
	ex.checks = !no_checks;
	if (optind < argc || (textfile && listen) ||
	    (interval > 0 && !textfile)) {
		cli_error(cli, "export: %s",
			  optind < argc ? "unexpected argument" :
			  interval > 0 && !textfile ? "--interval needs --textfile" :
			  "--textfile and --listen are separate ways to run it: pick one");
		export_usage(stderr);
		return 2;
	}
	rd_snapshot_init(&ex.s);
	rd_history_init(&ex.h);
	pthread_mutex_init(&ex.lock, NULL);
	pthread_mutex_init(&ex.conn_lock, NULL);
	if (load) {
		/* A saved snapshot, or a recording's last frame with the
		 * counters before it, judged as check --load judges them. */
		char label[1024];

		if (cli_check_evidence(cli, load, &ex.window, &ex.s, &ex.h,
				       label, sizeof(label)) < 0)
			goto out;
		ex.loaded = true;
	} else {
		ex.cache = rd_probe_cache_new();
		if (!ex.cache)
			goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (bench)
		ret = run_bench(&ex, (long)bench);
	else if (textfile)
		ret = run_textfile(&ex, textfile, interval);
	else if (listen)
		ret = run_listen(&ex, listen);
	else if ((r = render(&ex)) < 0)
		cli_error(cli, "export: cannot take a snapshot: %s", strerror(-r));
	else
		ret = fwrite(ex.text, 1, ex.len, stdout) == ex.len &&
				      fflush(stdout) == 0 ? 0 : 1;
out:
	free(ex.text);
	rd_snapshot_free(&ex.s);
	rd_history_free(&ex.h);
	rd_probe_cache_free(ex.cache);
	pthread_mutex_destroy(&ex.lock);
	pthread_mutex_destroy(&ex.conn_lock);
	return ret;
}
