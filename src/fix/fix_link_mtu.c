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

static int mtu_target(const struct rd_fixup *f, const char *before,
		      char *after, size_t len)
{
	(void)before;
	snprintf(after, len, "%" PRIu64, f->value);
	return 0;
}

static void mtu_command(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len)
{
	snprintf(buf, len, "ip link set dev %s mtu %s", rd_shquote_tmp(t->arg),
		 rd_shquote_tmp(value));
}

static int mtu_read(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml)
{
	struct rd_fix_link l;
	int r = rd_fix_link_get(t->arg, &l, msg, ml);

	if (r == 0)
		snprintf(val, len, "%u", l.mtu);
	return r;
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
	uint64_t m = 0;

	rd_fix_parse_dec(value, &m);
	return rd_fix_link_set((uint32_t)t->ifindex, (uint32_t)m, -1, msg, ml);
}

const struct rd_fix_ops rd_fix_link_mtu_ops = {
	.name = "link_mtu",
	.kind = RD_FIX_LINK_MTU,
	.checks = checks,
	.revertible = true,
	.check = mtu_check,
	.target_value = mtu_target,
	.command = mtu_command,
	.read = mtu_read,
	.validate = mtu_validate,
	.apply = mtu_apply,
};
