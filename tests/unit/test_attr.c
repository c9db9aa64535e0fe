// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include "core/attr.h"
#include "core/roots.h"

#include <pwd.h>

static void test_parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(rd_parse_u64("42", 10, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(rd_parse_u64(" 42\n", 10, &v), 0);
	assert_int_equal(rd_parse_u64("18446744073709551615", 10, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(rd_parse_u64("18446744073709551616", 10, &v), -ERANGE);
	assert_int_equal(rd_parse_u64("-1", 10, &v), -ERANGE);
	assert_int_equal(rd_parse_u64("+1", 10, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("12abc", 10, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("", 10, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("   ", 10, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("1 2", 10, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("0x10", 0, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(rd_parse_u64("0xffff", 16, &v), 0);
	assert_int_equal(v, 0xffff);
	assert_int_equal(rd_parse_u64("ffff", 16, &v), 0);
	assert_int_equal(rd_parse_u64("0x", 16, &v), -EINVAL);
	assert_int_equal(rd_parse_u64("9", 8, &v), -EINVAL);
}

static void test_parse_u32_s64_double(void **state)
{
	uint32_t u;
	int64_t s;
	double d;

	(void)state;
	assert_int_equal(rd_parse_u32("4294967295", 10, &u), 0);
	assert_int_equal(rd_parse_u32("4294967296", 10, &u), -ERANGE);
	assert_int_equal(rd_parse_s64("-1", 10, &s), 0);
	assert_int_equal(s, -1);
	assert_int_equal(rd_parse_s64("-9223372036854775808", 10, &s), 0);
	assert_true(s == INT64_MIN);
	assert_int_equal(rd_parse_s64("9223372036854775808", 10, &s), -ERANGE);
	assert_int_equal(rd_parse_s64("--1", 10, &s), -EINVAL);
	assert_int_equal(rd_parse_double("2.5", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(rd_parse_double("nan", &d), -ERANGE);
	assert_int_equal(rd_parse_double("1e999", &d), -ERANGE);
	assert_int_equal(rd_parse_double("2.5x", &d), -EINVAL);
}

static void test_prefix_and_ids(void **state)
{
	uint64_t v;
	const char *rest;
	uint8_t gid[16];
	char buf[64];

	(void)state;
	assert_int_equal(rd_parse_u64_prefix("4: ACTIVE", ":", &v, &rest), 0);
	assert_int_equal(v, 4);
	assert_string_equal(rest, "ACTIVE");
	assert_int_equal(rd_parse_u64_prefix("5", ":", &v, &rest), 0);
	assert_int_equal(rd_parse_u64_prefix("x: ACTIVE", ":", &v, NULL), -EINVAL);
	assert_int_equal(rd_parse_u64_prefix("4 ACTIVE", ":", &v, NULL), -EINVAL);
	assert_int_equal(rd_parse_u64_prefix("-4: X", ":", &v, NULL), -ERANGE);
	assert_int_equal(rd_parse_u64_prefix("+4: X", ":", &v, NULL), -EINVAL);
	assert_int_equal(rd_parse_u64_prefix(NULL, ":", &v, NULL), -EINVAL);
	assert_int_equal(rd_parse_u64_prefix(" 7 ", ":", &v, &rest), 0);
	assert_int_equal(v, 7);
	assert_string_equal(rest, "");

	assert_int_equal(rd_parse_guid("b8ce:f603:00a1:b2c4", &v), 0);
	assert_true(v == 0xb8cef60300a1b2c4ull);
	rd_format_guid(v, buf, sizeof(buf));
	assert_string_equal(buf, "b8ce:f603:00a1:b2c4");
	assert_int_equal(rd_parse_guid("b8ce:f603:00a1", &v), -EINVAL);
	assert_int_equal(rd_parse_guid("b8ce:f603:00a1:b2c4:", &v), -EINVAL);
	assert_int_equal(rd_parse_guid("b8ce:f603:00a1:b2cg", &v), -EINVAL);

	assert_int_equal(rd_parse_gid("fe80:0000:0000:0000:5054:00ff:fe12:3456",
				      gid), 0);
	assert_int_equal(gid[0], 0xfe);
	assert_int_equal(gid[15], 0x56);
	rd_format_gid(gid, buf, sizeof(buf));
	assert_string_equal(buf, "fe80:0000:0000:0000:5054:00ff:fe12:3456");
	assert_int_equal(rd_parse_gid("fe80::1", gid), -EINVAL);
}

static void test_text_check(void **state)
{
	(void)state;
	assert_int_equal(rd_text_check("plain text", 10), 0);
	/* One value never holds a line break, a tab or a C1 control. */
	assert_int_equal(rd_text_check("tab\there", 8), -EILSEQ);
	assert_int_equal(rd_text_check("1.0\n  PASS", 10), -EILSEQ);
	assert_int_equal(rd_text_check("x\xc2\x9b" "2J", 5), -EILSEQ);
	assert_int_equal(rd_text_check("x\xc2\x80", 3), -EILSEQ);
	assert_int_equal(rd_text_check("\xc2\xa0nbsp", 6), 0);
	/* Lines of text keep their tabs and newlines, nothing else. */
	assert_int_equal(rd_text_check_lines("a\tb\nc", 5), 0);
	assert_int_equal(rd_text_check_lines("a\x1b[2J", 5), -EILSEQ);
	assert_int_equal(rd_text_check_lines("a\xc2\x9b", 3), -EILSEQ);
	assert_int_equal(rd_text_check("bell\a", 5), -EILSEQ);
	assert_int_equal(rd_text_check("\xc3\xa9t\xc3\xa9", 5), 0);
	assert_int_equal(rd_text_check("\xc3", 1), -EILSEQ);
	assert_int_equal(rd_text_check("\xff\xfe", 2), -EILSEQ);
	assert_int_equal(rd_text_check("\xc0\xaf", 2), -EILSEQ); /* overlong */
	assert_int_equal(rd_text_check("\xed\xa0\x80", 3), -EILSEQ); /* surrogate */
}

static void test_reader(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], buf[64];
	FILE *f;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_put(dir, "ok", "4: ACTIVE\n");
	snprintf(path, sizeof(path), "%s/ok", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "4: ACTIVE");

	unit_put(dir, "empty", "");
	snprintf(path, sizeof(path), "%s/empty", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");

	/* Exactly fills the buffer: refused, never truncated. */
	unit_put(dir, "long", "0123456789012345678901234567890123456789012345678901234567890123456789");
	snprintf(path, sizeof(path), "%s/long", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -EFBIG);

	snprintf(path, sizeof(path), "%s/bin", dir);
	f = fopen(path, "w");
	fwrite("ab\0cd", 1, 5, f);
	fclose(f);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -EILSEQ);

	/* A forged second line in a one-value attribute is refused. */
	unit_put(dir, "fw_ver", "1.0\n  PASS    driver.modules\n");
	snprintf(path, sizeof(path), "%s/fw_ver", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -EILSEQ);
	/* The same bytes are fine in a file of lines. */
	assert_int_equal(rd_attr_read_lines(path, buf, sizeof(buf)), 28);

	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -ENOENT);

	snprintf(path, sizeof(path), "%s", dir);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -EISDIR);

	/* A FIFO must not block the reader. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -EINVAL);

	snprintf(path, sizeof(path), "%s/loop", dir);
	assert_int_equal(symlink("loop", path), 0);
	assert_int_equal(rd_attr_read(path, buf, sizeof(buf)), -ELOOP);

	/* pread re-reads the current content. */
	snprintf(path, sizeof(path), "%s/ok", dir);
	int fd = rd_attr_open(path);
	assert_true(fd >= 0);
	assert_int_equal(rd_attr_pread(fd, buf, sizeof(buf)), 9);
	unit_put(dir, "ok", "1: DOWN\n");
	assert_int_equal(rd_attr_pread(fd, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "1: DOWN");
	close(fd);
	unit_rmtree(dir);
}

/* Config space and VPD: bytes, NULs included, up to the caller's size. */
static void test_bytes(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	uint8_t buf[8];
	int dfd;
	FILE *f;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/config", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite("\x86\x80\0\x10\xff\0", 1, 6, f);
	fclose(f);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(rd_attr_read_bytes_at(dfd, "config", buf, 4), 4);
	assert_memory_equal(buf, "\x86\x80\0\x10\xaa", 5);
	/* Shorter than the buffer: its length, not an error. */
	assert_int_equal(rd_attr_read_bytes_at(dfd, "config", buf, sizeof(buf)),
			 6);
	assert_memory_equal(buf, "\x86\x80\0\x10\xff\0\xaa", 7);
	unit_put(dir, "empty", "");
	assert_int_equal(rd_attr_read_bytes_at(dfd, "empty", buf, sizeof(buf)),
			 0);
	assert_int_equal(rd_attr_read_bytes_at(dfd, "vpd", buf, sizeof(buf)),
			 -ENOENT);
	/* A planted link is not followed, a FIFO does not block. */
	snprintf(path, sizeof(path), "%s/vpd", dir);
	assert_int_equal(symlink("config", path), 0);
	assert_int_equal(rd_attr_read_bytes_at(dfd, "vpd", buf, sizeof(buf)),
			 -ELOOP);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rd_attr_read_bytes_at(dfd, "fifo", buf, sizeof(buf)),
			 -EINVAL);
	close(dfd);
	unit_rmtree(dir);
}

static void test_roots(void **state)
{
	struct rd_roots r;
	char buf[32];

	(void)state;
	/* Under sudo the environment is the caller's and is ignored. */
	unsetenv("SUDO_UID");
	setenv("RDMADIAG_SYSFS_ROOT", "/tmp/fixture/sys/", 1);
	rd_roots_init(&r);
	assert_string_equal(r.sysfs, "/tmp/fixture/sys");
	assert_string_equal(r.proc, "/proc");
	assert_true(r.redirected);
	unsetenv("RDMADIAG_SYSFS_ROOT");
	rd_roots_init(&r);
	assert_string_equal(r.sysfs, "/sys");
	assert_false(r.redirected);
	assert_int_equal(rd_roots_under(&r, "/x/"), 0);
	assert_string_equal(r.etc, "/x/etc");
	assert_int_equal(rd_path(buf, sizeof(buf), "/sys", "/class/%s", "infiniband"), 0);
	assert_string_equal(buf, "/sys/class/infiniband");
	assert_int_equal(rd_path(buf, 8, "/sys", "/class/%s", "infiniband"),
			 -ENAMETOOLONG);
	assert_int_equal(rd_roots_set(buf, ""), -EINVAL);
}

/*
 * Under sudo the terminal database and locale files the caller's
 * environment names are dropped, and HOME is the effective user's own;
 * without sudo they are the user's own and stay.
 */
static void test_env_scrub(void **state)
{
	static const char *const vars[] = { "TERMINFO", "TERMINFO_DIRS",
					    "TERMCAP",	"TERMPATH",
					    "LOCPATH",	"NLSPATH" };
	const struct passwd *pw = getpwuid(geteuid());

	(void)state;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		setenv(vars[i], "/tmp/caller", 1);
	setenv("HOME", "/tmp/caller-home", 1);
	unsetenv("SUDO_UID");
	rd_env_scrub();
	assert_string_equal(getenv("TERMINFO"), "/tmp/caller");
	assert_string_equal(getenv("HOME"), "/tmp/caller-home");
	setenv("SUDO_UID", "1000", 1);
	rd_env_scrub();
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		assert_null(getenv(vars[i]));
	if (pw)
		assert_string_equal(getenv("HOME"), pw->pw_dir);
	unsetenv("SUDO_UID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_u32_s64_double),
		cmocka_unit_test(test_prefix_and_ids),
		cmocka_unit_test(test_text_check),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_env_scrub),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
