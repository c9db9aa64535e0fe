// SPDX-License-Identifier: GPL-2.0-or-later
/* The fix-up journal (JSON lines): append before changing, read to undo. */
#include "config.h"
#include "diag/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/json.h"
#include "core/model.h"

/* Years of fix-ups fit; anything larger is not our journal. */
#define JOURNAL_MAX (16u << 20)

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
}

void rd_journal_free(struct rd_journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		entry_free(&j->v[i]);
	free(j->v);
	j->v = NULL;
	j->n = 0;
}

/* Optional string member: absent or null gives NULL; other types fail. */
static int get_str(struct json_object *o, const char *k, char **out,
		   bool required)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, k, &v) || !v)
		return required ? -EBADMSG : 0;
	if (!json_object_is_type(v, json_type_string))
		return -EBADMSG;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

static struct rd_journal_entry *find_id(struct rd_journal *j, const char *id)
{
	for (size_t i = j->n; i-- > 0;)
		if (strcmp(j->v[i].id, id) == 0)
			return &j->v[i];
	return NULL;
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
		struct rd_journal_entry *e = find_id(j, id);
		char *res = NULL, *after = NULL;

		free(id);
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
		free(e->result);
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
	if (strcmp(type, "apply") != 0 && strcmp(type, "undo") != 0) {
		free(id);
		*why = "unknown \"type\"";
		return -EBADMSG;
	}
	if (find_id(j, id)) {
		free(id);
		*why = "duplicate entry id";
		return -EBADMSG;
	}
	struct rd_journal_entry *e = RD_PUSH(j->v, j->n);

	if (!e) {
		free(id);
		return -ENOMEM;
	}
	e->id = id;
	e->line = lineno;
	if (json_object_object_get_ex(o, "time", &v) && v)
		e->time = json_object_get_double(v);
	if (json_object_object_get_ex(o, "port", &v) && v) {
		int64_t p = json_object_get_int64(v);

		e->port = p > 0 && p < 256 ? (uint64_t)p : 0;
	}
	if (json_object_object_get_ex(o, "undoable", &v) && v)
		e->undoable = json_object_get_boolean(v);
	r = 0;
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
	if (r == 0 && strcmp(type, "undo") == 0 && !e->undo_of)
		r = -EBADMSG;
	if (r < 0)
		*why = "missing or mistyped member";
	return r;
}

int rd_journal_read(const char *path, struct rd_journal *j, char *err,
		    size_t errlen)
{
	char *text = NULL, *line, *p;
	unsigned long lineno = 0;
	size_t len;
	int r;

	j->v = NULL;
	j->n = 0;
	r = rd_read_file(path, JOURNAL_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		snprintf(err, errlen, "journal %s: %s", path, strerror(-r));
		return r;
	}
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "journal %s is corrupt: NUL byte", path);
		free(text);
		return -EBADMSG;
	}
	p = text;
	while ((line = strsep(&p, "\n")) != NULL) {
		struct json_tokener *tok;
		struct json_object *o;
		const char *why = "not valid JSON";

		lineno++;
		if (!*line) {
			if (p) {	/* only the final newline may be empty */
				snprintf(err, errlen,
					 "journal %s:%lu is corrupt: empty line",
					 path, lineno);
				r = -EBADMSG;
				break;
			}
			continue;
		}
		tok = json_tokener_new();
		if (!tok) {
			r = -ENOMEM;
			break;
		}
		o = json_tokener_parse_ex(tok, line, (int)strlen(line));
		if (!o || json_tokener_get_error(tok) != json_tokener_success ||
		    tok->char_offset != (int)strlen(line))
			r = -EBADMSG;
		else
			r = parse_line(j, o, lineno, &why);
		json_object_put(o);
		json_tokener_free(tok);
		if (r < 0) {
			if (r == -ENOMEM)
				snprintf(err, errlen, "out of memory");
			else
				snprintf(err, errlen,
					 "journal %s:%lu is corrupt: %s", path,
					 lineno, why);
			break;
		}
	}
	free(text);
	if (r < 0)
		rd_journal_free(j);
	return r < 0 ? r : 0;
}

static int make_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int append_line(const char *path, struct json_object *o, char *err,
		       size_t errlen)
{
	const char *txt = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len, off = 0;
	char *buf;
	int fd, r = 0;

	if (!txt)
		return -ENOMEM;
	r = make_parent(path);
	if (r < 0) {
		snprintf(err, errlen, "journal directory for %s: %s", path,
			 strerror(-r));
		return r;
	}
	len = strlen(txt);
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, txt, len);
	buf[len++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "journal %s: %s", path, strerror(errno));
		free(buf);
		return r;
	}
	/* One write per line so concurrent appenders do not interleave. */
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		snprintf(err, errlen, "journal %s: %s", path, strerror(-r));
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

int rd_journal_append_apply(const char *path,
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
	r = r ? r : add(o, "port", e->port ? json_object_new_uint64(e->port) :
					     NULL, !e->port);
	r = r ? r : add_s(o, "kind", e->kind);
	r = r ? r : add_s(o, "arg", e->arg);
	r = r ? r : add_s(o, "arg2", e->arg2);
	r = r ? r : add_s(o, "command", e->command);
	r = r ? r : add_s(o, "before", e->before);
	r = r ? r : add_s(o, "after", e->after);
	r = r ? r : add(o, "undoable", json_object_new_boolean(e->undoable),
			false);
	if (e->undo_of)
		r = r ? r : add_s(o, "undo_of", e->undo_of);
	if (r == 0)
		r = append_line(path, o, err, errlen);
	else
		snprintf(err, errlen, "out of memory");
	json_object_put(o);
	return r;
}

int rd_journal_append_result(const char *path, const char *id,
			     const char *result, const char *after, char *err,
			     size_t errlen)
{
	struct json_object *o = json_object_new_object();
	struct timespec ts;
	int r = 0;

	if (!o)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &ts);
	r = r ? r : add_s(o, "type", "result");
	r = r ? r : add_s(o, "id", id);
	r = r ? r : add(o, "time",
			json_object_new_double((double)ts.tv_sec +
					       (double)ts.tv_nsec / 1e9),
			false);
	r = r ? r : add_s(o, "result", result);
	if (after)
		r = r ? r : add_s(o, "after", after);
	if (r == 0)
		r = append_line(path, o, err, errlen);
	else
		snprintf(err, errlen, "out of memory");
	json_object_put(o);
	return r;
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
	for (size_t i = j->n; i-- > 0;) {
		const struct rd_journal_entry *e = &j->v[i];

		if (id) {
			if (strcmp(e->id, id) == 0)
				return e;
			continue;
		}
		/* The last applied change that is still in place. */
		if (!e->undo_of && e->undoable && !e->undone && e->result &&
		    strcmp(e->result, "ok") == 0)
			return e;
	}
	return NULL;
}
