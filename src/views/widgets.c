// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "views/widgets.h"

#include <curses.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

static int style_attr[W_STYLE_COUNT];
static bool use_utf8;

void w_init(bool color, bool utf8)
{
	/* Monochrome: bold for warnings, underline for failures, reverse
	 * for the selection and the current tab, so the title is not. */
	static int mono[W_STYLE_COUNT] = {
		[W_NORMAL] = A_NORMAL,	  [W_GOOD] = A_NORMAL,
		[W_WARN] = A_BOLD,	  [W_BAD] = A_BOLD | A_UNDERLINE,
		[W_DIM] = A_DIM,	  [W_TITLE] = A_UNDERLINE,
		[W_BAR] = A_REVERSE,	  [W_BARKEY] = A_NORMAL,
		[W_SEL] = A_REVERSE,	  [W_HEAD] = A_UNDERLINE,
		[W_TAG] = A_BOLD,	  [W_BANNER_BAD] = A_BOLD | A_REVERSE,
		[W_BANNER_OK] = A_NORMAL,
	};
	static const struct {
		short fg, bg;
		int extra;
	} pairs[W_STYLE_COUNT] = {
		[W_NORMAL] = { -1, -1, 0 },
		[W_GOOD] = { COLOR_GREEN, -1, 0 },
		[W_WARN] = { COLOR_YELLOW, -1, A_BOLD },
		[W_BAD] = { COLOR_RED, -1, A_BOLD },
		[W_DIM] = { -1, -1, A_DIM },
		[W_TITLE] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[W_BAR] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[W_BARKEY] = { COLOR_WHITE, COLOR_BLACK, A_BOLD },
		[W_SEL] = { COLOR_BLACK, COLOR_WHITE, 0 },
		[W_HEAD] = { COLOR_CYAN, -1, A_BOLD },
		[W_TAG] = { COLOR_BLACK, COLOR_YELLOW, A_BOLD },
		[W_BANNER_BAD] = { COLOR_WHITE, COLOR_RED, A_BOLD },
		[W_BANNER_OK] = { COLOR_GREEN, -1, 0 },
	};

	/* A terminal without a dim attribute draws dim text as it is:
	 * never as a colour that could be read as a state. */
	bool dim = (termattrs() & A_DIM) != 0;

	use_utf8 = utf8;
	mono[W_DIM] = dim ? A_DIM : A_NORMAL;
	if (!color || !has_colors() || start_color() == ERR) {
		memcpy(style_attr, mono, sizeof(style_attr));
		return;
	}
	use_default_colors();
	for (int i = 0; i < W_STYLE_COUNT; i++) {
		if (i == W_NORMAL) {
			style_attr[i] = A_NORMAL;
			continue;
		}
		if (i >= COLOR_PAIRS) {
			style_attr[i] = mono[i];
			continue;
		}
		init_pair((short)i, pairs[i].fg, pairs[i].bg);
		style_attr[i] = (int)COLOR_PAIR(i) | pairs[i].extra;
		if (i == W_DIM && !dim)
			style_attr[i] = A_NORMAL;
	}
}

bool w_utf8(void)
{
	return use_utf8;
}

int w_attr(enum w_style s)
{
	return (unsigned)s < W_STYLE_COUNT ? style_attr[s] : (int)A_NORMAL;
}

/* Bytes of text that fit in max columns (one column per code point). */
static size_t fit_bytes(const char *text, int max, int *cols)
{
	size_t i = 0;
	int c = 0;

	while (text[i] && c < max) {
		unsigned char b = (unsigned char)text[i++];

		if (b >= 0xc0)
			while ((text[i] & 0xc0) == 0x80)
				i++;
		c++;
	}
	*cols = c;
	return i;
}

/* ASCII stand-ins for the glyphs that reach the screen. */
static const struct {
	uint32_t cp;
	const char *ascii;
} ascii_glyphs[] = {
	{ 0x00a0, " " },   { 0x00b5, "u" },   { 0x00d7, "x" },
	{ 0x2010, "-" },   { 0x2011, "-" },   { 0x2013, "-" },
	{ 0x2014, "-" },   { 0x2018, "'" },   { 0x2019, "'" },
	{ 0x201c, "\"" },  { 0x201d, "\"" },  { 0x2022, "*" },
	{ 0x2026, "..." }, { 0x2190, "<-" },  { 0x2192, "->" },
	{ 0x2264, "<=" },  { 0x2265, ">=" },
};

