// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "views/layout.h"

#include <string.h>

bool rd_rect_overlap(const struct rd_rect *a, const struct rd_rect *b)
{
	if (rd_rect_empty(a) || rd_rect_empty(b))
		return false;
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

bool rd_rect_inside(const struct rd_rect *r, int rows, int cols)
{
	if (rd_rect_empty(r))
		return true;
	return r->y >= 0 && r->x >= 0 && r->y + r->h <= rows &&
	       r->x + r->w <= cols;
}

static struct rd_rect rect(int y, int x, int h, int w)
{
	return (struct rd_rect){ .y = y, .x = x, .h = h, .w = w };
}

void rd_layout_compute(int rows, int cols, enum rd_layout_kind kind,
		       struct rd_layout *out)
{
	int body_y, body_h, side;

	memset(out, 0, sizeof(*out));
	out->rows = rows;
	out->cols = cols;
	if (rows < RD_LAYOUT_MIN_ROWS || cols < RD_LAYOUT_MIN_COLS) {
		out->too_small = true;
		return;
	}
	out->pane[RD_PANE_TITLE] = rect(0, 0, 1, cols);
	out->pane[RD_PANE_BANNER] = rect(1, 0, 1, cols);
	out->pane[RD_PANE_BAR] = rect(rows - 1, 0, 1, cols);
	out->pane[RD_PANE_HEAD] = rect(2, 0, 1, cols);
	body_y = 3;
	body_h = rows - 1 - body_y;

	switch (kind) {
	case RD_LAYOUT_FULL:
		out->pane[RD_PANE_MAIN] = rect(body_y, 0, body_h, cols);
		break;
	case RD_LAYOUT_LIST:
		/* The detail pane takes about two fifths, at least 5 lines. */
		side = body_h * 2 / 5;
		if (side < 5)
			side = 5;
		out->pane[RD_PANE_MAIN] = rect(body_y, 0, body_h - side, cols);
		out->pane[RD_PANE_SIDE] =
			rect(body_y + body_h - side, 0, side, cols);
		break;
	case RD_LAYOUT_SPLIT:
		if (cols >= 110) {
			side = cols * 2 / 5;
			out->pane[RD_PANE_MAIN] =
				rect(body_y, 0, body_h, cols - side - 1);
			out->pane[RD_PANE_SIDE] =
				rect(body_y, cols - side, body_h, side);
		} else {
			side = body_h / 2;
			out->pane[RD_PANE_MAIN] =
				rect(body_y, 0, body_h - side, cols);
			out->pane[RD_PANE_SIDE] =
				rect(body_y + body_h - side, 0, side, cols);
		}
		break;
	}
}

struct rd_rect rd_layout_body(const struct rd_layout *l)
{
	const struct rd_rect *head = &l->pane[RD_PANE_HEAD];
	const struct rd_rect *bar = &l->pane[RD_PANE_BAR];

	if (l->too_small)
		return rect(0, 0, 0, 0);
	return rect(head->y + head->h, 0, bar->y - (head->y + head->h),
		    l->cols);
}
