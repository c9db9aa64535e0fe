// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading data/counters.tsv, firmware.tsv, link_ext_state.tsv, wc_status.tsv,
 * mlx5_syndromes.tsv and kmsg.tsv.
 */
#include "config.h"
#include "diag/data.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/model.h"
#include "core/roots.h"

/* Far above any real table; a bigger file is refused, not truncated. */
#define DATA_MAX_BYTES (1u << 20)
#define MAX_COLS 8

/* Split a line at tabs in place; returns the column count or -E2BIG. */
static int split_tabs(char *line, char **col, int max)
{
	int n = 0;

	for (char *p = line;;) {
		char *tab = strchr(p, '\t');

		if (n == max)
			return -E2BIG;
		col[n++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static bool blank_or_comment(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return *l == '\0' || *l == '#';
}

/* A text member of a row and the column it is copied from (-1: the
 * row parser sets it). */
struct tsv_text {
	size_t off;
	int col;
};
#define TSV_TEXT_END (-2)

/*
 * One kind of table: its header, the row parser (it checks a line's
 * columns against the table so far and fills the values it computes into
 * a zeroed row), the row's text members, and what it does after parsing
 * and after freeing its rows.
 */
struct tsv_kind {
	const char *const *header;
	int ncols;
	int (*row)(const void *t, void *row, char **col, char *why,
		   size_t wl);
	const struct tsv_text *texts;
	size_t row_size;
	void (*parsed)(void *t);
	void (*freed)(void *t);
};

static void row_free(const struct tsv_kind *k, char *row)
{
	for (const struct tsv_text *x = k->texts; x->col != TSV_TEXT_END; x++)
		free(*(char **)(row + x->off));
}

/* A checked line appended to (*v, *n) with copies of its text columns. */
static int add_row(const struct tsv_kind *k, void *t, void **v, size_t *n,
		   char **col, char *why, size_t wl)
{
	char *row = calloc(1, k->row_size), *e;
	int r;

	if (!row)
		return -ENOMEM;
	r = k->row(t, row, col, why, wl);
	for (const struct tsv_text *x = k->texts;
	     r == 0 && x->col != TSV_TEXT_END; x++) {
		if (x->col < 0)
			continue;
		*(char **)(row + x->off) = strdup(col[x->col]);
		if (!*(char **)(row + x->off))
			r = -ENOMEM;
	}
	e = r == 0 ? rd_array_push(v, n, k->row_size) : NULL;
	if (e)
		memcpy(e, row, k->row_size);
	else
		row_free(k, row);
	free(row);
	return e ? 0 : r < 0 ? r : -ENOMEM;
}

/*
 * Walk the lines of text, appending a row for each data line to (*v, *n)
 * of the table t. The first data line is the header and must equal the
 * kind's header.
 */
static int parse_tsv(const char *name, const char *text,
		     const struct tsv_kind *k, void *t, void **v, size_t *n,
		     char *err, size_t errlen)
{
	const char *const *header = k->header;
	int ncols = k->ncols;

	char *copy = strdup(text), *line;
	unsigned long lineno = 0;
	bool seen_header = false;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	/* strsep keeps empty lines, so line numbers stay right. */
	for (char *p = copy; (line = strsep(&p, "\n")) != NULL;) {
		char *col[MAX_COLS], why[160] = "";
		size_t len = strlen(line);
		int got;

		lineno++;
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (blank_or_comment(line))
			continue;
		if (rd_text_check_lines(line, len) < 0) {
			snprintf(err, errlen, "%s:%lu: not text", name, lineno);
			r = -EINVAL;
			break;
		}
		got = split_tabs(line, col, MAX_COLS);
		if (got != ncols) {
			snprintf(err, errlen,
				 "%s:%lu: %d tab-separated columns, expected %d",
				 name, lineno, got < 0 ? MAX_COLS + 1 : got, ncols);
			r = -EINVAL;
			break;
		}
		if (!seen_header) {
			for (int i = 0; i < ncols; i++)
				if (strcmp(col[i], header[i]) != 0) {
					snprintf(err, errlen,
						 "%s:%lu: header column %d is \"%s\", expected \"%s\"",
						 name, lineno, i + 1, col[i],
						 header[i]);
					r = -EINVAL;
					goto out;
				}
			seen_header = true;
			continue;
		}
		r = add_row(k, t, v, n, col, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "%s:%lu: %s", name, lineno,
				 r == -ENOMEM ? "out of memory" : why);
			break;
		}
	}
	if (r == 0 && !seen_header) {
		snprintf(err, errlen, "%s: no header line", name);
		r = -EINVAL;
	}
out:
	/* A quoted value may have been cut mid-character by the buffer;
	 * on success err was never written. */
	if (r < 0 && errlen)
		rd_utf8_trim_cut(err);
	free(copy);
	return r;
}

static int parse_rate(const char *s, double *out, bool allow_none)
{
	if (allow_none && strcmp(s, "-") == 0) {
		*out = -1;
		return 0;
	}
	if (rd_parse_double(s, out) < 0 || *out < 0 || *out > 1e18)
		return -EINVAL;
	return 0;
}

static const char *const unit_names[RD_UNIT_COUNT] = {
	[RD_UNIT_EVENTS] = "events", [RD_UNIT_PACKETS] = "packets",
	[RD_UNIT_BYTES] = "bytes",   [RD_UNIT_WORDS] = "words",
	[RD_UNIT_BITS] = "bits",     [RD_UNIT_US] = "us",
	[RD_UNIT_NS] = "ns",	     [RD_UNIT_TICKS] = "ticks",
	[RD_UNIT_SECONDS] = "seconds", [RD_UNIT_PERCENT] = "percent",
	[RD_UNIT_INDEX] = "index",
};

const char *rd_counter_unit_name(enum rd_counter_unit u)
{
	return (unsigned)u < RD_UNIT_COUNT ? unit_names[u] : "unknown";
}

int rd_counter_unit_find(const char *name)
{
	for (int i = 0; name && i < RD_UNIT_COUNT; i++)
		if (strcmp(name, unit_names[i]) == 0)
			return i;
	return -1;
}

enum rd_counter_unit rd_counter_unit_of(const struct rd_counter_table *t,
					enum rd_counter_group group,
					const char *name)
{
	const struct rd_counter_info *ci =
		t ? rd_counter_info_find(t, group, name) : NULL;

	return ci ? ci->unit : RD_UNIT_EVENTS;
}

static int counter_row(const void *tp, void *rp, char **col, char *why,
		       size_t wl)
{
	struct rd_counter_info *ci = rp;
	bool bad;
	double warn, fail;
	int group, unit;

	if (!*col[0]) {
		snprintf(why, wl, "empty counter name");
		return -EINVAL;
	}
	group = rd_counter_group_find(col[1]);
	if (group < 0) {
		snprintf(why, wl,
			 "source \"%s\" is not counters, hw_counters or ethtool",
			 col[1]);
		return -EINVAL;
	}
	unit = rd_counter_unit_find(col[2]);
	if (unit < 0) {
		snprintf(why, wl, "unit \"%s\" is not one of bytes, words, "
			 "packets, bits, events, us, ns, ticks, seconds, "
			 "percent, index", col[2]);
		return -EINVAL;
	}
	if (strcmp(col[4], "yes") == 0) {
		bad = true;
	} else if (strcmp(col[4], "no") == 0) {
		bad = false;
	} else {
		snprintf(why, wl, "bad_when_rising \"%s\" is not yes or no",
			 col[4]);
		return -EINVAL;
	}
	if (parse_rate(col[5], &warn, true) < 0 ||
	    parse_rate(col[6], &fail, true) < 0) {
		snprintf(why, wl, "warn_rate/fail_rate \"%s\"/\"%s\" not a rate",
			 col[5], col[6]);
		return -EINVAL;
	}
	if (bad && warn < 0) {
		snprintf(why, wl, "a bad-when-rising counter needs a warn_rate");
		return -EINVAL;
	}
	if (fail >= 0 && warn >= 0 && fail < warn) {
		snprintf(why, wl, "fail_rate below warn_rate");
		return -EINVAL;
	}
	ci->bad_when_rising = bad;
	ci->warn_rate = warn;
	ci->fail_rate = fail;
	ci->group = (enum rd_counter_group)group;
	ci->unit = (enum rd_counter_unit)unit;
	return 0;
}

static int parse_id(const char *s, size_t len, uint64_t *out)
{
	char buf[8];

	if (len != 4)
		return -EINVAL;
	/* rd_parse_u64 would also take " 5b3" or "0x15" as four characters. */
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return rd_parse_u64(buf, 16, out);
}

static int fw_row(const void *tp, void *rp, char **col, char *why, size_t wl)
{
	const char *colon = strchr(col[0], ':');
	struct rd_fw_min *m = rp;
	uint64_t ven, dev;
	int dots = 0;

	if (!colon || parse_id(col[0], (size_t)(colon - col[0]), &ven) < 0 ||
	    parse_id(colon + 1, strlen(colon + 1), &dev) < 0) {
		snprintf(why, wl, "\"%s\" is not vendor:device (4 hex digits each)",
			 col[0]);
		return -EINVAL;
	}
	for (const char *p = col[2]; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p < '0' || *p > '9')
			dots = -100;
	}
	if (dots != 2 || col[2][0] == '.' ||
	    col[2][strlen(col[2]) - 1] == '.' || strstr(col[2], "..")) {
		snprintf(why, wl, "minimum \"%s\" is not MAJOR.MINOR.SUBMINOR",
			 col[2]);
		return -EINVAL;
	}
	m->vendor = ven;
	m->device = dev;
	return 0;
}

/* A small number column: 0..max. */
static int small_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 3 ||
	    rd_parse_u64(s, 10, &v) < 0 || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int link_ext_row(const void *tp, void *rp, char **col, char *why,
			size_t wl)
{
	const struct rd_link_ext_table *t = tp;
	const struct rd_link_ext *dup;
	struct rd_link_ext *e = rp;
	unsigned state, sub = 0;

	if (small_uint(col[0], 255, &state) < 0) {
		snprintf(why, wl, "state \"%s\" is not a number 0-255", col[0]);
		return -EINVAL;
	}
	if (strcmp(col[1], "-") != 0 &&
	    (small_uint(col[1], 255, &sub) < 0 || sub == 0)) {
		snprintf(why, wl, "substate \"%s\" is not - or 1-255", col[1]);
		return -EINVAL;
	}
	if (!*col[2] || !*col[3] || !*col[4]) {
		snprintf(why, wl, "empty uapi_name, summary or next_step");
		return -EINVAL;
	}
	dup = rd_link_ext_find(t, state, sub);
	if (dup && dup->substate == (sub ? (int)sub : -1)) {
		snprintf(why, wl, "state %u substate %s listed twice", state,
			 col[1]);
		return -EINVAL;
	}
	e->state = state;
	e->substate = sub ? (int)sub : -1;
	return 0;
}

const struct rd_link_ext *rd_link_ext_find(const struct rd_link_ext_table *t,
					   unsigned state, unsigned substate)
{
	const struct rd_link_ext *alone = NULL;

	for (size_t i = 0; t && i < t->n; i++) {
		if (t->v[i].state != state)
			continue;
		if (substate && t->v[i].substate == (int)substate)
			return &t->v[i];
		if (t->v[i].substate < 0)
			alone = &t->v[i];
	}
	return alone;
}

/* A comma list of cause ids, "-" = none: stored as "" then. */
static int cause_list(const char *s, char **out, char *why, size_t wl)
{
	if (strcmp(s, "-") == 0) {
		s = "";
	} else if (!*s ||
		   strspn(s, "abcdefghijklmnopqrstuvwxyz_,") != strlen(s)) {
		snprintf(why, wl, "causes \"%s\" is not - or a comma list of ids",
			 s);
		return -EINVAL;
	}
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

static int wc_status_row(const void *tp, void *rp, char **col, char *why,
			 size_t wl)
{
	const struct rd_wc_status_table *t = tp;
	struct rd_wc_status *e = rp;
	unsigned v;

	if (small_uint(col[0], 255, &v) < 0) {
		snprintf(why, wl, "value \"%s\" is not a number 0-255", col[0]);
		return -EINVAL;
	}
	if (strncmp(col[1], "IBV_WC_", 7) != 0 || !*col[2] || !*col[3]) {
		snprintf(why, wl, "name must start IBV_WC_; str and meaning non-empty");
		return -EINVAL;
	}
	if (rd_wc_status_find(t, v)) {
		snprintf(why, wl, "value %u listed twice", v);
		return -EINVAL;
	}
	e->value = v;
	return cause_list(col[4], &e->causes, why, wl);
}

const struct rd_wc_status *
rd_wc_status_find(const struct rd_wc_status_table *t, unsigned value)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].value == value)
			return &t->v[i];
	return NULL;
}

