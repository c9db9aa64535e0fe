// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix-up journal: round trip, undo bookkeeping, corrupt files, and the
 * file rules (ownership, modes, symlinks, hard links, lock, size, speed).
 * Runs as root or not: directories the test makes are owned by its own
 * effective uid, which the journal accepts besides root.
 */
#include "config.h"

#include "unit.h"

#include <sys/file.h>
#include <time.h>

#include "core/escape.h"
#include "fix/journal.h"

static char dir[PATH_MAX];
static char path[PATH_MAX];
static char sub[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rd-journal-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	/* A directory that does not exist yet: the journal creates it. */
	snprintf(sub, sizeof(sub), "%s/state", dir);
	snprintf(path, sizeof(path), "%s/journal.jsonl", sub);
	rd_journal_lock_wait_ms = 200;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	chmod(dir, 0700);
	unit_rmtree(dir);
	return 0;
}

static void entry(struct rd_journal_entry *e, char *id, const char *undo_of)
{
	memset(e, 0, sizeof(*e));
	rd_journal_new_id(id, RD_JOURNAL_ID_MAX);
	e->id = id;
	e->time = 1700000000.5;
	e->user = "root";
	e->check = "port.mtu";
	e->device = "rxe0";
	e->port = 1;
	e->kind = "link_mtu";
	e->arg = "veth0";
	e->ifindex = 5;
	e->command = "ip link set dev veth0 mtu 9000";
	e->before = undo_of ? "9000" : "1500";
	e->after = undo_of ? "1500" : "9000";
	e->undoable = !undo_of;
	e->undo_of = (char *)undo_of;
}

static void append(const struct rd_journal_entry *e, const char *result)
{
	struct rd_journal_file jf;
	char err[256];

	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	assert_int_equal(rd_journal_append_apply(&jf, e, err, sizeof(err)), 0);
	if (result)
		assert_int_equal(rd_journal_append_result(&jf, e->id, result,
							  NULL, err,
							  sizeof(err)),
				 0);
	rd_journal_close(&jf);
}

static void test_round_trip(void **state)
{
	struct rd_journal_entry e;
	struct rd_journal j;
	const struct rd_journal_entry *f;
	char id[RD_JOURNAL_ID_MAX], id2[RD_JOURNAL_ID_MAX], err[256];
	struct stat st;

	(void)state;
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 0);

	entry(&e, id, NULL);
	e.confirm_by = 1700000030.0;
	append(&e, NULL);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* No result line yet: interrupted, but possibly in place. */
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 1);
	assert_null(j.v[0].result);
	assert_ptr_equal(rd_journal_last_change(&j), &j.v[0]);
	assert_int_equal(j.v[0].ifindex, 5);
	assert_true(j.v[0].confirm_by > 1700000029.0);
	assert_false(j.v[0].confirmed);
	rd_journal_free(&j);

	{
		struct rd_journal_file jf;

		assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf,
						 err, sizeof(err)),
				 0);
		assert_int_equal(rd_journal_append_result(&jf, id, "ok", "9000",
							  err, sizeof(err)),
				 0);
		assert_int_equal(rd_journal_append_confirm(&jf, id, err,
							   sizeof(err)),
				 0);
		rd_journal_close(&jf);
	}
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	f = rd_journal_last_change(&j);
	assert_non_null(f);
	assert_string_equal(f->id, id);
	assert_string_equal(f->before, "1500");
	assert_string_equal(f->after, "9000");
	assert_string_equal(f->check, "port.mtu");
	assert_int_equal(f->port, 1);
	assert_true(f->undoable);
	assert_true(f->confirmed);
	rd_journal_free(&j);

	entry(&e, id2, id);
	append(&e, "ok");
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_true(j.v[0].undone);
	assert_string_equal(j.v[1].undo_of, id);
	assert_null(rd_journal_last_change(&j));	/* nothing left to undo */
	assert_non_null(rd_journal_find(&j, id));
	assert_null(rd_journal_find(&j, "no-such-id"));
	rd_journal_free(&j);
}

static void put_journal(const char *text)
{
	FILE *f;

	mkdir(sub, 0700);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, 0600);
}

