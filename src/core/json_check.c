// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/json_check.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/escape.h"
#include "core/model.h"

/*
 * A snapshot of a large host holds a few tens of thousands of values
 * (ethtool statistics of many queues); these leave a wide margin and keep
 * the parsed tree to tens of megabytes.
 */
const struct rd_json_limits rd_snapshot_limits = {
	.values = 250000,
	.containers = 50000,
	.depth = 16,
	.members = 20000,
	.string = 4096,
};

struct key {
	size_t off, len;	/* decoded bytes in the key arena */
	uint64_t hash;
};

struct frame {
	bool object;
	size_t members;
	size_t first_key;	/* index of its first key in keys[] */
	size_t arena_start;	/* where its keys start in the arena */
	size_t key_off, key_len; /* current member's key (objects) */
};

struct scan {
	const char *t;
	size_t len, i;
	const struct rd_json_limits *lim;
	size_t values, containers;
	struct frame stack[64];
	size_t depth;
	struct key *keys;
	size_t n_keys, cap_keys;
	char *arena;		/* decoded keys of the open objects */
	size_t arena_len, arena_cap;
	char *err;
	size_t errlen;
	bool malformed;		/* leave it to the parser */
};

/* "devices[0].ports[1].port" for the value being read. */
static void path(const struct scan *s, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t d = 0; d < s->depth && n < size; d++) {
		const struct frame *f = &s->stack[d];
		int w;

		if (f->object) {
			char key[96];
			size_t k = f->key_len < sizeof(key) - 1 ? f->key_len :
								 sizeof(key) - 1;

			memcpy(key, s->arena + f->key_off, k);
			key[k] = '\0';
			w = rd_snprintf_text(buf + n, size - n, "%s%s",
					     n ? "." : "", rd_esc_tmp(key));
		} else {
			w = snprintf(buf + n, size - n, "[%zu]",
				     f->members ? f->members - 1 : 0);
		}
		if (w < 0)
			break;
		n += (size_t)w;
	}
	if (!buf[0])
		snprintf(buf, size, "(top)");
}

