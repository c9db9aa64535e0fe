// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix engine's trust rules, against an in-memory host (nothing on the
 * machine changes; runs as root or not): one hostile or broken journal
 * per attack, the interrupted apply, the rollback timer; and the parts of
 * the real fix kinds that are safe to run anywhere (shape checks, the
 * sysctl writer's bound, the kernel's refusal of loopback and of more
 * huge pages than memory).
 */
#include "config.h"

#include "unit.h"

#include <libkmod.h>
#include <time.h>

#include <rdma/rdma_netlink.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "core/roots.h"
#include "nl_build.h"
#include "probes/rdma_nl.h"
#include "test_fix_mock.h"

/* The kinds' ops, by name: each file defines its own (fix.c lists them). */
extern const struct rd_fix_ops rd_fix_link_up_ops, rd_fix_link_mtu_ops,
	rd_fix_rxe_ops, rd_fix_module_ops, rd_fix_sysctl_ops, rd_fix_pfc_ops;

static char dir[PATH_MAX];
static char path[PATH_MAX];
static struct mock_host mh;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rd-fix-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	mock_init(&mh);
	rd_journal_lock_wait_ms = 200;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_rmtree(dir);
	return 0;
}

static void put_journal(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, 0600);
}

static bool journal_has(const char *needle)
{
	char *text = NULL, buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	text = strstr(buf, needle);
	return text != NULL;
}

static struct rd_fixup mtu_fix(uint64_t mtu)
{
	return (struct rd_fixup){
		.id = "port.mtu", .command = "ip link set dev veth0 mtu 9000",
		.impact = "test", .undoable = true, .kind = RD_FIX_LINK_MTU,
		.arg = "veth0", .value = mtu, .device = "rxe0", .port = 1,
		.ifindex = MOCK_RDMA_IFINDEX,
	};
}

static int undo(const char *entry, char *msg, size_t ml)
{
	return rd_fix_engine_undo(&mh.host, path, entry, false, msg, ml);
}

/* ---- apply ---- */

static void test_apply_and_undo(void **state)
{
	struct rd_fixup f = mtu_fix(9000);
	struct rd_fix_done d;
	char msg[1024];

	(void)state;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "9000");
	assert_non_null(strstr(msg, "1500 -> 9000"));
	assert_true(d.id[0]);
	assert_true(d.confirm_by == 0);
	/* The journalled command is shell-quoted like the check's. */
	assert_true(journal_has("\"command\":\"ip link set dev veth0 mtu 9000\""));
	assert_int_equal(undo(NULL, msg, sizeof(msg)), 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_int_equal(mh.n_log, 2);
	/* Nothing left to undo; the undo itself is not undone. */
	assert_int_equal(undo(NULL, msg, sizeof(msg)), -ENOENT);
	assert_int_equal(mh.n_log, 2);
}

static void test_apply_refused(void **state)
{
	struct rd_fixup f = mtu_fix(9000);
	struct rd_fix_done d;
	char msg[1024];

	(void)state;
	/* Out of the device's range (the kernel's min/max). */
	f.value = 65000;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -ERANGE);
	assert_non_null(strstr(msg, "not changed"));
	/* Another interface now has the name (ifindex changed). */
	f = mtu_fix(9000);
	f.ifindex = 42;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -ESTALE);
	/* Loopback is never a check's target. */
	f = mtu_fix(9000);
	f.arg = "lo";
	f.ifindex = 1;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -EINVAL);
	/* A check that does not make this kind of fix-up. */
	f = mtu_fix(9000);
	f.id = "host.hugepages";
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -EINVAL);
	/* Any /proc/sys file other than the allowlisted one. */
	f = (struct rd_fixup){ .id = "host.hugepages", .command = "x",
			       .kind = RD_FIX_SYSCTL, .undoable = true,
			       .arg = "/proc/sys/kernel/core_pattern", .value = 1 };
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -EINVAL);
	/* More huge pages than memory (issue: 4000000001 was written). */
	f.arg = "/proc/sys/vm/nr_hugepages";
	f.value = 4000000001u;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -ERANGE);
	/* PFC priority beyond 7. */
	f = (struct rd_fixup){ .id = "qos.pfc", .command = "x", .undoable = true,
			       .kind = RD_FIX_PFC, .arg = "veth0", .value = 9,
			       .ifindex = MOCK_RDMA_IFINDEX };
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 -EINVAL);
	assert_int_equal(mh.n_log, 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_string_equal(mock_get(&mh, "sysctl", "/proc/sys/kernel/core_pattern"),
			    "core");
	/* PFC within 8 bits goes through. */
	f.value = 3;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, &d, msg,
					     sizeof(msg)),
			 0);
	assert_string_equal(mock_get(&mh, "pfc", "veth0"), "0x08");
}

