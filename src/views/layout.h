/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Screen geometry of the console: a pure function of the terminal size and
 * the kind of screen, so it can be tested over every size without a
 * terminal.
 */
#ifndef RD_VIEWS_LAYOUT_H
#define RD_VIEWS_LAYOUT_H

#include <stdbool.h>

/* Below this the console shows "terminal too small" and nothing else. */
#define RD_LAYOUT_MIN_COLS 60
#define RD_LAYOUT_MIN_ROWS 16

struct rd_rect {
	int y, x, h, w;
};

enum rd_pane {
	RD_PANE_TITLE,	/* top line: tag, host, screen tabs */
	RD_PANE_BANNER, /* most important finding / status message */
	RD_PANE_HEAD,	/* one line the screen may use above its table */
	RD_PANE_MAIN,	/* the screen's list or table */
	RD_PANE_SIDE,	/* second area: detail below or graph beside */
	RD_PANE_BAR,	/* bottom line: keys */
	RD_PANE_COUNT,
};

enum rd_layout_kind {
	RD_LAYOUT_FULL,	 /* main only */
	RD_LAYOUT_LIST,	 /* main above, detail pane below */
	RD_LAYOUT_SPLIT, /* main and side next to each other when wide */
};

struct rd_layout {
	int rows, cols;
	bool too_small;
	struct rd_rect pane[RD_PANE_COUNT]; /* h or w 0 = not shown */
};

void rd_layout_compute(int rows, int cols, enum rd_layout_kind kind,
		       struct rd_layout *out);
/* Everything between the head line and the key bar: the list and the
 * detail pane together, for a detail shown on the whole screen. */
struct rd_rect rd_layout_body(const struct rd_layout *l);

static inline bool rd_rect_empty(const struct rd_rect *r)
{
	return r->h <= 0 || r->w <= 0;
}

bool rd_rect_overlap(const struct rd_rect *a, const struct rd_rect *b);
bool rd_rect_inside(const struct rd_rect *r, int rows, int cols);

#endif
