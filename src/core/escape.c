// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/escape.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t rd_utf8_seq(const unsigned char *p, size_t len, uint32_t *out)
{
	unsigned char c = p[0];
	size_t need;
	uint32_t cp;

	if ((c & 0xe0) == 0xc0) {
		need = 1;
		cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		need = 2;
		cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		need = 3;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (need >= len)
		return 0;
	for (size_t k = 1; k <= need; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[k] & 0x3f);
	}
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
	    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*out = cp;
	return need + 1;
}

/* Bytes [i, i+n) of the input, or an escape, appended to dst. */
struct sink {
	char *dst;
	size_t size;
	size_t len;
};

static void put(struct sink *k, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, k->len++)
		if (k->size && k->len < k->size - 1)
			k->dst[k->len] = s[i];
}

static void put_hex(struct sink *k, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char b[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(k, b, 4);
}

static void finish(struct sink *k)
{
	if (!k->size)
		return;
	k->dst[k->len < k->size ? k->len : k->size - 1] = '\0';
}

/*
 * Code points that print nothing and move or hide what follows: the
 * bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069), the line and paragraph separators (U+2028, U+2029), and
 * the zero-width ones (U+200B-U+200D, U+2060-U+2064, U+FEFF). They are
 * escaped as C1 controls are.
 */
static bool invisible_format(uint32_t cp)
{
	return cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

/* A code point from a valid sequence that is shown as it is. */
static bool shown_as_is(uint32_t cp)
{
	return !(cp >= 0x80 && cp <= 0x9f) && !invisible_format(cp);
}

enum {
	ESC_ANSI_C = 1,	   /* backslash and quote escaped, for $'...' */
	ESC_BACKSLASH = 2, /* backslash escaped: different input, different
			    * output */
};

/*
 * Walk s; for each byte or sequence call back whether it is clean. Shared
 * by rd_esc, rd_esc_exact_dup and the $'...' form of rd_shquote.
 */
static void esc_into(struct sink *k, const char *s, int how)
{
	bool quote_for_ansi_c = how & ESC_ANSI_C;
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t n;

		if (c >= 0x20 && c < 0x7f) {
			if (c == '\\' && (how & (ESC_ANSI_C | ESC_BACKSLASH)))
				put(k, "\\\\", 2);
			else if (c == '\'' && quote_for_ansi_c)
				put(k, "\\'", 2);
			else
				put(k, (const char *)&p[i], 1);
			i++;
			continue;
		}
		if (c == '\n') {
			put(k, "\\n", 2);
			i++;
			continue;
		}
		if (c == '\t') {
			put(k, "\\t", 2);
			i++;
			continue;
		}
		if (c >= 0x80 && (n = rd_utf8_seq(p + i, len - i, &cp)) &&
		    shown_as_is(cp)) {
			put(k, (const char *)&p[i], n);
			i += n;
			continue;
		}
		put_hex(k, c);
		i++;
	}
}

size_t rd_esc(char *dst, size_t size, const char *s)
{
	struct sink k = { dst, size, 0 };

	if (s)
		esc_into(&k, s, 0);
	finish(&k);
	return k.len;
}

char *rd_esc_exact_dup(const char *s)
{
	struct sink k = { NULL, 0, 0 };
	char *out;

	esc_into(&k, s ? s : "", ESC_BACKSLASH);
	out = malloc(k.len + 1);
	if (!out)
		return NULL;
	k = (struct sink){ out, k.len + 1, 0 };
	esc_into(&k, s ? s : "", ESC_BACKSLASH);
	finish(&k);
	return out;
}

char *rd_esc_dup(const char *s)
{
	size_t n = rd_esc(NULL, 0, s);
	char *d = malloc(n + 1);

	if (d)
		rd_esc(d, n + 1, s);
	return d;
}

static char *slot(void)
{
	static _Thread_local char buf[RD_ESC_SLOTS][RD_ESC_MAX + 4];
	static _Thread_local unsigned next;

	return buf[next++ % RD_ESC_SLOTS];
}

/* Cut text at RD_ESC_MAX on a character boundary and mark it with "...". */
static const char *ellipsize(char *b, size_t need)
{
	size_t cut;

	if (need <= RD_ESC_MAX)
		return b;
	cut = RD_ESC_MAX - 3;
	while (cut > 0 && ((unsigned char)b[cut] & 0xc0) == 0x80)
		cut--;
	memcpy(b + cut, "...", 4);
	return b;
}

const char *rd_esc_tmp(const char *s)
{
	char *b = slot();

	return ellipsize(b, rd_esc(b, RD_ESC_MAX + 1, s));
}

int rd_fputs_esc(const char *s, FILE *f)
{
	char small[256];
	size_t n = rd_esc(small, sizeof(small), s);
	int r;

	if (n < sizeof(small))
		return fputs(small, f);
	char *d = rd_esc_dup(s);
	if (!d)
		return EOF;
	r = fputs(d, f);
	free(d);
	return r;
}

void rd_utf8_trim_cut(char *s)
{
	size_t len = strlen(s), lead = len, need;
	unsigned char c;

	/* Back over at most three continuation bytes to the lead byte. */
	while (lead > 0 && len - lead < 3 &&
	       ((unsigned char)s[lead - 1] & 0xc0) == 0x80)
		lead--;
	if (lead == 0)
		return;
	c = (unsigned char)s[lead - 1];
	if ((c & 0xe0) == 0xc0)
		need = 2;
	else if ((c & 0xf0) == 0xe0)
		need = 3;
	else if ((c & 0xf8) == 0xf0)
		need = 4;
	else
		return;
	if (len - (lead - 1) < need)
		s[lead - 1] = '\0';
}

int rd_snprintf_text(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (size && n >= 0 && (size_t)n >= size)
		rd_utf8_trim_cut(buf);
	return n;
}

bool rd_text_clean(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		if (p[i] < 0x80 || !(n = rd_utf8_seq(p + i, len - i, &cp)) ||
		    !shown_as_is(cp))
			return false;
		i += n;
	}
	return true;
}

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_@%+=:,./-", *s))
			return false;
	return true;
}

size_t rd_shquote(char *dst, size_t size, const char *s)
{
	struct sink k = { dst, size, 0 };

	if (!s)
		s = "";
	if (shell_safe(s)) {
		put(&k, s, strlen(s));
	} else if (rd_text_clean(s, strlen(s))) {
		put(&k, "'", 1);
		for (const char *p = s; *p; p++)
			if (*p == '\'')
				put(&k, "'\\''", 4);
			else
				put(&k, p, 1);
		put(&k, "'", 1);
	} else {
		put(&k, "$'", 2);
		esc_into(&k, s, ESC_ANSI_C);
		put(&k, "'", 1);
	}
	finish(&k);
	return k.len;
}

const char *rd_shquote_tmp(const char *s)
{
	char *b = slot();

	return ellipsize(b, rd_shquote(b, RD_ESC_MAX + 1, s));
}
