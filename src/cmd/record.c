// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag record: the flight recorder, a snapshot every interval whose
 * changes go to an SQLite store; rdmadiag timeline: the story it kept.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "cmd/record_diff.h"
#include "console/capture.h"
#include "console/source.h"
#include "console/store.h"
#include "console/worker.h"
#include "core/clock.h"
#include "core/escape.h"
#include "core/history.h"
#include "core/print.h"

static volatile sig_atomic_t record_stop;

static void record_on_signal(int sig)
{
	(void)sig;
	record_stop = 1;
}

static double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_port(sqlite3_stmt *st, int i, uint64_t port)
{
	if (port)
		sqlite3_bind_int64(st, i, (sqlite3_int64)port);
	else
		sqlite3_bind_null(st, i);
}

static int step_done(sqlite3_stmt *st)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

static int exec1(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

static int64_t query_i64(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static double query_dbl(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	double v = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Bytes the rows take: the pages in use, free pages not counted. */
static int64_t used_bytes(sqlite3 *db)
{
	int64_t pages = query_i64(db, "PRAGMA page_count");
	int64_t free_pages = query_i64(db, "PRAGMA freelist_count");
	int64_t size = query_i64(db, "PRAGMA page_size");

	if (pages < 0 || free_pages < 0 || size < 0)
		return -1;
	return (pages - free_pages) * size;
}

/*
 * The bounds, inside the interval's transaction: rows older than keep
 * seconds go; then, while the pages in use pass max_bytes, the oldest
 * tenth of what is left goes. The pages freed are given back to the file
 * by an incremental vacuum (the file shrinks at the next checkpoint).
 */
static int store_prune(sqlite3 *db, double now, double keep, uint64_t max_bytes)
{
	sqlite3_stmt *st;
	int r = 0;

	if (sqlite3_prepare_v2(db, "DELETE FROM events WHERE time < ?1;", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_double(st, 1, now - keep);
	r = step_done(st);
	sqlite3_finalize(st);
	if (r == 0 &&
	    sqlite3_prepare_v2(db, "DELETE FROM deltas WHERE time < ?1", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_double(st, 1, now - keep);
		r = step_done(st);
		sqlite3_finalize(st);
	}
	for (int rounds = 0; r == 0 && rounds < 64; rounds++) {
		int64_t used = used_bytes(db);

		if (used < 0 || (uint64_t)used <= max_bytes)
			break;
		r = exec1(
			db,
			"DELETE FROM events WHERE id IN (SELECT id FROM events"
			" ORDER BY time LIMIT (SELECT count(*) / 10 + 1 FROM "
			"events));"
			"DELETE FROM deltas WHERE id IN (SELECT id FROM deltas"
			" ORDER BY time LIMIT (SELECT count(*) / 10 + 1 FROM "
			"deltas));");
	}
	if (r == 0 && query_i64(db, "PRAGMA freelist_count") > 0)
		r = exec1(db, "PRAGMA incremental_vacuum");
	return r;
}

/*
 * One interval in one transaction. Kernel records logged at or before
 * kernel_seen are not written again: they are the ones a recorder that
 * ran before this one kept (the first interval here sees every record the
 * kernel still holds).
 */
static int store_write(sqlite3 *db, const struct rd_rec_batch *b, double since,
		       double now, double kernel_seen, double keep,
		       uint64_t max_bytes)
{
	sqlite3_stmt *ev = NULL, *de = NULL;
	int r = exec1(db, "BEGIN");

	if (r < 0)
		return r;
	if (sqlite3_prepare_v2(
		    db,
		    "INSERT INTO events(time, device, port, netdev, kind, text)"
		    " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
		    -1, &ev, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "INSERT INTO deltas(time, since, device, port, "
			       "counter, delta)"
			       " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
			       -1, &de, NULL) != SQLITE_OK)
		r = -EIO;
	for (size_t i = 0; r == 0 && i < b->n_events; i++) {
		const struct rd_rec_event *e = &b->events[i];

		if (strcmp(e->kind, "kernel") == 0 && e->time <= kernel_seen)
			continue;
		sqlite3_bind_double(ev, 1, e->time);
		bind_text(ev, 2, e->device);
		bind_port(ev, 3, e->port);
		bind_text(ev, 4, e->netdev);
		bind_text(ev, 5, e->kind);
		bind_text(ev, 6, e->text);
		r = step_done(ev);
	}
	for (size_t i = 0; r == 0 && i < b->n_deltas; i++) {
		const struct rd_rec_delta *d = &b->deltas[i];

		sqlite3_bind_double(de, 1, now);
		sqlite3_bind_double(de, 2, since);
		bind_text(de, 3, d->device);
		bind_port(de, 4, d->port);
		bind_text(de, 5, d->counter);
		sqlite3_bind_int64(de, 6,
				   (sqlite3_int64)(d->delta > INT64_MAX
							   ? INT64_MAX
							   : d->delta));
		r = step_done(de);
	}
	sqlite3_finalize(ev);
	sqlite3_finalize(de);
	if (r == 0)
		r = store_prune(db, now, keep, max_bytes);
	if (r == 0)
		r = exec1(db, "COMMIT");
	if (r < 0)
		exec1(db, "ROLLBACK");
	return r;
}

static void record_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag record --store DIR [--interval SECONDS] "
		"[--keep DAYS]\n"
		"                       [--max-bytes N]\n"
		"  --store DIR       the store (made 0700; refused when it is "
		"a symlink,\n"
		"                    not ours or writable by others)\n"
		"  --interval S      seconds between snapshots (default 10)\n"
		"  --keep DAYS       days kept (default 7)\n"
		"  --max-bytes N     bytes of rows kept at most (default "
		"67108864, 64 MiB)\n"
		"Writes port, carrier, module and health changes, new kernel "
		"log records\n"
		"about the RDMA devices, check verdict changes and error "
		"counter deltas,\n"
		"one transaction per interval. SIGTERM or SIGINT ends it.\n"
		"exit status: 0 stopped by a signal, 1 the store could not be "
		"written,\n"
		"             2 usage, 3 the store could not be opened\n");
}

static int record_loop(struct rd_cli *cli, sqlite3 *db, const char *store,
		       double interval, double keep, uint64_t max_bytes)
{
	struct rd_snapshot prev;
	struct rd_results pres = { 0 };
	struct rd_history h;
	struct rd_diag_opts o;
	struct con_source src;
	bool have_prev = false;
	double kernel_seen;
	double next, since = now_wall();
	char err[512];
	int r;

	r = con_source_open_live(&src, &cli->roots, err, sizeof(err));
	if (r < 0) {
		cli_error(cli, "record: %s", err);
		return 1;
	}
	rd_history_init(&h);
	rd_diag_opts_init(&o);
	rd_snapshot_init(&prev);
	/* sqlite's max() of no row is NULL, read as 0 */
	kernel_seen = query_dbl(db, "SELECT max(time) FROM events"
				    " WHERE kind = 'kernel'");
	next = con_now();
	while (!record_stop) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		struct rd_rec_batch b = { 0 };
		double now;

		rd_snapshot_init(&s);
		r = con_source_next(&src, false, &s, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "record: %s", err);
			rd_snapshot_free(&s);
			break;
		}
		now = s.time.ok ? s.time.v : now_wall();
		if (!s.time.ok)
			s.time = rd_dbl(now);
		r = rd_history_add(&h, &s);
		if (r == 0)
			r = rd_diag_run(&s, &h, &o, &res);
		if (r == 0)
			r = rd_rec_diff(have_prev ? &prev : NULL, &pres, &s,
					&res, &b);
		if (r == 0)
			r = store_write(db, &b, since, now,
					have_prev ? 0 : kernel_seen, keep,
					max_bytes);
		rd_rec_batch_free(&b);
		if (r < 0) {
			cli_error(cli, "record: store %s: cannot write: %s",
				  store, sqlite3_errmsg(db));
			rd_results_free(&res);
			rd_snapshot_free(&s);
			break;
		}
		rd_snapshot_free(&prev);
		rd_results_free(&pres);
		prev = s;
		pres = res;
		have_prev = true;
		since = now;
		next += interval;
		con_wait_until(next, &record_stop);
	}
	rd_snapshot_free(&prev);
	rd_results_free(&pres);
	rd_history_free(&h);
	con_source_close(&src);
	return r < 0 ? 1 : 0;
}

int cmd_record(struct rd_cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = record_on_signal };
	const char *store = NULL;
	double interval = 10, keep = 7;
	uint64_t max_bytes = 64ull << 20;
	const struct cli_opt opts[] = {
		CLI_TEXT("store", 0, &store),
		CLI_SECONDS("interval", 0, &interval, 0.05, 3600),
		{ "keep", 0, CLI_KIND_REAL, &keep, 0.0001, 3650, "days", NULL },
		CLI_U64("max-bytes", 0, &max_bytes, 65536, 1ull << 40),
		CLI_END,
	};
	sqlite3 *db = NULL;
	char err[768];
	int r, lock;

	CLI_PARSE_OR_RETURN(cli, "record", opts, record_usage, argc, argv, 2);
	if (!store || optind < argc) {
		record_usage(stderr);
		return 2;
	}
	umask(077);
	if (rd_store_open(store, true, &db, err, sizeof(err)) < 0) {
		cli_error(cli, "record: %s", err);
		return 3;
	}
	/* One recorder per store: a second would write every event twice. */
	lock = open(store, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) < 0) {
		cli_error(cli, "record: store %s: %s", store,
			  lock >= 0 && errno == EWOULDBLOCK
				  ? "another rdmadiag record writes to it"
				  : strerror(errno));
		if (lock >= 0)
			close(lock);
		sqlite3_close(db);
		return 3;
	}
	/* sqlite's reads and writes go on; the sleep between intervals ends */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	r = record_loop(cli, db, store, interval, keep * 86400, max_bytes);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (sqlite3_close(db) != SQLITE_OK && r == 0)
		r = 1;
	close(lock);
	return r;
}

