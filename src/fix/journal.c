// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix-up journal (JSON lines): append before changing, read to undo.
 * Opened by an openat walk from "/" that checks every directory on the
 * way, so neither a symlink nor a directory someone else can write
 * decides which file undo trusts.
 */
#include "config.h"
#include "fix/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/json_check.h"
#include "core/model.h"
#include "core/roots.h"

unsigned rd_journal_lock_wait_ms = 10000;

static void entry_free(struct rd_journal_entry *e)
{
	free(e->id);
	free(e->user);
	free(e->check);
	free(e->device);
	free(e->kind);
	free(e->arg);
	free(e->arg2);
	free(e->command);
	free(e->before);
	free(e->after);
	free(e->undo_of);
	free(e->result);
	free(e->rollback_failed);
}

void rd_journal_free(struct rd_journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		entry_free(&j->v[i]);
	free(j->v);
	free(j->slots);
	memset(j, 0, sizeof(*j));
}

/* ---- the id index: FNV-1a, open addressing, at most half full ---- */

static size_t hash_id(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return (size_t)h;
}

static size_t *slot_of(const struct rd_journal *j, const char *id)
{
	size_t mask = j->nslots - 1;

	for (size_t i = hash_id(id) & mask;; i = (i + 1) & mask)
		if (!j->slots[i] || strcmp(j->v[j->slots[i] - 1].id, id) == 0)
			return &j->slots[i];
}

static struct rd_journal_entry *find_id(const struct rd_journal *j,
					const char *id)
{
	size_t *s;

	if (!j->nslots || !id)
		return NULL;
	s = slot_of(j, id);
	return *s ? &j->v[*s - 1] : NULL;
}

/* Index entry n - 1 (just pushed). */
static int index_last(struct rd_journal *j)
{
	if (2 * j->n > j->nslots) {
		size_t ns = j->nslots ? 2 * j->nslots : 64;
		size_t *old = j->slots, on = j->nslots;

		j->slots = calloc(ns, sizeof(*j->slots));
		if (!j->slots) {
			j->slots = old;
			return -ENOMEM;
		}
		j->nslots = ns;
		for (size_t i = 0; i < on; i++)
			if (old[i])
				*slot_of(j, j->v[old[i] - 1].id) = old[i];
		free(old);
	}
	*slot_of(j, j->v[j->n - 1].id) = j->n;
	return 0;
}

/* ---- parsing ---- */