/* Who may ask: a reading from fixtures or a file never changes the host. */
static void test_refusal(void **state)
{
	struct rd_roots roots;
	struct rd_fix_opts o = { .roots = &roots, .journal = path };
	struct rd_fixup f = mtu_fix(9000);
	char msg[1024];

	(void)state;
	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, RD_FIXTURES "/rxe0-healthy"), 0);
	assert_non_null(rd_fix_refusal(&o));
	assert_int_equal(rd_fixup_apply(&f, &o, NULL, msg, sizeof(msg)), -EPERM);
	assert_non_null(strstr(msg, "redirected roots"));
	assert_non_null(strstr(msg, "ip link set dev veth0 mtu 9000"));
	o.roots = NULL;
	o.from_recording = true;
	assert_int_equal(rd_fixup_apply(&f, &o, NULL, msg, sizeof(msg)), -EPERM);
	assert_non_null(strstr(msg, "from a file"));
	o.from_recording = false;
	if (geteuid() != 0) {
		assert_int_equal(rd_fixup_apply(&f, &o, NULL, msg, sizeof(msg)),
				 -EPERM);
		assert_int_equal(rd_fixup_undo(&o, NULL, msg, sizeof(msg)),
				 -EPERM);
	}
	/* Under sudo the environment is not trusted. */
	setenv("SUDO_UID", "1000", 1);
	assert_true(rd_env_untrusted());
	setenv("RDMADIAG_SYSFS_ROOT", "/tmp", 1);
	rd_roots_init(&roots);
	assert_false(roots.redirected);
	unsetenv("SUDO_UID");
	unsetenv("RDMADIAG_SYSFS_ROOT");
	if (geteuid() != 0)
		assert_int_equal(rd_env_trust(), -EPERM);
}

/* ---- hostile journals: refused, nothing changed ---- */

#define APPLY(id, kind, check, arg, before, after, extra)                   \
	"{\"type\":\"apply\",\"id\":\"" id "\",\"check\":\"" check "\","    \
	"\"kind\":\"" kind "\",\"arg\":\"" arg "\",\"command\":\"x\","      \
	"\"before\":\"" before "\",\"after\":\"" after "\","                \
	"\"undoable\":true" extra "}\n"
#define RESULT(id) "{\"type\":\"result\",\"id\":\"" id "\",\"result\":\"ok\"}\n"

static void expect_undo_refused(const char *journal, const char *words)
{
	char msg[1024] = "";
	size_t log = mh.n_log;

	put_journal(journal);
	assert_true(undo(NULL, msg, sizeof(msg)) < 0);
	if (!strstr(msg, words))
		fail_msg("\"%s\" does not say \"%s\"", msg, words);
	assert_int_equal(mh.n_log, log);
}