/* "0x15": two hex digits at most, as the CQE fields are bytes. */
static int hex_byte(const char *s, unsigned *out)
{
	uint64_t v;

	if (strncmp(s, "0x", 2) != 0 || !s[2] || strlen(s) > 4 ||
	    strspn(s + 2, "0123456789abcdef") != strlen(s + 2) ||
	    rd_parse_u64(s + 2, 16, &v) < 0)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int mlx5_row(const void *tp, void *rp, char **col, char *why, size_t wl)
{
	const struct rd_mlx5_table *t = tp;
	struct rd_mlx5_code *e = rp;
	bool vendor = strcmp(col[0], "vendor") == 0;
	unsigned v, st = 0;

	if (!vendor && strcmp(col[0], "syndrome") != 0) {
		snprintf(why, wl, "kind \"%s\" is not syndrome or vendor", col[0]);
		return -EINVAL;
	}
	if (hex_byte(col[1], &v) < 0) {
		snprintf(why, wl, "value \"%s\" is not 0x00-0xff", col[1]);
		return -EINVAL;
	}
	if (strcmp(col[3], "-") != 0 && small_uint(col[3], 255, &st) < 0) {
		snprintf(why, wl, "wc_status \"%s\" is not - or 0-255", col[3]);
		return -EINVAL;
	}
	if (!*col[2] || !*col[4]) {
		snprintf(why, wl, "empty name or meaning");
		return -EINVAL;
	}
	if (rd_mlx5_find(t, vendor, v)) {
		snprintf(why, wl, "%s %s listed twice", col[0], col[1]);
		return -EINVAL;
	}
	e->vendor = vendor;
	e->value = v;
	e->wc_status = strcmp(col[3], "-") == 0 ? -1 : (int)st;
	return cause_list(col[5], &e->causes, why, wl);
}

const struct rd_mlx5_code *rd_mlx5_find(const struct rd_mlx5_table *t,
					bool vendor, unsigned value)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].vendor == vendor && t->v[i].value == value)
			return &t->v[i];
	return NULL;
}

