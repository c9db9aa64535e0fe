// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transceiver probe's netlink side: MODULE_EEPROM_GET replies laid out
 * as net/ethtool/eeprom.c writes them (the request header echoed, then
 * the DATA attribute), the kernel's refusals (-EPERM without
 * CAP_NET_ADMIN, -EIO from an empty mlx5 cage, -EOPNOTSUPP from a driver
 * without module memory, as veth answers), and damaged replies.
 */
#include "config.h"
#include "nl_build.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "probes/xcvr.h"

#define FAMILY 20

static struct nl_msg *reply(const uint8_t *data, size_t len)
{
	struct genlmsghdr g = { .cmd = ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
				.version = 1 };
	struct nl_msg *m = nb_msg(FAMILY, 0, &g, sizeof(g));
	struct nlattr *h = nla_nest_start(m, ETHTOOL_A_MODULE_EEPROM_HEADER);

	nla_put_u32(m, ETHTOOL_A_HEADER_DEV_INDEX, 4);
	nla_put_string(m, ETHTOOL_A_HEADER_DEV_NAME, "ens1f0np0");
	nla_nest_end(m, h);
	if (data)
		nla_put(m, ETHTOOL_A_MODULE_EEPROM_DATA, (int)len, data);
	return m;
}

static void test_data(void **state)
{
	struct rd_nl_buf b = { 0 };
	uint8_t page[128], out[128];

	(void)state;
	for (int i = 0; i < 128; i++)
		page[i] = (uint8_t)(i * 7);
	page[0] = 0x11;	/* QSFP28 */
	nb_take(&b, reply(page, sizeof(page)));
	memset(out, 0, sizeof(out));
	assert_int_equal(rd_xcvr_parse_eeprom(b.data, b.len, out), 0);
	assert_memory_equal(out, page, 128);
	rd_nl_buf_free(&b);

	/* A short read is not a page: never decoded as one. */
	nb_take(&b, reply(page, 64));
	assert_int_equal(rd_xcvr_parse_eeprom(b.data, b.len, out), -EBADMSG);
	rd_nl_buf_free(&b);
	/* No DATA at all. */
	nb_take(&b, reply(NULL, 0));
	assert_int_equal(rd_xcvr_parse_eeprom(b.data, b.len, out), -EBADMSG);
	rd_nl_buf_free(&b);
}

static void test_errors(void **state)
{
	static const struct {
		int err;
		const char *text;
	} rows[] = {
		{ -EPERM, "module data needs root (CAP_NET_ADMIN)" },
		{ -EIO, "did not answer (I/O error)" },
		{ -EOPNOTSUPP, "the driver cannot read module memory" },
	};
	uint8_t out[128];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rd_nl_buf b = { 0 };

		nb_error(&b, rows[i].err);
		assert_int_equal(rd_xcvr_parse_eeprom(b.data, b.len, out),
				 rows[i].err);
		assert_non_null(strstr(rd_xcvr_errno_text(rows[i].err),
				       rows[i].text));
		/* A positive errno names the same thing. */
		assert_string_equal(rd_xcvr_errno_text(-rows[i].err),
				    rd_xcvr_errno_text(rows[i].err));
		rd_nl_buf_free(&b);
	}
	assert_null(rd_xcvr_errno_text(0));
}

static int parse(const void *p, size_t n, void *arg)
{
	return rd_xcvr_parse_eeprom(p, n, arg);
}

static void reset(void *arg)
{
	memset(arg, 0, 128);
}

static void test_truncated_and_corrupt(void **state)
{
	struct rd_nl_buf b = { 0 };
	uint8_t page[128] = { 0x18 }, out[128];

	(void)state;
	nb_take(&b, reply(page, sizeof(page)));
	nb_truncations(&b, parse, reset, out);
	nb_corruptions(&b, parse, reset, out);
	rd_nl_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated_and_corrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
