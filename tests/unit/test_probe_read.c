// SPDX-License-Identifier: GPL-2.0-or-later
/* The probes' checked reads: what is recorded, what is handed back. */
#include "config.h"
#include "unit.h"

#include "core/attr.h"
#include "probes/read.h"

/* Each test's snapshot and scratch directory. */
struct fx {
	struct rd_snapshot s;
	char dir[PATH_MAX];
};

static int fx_setup(void **state)
{
	static struct fx f;

	rd_snapshot_init(&f.s);
	unit_tmpdir(f.dir, sizeof(f.dir));
	*state = &f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	rd_snapshot_free(&f->s);
	unit_rmtree(f->dir);
	return 0;
}

static void test_read_records(void **state)
{
	struct fx *f = *state;
	struct rd_snapshot *s = &f->s;
	const char *dir = f->dir;
	char buf[64];
	int fd;

	unit_put(dir, "a/fw_ver", "22.36.1010\n");
	unit_put(dir, "a/vendor", "0x15b3\n");
	unit_put(dir, "a/mtu", "9000\n");
	unit_put(dir, "a/bad", "12ab\n");
	snprintf(buf, sizeof(buf), "%s/a", dir);
	fd = open(buf, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);

	assert_int_equal(rd_probe_read(s, "t", fd, "/x", "fw_ver", buf,
				       sizeof(buf), false), 0);
	assert_string_equal(buf, "22.36.1010");
	/* Absent and optional: nothing recorded. */
	assert_int_equal(rd_probe_read(s, "t", fd, "/x", "none", buf,
				       sizeof(buf), true), -ENOENT);
	assert_int_equal(s->n_errors, 0);
	/* Absent and wanted: recorded with its path. */
	assert_int_equal(rd_probe_read(s, "t", fd, "/x", "none", buf,
				       sizeof(buf), false), -ENOENT);
	assert_int_equal(s->n_errors, 1);
	assert_string_equal(s->errors[0].where, "/x/none");
	assert_string_equal(s->errors[0].source, "t");

	uint64_t v = 7;

	assert_int_equal(rd_probe_read_u64(s, "t", fd, "/x", "vendor", true,
					   0xffff, &v, false), 0);
	assert_int_equal(v, 0x15b3);
	/* Hex only when asked; above max; junk: recorded, v untouched. */
	v = 7;
	assert_int_equal(rd_probe_read_u64(s, "t", fd, "/x", "vendor", false,
					   0xffff, &v, false), -EINVAL);
	assert_int_equal(rd_probe_read_u64(s, "t", fd, "/x", "mtu", false,
					   1500, &v, false), -EINVAL);
	assert_int_equal(rd_probe_read_u64(s, "t", fd, "/x", "bad", true,
					   UINT64_MAX, &v, true), -EINVAL);
	assert_int_equal(v, 7);
	assert_int_equal(s->n_errors, 4);
	assert_non_null(strstr(s->errors[3].message, "12ab"));
	/* A path without a base (AT_FDCWD). */
	snprintf(buf, sizeof(buf), "%s/a/mtu", dir);
	assert_int_equal(rd_probe_read_u64(s, "t", AT_FDCWD, NULL, buf, false,
					   65535, &v, false), 0);
	assert_int_equal(v, 9000);
	close(fd);
}

static void test_link_name(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], name[16];

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/driver", dir);
	assert_int_equal(symlink("../../bus/pci/drivers/mlx5_core", path), 0);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 0);
	assert_string_equal(name, "mlx5_core");
	/* A name with a control byte, a trailing slash, one too long. */
	snprintf(path, sizeof(path), "%s/ctl", dir);
	assert_int_equal(symlink("../x/bad\x1b[2Jname", path), 0);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 -EINVAL);
	snprintf(path, sizeof(path), "%s/slash", dir);
	assert_int_equal(symlink("../x/", path), 0);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 -EINVAL);
	snprintf(path, sizeof(path), "%s/long", dir);
	assert_int_equal(symlink("0123456789abcdef", path), 0);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 -EINVAL);
	/* Not a link, or absent: readlink's errno. */
	unit_put(dir, "file", "x\n");
	snprintf(path, sizeof(path), "%s/file", dir);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 -EINVAL);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)),
			 -ENOENT);
	unit_rmtree(dir);
}

static void test_lead_number(void **state)
{
	const char *end;
	double v;

	(void)state;
	assert_int_equal(rd_probe_lead_number("  8.0 GT/s", &v, &end), 0);
	assert_true(v > 7.99 && v < 8.01);
	assert_string_equal(end, " GT/s");
	assert_int_equal(rd_probe_lead_number("100 Gb/sec (4X EDR)", &v, &end), 0);
	assert_true(v > 99.9 && v < 100.1);
	assert_int_equal(rd_probe_lead_number("Gb/sec", &v, &end), -EINVAL);
	assert_int_equal(rd_probe_lead_number("", &v, &end), -EINVAL);
	assert_int_equal(rd_probe_lead_number("1.2.3", &v, &end), -EINVAL);
	assert_int_equal(rd_probe_lead_number(
				 "123456789012345678901234567890123 x", &v, &end),
			 -EINVAL);
}

/* Listing and opening a directory under a root: what is recorded. */
static void test_dirs(void **state)
{
	struct fx *f = *state;
	struct rd_snapshot *s = &f->s;
	const char *root = f->dir;
	char path[PATH_MAX], tiny[8];
	char **names;
	size_t n;
	int fd;

	unit_put(root, "d/b", "1\n");
	unit_put(root, "d/a", "2\n");
	unit_put(root, "f", "3\n");
	assert_int_equal(rd_probe_list_under(s, "t", path, sizeof(path), root,
					     "/d", 8, &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "b");
	assert_non_null(strstr(path, "/d"));
	rd_dir_free(names, n);
	/* Absent: not recorded. A path that does not fit: not recorded. */
	assert_int_equal(rd_probe_list_under(s, "t", path, sizeof(path), root,
					     "/none", 8, &names, &n), -ENOENT);
	assert_int_equal(rd_probe_list_under(s, "t", tiny, sizeof(tiny), root,
					     "/d", 8, &names, &n),
			 -ENAMETOOLONG);
	assert_int_equal(s->n_errors, 0);

	snprintf(path, sizeof(path), "%s/d", root);
	fd = rd_probe_open_dir(s, "t", path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/none", root);
	assert_int_equal(rd_probe_open_dir(s, "t", path), -ENOENT);
	assert_int_equal(s->n_errors, 0);
	/* A file where a directory should be: recorded with its path. */
	snprintf(path, sizeof(path), "%s/f", root);
	assert_int_equal(rd_probe_open_dir(s, "t", path), -ENOTDIR);
	assert_int_equal(s->n_errors, 1);
	assert_string_equal(s->errors[0].where, path);
	assert_string_equal(s->errors[0].source, "t");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_records, fx_setup,
						fx_teardown),
		cmocka_unit_test(test_link_name),
		cmocka_unit_test(test_lead_number),
		cmocka_unit_test_setup_teardown(test_dirs, fx_setup,
						fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
