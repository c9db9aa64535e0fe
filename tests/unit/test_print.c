// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <json-c/json.h>
#include <math.h>

#include "core/escape.h"
#include "core/print.h"

/* Run fn with a printer on a memory stream; return what it wrote. */
static char *capture(bool json, void (*fn)(struct rd_printer *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rd_printer p;

	assert_non_null(f);
	rd_print_begin(&p, f, json);
	fn(&p);
	assert_int_equal(rd_print_end(&p), 0);
	fclose(f);
	return buf;
}

static const char hostile[] = "q\"uote\\ \x1b[2J \xc2\x9b \xff\n";

static void hostile_doc(struct rd_printer *p)
{
	rd_print_open_object(p, NULL);
	rd_print_str(p, "name", "name %s\n", hostile);
	rd_print_str(p, hostile, "key %s\n", "v");
	rd_print_double(p, "inf", "inf %.1f\n", INFINITY);
	rd_print_double(p, "nan", "nan %.1f\n", NAN);
	rd_print_double(p, "gbps", "gbps %.2f\n", 93.5);
	rd_print_u64(p, "bytes", "bytes %" PRIu64 "\n", UINT64_MAX);
	rd_print_s64(p, "delta", "delta %" PRId64 "\n", -5);
	rd_print_bool(p, "ok", "ok %s\n", true);
	rd_print_null(p, "none", "none\n");
	rd_print_open_array(p, "list");
	rd_print_str(p, NULL, "item %s\n", "a");
	rd_print_u64(p, NULL, "item %" PRIu64 "\n", 2);
	rd_print_close(p);
	rd_print_text(p, "text only %d\n", 7);
	rd_print_close(p);
}

/* JSON text has no raw control byte but the newlines between lines. */
static bool no_raw_controls(const char *s)
{
	for (const unsigned char *c = (const void *)s; *c; c++)
		if (*c < 0x20 && *c != '\n')
			return false;
	return true;
}

static void test_json_is_valid(void **state)
{
	char *out = capture(true, hostile_doc);
	struct json_object *j, *v;
	char *flat;

	(void)state;
	assert_true(no_raw_controls(out));
	assert_null(strstr(out, "Infinity"));
	assert_null(strstr(out, "NaN"));
	assert_null(strstr(out, "text only"));
	/* Every byte is valid UTF-8 once newlines are set aside. */
	flat = strdup(out);
	for (char *c = flat; *c; c++)
		if (*c == '\n')
			*c = ' ';
	assert_true(rd_text_clean(flat, strlen(flat)));
	free(flat);
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "name", &v));
	/* Invalid UTF-8 inside: the whole string is shown escaped. */
	assert_string_equal(json_object_get_string(v), rd_esc_tmp(hostile));
	assert_non_null(strstr(json_object_get_string(v), "\\xff"));
	/* Valid UTF-8 with a control character is escaped too. */
	assert_string_equal(rd_print_json_text("a\x1b[2Jb"), "a\\x1b[2Jb");
	assert_string_equal(rd_print_json_text("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_true(json_object_object_get_ex(j, "inf", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(j, "nan", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(j, "bytes", &v));
	assert_true(json_object_get_uint64(v) == UINT64_MAX);
	assert_true(json_object_object_get_ex(j, "list", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_true(json_object_object_get_ex(j, "none", &v));
	assert_null(v);
	json_object_put(j);
	free(out);
}

static void test_text_is_escaped(void **state)
{
	char *out = capture(false, hostile_doc);

	(void)state;
	assert_null(strchr(out, '\x1b'));
	assert_null(strstr(out, "\xc2\x9b"));
	assert_non_null(strstr(out, "name q\"uote\\ \\x1b[2J \\xc2\\x9b \\xff\\n\n"));
	assert_non_null(strstr(out, "inf inf\n"));
	assert_non_null(strstr(out, "ok yes\n"));
	assert_non_null(strstr(out, "none\n"));
	assert_non_null(strstr(out, "item a\nitem 2\n"));
	assert_non_null(strstr(out, "text only 7\n"));
	free(out);
}

static void unbalanced(struct rd_printer *p)
{
	rd_print_open_object(p, NULL);
}

static void test_unbalanced_is_an_error(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rd_printer p;

	(void)state;
	rd_print_begin(&p, f, true);
	unbalanced(&p);
	assert_int_equal(rd_print_end(&p), -EINVAL);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_is_valid),
		cmocka_unit_test(test_text_is_escaped),
		cmocka_unit_test(test_unbalanced_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
