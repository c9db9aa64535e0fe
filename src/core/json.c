// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/json.h"
#include "core/attr.h"
#include "core/json_check.h"
#include "core/escape.h"
#include "core/print.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * What one loaded snapshot may hold (stated in rdmadiag(8)). A live
 * snapshot of a large host stays far below: a port has a few hundred
 * counters, an mlx5 netdev with many queues a few thousand statistics.
 */
#define RD_LOAD_DEVICES_MAX 1024
#define RD_LOAD_PORTS_MAX 256	/* port numbers are 8 bits */
#define RD_LOAD_COUNTERS_MAX 16384
#define RD_LOAD_PORT_NUM_MAX 255
#define RD_LOAD_GID_INDEX_MAX 65535

static struct json_object *hex_json(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_object_new_string(buf);
}

static struct json_object *counters_json(const struct rd_counters *c)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < c->n; i++)
		json_object_object_add(o, rd_print_json_text(c->v[i].name),
				       c->v[i].value.ok ?
					       json_object_new_uint64(c->v[i].value.v) :
					       NULL);
	return o;
}

static struct json_object *field_json(const struct rd_field *f, const char *p)
{
	switch (f->kind) {
	case RD_F_STR: {
		const char *s = *(char *const *)p;
		return s ? json_object_new_string(rd_print_json_text(s)) : NULL;
	}
	case RD_F_PU64:
		return json_object_new_uint64(*(const uint64_t *)p);
	case RD_F_U64: {
		const struct rd_ou64 *v = (const void *)p;
		return v->ok ? json_object_new_uint64(v->v) : NULL;
	}
	case RD_F_S64: {
		const struct rd_os64 *v = (const void *)p;
		return v->ok ? json_object_new_int64(v->v) : NULL;
	}
	case RD_F_DBL: {
		const struct rd_odbl *v = (const void *)p;
		/* JSON has no Infinity or NaN: such a value is absent. */
		return v->ok && isfinite(v->v) ? json_object_new_double(v->v) :
						 NULL;
	}
	case RD_F_BOOL: {
		const struct rd_obool *v = (const void *)p;
		return v->ok ? json_object_new_boolean(v->v) : NULL;
	}
	case RD_F_GUID: {
		const struct rd_ou64 *v = (const void *)p;
		char buf[24];

		if (!v->ok)
			return NULL;
		rd_format_guid(v->v, buf, sizeof(buf));
		return json_object_new_string(buf);
	}
	case RD_F_HEX: {
		const struct rd_ou64 *v = (const void *)p;
		return v->ok ? hex_json(v->v) : NULL;
	}
	case RD_F_COUNTERS:
		return counters_json((const struct rd_counters *)p);
	case RD_F_STRUCT:
		return rd_json_from_model(f->sub, p);
	default:
		return NULL;
	}
}

struct json_object *rd_json_from_model(const struct rd_field *fields,
				       const void *obj)
{
	const char *base = obj;
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	for (const struct rd_field *f = fields; f->kind != RD_F_END; f++) {
		const char *p = base + f->off;

		if (f->kind == RD_F_GID) {
			bool ok = *(const bool *)(base + f->aux);
			char buf[48];

			if (ok)
				rd_format_gid((const uint8_t *)p, buf, sizeof(buf));
			json_object_object_add(o, f->key,
					       ok ? json_object_new_string(buf) :
						    NULL);
		} else if (f->kind == RD_F_ARRAY) {
			const char *items = *(char *const *)p;
			size_t n = *(const size_t *)(base + f->aux);
			struct json_object *a = json_object_new_array();

			for (size_t i = 0; a && i < n; i++)
				json_object_array_add(
					a, rd_json_from_model(f->sub,
							      items + i * f->elem_size));
			json_object_object_add(o, f->key, a);
		} else {
			json_object_object_add(o, f->key, field_json(f, p));
		}
	}
	return o;
}

static int fail(char *err, size_t errlen, const char *path, const char *key,
		const char *what)
{
	snprintf(err, errlen, "%s%s%s: %s", path, *path ? "." : "", key, what);
	return -EINVAL;
}