/* ---- timeline ---- */

static void timeline_usage(FILE *f)
{
	fprintf(f, "usage: rdmadiag timeline --store DIR [--since DURATION] "
		   "[--device DEV]\n"
		   "                         [--port N] [--json]\n"
		   "  --store DIR       the store rdmadiag record writes\n"
		   "  --since D         how far back: 90s, 30m, 2h, 7d "
		   "(default 24h)\n"
		   "  --device DEV      only this RDMA device\n"
		   "  --port N          only this port\n"
		   "  --json            a JSON array, oldest first\n"
		   "Times are local. Counter deltas are summed per port and "
		   "counter.\n"
		   "exit status: 0 printed, 2 usage, 3 the store cannot be "
		   "opened\n");
}

enum tfmt { T_LINE, T_CLOCK, T_ISO };

/* Local time; strftime's numeric fields, the same in every locale. */
static void fmt_time(char *buf, size_t len, double t, enum tfmt f)
{
	static const char *const fmt[] = {
		[T_LINE] = "%Y-%m-%d %H:%M:%S",
		[T_CLOCK] = "%H:%M:%S",
		[T_ISO] = "%Y-%m-%dT%H:%M:%S%z",
	};

	rd_clock_fmt(t, RD_CLOCK_LOCAL, fmt[f], "?", buf, len);
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static const char timeline_sql[] =
	"SELECT time, device, port, netdev, kind, text, NULL, NULL, id"
	" FROM events WHERE time >= ?1 AND (?2 IS NULL OR device = ?2)"
	" AND (?3 IS NULL OR port = ?3)"
	" UNION ALL "
	"SELECT min(since), device, port, NULL, 'counter', counter, sum(delta),"
	" max(time), max(id) FROM deltas WHERE time >= ?1 AND (?2 IS NULL OR "
	"device = ?2)"
	" AND (?3 IS NULL OR port = ?3) GROUP BY device, port, counter"
	" ORDER BY 1, 9";

static void print_line(sqlite3_stmt *st)
{
	char when[32], a[16], b[16];
	const char *dev = col(st, 1), *kind = col(st, 4);

	fmt_time(when, sizeof(when), sqlite3_column_double(st, 0), T_LINE);
	if (sqlite3_column_type(st, 2) != SQLITE_NULL)
		printf("%s  %s/%lld  %s  ", when, rd_esc_tmp(dev ? dev : "-"),
		       (long long)sqlite3_column_int64(st, 2),
		       rd_esc_tmp(kind ? kind : "?"));
	else
		printf("%s  %s  %s  ", when, rd_esc_tmp(dev ? dev : "host"),
		       rd_esc_tmp(kind ? kind : "?"));
	if (kind && strcmp(kind, "counter") == 0) {
		fmt_time(a, sizeof(a), sqlite3_column_double(st, 0), T_CLOCK);
		fmt_time(b, sizeof(b), sqlite3_column_double(st, 7), T_CLOCK);
		printf("%s +%lld between %s and %s\n",
		       rd_esc_tmp(col(st, 5) ? col(st, 5) : "?"),
		       (long long)sqlite3_column_int64(st, 6), a, b);
		return;
	}
	if (col(st, 3) && kind &&
	    (strcmp(kind, "carrier") == 0 || strcmp(kind, "module") == 0 ||
	     strcmp(kind, "light") == 0))
		printf("%s: ", rd_esc_tmp(col(st, 3)));
	rd_fputs_esc(col(st, 5) ? col(st, 5) : "", stdout);
	putchar('\n');
}

/* As every JSON output: a string with a control byte goes escaped. */
static void json_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(
		o, k, v ? json_object_new_string(rd_print_json_text(v)) : NULL);
}

