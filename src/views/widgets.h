/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Drawing helpers shared by the console's screens: colours with a
 * monochrome fallback, clipped text, tables, sparklines and dialogs.
 * The formatting helpers (w_spark, w_fmt_*) are pure and tested.
 */
#ifndef RD_VIEWS_WIDGETS_H
#define RD_VIEWS_WIDGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "diag/data.h"
#include "views/layout.h"

enum w_style {
	W_NORMAL,
	W_GOOD,	  /* ACTIVE, PASS */
	W_WARN,	  /* INIT, WARN, UNKNOWN */
	W_BAD,	  /* DOWN, FAIL, a rising error counter */
	W_DIM,	  /* absent values, hints */
	W_TITLE,  /* title line */
	W_BAR,	  /* key bar */
	W_BARKEY, /* the key names in the bar */
	W_SEL,	  /* the selected row */
	W_HEAD,	  /* table headings */
	W_TAG,	  /* REPLAY / DEMO / READ-ONLY tags */
	W_BANNER_BAD,
	W_BANNER_OK,
	W_STYLE_COUNT,
};

/* Set up colour pairs, or monochrome attributes when color is false. */
void w_init(bool color, bool utf8);
bool w_utf8(void);
int w_attr(enum w_style s);

/*
 * Text as it fits in width columns: cut text ends with an ellipsis ("…",
 * or "..." when utf8 is false), and without UTF-8 every other code point
 * is replaced by an ASCII stand-in (em dash "-", box lines "-|+", blocks
 * "#", anything else "?"). Returns the columns of out.
 */
int w_fit(const char *text, int width, bool utf8, char *out, size_t size);
/* Text clipped to the rect (through w_fit); col is relative to r.
 * Returns columns used. */
int w_print(const struct rd_rect *r, int row, int col, enum w_style s,
	    const char *text);
int w_printf(const struct rd_rect *r, int row, int col, enum w_style s,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Fill a whole row of the rect with the style (for bars and selection). */
void w_fill_row(const struct rd_rect *r, int row, enum w_style s);
void w_box(const struct rd_rect *r, const char *title);

/*
 * A table: column widths (the last column takes what is left), a heading
 * row, and a window onto the rows that keeps sel visible.
 */
struct w_column {
	const char *title;
	int width;
	bool right; /* right-aligned (numbers) */
	int want;   /* the width its text needs; w_columns_fit grows to it */
};

/*
 * Widen the columns whose text needs more room (want > width) with the
 * spare width of a table width columns wide, sharing it column by
 * column; the last column keeps at least its own width.
 */
void w_columns_fit(struct w_column *cols, size_t n, int width);

struct w_table {
	size_t top; /* first row shown */
	size_t sel;
};

/*
 * Move the selection of a list of n rows shown page rows at a time:
 * Up, Down, PgUp, PgDn, Home, End. True when ch was one of them.
 */
bool w_table_key(struct w_table *t, int ch, size_t n, int page);
/* Adjust top so sel is visible in h rows; clamps sel into [0, n). */
void w_table_scroll(struct w_table *t, size_t n, int h);
void w_table_header(const struct rd_rect *r, int row,
		    const struct w_column *cols, size_t ncols);
/* Draw one row's cells (styles may be NULL = all normal). */
void w_table_row(const struct rd_rect *r, int row, const struct w_column *cols,
		 size_t ncols, const char *const *cells,
		 const enum w_style *styles, bool selected);

/*
 * A dialog box centred on the screen (rows x cols), clipped to it:
 * a title, up to n lines (wrapped) and a bottom line of choices.
 */
void w_dialog(int rows, int cols, const char *title, const char *const *lines,
	      size_t n, const char *choices);

/*
 * Render values (oldest first) as a sparkline of exactly width cells,
 * scaled to the largest value; UTF-8 block characters or ASCII.
 * The newest value is at the right; missing history and a NaN (a sample
 * not read) are blank; zero is the lowest block.
 * Returns the number of bytes written (out is always NUL-terminated).
 */
size_t w_spark(const double *v, size_t n, int width, bool utf8, char *out,
	       size_t outlen);

/* "12.3k", "4.56M", "1.20G" (rates and counts); "-" for NaN. */
void w_fmt_si(double v, char *buf, size_t size);
/* An optional unsigned value or "N/A". */
void w_fmt_ou64(struct rd_ou64 v, char *buf, size_t size);
/* Bytes as "1500", "4 KiB", "64 MiB". */
void w_fmt_bytes(uint64_t v, char *buf, size_t size);
/*
 * A counter's total and its rate per second, each with its unit
 * (data/counters.tsv's unit column): bytes and 4-byte words as bytes
 * ("9.17 GB") and their rate in bits per second like the port's RATE
 * ("73.4 Gb/s"); packets "12.3k pkt" and "12.3k pkt/s"; other counts
 * "1.25k" and "1.25/s"; times in their unit ("us/s"); a level (percent,
 * index) has no rate ("-"). NaN or a missing value gives "-".
 */
void w_fmt_counter_total(enum rd_counter_unit u, uint64_t v, char *buf,
			 size_t size);
void w_fmt_counter_rate(enum rd_counter_unit u, double per_s, char *buf,
			size_t size);
/* Wrap text into lines of at most width columns; returns lines used. */
size_t w_wrap(const char *text, int width, char lines[][256], size_t max);

/* A page of styled text lines, built per frame and scrolled. */
struct w_lines {
	char (*text)[240];
	enum w_style *style;
	size_t n, cap;
};

void w_lines_reset(struct w_lines *l);
void w_lines_add(struct w_lines *l, enum w_style s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Draw from line *top (clamped so the page stays filled); a page longer
 * than the rect shows its position "[first-last/n]" on its last row. */
void w_lines_draw(const struct w_lines *l, const struct rd_rect *r,
		  size_t *top);
void w_lines_free(struct w_lines *l);
/* Scroll keys for a page of h lines; true when the key was one. */
bool w_lines_key(int ch, size_t *top, int h);

/* What one key did to a line being typed. */
enum w_edit_result { W_EDIT_TYPED, W_EDIT_DONE, W_EDIT_CANCEL };
/*
 * One key to the line typed into buf (size bytes): Enter ends it, Esc
 * cancels it, Backspace drops the last character (a whole UTF-8 one),
 * Ctrl-U clears it, and other bytes of text are added while they fit
 * (pasted text arrives as keys; a tab becomes a blank).
 */
enum w_edit_result w_edit_key(char *buf, size_t size, int ch);

/* A page that scrolls by the keys: its lines, the first one shown and the
 * height it was last drawn at (what PgUp and PgDn move by). */
struct w_page {
	struct w_lines lines;
	size_t top;
	int h;
};
void w_page_draw(struct w_page *p, const struct rd_rect *r);
bool w_page_key(struct w_page *p, int ch);
#endif