static int json_u64(struct json_object *v, uint64_t *out)
{
	/* 2^64 - 1 written as the double it rounds to (1.8446744073709552e19). */
	if (json_object_is_type(v, json_type_double) &&
	    json_object_get_double(v) == 18446744073709551616.0) {
		*out = UINT64_MAX;
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return -EINVAL;
	if (json_object_get_int64(v) < 0)
		return -ERANGE;
	*out = json_object_get_uint64(v);
	return 0;
}

static int json_hex(struct json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	return rd_parse_u64(json_object_get_string(v), 16, out);
}

static int counters_from_json(struct rd_counters *c, struct json_object *v,
			      const char *path, const char *key, char *err,
			      size_t errlen)
{
	char where[512];

	if (!json_object_is_type(v, json_type_object))
		return fail(err, errlen, path, key, "expected an object");
	snprintf(where, sizeof(where), "%s%s%s", path, *path ? "." : "", key);
	if (json_object_object_length(v) > RD_LOAD_COUNTERS_MAX) {
		snprintf(err, errlen, "%s: more than %d counters", where,
			 RD_LOAD_COUNTERS_MAX);
		return -E2BIG;
	}
	json_object_object_foreach(v, name, val)
	{
		struct rd_ou64 value = { 0 };

		if (!*name || rd_text_check(name, strlen(name)) < 0)
			return fail(err, errlen, where, rd_esc_tmp(name),
				    "counter name is empty or holds control characters");

		if (val) {
			if (json_u64(val, &value.v) < 0)
				return fail(err, errlen, where, rd_esc_tmp(name),
					    "counter is not an unsigned integer");
			value.ok = true;
		}
		if (!rd_counters_add(c, name, value))
			return -ENOMEM;
	}
	return 0;
}

/* Keys and indexes with a range the kernel gives them. */
static uint64_t pu64_max(const char *key)
{
	if (strcmp(key, "port") == 0)
		return RD_LOAD_PORT_NUM_MAX;
	if (strcmp(key, "index") == 0)
		return RD_LOAD_GID_INDEX_MAX;
	return UINT64_MAX;
}

static size_t array_max(const char *key)
{
	if (strcmp(key, "devices") == 0)
		return RD_LOAD_DEVICES_MAX;
	if (strcmp(key, "ports") == 0)
		return RD_LOAD_PORTS_MAX;
	return rd_snapshot_limits.members;
}

/* An optional scalar of kind k at p from v: NULL, or what is wrong. */
static const char *scalar_from_json(enum rd_fkind k, void *p,
				    struct json_object *v)
{
	struct rd_ou64 *u = p;
	struct rd_os64 *i = p;
	struct rd_odbl *d = p;
	struct rd_obool *b = p;

	switch (k) {
	case RD_F_U64:
		if (json_u64(v, &u->v) < 0)
			return "expected an unsigned integer";
		u->ok = true;
		return NULL;
	case RD_F_S64:
		if (!json_object_is_type(v, json_type_int))
			return "expected an integer";
		*i = rd_s64(json_object_get_int64(v));
		return NULL;
	case RD_F_DBL:
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return "expected a number";
		if (!isfinite(json_object_get_double(v)))
			return "number is not finite";
		*d = rd_dbl(json_object_get_double(v));
		return NULL;
	case RD_F_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return "expected true or false";
		*b = rd_bool(json_object_get_boolean(v));
		return NULL;
	case RD_F_GUID:
		if (!json_object_is_type(v, json_type_string) ||
		    rd_parse_guid(json_object_get_string(v), &u->v) < 0)
			return "expected a GUID xxxx:xxxx:xxxx:xxxx";
		u->ok = true;
		return NULL;
	default:	/* RD_F_HEX */
		if (json_hex(v, &u->v) < 0)
			return "expected a hexadecimal string";
		u->ok = true;
		return NULL;
	}
}

static int field_from_json(const struct rd_field *f, char *base,
			   struct json_object *v, const char *path, char *err,
			   size_t errlen)
{
	char *p = base + f->off;
	int r;

	switch (f->kind) {
	case RD_F_STR: {
		const char *s;

		if (!json_object_is_type(v, json_type_string))
			return fail(err, errlen, path, f->key, "expected a string");
		s = json_object_get_string(v);
		if ((size_t)json_object_get_string_len(v) != strlen(s) ||
		    rd_text_check(s, strlen(s)) < 0)
			return fail(err, errlen, path, f->key,
				    "string holds control characters");
		*(char **)p = strdup(s);
		return *(char **)p ? 0 : -ENOMEM;
	}
	case RD_F_PU64: {
		uint64_t max = pu64_max(f->key);

		if (json_u64(v, (uint64_t *)p) < 0)
			return fail(err, errlen, path, f->key,
				    "expected an unsigned integer");
		if (*(uint64_t *)p > max) {
			char what[64];

			snprintf(what, sizeof(what), "%" PRIu64 " is out of range 0..%" PRIu64,
				 *(uint64_t *)p, max);
			return fail(err, errlen, path, f->key, what);
		}
		return 0;
	}
	case RD_F_U64:
	case RD_F_S64:
	case RD_F_DBL:
	case RD_F_BOOL:
	case RD_F_GUID:
	case RD_F_HEX: {
		const char *what = scalar_from_json(f->kind, p, v);

		return what ? fail(err, errlen, path, f->key, what) : 0;
	}
	case RD_F_GID:
		if (!json_object_is_type(v, json_type_string) ||
		    rd_parse_gid(json_object_get_string(v), (uint8_t *)p) < 0)
			return fail(err, errlen, path, f->key, "expected a GID");
		*(bool *)(base + f->aux) = true;
		return 0;
	case RD_F_COUNTERS:
		return counters_from_json((struct rd_counters *)p, v, path,
					  f->key, err, errlen);
	case RD_F_STRUCT: {
		char sub[512];

		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "",
			 f->key);
		return rd_json_to_model(f->sub, p, v, sub, err, errlen);
	}
	case RD_F_ARRAY: {
		size_t *n = (size_t *)(base + f->aux);
		size_t len;

		if (!json_object_is_type(v, json_type_array))
			return fail(err, errlen, path, f->key, "expected an array");
		len = json_object_array_length(v);
		if (len > array_max(f->key)) {
			char what[64];

			snprintf(what, sizeof(what), "more than %zu entries",
				 array_max(f->key));
			fail(err, errlen, path, f->key, what);
			return -E2BIG;
		}
		for (size_t i = 0; i < len; i++) {
			char sub[512];
			void *item = rd_array_push((void **)p, n, f->elem_size);

			if (!item)
				return -ENOMEM;
			snprintf(sub, sizeof(sub), "%s%s%s[%zu]", path,
				 *path ? "." : "", f->key, i);
			r = rd_json_to_model(f->sub, item,
					     json_object_array_get_idx(v, i), sub,
					     err, errlen);
			if (r < 0)
				return r;
		}
		return 0;
	}
	default:
		return 0;
	}
}

