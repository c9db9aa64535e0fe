// SPDX-License-Identifier: GPL-2.0-or-later
/* The flight recorder's store: opened safely, read back as events. */
#include "config.h"
#include "console/store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"

#define STORE_DB RD_STORE_DB

/*
 * The store directory: made 0700 when missing (its parent synced so the
 * name is on disk), then opened without following a symlink and refused
 * unless it is ours and nobody else may add or rename entries in it.
 * The database inside is refused when it is anything but our own
 * regular file with one name. 0, -ENOENT (missing, create false), or
 * -errno with err set.
 */
static int store_check(const char *dir, bool create, char *err, size_t errlen)
{
	char db[PATH_MAX];
	struct stat st;
	int fd;

	if (snprintf(db, sizeof(db), "%s/%s", dir, STORE_DB) >=
	    (int)sizeof(db)) {
		rd_snprintf_text(err, errlen, "store %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		char parent[PATH_MAX], *slash;
		int pfd;

		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			int e = errno;

			rd_snprintf_text(err, errlen, "store %s: %s", dir,
					 strerror(e));
			return -e;
		}
		snprintf(parent, sizeof(parent), "%s", dir);
		slash = strrchr(parent, '/');
		if (slash && slash != parent)
			*slash = '\0';
		else if (slash)
			parent[1] = '\0';
		else
			snprintf(parent, sizeof(parent), ".");
		pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd >= 0) {
			fsync(pfd);
			close(pfd);
		}
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT) {
			rd_snprintf_text(err, errlen, "store %s: %s", dir,
					 strerror(e));
			return -ENOENT;
		}
		rd_snprintf_text(
			err, errlen, "store %s: %s", dir,
			e == ELOOP || e == ENOTDIR
				? "is a symlink or not a directory; refused"
				: strerror(e));
		return e == ELOOP || e == ENOTDIR ? -EPERM : -e;
	}
	if (fstat(fd, &st) < 0)
		memset(&st, 0xff, sizeof(st)); /* refused below as not ours */
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		rd_snprintf_text(err, errlen, "store %s: %s; refused", dir,
				 st.st_uid != geteuid()
					 ? "is not owned by the effective user"
					 : "is writable by group or others");
		close(fd);
		return -EPERM;
	}
	if (fstatat(fd, STORE_DB, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	     st.st_nlink != 1 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		rd_snprintf_text(err, errlen,
				 "store %s: %s is not our own regular file (a "
				 "symlink?); refused",
				 dir, STORE_DB);
		close(fd);
		return -EPERM;
	}
	close(fd);
	return 0;
}

static const char schema[] =
	"PRAGMA auto_vacuum=INCREMENTAL;"
	"PRAGMA journal_mode=WAL;"
	"PRAGMA synchronous=NORMAL;"
	"CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY,"
	" time REAL NOT NULL, device TEXT, port INTEGER, netdev TEXT,"
	" kind TEXT NOT NULL, text TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS events_time ON events(time);"
	"CREATE TABLE IF NOT EXISTS deltas(id INTEGER PRIMARY KEY,"
	" time REAL NOT NULL, since REAL NOT NULL, device TEXT, port INTEGER,"
	" counter TEXT NOT NULL, delta INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS deltas_time ON deltas(time);";

int rd_store_open(const char *dir, bool write, sqlite3 **db, char *err,
		  size_t errlen)
{
	char path[PATH_MAX];
	int r, flags = SQLITE_OPEN_NOFOLLOW |
		       (write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
			      : SQLITE_OPEN_READWRITE);

	r = store_check(dir, write, err, errlen);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/%s", dir, STORE_DB);
	if (!write && access(path, F_OK) < 0) {
		rd_snprintf_text(err, errlen, "store %s: no %s in it: %s", dir,
				 STORE_DB, strerror(errno));
		return -ENOENT;
	}
	r = sqlite3_open_v2(path, db, flags, NULL);
	if (r == SQLITE_OK)
		r = sqlite3_busy_timeout(*db, 5000);
	if (r == SQLITE_OK && write)
		r = sqlite3_exec(*db, schema, NULL, NULL, NULL);
	if (r == SQLITE_OK && !write)
		r = sqlite3_exec(*db, "SELECT count(*) FROM events", NULL, NULL,
				 NULL);
	if (r != SQLITE_OK) {
		rd_snprintf_text(err, errlen, "store %s: %s", path,
				 *db ? sqlite3_errmsg(*db) : sqlite3_errstr(r));
		sqlite3_close(*db);
		*db = NULL;
		return -EIO;
	}
	return 0;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static uint64_t col_port(sqlite3_stmt *st, int i)
{
	sqlite3_int64 v = sqlite3_column_type(st, i) == SQLITE_NULL
				  ? 0
				  : sqlite3_column_int64(st, i);

	return v > 0 && v < 256 ? (uint64_t)v : 0;
}

static const char events_sql[] =
	"SELECT time, device, port, netdev, kind, text, NULL FROM events"
	" WHERE time >= ?1"
	" UNION ALL "
	"SELECT time, device, port, NULL, 'counter', counter, delta FROM deltas"
	" WHERE time >= ?1 AND counter IN ('link_downed', 'carrier_down_count')"
	" ORDER BY 1 DESC LIMIT ?2";

int rd_store_read_events(const char *dir, double since, struct rd_events *out,
			 char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	int r = rd_store_open(dir, false, &db, err, errlen);

	if (r < 0)
		return r;
	if (sqlite3_prepare_v2(db, events_sql, -1, &st, NULL) != SQLITE_OK) {
		rd_snprintf_text(err, errlen, "store %s: %s", dir,
				 sqlite3_errmsg(db));
		sqlite3_close(db);
		return -EIO;
	}
	sqlite3_bind_double(st, 1, since);
	/* the newest that are kept, read newest first and sorted after */
	sqlite3_bind_int(st, 2, RD_EVENTS_MAX);
	while (r == 0 && (r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *kind = col_text(st, 4);
		char text[160];

		r = 0;
		if (kind && strcmp(kind, "counter") == 0)
			snprintf(text, sizeof(text), "%s +%lld",
				 col_text(st, 5) ? col_text(st, 5) : "?",
				 (long long)sqlite3_column_int64(st, 6));
		r = rd_events_add(
			out, sqlite3_column_double(st, 0), col_text(st, 1),
			col_port(st, 2), col_text(st, 3), kind,
			kind && strcmp(kind, "counter") == 0 ? text
							     : col_text(st, 5),
			"flight recorder");
	}
	if (r != SQLITE_DONE && r != 0) {
		rd_snprintf_text(err, errlen, "store %s: %s", dir,
				 r == -ENOMEM ? "out of memory"
					      : sqlite3_errmsg(db));
		r = r == -ENOMEM ? -ENOMEM : -EIO;
	} else {
		r = 0;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (r == 0) {
		free(out->from);
		out->from = strdup(dir);
		out->since = since;
		rd_events_sort(out);
	}
	return r;
}