/* Optional string member: absent or null gives NULL; other types fail. */
static int get_str(struct json_object *o, const char *k, char **out,
		   bool required)
{
	struct json_object *v;
	const char *s;
	int len;

	*out = NULL;
	if (!json_object_object_get_ex(o, k, &v) || !v)
		return required ? -EBADMSG : 0;
	if (!json_object_is_type(v, json_type_string))
		return -EBADMSG;
	s = json_object_get_string(v);
	len = json_object_get_string_len(v);
	/* "\u0000" would cut the string short of what was written. */
	if (!s || (int)strlen(s) != len)
		return -EBADMSG;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

static int get_num(struct json_object *o, const char *k, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -EBADMSG;
	*out = json_object_get_double(v);
	return isfinite(*out) ? 0 : -EBADMSG;
}

static int parse_result(struct rd_journal *j, struct json_object *o,
			const char *id, const char **why)
{
	struct rd_journal_entry *e = find_id(j, id);
	char *res = NULL, *after = NULL;

	if (!e) {
		*why = "result for an unknown entry";
		return -EBADMSG;
	}
	if (get_str(o, "result", &res, true) < 0 ||
	    get_str(o, "after", &after, false) < 0) {
		free(res);
		*why = "result line without \"result\"";
		return -EBADMSG;
	}
	if (e->result) {
		free(res);
		free(after);
		*why = "second result for an entry";
		return -EBADMSG;
	}
	e->result = res;
	if (after) {
		free(e->after);
		e->after = after;
	}
	if (e->undo_of && strcmp(res, "ok") == 0) {
		struct rd_journal_entry *t = find_id(j, e->undo_of);

		if (t)
			t->undone = true;
	}
	return 0;
}

static int parse_entry(struct rd_journal *j, struct json_object *o,
		       const char *type, char *id, unsigned long lineno,
		       const char **why)
{
	struct rd_journal_entry *e;
	struct json_object *v;
	double num = 0;
	int r;

	if (find_id(j, id)) {
		*why = "duplicate entry id";
		return -EBADMSG;
	}
	e = RD_PUSH(j->v, j->n);
	if (!e)
		return -ENOMEM;
	e->id = id;
	e->line = lineno;
	if (index_last(j) < 0) {
		e->id = NULL;
		j->n--;
		return -ENOMEM;
	}
	r = get_num(o, "time", &e->time);
	if (r == 0 && (r = get_num(o, "port", &num)) == 0)
		e->port = num >= 1 && num <= 255 ? (uint64_t)num : 0;
	num = 0;
	if (r == 0 && (r = get_num(o, "ifindex", &num)) == 0)
		e->ifindex = num >= 1 && num <= 0x7fffffff ? (uint64_t)num : 0;
	if (r == 0)
		r = get_num(o, "confirm_by", &e->confirm_by);
	if (r == 0 && json_object_object_get_ex(o, "undoable", &v) && v) {
		if (json_object_is_type(v, json_type_boolean))
			e->undoable = json_object_get_boolean(v);
		else
			r = -EBADMSG;
	}
	r = r ? r : get_str(o, "user", &e->user, false);
	r = r ? r : get_str(o, "check", &e->check, true);
	r = r ? r : get_str(o, "device", &e->device, false);
	r = r ? r : get_str(o, "kind", &e->kind, true);
	r = r ? r : get_str(o, "arg", &e->arg, false);
	r = r ? r : get_str(o, "arg2", &e->arg2, false);
	r = r ? r : get_str(o, "command", &e->command, true);
	r = r ? r : get_str(o, "before", &e->before, false);
	r = r ? r : get_str(o, "after", &e->after, false);
	r = r ? r : get_str(o, "undo_of", &e->undo_of, false);
	if (r == 0 && (strcmp(type, "undo") == 0) != (e->undo_of != NULL))
		r = -EBADMSG;
	if (r < 0)
		*why = "missing or mistyped member";
	return r;
}

static int parse_line(struct rd_journal *j, struct json_object *o,
		      unsigned long lineno, const char **why)
{
	struct json_object *v;
	const char *type;
	char *id = NULL;
	int r;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		*why = "not a journal object (no \"type\")";
		return -EBADMSG;
	}
	type = json_object_get_string(v);
	r = get_str(o, "id", &id, true);
	if (r < 0) {
		*why = "no \"id\"";
		return r;
	}
	if (strcmp(type, "result") == 0) {
		r = parse_result(j, o, id, why);
		free(id);
		return r;
	}
	if (strcmp(type, "rollback_failed") == 0) {
		struct rd_journal_entry *e = find_id(j, id);
		char *res = NULL;

		free(id);
		if (!e || e->undo_of || get_str(o, "result", &res, true) < 0) {
			*why = e && !e->undo_of
				       ? "rollback_failed line without \"result\""
				       : "rollback_failed for an unknown entry";
			return -EBADMSG;
		}
		/* The latest says why the timer gave up. */
		free(e->rollback_failed);
		e->rollback_failed = res;
		return 0;
	}
	if (strcmp(type, "confirm") == 0) {
		struct rd_journal_entry *e = find_id(j, id);

		free(id);
		if (!e || e->undo_of) {
			*why = "confirm for an unknown entry";
			return -EBADMSG;
		}
		e->confirmed = true;
		return 0;
	}
	if (strcmp(type, "apply") != 0 && strcmp(type, "undo") != 0) {
		free(id);
		*why = "unknown \"type\"";
		return -EBADMSG;
	}
	r = parse_entry(j, o, type, id, lineno, why);
	if (r < 0 && (!j->n || j->v[j->n - 1].id != id))
		free(id);
	return r;
}