static const char *ascii_for(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(ascii_glyphs) / sizeof(ascii_glyphs[0]);
	     i++)
		if (ascii_glyphs[i].cp == cp)
			return ascii_glyphs[i].ascii;
	if (cp == 0x2500 || cp == 0x2501)
		return "-";
	if (cp == 0x2502 || cp == 0x2503)
		return "|";
	if (cp > 0x2500 && cp < 0x2580)
		return "+"; /* box corners and joints */
	if (cp >= 0x2580 && cp < 0x25a0)
		return "#"; /* block elements (graphs) */
	return "?";
}

/* Text with every code point above 127 replaced by its ASCII stand-in. */
static void to_ascii(const char *text, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t len = strlen(text), o = 0;

	while (*p && o + 1 < size) {
		uint32_t cp;
		size_t n = rd_utf8_seq(p, len, &cp);
		const char *a;
		size_t al;

		if (*p < 0x80 || !n) {
			out[o++] = *p < 0x80 ? (char)*p : '?';
			n = n ? n : 1;
		} else {
			a = ascii_for(cp);
			al = strlen(a);
			if (o + al + 1 > size)
				break;
			memcpy(out + o, a, al);
			o += al;
		}
		p += n;
		len -= n;
	}
	out[o] = '\0';
}

int w_fit(const char *text, int width, bool utf8, char *out, size_t size)
{
	const char *ell = utf8 ? "\u2026" : "...";
	size_t ell_len = strlen(ell), bytes, len;
	int ell_cols = utf8 ? 1 : 3, keep;
	char save;

	if (!size)
		return 0;
	out[0] = '\0';
	if (!text || width <= 0 || size < 4)
		return 0;
	if (utf8) {
		snprintf(out, size, "%s", text);
		rd_utf8_trim_cut(out);
	} else {
		to_ascii(text, out, size);
	}
	/* Trailing blanks are padding, not text: cutting them loses nothing. */
	len = strlen(out);
	while (len && out[len - 1] == ' ')
		len--;
	save = out[len];
	out[len] = '\0';
	fit_bytes(out, INT_MAX, &keep);
	out[len] = save;
	if (keep <= width) {
		bytes = fit_bytes(out, width, &keep);
		out[bytes] = '\0';
		return keep;
	}
	if (width <= ell_cols) {
		memset(out, '.', (size_t)width);
		out[width] = '\0';
		return width;
	}
	bytes = fit_bytes(out, width - ell_cols, &keep);
	while (bytes && out[bytes - 1] == ' ') {
		bytes--;
		keep--;
	}
	/* Room for the mark: give back whole characters. */
	while (bytes && bytes + ell_len + 1 > size) {
		do
			bytes--;
		while (bytes && ((unsigned char)out[bytes] & 0xc0) == 0x80);
		keep--;
	}
	memcpy(out + bytes, ell, ell_len + 1);
	return keep + ell_cols;
}

int w_print(const struct rd_rect *r, int row, int col, enum w_style s,
	    const char *text)
{
	char esc[RD_ESC_MAX * 4], fitted[RD_ESC_MAX * 4];
	int cols;

	if (!text || row < 0 || row >= r->h || col < 0 || col >= r->w)
		return 0;
	/* The one way text reaches the screen: control bytes and invalid
	 * UTF-8 are shown as escapes, never sent to the terminal. */
	if (!rd_text_clean(text, strlen(text))) {
		rd_esc(esc, sizeof(esc), text);
		text = esc;
	}
	cols = w_fit(text, r->w - col, use_utf8, fitted, sizeof(fitted));
	attrset(w_attr(s));
	mvaddstr(r->y + row, r->x + col, fitted);
	attrset(A_NORMAL);
	return cols;
}

int w_printf(const struct rd_rect *r, int row, int col, enum w_style s,
	     const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return w_print(r, row, col, s, buf);
}

void w_fill_row(const struct rd_rect *r, int row, enum w_style s)
{
	if (row < 0 || row >= r->h)
		return;
	attrset(w_attr(s));
	mvhline(r->y + row, r->x, ' ', r->w);
	attrset(A_NORMAL);
}

