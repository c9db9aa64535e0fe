// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix kind link_up: set a RoCE netdev up (undo: down again). */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"

static const char *const checks[] = { "port.state", NULL };

static int up_check(const struct rd_fix_target *t, const char *value,
		    char *why, size_t len)
{
	if (rd_fix_need_ifname(t->arg, why, len) < 0)
		return -EINVAL;
	if (!value || (strcmp(value, "up") != 0 && strcmp(value, "down") != 0)) {
		snprintf(why, len, "link state \"%s\" is neither up nor down",
			 rd_esc_tmp(value));
		return -EINVAL;
	}
	return 0;
}

static int up_target(const struct rd_fixup *f, const char *before,
		     char *after, size_t len)
{
	(void)f;
	(void)before;
	snprintf(after, len, "up");
	return 0;
}

static void up_command(const struct rd_fix_target *t, const char *value,
		       char *buf, size_t len)
{
	snprintf(buf, len, "ip link set dev %s %s", rd_shquote_tmp(t->arg),
		 rd_shquote_tmp(value));
}

static int up_read(const struct rd_fix_target *t, char *val, size_t len,
		   char *msg, size_t ml)
{
	struct rd_fix_link l;
	int r = rd_fix_link_get(t->arg, &l, msg, ml);

	if (r == 0)
		snprintf(val, len, "%s", l.flags & IFF_UP ? "up" : "down");
	return r;
}

static int up_validate(const struct rd_fix_target *t, const char *value,
		       char *msg, size_t ml)
{
	struct rd_fix_link l;

	(void)value;
	return rd_fix_link_same(t, t->arg, &l, msg, ml);
}

static int up_apply(const struct rd_fix_target *t, const char *value,
		    char *msg, size_t ml)
{
	return rd_fix_link_set((uint32_t)t->ifindex, 0,
			       strcmp(value, "up") == 0, msg, ml);
}

const struct rd_fix_ops rd_fix_link_up_ops = {
	.name = "link_up",
	.kind = RD_FIX_LINK_UP,
	.checks = checks,
	.revertible = true,
	.check = up_check,
	.target_value = up_target,
	.command = up_command,
	.read = up_read,
	.validate = up_validate,
	.apply = up_apply,
};