/* One line is one flat object of about twenty members. */
static const struct rd_json_limits line_limits = {
	.values = 64,
	.containers = 1,
	.depth = 1,
	.members = 32,
	.string = 4096,
};

static int parse_text(struct rd_journal *j, char *text, size_t len,
		      const char *path, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	unsigned long lineno = 0;
	char *line, *p = text;
	int r = 0;

	if (!tok) {
		rd_snprintf_text(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (memchr(text, '\0', len)) {
		rd_snprintf_text(err, errlen, "journal %s is corrupt: NUL byte",
			 rd_esc_tmp(path));
		json_tokener_free(tok);
		return -EBADMSG;
	}
	while ((line = strsep(&p, "\n")) != NULL) {
		struct json_object *o;
		const char *why = "not valid JSON";
		char check_why[300];
		size_t ll = strlen(line);

		lineno++;
		if (!*line) {
			if (p) {	/* only the final newline may be empty */
				rd_snprintf_text(err, errlen,
					 "journal %s:%lu is corrupt: empty line",
					 rd_esc_tmp(path), lineno);
				r = -EBADMSG;
				break;
			}
			continue;
		}
		/* What json-c would take silently: a duplicate key above all. */
		if (rd_json_check(line, ll, &line_limits, check_why,
				  sizeof(check_why)) < 0) {
			why = check_why;
			o = NULL;
			r = -EBADMSG;
		} else {
			json_tokener_reset(tok);
			o = json_tokener_parse_ex(tok, line, (int)ll);
			if (!o ||
			    json_tokener_get_error(tok) != json_tokener_success ||
			    json_tokener_get_parse_end(tok) != ll)
				r = -EBADMSG;
			else
				r = parse_line(j, o, lineno, &why);
		}
		json_object_put(o);
		if (r < 0) {
			if (r == -ENOMEM)
				rd_snprintf_text(err, errlen, "out of memory");
			else
				rd_snprintf_text(err, errlen,
					 "journal %s:%lu is corrupt: %s",
					 rd_esc_tmp(path), lineno, why);
			break;
		}
	}
	json_tokener_free(tok);
	return r;
}

/* ---- the checked walk ---- */

/* Root, or the unprivileged test's own uid (it can change nothing). */
static bool owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * A directory on the way: ours, and nobody else may add or rename
 * entries in it. A sticky root-owned directory (/tmp) protects entries
 * it does not own, so it may stand above the journal's directory.
 */
static const char *dir_refusal(const struct stat *st, bool last)
{
	if (!S_ISDIR(st->st_mode))
		return "is not a directory";
	if (!owner_ok(st->st_uid))
		return "is not owned by root";
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		if (last || !(st->st_mode & S_ISVTX) || st->st_uid != 0)
			return "is writable by group or others";
	}
	return NULL;
}

static const char *file_refusal(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "is not a regular file";
	if (!owner_ok(st->st_uid))
		return "is not owned by root";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "is writable by group or others";
	if (st->st_nlink != 1)
		return "has more than one name (hard link)";
	return NULL;
}

static int open_dir_at(int at, const char *name, bool create,
		       const char *shown, bool last, char *err, size_t errlen)
{
	struct stat st;
	const char *why = NULL;
	int fd;

	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(at, name, 0700) < 0 && errno != EEXIST) {
			int e = errno;

			rd_snprintf_text(err, errlen, "journal directory %s: %s",
				 rd_esc_tmp(shown), strerror(e));
			return -e;
		}
		fd = openat(at, name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT)
			return -ENOENT;
		rd_snprintf_text(err, errlen, "journal directory %s: %s",
			 rd_esc_tmp(shown),
			 e == ELOOP || e == ENOTDIR ?
				 "is a symlink or not a directory; refused" :
				 strerror(e));
		return e == ELOOP || e == ENOTDIR ? -EPERM : -e;
	}
	if (fstat(fd, &st) < 0 || (why = dir_refusal(&st, last))) {
		rd_snprintf_text(err, errlen, "journal directory %s %s; refused",
			 rd_esc_tmp(shown), why ? why : "cannot be read");
		close(fd);
		return -EPERM;
	}
	/*
	 * Its name must be on disk before a line in it counts. Synced each
	 * time, not only when made here: a writer that made it and died
	 * before its sync left a name that may exist only in memory.
	 */
	if (create && fsync(at) < 0) {
		int e = errno;

		rd_snprintf_text(err, errlen,
			 "journal directory %s: fsync of the directory holding it: %s",
			 rd_esc_tmp(shown), strerror(e));
		close(fd);
		return -e;
	}
	return fd;
}