void w_box(const struct rd_rect *r, const char *title)
{
	chtype h = use_utf8 ? ACS_HLINE : '-', v = use_utf8 ? ACS_VLINE : '|';
	chtype c[4] = { ACS_ULCORNER, ACS_URCORNER, ACS_LLCORNER,
			ACS_LRCORNER };

	if (r->h < 2 || r->w < 2)
		return;
	/* Without UTF-8 the box is plain ASCII, as --ascii promises. */
	if (!use_utf8)
		c[0] = c[1] = c[2] = c[3] = '+';
	mvhline(r->y, r->x + 1, h, r->w - 2);
	mvhline(r->y + r->h - 1, r->x + 1, h, r->w - 2);
	mvvline(r->y + 1, r->x, v, r->h - 2);
	mvvline(r->y + 1, r->x + r->w - 1, v, r->h - 2);
	mvaddch(r->y, r->x, c[0]);
	mvaddch(r->y, r->x + r->w - 1, c[1]);
	mvaddch(r->y + r->h - 1, r->x, c[2]);
	mvaddch(r->y + r->h - 1, r->x + r->w - 1, c[3]);
	if (title && r->w > 6) {
		struct rd_rect t = { r->y, r->x + 2, 1, r->w - 4 };

		w_printf(&t, 0, 0, W_HEAD, " %s ", title);
	}
}

void w_columns_fit(struct w_column *cols, size_t n, int width)
{
	int used = 0, spare;
	bool grew = true;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		used += cols[i].width + (i + 1 < n ? 1 : 0);
	spare = width - used;
	/* One column at a time, so several wide ones share what is spare. */
	while (spare > 0 && grew) {
		grew = false;
		for (size_t i = 0; i + 1 < n && spare > 0; i++)
			if (cols[i].want > cols[i].width) {
				cols[i].width++;
				spare--;
				grew = true;
			}
	}
}

bool w_table_key(struct w_table *t, int ch, size_t n, int page)
{
	size_t step = page > 1 ? (size_t)page - 1 : 1;

	switch (ch) {
	case KEY_UP:
		if (t->sel)
			t->sel--;
		break;
	case KEY_DOWN:
		t->sel++;
		break;
	case KEY_PPAGE:
		t->sel = t->sel > step ? t->sel - step : 0;
		break;
	case KEY_NPAGE:
		t->sel += step;
		break;
	case KEY_HOME:
		t->sel = 0;
		break;
	case KEY_END:
		t->sel = n ? n - 1 : 0;
		break;
	default:
		return false;
	}
	if (n && t->sel >= n)
		t->sel = n - 1;
	if (!n)
		t->sel = 0;
	return true;
}

void w_table_scroll(struct w_table *t, size_t n, int h)
{
	size_t rows = h > 0 ? (size_t)h : 1;

	if (n == 0) {
		t->sel = t->top = 0;
		return;
	}
	if (t->sel >= n)
		t->sel = n - 1;
	if (t->top > t->sel)
		t->top = t->sel;
	if (t->sel >= t->top + rows)
		t->top = t->sel - rows + 1;
	if (t->top + rows > n)
		t->top = n > rows ? n - rows : 0;
}

static void cells(const struct rd_rect *r, int row, const struct w_column *cols,
		  size_t ncols, const char *const *text,
		  const enum w_style *styles, enum w_style base)
{
	int x = 0;

	for (size_t i = 0; i < ncols && x < r->w; i++) {
		int w = i + 1 == ncols ? r->w - x : cols[i].width;
		const char *t = text[i] ? text[i] : "";
		enum w_style s = styles ? styles[i] : base;
		struct rd_rect c = { r->y, r->x + x, r->h, w };
		char fitted[512];
		int used;

		if (w > r->w - x)
			w = c.w = r->w - x;
		/* A failing cell stays red when selected (red behind it). */
		if (base == W_SEL)
			s = s == W_BAD ? W_BANNER_BAD : W_SEL;
		used = w_fit(t, w, use_utf8, fitted, sizeof(fitted));
		if (cols[i].right && used < w - 1)
			w_print(&c, row, w - 1 - used, s, t);
		else
			w_print(&c, row, 0, s, t);
		x += w + (i + 1 == ncols ? 0 : 1);
	}
}