static void test_hostile_journal(void **state)
{
	(void)state;
	/* core_pattern: no check writes it. */
	mock_set(&mh, "sysctl", "/proc/sys/kernel/core_pattern", "core");
	expect_undo_refused(APPLY("e1", "sysctl", "host.hugepages",
				  "/proc/sys/kernel/core_pattern",
				  "|/tmp/evil %p", "core", "") RESULT("e1"),
			    "not a setting any check changes");
	/* Any path outside the allowlist, also with "..". */
	expect_undo_refused(APPLY("e1", "sysctl", "host.hugepages",
				  "/proc/sys/vm/../kernel/core_pattern", "1",
				  "core", "") RESULT("e1"),
			    "not a setting");
	/* lo down: loopback is no check's target. */
	expect_undo_refused(APPLY("e1", "link_up", "port.state", "lo", "down",
				  "up", ",\"ifindex\":1") RESULT("e1"),
			    "not a RoCE netdev");
	/* The right interface name, another interface (no or wrong index). */
	mock_set(&mh, "link_up", "veth0", "up");
	expect_undo_refused(APPLY("e1", "link_up", "port.state", "veth0", "down",
				  "up", "") RESULT("e1"),
			    "not the same interface");
	/* A kind from another check, an unknown kind, a module unload. */
	expect_undo_refused(APPLY("e1", "link_up", "host.hugepages", "veth0",
				  "down", "up", ",\"ifindex\":5") RESULT("e1"),
			    "does not make");
	expect_undo_refused(APPLY("e1", "shell", "port.state", "veth0", "down",
				  "up", "") RESULT("e1"),
			    "unknown kind");
	expect_undo_refused(APPLY("e1", "modprobe", "driver.modules", "mlx5_ib",
				  "absent", "loaded", "") RESULT("e1"),
			    "not undone");
	/* Values no check produces: the over-long value of the sysctl bug. */
	{
		char j[2048], big[301];

		memset(big, '9', 300);
		big[300] = '\0';
		snprintf(j, sizeof(j),
			 APPLY("e1", "sysctl", "host.hugepages",
			       "/proc/sys/vm/nr_hugepages", "%s", "0", "")
				 RESULT("e1"),
			 big);
		expect_undo_refused(j, "is not a count");
	}
	expect_undo_refused(APPLY("e1", "link_mtu", "port.mtu", "veth0", "1e4",
				  "1500", ",\"ifindex\":5") RESULT("e1"),
			    "not a number of bytes");
	expect_undo_refused(APPLY("e1", "pfc", "qos.pfc", "veth0", "0x1ff",
				  "0x00", ",\"ifindex\":5") RESULT("e1"),
			    "not 8 bits");
	/* A name with a path or control bytes in it. */
	expect_undo_refused(APPLY("e1", "link_mtu", "port.mtu", "../veth0",
				  "1500", "9000", ",\"ifindex\":5") RESULT("e1"),
			    "not an interface name");
	/* In range, but the live value is not what the entry left. */
	mock_set(&mh, "link_mtu", "veth0", "1500");
	expect_undo_refused(APPLY("e1", "link_mtu", "port.mtu", "veth0", "1400",
				  "9000", ",\"ifindex\":5") RESULT("e1"),
			    "something else changed it");
	/* Out of the device's range as the kernel says. */
	mock_set(&mh, "link_mtu", "veth0", "1500");
	expect_undo_refused(APPLY("e1", "link_mtu", "port.mtu", "veth0", "60000",
				  "1500", ",\"ifindex\":5") RESULT("e1"),
			    "out of range");
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_int_equal(mh.n_log, 0);
}

/* ---- the interrupted apply (issue: e5 skipped, e4 reverted to 1400) ---- */

#define E4 APPLY("e4", "link_mtu", "port.mtu", "veth0", "1400", "1500", \
		 ",\"ifindex\":5") RESULT("e4")
#define E5 APPLY("e5", "link_mtu", "port.mtu", "veth0", "1500", "9000", \
		 ",\"ifindex\":5")

