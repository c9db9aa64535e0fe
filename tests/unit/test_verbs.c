// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This host has no RDMA device, so the queries themselves are tested in
 * the lab (tests/lab/scenarios/probes-host-verbs.sh, Soft-RoCE). Here: the
 * skip flag, and a device sysfs shows that libibverbs cannot serve.
 */
#include "config.h"
#include "unit.h"

#include "probes/verbs.h"

#include <infiniband/verbs.h>

/*
 * The libibverbs calls the probe makes, wrapped: with fake_open_errno 0
 * the real ones; otherwise a list holding rdmadiagtest0, whose open
 * fails with that errno.
 */
static int fake_open_errno;
static struct ibv_device fake_dev = { .name = "rdmadiagtest0" };
static struct ibv_device *fake_list[] = { &fake_dev, NULL };

struct ibv_device **__real_ibv_get_device_list(int *n);
void __real_ibv_free_device_list(struct ibv_device **list);
struct ibv_context *__real_ibv_open_device(struct ibv_device *dev);

struct ibv_device **__wrap_ibv_get_device_list(int *n);
struct ibv_device **__wrap_ibv_get_device_list(int *n)
{
	if (!fake_open_errno)
		return __real_ibv_get_device_list(n);
	*n = 1;
	return fake_list;
}

void __wrap_ibv_free_device_list(struct ibv_device **list);
void __wrap_ibv_free_device_list(struct ibv_device **list)
{
	if (list != fake_list)
		__real_ibv_free_device_list(list);
}

struct ibv_context *__wrap_ibv_open_device(struct ibv_device *dev);
struct ibv_context *__wrap_ibv_open_device(struct ibv_device *dev)
{
	if (dev != &fake_dev)
		return __real_ibv_open_device(dev);
	errno = fake_open_errno;
	return NULL;
}

static struct rd_device *fake_device(struct rd_snapshot *s, const char *uverbs)
{
	struct rd_device *d = RD_PUSH(s->devices, s->n_devices);
	struct rd_port *p;

	assert_non_null(d);
	d->name = strdup("rdmadiagtest0");
	d->driver = strdup("mlx5_core");
	d->uverbs = uverbs ? strdup(uverbs) : NULL;
	p = RD_PUSH(d->ports, d->n_ports);
	p->port = 1;
	return d;
}

static bool list_failed(const struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_errors; i++)
		if (strcmp(s->errors[i].where, "ibv_get_device_list") == 0)
			return true;
	return false;
}

static void test_skipped_for_fixtures(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots,
				    .flags = RD_PROBE_NO_VERBS };
	struct rd_snapshot s;
	struct rd_device *d;

	(void)state;
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	d = fake_device(&s, "uverbs0");
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	assert_false(d->verbs.opened.ok);
	assert_null(d->verbs.open_error);
	assert_int_equal(s.n_errors, 0);
	rd_snapshot_free(&s);
}

static void test_unlisted_device(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;
	struct rd_device *d, *e;

	(void)state;
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	d = fake_device(&s, "uverbs0");
	e = NULL;
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	d = &s.devices[0];
	/* A list that could not be had leaves "opens?" unknown. */
	assert_int_equal(d->verbs.opened.ok, !list_failed(&s));
	assert_false(d->verbs.opened.v);
	assert_non_null(d->verbs.open_error);
	assert_false(d->verbs.max_cqe.ok);
	assert_false(d->ports[0].verbs.active_mtu.ok);
	if (!list_failed(&s)) {
		assert_non_null(strstr(d->verbs.open_error,
				       "no user-space provider for driver "
				       "mlx5_core"));
		assert_true(d->verbs.listed.ok);
		assert_false(d->verbs.listed.v);
	} else {
		assert_false(d->verbs.listed.ok);
	}
	assert_false(d->verbs.open_errno.ok);
	rd_snapshot_free(&s);

	/* Without a uverbs interface the provider is not the suspect. */
	rd_snapshot_init(&s);
	e = fake_device(&s, NULL);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	e = &s.devices[0];
	assert_false(e->verbs.opened.v);
	if (!list_failed(&s))
		assert_non_null(strstr(e->verbs.open_error, "ib_uverbs"));
	rd_snapshot_free(&s);
}

/*
 * A device libibverbs lists but cannot open: listed, not opened, and the
 * errno kept, from the node itself when it cannot be reached.
 */
static void test_listed_not_opened(void **state)
{
	static const int errs[] = { EACCES, ENODEV, EIO };
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;
	struct rd_device *d;

	(void)state;
	rd_roots_init(&roots);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_open_errno = errs[i];
		rd_snapshot_init(&s);
		fake_device(&s, "uverbs0");
		assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
		d = &s.devices[0];
		assert_true(d->verbs.listed.ok && d->verbs.listed.v);
		assert_true(d->verbs.opened.ok);
		assert_false(d->verbs.opened.v);
		assert_true(d->verbs.open_errno.ok);
		assert_int_equal(d->verbs.open_errno.v, errs[i]);
		assert_non_null(strstr(d->verbs.open_error, strerror(errs[i])));
		assert_null(strstr(d->verbs.open_error, "provider"));
		rd_snapshot_free(&s);
	}
	/* The node is not there: its own errno, not libibverbs' last one. */
	fake_open_errno = EIO;
	rd_snapshot_init(&s);
	d = fake_device(&s, "uverbs0");
	d->uverbs_dev = strdup("/nonexistent/rdmadiag/uverbs0");
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	d = &s.devices[0];
	assert_int_equal(d->verbs.open_errno.v, ENOENT);
	assert_non_null(strstr(d->verbs.open_error,
			       "/nonexistent/rdmadiag/uverbs0"));
	rd_snapshot_free(&s);
	fake_open_errno = 0;
}

static void test_nothing_to_do(void **state)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots };
	struct rd_snapshot s;

	(void)state;
	rd_roots_init(&roots);
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_VERBS, &s), 0);
	assert_int_equal(s.n_errors, 0);
	rd_snapshot_free(&s);
}

static void test_mtu(void **state)
{
	(void)state;
	assert_int_equal(rd_ibv_mtu_bytes(1), 256);
	assert_int_equal(rd_ibv_mtu_bytes(3), 1024);
	assert_int_equal(rd_ibv_mtu_bytes(5), 4096);
	assert_int_equal(rd_ibv_mtu_bytes(0), 0);
	assert_int_equal(rd_ibv_mtu_bytes(6), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skipped_for_fixtures),
		cmocka_unit_test(test_unlisted_device),
		cmocka_unit_test(test_listed_not_opened),
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_mtu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
