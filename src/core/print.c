// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/print.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/escape.h"

void rd_print_begin(struct rd_printer *p, FILE *f, bool json)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->json = json;
}

const char *rd_print_json_text(const char *s)
{
	/* json-c would write controls as \u001b: a reader gets them back raw. */
	if (!s || rd_text_clean(s, strlen(s)))
		return s;
	return rd_esc_tmp(s);
}

static void set_err(struct rd_printer *p, int e)
{
	if (!p->err)
		p->err = e;
}

/* Attach v under key to the innermost open container (or as the root). */
static void attach(struct rd_printer *p, const char *key, struct json_object *v,
		   bool is_null)
{
	struct json_object *top;

	if (!v && !is_null) {
		set_err(p, -ENOMEM);
		return;
	}
	if (p->depth == 0) {
		if (p->root) {
			json_object_put(v);
			set_err(p, -EINVAL);
			return;
		}
		p->root = v;
		return;
	}
	top = p->stack[p->depth - 1];
	if (json_object_is_type(top, json_type_array)) {
		if (json_object_array_add(top, v) < 0) {
			json_object_put(v);
			set_err(p, -ENOMEM);
		}
		return;
	}
	if (!key || json_object_object_add(top, rd_print_json_text(key), v) < 0) {
		json_object_put(v);
		set_err(p, key ? -ENOMEM : -EINVAL);
	}
}

static void open_container(struct rd_printer *p, const char *key,
			   struct json_object *c)
{
	if (!p->json)
		return;
	if (p->depth >= RD_PRINT_DEPTH) {
		json_object_put(c);
		set_err(p, -E2BIG);
		return;
	}
	if (!c) {
		set_err(p, -ENOMEM);
		return;
	}
	attach(p, key, json_object_get(c), false);
	p->stack[p->depth++] = c;
}

void rd_print_open_object(struct rd_printer *p, const char *key)
{
	if (p->json)
		open_container(p, key, json_object_new_object());
}

void rd_print_open_array(struct rd_printer *p, const char *key)
{
	if (p->json)
		open_container(p, key, json_object_new_array());
}

void rd_print_close(struct rd_printer *p)
{
	if (!p->json)
		return;
	if (p->depth == 0) {
		set_err(p, -EINVAL);
		return;
	}
	json_object_put(p->stack[--p->depth]);
}

static bool want_json(const struct rd_printer *p, const char *key)
{
	return p->json && (key || (p->depth &&
				   json_object_is_type(p->stack[p->depth - 1],
						       json_type_array)));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void text(struct rd_printer *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(p->f, fmt, ap) < 0)
		set_err(p, -EIO);
	va_end(ap);
}

void rd_print_text(struct rd_printer *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json || !fmt)
		return;
	va_start(ap, fmt);
	if (vfprintf(p->f, fmt, ap) < 0)
		set_err(p, -EIO);
	va_end(ap);
}

/*
 * The one path of every value: in JSON, attach what mk makes (or null)
 * when the key is wanted; in text, print the rest (a format and its
 * arguments) when there is a fmt.
 */
#define PRINT_ANY(p, key, fmt, mk, null, ...)                                \
	do {                                                                 \
		if ((p)->json) {                                             \
			if (want_json(p, key))                               \
				attach(p, key, (null) ? NULL : (mk), null);  \
		} else if (fmt) {                                            \
			text(p, __VA_ARGS__);                                \
		}                                                            \
	} while (0)

void rd_print_str(struct rd_printer *p, const char *key, const char *fmt,
		  const char *v)
{
	PRINT_ANY(p, key, fmt, json_object_new_string(rd_print_json_text(v)),
		  !v, fmt, v ? rd_esc_tmp(v) : "-");
}

void rd_print_u64(struct rd_printer *p, const char *key, const char *fmt,
		  uint64_t v)
{
	PRINT_ANY(p, key, fmt, json_object_new_uint64(v), false, fmt, v);
}

void rd_print_s64(struct rd_printer *p, const char *key, const char *fmt,
		  int64_t v)
{
	PRINT_ANY(p, key, fmt, json_object_new_int64(v), false, fmt, v);
}

void rd_print_double(struct rd_printer *p, const char *key, const char *fmt,
		     double v)
{
	PRINT_ANY(p, key, fmt, json_object_new_double(v), !isfinite(v), fmt,
		  v);
}
#pragma GCC diagnostic pop

void rd_print_bool(struct rd_printer *p, const char *key, const char *fmt,
		   bool v)
{
	PRINT_ANY(p, key, fmt, json_object_new_boolean(v), false, fmt,
		  v ? "yes" : "no");
}

void rd_print_null(struct rd_printer *p, const char *key, const char *fmt)
{
	PRINT_ANY(p, key, fmt, NULL, true, "%s", fmt);
}

void rd_print_color(struct rd_printer *p, const char *sgr)
{
	if (!p->json && p->color && sgr)
		text(p, "%s", sgr);
}

struct json_object *rd_print_take_json(struct rd_printer *p)
{
	struct json_object *j = p->root;

	while (p->depth)
		json_object_put(p->stack[--p->depth]);
	p->root = NULL;
	if (p->err) {
		json_object_put(j);
		return NULL;
	}
	return j;
}

int rd_print_json_to(FILE *f, struct json_object *j, bool one_line)
{
	const char *txt = json_object_to_json_string_ext(
		j, (one_line ? JSON_C_TO_STRING_PLAIN : JSON_C_TO_STRING_PRETTY) |
			   JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!txt)
		return -ENOMEM;
	return fprintf(f, "%s\n", txt) < 0 ? -EIO : 0;
}

int rd_print_end(struct rd_printer *p)
{
	struct json_object *j;
	int err, r;

	if (!p->json)
		return p->err;
	if (p->depth)
		set_err(p, -EINVAL);
	err = p->err;
	j = rd_print_take_json(p);
	if (!j)
		return err ? err : -EINVAL;
	r = rd_print_json_to(p->f, j, p->one_line);
	if (r < 0)
		err = r;
	json_object_put(j);
	return err;
}