static void test_interrupted(void **state)
{
	char msg[1024];

	(void)state;
	/* Killed after the change: e5 is undone first, and says so. */
	put_journal(E4 E5);
	mock_set(&mh, "link_mtu", "veth0", "9000");
	assert_int_equal(undo(NULL, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "interrupted"));
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_int_equal(undo(NULL, msg, sizeof(msg)), 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1400");

	/* Killed before the change took: recorded, nothing changed. */
	mock_init(&mh);
	put_journal(E4 E5);
	mock_set(&mh, "link_mtu", "veth0", "1500");
	assert_int_equal(undo(NULL, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "interrupted before"));
	assert_int_equal(mh.n_log, 0);
	assert_true(journal_has("interrupted: not in effect (found 1500)"));
	/* ...and the next undo reverts e4 as it should. */
	assert_int_equal(undo(NULL, msg, sizeof(msg)), 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1400");

	/* Neither value: someone else changed it; refused. */
	mock_init(&mh);
	put_journal(E4 E5);
	mock_set(&mh, "link_mtu", "veth0", "7000");
	assert_int_equal(undo(NULL, msg, sizeof(msg)), -ESTALE);
	assert_int_equal(mh.n_log, 0);
	/* Naming e4 directly does not skip over e5 either. */
	assert_int_equal(undo("e4", msg, sizeof(msg)), -ESTALE);
	assert_int_equal(mh.n_log, 0);
}

/* A change the kernel refused is journalled as failed; undo leaves it. */
static void test_failed_apply(void **state)
{
	struct rd_fixup f = mtu_fix(9000);
	char msg[1024];

	(void)state;
	mh.fail_apply = true;
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 0, NULL, msg,
					     sizeof(msg)),
			 -EIO);
	assert_true(journal_has("\"result\":\"failed: refused by the kernel\""));
	assert_int_equal(undo(NULL, msg, sizeof(msg)), -ENOENT);
	assert_int_equal(mh.n_log, 1);
}

/* ---- the rollback timer, as its child runs it ---- */

/*
 * The timer's clocks, faked: the wall clock can be stepped, boot time
 * only moves by the timer's own sleeps, and alerts are kept.
 */
static double fake_real, fake_boot, fake_slept, fake_step;
static bool fake_fail_again;
static char fake_alert[1200];
static int fake_alerts;

static double fake_real_now(void)
{
	double t = fake_real;

	/* Stepped back once read: as if ntp or a person set the clock. */
	fake_real += fake_step;
	return t;
}

static double fake_boot_now(void)
{
	return fake_boot;
}

static void fake_sleep_until(double t)
{
	if (t > fake_boot) {
		fake_slept += t - fake_boot;
		fake_boot = t;
	}
	if (fake_fail_again)
		mh.fail_apply = true;
}

static void fake_alert_fn(const char *line)
{
	snprintf(fake_alert, sizeof(fake_alert), "%s", line);
	fake_alerts++;
}

static void fake_timer_env(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	fake_real = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	fake_boot = 1000;
	fake_slept = 0;
	fake_step = 0;
	fake_fail_again = false;
	fake_alert[0] = '\0';
	fake_alerts = 0;
	rd_fix_timer_env.real_now = fake_real_now;
	rd_fix_timer_env.boot_now = fake_boot_now;
	rd_fix_timer_env.boot_sleep_until = fake_sleep_until;
	rd_fix_timer_env.alert = fake_alert_fn;
}

static void test_timer(void **state)
{
	struct rd_fix_timer_env saved = rd_fix_timer_env;
	struct rd_fixup f = mtu_fix(9000);
	struct rd_fix_done d;
	char msg[1024];

	(void)state;
	fake_timer_env();
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 30, &d, msg,
					     sizeof(msg)),
			 0);
	assert_true(d.confirm_by > 0);
	/*
	 * The wall clock steps back an hour once the timer has read it: the
	 * wait is measured on boot time, 30 s, and the revert goes through.
	 */
	fake_step = -3600;
	assert_int_equal(rd_fix_timer_run(&mh.host, path, d.id, d.confirm_by,
					  msg, sizeof(msg)),
			 0);
	assert_true(fake_slept > 28 && fake_slept < 31);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_int_equal(rd_fix_confirm(path, d.id, msg, sizeof(msg)), -ESTALE);
	assert_non_null(strstr(msg, "already reverted"));

	/* Confirmed: kept when the timer fires. */
	fake_timer_env();
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 1, &d, msg,
					     sizeof(msg)),
			 0);
	assert_int_equal(rd_fix_confirm(path, d.id, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "kept"));
	assert_int_equal(rd_fix_timer_run(&mh.host, path, d.id, d.confirm_by,
					  msg, sizeof(msg)),
			 0);
	assert_non_null(strstr(msg, "confirmed"));
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "9000");
	assert_int_equal(rd_fix_confirm(path, "nope", msg, sizeof(msg)), -ENOENT);
	rd_fix_timer_env = saved;
}

