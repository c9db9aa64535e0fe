// SPDX-License-Identifier: GPL-2.0-or-later
/* The console's layout over every terminal size: nothing overlaps, nothing
 * falls off the screen, and small terminals are refused, not mangled. */
#include "config.h"

#include "unit.h"

#include "views/layout.h"

static const char *const pane_names[RD_PANE_COUNT] = {
	"title", "banner", "head", "main", "side", "bar",
};

static void check_one(int rows, int cols, enum rd_layout_kind kind)
{
	struct rd_layout l;
	char where[96];

	rd_layout_compute(rows, cols, kind, &l);
	snprintf(where, sizeof(where), "%dx%d kind %d", cols, rows, kind);
	if (rows < RD_LAYOUT_MIN_ROWS || cols < RD_LAYOUT_MIN_COLS) {
		if (!l.too_small)
			fail_msg("%s: should be too small", where);
		for (int p = 0; p < RD_PANE_COUNT; p++)
			if (!rd_rect_empty(&l.pane[p]))
				fail_msg("%s: %s drawn on a too-small screen",
					 where, pane_names[p]);
		return;
	}
	if (l.too_small)
		fail_msg("%s: refused a big enough screen", where);
	for (int p = 0; p < RD_PANE_COUNT; p++) {
		const struct rd_rect *r = &l.pane[p];

		if (!rd_rect_inside(r, rows, cols))
			fail_msg("%s: %s (%d,%d %dx%d) off the screen", where,
				 pane_names[p], r->y, r->x, r->w, r->h);
		if (r->h < 0 || r->w < 0)
			fail_msg("%s: %s has a negative size", where,
				 pane_names[p]);
		for (int q = p + 1; q < RD_PANE_COUNT; q++)
			if (rd_rect_overlap(r, &l.pane[q]))
				fail_msg("%s: %s overlaps %s", where,
					 pane_names[p], pane_names[q]);
	}
	/* The whole-screen detail: main and side together, nothing else. */
	{
		struct rd_rect body = rd_layout_body(&l);

		for (int p = RD_PANE_MAIN; p <= RD_PANE_SIDE; p++) {
			const struct rd_rect *r = &l.pane[p];

			if (!rd_rect_empty(r) &&
			    (r->y < body.y || r->y + r->h > body.y + body.h ||
			     r->x < body.x || r->x + r->w > body.x + body.w))
				fail_msg("%s: %s outside the body", where,
					 pane_names[p]);
		}
		for (int p = 0; p < RD_PANE_COUNT; p++)
			if (p != RD_PANE_MAIN && p != RD_PANE_SIDE &&
			    rd_rect_overlap(&body, &l.pane[p]))
				fail_msg("%s: the body covers %s", where,
					 pane_names[p]);
		assert_int_equal(body.w, cols);
		assert_int_equal(body.h, rows - 4);
	}
	/* What every screen needs. */
	assert_int_equal(l.pane[RD_PANE_TITLE].y, 0);
	assert_int_equal(l.pane[RD_PANE_TITLE].w, cols);
	assert_int_equal(l.pane[RD_PANE_BAR].y, rows - 1);
	assert_int_equal(l.pane[RD_PANE_BAR].w, cols);
	assert_true(l.pane[RD_PANE_BANNER].w == cols);
	if (l.pane[RD_PANE_MAIN].h < 3 || l.pane[RD_PANE_MAIN].w < 30)
		fail_msg("%s: main pane too small (%dx%d)", where,
			 l.pane[RD_PANE_MAIN].w, l.pane[RD_PANE_MAIN].h);
	if (kind == RD_LAYOUT_FULL)
		assert_true(rd_rect_empty(&l.pane[RD_PANE_SIDE]));
	else if (l.pane[RD_PANE_SIDE].h < 5 || l.pane[RD_PANE_SIDE].w < 30)
		fail_msg("%s: side pane too small (%dx%d)", where,
			 l.pane[RD_PANE_SIDE].w, l.pane[RD_PANE_SIDE].h);
}

static void test_every_size(void **state)
{
	(void)state;
	for (int kind = RD_LAYOUT_FULL; kind <= RD_LAYOUT_SPLIT; kind++)
		for (int rows = 0; rows <= 120; rows++)
			for (int cols = 0; cols <= 320; cols++)
				check_one(rows, cols,
					  (enum rd_layout_kind)kind);
}

static void test_hostile_sizes(void **state)
{
	static const int sizes[][2] = {
		{ -1, -1 },	  { -5, 80 },	 { 24, -80 },	{ 0, 0 },
		{ 10000, 10000 }, { 1, 100000 }, { 100000, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int kind = RD_LAYOUT_FULL; kind <= RD_LAYOUT_SPLIT; kind++)
			check_one(sizes[i][0], sizes[i][1],
				  (enum rd_layout_kind)kind);
}

static void test_80x24(void **state)
{
	struct rd_layout l;

	(void)state;
	/* The classic terminal is a first-class citizen. */
	rd_layout_compute(24, 80, RD_LAYOUT_LIST, &l);
	assert_false(l.too_small);
	assert_int_equal(l.pane[RD_PANE_MAIN].w, 80);
	assert_true(l.pane[RD_PANE_MAIN].h >= 8);
	assert_int_equal(l.pane[RD_PANE_SIDE].y + l.pane[RD_PANE_SIDE].h, 23);
	rd_layout_compute(24, 80, RD_LAYOUT_SPLIT, &l);
	/* Narrow: graph above counters, not squeezed side by side. */
	assert_int_equal(l.pane[RD_PANE_SIDE].w, 80);
	rd_layout_compute(40, 160, RD_LAYOUT_SPLIT, &l);
	assert_int_equal(l.pane[RD_PANE_SIDE].y, l.pane[RD_PANE_MAIN].y);
	assert_true(l.pane[RD_PANE_SIDE].x > l.pane[RD_PANE_MAIN].x);
	rd_layout_compute(10, 40, RD_LAYOUT_FULL, &l);
	assert_true(l.too_small);
}

static void test_rect_helpers(void **state)
{
	struct rd_rect a = { 0, 0, 5, 5 }, b = { 4, 4, 2, 2 },
		       c = { 5, 0, 2, 5 }, e = { 1, 1, 0, 3 };

	(void)state;
	assert_true(rd_rect_overlap(&a, &b));
	assert_false(rd_rect_overlap(&a, &c)); /* touching is fine */
	assert_false(rd_rect_overlap(&a, &e)); /* empty never overlaps */
	assert_true(rd_rect_inside(&a, 5, 5));
	assert_false(rd_rect_inside(&b, 5, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_size),
		cmocka_unit_test(test_hostile_sizes),
		cmocka_unit_test(test_80x24),
		cmocka_unit_test(test_rect_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
