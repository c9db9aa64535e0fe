// SPDX-License-Identifier: GPL-2.0-or-later
/* Identifiers replaced by consistent stand-ins (see redact.h). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "core/snapshot.h"

enum bkind { B_V4NET, B_MAC, B_GUID, B_PREFIX, B_HW, B_KINDS };

struct bmap {
	unsigned char kind, n;
	unsigned char orig[20], alt[20];
};

struct word {
	char *value, *alt;
	size_t len;
};

struct wkind {
	char name[16];
	unsigned n;
};

struct rd_redact {
	struct word *words;
	size_t n_words, cap_words;
	struct bmap *maps;
	size_t n_maps, cap_maps;
	unsigned next[B_KINDS];
	/*
	 * Learning (rd_redact_learn): the values met are kept in seen,
	 * nothing is replaced; a stand-in is then never one of them.
	 */
	bool learning;
	struct bmap *seen;
	size_t n_seen, cap_seen;
	struct wkind kinds[8];
	size_t n_kinds;
};

struct rd_redact *rd_redact_new(void)
{
	return calloc(1, sizeof(struct rd_redact));
}

void rd_redact_free(struct rd_redact *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_words; i++) {
		free(r->words[i].value);
		free(r->words[i].alt);
	}
	free(r->words);
	free(r->maps);
	free(r->seen);
	free(r);
}

/* ---- words: names and serial numbers ---- */

static struct word *word_find(struct rd_redact *r, const char *value)
{
	for (size_t i = 0; i < r->n_words; i++)
		if (strcmp(r->words[i].value, value) == 0)
			return &r->words[i];
	return NULL;
}

static const char *word_add(struct rd_redact *r, const char *value,
			    const char *alt)
{
	struct word *w;

	if (r->n_words == r->cap_words) {
		size_t cap = r->cap_words ? r->cap_words * 2 : 16;
		struct word *nw = realloc(r->words, cap * sizeof(*nw));

		if (!nw)
			return NULL;
		r->words = nw;
		r->cap_words = cap;
	}
	w = &r->words[r->n_words];
	w->value = strdup(value);
	w->alt = strdup(alt);
	if (!w->value || !w->alt) {
		free(w->value);
		free(w->alt);
		return NULL;
	}
	w->len = strlen(value);
	r->n_words++;
	return w->alt;
}

const char *rd_redact_word(struct rd_redact *r, const char *value,
			   const char *kind)
{
	struct word *w;
	struct wkind *k = NULL;
	char alt[64];

	if (!value || strlen(value) < 3)
		return NULL;
	w = word_find(r, value);
	if (w)
		return w->alt;
	for (size_t i = 0; i < r->n_kinds; i++)
		if (strcmp(r->kinds[i].name, kind) == 0)
			k = &r->kinds[i];
	if (!k) {
		if (r->n_kinds == sizeof(r->kinds) / sizeof(r->kinds[0]))
			return NULL;
		k = &r->kinds[r->n_kinds++];
		snprintf(k->name, sizeof(k->name), "%s", kind);
	}
	do
		snprintf(alt, sizeof(alt), "%s-%u", k->name, ++k->n);
	while (strcmp(alt, value) == 0 || word_find(r, alt));
	return word_add(r, value, alt);
}

/* ---- addresses: byte strings mapped to stand-ins ---- */

static void make_alt(enum bkind kind, unsigned k, size_t n, unsigned char *alt)
{
	memset(alt, 0, n);
	switch (kind) {
	case B_V4NET: /* 198.18.0.0/15, set aside for benchmarks */
		alt[0] = 198;
		alt[1] = (unsigned char)(18 + ((k >> 8) & 1));
		alt[2] = (unsigned char)(k & 0xff);
		return;
	case B_PREFIX: /* a unique local IPv6 prefix */
		alt[0] = 0xfd;
		break;
	default: /* locally administered, unicast */
		alt[0] = 0x02;
		break;
	}
	alt[n - 2] = (unsigned char)(k >> 8);
	alt[n - 1] = (unsigned char)k;
}

static struct bmap *bmap_find(struct bmap *v, size_t n_v, enum bkind kind,
			      const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n_v; i++)
		if (v[i].kind == kind && v[i].n == n &&
		    memcmp(v[i].orig, b, n) == 0)
			return &v[i];
	return NULL;
}