/*
 * A revert that fails is tried again; one that keeps failing is written to
 * the journal as "rollback_failed" and to the logs (here: kept), and
 * undo --list says so.
 */
static void test_timer_gives_up(void **state)
{
	struct rd_fix_timer_env saved = rd_fix_timer_env;
	struct rd_fixup f = mtu_fix(9000);
	struct rd_journal_file jf;
	struct rd_journal j;
	const struct rd_journal_entry *t;
	struct rd_fix_done d;
	char msg[1024], err[256];

	(void)state;
	/* The first try fails, the second reverts. */
	fake_timer_env();
	mock_set(&mh, "link_mtu", "veth0", "1500");
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 5, &d, msg,
					     sizeof(msg)),
			 0);
	mh.fail_apply = true;
	assert_int_equal(rd_fix_timer_run(&mh.host, path, d.id, d.confirm_by,
					  msg, sizeof(msg)),
			 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_int_equal(fake_alerts, 0);
	assert_true(fake_slept >= 5 + RD_FIX_TIMER_RETRY_S - 1);

	/* Every try fails: given up, and said where it will be seen. */
	fake_timer_env();
	assert_int_equal(rd_fix_engine_apply(&mh.host, &f, path, 5, &d, msg,
					     sizeof(msg)),
			 0);
	mh.fail_apply = true;
	fake_fail_again = true;
	assert_true(rd_fix_timer_run(&mh.host, path, d.id, d.confirm_by, msg,
				     sizeof(msg)) < 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "9000");
	assert_int_equal(fake_alerts, 1);
	assert_non_null(strstr(fake_alert, "the rollback timer could not "
					   "revert entry"));
	assert_non_null(strstr(fake_alert, d.id));
	assert_true(journal_has("\"type\":\"rollback_failed\""));
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_READ, &jf, err,
					 sizeof(err)),
			 0);
	assert_int_equal(rd_journal_load(&jf, &j, err, sizeof(err)), 0);
	t = rd_journal_find(&j, d.id);
	assert_non_null(t);
	assert_non_null(t->rollback_failed);
	assert_false(t->undone);
	rd_journal_free(&j);
	rd_journal_close(&jf);
	mh.fail_apply = false;
	rd_fix_timer_env = saved;
}

/* ---- the real fix kinds, where it is safe to call them ---- */