static const char *const kmsg_kinds[RD_KMSG_KINDS] = {
	"module", "link",	"firmware",   "health",	    "aer",
	"pcie_link", "tx_timeout", "cmd_fail", "probe_fail", "other",
};

static const char *const kmsg_severities[RD_KMSG_SEVERITIES] = {
	"info", "warn", "error", "fatal",
};

const char *rd_kmsg_kind_name(enum rd_kmsg_kind k)
{
	return (unsigned)k < RD_KMSG_KINDS ? kmsg_kinds[k] : "other";
}

const char *rd_kmsg_severity_name(enum rd_kmsg_severity s)
{
	return (unsigned)s < RD_KMSG_SEVERITIES ? kmsg_severities[s] : "info";
}

static int word_of(const char *const *words, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(words[i], s) == 0)
			return i;
	return -1;
}

static int kmsg_row(const void *tp, void *rp, char **col, char *why, size_t wl)
{
	struct rd_kmsg_class *e = rp;
	int kind = word_of(kmsg_kinds, RD_KMSG_KINDS, col[2]);
	int sev = word_of(kmsg_severities, RD_KMSG_SEVERITIES, col[3]);

	(void)tp;
	if (!*col[0] || !*col[1] || !*col[4] || !*col[5]) {
		snprintf(why, wl, "empty driver, pattern, meaning or next_step");
		return -EINVAL;
	}
	if (kind < 0) {
		snprintf(why, wl, "kind \"%s\" is not one of module, link, "
			 "firmware, health, aer, pcie_link, tx_timeout, "
			 "cmd_fail, probe_fail, other", col[2]);
		return -EINVAL;
	}
	if (sev < 0) {
		snprintf(why, wl, "severity \"%s\" is not info, warn, error or fatal",
			 col[3]);
		return -EINVAL;
	}
	if (!*col[6] || strspn(col[6], "abcdefghijklmnopqrstuvwxyz0123456789_.,") !=
			       strlen(col[6])) {
		snprintf(why, wl, "checks \"%s\" is not a comma list of check ids",
			 col[6]);
		return -EINVAL;
	}
	e->kind = (enum rd_kmsg_kind)kind;
	e->severity = (enum rd_kmsg_severity)sev;
	return 0;
}

