// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include "core/escape.h"

static void expect_esc(const char *in, const char *want)
{
	char buf[256];
	size_t n = rd_esc(buf, sizeof(buf), in);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_esc(void **state)
{
	(void)state;
	expect_esc("mlx5_0", "mlx5_0");
	expect_esc(NULL, "");
	expect_esc("a\x1b[2Jb", "a\\x1b[2Jb");
	expect_esc("1.0\n  PASS", "1.0\\n  PASS");
	expect_esc("t\tab", "t\\tab");
	expect_esc("back\\slash", "back\\slash");
	expect_esc("\x7f", "\\x7f");
	/* C1 CSI as UTF-8 (U+009B) is a control: escaped byte by byte. */
	expect_esc("x\xc2\x9by", "x\\xc2\\x9by");
	/* Valid UTF-8 passes: an em dash and a CJK character. */
	expect_esc("a\xe2\x80\x94\xe4\xb8\xad", "a\xe2\x80\x94\xe4\xb8\xad");
	/* Invalid UTF-8: overlong, surrogate, truncated. */
	expect_esc("\xc0\xaf", "\\xc0\\xaf");
	expect_esc("\xed\xa0\x80", "\\xed\\xa0\\x80");
	expect_esc("ok\xe2\x80", "ok\\xe2\\x80");
}

/*
 * Characters that print nothing and reorder or hide what follows are
 * escaped as C1 is: the bidirectional override U+202E, the line separator
 * U+2028, the zero-width space U+200B, an isolate U+2066, the BOM; text
 * around them and other UTF-8 stay as they are.
 */
static void test_esc_invisible(void **state)
{
	char *d;

	(void)state;
	expect_esc("a\xe2\x80\xae" "b", "a\\xe2\\x80\\xaeb");
	expect_esc("a\xe2\x80\xa8" "b", "a\\xe2\\x80\\xa8b");
	expect_esc("a\xe2\x80\x8b" "b", "a\\xe2\\x80\\x8bb");
	expect_esc("a\xe2\x81\xa6" "b", "a\\xe2\\x81\\xa6b");
	expect_esc("\xef\xbb\xbfx", "\\xef\\xbb\\xbfx");
	expect_esc("\xe2\x80\x94 \xc3\xa9", "\xe2\x80\x94 \xc3\xa9");
	assert_false(rd_text_clean("\xe2\x80\xae", 3));
	assert_true(rd_text_clean("\xe2\x80\x94", 3));
	/* The exact form keeps a backslash apart from an escape. */
	d = rd_esc_exact_dup("\x1b\\x1b");
	assert_string_equal(d, "\\x1b\\\\x1b");
	free(d);
}

static void test_esc_truncates_and_sizes(void **state)
{
	char small[5];
	char big[3000];

	(void)state;
	assert_int_equal(rd_esc(small, sizeof(small), "\x1b\x1b"), 8);
	assert_string_equal(small, "\\x1b");
	assert_int_equal(rd_esc(NULL, 0, "abc"), 3);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	const char *t = rd_esc_tmp(big);
	assert_int_equal(strlen(t), RD_ESC_MAX);
	assert_string_equal(t + RD_ESC_MAX - 3, "...");
	char *d = rd_esc_dup("\x01");
	assert_string_equal(d, "\\x01");
	free(d);
}

static void test_text_clean(void **state)
{
	(void)state;
	assert_true(rd_text_clean("plain text", 10));
	assert_true(rd_text_clean("\xe2\x80\x94", 3));
	assert_false(rd_text_clean("a\nb", 3));
	assert_false(rd_text_clean("a\tb", 3));
	assert_false(rd_text_clean("\xc2\x9b", 2));
	assert_false(rd_text_clean("\xff", 1));
	assert_false(rd_text_clean("a\0b", 3));
}

static void expect_q(const char *in, const char *want)
{
	char buf[256];

	assert_int_equal(rd_shquote(buf, sizeof(buf), in), strlen(want));
	assert_string_equal(buf, want);
}

static void test_utf8_seq(void **state)
{
	static const struct {
		const char *b;
		size_t len, n;
		uint32_t cp;
	} t[] = {
		{ "\xc3\xa9", 2, 2, 0xe9 },	       /* e acute */
		{ "\xc2\x85", 2, 2, 0x85 },	       /* C1 NEL: valid */
		{ "\xe2\x82\xac", 3, 3, 0x20ac },      /* euro */
		{ "\xf0\x9f\x98\x80", 4, 4, 0x1f600 }, /* emoji */
		{ "\xc3\xa9z", 3, 2, 0xe9 },	       /* stops after one */
		{ "\xc3", 1, 0, 0 },		       /* cut short */
		{ "\xe2\x82", 2, 0, 0 },	       /* cut short */
		{ "\xc0\xaf", 2, 0, 0 },	       /* overlong '/' */
		{ "\xe0\x80\xaf", 3, 0, 0 },	       /* overlong */
		{ "\xed\xa0\x80", 3, 0, 0 },	       /* surrogate */
		{ "\xf4\x90\x80\x80", 4, 0, 0 },       /* past U+10FFFF */
		{ "\x80", 1, 0, 0 },		       /* lone continuation */
		{ "\xc3z", 2, 0, 0 },		       /* bad continuation */
		{ "\xff", 1, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t cp = 0;
		size_t n = rd_utf8_seq((const unsigned char *)t[i].b, t[i].len,
				       &cp);

		if (n != t[i].n || (n && cp != t[i].cp))
			fail_msg("case %zu: %zu bytes U+%04X, want %zu U+%04X",
				 i, n, (unsigned)cp, t[i].n, (unsigned)t[i].cp);
	}
}

static void expect_trim(const char *in, const char *want)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%s", in);
	rd_utf8_trim_cut(buf);
	assert_string_equal(buf, want);
}

static void test_utf8_trim_cut(void **state)
{
	(void)state;
	expect_trim("", "");
	expect_trim("plain", "plain");
	expect_trim("dash \xe2\x80\x94", "dash \xe2\x80\x94");
	expect_trim("dash \xe2\x80", "dash ");
	expect_trim("dash \xe2", "dash ");
	expect_trim("x\xc2", "x");
	expect_trim("x\xc2\xbb", "x\xc2\xbb");
	expect_trim("\xf3\x8a\x9f", "");
	expect_trim("a\xf3\x8a\x9f\x8f", "a\xf3\x8a\x9f\x8f");
	/* A stray continuation byte is not a cut sequence: left as it is. */
	expect_trim("a\x80", "a\x80");
}

/* A message cut by its buffer keeps whole characters, returns the need. */
static void test_snprintf_text(void **state)
{
	char b[8];

	(void)state;
	/* "é" is two bytes: the buffer's last byte would hold half of one. */
	assert_int_equal(rd_snprintf_text(b, sizeof(b), "ab%s", "\xc3\xa9\xc3\xa9\xc3\xa9"),
			 8);
	assert_string_equal(b, "ab\xc3\xa9\xc3\xa9");
	assert_int_equal(rd_snprintf_text(b, sizeof(b), "a%s", "\xc3\xa9\xc3\xa9\xc3\xa9"),
			 7);
	assert_string_equal(b, "a\xc3\xa9\xc3\xa9\xc3\xa9");
	/* Not cut: left alone, even a stray byte (escaping is another step). */
	assert_int_equal(rd_snprintf_text(b, sizeof(b), "%s", "x\xc3"), 2);
	assert_string_equal(b, "x\xc3");
	assert_int_equal(rd_snprintf_text(b, sizeof(b), "%d-%s", 12, "\xe2\x80\x94\xe2\x80\x94"), 9);
	assert_string_equal(b, "12-\xe2\x80\x94");
	assert_int_equal(rd_snprintf_text(NULL, 0, "%s", "abc"), 3);
}

static void test_shquote(void **state)
{
	(void)state;
	expect_q("ens1f0np0", "ens1f0np0");
	expect_q("/proc/sys/vm/nr_hugepages", "/proc/sys/vm/nr_hugepages");
	expect_q("e$(reboot)", "'e$(reboot)'");
	expect_q("", "''");
	expect_q("it's", "'it'\\''s'");
	expect_q("a b;c|d&e`f`", "'a b;c|d&e`f`'");
	expect_q("e\x1b]0;x\x07", "$'e\\x1b]0;x\\x07'");
	expect_q("q'\n", "$'q\\'\\n'");
	assert_string_equal(rd_shquote_tmp("x y"), "'x y'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_esc),
		cmocka_unit_test(test_esc_invisible),
		cmocka_unit_test(test_esc_truncates_and_sizes),
		cmocka_unit_test(test_text_clean),
		cmocka_unit_test(test_shquote),
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_utf8_trim_cut),
		cmocka_unit_test(test_snprintf_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