void w_table_header(const struct rd_rect *r, int row,
		    const struct w_column *cols, size_t ncols)
{
	const char *text[32];

	for (size_t i = 0; i < ncols && i < 32; i++)
		text[i] = cols[i].title;
	cells(r, row, cols, ncols < 32 ? ncols : 32, text, NULL, W_HEAD);
}

void w_table_row(const struct rd_rect *r, int row, const struct w_column *cols,
		 size_t ncols, const char *const *text,
		 const enum w_style *styles, bool selected)
{
	if (selected)
		w_fill_row(r, row, W_SEL);
	cells(r, row, cols, ncols, text, styles, selected ? W_SEL : W_NORMAL);
}

size_t w_wrap(const char *text, int width, char lines[][256], size_t max)
{
	size_t n = 0;
	const char *p = text ? text : "";

	if (width < 1)
		width = 1;
	if (width > 255)
		width = 255;
	while (*p && n < max) {
		const char *nl = strchr(p, '\n');
		size_t seg = nl ? (size_t)(nl - p) : strlen(p);
		size_t take = seg;

		if (take > (size_t)width) {
			take = (size_t)width;
			/* Break at the last blank that fits, if any. */
			for (size_t k = take; k > 0; k--)
				if (p[k] == ' ') {
					take = k;
					break;
				}
		}
		memcpy(lines[n], p, take);
		lines[n][take] = '\0';
		n++;
		p += take;
		if (*p == ' ' || (*p == '\n' && take == seg))
			p++;
	}
	return n;
}

void w_dialog(int rows, int cols, const char *title, const char *const *lines,
	      size_t n, const char *choices)
{
	static char wrapped[40][256];
	size_t nw = 0;
	int w = cols - 4 < 76 ? cols - 4 : 76, h;
	struct rd_rect box, in;

	if (w < 20)
		return;
	for (size_t i = 0; i < n && nw < 40; i++) {
		size_t k = w_wrap(lines[i] && *lines[i] ? lines[i] : " ", w - 4,
				  wrapped + nw, 40 - nw);
		nw += k;
	}
	h = (int)nw + 4;
	if (h > rows - 2)
		h = rows - 2;
	if (h < 4)
		return;
	box = (struct rd_rect){ (rows - h) / 2, (cols - w) / 2, h, w };
	for (int y = 0; y < h; y++)
		mvhline(box.y + y, box.x, ' ', w);
	w_box(&box, title);
	in = (struct rd_rect){ box.y + 1, box.x + 2, h - 2, w - 4 };
	for (int i = 0; i < (int)nw && i < in.h - 1; i++)
		w_print(&in, i, 0, W_NORMAL, wrapped[i]);
	if (choices)
		w_print(&in, in.h - 1, 0, W_HEAD, choices);
}

size_t w_spark(const double *v, size_t n, int width, bool utf8, char *out,
	       size_t outlen)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583",
					      "\u2584", "\u2585", "\u2586",
					      "\u2587", "\u2588" };
	static const char ascii[] = "_.-:=+*#";
	double max = 0;
	size_t pos = 0, first;

	if (!outlen)
		return 0;
	out[0] = '\0';
	if (width <= 0)
		return 0;
	first = n > (size_t)width ? n - (size_t)width : 0;
	for (size_t i = first; i < n; i++)
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
	for (int c = 0; c < width; c++) {
		/* Right-aligned: blanks where there is no history yet. */
		long k = (long)c - (width - (long)(n - first));
		const char *cell;
		char one[2] = { ' ', '\0' };
		size_t len;

		if (k < 0 || isnan(v[first + (size_t)k])) {
			/* No history yet, or a sample not read: a gap. */
			cell = " ";
		} else {
			double x = v[first + (size_t)k];
			int level = 0;

			if (isfinite(x) && x > 0 && max > 0) {
				level = (int)ceil(x / max * 8.0) - 1;
				if (level < 0)
					level = 0;
				if (level > 7)
					level = 7;
			}
			if (utf8) {
				cell = blocks[level];
			} else {
				one[0] = ascii[level];
				cell = one;
			}
		}
		len = strlen(cell);
		if (pos + len + 1 > outlen)
			break;
		memcpy(out + pos, cell, len);
		pos += len;
	}
	out[pos] = '\0';
	return pos;
}