const struct rd_kmsg_class *rd_kmsg_classify(const struct rd_kmsg_table *t,
					     const char *message)
{
	char first[64];
	size_t n;

	if (!t || !message)
		return NULL;
	n = strcspn(message, " ");
	if (n >= sizeof(first))
		n = sizeof(first) - 1;
	memcpy(first, message, n);
	first[n] = '\0';
	for (size_t i = 0; i < t->n; i++)
		if (fnmatch(t->v[i].driver, first, 0) == 0 &&
		    fnmatch(t->v[i].pattern, message, 0) == 0)
			return &t->v[i];
	return NULL;
}

static const struct rd_counter_info *
counter_info_scan(const struct rd_counter_table *t,
		  enum rd_counter_group group, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].group == group &&
		    fnmatch(t->v[i].name, name, 0) == 0)
			return &t->v[i];
	return NULL;
}

/*
 * Answers by (group, name): open addressing, kept at most half full. A
 * host's counter names are a few thousand; past LOOKUP_MAX the table stops
 * remembering and scans, so hostile names cannot grow it without bound.
 */
#define LOOKUP_MAX 65536

struct lookup_slot {
	char *name;		/* NULL: empty */
	uint32_t hash;
	enum rd_counter_group group;
	const struct rd_counter_info *info;	/* NULL: no row matches */
};

