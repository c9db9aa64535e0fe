// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus text exposition writer. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/model.h"
#include "export/prom.h"

struct rd_prom_family {
	char *name;
	char *head;	/* "# HELP ...\n# TYPE ...\n" */
	char *buf;	/* the samples */
	size_t len, cap;
};

void rd_prom_init(struct rd_prom *w)
{
	memset(w, 0, sizeof(*w));
}

void rd_prom_free(struct rd_prom *w)
{
	for (size_t i = 0; i < w->n_fam; i++) {
		free(w->fam[i].name);
		free(w->fam[i].head);
		free(w->fam[i].buf);
	}
	free(w->fam);
	free(w->seen);
	memset(w, 0, sizeof(*w));
}

int rd_prom_valid_name(const char *s, int label)
{
	if (!s || !*s)
		return 0;
	for (const char *p = s; *p; p++) {
		char c = *p;
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    c == '_' || (c == ':' && !label);

		if (!alpha && !(p > s && c >= '0' && c <= '9'))
			return 0;
	}
	return 1;
}

size_t rd_prom_escape_value(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	for (; s && *s; s++) {
		const char *rep = NULL;
		char one[2] = { *s, 0 };

		if (*s == '\\')
			rep = "\\\\";
		else if (*s == '"')
			rep = "\\\"";
		else if (*s == '\n')
			rep = "\\n";
		else
			rep = one;
		for (; *rep; rep++, n++)
			if (n + 1 < size)
				dst[n] = *rep;
	}
	if (size)
		dst[n < size ? n : size - 1] = '\0';
	return n;
}

/* HELP text escaping: backslash and newline only. */
static void escape_help(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	for (; s && *s && n + 3 < size; s++) {
		if (*s == '\\' || *s == '\n') {
			dst[n++] = '\\';
			dst[n++] = *s == '\n' ? 'n' : '\\';
		} else {
			dst[n++] = *s;
		}
	}
	dst[n] = '\0';
}

/* Room for more bytes and the NUL after them. */
static int grow(struct rd_prom_family *f, size_t more)
{
	return rd_buf_reserve((void **)&f->buf, &f->cap, f->len + more + 1,
			      1024);
}

static int append(struct rd_prom_family *f, const char *s, size_t n)
{
	if (grow(f, n) < 0)
		return -ENOMEM;
	memcpy(f->buf + f->len, s, n);
	f->len += n;
	f->buf[f->len] = '\0';
	return 0;
}

static struct rd_prom_family *family(struct rd_prom *w, const char *name,
				     enum rd_prom_type type, const char *help)
{
	struct rd_prom_family *f;
	char h[512];

	/* Recently used families first: samples come in runs. */
	for (size_t i = w->n_fam; i-- > 0;)
		if (strcmp(w->fam[i].name, name) == 0)
			return &w->fam[i];
	if (!rd_prom_valid_name(name, 0)) {
		w->err = w->err ? w->err : -EINVAL;
		return NULL;
	}
	f = RD_PUSH(w->fam, w->n_fam);
	if (!f)
		return NULL;
	escape_help(h, sizeof(h), help);
	f->name = strdup(name);
	if (!f->name || asprintf(&f->head, "# HELP %s %s\n# TYPE %s %s\n", name,
				 h, name,
				 type == RD_PROM_COUNTER ? "counter" : "gauge") < 0) {
		free(f->name);
		w->n_fam--;
		return NULL;
	}
	return f;
}

/* FNV-1a over the series text; 0 is kept for empty slots. */
static uint64_t series_hash(const char *s, size_t n)
{
	uint64_t h = rd_hash_bytes(RD_HASH_INIT, s, n);

	return h ? h : 1;
}

