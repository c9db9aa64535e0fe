// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rd_diag_filter_check: a --device or --port that names nothing in the
 * snapshot is refused with the reason, before any check runs. The --only
 * rule: the names the command line accepts are the ones that select.
 */
#include "config.h"

#include "diag_snap.h"

#include <ctype.h>
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

/* How many rows of the table the name keeps. */
static size_t kept(const char *only)
{
	size_t n = 0;

	for (size_t i = 0; i < rd_n_checks; i++)
		n += rd_diag_only_selects(&rd_checks[i], only);
	return n;
}

static void test_only_names(void **state)
{
	static const char *const refused[] = {
		"", "nothing", "po", "port..", ".port", "port.m", "port.mtu.",
		"netcfg.", "por t", "qos.pfc.x",
	};

	(void)state;
	assert_int_equal(kept(NULL), rd_n_checks);
	for (size_t i = 0; i < rd_n_checks; i++) {
		const struct rd_check *c = &rd_checks[i];
		const char *layer = rd_layer_name(c->layer);
		char dotted[64], upper[64];
		size_t j;

		/* Every id, area, "area." and layer, in either case. */
		snprintf(dotted, sizeof(dotted), "%s.", c->area);
		for (j = 0; c->id[j] && j + 1 < sizeof(upper); j++)
			upper[j] = (char)toupper((unsigned char)c->id[j]);
		upper[j] = '\0';
		assert_int_equal(kept(c->id), 1);
		assert_true(rd_diag_only_selects(c, upper));
		assert_true(rd_diag_only_selects(c, c->area));
		assert_true(rd_diag_only_selects(c, dotted));
		assert_true(rd_diag_only_selects(c, layer));
		assert_true(rd_diag_only_known(upper));
		assert_true(rd_diag_only_known(dotted));
	}
	/*
	 * "port" keeps the port area and the port layer; "port." only the
	 * ids that start with it.
	 */
	for (size_t i = 0; i < rd_n_checks; i++) {
		const struct rd_check *c = &rd_checks[i];
		bool area = strcmp(c->area, "port") == 0;

		assert_int_equal(rd_diag_only_selects(c, "port"),
				 area || c->layer == RD_LAYER_PORT);
		assert_int_equal(rd_diag_only_selects(c, "PORT."), area);
		assert_int_equal(rd_diag_only_selects(c, "NetCfg"),
				 c->layer == RD_LAYER_NETCFG);
	}
	/* A name is accepted exactly when it keeps something. */
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_false(rd_diag_only_known(refused[i]));
		assert_int_equal(kept(refused[i]), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_only_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