static void test_corrupt(void **state)
{
	static const char *const bad[] = {
		"{\"type\":\"apply\"\n",			/* truncated */
		"garbage\n",
		"[1,2]\n",
		"{\"type\":\"result\",\"id\":\"x\",\"result\":\"ok\"}\n",
		"{\"type\":\"confirm\",\"id\":\"x\"}\n",
		"{\"type\":\"apply\",\"id\":\"a\"}\n",		/* no check */
		"\n\n",
		"{\"type\":\"bogus\",\"id\":\"a\"}\n",
		/* NUL inside a string would cut it short */
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"arg\":\"ve\\u0000th0\"}\n",
		/* an undo line must name what it undoes, an apply must not */
		"{\"type\":\"undo\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\"}\n",
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"time\":\"soon\"}\n",
		/* json-c would keep the last of two keys */
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"kind\":\"sysctl\"}\n",
		/* and read "false" as true */
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"undoable\":\"false\"}\n",
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"time\":1e400}\n",
		"{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"command\":\"x\",\"arg\":{\"a\":1}}\n",
	};
	struct rd_journal j;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_journal(bad[i]);
		assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)),
				 -EBADMSG);
		assert_non_null(strstr(err, ":1"));
		assert_non_null(strstr(err, "corrupt"));
		assert_true(rd_text_clean(err, strlen(err)));
		assert_int_equal(j.n, 0);
	}
	put_journal(bad[11]);
	rd_journal_read(path, &j, err, sizeof(err));
	assert_non_null(strstr(err, "duplicate key \"kind\""));
	/* A good line then a bad one: the line number points at it. */
	put_journal("{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		    "\"kind\":\"link_mtu\",\"command\":\"x\"}\n{oops\n");
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, ":2"));
	/* Two results for one entry: the second could rewrite "after". */
	put_journal("{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		    "\"kind\":\"link_mtu\",\"command\":\"x\"}\n"
		    "{\"type\":\"result\",\"id\":\"a\",\"result\":\"ok\"}\n"
		    "{\"type\":\"result\",\"id\":\"a\",\"result\":\"ok\",\"after\":\"1\"}\n");
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, ":3"));
	/* A hand-edited file without its last newline still takes lines. */
	put_journal("{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		    "\"kind\":\"link_mtu\",\"command\":\"x\"}");
	{
		struct rd_journal_file jf;

		assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
						 sizeof(err)),
				 0);
		assert_int_equal(rd_journal_append_result(&jf, "a", "ok", NULL,
							  err, sizeof(err)),
				 0);
		rd_journal_close(&jf);
	}
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_string_equal(j.v[0].result, "ok");
	rd_journal_free(&j);
}

static void expect_refused(const char *p, enum rd_journal_mode mode,
			   const char *words)
{
	struct rd_journal_file jf;
	char err[512] = "";
	int r = rd_journal_open(p, mode, &jf, err, sizeof(err));

	if (r == 0)
		rd_journal_close(&jf);
	assert_true(r < 0);
	if (!strstr(err, words))
		fail_msg("\"%s\" does not say \"%s\"", err, words);
}

