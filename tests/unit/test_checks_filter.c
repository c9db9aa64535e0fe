// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rd_diag_filter_check: a --device or --port that names nothing in the
 * snapshot is refused with the reason, before any check runs.
 */
#include "config.h"

#include "diag_snap.h"

#include <errno.h>

static int filter(const struct rd_snapshot *s, const char *dev,
		  uint64_t port, char *why, size_t len)
{
	struct rd_diag_opts o;

	rd_diag_opts_init(&o);
	o.device = dev;
	o.port = port;
	why[0] = '\0';
	return rd_diag_filter_check(s, &o, why, len);
}

static void test_filter(void **state)
{
	struct rd_snapshot s;
	struct rd_device *d;
	char why[128];

	(void)state;
	rd_snapshot_init(&s);
	/* No device at all: --port is left to port.state, --device is not. */
	assert_int_equal(filter(&s, NULL, 0, why, sizeof(why)), 0);
	assert_int_equal(filter(&s, NULL, 1, why, sizeof(why)), 0);
	assert_int_equal(filter(&s, "mlx5_0", 0, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "no RDMA device mlx5_0 (the host has none)");

	d = snap_dev(&s, "mlx5_0", "0000:3b:00.0");
	snap_port(d, 1, 4, 5, "Ethernet", "eth2");
	d = snap_dev(&s, "mlx5_1", "0000:5e:00.0");
	snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	snap_port(d, 2, 4, 5, "InfiniBand", NULL);
	assert_int_equal(filter(&s, "mlx5_0", 1, why, sizeof(why)), 0);
	assert_int_equal(filter(&s, NULL, 2, why, sizeof(why)), 0);
	assert_int_equal(filter(&s, "mlx5_1", 2, why, sizeof(why)), 0);
	assert_int_equal(filter(&s, "mlx5_9", 0, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "no RDMA device mlx5_9");
	assert_int_equal(filter(&s, "mlx5_0", 2, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "mlx5_0 has no port 2");
	assert_int_equal(filter(&s, NULL, 3, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "no RDMA device has a port 3");
	/* A device name that is a prefix of another is not that device. */
	assert_int_equal(filter(&s, "mlx5", 0, why, sizeof(why)), -ENODEV);
	/* No options: nothing to refuse. */
	assert_int_equal(rd_diag_filter_check(&s, NULL, why, sizeof(why)), 0);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