void w_fmt_si(double v, char *buf, size_t size)
{
	static const char units[] = " kMGTPE";
	int u = 0;
	double a;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return;
	}
	a = fabs(v);
	while (a >= 999.5 && u < 6) {
		a /= 1000.0;
		v /= 1000.0;
		u++;
	}
	if (u == 0) {
		if (v == floor(v))
			snprintf(buf, size, "%.0f", v);
		else
			snprintf(buf, size, "%.1f", v);
	} else if (a < 9.995) {
		snprintf(buf, size, "%.2f%c", v, units[u]);
	} else if (a < 99.95) {
		snprintf(buf, size, "%.1f%c", v, units[u]);
	} else {
		snprintf(buf, size, "%.0f%c", v, units[u]);
	}
}

/* "9.17 G" + unit: a prefix on the unit, for data ("GB", "Gb/s"). */
static void fmt_prefixed(double v, const char *unit, char *buf, size_t size)
{
	char num[32];
	size_t n;

	w_fmt_si(v, num, sizeof(num));
	n = strlen(num);
	if (n && strchr("kMGTPE", num[n - 1])) {
		char prefix = num[n - 1];

		num[n - 1] = '\0';
		snprintf(buf, size, "%s %c%s", num, prefix, unit);
	} else {
		snprintf(buf, size, "%s %s", num, unit);
	}
}

/* "12.3k" + unit: a count of things ("12.3k pkt"). */
static void fmt_count(double v, const char *unit, char *buf, size_t size)
{
	char num[32];

	w_fmt_si(v, num, sizeof(num));
	snprintf(buf, size, "%s%s%s", num, *unit && *unit != '/' ? " " : "",
		 unit);
}

/* How a counter of each unit reads: the total, and the rate per second
 * (data as bits per second); data with SI prefixes, the rest as counts.
 * Percent and index values are printed as they are and have no rate. */
static const struct counter_unit {
	double scale, rate_scale;
	const char *unit, *rate_unit;
	bool prefixed;
} counter_units[RD_UNIT_COUNT] = {
	[RD_UNIT_EVENTS] = { 1.0, 1.0, "", "/s", false },
	[RD_UNIT_PACKETS] = { 1.0, 1.0, "pkt", "pkt/s", false },
	[RD_UNIT_BYTES] = { 1.0, 8.0, "B", "b/s", true },
	[RD_UNIT_WORDS] = { 4.0, 32.0, "B", "b/s", true },
	[RD_UNIT_BITS] = { 1.0, 1.0, "bit", "b/s", true },
	[RD_UNIT_US] = { 1.0, 1.0, "us", "us/s", false },
	[RD_UNIT_NS] = { 1.0, 1.0, "ns", "ns/s", false },
	[RD_UNIT_TICKS] = { 1.0, 1.0, "ticks", "ticks/s", false },
	[RD_UNIT_SECONDS] = { 1.0, 1.0, "s", "s/s", false },
};

static void fmt_unit(bool prefixed, double v, const char *unit, char *buf,
		     size_t size)
{
	if (prefixed)
		fmt_prefixed(v, unit, buf, size);
	else
		fmt_count(v, unit, buf, size);
}

static const struct counter_unit *counter_unit(enum rd_counter_unit u)
{
	return (unsigned)u < RD_UNIT_COUNT && counter_units[u].unit ?
		       &counter_units[u] :
		       &counter_units[RD_UNIT_EVENTS];
}

void w_fmt_counter_total(enum rd_counter_unit u, uint64_t v, char *buf,
			 size_t size)
{
	const struct counter_unit *cu = counter_unit(u);

	if (u == RD_UNIT_PERCENT)
		snprintf(buf, size, "%" PRIu64 " %%", v);
	else if (u == RD_UNIT_INDEX)
		snprintf(buf, size, "%" PRIu64, v);
	else
		fmt_unit(cu->prefixed, (double)v * cu->scale, cu->unit, buf,
			 size);
}

void w_fmt_counter_rate(enum rd_counter_unit u, double per_s, char *buf,
			size_t size)
{
	const struct counter_unit *cu = counter_unit(u);

	if (!isfinite(per_s) || u == RD_UNIT_PERCENT || u == RD_UNIT_INDEX)
		snprintf(buf, size, "-");
	else
		fmt_unit(cu->prefixed, per_s * cu->rate_scale, cu->rate_unit,
			 buf, size);
}

void w_fmt_ou64(struct rd_ou64 v, char *buf, size_t size)
{
	if (v.ok)
		snprintf(buf, size, "%" PRIu64, v.v);
	else
		snprintf(buf, size, "N/A");
}