static void test_file_rules(void **state)
{
	char p[PATH_MAX], via[PATH_MAX], other[PATH_MAX];
	struct rd_journal_file jf;
	char err[512];

	(void)state;
	put_journal("");
	/* Not absolute, not .jsonl, dot-dot. */
	expect_refused("journal.jsonl", RD_JOURNAL_READ, "absolute");
	snprintf(p, sizeof(p), "%s/journal.txt", sub);
	expect_refused(p, RD_JOURNAL_WRITE, ".jsonl");
	snprintf(p, sizeof(p), "%s/../state/journal.jsonl", sub);
	expect_refused(p, RD_JOURNAL_READ, "\"..\"");

	/* A symlinked journal, for reading and for writing. */
	snprintf(other, sizeof(other), "%s/other.jsonl", sub);
	put_journal("");
	rename(path, other);
	assert_int_equal(symlink(other, path), 0);
	expect_refused(path, RD_JOURNAL_READ, "symlink");
	expect_refused(path, RD_JOURNAL_WRITE, "symlink");
	unlink(path);

	/* A hard link to another file. */
	assert_int_equal(link(other, path), 0);
	expect_refused(path, RD_JOURNAL_READ, "hard link");
	unlink(path);
	unlink(other);

	/* A symlinked directory on the way. */
	snprintf(via, sizeof(via), "%s/via", dir);
	assert_int_equal(symlink(sub, via), 0);
	snprintf(p, sizeof(p), "%s/journal.jsonl", via);
	expect_refused(p, RD_JOURNAL_READ, "symlink");
	expect_refused(p, RD_JOURNAL_WRITE, "symlink");

	/* A journal or directory others may write. */
	put_journal("");
	chmod(path, 0622);
	expect_refused(path, RD_JOURNAL_READ, "writable by group or others");
	chmod(path, 0600);
	chmod(sub, 0770);
	expect_refused(path, RD_JOURNAL_WRITE, "writable by group or others");
	chmod(sub, 0700);
	/* ...also higher up, unless sticky and root's (like /tmp). */
	chmod(dir, 0777);
	expect_refused(path, RD_JOURNAL_READ, "writable by group or others");
	chmod(dir, 0700);

	/* A FIFO in its place: refused at once, for reading and writing. */
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	expect_refused(path, RD_JOURNAL_READ, "not a regular file");
	expect_refused(path, RD_JOURNAL_WRITE, "not a regular file");
	unlink(path);
	put_journal("");

	/* A missing directory above the journal's is not made. */
	snprintf(p, sizeof(p), "%s/a/b/journal.jsonl", dir);
	expect_refused(p, RD_JOURNAL_WRITE, "missing");

	/* A directory owned by another user than root or us. */
	if (geteuid() == 0) {
		assert_int_equal(chown(sub, 65534, 65534), 0);
		expect_refused(path, RD_JOURNAL_READ, "not owned by root");
		assert_int_equal(chown(sub, 0, 0), 0);
		assert_int_equal(chown(path, 65534, 65534), 0);
		expect_refused(path, RD_JOURNAL_READ, "not owned by root");
		assert_int_equal(chown(path, 0, 0), 0);
	}
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_READ, &jf, err,
					 sizeof(err)),
			 0);
	rd_journal_close(&jf);
}

static void test_lock(void **state)
{
	struct rd_journal_file a, b;
	char err[512] = "";

	(void)state;
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &a, err,
					 sizeof(err)),
			 0);
	/* A second fix (a separate open file) waits, then gives up. */
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &b, err,
					 sizeof(err)),
			 -EBUSY);
	assert_non_null(strstr(err, "lock"));
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_READ, &b, err,
					 sizeof(err)),
			 -EBUSY);
	rd_journal_close(&a);
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &b, err,
					 sizeof(err)),
			 0);
	rd_journal_close(&b);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reading is linear: a journal near the 16 MiB limit reads in seconds. */
static void test_big(void **state)
{
	struct rd_journal j;
	char err[256];
	size_t n = 0;
	double t0;
	FILE *f;

	(void)state;
	mkdir(sub, 0700);
	f = fopen(path, "w");
	assert_non_null(f);
	while (ftell(f) < (long)RD_JOURNAL_MAX - 400) {
		fprintf(f,
			"{\"type\":\"apply\",\"id\":\"e%zu\",\"check\":\"port.mtu\","
			"\"kind\":\"link_mtu\",\"arg\":\"veth0\",\"command\":\"x\","
			"\"before\":\"1500\",\"after\":\"9000\",\"undoable\":true}\n"
			"{\"type\":\"result\",\"id\":\"e%zu\",\"result\":\"ok\"}\n",
			n, n);
		n++;
	}
	fclose(f);
	chmod(path, 0600);
	t0 = mono();
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, n);
	assert_string_equal(j.v[n - 1].result, "ok");
	print_message("%zu entries (%.1f MiB) read in %.2f s\n", n,
		      (double)RD_JOURNAL_MAX / 1048576, mono() - t0);
	rd_journal_free(&j);

	/* Past the limit: refused, not read. */
	f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "%0800d\n", 0);
	fclose(f);
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), -EFBIG);
}

static void test_default_path(void **state)
{
	(void)state;
	unsetenv("SUDO_UID");
	setenv("RDMADIAG_JOURNAL", "/tmp/x.jsonl", 1);
	if (getuid() == geteuid() && getgid() == getegid())
		assert_string_equal(rd_journal_default_path(), "/tmp/x.jsonl");
	/* Under sudo the caller's environment does not choose the journal. */
	setenv("SUDO_UID", "1000", 1);
	assert_string_equal(rd_journal_default_path(), RD_JOURNAL_DEFAULT);
	unsetenv("SUDO_UID");
	unsetenv("RDMADIAG_JOURNAL");
	assert_string_equal(rd_journal_default_path(),
			    "/var/lib/rdmadiag/journal.jsonl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big, setup, teardown),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