struct rd_counter_lookup {
	pthread_mutex_t lock;
	struct lookup_slot *slot;
	size_t cap, used;	/* cap: a power of two, or 0 */
};

static uint32_t lookup_hash(enum rd_counter_group group, const char *name)
{
	uint32_t h = 2166136261u ^ (uint32_t)group;	/* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static struct lookup_slot *lookup_probe(struct lookup_slot *slot, size_t cap,
					uint32_t h,
					enum rd_counter_group group,
					const char *name)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!slot[i].name ||
		    (slot[i].hash == h && slot[i].group == group &&
		     strcmp(slot[i].name, name) == 0))
			return &slot[i];
}

static int lookup_grow(struct rd_counter_lookup *c)
{
	size_t cap = c->cap ? c->cap * 2 : 512;
	struct lookup_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].name)
			*lookup_probe(s, cap, c->slot[i].hash, c->slot[i].group,
				      c->slot[i].name) = c->slot[i];
	free(c->slot);
	c->slot = s;
	c->cap = cap;
	return 0;
}

/* Remember an answer; out of memory or full, the next ask scans again. */
static void lookup_add(struct rd_counter_lookup *c, uint32_t h,
		       enum rd_counter_group group, const char *name,
		       const struct rd_counter_info *info)
{
	struct lookup_slot *sl;
	char *copy;

	if (c->used >= LOOKUP_MAX ||
	    ((c->used + 1) * 2 > c->cap && lookup_grow(c) < 0))
		return;
	copy = strdup(name);
	if (!copy)
		return;
	sl = lookup_probe(c->slot, c->cap, h, group, name);
	*sl = (struct lookup_slot){ copy, h, group, info };
	c->used++;
}

static struct rd_counter_lookup *lookup_new(void)
{
	struct rd_counter_lookup *c = calloc(1, sizeof(*c));

	if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
		free(c);
		c = NULL;
	}
	return c;
}