static struct bmap *bmap_push(struct bmap **v, size_t *n_v, size_t *cap,
			      enum bkind kind, const unsigned char *orig,
			      size_t n)
{
	struct bmap *m;

	if (*n_v == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct bmap *nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return NULL;
		*v = nv;
		*cap = c;
	}
	m = &(*v)[(*n_v)++];
	m->kind = (unsigned char)kind;
	m->n = (unsigned char)n;
	memcpy(m->orig, orig, n);
	return m;
}

static const unsigned char *bmap_get(struct rd_redact *r, enum bkind kind,
				     const unsigned char *orig, size_t n)
{
	struct bmap *m;

	if (r->learning) {
		if (!bmap_find(r->seen, r->n_seen, kind, orig, n) &&
		    !bmap_push(&r->seen, &r->n_seen, &r->cap_seen, kind, orig,
			       n))
			return NULL;
		return orig;
	}
	m = bmap_find(r->maps, r->n_maps, kind, orig, n);
	if (m)
		return m->alt;
	m = bmap_push(&r->maps, &r->n_maps, &r->cap_maps, kind, orig, n);
	if (!m)
		return NULL;
	do
		make_alt(kind, ++r->next[kind], n, m->alt);
	while (memcmp(m->alt, orig, n) == 0 ||
	       bmap_find(r->seen, r->n_seen, kind, m->alt, n));
	return m->alt;
}

static bool all_bytes(const unsigned char *b, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* Each map_* rewrites b in place; false on allocation failure. */
static bool map_v4(struct rd_redact *r, unsigned char *b)
{
	const unsigned char *a;

	/* this network, loopback, multicast and broadcast name no host */
	if (b[0] == 0 || b[0] == 127 || b[0] >= 224)
		return true;
	a = bmap_get(r, B_V4NET, b, 3);
	if (!a)
		return false;
	memcpy(b, a, 3);
	return true;
}

static bool map_plain(struct rd_redact *r, enum bkind kind, unsigned char *b,
		      size_t n)
{
	const unsigned char *a;

	if (all_bytes(b, n, 0) || all_bytes(b, n, 0xff))
		return true;
	a = bmap_get(r, kind, b, n);
	if (!a)
		return false;
	memcpy(b, a, n);
	return true;
}

/* An interface identifier: from a MAC (EUI-64, ff:fe inside) or a GUID. */
static bool map_iid(struct rd_redact *r, unsigned char *b)
{
	unsigned char mac[6];

	if (b[3] != 0xff || b[4] != 0xfe)
		return map_plain(r, B_GUID, b, 8);
	mac[0] = b[0] ^ 2;
	mac[1] = b[1];
	mac[2] = b[2];
	memcpy(mac + 3, b + 5, 3);
	if (!map_plain(r, B_MAC, mac, 6))
		return false;
	b[0] = mac[0] ^ 2;
	b[1] = mac[1];
	b[2] = mac[2];
	memcpy(b + 5, mac + 3, 3);
	return true;
}

/* A GID or an IPv6 address. */
static bool map_16(struct rd_redact *r, unsigned char *b)
{
	if (all_bytes(b, 15, 0) || b[0] == 0xff) /* ::, ::1, multicast */
		return true;
	if (all_bytes(b, 10, 0) && b[10] == 0xff && b[11] == 0xff)
		return map_v4(r, b + 12);
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80 && all_bytes(b + 2, 6, 0))
		return map_iid(r, b + 8);
	return map_plain(r, B_PREFIX, b, 8) && map_iid(r, b + 8);
}

/* A hardware address: Ethernet, IPoIB (flags, QPN, port GID), other. */
static bool map_hw(struct rd_redact *r, unsigned char *b, size_t n)
{
	if (n == 6)
		return map_plain(r, B_MAC, b, 6);
	if (n == 8)
		return map_plain(r, B_GUID, b, 8);
	if (n == 20)
		return map_16(r, b + 4);
	return map_plain(r, B_HW, b, n);
}

/* ---- the text ---- */

struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct buf *o, const char *s, size_t n)
{
	if (o->oom)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *np;

		while (o->len + n + 1 > cap)
			cap *= 2;
		np = realloc(o->p, cap);
		if (!np) {
			o->oom = true;
			return;
		}
		o->p = np;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static bool is_xdigit_c(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

/* The longest registered word at t[i], standing as a whole word. */
static const struct word *word_at(const struct rd_redact *r, const char *t,
				  size_t i, size_t len)
{
	const struct word *best = NULL;

	if (i > 0 && (is_alnum(t[i - 1]) || strchr("_-.", t[i - 1])))
		return NULL;
	for (size_t k = 0; k < r->n_words; k++) {
		const struct word *w = &r->words[k];
		size_t e = i + w->len;

		if (e > len || memcmp(t + i, w->value, w->len) != 0)
			continue;
		if (e < len && (is_alnum(t[e]) || t[e] == '_' || t[e] == '-'))
			continue;
		if (e + 1 < len && t[e] == '.' && is_alnum(t[e + 1]))
			continue;
		if (!best || w->len > best->len)
			best = w;
	}
	return best;
}

/*
 * "aa:bb:cc..." (bytes of 2 digits), "aaaa:bbbb:..." (4 or 8 groups of
 * 4): the bytes, their count, whether the groups are 4 digits wide.
 */
static size_t hex_groups(const char *t, size_t n, unsigned char *b, size_t max,
			 size_t *width, bool *upper)
{
	size_t nb = 0, gw = 0, groups = 0, i = 0;

	*upper = false;
	while (i < n) {
		size_t s = i;

		while (i < n && is_xdigit_c(t[i])) {
			if (t[i] >= 'A' && t[i] <= 'F')
				*upper = true;
			i++;
		}
		if (i - s != 2 && i - s != 4)
			return 0;
		if (gw && gw != i - s)
			return 0;
		gw = i - s;
		for (size_t k = s; k < i; k += 2) {
			if (nb == max)
				return 0;
			b[nb++] = (unsigned char)(hexval(t[k]) << 4 |
						  hexval(t[k + 1]));
		}
		groups++;
		if (i < n && t[i] != ':')
			return 0;
		i++; /* the ':' */
	}
	if (t[n - 1] == ':')
		return 0;
	if (gw == 2 && groups >= 6)
		;
	else if (gw == 4 && (groups == 4 || groups == 8))
		;
	else
		return 0;
	*width = gw;
	return nb;
}

static void put_groups(struct buf *o, const unsigned char *b, size_t nb,
		       size_t width, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char x[2];

	for (size_t i = 0; i < nb; i++) {
		if (i && i % (width / 2) == 0)
			put(o, ":", 1);
		x[0] = digits[b[i] >> 4];
		x[1] = digits[b[i] & 15];
		put(o, x, 2);
	}
}

static bool parse_v4(const char *t, size_t n, unsigned char *b)
{
	size_t part = 0, digits = 0;
	unsigned v = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || t[i] == '.') {
			if (!digits || part > 3 || v > 255)
				return false;
			b[part++] = (unsigned char)v;
			v = 0;
			digits = 0;
		} else if (t[i] >= '0' && t[i] <= '9' && digits < 3) {
			v = v * 10 + (unsigned)(t[i] - '0');
			digits++;
		} else {
			return false;
		}
	}
	return part == 4;
}