static struct json_object *json_row(sqlite3_stmt *st)
{
	struct json_object *o = json_object_new_object();
	const char *kind = col(st, 4);
	char when[40];

	if (!o)
		return NULL;
	fmt_time(when, sizeof(when), sqlite3_column_double(st, 0), T_ISO);
	json_object_object_add(
		o, "time",
		json_object_new_double(sqlite3_column_double(st, 0)));
	json_str(o, "time_text", when);
	json_str(o, "device", col(st, 1));
	json_object_object_add(
		o, "port",
		sqlite3_column_type(st, 2) == SQLITE_NULL
			? NULL
			: json_object_new_int64(sqlite3_column_int64(st, 2)));
	json_str(o, "netdev", col(st, 3));
	json_str(o, "kind", kind);
	if (kind && strcmp(kind, "counter") == 0) {
		json_str(o, "counter", col(st, 5));
		json_object_object_add(
			o, "delta",
			json_object_new_int64(sqlite3_column_int64(st, 6)));
		json_object_object_add(
			o, "until",
			json_object_new_double(sqlite3_column_double(st, 7)));
	} else {
		json_str(o, "text", col(st, 5));
	}
	return o;
}

int cmd_timeline(struct rd_cli *cli, int argc, char **argv)
{
	const char *store = NULL, *device = NULL;
	uint64_t port = 0;
	double since = 86400;
	bool json = false;
	const struct cli_opt opts[] = {
		CLI_TEXT("store", 0, &store),
		CLI_CALL("since", 0, &since, cli_parse_duration),
		CLI_TARGET(&device, &port),
		CLI_FLAG("json", 0, &json),
		CLI_END,
	};
	struct json_object *arr = NULL;
	sqlite3_stmt *st = NULL;
	size_t rows = 0;
	sqlite3 *db = NULL;
	char err[768];
	int r;

	CLI_PARSE_OR_RETURN(cli, "timeline", opts, timeline_usage, argc, argv,
			    2);
	if (!store || optind < argc) {
		timeline_usage(stderr);
		return 2;
	}
	if (rd_store_open(store, false, &db, err, sizeof(err)) < 0) {
		cli_error(cli, "timeline: %s", err);
		return 3;
	}
	if (sqlite3_prepare_v2(db, timeline_sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error(cli, "timeline: store %s: %s", store,
			  sqlite3_errmsg(db));
		sqlite3_close(db);
		return 3;
	}
	sqlite3_bind_double(st, 1, now_wall() - since);
	bind_text(st, 2, device);
	if (port)
		sqlite3_bind_int64(st, 3, (sqlite3_int64)port);
	if (json)
		arr = json_object_new_array();
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		rows++;
		if (arr)
			json_object_array_add(arr, json_row(st));
		else
			print_line(st);
	}
	if (!arr && !rows && r == SQLITE_DONE)
		printf("nothing recorded in the last %.0f s%s%s\n", since,
		       device || port ? " for the target" : "",
		       device || port ? " asked for" : "");
	if (arr) {
		puts(json_object_to_json_string_ext(arr,
						    JSON_C_TO_STRING_PLAIN));
		json_object_put(arr);
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE) {
		cli_error(cli, "timeline: store %s: %s", store,
			  sqlite3_errmsg(db));
		sqlite3_close(db);
		return 3;
	}
	sqlite3_close(db);
	return 0;
}