static void lookup_free(struct rd_counter_lookup *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		free(c->slot[i].name);
	free(c->slot);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

const struct rd_counter_info *
rd_counter_info_find(const struct rd_counter_table *t,
		     enum rd_counter_group group, const char *name)
{
	struct rd_counter_lookup *c = t ? t->lookup : NULL;
	const struct rd_counter_info *info;
	struct lookup_slot *sl;
	uint32_t h;

	if (!t || !name)
		return NULL;
	if (!c)
		return counter_info_scan(t, group, name);
	h = lookup_hash(group, name);
	pthread_mutex_lock(&c->lock);
	sl = c->cap ? lookup_probe(c->slot, c->cap, h, group, name) : NULL;
	if (sl && sl->name) {
		info = sl->info;
	} else {
		info = counter_info_scan(t, group, name);
		lookup_add(c, h, group, name, info);
	}
	pthread_mutex_unlock(&c->lock);
	return info;
}

static int load(const char *path, char **text, char *err, size_t errlen)
{
	size_t len;
	int r = rd_read_file(path, DATA_MAX_BYTES, text, &len);

	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (strlen(*text) != len) {
		snprintf(err, errlen, "%s: contains a NUL byte", path);
		free(*text);
		*text = NULL;
		return -EINVAL;
	}
	return 0;
}

/* Read a data file whole, then hand its text to the table's parser. */
static int load_with(const char *path, void *t, int (*parse)(const char *,
							   const char *, void *,
							   char *, size_t),
		     char *err, size_t errlen)
{
	char *text = NULL;
	int r = load(path, &text, err, errlen);

	if (r < 0)
		return r;
	r = parse(path, text, t, err, errlen);
	free(text);
	return r;
}

static void tsv_free(const struct tsv_kind *k, void *t, void **v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		row_free(k, (char *)*v + i * k->row_size);
	free(*v);
	*v = NULL;
	*n = 0;
	if (k->freed)
		k->freed(t);
}

/* The rows (*v, *n) of the empty table t from text; on failure none. */
static int tsv_parse(const struct tsv_kind *k, const char *name,
		     const char *text, void *t, void **v, size_t *n, char *err,
		     size_t errlen)
{
	int r = parse_tsv(name, text, k, t, v, n, err, errlen);

	if (r < 0)
		tsv_free(k, t, v, n);
	else if (k->parsed)
		k->parsed(t);
	return r;
}

static void counter_table_parsed(void *t)
{
	((struct rd_counter_table *)t)->lookup = lookup_new();	/* none: scans */
}

static void counter_table_freed(void *t)
{
	struct rd_counter_table *c = t;

	lookup_free(c->lookup);
	c->lookup = NULL;
}

enum { TSV_COUNTER, TSV_FW, TSV_LINK_EXT, TSV_WC_STATUS, TSV_MLX5, TSV_KMSG };

#define HEADER(...) (const char *const[]){ __VA_ARGS__ }
/* A row's text members, each with the column it is copied from. */
#define TEXT(T, m, col) { offsetof(T, m), (col) }
#define TEXTS(...) (const struct tsv_text[]){ __VA_ARGS__, { 0, TSV_TEXT_END } }

/* Each table's header (the first line, exactly), row parser and texts. */
static const struct tsv_kind tsv_kinds[] = {
	[TSV_COUNTER] = { HEADER("name", "source", "unit", "meaning",
				 "bad_when_rising", "warn_rate", "fail_rate",
				 "hint"),
			  8, counter_row,
			  TEXTS(TEXT(struct rd_counter_info, name, 0),
				TEXT(struct rd_counter_info, meaning, 3),
				TEXT(struct rd_counter_info, hint, 7)),
			  sizeof(struct rd_counter_info), counter_table_parsed,
			  counter_table_freed },
	[TSV_FW] = { HEADER("pci_id", "family", "min_fw", "why"), 4, fw_row,
		     TEXTS(TEXT(struct rd_fw_min, family, 1),
			   TEXT(struct rd_fw_min, min_fw, 2),
			   TEXT(struct rd_fw_min, why, 3)),
		     sizeof(struct rd_fw_min), NULL, NULL },
	[TSV_LINK_EXT] = { HEADER("state", "substate", "uapi_name", "summary",
				  "next_step"),
			   5, link_ext_row,
			   TEXTS(TEXT(struct rd_link_ext, uapi_name, 2),
				 TEXT(struct rd_link_ext, summary, 3),
				 TEXT(struct rd_link_ext, next_step, 4)),
			   sizeof(struct rd_link_ext), NULL, NULL },
	/* causes: set by the row parser ("-" is stored as ""). */
	[TSV_WC_STATUS] = { HEADER("value", "name", "str", "meaning", "causes"),
			    5, wc_status_row,
			    TEXTS(TEXT(struct rd_wc_status, name, 1),
				  TEXT(struct rd_wc_status, str, 2),
				  TEXT(struct rd_wc_status, meaning, 3),
				  TEXT(struct rd_wc_status, causes, -1)),
			    sizeof(struct rd_wc_status), NULL, NULL },
	[TSV_MLX5] = { HEADER("kind", "value", "name", "wc_status", "meaning",
			      "causes"),
		       6, mlx5_row,
		       TEXTS(TEXT(struct rd_mlx5_code, name, 2),
			     TEXT(struct rd_mlx5_code, meaning, 4),
			     TEXT(struct rd_mlx5_code, causes, -1)),
		       sizeof(struct rd_mlx5_code), NULL, NULL },
	[TSV_KMSG] = { HEADER("driver", "pattern", "kind", "severity", "meaning",
			      "next_step", "checks"),
		       7, kmsg_row,
		       TEXTS(TEXT(struct rd_kmsg_class, driver, 0),
			     TEXT(struct rd_kmsg_class, pattern, 1),
			     TEXT(struct rd_kmsg_class, meaning, 4),
			     TEXT(struct rd_kmsg_class, next_step, 5),
			     TEXT(struct rd_kmsg_class, checks, 6)),
		       sizeof(struct rd_kmsg_class), NULL, NULL },
};

/*
 * A table type's public functions: rd_<tname>_table_free,
 * rd_<pname>_tsv_parse, and rd_<pname>_tsv_load with its parser behind
 * the void * that load_with and the process-wide slots take.
 */
#define TSV_TABLE(tname, pname, T, k)                                         \
	void rd_##tname##_table_free(T *t)                                    \
	{                                                                     \
		if (t)                                                        \
			tsv_free(&tsv_kinds[k], t, (void **)&t->v, &t->n);    \
	}                                                                     \
	int rd_##pname##_tsv_parse(const char *name, const char *text, T *t,  \
				   char *err, size_t errlen)                  \
	{                                                                     \
		*t = (T){ 0 };                                                \
		return tsv_parse(&tsv_kinds[k], name, text, t,                \
				 (void **)&t->v, &t->n, err, errlen);         \
	}                                                                     \
	static int pname##_parse_v(const char *n, const char *text, void *t,  \
				   char *err, size_t el)                      \
	{                                                                     \
		return rd_##pname##_tsv_parse(n, text, t, err, el);           \
	}                                                                     \
	int rd_##pname##_tsv_load(const char *path, T *t, char *err,          \
				  size_t errlen)                              \
	{                                                                     \
		*t = (T){ 0 };                                                \
		return load_with(path, t, pname##_parse_v, err, errlen);      \
	}

TSV_TABLE(counter, counters, struct rd_counter_table, TSV_COUNTER)
TSV_TABLE(fw, firmware, struct rd_fw_table, TSV_FW)
TSV_TABLE(link_ext, link_ext, struct rd_link_ext_table, TSV_LINK_EXT)
TSV_TABLE(wc_status, wc_status, struct rd_wc_status_table, TSV_WC_STATUS)
TSV_TABLE(mlx5, mlx5, struct rd_mlx5_table, TSV_MLX5)
TSV_TABLE(kmsg, kmsg, struct rd_kmsg_table, TSV_KMSG)

bool rd_counter_bad_when_rising(const struct rd_counter_table *t,
				enum rd_counter_group group, const char *name)
{
	const struct rd_counter_info *ci =
		t ? rd_counter_info_find(t, group, name) : NULL;

	return ci && ci->bad_when_rising;
}

const struct rd_fw_min *rd_fw_min_find(const struct rd_fw_table *t,
				       uint64_t vendor, uint64_t device)
{
	if (!t)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].vendor == vendor && t->v[i].device == device)
			return &t->v[i];
	return NULL;
}

