// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure parts of the console's widgets: sparklines, number formats,
 * wrapping and table scrolling. */
#include "config.h"

#include <math.h>

#include "unit.h"

#include <curses.h>

#include "views/widgets.h"

/* A curses screen over /dev/null for the tests that draw. */
struct test_term {
	FILE *out, *in;
	SCREEN *scr;
};

static void term_open(struct test_term *t, bool ascii)
{
	t->out = fopen("/dev/null", "w");
	t->in = fopen("/dev/null", "r");
	assert_non_null(t->out);
	assert_non_null(t->in);
	t->scr = newterm("xterm", t->out, t->in);
	assert_non_null(t->scr);
	w_init(false, ascii);
}

static void term_close(struct test_term *t)
{
	endwin();
	delscreen(t->scr);
	fclose(t->out);
	fclose(t->in);
}

static void test_spark_ascii_levels(void **state)
{
	double v[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	char out[64];

	(void)state;
	assert_int_equal(w_spark(v, 8, 8, false, out, sizeof(out)), 8);
	assert_string_equal(out, "_.-:=+*#");
}

static void test_spark_short_history_right_aligned(void **state)
{
	double v[] = { 0, 5 };
	char out[64];

	(void)state;
	w_spark(v, 2, 5, false, out, sizeof(out));
	assert_string_equal(out, "   _#");
}

/* A sample not read is a gap, not a zero (a dark lane looks like 0). */
static void test_spark_unread_is_a_gap(void **state)
{
	double v[] = { 5, NAN, 0, 5 };
	char out[64];

	(void)state;
	w_spark(v, 4, 4, false, out, sizeof(out));
	assert_string_equal(out, "# _#");
}

static void test_spark_keeps_newest(void **state)
{
	double v[] = { 9, 9, 9, 0, 1 };
	char out[64];

	(void)state;
	/* Only the last 2 fit: scaled to their own maximum. */
	w_spark(v, 5, 2, false, out, sizeof(out));
	assert_string_equal(out, "_#");
}

static void test_spark_utf8_and_truncation(void **state)
{
	double v[] = { 1, 1, 1 };
	char out[16], tiny[5];

	(void)state;
	assert_int_equal(w_spark(v, 3, 3, true, out, sizeof(out)), 9);
	assert_string_equal(out, "\u2588\u2588\u2588");
	/* No room for a second 3-byte cell: stops, never splits one. */
	assert_int_equal(w_spark(v, 3, 3, true, tiny, sizeof(tiny)), 3);
	assert_string_equal(tiny, "\u2588");
}

static void test_spark_hostile_values(void **state)
{
	double v[] = { NAN, INFINITY, -5, 0 };
	char out[64];

	(void)state;
	/* NaN is a gap; infinity and negatives draw as nothing measured. */
	w_spark(v, 4, 4, false, out, sizeof(out));
	assert_string_equal(out, " ___");
	assert_int_equal(w_spark(v, 4, 0, false, out, sizeof(out)), 0);
	assert_int_equal(w_spark(v, 4, -3, false, out, sizeof(out)), 0);
	assert_int_equal(w_spark(NULL, 0, 3, false, out, sizeof(out)), 3);
	assert_string_equal(out, "   ");
}

static void test_fmt_si(void **state)
{
	char b[32];

	(void)state;
	w_fmt_si(0, b, sizeof(b));
	assert_string_equal(b, "0");
	w_fmt_si(999, b, sizeof(b));
	assert_string_equal(b, "999");
	w_fmt_si(12.5, b, sizeof(b));
	assert_string_equal(b, "12.5");
	w_fmt_si(1234, b, sizeof(b));
	assert_string_equal(b, "1.23k");
	w_fmt_si(45600000, b, sizeof(b));
	assert_string_equal(b, "45.6M");
	w_fmt_si(1e9, b, sizeof(b));
	assert_string_equal(b, "1.00G");
	w_fmt_si(NAN, b, sizeof(b));
	assert_string_equal(b, "-");
	w_fmt_si(1e20, b, sizeof(b));
	assert_string_equal(b, "100E");
	w_fmt_si(-2500, b, sizeof(b));
	assert_string_equal(b, "-2.50k");
}

static void test_fmt_bytes_and_ou64(void **state)
{
	char b[32];

	(void)state;
	w_fmt_bytes(1500, b, sizeof(b));
	assert_string_equal(b, "1500");
	w_fmt_bytes(4096, b, sizeof(b));
	assert_string_equal(b, "4 KiB");
	w_fmt_bytes(64u << 20, b, sizeof(b));
	assert_string_equal(b, "64 MiB");
	w_fmt_ou64((struct rd_ou64){ 0, false }, b, sizeof(b));
	assert_string_equal(b, "N/A");
	w_fmt_ou64(rd_u64(42), b, sizeof(b));
	assert_string_equal(b, "42");
}

static void test_wrap(void **state)
{
	char lines[8][256];

	(void)state;
	assert_int_equal(w_wrap("hello world foo", 11, lines, 8), 2);
	assert_string_equal(lines[0], "hello world");
	assert_string_equal(lines[1], "foo");
	assert_int_equal(w_wrap("abcdefghij", 4, lines, 8), 3);
	assert_string_equal(lines[2], "ij");
	assert_int_equal(w_wrap("one\ntwo", 20, lines, 8), 2);
	assert_string_equal(lines[1], "two");
	assert_int_equal(w_wrap(NULL, 20, lines, 8), 0);
	/* Never more than max lines, whatever the text. */
	assert_int_equal(w_wrap("a b c d e f g h i j k", 1, lines, 3), 3);
}

static void test_table_scroll(void **state)
{
	struct w_table t = { .top = 0, .sel = 50 };

	(void)state;
	w_table_scroll(&t, 100, 10);
	assert_true(t.top <= 50 && t.top + 10 > 50);
	t.sel = 500;
	w_table_scroll(&t, 100, 10);
	assert_int_equal(t.sel, 99);
	assert_int_equal(t.top, 90);
	t.sel = 0;
	w_table_scroll(&t, 100, 10);
	assert_int_equal(t.top, 0);
	w_table_scroll(&t, 0, 10);
	assert_int_equal(t.sel, 0);
	t.sel = 3;
	w_table_scroll(&t, 5, 0); /* a zero-height pane still works */
	assert_int_equal(t.top, 3);
}

/* One widget moves every list: Up, Down, PgUp, PgDn, Home, End. */
static void test_table_keys(void **state)
{
	static const struct {
		int key;
		size_t n;
		int page;
		size_t want;
	} steps[] = {
		{ KEY_DOWN, 30, 10, 1 },
		{ KEY_NPAGE, 30, 10, 10 },
		/* a page less one row of context */
		{ KEY_NPAGE, 30, 10, 19 },
		{ KEY_NPAGE, 30, 10, 28 },
		/* clamped to the last row */
		{ KEY_NPAGE, 30, 10, 29 },
		{ KEY_DOWN, 30, 10, 29 },
		{ KEY_PPAGE, 30, 10, 20 },
		{ KEY_HOME, 30, 10, 0 },
		{ KEY_UP, 30, 10, 0 },
		{ KEY_END, 30, 10, 29 },
		/* a list that shrank, an empty one, a page of one row */
		{ KEY_UP, 5, 10, 4 },
		{ KEY_END, 0, 10, 0 },
		{ KEY_NPAGE, 3, 0, 1 },
	};
	struct w_table t = { 0, 0 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		assert_true(w_table_key(&t, steps[i].key, steps[i].n,
					steps[i].page));
		assert_int_equal(t.sel, steps[i].want);
	}
	assert_false(w_table_key(&t, 'x', 3, 10));
	assert_int_equal(t.sel, 1);
}

/* Text with control bytes reaches the screen as visible escapes. */
static void test_print_escapes(void **state)
{
	struct test_term t;
	struct rd_rect r = { 0, 0, 2, 60 };
	char got[64];

	term_open(&t, false);
	assert_int_equal(w_print(&r, 0, 0, W_NORMAL,
				 "a\x1b]0;x\x07"
				 "b\tc"),
			 (int)strlen("a\\x1b]0;x\\x07b\\tc"));
	mvinnstr(0, 0, got, (int)strlen("a\\x1b]0;x\\x07b\\tc"));
	assert_string_equal(got, "a\\x1b]0;x\\x07b\\tc");
	/* Clean text is left as it is, backslashes included. */
	w_print(&r, 1, 0, W_NORMAL, "C:\\dir plain");
	mvinnstr(1, 0, got, 12);
	assert_string_equal(got, "C:\\dir plain");
	term_close(&t);
}

/* Counter totals and rates carry their unit; words are bytes times 4. */
static void test_fmt_counter_units(void **state)
{
	static const struct {
		enum rd_counter_unit u;
		uint64_t total;
		double rate;
		const char *want_total, *want_rate;
	} cases[] = {
		/* 2.25 G words/s of port_xmit_data is 72 Gb/s */
		{ RD_UNIT_WORDS, 2250000000ull, 2.25e9, "9.00 GB", "72.0 Gb/s" },
		{ RD_UNIT_BYTES, 9170000000ull, 9.17e9, "9.17 GB", "73.4 Gb/s" },
		{ RD_UNIT_BYTES, 512, 64, "512 B", "512 b/s" },
		{ RD_UNIT_PACKETS, 12345, 12345, "12.3k pkt", "12.3k pkt/s" },
		{ RD_UNIT_EVENTS, 3, 1.5, "3", "1.5/s" },
		{ RD_UNIT_EVENTS, 0, 0, "0", "0/s" },
		{ RD_UNIT_BITS, 1000000, 25e9, "1.00 Mbit", "25.0 Gb/s" },
		{ RD_UNIT_US, 1500, 900, "1.50k us", "900 us/s" },
		{ RD_UNIT_PERCENT, 37, 1, "37 %", "-" },
		{ RD_UNIT_INDEX, 12, 0, "12", "-" },
		{ RD_UNIT_TICKS, 10, 2, "10 ticks", "2 ticks/s" },
		{ RD_UNIT_NS, 250, 4, "250 ns", "4 ns/s" },
		{ RD_UNIT_SECONDS, 3, 0.5, "3 s", "0.5 s/s" },
		/* a unit this build does not know reads as plain events */
		{ (enum rd_counter_unit)RD_UNIT_COUNT, 7, 2, "7", "2/s" },
	};
	char b[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		w_fmt_counter_total(cases[i].u, cases[i].total, b, sizeof(b));
		assert_string_equal(b, cases[i].want_total);
		w_fmt_counter_rate(cases[i].u, cases[i].rate, b, sizeof(b));
		assert_string_equal(b, cases[i].want_rate);
	}
	w_fmt_counter_rate(RD_UNIT_BYTES, NAN, b, sizeof(b));
	assert_string_equal(b, "-");
	/* The largest total still fits the column. */
	w_fmt_counter_total(RD_UNIT_WORDS, UINT64_MAX, b, sizeof(b));
	assert_true(strlen(b) <= 12);
}

/* Text that does not fit ends with an ellipsis; text that fits is kept. */
static void test_fit_ellipsis(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(w_fit("b8:ce:f6:a1:b2:c4", 17, true, out,
			       sizeof(out)), 17);
	assert_string_equal(out, "b8:ce:f6:a1:b2:c4");
	assert_int_equal(w_fit("b8:ce:f6:a1:b2:c4", 16, true, out,
			       sizeof(out)), 16);
	assert_string_equal(out, "b8:ce:f6:a1:b2:\u2026");
	assert_int_equal(w_fit("b8:ce:f6:a1:b2:c4", 16, false, out,
			       sizeof(out)), 16);
	assert_string_equal(out, "b8:ce:f6:a1:b...");
	/* Padding is not text: " z changed-only " fits in 15. */
	assert_int_equal(w_fit(" z changed-only ", 15, true, out,
			       sizeof(out)), 15);
	assert_string_equal(out, " z changed-only");
	/* No blank before the mark. */
	w_fit("z changed-only", 5, true, out, sizeof(out));
	assert_string_equal(out, "z ch\u2026");
	w_fit("ab cd", 4, true, out, sizeof(out));
	assert_string_equal(out, "ab\u2026");
	/* Too narrow for the mark and a letter. */
	assert_int_equal(w_fit("abcdef", 2, false, out, sizeof(out)), 2);
	assert_string_equal(out, "..");
	assert_int_equal(w_fit("abcdef", 0, true, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(w_fit(NULL, 5, true, out, sizeof(out)), 0);
	/* A multi-byte character is never split. */
	w_fit("\u00e9\u00e9\u00e9\u00e9", 3, true, out, sizeof(out));
	assert_string_equal(out, "\u00e9\u00e9\u2026");
}

/* Without UTF-8 every glyph has an ASCII stand-in. */
static void test_fit_ascii(void **state)
{
	char out[64];

	(void)state;
	w_fit("no carrier \u2014 cable", 40, false, out, sizeof(out));
	assert_string_equal(out, "no carrier - cable");
	w_fit("\u250c\u2500 x \u2500\u2510\u2502", 40, false, out,
	      sizeof(out));
	assert_string_equal(out, "+- x -+|");
	w_fit("\u2581\u2588 wait\u2026 \u2192 \u00e9", 40, false, out,
	      sizeof(out));
	assert_string_equal(out, "## wait... -> ?");
	/* Stand-ins count as the columns they take. */
	assert_int_equal(w_fit("a\u2026", 4, false, out, sizeof(out)), 4);
	for (const char *p = out; *p; p++)
		assert_true((unsigned char)*p < 0x80);
}

/* Spare width goes to the columns whose text needs it. */
static void test_columns_fit(void **state)
{
	struct w_column c[] = {
		{ "VERDICT", 7, false, 0 },
		{ "TARGET", 12, false, 14 },
		{ "CHECK", 28, false, 40 },
		{ "SUMMARY", 20, false, 0 },
	};
	struct w_column narrow[4];

	(void)state;
	memcpy(narrow, c, sizeof(c));
	/* 80 columns: nothing spare (7+12+28+3 = 50, 30 left). */
	w_columns_fit(narrow, 4, 70);
	assert_int_equal(narrow[1].width, 12);
	assert_int_equal(narrow[2].width, 28);
	w_columns_fit(narrow, 4, 73);
	assert_int_equal(narrow[1].width + narrow[2].width, 43);
	/* 200 columns: both grow to what they need, no further. */
	w_columns_fit(c, 4, 200);
	assert_int_equal(c[0].width, 7);
	assert_int_equal(c[1].width, 14);
	assert_int_equal(c[2].width, 40);
	assert_int_equal(c[3].width, 20);
	w_columns_fit(c, 0, 200);
}

/* A scrolled page's position sits on its own row, under the text. */
static void test_lines_position_row(void **state)
{
	struct test_term t;
	struct rd_rect r = { 0, 0, 4, 40 };
	struct w_lines l = { 0 };
	size_t top = 0;
	char got[64];

	(void)state;
	term_open(&t, true);
	for (int i = 0; i < 10; i++)
		w_lines_add(&l, W_NORMAL, "line %d with some words in it", i);
	w_lines_draw(&l, &r, &top);
	for (int i = 0; i < 3; i++) {
		char want[64];

		snprintf(want, sizeof(want), "line %d with some words in it",
			 i);
		mvinnstr(i, 0, got, (int)strlen(want));
		assert_string_equal(got, want);
	}
	mvinnstr(3, 40 - 8, got, 8);
	assert_string_equal(got, "[1-3/10]");
	/* Scrolled to the end: the last line is shown, above the position. */
	top = 100;
	erase();
	w_lines_draw(&l, &r, &top);
	assert_int_equal(top, 7);
	mvinnstr(2, 0, got, 6);
	assert_string_equal(got, "line 9");
	/* A line longer than a page line ends with an ellipsis. */
	w_lines_reset(&l);
	w_lines_add(&l, W_NORMAL, "%0300d", 7);
	assert_int_equal(strlen(l.text[0]), sizeof(l.text[0]) - 1);
	assert_string_equal(l.text[0] + sizeof(l.text[0]) - 4, "\u2026");
	w_lines_free(&l);
	term_close(&t);
}

/* A page's keys move it by the height it was last drawn at. */
static void test_page_keys_follow_drawn_height(void **state)
{
	struct test_term t;
	struct rd_rect r = { 0, 0, 6, 40 };
	struct w_page pg = { 0 };

	(void)state;
	term_open(&t, true);
	for (int i = 0; i < 30; i++)
		w_lines_add(&pg.lines, W_NORMAL, "line %d", i);
	w_page_draw(&pg, &r);
	assert_int_equal(pg.h, 6);
	assert_true(w_page_key(&pg, KEY_NPAGE));
	assert_int_equal(pg.top, 5);
	assert_true(w_page_key(&pg, KEY_UP));
	assert_int_equal(pg.top, 4);
	/* Drawn smaller, a page is smaller. */
	r.h = 3;
	w_page_draw(&pg, &r);
	assert_true(w_page_key(&pg, KEY_NPAGE));
	assert_int_equal(pg.top, 6);
	/* End is clamped by the next draw to the last full page. */
	assert_true(w_page_key(&pg, KEY_END));
	w_page_draw(&pg, &r);
	assert_int_equal(pg.top, 28);
	assert_false(w_page_key(&pg, 'x'));
	w_lines_free(&pg.lines);
	term_close(&t);
}

/* A typed line: whole UTF-8 characters are erased, it never overflows. */
static void test_edit_key(void **state)
{
	char buf[6] = "";

	(void)state;
	assert_int_equal(w_edit_key(buf, sizeof(buf), 'a'), W_EDIT_TYPED);
	assert_int_equal(w_edit_key(buf, sizeof(buf), '\t'), W_EDIT_TYPED);
	assert_string_equal(buf, "a ");
	/* "é" is two bytes; one Backspace takes both. */
	w_edit_key(buf, sizeof(buf), 0xc3);
	w_edit_key(buf, sizeof(buf), 0xa9);
	assert_string_equal(buf, "a \xc3\xa9");
	w_edit_key(buf, sizeof(buf), KEY_BACKSPACE);
	assert_string_equal(buf, "a ");
	/* Full: 5 bytes and the terminator; more keys are dropped. */
	for (int i = 0; i < 10; i++)
		w_edit_key(buf, sizeof(buf), 'x');
	assert_string_equal(buf, "a xxx");
	/* DEL erases as Backspace does; Ctrl-A adds nothing. */
	w_edit_key(buf, sizeof(buf), 127);
	w_edit_key(buf, sizeof(buf), 1);
	assert_string_equal(buf, "a xx");
	assert_int_equal(w_edit_key(buf, sizeof(buf), '\r'), W_EDIT_DONE);
	assert_int_equal(w_edit_key(buf, sizeof(buf), 27), W_EDIT_CANCEL);
	assert_string_equal(buf, "a xx");
	w_edit_key(buf, sizeof(buf), 'U' & 0x1f);
	assert_string_equal(buf, "");
	w_edit_key(buf, sizeof(buf), 8);
	assert_string_equal(buf, "");
}

/* --ascii and non-UTF-8 locales: boxes of plain ASCII. */
static void test_box_ascii(void **state)
{
	struct test_term t;
	struct rd_rect r = { 0, 0, 3, 12 };

	(void)state;
	term_open(&t, false);
	w_box(&r, NULL);
	assert_int_equal(mvinch(0, 0) & A_CHARTEXT, '+');
	assert_int_equal(mvinch(0, 5) & A_CHARTEXT, '-');
	assert_int_equal(mvinch(1, 0) & A_CHARTEXT, '|');
	assert_int_equal(mvinch(2, 11) & A_CHARTEXT, '+');
	assert_int_equal(mvinch(1, 11) & A_ALTCHARSET, 0);
	term_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spark_ascii_levels),
		cmocka_unit_test(test_spark_short_history_right_aligned),
		cmocka_unit_test(test_spark_unread_is_a_gap),
		cmocka_unit_test(test_spark_keeps_newest),
		cmocka_unit_test(test_spark_utf8_and_truncation),
		cmocka_unit_test(test_spark_hostile_values),
		cmocka_unit_test(test_fmt_si),
		cmocka_unit_test(test_fmt_bytes_and_ou64),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_table_scroll),
		cmocka_unit_test(test_table_keys),
		cmocka_unit_test(test_print_escapes),
		cmocka_unit_test(test_fmt_counter_units),
		cmocka_unit_test(test_fit_ellipsis),
		cmocka_unit_test(test_fit_ascii),
		cmocka_unit_test(test_columns_fit),
		cmocka_unit_test(test_lines_position_row),
		cmocka_unit_test(test_page_keys_follow_drawn_height),
		cmocka_unit_test(test_edit_key),
		cmocka_unit_test(test_box_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
