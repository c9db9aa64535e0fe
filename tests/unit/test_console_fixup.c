// SPDX-License-Identifier: GPL-2.0-or-later
/* The console's door to the fix-ups: which changes get a rollback timer,
 * the countdown line, and refusal with nothing changed. */
#include "config.h"

#include "unit.h"

#include "console/fixup.h"

static void test_timer_by_kind(void **state)
{
	(void)state;
	con_fixup_set_confirm_within(CON_FIXUP_CONFIRM_DEFAULT);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_LINK_UP), 30);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_LINK_MTU), 30);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_PFC), 30);
	/* These cannot cut a session off: no timer. */
	assert_int_equal(con_fixup_confirm_within(RD_FIX_RXE_ADD), 0);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_MODPROBE), 0);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_SYSCTL), 0);

	con_fixup_set_confirm_within(7);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_LINK_MTU), 7);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_SYSCTL), 0);
	con_fixup_set_confirm_within(0);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_LINK_MTU), 0);
	assert_int_equal(con_fixup_confirm_within(RD_FIX_PFC), 0);
	con_fixup_set_confirm_within(CON_FIXUP_CONFIRM_DEFAULT);
}

static void test_countdown(void **state)
{
	char buf[160];

	(void)state;
	/* Just applied with 30 s: the full 30 s shown. */
	assert_true(con_fixup_countdown(1000.0, 970.0, buf, sizeof(buf)));
	assert_string_equal(buf, "Keep this change? It is reverted in 30 s "
				 "unless you press y.");
	assert_true(con_fixup_countdown(1000.0, 985.2, buf, sizeof(buf)));
	assert_non_null(strstr(buf, " in 15 s "));
	assert_true(con_fixup_countdown(1000.0, 998.0, buf, sizeof(buf)));
	assert_non_null(strstr(buf, " in 2 s "));
	/* Within the margin the timer may already be reverting: too late. */
	assert_false(con_fixup_countdown(1000.0, 999.6, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "ran out"));
	assert_false(con_fixup_countdown(1000.0, 1000.0, buf, sizeof(buf)));
	assert_false(con_fixup_countdown(1000.0, 5000.0, buf, sizeof(buf)));
	assert_null(strstr(buf, "press y"));
	/* A short buffer is cut, never overrun. */
	memset(buf, 'x', sizeof(buf));
	assert_true(con_fixup_countdown(1000.0, 970.0, buf, 8));
	assert_int_equal(strlen(buf), 7);
	assert_int_equal(buf[8], 'x');
}

/* A reading from a recording never changes the host, timer or not. */
static void test_refused_without_a_change(void **state)
{
	struct rd_fixup f = { .id = "port.mtu",
			      .command = "ip link set dev veth0 mtu 1500",
			      .undoable = true,
			      .kind = RD_FIX_LINK_MTU,
			      .arg = "veth0",
			      .value = 1500 };
	struct rd_snapshot s;
	struct rd_fix_done done;
	char msg[512];
	int r;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(&done, 0x55, sizeof(done));
	r = con_fixup_apply(&f, &s, NULL, true, &done, msg, sizeof(msg));
	assert_int_equal(r, -EPERM);
	assert_string_equal(done.id, "");
	assert_true(done.confirm_by == 0);
	assert_non_null(strstr(msg, "not applied"));
}

/*
 * After the time ran out the console reads the journal: the timer
 * reverted the change, gave up (and why), or has not said yet.
 */
static void test_rollback_state(void **state)
{
	static const char apply[] =
		"{\"type\":\"apply\",\"id\":\"e1\",\"check\":\"port.mtu\","
		"\"kind\":\"link_mtu\",\"arg\":\"veth0\",\"command\":\"x\","
		"\"before\":\"1500\",\"after\":\"9000\",\"undoable\":true,"
		"\"confirm_by\":1}\n"
		"{\"type\":\"result\",\"id\":\"e1\",\"result\":\"ok\"}\n";
	static const char failed[] =
		"{\"type\":\"rollback_failed\",\"id\":\"e1\",\"result\":"
		"\"not changed: journal busy \\u001b[2J\"}\n";
	char dir[PATH_MAX], path[PATH_MAX + 32], why[256], *text;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	setenv("RDMADIAG_JOURNAL", path, 1);
	unit_put(dir, "journal.jsonl", apply);
	assert_int_equal(con_fixup_rollback_state("e1", why, sizeof(why)), 0);
	assert_true(asprintf(&text, "%s%s", apply, failed) > 0);
	unit_put(dir, "journal.jsonl", text);
	free(text);
	assert_int_equal(con_fixup_rollback_state("e1", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "journal busy"));
	assert_null(strchr(why, '\x1b'));
	unsetenv("RDMADIAG_JOURNAL");
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_by_kind),
		cmocka_unit_test(test_countdown),
		cmocka_unit_test(test_refused_without_a_change),
		cmocka_unit_test(test_rollback_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