/* The address in t[0..n), replaced: true when t was one. */
static bool address(struct rd_redact *r, struct buf *o, const char *t, size_t n)
{
	unsigned char b[20];
	char s[64];
	size_t nb, width;
	bool upper, ok;

	if (memchr(t, ':', n)) {
		nb = hex_groups(t, n, b, sizeof(b), &width, &upper);
		if (nb) {
			ok = width == 4 && nb == 16 ? map_16(r, b)
			     : width == 4	    ? map_plain(r, B_GUID, b, 8)
						    : map_hw(r, b, nb);
			if (!ok)
				o->oom = true;
			put_groups(o, b, nb, width, upper);
			return true;
		}
		if (n >= sizeof(s))
			return false;
		memcpy(s, t, n);
		s[n] = '\0';
		if (inet_pton(AF_INET6, s, b) != 1)
			return false;
		if (!map_16(r, b))
			o->oom = true;
		if (!inet_ntop(AF_INET6, b, s, sizeof(s)))
			return false;
		put(o, s, strlen(s));
		return true;
	}
	if (!parse_v4(t, n, b))
		return false;
	if (!map_v4(r, b))
		o->oom = true;
	snprintf(s, sizeof(s), "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	put(o, s, strlen(s));
	return true;
}

char *rd_redact_text(struct rd_redact *r, const char *t, size_t len,
		     size_t *outlen)
{
	struct buf o = { 0 };
	size_t i = 0;

	put(&o, "", 0);
	while (i < len && !o.oom) {
		const struct word *w = word_at(r, t, i, len);
		bool start = i == 0 || !(is_alnum(t[i - 1]) ||
					 t[i - 1] == '_' || t[i - 1] == '.');
		size_t j = i;

		if (w) {
			put(&o, w->alt, strlen(w->alt));
			i += w->len;
			continue;
		}
		if (!start || !(is_xdigit_c(t[i]) || t[i] == ':')) {
			put(&o, t + i, 1);
			i++;
			continue;
		}
		while (j < len &&
		       (is_xdigit_c(t[j]) || t[j] == ':' || t[j] == '.'))
			j++;
		while (j > i && t[j - 1] == '.') /* a sentence's full stop */
			j--;
		if (j < len && (is_alnum(t[j]) || t[j] == '_')) {
			/* part of a longer word: copy the word */
			while (j < len && (is_alnum(t[j]) || t[j] == '_'))
				j++;
			put(&o, t + i, j - i);
		} else if (!address(r, &o, t + i, j - i)) {
			put(&o, t + i, j - i);
		}
		i = j > i ? j : i + 1;
	}
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	*outlen = o.len;
	return o.p;
}

int rd_redact_learn(struct rd_redact *r, const char *text, size_t len)
{
	size_t n;
	char *t;

	r->learning = true;
	t = rd_redact_text(r, text, len, &n);
	r->learning = false;
	free(t);
	return t ? 0 : -ENOMEM;
}

/* ---- what a snapshot names ---- */

/* The serial number's bytes in a transceiver's memory map, page 00h. */
static bool serial_range(const char *spec, unsigned *first, unsigned *last)
{
	if (!spec)
		return false;
	if (strncmp(spec, "SFF-8472", 8) == 0) {
		*first = 68;
		*last = 83;
	} else if (strncmp(spec, "SFF-8636", 8) == 0 ||
		   strncmp(spec, "SFF-8436", 8) == 0) {
		*first = 196;
		*last = 211;
	} else if (strncmp(spec, "CMIS", 4) == 0) {
		*first = 166;
		*last = 181;
	} else {
		return false;
	}
	return true;
}

static void redact_pages(struct rd_xcvr *x, const char *alt)
{
	unsigned first, last;
	size_t altlen = strlen(alt);

	if (!serial_range(x->spec, &first, &last))
		return;
	for (size_t i = 0; i < x->n_pages; i++) {
		struct rd_xcvr_page *p = &x->pages[i];
		size_t nbytes;

		if (!p->hex || p->i2c != 0x50 || p->page != 0 || p->bank != 0)
			continue;
		nbytes = strlen(p->hex) / 2;
		for (unsigned a = first; a <= last; a++) {
			unsigned char c =
				a - first < altlen
					? (unsigned char)alt[a - first]
					: ' ';

			if (a < p->offset || a - p->offset >= nbytes)
				continue;
			p->hex[2 * (a - p->offset)] =
				"0123456789abcdef"[c >> 4];
			p->hex[2 * (a - p->offset) + 1] =
				"0123456789abcdef"[c & 15];
		}
	}
}

int rd_redact_snapshot(struct rd_redact *r, struct rd_snapshot *s)
{
	const char *h = s->host.hostname;

	if (h && strchr(h, '.')) {
		char shortname[256], fqdn[300];
		const char *a;

		snprintf(shortname, sizeof(shortname), "%.*s",
			 (int)(strchr(h, '.') - h), h);
		a = rd_redact_word(r, shortname, "host");
		if (a && !word_find(r, h)) {
			snprintf(fqdn, sizeof(fqdn), "%s.example.invalid", a);
			if (!word_add(r, h, fqdn))
				return -ENOMEM;
		}
	} else if (h) {
		rd_redact_word(r, h, "host");
	}
	for (size_t i = 0; i < s->n_pci; i++)
		rd_redact_word(r, s->pci[i].vpd_serial, "serial");
	for (size_t i = 0; i < s->n_devlinks; i++) {
		rd_redact_word(r, s->devlinks[i].serial, "serial");
		rd_redact_word(r, s->devlinks[i].board_serial, "serial");
	}
	for (size_t i = 0; i < s->n_netdevs; i++) {
		struct rd_xcvr *x = &s->netdevs[i].xcvr;
		const char *a = rd_redact_word(r, x->serial, "serial");

		if (a)
			redact_pages(x, a);
	}
	return 0;
}
