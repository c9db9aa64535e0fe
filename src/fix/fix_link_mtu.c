// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix kind link_mtu: set a RoCE netdev's MTU within the device's range. */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"

/* IPv4's minimum and the largest MTU rtnetlink can carry for Ethernet. */
#define MTU_MIN 68
#define MTU_MAX 65535

static const char *const checks[] = { "port.mtu", NULL };

static int mtu_check(const struct rd_fix_target *t, const char *value,
		     char *why, size_t len)
{
	uint64_t m;

	if (rd_fix_need_ifname(t->arg, why, len) < 0)
		return -EINVAL;
	if (rd_fix_parse_dec(value, &m) < 0 || m < MTU_MIN || m > MTU_MAX) {
		snprintf(why, len, "MTU \"%s\" is not a number of bytes from %d to %d",
			 rd_esc_tmp(value), MTU_MIN, MTU_MAX);
		return -EINVAL;
	}
	return 0;
}

static void mtu_command(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len)
{
	rd_fix_link_command(t, "mtu", value, buf, len);
}

static int mtu_read(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml)
{
	return rd_fix_link_read(t, "mtu", val, len, msg, ml);
}

static int mtu_validate(const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml)
{
	struct rd_fix_link l;
	uint64_t m = 0;
	int r = rd_fix_link_same(t, t->arg, &l, msg, ml);

	if (r < 0)
		return r;
	rd_fix_parse_dec(value, &m);
	if (!l.max_mtu) {
		snprintf(msg, ml,
			 "the kernel does not report the MTU range of %s (IFLA_MAX_MTU)",
			 rd_esc_tmp(t->arg));
		return -EOPNOTSUPP;
	}
	if (m < l.min_mtu || m > l.max_mtu) {
		snprintf(msg, ml,
			 "MTU %" PRIu64 " bytes is outside what %s takes (%u to %u bytes)",
			 m, rd_esc_tmp(t->arg), l.min_mtu, l.max_mtu);
		return -ERANGE;
	}
	return 0;
}

static int mtu_apply(const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml)
{
	return rd_fix_link_apply(t, "mtu", value, msg, ml);
}

const struct rd_fix_ops rd_fix_link_mtu_ops = {
	RD_FIX_KIND(mtu, "link_mtu", RD_FIX_LINK_MTU, true),
	.netdev_arg = RD_FIX_NETDEV_ARG,
	.cuts_session = true,
	.target_value = rd_fix_target_decimal,
	.validate = mtu_validate,
};