void w_fmt_bytes(uint64_t v, char *buf, size_t size)
{
	if (v >= (1ull << 30) && v % (1ull << 30) == 0)
		snprintf(buf, size, "%" PRIu64 " GiB", v >> 30);
	else if (v >= (1ull << 20) && v % (1ull << 20) == 0)
		snprintf(buf, size, "%" PRIu64 " MiB", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 " KiB", v >> 10);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

void w_lines_reset(struct w_lines *l)
{
	l->n = 0;
}

void w_lines_add(struct w_lines *l, enum w_style s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *t, *st;

		if (cap > 65536)
			return;
		t = realloc(l->text, cap * sizeof(*l->text));
		if (!t)
			return;
		l->text = t;
		st = realloc(l->style, cap * sizeof(*l->style));
		if (!st)
			return;
		l->style = st;
		l->cap = cap;
	}
	va_start(ap, fmt);
	n = vsnprintf(l->text[l->n], sizeof(l->text[0]), fmt, ap);
	va_end(ap);
	/* A line longer than the buffer says so rather than ending mid-word. */
	if (n >= (int)sizeof(l->text[0])) {
		char *t = l->text[l->n];
		size_t end = sizeof(l->text[0]) - 4;

		while (end && ((unsigned char)t[end] & 0xc0) == 0x80)
			end--;
		memcpy(t + end, "\u2026", 4);
	}
	l->style[l->n++] = s;
}

void w_lines_draw(const struct w_lines *l, const struct rd_rect *r, size_t *top)
{
	size_t h = r->h > 0 ? (size_t)r->h : 0;
	bool scrolls = l->n > h && h > 1 && r->w > 10;

	/* A page that scrolls keeps its last row for the position, so the
	 * position never covers the text. */
	if (scrolls)
		h--;
	if (*top + h > l->n)
		*top = l->n > h ? l->n - h : 0;
	for (size_t i = 0; i < h && *top + i < l->n; i++)
		w_print(r, (int)i, 0, l->style[*top + i], l->text[*top + i]);
	if (scrolls) {
		char pos[64];

		snprintf(pos, sizeof(pos), "[%zu-%zu/%zu]", *top + 1,
			 *top + h < l->n ? *top + h : l->n, l->n);
		w_print(r, (int)h, r->w - (int)strlen(pos), W_DIM, pos);
	}
}

void w_lines_free(struct w_lines *l)
{
	free(l->text);
	free(l->style);
	memset(l, 0, sizeof(*l));
}

bool w_lines_key(int ch, size_t *top, int h)
{
	size_t page = h > 2 ? (size_t)h - 1 : 1;

	switch (ch) {
	case KEY_UP:
		if (*top)
			(*top)--;
		return true;
	case KEY_DOWN:
		(*top)++;
		return true;
	case KEY_PPAGE:
		*top = *top > page ? *top - page : 0;
		return true;
	case KEY_NPAGE:
		*top += page;
		return true;
	case KEY_HOME:
		*top = 0;
		return true;
	case KEY_END:
		*top = (size_t)-1 / 2;
		return true;
	default:
		return false;
	}
}

void w_page_draw(struct w_page *p, const struct rd_rect *r)
{
	p->h = r->h;
	w_lines_draw(&p->lines, r, &p->top);
}

bool w_page_key(struct w_page *p, int ch)
{
	return w_lines_key(ch, &p->top, p->h);
}

enum w_edit_result w_edit_key(char *buf, size_t size, int ch)
{
	size_t len = strlen(buf);

	if (ch == 27)
		return W_EDIT_CANCEL;
	if (ch == '\r' || ch == '\n' || ch == KEY_ENTER)
		return W_EDIT_DONE;
	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		while (len && ((unsigned char)buf[len - 1] & 0xc0) == 0x80)
			len--;
		if (len)
			len--;
		buf[len] = '\0';
	} else if (ch == ('U' & 0x1f)) {
		buf[0] = '\0';
	} else if (((ch >= 32 && ch < 127) || (ch >= 128 && ch < 256) ||
		    ch == '\t') && len + 1 < size) {
		buf[len] = ch == '\t' ? ' ' : (char)ch;
		buf[len + 1] = '\0';
	}
	return W_EDIT_TYPED;
}