int rd_data_path(const char *file, char *buf, size_t size)
{
	const char *env = rd_env_untrusted() ? NULL : getenv("RDMADIAG_DATADIR");
	const char *dirs[] = { env, RD_DATADIR, RD_SRCDATADIR };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int n;

		if (!dirs[i] || !*dirs[i])
			continue;
		n = snprintf(buf, size, "%s/%s", dirs[i], file);
		if (n < 0 || (size_t)n >= size)
			continue;
		/* An explicit override is used even if missing: say so. */
		if (i == 0 || access(buf, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

static struct rd_counter_table g_counters;
static struct rd_fw_table g_fw;
static struct rd_link_ext_table g_link;
static struct rd_wc_status_table g_wc;
static struct rd_mlx5_table g_mlx5;
static struct rd_kmsg_table g_kmsg;
static char g_err[512];

/* One process-wide table, loaded on first use. */
struct data_slot {
	const char *file;
	int (*parse)(const char *, const char *, void *, char *, size_t);
	void *table;
	bool tried, ok;
};

static struct data_slot g_slots[] = {
	{ "counters.tsv", counters_parse_v, &g_counters, false, false },
	{ "firmware.tsv", firmware_parse_v, &g_fw, false, false },
	{ "link_ext_state.tsv", link_ext_parse_v, &g_link, false, false },
	{ "wc_status.tsv", wc_status_parse_v, &g_wc, false, false },
	{ "mlx5_syndromes.tsv", mlx5_parse_v, &g_mlx5, false, false },
	{ "kmsg.tsv", kmsg_parse_v, &g_kmsg, false, false },
};

static const void *data_get(struct data_slot *d)
{
	char path[4096];

	if (!d->tried) {
		d->tried = true;
		if (rd_data_path(d->file, path, sizeof(path)) < 0)
			snprintf(g_err, sizeof(g_err),
				 "%s not found in the data directory", d->file);
		else
			d->ok = load_with(path, d->table, d->parse, g_err,
					  sizeof(g_err)) == 0;
	}
	return d->ok ? d->table : NULL;
}

const struct rd_counter_table *rd_data_counters(void)
{
	return data_get(&g_slots[0]);
}

const struct rd_fw_table *rd_data_firmware(void)
{
	return data_get(&g_slots[1]);
}

const struct rd_link_ext_table *rd_data_link_ext(void)
{
	return data_get(&g_slots[2]);
}

const struct rd_wc_status_table *rd_data_wc_status(void)
{
	return data_get(&g_slots[3]);
}

const struct rd_mlx5_table *rd_data_mlx5(void)
{
	return data_get(&g_slots[4]);
}

const struct rd_kmsg_table *rd_data_kmsg(void)
{
	return data_get(&g_slots[5]);
}

const char *rd_data_error(void)
{
	return g_err[0] ? g_err : NULL;
}

void rd_data_set(struct rd_counter_table *c, struct rd_fw_table *f)
{
	rd_counter_table_free(&g_counters);
	rd_fw_table_free(&g_fw);
	g_slots[0].tried = g_slots[1].tried = false;
	g_slots[0].ok = g_slots[1].ok = false;
	g_err[0] = '\0';
	if (c) {
		g_counters = *c;
		g_slots[0].tried = g_slots[0].ok = true;
	}
	if (f) {
		g_fw = *f;
		g_slots[1].tried = g_slots[1].ok = true;
	}
}