/* True when the series was written before; else remembers it. */
static bool seen_before(struct rd_prom *w, uint64_t h)
{
	size_t i;

	if (2 * (w->n_seen + 1) > w->seen_size) {
		size_t size = w->seen_size ? 2 * w->seen_size : 1024;
		uint64_t *t = calloc(size, sizeof(*t));

		if (!t) {
			w->err = -ENOMEM;
			return true;
		}
		for (size_t k = 0; k < w->seen_size; k++) {
			if (!w->seen[k])
				continue;
			for (i = w->seen[k] & (size - 1); t[i];
			     i = (i + 1) & (size - 1))
				;
			t[i] = w->seen[k];
		}
		free(w->seen);
		w->seen = t;
		w->seen_size = size;
	}
	for (i = h & (w->seen_size - 1); w->seen[i];
	     i = (i + 1) & (w->seen_size - 1))
		if (w->seen[i] == h)
			return true;
	w->seen[i] = h;
	w->n_seen++;
	return false;
}

static void sample(struct rd_prom *w, const char *name, enum rd_prom_type type,
		   const char *help, const char *const *labels, const char *v)
{
	struct rd_prom_family *f;
	size_t start;
	int r;

	if (w->err)
		return;
	f = family(w, name, type, help);
	if (!f) {
		w->err = w->err ? w->err : -ENOMEM;
		return;
	}
	start = f->len;
	r = append(f, name, strlen(name));
	for (size_t i = 0; labels && labels[i] && r == 0; i += 2) {
		/*
		 * Outside text: made printable UTF-8, then quoted. Its own
		 * backslashes are escaped too, so an ESC byte (\x1b) and the
		 * text "\x1b" stay two series, not one dropped as a repeat.
		 */
		char *shown = rd_esc_exact_dup(labels[i + 1]);
		size_t n;

		if (!shown) {
			r = -ENOMEM;
			break;
		}
		n = rd_prom_escape_value(NULL, 0, shown);
		if (!rd_prom_valid_name(labels[i], 1)) {
			free(shown);
			r = -EINVAL;
			break;
		}
		r = append(f, i ? "," : "{", 1);
		if (r == 0)
			r = append(f, labels[i], strlen(labels[i]));
		if (r == 0)
			r = append(f, "=\"", 2);
		if (r == 0)
			r = grow(f, n + 1);
		if (r == 0) {
			rd_prom_escape_value(f->buf + f->len, n + 1, shown);
			f->len += n;
			r = append(f, "\"", 1);
		}
		free(shown);
	}
	if (r == 0 && labels && labels[0])
		r = append(f, "}", 1);
	if (r == 0 && seen_before(w, series_hash(f->buf + start, f->len - start))) {
		f->len = start;	/* the series stands with its first value */
		f->buf[start] = '\0';
		if (!w->err)
			w->dropped++;
		return;
	}
	if (r == 0)
		r = append(f, " ", 1);
	if (r == 0)
		r = append(f, v, strlen(v));
	if (r == 0)
		r = append(f, "\n", 1);
	if (r < 0)
		w->err = r;
}

void rd_prom_u64(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	sample(w, name, type, help, labels, b);
}

void rd_prom_dbl(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, double v)
{
	char b[40];

	if (isnan(v))
		snprintf(b, sizeof(b), "NaN");
	else if (isinf(v))
		snprintf(b, sizeof(b), v > 0 ? "+Inf" : "-Inf");
	else if (snprintf(b, sizeof(b), "%.15g", v) > 0 && strtod(b, NULL) != v)
		snprintf(b, sizeof(b), "%.17g", v);	/* the shortest exact form */
	sample(w, name, type, help, labels, b);
}

void rd_prom_num(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, const char *v)
{
	sample(w, name, type, help, labels, v);
}

int rd_prom_render(const struct rd_prom *w, char **out, size_t *len)
{
	size_t total = 0, off = 0;
	char *b;

	*out = NULL;
	*len = 0;
	if (w->err)
		return w->err;
	for (size_t i = 0; i < w->n_fam; i++)
		total += strlen(w->fam[i].head) + w->fam[i].len;
	b = malloc(total + 1);
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < w->n_fam; i++) {
		size_t h = strlen(w->fam[i].head);

		memcpy(b + off, w->fam[i].head, h);
		off += h;
		if (w->fam[i].len)
			memcpy(b + off, w->fam[i].buf, w->fam[i].len);
		off += w->fam[i].len;
	}
	b[off] = '\0';
	*out = b;
	*len = off;
	return 0;
}