/* Walk path's directories from "/"; the last one is made when missing. */
static int walk(const char *path, bool create, struct rd_journal_file *jf,
		char *err, size_t errlen)
{
	char buf[PATH_MAX], shown[PATH_MAX] = "";
	char *comp[PATH_MAX / 2], *save = NULL;
	size_t len = strlen(path), n = 0;
	int fd;

	if (path[0] != '/' || len >= sizeof(buf) || len < 7 ||
	    strcmp(path + len - 6, ".jsonl") != 0) {
		rd_snprintf_text(err, errlen,
			 "journal %s: must be an absolute path to a .jsonl file",
			 rd_esc_tmp(path));
		return -EINVAL;
	}
	memcpy(buf, path, len + 1);
	for (char *c = strtok_r(buf, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0 || strcmp(c, "..") == 0) {
			rd_snprintf_text(err, errlen,
				 "journal %s: \".\" and \"..\" are refused",
				 rd_esc_tmp(path));
			return -EINVAL;
		}
		comp[n++] = c;
	}
	if (!n || strlen(comp[n - 1]) > NAME_MAX || path[len - 1] == '/') {
		rd_snprintf_text(err, errlen, "journal %s: bad file name",
			 rd_esc_tmp(path));
		return -EINVAL;
	}
	fd = open_dir_at(AT_FDCWD, "/", false, "/", n == 1, err, errlen);
	if (fd < 0)
		return fd;
	for (size_t i = 0; i + 1 < n; i++) {
		bool last = i + 2 == n;
		int nfd;

		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown),
			 "/%s", comp[i]);
		nfd = open_dir_at(fd, comp[i], create && last, shown, last, err,
				  errlen);
		close(fd);
		if (nfd < 0)
			return nfd;
		fd = nfd;
	}
	snprintf(jf->name, sizeof(jf->name), "%s", comp[n - 1]);
	jf->dirfd = fd;
	return 0;
}

