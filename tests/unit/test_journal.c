// SPDX-License-Identifier: GPL-2.0-or-later
/* The fix-up journal: round trip, undo bookkeeping, corrupt files. */
#include "config.h"

#include "unit.h"

#include "diag/diag.h"
#include "diag/journal.h"

static char dir[PATH_MAX];
static char path[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rd-journal-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	/* A directory that does not exist yet: the journal creates it. */
	snprintf(path, sizeof(path), "%s/state/journal.jsonl", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_rmtree(dir);
	return 0;
}

static void entry(struct rd_journal_entry *e, char *id, const char *undo_of)
{
	memset(e, 0, sizeof(*e));
	rd_journal_new_id(id, 96);
	e->id = id;
	e->time = 1700000000.5;
	e->user = "root";
	e->check = "port.mtu";
	e->device = "rxe0";
	e->port = 1;
	e->kind = "link_mtu";
	e->arg = "veth0";
	e->command = "ip link set dev veth0 mtu 9000";
	e->before = undo_of ? "9000" : "1500";
	e->after = undo_of ? "1500" : "9000";
	e->undoable = !undo_of;
	e->undo_of = (char *)undo_of;
}

static void test_round_trip(void **state)
{
	struct rd_journal_entry e;
	struct rd_journal j;
	const struct rd_journal_entry *f;
	char id[96], id2[96], err[256];
	struct stat st;

	(void)state;
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 0);

	entry(&e, id, NULL);
	assert_int_equal(rd_journal_append_apply(path, &e, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	{
		char d[PATH_MAX];

		snprintf(d, sizeof(d), "%s/state", dir);
		assert_int_equal(stat(d, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
	}
	/* Before the result line the change is not "in place". */
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 1);
	assert_null(j.v[0].result);
	assert_null(rd_journal_find(&j, NULL));
	rd_journal_free(&j);

	assert_int_equal(rd_journal_append_result(path, id, "ok", "9000", err,
						  sizeof(err)),
			 0);
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	f = rd_journal_find(&j, NULL);
	assert_non_null(f);
	assert_string_equal(f->id, id);
	assert_string_equal(f->before, "1500");
	assert_string_equal(f->after, "9000");
	assert_string_equal(f->check, "port.mtu");
	assert_int_equal(f->port, 1);
	assert_true(f->undoable);
	rd_journal_free(&j);

	entry(&e, id2, id);
	assert_int_equal(rd_journal_append_apply(path, &e, err, sizeof(err)), 0);
	assert_int_equal(rd_journal_append_result(path, id2, "ok", NULL, err,
						  sizeof(err)),
			 0);
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_true(j.v[0].undone);
	assert_string_equal(j.v[1].undo_of, id);
	assert_null(rd_journal_find(&j, NULL));	/* nothing left to undo */
	assert_non_null(rd_journal_find(&j, id));
	rd_journal_free(&j);
}

static void put_journal(const char *text)
{
	char d[PATH_MAX];
	FILE *f;

	snprintf(d, sizeof(d), "%s/state", dir);
	mkdir(d, 0700);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_corrupt(void **state)
{
	static const char *const bad[] = {
		"{\"type\":\"apply\"\n",			/* truncated */
		"garbage\n",
		"[1,2]\n",
		"{\"type\":\"result\",\"id\":\"x\",\"result\":\"ok\"}\n",
		"{\"type\":\"apply\",\"id\":\"a\"}\n",		/* no check */
		"\n\n",
		"{\"type\":\"bogus\",\"id\":\"a\"}\n",
	};
	struct rd_journal j;
	char err[256], msg[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_journal(bad[i]);
		assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)),
				 -EBADMSG);
		assert_non_null(strstr(err, ":1"));
		assert_non_null(strstr(err, "corrupt"));
		assert_int_equal(j.n, 0);
	}
	/* A good line then a bad one: the line number points at it. */
	put_journal("{\"type\":\"apply\",\"id\":\"a\",\"check\":\"port.mtu\","
		    "\"kind\":\"link_mtu\",\"command\":\"x\"}\n{oops\n");
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, ":2"));

	/* Undo and apply stop before touching anything. */
	if (geteuid() == 0) {
		struct rd_fixup f = {
			.id = "host.hugepages",
			.command = "sysctl -w vm.nr_hugepages=1",
			.impact = "test",
			.kind = RD_FIX_SYSCTL,
			.arg = "/proc/sys/vm/nr_hugepages",
			.value = 1,
		};

		assert_int_equal(rd_fixup_undo(path, NULL, msg, sizeof(msg)),
				 -EBADMSG);
		assert_int_equal(rd_fixup_apply(&f, path, msg, sizeof(msg)),
				 -EBADMSG);
		assert_non_null(strstr(msg, "not changed"));
	} else {
		assert_int_equal(rd_fixup_undo(path, NULL, msg, sizeof(msg)),
				 -EPERM);
	}
}

static void test_undo_nothing(void **state)
{
	char msg[512];

	(void)state;
	if (geteuid() != 0)
		skip();
	/* An empty journal has nothing to undo, and a missing entry is named. */
	assert_int_equal(rd_fixup_undo(path, NULL, msg, sizeof(msg)), -ENOENT);
	assert_int_equal(rd_fixup_undo(path, "no-such-entry", msg, sizeof(msg)),
			 -ENOENT);
	assert_non_null(strstr(msg, "no-such-entry"));
}

static void test_default_path(void **state)
{
	(void)state;
	setenv("RDMADIAG_JOURNAL", "/tmp/x.jsonl", 1);
	assert_string_equal(rd_journal_default_path(), "/tmp/x.jsonl");
	unsetenv("RDMADIAG_JOURNAL");
	assert_string_equal(rd_journal_default_path(),
			    "/var/lib/rdmadiag/journal.jsonl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_nothing, setup,
						teardown),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
