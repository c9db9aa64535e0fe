// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix kind link_up: set a RoCE netdev up (undo: down again). */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>

/* Defined at the end; its word list is what the check accepts. */
extern const struct rd_fix_ops rd_fix_link_up_ops;

static const char *const checks[] = { "port.state", NULL };
static const char *const words[] = { "up", "down", NULL };

static int up_check(const struct rd_fix_target *t, const char *value,
		    char *why, size_t len)
{
	if (rd_fix_need_ifname(t->arg, why, len) < 0)
		return -EINVAL;
	return rd_fix_need_word(&rd_fix_link_up_ops, value, why, len);
}

static void up_command(const struct rd_fix_target *t, const char *value,
		       char *buf, size_t len)
{
	rd_fix_link_command(t, NULL, value, buf, len);
}

static int up_read(const struct rd_fix_target *t, char *val, size_t len,
		   char *msg, size_t ml)
{
	return rd_fix_link_read(t, NULL, val, len, msg, ml);
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
	return rd_fix_link_apply(t, NULL, value, msg, ml);
}

const struct rd_fix_ops rd_fix_link_up_ops = {
	RD_FIX_KIND(up, "link_up", RD_FIX_LINK_UP, true),
	.netdev_arg = RD_FIX_NETDEV_ARG,
	.cuts_session = true,
	.words = words,
	.words_name = "link state",
	.validate = up_validate,
};
