// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devlink: INFO_GET and HEALTH_REPORTER_GET dump replies laid out as the
 * kernel writes them (net/devlink: bus and dev name, then the info or one
 * reporter nest per message), mlx5's values as its devlink.rst documents
 * them (fw.psid fixed, fw.version running and stored; reporters fw,
 * fw_fatal, tx, rx); and hw.health judging them.
 */
#include "config.h"
#include "nl_build.h"
#include "diag_snap.h"

#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "probes/devlink.h"

#define FAMILY 21

static struct nl_msg *msg(int cmd, const char *dev)
{
	struct genlmsghdr g = { .cmd = (uint8_t)cmd, .version = 1 };
	struct nl_msg *m = nb_msg(FAMILY, NLM_F_MULTI, &g, sizeof(g));

	nla_put_string(m, DEVLINK_ATTR_BUS_NAME, "pci");
	nla_put_string(m, DEVLINK_ATTR_DEV_NAME, dev);
	return m;
}

static void version(struct nl_msg *m, int kind, const char *name,
		    const char *value)
{
	struct nlattr *n = nla_nest_start(m, kind);

	nla_put_string(m, DEVLINK_ATTR_INFO_VERSION_NAME, name);
	nla_put_string(m, DEVLINK_ATTR_INFO_VERSION_VALUE, value);
	nla_nest_end(m, n);
}

static void info(struct rd_nl_buf *b, const char *dev, const char *running,
		 const char *stored)
{
	struct nl_msg *m = msg(DEVLINK_CMD_INFO_GET, dev);

	nla_put_string(m, DEVLINK_ATTR_INFO_DRIVER_NAME, "mlx5_core");
	nla_put_string(m, DEVLINK_ATTR_INFO_SERIAL_NUMBER, "MT2116X09299");
	version(m, DEVLINK_ATTR_INFO_VERSION_FIXED, "fw.psid", "MT_0000000359");
	version(m, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw.version", running);
	version(m, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw", running);
	version(m, DEVLINK_ATTR_INFO_VERSION_STORED, "fw.version", stored);
	nb_take(b, m);
}

static void reporter(struct rd_nl_buf *b, const char *dev, const char *name,
		     uint8_t state, uint64_t errors, uint64_t recovered,
		     uint64_t dump_ns)
{
	struct nl_msg *m = msg(DEVLINK_CMD_HEALTH_REPORTER_GET, dev);
	struct nlattr *n = nla_nest_start(m, DEVLINK_ATTR_HEALTH_REPORTER);

	nla_put_string(m, DEVLINK_ATTR_HEALTH_REPORTER_NAME, name);
	nla_put_u8(m, DEVLINK_ATTR_HEALTH_REPORTER_STATE, state);
	nla_put_u64(m, DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, errors);
	nla_put_u64(m, DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, recovered);
	if (dump_ns)
		nla_put_u64(m, DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS, dump_ns);
	nla_put_u8(m, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER, 1);
	nla_nest_end(m, n);
	nb_take(b, m);
}

/* mlx5_0 on 0000:3b:00.0 with a device, firmware and reporters as given. */
static void host(struct rd_snapshot *s, const char *stored, uint8_t tx_state,
		 uint64_t fatal_recovered)
{
	struct rd_nl_buf b = { 0 };

	rd_snapshot_init(s);
	snap_dev(s, "mlx5_0", "0000:3b:00.0");
	s->time = rd_dbl(1764640000.0);		/* 2025-12-02 01:46:40 UTC */
	s->monotonic_ns = rd_u64(5000ull * 1000000000ull);
	info(&b, "0000:3b:00.0", "22.36.1010", stored);
	nb_done(&b);
	assert_int_equal(rd_devlink_parse_info(b.data, b.len, s), 0);
	rd_nl_buf_free(&b);
	reporter(&b, "0000:3b:00.0", "fw", 0, 0, 0, 0);
	reporter(
		&b, "0000:3b:00.0", "fw_fatal", 0, fatal_recovered,
		fatal_recovered,
		/* The kernel's DUMP_TS_NS is real time (ns since the epoch). */
		fatal_recovered ? 1764639000ull * 1000000000ull : 0);
	reporter(&b, "0000:3b:00.0", "tx", tx_state, tx_state, 0, 0);
	reporter(&b, "0000:3b:00.0", "rx", 0, 0, 0, 0);
	nb_done(&b);
	assert_int_equal(rd_devlink_parse_health(b.data, b.len, s), 0);
	rd_nl_buf_free(&b);
}

static void test_parse(void **state)
{
	struct rd_snapshot s;
	const struct rd_devlink *d;

	(void)state;
	host(&s, "22.36.1010", 0, 0);
	assert_int_equal(s.n_devlinks, 1);
	d = rd_snapshot_devlink(&s, "0000:3b:00.0");
	assert_non_null(d);
	assert_string_equal(d->driver, "mlx5_core");
	assert_string_equal(d->serial, "MT2116X09299");
	assert_string_equal(rd_devlink_version(d, "fixed", "fw.psid"),
			    "MT_0000000359");
	assert_string_equal(rd_devlink_version(d, "stored", "fw.version"),
			    "22.36.1010");
	assert_true(d->reporters_read.ok && d->reporters_read.v);
	assert_int_equal(d->n_reporters, 4);
	assert_string_equal(d->reporters[1].name, "fw_fatal");
	assert_string_equal(d->reporters[1].state, "healthy");
	assert_true(d->reporters[3].auto_recover.v);
	rd_snapshot_free(&s);
}

static void test_refusals(void **state)
{
	struct rd_snapshot s;
	struct rd_nl_buf b = { 0 };
	struct nl_msg *m;

	(void)state;
	rd_snapshot_init(&s);
	nb_error(&b, -EOPNOTSUPP);
	assert_int_equal(rd_devlink_parse_health(b.data, b.len, &s), -EOPNOTSUPP);
	rd_nl_buf_free(&b);
	/* A message without its bus and device names is refused. */
	{
		struct genlmsghdr g = { .cmd = DEVLINK_CMD_INFO_GET, .version = 1 };

		m = nb_msg(FAMILY, 0, &g, sizeof(g));
		nla_put_string(m, DEVLINK_ATTR_INFO_DRIVER_NAME, "mlx5_core");
		nb_take(&b, m);
	}
	assert_int_equal(rd_devlink_parse_info(b.data, b.len, &s), -EBADMSG);
	rd_nl_buf_free(&b);
	rd_snapshot_free(&s);
}

static int parse_info(const void *p, size_t n, void *arg)
{
	return rd_devlink_parse_info(p, n, arg);
}

static void reset(void *arg)
{
	rd_snapshot_free(arg);
	rd_snapshot_init(arg);
}

static void test_truncated_and_corrupt(void **state)
{
	struct rd_snapshot s;
	struct rd_nl_buf b = { 0 };

	(void)state;
	rd_snapshot_init(&s);
	info(&b, "0000:3b:00.0", "22.36.1010", "22.39.1002");
	nb_done(&b);
	nb_truncations(&b, parse_info, reset, &s);
	nb_corruptions(&b, parse_info, reset, &s);
	rd_nl_buf_free(&b);
	rd_snapshot_free(&s);
}

static const struct rd_result *health(const struct rd_snapshot *s,
				      struct rd_results *res)
{
	rd_results_free(res);
	run_only(s, NULL, "hw.health", res);
	return find_result(res, "hw.health", "mlx5_0", 0);
}

static void test_check(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;

	(void)state;
	host(&s, "22.36.1010", 0, 0);
	r = health(&s, &res);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "fw, fw_fatal, tx, rx"));
	rd_snapshot_free(&s);

	host(&s, "22.39.1002", 0, 0);
	r = health(&s, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "fw_update_pending");
	assert_non_null(strstr(r->summary, "22.39.1002 is stored but 22.36.1010"));
	rd_snapshot_free(&s);

	/* fw_fatal recovered twice, the last dump 1000 s before the snapshot. */
	host(&s, "22.36.1010", 0, 2);
	r = health(&s, &res);
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "nic_reset");
	assert_non_null(strstr(r->summary, "reset itself 2 times"));
	assert_non_null(strstr(r->summary, "2025-12-02 01:30:00 UTC"));
	rd_snapshot_free(&s);
	/* Recovered, but no dump kept: no made-up time. */
	host(&s, "22.36.1010", 0, 1);
	s.devlinks[0].reporters[1].last_dump_ns.ok = false;
	r = health(&s, &res);
	assert_string_equal(r->cause, "nic_reset");
	assert_null(strstr(r->summary, "last at"));
	rd_snapshot_free(&s);

	host(&s, "22.36.1010", 1, 0);
	r = health(&s, &res);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "health_error");
	assert_non_null(strstr(r->next_step, "devlink health diagnose pci/0000:3b:00.0 reporter tx"));
	rd_snapshot_free(&s);

	/* fw.version cites the board's PSID beside the version. */
	host(&s, "22.36.1010", 0, 0);
	rd_results_free(&res);
	run_only(&s, NULL, "fw.version", &res);
	r = find_result(&res, "fw.version", "mlx5_0", 0);
	{
		bool psid = false;

		for (size_t i = 0; i < r->n_evidence; i++)
			psid |= !strcmp(r->evidence[i].what, "PSID") &&
				!strcmp(r->evidence[i].value, "MT_0000000359");
		assert_true(psid);
	}
	rd_snapshot_free(&s);

	/* No devlink data: not read, never healthy. */
	rd_snapshot_init(&s);
	snap_dev(&s, "mlx5_0", "0000:3b:00.0");
	r = health(&s, &res);
	assert_int_equal(r->verdict, RD_UNKNOWN);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* The flight recorder's health changes of the device are evidence. */