static void test_real_kinds(void **state)
{
	struct rd_fix_target t = { "/proc/sys/vm/nr_hugepages", NULL, 0 };
	char big[301], msg[512], cmd[256];

	(void)state;
	/* The sysctl writer never writes past its buffer (ASan saw 301). */
	memset(big, '9', 300);
	big[300] = '\0';
	assert_int_equal(rd_fix_sysctl_ops.apply(&t, big, msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(rd_fix_sysctl_ops.check(&t, big, msg, sizeof(msg)),
			 -EINVAL);
	/* More huge pages than memory, from the live /proc/meminfo. */
	assert_int_equal(rd_fix_sysctl_ops.validate(&t, "4000000001", msg,
						     sizeof(msg)),
			 -ERANGE);
	t.arg = "/proc/sys/kernel/core_pattern";
	assert_int_equal(rd_fix_sysctl_ops.check(&t, "1", msg, sizeof(msg)),
			 -EINVAL);
	/* The loopback interface is refused by rtnetlink's own flags. */
	t = (struct rd_fix_target){ "lo", NULL, 1 };
	if (rd_fix_link_mtu_ops.validate(&t, "9000", msg, sizeof(msg)) == -EINVAL)
		assert_non_null(strstr(msg, "loopback"));
	else
		print_message("no rtnetlink here: %s\n", msg);
	/* Commands are shell-quoted. */
	t = (struct rd_fix_target){ "e$(reboot)", NULL, 0 };
	rd_fix_link_mtu_ops.command(&t, "9000", cmd, sizeof(cmd));
	assert_string_equal(cmd, "ip link set dev 'e$(reboot)' mtu 9000");
	assert_int_equal(rd_fix_link_mtu_ops.check(&t, "9000", msg, sizeof(msg)), 0);
	t.arg = "a/b";
	assert_int_equal(rd_fix_link_up_ops.check(&t, "up", msg, sizeof(msg)),
			 -EINVAL);
	t = (struct rd_fix_target){ "veth0", NULL, 0 };
	rd_fix_pfc_ops.command(&t, "0x08", cmd, sizeof(cmd));
	assert_string_equal(cmd, "dcb pfc set dev veth0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
	t = (struct rd_fix_target){ "mlx5_ib", NULL, 0 };
	assert_int_equal(rd_fix_module_ops.check(&t, "loaded", msg, sizeof(msg)), 0);
	t.arg = "evil";
	assert_int_equal(rd_fix_module_ops.check(&t, "loaded", msg, sizeof(msg)),
			 -EINVAL);
	t = (struct rd_fix_target){ "rxe0", "veth0", 5 };
	assert_int_equal(rd_fix_rxe_ops.check(&t, "absent", msg, sizeof(msg)), 0);
	t.arg = "mlx5_0";
	assert_int_equal(rd_fix_rxe_ops.check(&t, "absent", msg, sizeof(msg)),
			 -EINVAL);
}

/*
 * modprobe.d's install commands are run by a shell in place of loading
 * (and are how a module is blocked): the module fix-up refuses such a
 * module, or one that brings such a module in, and runs nothing.
 */
static void test_module_install_command(void **state)
{
	char conf[PATH_MAX], mark[PATH_MAX], moddir[PATH_MAX], text[1024];
	char msg[512];
	const char *paths[] = { conf, NULL };
	struct kmod_ctx *ctx;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/rd.conf", dir);
	snprintf(mark, sizeof(mark), "%s/ran", dir);
	snprintf(text, sizeof(text),
		 "install rd_test_blocked /bin/sh -c 'touch %s'\n"
		 "alias rd_test_soft mlx5_ib\n"
		 "softdep mlx5_ib pre: rd_test_blocked\n",
		 mark);
	unit_put(dir, "rd.conf", text);
	ctx = kmod_new(unit_fixture("kmod-moddir/6.1.0-fixture", moddir,
				    sizeof(moddir)),
		       paths);
	assert_non_null(ctx);
	assert_int_equal(rd_fix_module_load(ctx, "rd_test_blocked", msg,
					    sizeof(msg)),
			 -EPERM);
	assert_non_null(strstr(msg, "gives rd_test_blocked an install command"));
	assert_non_null(strstr(msg, "the command is: modprobe rd_test_blocked"));
	/* Brought in before the module asked for (softdep): refused too. */
	assert_int_equal(rd_fix_module_load(ctx, "rd_test_soft", msg,
					    sizeof(msg)),
			 -EPERM);
	assert_non_null(strstr(msg, "gives rd_test_blocked an install command"));
	assert_int_equal(access(mark, F_OK), -1);
	assert_int_equal(rd_fix_module_load(ctx, "rd_test_absent", msg,
					    sizeof(msg)),
			 -ENOENT);
	kmod_unref(ctx);
}

/*
 * The fix kinds find RDMA devices by index and exact name: a device whose
 * name holds control bytes (the probes' parser refuses the whole dump
 * for it) does not stop a fix-up of another device.
 */
static void nb_device(struct rd_nl_buf *b, uint32_t idx, const char *name)
{
	struct nl_msg *m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						   RDMA_NLDEV_CMD_GET),
				  NLM_F_MULTI, NULL, 0);

	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, name);
	nb_take(b, m);
}