static int take_lock(int fd, int op)
{
	for (unsigned waited = 0;; waited += 50) {
		if (flock(fd, op | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (waited >= rd_journal_lock_wait_ms)
			return -EBUSY;
		usleep(50000);
	}
}

int rd_journal_open(const char *path, enum rd_journal_mode mode,
		    struct rd_journal_file *jf, char *err, size_t errlen)
{
	bool wr = mode == RD_JOURNAL_WRITE;
	const char *why = NULL;
	struct stat st;
	int r;

	jf->dirfd = jf->fd = -1;
	snprintf(jf->path, sizeof(jf->path), "%s", path ? path : "");
	r = walk(jf->path, wr, jf, err, errlen);
	if (r == -ENOENT && !wr)
		return 0;	/* no directory yet: an empty journal */
	if (r == -ENOENT)
		rd_snprintf_text(err, errlen, "journal %s: a directory above it is missing",
			 rd_esc_tmp(path));
	if (r < 0)
		return r;
	if (wr) {
		jf->fd = openat(jf->dirfd, jf->name,
				O_RDWR | O_APPEND | O_CREAT | O_EXCL |
					O_NOFOLLOW | O_CLOEXEC,
				0600);
		/* Non-blocking: a FIFO or device in its place must not hang us. */
		if (jf->fd < 0 && errno == EEXIST)
			jf->fd = openat(jf->dirfd, jf->name,
					O_RDWR | O_APPEND | O_NOFOLLOW |
						O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	} else {
		jf->fd = openat(jf->dirfd, jf->name,
				O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
					O_NONBLOCK);
		if (jf->fd < 0 && errno == ENOENT)
			return 0;
	}
	if (jf->fd < 0) {
		r = -errno;
		rd_snprintf_text(err, errlen, "journal %s: %s", rd_esc_tmp(path),
			 r == -ELOOP ? "is a symlink; refused" : strerror(-r));
		rd_journal_close(jf);
		return r == -ELOOP ? -EPERM : r;
	}
	if (fstat(jf->fd, &st) < 0 || (why = file_refusal(&st))) {
		rd_snprintf_text(err, errlen, "journal %s %s; refused", rd_esc_tmp(path),
			 why ? why : "cannot be read");
		rd_journal_close(jf);
		return -EPERM;
	}
	/*
	 * The file, then its name, must survive a crash as well as the lines
	 * in it. Synced on every open for writing, as its directory was: a
	 * writer that made it may have died before its sync.
	 */
	if (wr && fsync(jf->fd) < 0) {
		r = -errno;
		rd_snprintf_text(err, errlen, "journal %s: fsync: %s",
			 rd_esc_tmp(path), strerror(-r));
		rd_journal_close(jf);
		return r;
	}
	if (wr && fsync(jf->dirfd) < 0) {
		r = -errno;
		rd_snprintf_text(err, errlen,
			 "journal directory of %s: fsync: %s",
			 rd_esc_tmp(path), strerror(-r));
		rd_journal_close(jf);
		return r;
	}
	r = take_lock(jf->fd, wr ? LOCK_EX : LOCK_SH);
	if (r < 0) {
		rd_snprintf_text(err, errlen, "journal %s: %s", rd_esc_tmp(path),
			 r == -EBUSY ? "another fix-up holds its lock; try again" :
				       strerror(-r));
		rd_journal_close(jf);
		return r;
	}
	return 0;
}

void rd_journal_close(struct rd_journal_file *jf)
{
	if (jf->fd >= 0)
		close(jf->fd);	/* drops the lock */
	if (jf->dirfd >= 0)
		close(jf->dirfd);
	jf->fd = jf->dirfd = -1;
}

int rd_journal_load(struct rd_journal_file *jf, struct rd_journal *j,
		    char *err, size_t errlen)
{
	struct stat st;
	size_t len = 0;
	char *text;
	int r;

	memset(j, 0, sizeof(*j));
	if (jf->fd < 0)
		return 0;
	if (fstat(jf->fd, &st) < 0) {
		rd_snprintf_text(err, errlen, "journal %s: %s", rd_esc_tmp(jf->path),
			 strerror(errno));
		return -EIO;
	}
	if ((uint64_t)st.st_size > RD_JOURNAL_MAX) {
		rd_snprintf_text(err, errlen, "journal %s is larger than %u MiB; refused",
			 rd_esc_tmp(jf->path), RD_JOURNAL_MAX >> 20);
		return -EFBIG;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		rd_snprintf_text(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = pread(jf->fd, text + len, (size_t)st.st_size - len,
				  (off_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			rd_snprintf_text(err, errlen, "journal %s: %s",
				 rd_esc_tmp(jf->path), strerror(-r));
			free(text);
			return r;
		}
		len += (size_t)n;
	}
	text[len] = '\0';
	r = parse_text(j, text, len, jf->path, err, errlen);
	free(text);
	if (r < 0)
		rd_journal_free(j);
	return r;
}

int rd_journal_read(const char *path, struct rd_journal *j, char *err,
		    size_t errlen)
{
	struct rd_journal_file jf;
	int r;

	memset(j, 0, sizeof(*j));
	r = rd_journal_open(path, RD_JOURNAL_READ, &jf, err, errlen);
	if (r < 0)
		return r;
	r = rd_journal_load(&jf, j, err, errlen);
	rd_journal_close(&jf);
	return r;
}

/* ---- writing ---- */

static int append_line(struct rd_journal_file *jf, struct json_object *o,
		       char *err, size_t errlen)
{
	const char *txt = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len, off = 0;
	struct stat st;
	char *buf, last;
	const char *step = "", *left = "";
	off_t end = -1;
	int r = 0;

	if (!txt) {
		rd_snprintf_text(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (jf->fd < 0) {
		rd_snprintf_text(err, errlen, "journal %s is not open for writing",
			 rd_esc_tmp(jf->path));
		return -EBADF;
	}
	len = strlen(txt);
	buf = malloc(len + 2);
	if (!buf) {
		rd_snprintf_text(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* A hand-edited journal may lack its final newline: add it first. */
	if (fstat(jf->fd, &st) == 0)
		end = st.st_size;	/* the lock keeps others' lines out */
	if (end > 0 && pread(jf->fd, &last, 1, end - 1) == 1 && last != '\n')
		buf[off++] = '\n';
	memcpy(buf + off, txt, len);
	len += off;
	buf[len++] = '\n';
	off = 0;
	/* One write per line so a reader never sees half of one. */
	while (off < len) {
		ssize_t n = write(jf->fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	if (r == 0 && fsync(jf->fd) < 0) {
		r = -errno;
		step = "fsync: ";
	}
	/*
	 * Take back a line that may not be on disk: the caller acts as if it
	 * was never written (after a failed "apply" line nothing changes).
	 */
	if (r < 0 && end >= 0 && ftruncate(jf->fd, end) < 0)
		left = "; its last line may be unfinished";
	if (r < 0)
		rd_snprintf_text(err, errlen, "journal %s: %s%s%s",
			 rd_esc_tmp(jf->path), step, strerror(-r), left);
	free(buf);
	return r;
}

static int add(struct json_object *o, const char *k, struct json_object *v,
	       bool allow_null)
{
	if (!v && !allow_null)
		return -ENOMEM;
	if (json_object_object_add(o, k, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int add_s(struct json_object *o, const char *k, const char *s)
{
	return add(o, k, s ? json_object_new_string(s) : NULL, !s);
}

static int add_u(struct json_object *o, const char *k, uint64_t v)
{
	return add(o, k, v ? json_object_new_uint64(v) : NULL, !v);
}

/* The tail of every append: write o as a line unless building it failed. */
static int finish(struct rd_journal_file *jf, struct json_object *o, int r,
		  char *err, size_t errlen)
{
	if (r == 0)
		r = append_line(jf, o, err, errlen);
	else
		rd_snprintf_text(err, errlen, "out of memory");
	json_object_put(o);
	return r;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int rd_journal_append_apply(struct rd_journal_file *jf,
			    const struct rd_journal_entry *e, char *err,
			    size_t errlen)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return -ENOMEM;
	r = r ? r : add_s(o, "type", e->undo_of ? "undo" : "apply");
	r = r ? r : add_s(o, "id", e->id);
	r = r ? r : add(o, "time", json_object_new_double(e->time), false);
	r = r ? r : add_s(o, "user", e->user);
	r = r ? r : add_s(o, "check", e->check);
	r = r ? r : add_s(o, "device", e->device);
	r = r ? r : add_u(o, "port", e->port);
	r = r ? r : add_s(o, "kind", e->kind);
	r = r ? r : add_s(o, "arg", e->arg);
	r = r ? r : add_s(o, "arg2", e->arg2);
	if (e->ifindex)
		r = r ? r : add_u(o, "ifindex", e->ifindex);
	r = r ? r : add_s(o, "command", e->command);
	r = r ? r : add_s(o, "before", e->before);
	r = r ? r : add_s(o, "after", e->after);
	r = r ? r : add(o, "undoable", json_object_new_boolean(e->undoable),
			false);
	if (e->confirm_by > 0)
		r = r ? r : add(o, "confirm_by",
				json_object_new_double(e->confirm_by), false);
	if (e->undo_of)
		r = r ? r : add_s(o, "undo_of", e->undo_of);
	return finish(jf, o, r, err, errlen);
}

static int append_simple(struct rd_journal_file *jf, const char *type,
			 const char *id, const char *result, const char *after,
			 char *err, size_t errlen)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return -ENOMEM;
	r = r ? r : add_s(o, "type", type);
	r = r ? r : add_s(o, "id", id);
	r = r ? r : add(o, "time", json_object_new_double(now()), false);
	if (result)
		r = r ? r : add_s(o, "result", result);
	if (after)
		r = r ? r : add_s(o, "after", after);
	return finish(jf, o, r, err, errlen);
}

int rd_journal_append_result(struct rd_journal_file *jf, const char *id,
			     const char *result, const char *after, char *err,
			     size_t errlen)
{
	return append_simple(jf, "result", id, result, after, err, errlen);
}

int rd_journal_append_confirm(struct rd_journal_file *jf, const char *id,
			      char *err, size_t errlen)
{
	return append_simple(jf, "confirm", id, NULL, NULL, err, errlen);
}

int rd_journal_append_rollback_failed(struct rd_journal_file *jf,
				      const char *id, const char *why,
				      char *err, size_t errlen)
{
	return append_simple(jf, "rollback_failed", id, why, NULL, err,
			     errlen);
}

int rd_journal_print_entry(FILE *f, const struct rd_journal_entry *e)
{
	return fprintf(f, "%s  %-8s %-16s %s  (%s -> %s) %s%s%s%s%s\n",
		       rd_esc_tmp(e->id), e->user ? rd_esc_tmp(e->user) : "?",
		       rd_esc_tmp(e->check), rd_esc_tmp(e->command),
		       e->before ? rd_esc_tmp(e->before) : "?",
		       e->after ? rd_esc_tmp(e->after) : "?",
		       e->result ? rd_esc_tmp(e->result) :
				   "no result (interrupted)",
		       e->undone ? ", undone" : "",
		       e->confirmed ? ", confirmed" :
		       e->confirm_by > 0 && !e->undone ? ", rollback timer" : "",
		       e->rollback_failed && !e->undone && !e->confirmed
			       ? ", ROLLBACK FAILED: "
			       : "",
		       e->rollback_failed && !e->undone && !e->confirmed
			       ? rd_esc_tmp(e->rollback_failed)
			       : "");
}

void rd_journal_new_id(char *buf, size_t len)
{
	static unsigned counter;
	struct timespec ts;
	struct tm tm;
	char t[32] = "0";

	clock_gettime(CLOCK_REALTIME, &ts);
	if (gmtime_r(&ts.tv_sec, &tm))
		strftime(t, sizeof(t), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "%s-%ld-%u", t, (long)getpid(), ++counter);
}

const struct rd_journal_entry *rd_journal_find(const struct rd_journal *j,
					       const char *id)
{
	return find_id(j, id);
}

const struct rd_journal_entry *
rd_journal_last_change(const struct rd_journal *j)
{
	for (size_t i = j->n; i-- > 0;) {
		const struct rd_journal_entry *e = &j->v[i];

		if (!e->undo_of && e->undoable && !e->undone &&
		    (!e->result || strcmp(e->result, "ok") == 0))
			return e;
	}
	return NULL;
}

const char *rd_journal_default_path(void)
{
	const char *env = rd_env_untrusted() ? NULL : getenv("RDMADIAG_JOURNAL");

	if (env && *env)
		return env;
	return RD_JOURNAL_DEFAULT;
}