static void test_recorded(void **state)
{
	struct rd_events ev = { .since = 1764600000.0 };
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	const struct rd_result *r;
	bool seen = false, other = false;

	(void)state;
	host(&s, "22.36.1010", 0, 0);
	ev.from = rd_strdup("/var/lib/rdmadiag/record");
	assert_int_equal(rd_events_add(&ev, 1764640000.0, "mlx5_0", 0, NULL,
				       "health",
				       "reporter fw_fatal error, 1 errors (was "
				       "healthy, 0 errors)",
				       "flight recorder"),
			 0);
	assert_int_equal(rd_events_add(&ev, 1764640001.0, "mlx5_1", 0, NULL,
				       "health", "reporter tx error", NULL),
			 0);
	/* before the span asked for: not told */
	assert_int_equal(rd_events_add(&ev, 1764500000.0, "mlx5_0", 0, NULL,
				       "health", "long ago", NULL),
			 0);
	rd_diag_opts_init(&o);
	o.only_area = "hw.health";
	o.past = &ev;
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	r = find_result(&res, "hw.health", "mlx5_0", 0);
	for (size_t i = 0; i < r->n_evidence; i++) {
		seen |= !strcmp(r->evidence[i].value,
				"2025-12-02 01:46:40 UTC reporter fw_fatal "
				"error, 1 errors (was healthy, 0 errors)");
		other |= strstr(r->evidence[i].value, "tx error") != NULL ||
			 strstr(r->evidence[i].value, "long ago") != NULL;
	}
	assert_true(seen);
	assert_false(other);
	rd_results_free(&res);
	rd_events_free(&ev);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_truncated_and_corrupt),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
