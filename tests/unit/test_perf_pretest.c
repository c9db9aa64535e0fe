// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What bw and lat judge before a test: which device, and whether its port
 * can carry traffic (refused when read and not ACTIVE, tried with a warning
 * when the state was not read).
 */
#include "config.h"
#include "unit.h"

#include <errno.h>

#include "core/snapshot.h"
#include "perf/perf.h"
#include "perf/pretest.h"

/* rxe0 port 1 on netdev veth0; state_num < 0: the state was not read. */
static struct rd_port *host(struct rd_snapshot *s, int state_num)
{
	struct rd_device *d;
	struct rd_port *p;

	rd_snapshot_init(s);
	d = RD_PUSH(s->devices, s->n_devices);
	assert_non_null(d);
	d->name = strdup("rxe0");
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	p->netdev = strdup("veth0");
	if (state_num >= 0) {
		p->state_num.ok = true;
		p->state_num.v = (uint64_t)state_num;
		p->state =
			strdup(state_num == RD_PORT_ACTIVE ? "ACTIVE" : "DOWN");
		p->phys_state = strdup("Disabled");
	}
	return p;
}

static void test_first_device_active(void **state)
{
	struct perf_opts o = { .ib_port = 1 };
	struct rd_snapshot s;
	char msg[300];

	(void)state;
	host(&s, RD_PORT_ACTIVE);
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), 0);
	assert_string_equal(o.dev, "rxe0");
	assert_string_equal(msg, "");
	rd_snapshot_free(&s);
}

static void test_port_down_refused(void **state)
{
	struct perf_opts o = { .ib_port = 1 };
	struct rd_snapshot s;
	char msg[300];

	(void)state;
	host(&s, RD_PORT_DOWN);
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), -ENETDOWN);
	assert_string_equal(msg,
			    "rxe0 port 1 is DOWN (physical state Disabled), "
			    "not ACTIVE: no traffic can pass (is veth0 up "
			    "with a carrier?). Run 'rdmadiag snapshot' for "
			    "the details.");
	rd_snapshot_free(&s);
}

static void test_unknown_state_tried(void **state)
{
	struct perf_opts o = { .ib_port = 1 };
	struct rd_snapshot s;
	char msg[300];

	(void)state;
	host(&s, -1);
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), 0);
	assert_string_equal(msg,
			    "state of rxe0 port 1 is unknown; trying anyway");
	assert_int_equal(perf_pick_device(&o, NULL, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "cannot read the port state; trying anyway");
	rd_snapshot_free(&s);
}

static void test_no_such_device_or_port(void **state)
{
	struct perf_opts o = { .ib_port = 2 };
	struct rd_snapshot s;
	char msg[300];

	(void)state;
	host(&s, RD_PORT_ACTIVE);
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), -ENODEV);
	assert_string_equal(msg, "rxe0 has no port 2");
	o.dev = "mlx5_0";
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), -ENODEV);
	assert_string_equal(msg, "no RDMA device named mlx5_0");
	rd_snapshot_free(&s);
	rd_snapshot_init(&s);
	o.dev = NULL;
	assert_int_equal(perf_pick_device(&o, &s, msg, sizeof(msg)), -ENODEV);
	assert_string_equal(msg, "no RDMA device found (is the driver, e.g. "
				 "rdma_rxe, loaded and a link added?)");
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_device_active),
		cmocka_unit_test(test_port_down_refused),
		cmocka_unit_test(test_unknown_state_tried),
		cmocka_unit_test(test_no_such_device_or_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