static int refuse(struct scan *s, int e, const char *what)
{
	char p[256];

	path(s, p, sizeof(p));
	/* Cut whole characters only: the path quotes outside keys. */
	rd_snprintf_text(s->err, s->errlen, "%s: %s", p, what);
	return e;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* A limit passed: the message says which and how much. */
static int refuse_n(struct scan *s, const char *fmt, size_t n)
{
	char what[96];

	snprintf(what, sizeof(what), fmt, n);
	return refuse(s, -E2BIG, what);
}
#pragma GCC diagnostic pop

static void skip_ws(struct scan *s)
{
	while (s->i < s->len && (s->t[s->i] == ' ' || s->t[s->i] == '\t' ||
				 s->t[s->i] == '\n' || s->t[s->i] == '\r'))
		s->i++;
}

static int hex4(struct scan *s, uint32_t *out)
{
	uint32_t v = 0;

	if (s->len - s->i < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		int h = rd_hex_digit(s->t[s->i + (size_t)k]);

		if (h < 0)
			return -1;
		v = v << 4 | (uint32_t)h;
	}
	s->i += 4;
	*out = v;
	return 0;
}

static int arena_put(struct scan *s, const char *b, size_t n)
{
	if (rd_buf_reserve((void **)&s->arena, &s->arena_cap,
			   s->arena_len + n, 4096) < 0)
		return -ENOMEM;
	memcpy(s->arena + s->arena_len, b, n);
	s->arena_len += n;
	return 0;
}

static size_t utf8_put(uint32_t cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | cp >> 18);
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * A string at s->i (the opening quote). A key is decoded into the arena
 * (its place returned in off/len) so "a" and "\u0061" are the same key.
 */
static int string(struct scan *s, bool key, size_t *off, size_t *len)
{
	size_t n = 0, start = s->arena_len;
	int r;

	s->i++;
	for (;;) {
		char b[4];
		size_t bn = 1;
		unsigned char c;

		if (s->i >= s->len) {
			s->malformed = true;
			return 0;
		}
		c = (unsigned char)s->t[s->i++];
		if (c == '"')
			break;
		if (c < 0x20) {
			s->malformed = true;
			return 0;
		}
		b[0] = (char)c;
		if (c == '\\') {
			uint32_t cp, lo;

			if (s->i >= s->len) {
				s->malformed = true;
				return 0;
			}
			c = (unsigned char)s->t[s->i++];
			if (c == 'u') {
				if (hex4(s, &cp) < 0) {
					s->malformed = true;
					return 0;
				}
				if (cp == 0)
					return refuse(s, -EINVAL,
						      "a string holds a NUL character (U+0000)");
				if (cp >= 0xd800 && cp <= 0xdbff &&
				    s->len - s->i >= 6 && s->t[s->i] == '\\' &&
				    s->t[s->i + 1] == 'u') {
					s->i += 2;
					if (hex4(s, &lo) < 0) {
						s->malformed = true;
						return 0;
					}
					if (lo >= 0xdc00 && lo <= 0xdfff)
						cp = 0x10000 + ((cp - 0xd800) << 10) +
						     (lo - 0xdc00);
				}
				/*
				 * json-c turns a lone surrogate into U+FFFD: the
				 * text would change, and two keys could become one.
				 */
				if (cp >= 0xd800 && cp <= 0xdfff)
					return refuse(s, -EINVAL,
						      "a string holds a lone UTF-16 surrogate");
				bn = utf8_put(cp, b);
			} else {
				/* The one-letter escapes and what they stand for. */
				static const char esc[] = "ntrbf\"\\/",
						  val[] = "\n\t\r\b\f\"\\/";
				const char *e = c ? strchr(esc, c) : NULL;

				if (!e) {
					s->malformed = true;
					return 0;
				}
				b[0] = val[e - esc];
			}
		}
		n += bn;
		if (n > s->lim->string)
			return refuse_n(s, key ? "a key longer than %zu bytes" :
						 "a string longer than %zu bytes",
					s->lim->string);
		if (key && (r = arena_put(s, b, bn)) < 0)
			return refuse(s, r, "out of memory");
	}
	if (key) {
		*off = start;
		*len = n;
	}
	return 0;
}

/* A number token: JSON grammar is the parser's business; range is ours. */
static int number(struct scan *s)
{
	size_t start = s->i;
	bool integer = true;
	char buf[400];

	while (s->i < s->len && strchr("+-0123456789.eE", s->t[s->i])) {
		if (strchr(".eE", s->t[s->i]))
			integer = false;
		s->i++;
	}
	if (s->i - start >= sizeof(buf)) {
		/* 400 digits is no 64-bit integer and no finite double. */
		return refuse(s, -EINVAL, integer ? "number out of range" :
						    "number is not finite");
	}
	memcpy(buf, s->t + start, s->i - start);
	buf[s->i - start] = '\0';
	if (integer) {
		/* As json-c takes it: int64, or uint64 when positive. */
		bool neg = buf[0] == '-';
		const char *d = buf + neg;
		size_t nd = strlen(d);
		const char *max = neg ? "9223372036854775808" :
					"18446744073709551615";

		while (nd > 1 && *d == '0') {
			d++;
			nd--;
		}
		/*
		 * jq 1.6 reads numbers as doubles and writes 2^64 - 1 (a
		 * ConnectX's max_mr_size) as this, the double it became:
		 * read as 2^64 - 1 (json-c saturates it so). Nothing else
		 * above 2^64 - 1 is taken.
		 */
		if (!neg && strcmp(d, RD_JSON_U64_MAX_AS_DOUBLE) == 0)
			return 0;
		if (nd > strlen(max) || (nd == strlen(max) && strcmp(d, max) > 0))
			return refuse(s, -EINVAL, "number out of range");
		return 0;
	}
	if (!isfinite(rd_strtod_c(buf, NULL)))
		return refuse(s, -EINVAL, "number is not finite");
	return 0;
}

static int key_cmp(const void *a, const void *b, void *arena)
{
	const struct key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp((char *)arena + x->off, (char *)arena + y->off, x->len);
}

/* On closing an object: any key twice? Then name it. */
static int check_dups(struct scan *s, struct frame *f)
{
	struct key *k = s->keys + f->first_key;
	size_t n = s->n_keys - f->first_key;

	qsort_r(k, n, sizeof(*k), key_cmp, s->arena);
	for (size_t j = 1; j < n; j++) {
		if (key_cmp(&k[j - 1], &k[j], s->arena) == 0) {
			char name[96];
			size_t l = k[j].len < sizeof(name) - 1 ? k[j].len :
								   sizeof(name) - 1;
			char msg[160];

			memcpy(name, s->arena + k[j].off, l);
			name[l] = '\0';
			f->key_off = k[j].off;
			f->key_len = k[j].len;
			rd_snprintf_text(msg, sizeof(msg),
					 "duplicate key \"%s\"",
					 rd_esc_tmp(name));
			/* Name the object, not a member of it. */
			s->depth--;
			return refuse(s, -EINVAL, msg);
		}
	}
	return 0;
}

static uint64_t fnv(const char *p, size_t n)
{
	return rd_hash_bytes(RD_HASH_INIT, p, n);
}

static int count_value(struct scan *s)
{
	if (++s->values > s->lim->values)
		return refuse_n(s, "more than %zu values in the document",
				s->lim->values);
	return 0;
}

static int open_container(struct scan *s, bool object)
{
	struct frame *f;

	if (++s->containers > s->lim->containers)
		return refuse_n(s, "more than %zu objects and arrays",
				s->lim->containers);
	if (s->depth >= s->lim->depth ||
	    s->depth >= sizeof(s->stack) / sizeof(s->stack[0]))
		return refuse_n(s, "nested deeper than %zu levels",
				s->lim->depth);
	f = &s->stack[s->depth++];
	memset(f, 0, sizeof(*f));
	f->object = object;
	f->first_key = s->n_keys;
	f->arena_start = s->arena_len;
	f->key_off = s->arena_len;
	return 0;
}

static int close_container(struct scan *s)
{
	struct frame *f = &s->stack[s->depth - 1];
	int r = 0;

	if (f->object) {
		r = check_dups(s, f);
		if (r < 0)
			return r;
		/* Its keys are no longer needed; its parent's stay. */
		s->arena_len = f->arena_start;
		s->n_keys = f->first_key;
	}
	s->depth--;
	return 0;
}

static int add_key(struct scan *s, size_t off, size_t len)
{
	struct frame *f = &s->stack[s->depth - 1];

	if (s->n_keys == s->cap_keys) {
		size_t cap = s->cap_keys ? s->cap_keys * 2 : 256;
		struct key *k = realloc(s->keys, cap * sizeof(*k));

		if (!k)
			return refuse(s, -ENOMEM, "out of memory");
		s->keys = k;
		s->cap_keys = cap;
	}
	s->keys[s->n_keys++] =
		(struct key){ off, len, fnv(s->arena + off, len) };
	f->key_off = off;
	f->key_len = len;
	return 0;
}

/* Before a member of the innermost container. */
static int member(struct scan *s)
{
	struct frame *f = &s->stack[s->depth - 1];

	if (++f->members > s->lim->members)
		return refuse_n(s, f->object ? "more than %zu members" :
					       "more than %zu elements",
				s->lim->members);
	return 0;
}

static int walk(struct scan *s)
{
	int r;

	for (;;) {
		struct frame *f = s->depth ? &s->stack[s->depth - 1] : NULL;

		skip_ws(s);
		if (s->i >= s->len) {
			if (s->depth)
				s->malformed = true;
			return 0;
		}
		/* Where a container ends, or a member (with its key) starts. */
		if (f) {
			char c = s->t[s->i];

			if (c == (f->object ? '}' : ']')) {
				s->i++;
				r = close_container(s);
				if (r < 0)
					return r;
				if (!s->depth)
					return 0;
				goto after_value;
			}
			if ((r = member(s)) < 0)
				return r;
			if (f->object) {
				size_t off = 0, len = 0;

				if (c != '"') {
					s->malformed = true;
					return 0;
				}
				r = string(s, true, &off, &len);
				if (r < 0 || s->malformed)
					return r;
				if ((r = add_key(s, off, len)) < 0)
					return r;
				skip_ws(s);
				if (s->i >= s->len || s->t[s->i] != ':') {
					s->malformed = true;
					return 0;
				}
				s->i++;
				skip_ws(s);
				if (s->i >= s->len) {
					s->malformed = true;
					return 0;
				}
			}
		}
		if ((r = count_value(s)) < 0)
			return r;
		switch (s->t[s->i]) {
		case '{':
		case '[':
			r = open_container(s, s->t[s->i] == '{');
			s->i++;
			if (r < 0)
				return r;
			continue;
		case '"':
			r = string(s, false, NULL, NULL);
			break;
		case 't':
		case 'f':
		case 'n':
			while (s->i < s->len && s->t[s->i] >= 'a' &&
			       s->t[s->i] <= 'z')
				s->i++;
			r = 0;
			break;
		default:
			r = number(s);
			break;
		}
		if (r < 0 || s->malformed)
			return r;
		if (!s->depth)
			return 0;
after_value:
		skip_ws(s);
		if (s->i < s->len && s->t[s->i] == ',') {
			s->i++;
			skip_ws(s);
			/* A trailing comma: the parser says what is wrong. */
			if (s->i < s->len && (s->t[s->i] == '}' || s->t[s->i] == ']')) {
				s->malformed = true;
				return 0;
			}
		} else if (s->i >= s->len ||
			   (s->t[s->i] != '}' && s->t[s->i] != ']')) {
			s->malformed = true;
			return 0;
		}
	}
}

int rd_json_check(const char *text, size_t len,
		  const struct rd_json_limits *lim, char *err, size_t errlen)
{
	struct scan s = { .t = text, .len = len, .lim = lim, .err = err,
			  .errlen = errlen };
	int r = walk(&s);

	free(s.keys);
	free(s.arena);
	return r;
}
