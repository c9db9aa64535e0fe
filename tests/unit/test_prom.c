// SPDX-License-Identifier: GPL-2.0-or-later
/* The exposition writer: grouping, HELP/TYPE, escaping, numbers. */
#include "unit.h"

#include <math.h>

#include "export/prom.h"

static char *render(struct rd_prom *w)
{
	char *out;
	size_t len;

	assert_int_equal(rd_prom_render(w, &out, &len), 0);
	assert_int_equal(strlen(out), len);
	return out;
}

static void test_grouped_by_family(void **state)
{
	struct rd_prom w;
	const char *a[] = { "device", "mlx5_0", NULL };
	const char *b[] = { "device", "mlx5_1", NULL };
	char *out;

	(void)state;
	rd_prom_init(&w);
	rd_prom_u64(&w, "x_total", RD_PROM_COUNTER, "X things", a, 1);
	rd_prom_u64(&w, "y_bytes", RD_PROM_GAUGE, "Y", a, 2);
	rd_prom_u64(&w, "x_total", RD_PROM_COUNTER, "ignored later help", b, 3);
	rd_prom_u64(&w, "z", RD_PROM_GAUGE, "no labels", NULL, 18446744073709551615u);
	out = render(&w);
	assert_string_equal(out,
			    "# HELP x_total X things\n"
			    "# TYPE x_total counter\n"
			    "x_total{device=\"mlx5_0\"} 1\n"
			    "x_total{device=\"mlx5_1\"} 3\n"
			    "# HELP y_bytes Y\n"
			    "# TYPE y_bytes gauge\n"
			    "y_bytes{device=\"mlx5_0\"} 2\n"
			    "# HELP z no labels\n"
			    "# TYPE z gauge\n"
			    "z 18446744073709551615\n");
	free(out);
	rd_prom_free(&w);
}

static void test_label_escaping(void **state)
{
	struct rd_prom w;
	/* Quote, newline, a terminal escape, invalid UTF-8, and UTF-8 kept. */
	const char *l[] = { "v", "a\"b\nc\x1b[2J\xff\xc3\xa9\\", NULL };
	char *out;

	(void)state;
	rd_prom_init(&w);
	rd_prom_u64(&w, "m", RD_PROM_GAUGE, "help with \\ and\nnewline", l, 1);
	out = render(&w);
	/*
	 * Outside text is first made printable (rd_esc_exact_dup: \n ->
	 * \\n, ESC -> \\x1b, a bad byte -> \\xff, a backslash doubled),
	 * then quoted for the format: each backslash doubled again, the quote
	 * escaped.
	 */
	assert_string_equal(out,
			    "# HELP m help with \\\\ and\\nnewline\n"
			    "# TYPE m gauge\n"
			    "m{v=\"a\\\"b\\\\nc\\\\x1b[2J\\\\xff\xc3\xa9\\\\\\\\\"} 1\n");
	free(out);
	rd_prom_free(&w);
}

static void test_escape_value(void **state)
{
	char b[32];

	(void)state;
	assert_int_equal(rd_prom_escape_value(b, sizeof(b), "a\\b\"c\nd"), 10);
	assert_string_equal(b, "a\\\\b\\\"c\\nd");
	/* Too small: cut, still terminated, full length returned. */
	assert_int_equal(rd_prom_escape_value(b, 4, "\"\"\""), 6);
	assert_string_equal(b, "\\\"\\");
	assert_int_equal(rd_prom_escape_value(b, sizeof(b), NULL), 0);
	assert_string_equal(b, "");
}

static void test_numbers(void **state)
{
	struct rd_prom w;
	char *out;

	(void)state;
	rd_prom_init(&w);
	rd_prom_dbl(&w, "a", RD_PROM_GAUGE, "h", NULL, 12.5e9);
	rd_prom_dbl(&w, "b", RD_PROM_GAUGE, "h", NULL, 0.1);
	rd_prom_dbl(&w, "c", RD_PROM_GAUGE, "h", NULL, NAN);
	rd_prom_dbl(&w, "d", RD_PROM_GAUGE, "h", NULL, -INFINITY);
	rd_prom_num(&w, "e", RD_PROM_COUNTER, "h", NULL, "1.000002");
	out = render(&w);
	assert_non_null(strstr(out, "\na 12500000000\n"));
	assert_non_null(strstr(out, "\nb 0.1\n"));
	assert_non_null(strstr(out, "\nc NaN\n"));
	assert_non_null(strstr(out, "\nd -Inf\n"));
	assert_non_null(strstr(out, "\ne 1.000002\n"));
	free(out);
	rd_prom_free(&w);
}