static void test_rdma_devices(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_device *devs = NULL;
	size_t n = 0;
	uint32_t idx = 0;

	(void)state;
	nb_device(&b, 1, "rx\x1b[2J\xc2\x9b" "e0");
	nb_device(&b, 2, "rxe1");
	nb_done(&b);
	assert_true(rd_rdma_nl_parse_devices(b.data, b.len, &devs, &n) < 0);
	rd_rdma_nl_free_devices(devs, n);
	assert_int_equal(rd_fix_rdma_parse_devices(b.data, b.len, "rxe1", &devs,
						   &n, &idx),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(idx, 2);
	assert_int_equal(devs[0].index.v, 1);
	rd_rdma_nl_free_devices(devs, n);
	assert_int_equal(rd_fix_rdma_parse_devices(b.data, b.len, "rxe9", &devs,
						   &n, &idx),
			 -ENODEV);
	assert_int_equal(n, 2);
	rd_rdma_nl_free_devices(devs, n);
	assert_int_equal(rd_fix_rdma_parse_devices(b.data, b.len, NULL, &devs,
						   &n, NULL),
			 0);
	rd_rdma_nl_free_devices(devs, n);
	/* A message cut short is an error, not a shorter list. */
	assert_true(rd_fix_rdma_parse_devices(b.data, b.len - 12, NULL, &devs,
					      &n, NULL) < 0);
	assert_null(devs);
	assert_int_equal(n, 0);
	rd_nl_buf_free(&b);
}

/* ---- the commands: what they print ---- */

/* Run a command with stdout and stderr in a file; its text in out. */
static int run_cmd(int (*cmd)(struct rd_cli *, int, char **), char **argv,
		   char *out, size_t len)
{
	struct rd_cli cli = { .prog = "rdmadiag" };
	char file[PATH_MAX];
	int argc = 0, saved[2], fd, r;
	ssize_t n;

	while (argv[argc])
		argc++;
	snprintf(file, sizeof(file), "%s/out.txt", dir);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	saved[0] = dup(1);
	saved[1] = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	rd_roots_init(&cli.roots);
	r = cmd(&cli, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved[0], 1);
	dup2(saved[1], 2);
	close(saved[0]);
	close(saved[1]);
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return r;
}

/* A kind's words and names are checked before anything else, in plain words. */
static void test_kind_checks(void **state)
{
	static const struct {
		const struct rd_fix_ops *k;
		const char *arg, *value, *why;	/* why NULL: accepted */
	} c[] = {
		{ &rd_fix_link_up_ops, "eth0", "sideways",
		  "link state \"sideways\" is not up or down" },
		{ &rd_fix_link_up_ops, "eth0", "down", NULL },
		{ &rd_fix_rxe_ops, "rxe1", "gone",
		  "Soft-RoCE link state \"gone\" is not present or absent" },
		{ &rd_fix_rxe_ops, "rxe1x", "present",
		  "\"rxe1x\" is not a Soft-RoCE name (rxeN)" },
		{ &rd_fix_module_ops, "ib_core", "absent",
		  "modules are only loaded, never unloaded" },
		{ &rd_fix_link_up_ops, "e\x1b]0;x", "up",
		  "\"e\\x1b]0;x\" is not an interface name" },
	};
	struct rd_fix_target t = { .arg2 = "eth0" };
	char why[64], v[80] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		t.arg = c[i].arg;
		assert_int_equal(c[i].k->check(&t, c[i].value, why, sizeof(why)),
				 c[i].why ? -EINVAL : 0);
		if (c[i].why)
			assert_string_equal(why, c[i].why);
	}
	/* A value cut by the buffer keeps whole characters. */
	t.arg = "eth0";
	for (size_t i = 0; i + 2 < sizeof(v); i += 2)
		memcpy(v + i, "\xc3\xa9", 2);
	assert_int_equal(rd_fix_link_up_ops.check(&t, v, why, 40), -EINVAL);
	assert_true(rd_text_clean(why, strlen(why)));
}