int rd_json_to_model(const struct rd_field *fields, void *obj,
		     struct json_object *j, const char *path, char *err,
		     size_t errlen)
{
	if (!json_object_is_type(j, json_type_object)) {
		snprintf(err, errlen, "%s: expected an object",
			 *path ? path : "(top)");
		return -EINVAL;
	}
	for (const struct rd_field *f = fields; f->kind != RD_F_END; f++) {
		struct json_object *v;
		int r;

		if (!json_object_object_get_ex(j, f->key, &v) || !v)
			continue;
		r = field_from_json(f, obj, v, path, err, errlen);
		if (r < 0) {
			if (r == -ENOMEM)
				snprintf(err, errlen, "out of memory");
			return r;
		}
	}
	return 0;
}

struct json_object *rd_snapshot_to_json(const struct rd_snapshot *s)
{
	struct json_object *body = rd_json_from_model(rd_snapshot_fields, s);
	struct json_object *o = json_object_new_object();

	if (!o || !body) {
		json_object_put(o);
		json_object_put(body);
		return NULL;
	}
	/* schema_version leads so a reader can decide before reading on. */
	json_object_object_add(o, "schema_version",
			       json_object_new_uint64(s->schema_version));
	json_object_object_foreach(body, k, v)
		json_object_object_add(o, k, json_object_get(v));
	json_object_put(body);
	return o;
}

/*
 * A file with only the state names (an older writer, or hand-made from
 * rdma -j link) gets the numbers from them; a name that is not a state
 * is refused, naming where.
 */