static void test_bad_names_refused(void **state)
{
	struct rd_prom w;
	const char *bad_label[] = { "0abc", "v", NULL };
	char *out;
	size_t len;

	(void)state;
	assert_true(rd_prom_valid_name("node_infiniband_info", 0));
	assert_true(rd_prom_valid_name("a:b", 0));
	assert_false(rd_prom_valid_name("a:b", 1));
	assert_false(rd_prom_valid_name("9a", 0));
	assert_false(rd_prom_valid_name("a-b", 0));
	assert_false(rd_prom_valid_name("", 0));

	rd_prom_init(&w);
	rd_prom_u64(&w, "bad-name", RD_PROM_GAUGE, "h", NULL, 1);
	assert_int_equal(rd_prom_render(&w, &out, &len), -EINVAL);
	assert_null(out);
	rd_prom_free(&w);

	rd_prom_init(&w);
	rd_prom_u64(&w, "good", RD_PROM_GAUGE, "h", bad_label, 1);
	assert_int_equal(rd_prom_render(&w, &out, &len), -EINVAL);
	rd_prom_free(&w);
}

/*
 * An ESC byte and the four characters "\x1b" in a label are two series:
 * escaped alike they were one, and the second was dropped as a repeat.
 */
static void test_label_escapes_differ(void **state)
{
	struct rd_prom w;
	const char *esc[] = { "counter", "c\x1b", NULL };
	const char *text[] = { "counter", "c\\x1b", NULL };
	char *out;

	(void)state;
	rd_prom_init(&w);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", esc, 1);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", text, 2);
	assert_int_equal(w.dropped, 0);
	out = render(&w);
	assert_non_null(strstr(out, "e_total{counter=\"c\\\\x1b\"} 1\n"));
	assert_non_null(
		strstr(out, "e_total{counter=\"c\\\\\\\\x1b\"} 2\n"));
	free(out);
	rd_prom_free(&w);
}

static void test_repeated_series_dropped(void **state)
{
	struct rd_prom w;
	const char *a[] = { "counter", "rx_crc_errors_phy", NULL };
	const char *b[] = { "counter", "rx_symbol_err_phy", NULL };
	char *out, name[32];

	(void)state;
	rd_prom_init(&w);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", a, 1);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", b, 2);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", a, 3);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", NULL, 4);
	rd_prom_u64(&w, "e_total", RD_PROM_COUNTER, "h", NULL, 5);
	/* Enough series to grow the table several times. */
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "s%d", i % 2500);
		rd_prom_u64(&w, name, RD_PROM_GAUGE, "h", NULL, (uint64_t)i);
	}
	assert_int_equal(w.dropped, 2 + 2500);
	out = render(&w);
	assert_non_null(strstr(out,
			       "# TYPE e_total counter\n"
			       "e_total{counter=\"rx_crc_errors_phy\"} 1\n"
			       "e_total{counter=\"rx_symbol_err_phy\"} 2\n"
			       "e_total 4\n"
			       "# HELP s0 h\n"));
	assert_non_null(strstr(out, "\ns0 0\n"));
	assert_non_null(strstr(out, "\ns2499 2499\n"));
	assert_null(strstr(out, "\ns0 2500\n"));
	free(out);
	rd_prom_free(&w);
}

static void test_empty(void **state)
{
	struct rd_prom w;
	char *out;

	(void)state;
	rd_prom_init(&w);
	out = render(&w);
	assert_string_equal(out, "");
	free(out);
	rd_prom_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped_by_family),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_escape_value),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_bad_names_refused),
		cmocka_unit_test(test_repeated_series_dropped),
		cmocka_unit_test(test_label_escapes_differ),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