static void test_list_escaped(void **state)
{
	char *argv[] = { "undo", "--list", "--journal", path, NULL };
	char out[8192];

	(void)state;
	put_journal("{\"type\":\"apply\",\"id\":\"e1\\u001b[2J\",\"user\":\"r\\u009bq\","
		    "\"check\":\"port.mtu\",\"kind\":\"link_mtu\",\"arg\":\"veth0\","
		    "\"command\":\"ip link set dev veth0 mtu 9000\\u001b]0;owned\\u0007\","
		    "\"before\":\"1500\\n  PASS\",\"after\":\"9000\",\"undoable\":true}\n");
	assert_int_equal(run_cmd(cmd_undo, argv, out, sizeof(out)), 0);
	/* One line, every control byte (C0, C1 as UTF-8) shown escaped. */
	assert_true(rd_text_clean(out, strlen(out) - 1));
	assert_non_null(strstr(out, "e1\\x1b[2J"));
	assert_non_null(strstr(out, "9000\\x1b]0;owned\\x07"));
	assert_non_null(strstr(out, "1500\\n  PASS"));
	assert_null(strstr(out, "\xc2\x9b"));
	assert_non_null(strstr(out, "no result (interrupted)"));
}

static void test_fix_dry_run(void **state)
{
	char root[PATH_MAX];
	char *argv[] = { "fix", "port.mtu", "--root", root, "--yes",
			 "--journal", path, NULL };
	char out[8192];

	(void)state;
	snprintf(root, sizeof(root), "%s/rxe0-healthy", RD_FIXTURES);
	/* The fixture's veth0 has MTU 1500: a fix-up, shown, not applied. */
	assert_int_equal(run_cmd(cmd_fix, argv, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "command: ip link set dev veth0 mtu 9000"));
	assert_non_null(strstr(out, "dry run, not applied: the reading comes from redirected roots"));
	/* Nothing was journalled, so nothing was changed. */
	assert_int_equal(access(path, F_OK), -1);
}

/* A fixture with more huge pages than any host: shown, never applied. */
static void test_fix_dry_run_hugepages(void **state)
{
	char root[PATH_MAX];
	char *argv[] = { "fix", "host.hugepages", "--hugepages", "4000000001",
			 "--root", root, "--yes", "--journal", path, NULL };
	char out[8192];

	(void)state;
	snprintf(root, sizeof(root), "%s/h", dir);
	assert_int_equal(mkdir(root, 0700), 0);
	unit_put(root, "proc/meminfo",
		 "MemTotal:       24731708 kB\n"
		 "HugePages_Total: 4000000000\n"
		 "HugePages_Free:        0\n"
		 "Hugepagesize:       2048 kB\n");
	unit_put(root, "sys/class/infiniband/.keep", "");
	unit_put(root, "sys/class/net/.keep", "");
	assert_int_equal(run_cmd(cmd_fix, argv, out, sizeof(out)), 2);
	if (!strstr(out, "command: sysctl -w vm.nr_hugepages=8000000001") ||
	    !strstr(out, "dry run, not applied: the reading comes from redirected roots"))
		fail_msg("%s", out);
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apply_and_undo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusal, setup, teardown),
		cmocka_unit_test(test_kind_checks),
		cmocka_unit_test_setup_teardown(test_hostile_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_gives_up, setup,
						teardown),
		cmocka_unit_test(test_real_kinds),
		cmocka_unit_test_setup_teardown(test_module_install_command, setup,
						teardown),
		cmocka_unit_test(test_rdma_devices),
		cmocka_unit_test_setup_teardown(test_list_escaped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_dry_run_hugepages, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