static int port_nums_from_names(struct rd_snapshot *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->n_devices; i++)
		for (size_t j = 0; j < s->devices[i].n_ports; j++) {
			char why[256];

			if (rd_port_nums_from_names(&s->devices[i].ports[j],
						    why, sizeof(why)) < 0) {
				snprintf(err, errlen,
					 "devices[%zu].ports[%zu].%s", i, j,
					 why);
				return -EINVAL;
			}
		}
	return 0;
}

int rd_snapshot_from_json(struct json_object *j, struct rd_snapshot *s,
			  char *err, size_t errlen)
{
	struct json_object *ver;
	uint64_t v;
	int r;

	rd_snapshot_init(s);
	if (!json_object_is_type(j, json_type_object)) {
		snprintf(err, errlen, "not a snapshot: top level is not an object");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(j, "schema_version", &ver) ||
	    json_u64(ver, &v) < 0) {
		snprintf(err, errlen, "not a snapshot: no schema_version");
		return -EINVAL;
	}
	if (v != RD_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "snapshot schema version %" PRIu64
			 " is not supported (this build reads %d)",
			 v, RD_SCHEMA_VERSION);
		return -EINVAL;
	}
	r = rd_json_to_model(rd_snapshot_fields, s, j, "", err, errlen);
	if (r == 0)
		r = port_nums_from_names(s, err, errlen);
	if (r < 0)
		rd_snapshot_free(s);
	return r;
}

char *rd_snapshot_to_string(const struct rd_snapshot *s, int pretty)
{
	struct json_object *j = rd_snapshot_to_json(s);
	char *out;

	if (!j)
		return NULL;
	out = rd_strdup(json_object_to_json_string_ext(
		j, (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			     JSON_C_TO_STRING_PLAIN) |
			   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return out;
}

int rd_snapshot_write(const struct rd_snapshot *s, FILE *f, int pretty)
{
	char *text = rd_snapshot_to_string(s, pretty);
	int r = 0;

	if (!text)
		return -ENOMEM;
	if (fputs(text, f) < 0 || fputc('\n', f) < 0)
		r = -EIO;
	free(text);
	return r;
}

int rd_snapshot_from_string(const char *text, size_t len,
			    struct rd_snapshot *s, char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *j;
	enum json_tokener_error jerr;
	int r;

	rd_snapshot_init(s);
	if (len > INT32_MAX) {
		snprintf(err, errlen, "snapshot too large");
		return -EFBIG;
	}
	r = rd_json_check(text, len, &rd_snapshot_limits, err, errlen);
	if (r < 0)
		return r;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	j = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!j || jerr != json_tokener_success) {
		if (jerr == json_tokener_continue)
			snprintf(err, errlen,
				 "truncated JSON: the document ends early");
		else
			snprintf(err, errlen, "malformed JSON at byte %zu: %s",
				 json_tokener_get_parse_end(tok),
				 json_tokener_error_desc(jerr));
		json_object_put(j);
		json_tokener_free(tok);
		return -EBADMSG;
	}
	/* Anything but blanks after the document is a damaged file. */
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++) {
		if (text[i] != ' ' && text[i] != '\n' && text[i] != '\t' &&
		    text[i] != '\r') {
			snprintf(err, errlen,
				 "malformed JSON: trailing data at byte %zu", i);
			json_object_put(j);
			json_tokener_free(tok);
			return -EBADMSG;
		}
	}
	json_tokener_free(tok);
	r = rd_snapshot_from_json(j, s, err, errlen);
	json_object_put(j);
	return r;
}

int rd_read_file(const char *path, size_t max, char **out, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	int fd;

	/* Refuse a FIFO or a device before opening it: opening has effects. */
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return e;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;
			free(buf);
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap) {
			char *nb;

			if (cap > max) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int rd_snapshot_load_file(const char *path, struct rd_snapshot *s, char *err,
			  size_t errlen)
{
	char *text;
	size_t len;
	int r = rd_read_file(path, RD_SNAPSHOT_MAX, &text, &len);

	rd_snapshot_init(s);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 r == -EINVAL ? "not a regular file" :
			 r == -EFBIG ? "larger than 32 MiB" : strerror(-r));
		return r;
	}
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file", path);
		free(text);
		return -EINVAL;
	}
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: binary data, not JSON", path);
		free(text);
		return -EINVAL;
	}
	r = rd_snapshot_from_string(text, len, s, err, errlen);
	free(text);
	if (r < 0) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s: %s", path, msg);
	}
	return r;
}
