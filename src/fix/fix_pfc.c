// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fix kind pfc: the IEEE PFC enable mask of a RoCE netdev (dcbnl), eight
 * bits, one per priority. Only pfc_en changes; the driver's delay, MBC and
 * capability are written back as read.
 */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/escape.h"
#include "probes/dcb.h"
#include "probes/nl_util.h"

static const char *const checks[] = { "qos.pfc", NULL };

static int mask_parse(const char *s, uint64_t *m)
{
	if (!s || strncmp(s, "0x", 2) != 0 || strlen(s) != 4 ||
	    rd_parse_u64(s, 16, m) < 0 || *m > 0xff)
		return -EINVAL;
	return 0;
}

static int pfc_check(const struct rd_fix_target *t, const char *value,
		     char *why, size_t len)
{
	uint64_t m;

	if (rd_fix_need_ifname(t->arg, why, len) < 0)
		return -EINVAL;
	if (mask_parse(value, &m) < 0) {
		snprintf(why, len, "PFC mask \"%s\" is not 8 bits (0x00 to 0xff)",
			 rd_esc_tmp(value));
		return -EINVAL;
	}
	return 0;
}

static int pfc_target(const struct rd_fixup *f, const char *before,
		      char *after, size_t len)
{
	uint64_t en;

	if (f->value > 7 || mask_parse(before, &en) < 0)
		return -EINVAL;
	snprintf(after, len, "0x%02" PRIx64, (en | (UINT64_C(1) << f->value)) & 0xff);
	return 0;
}

static void pfc_command(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len)
{
	uint64_t m = 0;
	int n;

	mask_parse(value, &m);
	n = snprintf(buf, len, "dcb pfc set dev %s prio-pfc",
		     rd_shquote_tmp(t->arg));
	for (int p = 0; p < 8 && n > 0 && (size_t)n < len; p++)
		n += snprintf(buf + n, len - (size_t)n, " %d:%s", p,
			      m & (1u << p) ? "on" : "off");
}

/* Only the priorities that change: "prio-pfc 3:on", as a check shows it. */
static void pfc_change_command(const struct rd_fix_target *t, const char *from,
			       const char *to, char *buf, size_t len)
{
	uint64_t a = 0, b = 0;
	int n;

	if (mask_parse(from, &a) < 0 || mask_parse(to, &b) < 0 || a == b) {
		pfc_command(t, to, buf, len);
		return;
	}
	n = snprintf(buf, len, "dcb pfc set dev %s prio-pfc",
		     rd_shquote_tmp(t->arg));
	for (int p = 0; p < 8 && n > 0 && (size_t)n < len; p++)
		if ((a ^ b) & (1u << p))
			n += snprintf(buf + n, len - (size_t)n, " %d:%s", p,
				      b & (1u << p) ? "on" : "off");
}

/* The device's ieee_pfc as dcbnl reports it. */
static int pfc_get(const char *ifname, struct ieee_pfc *pfc, char *msg,
		   size_t ml)
{
	struct rd_nl_buf b = { 0 };
	struct nl_sock *sk = NULL;
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	bool found = false;
	int r;

	r = rd_nl_open(NETLINK_ROUTE, &sk);
	if (r == 0)
		r = rd_dcb_request(sk, DCB_CMD_IEEE_GET, ifname, &b);
	nl_socket_free(sk);
	rd_nl_iter_init(&it, b.data, r == 0 ? b.len : 0);
	while (r == 0 && rd_nl_next(&it, &nlh) == 1) {
		struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1];

		if (rd_nlmsg_parse(nlh, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX,
				   NULL) < 0 ||
		    !tb[DCB_ATTR_IEEE] ||
		    rd_nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX,
					tb[DCB_ATTR_IEEE], NULL) < 0 ||
		    !ieee[DCB_ATTR_IEEE_PFC] ||
		    nla_len(ieee[DCB_ATTR_IEEE_PFC]) < (int)sizeof(*pfc))
			continue;
		memcpy(pfc, nla_data(ieee[DCB_ATTR_IEEE_PFC]), sizeof(*pfc));
		found = true;
	}
	rd_nl_iter_end(&it);
	rd_nl_buf_free(&b);
	if (r == 0 && !found)
		r = -EOPNOTSUPP;
	if (r < 0)
		snprintf(msg, ml, r == -EOPNOTSUPP ?
				  "%s: the driver has no DCB support" :
				  "%s: dcbnl: %s",
			 rd_esc_tmp(ifname), strerror(-r));
	return r;
}

static int pfc_read(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml)
{
	struct ieee_pfc pfc;
	int r = pfc_get(t->arg, &pfc, msg, ml);

	if (r == 0)
		snprintf(val, len, "0x%02x", pfc.pfc_en);
	return r;
}

static int pfc_validate(const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml)
{
	struct rd_fix_link l;
	struct ieee_pfc pfc;
	int r;

	(void)value;
	r = rd_fix_link_same(t, t->arg, &l, msg, ml);
	return r < 0 ? r : pfc_get(t->arg, &pfc, msg, ml);
}

static int pfc_apply(const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml)
{
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_SET };
	struct rd_nl_buf b = { 0 };
	struct nl_sock *sk = NULL;
	struct ieee_pfc pfc;
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nl_msg *m;
	uint64_t en = 0;
	int r, status = 0;

	mask_parse(value, &en);
	r = pfc_get(t->arg, &pfc, msg, ml);
	if (r < 0)
		return r;
	pfc.pfc_en = (uint8_t)en;
	r = rd_nl_open(NETLINK_ROUTE, &sk);
	if (r < 0) {
		snprintf(msg, ml, "rtnetlink: %s", strerror(-r));
		return r;
	}
	m = nlmsg_alloc_simple(RTM_SETDCB, NLM_F_REQUEST);
	r = -ENOMEM;
	if (m && nlmsg_append(m, &dm, sizeof(dm), NLMSG_ALIGNTO) == 0 &&
	    nla_put_string(m, DCB_ATTR_IFNAME, t->arg) == 0 &&
	    (nest = nla_nest_start(m, DCB_ATTR_IEEE)) &&
	    nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc) == 0) {
		nla_nest_end(m, nest);
		r = rd_nl_request(sk, m, &b);
	}
	nlmsg_free(m);
	nl_socket_free(sk);
	rd_nl_iter_init(&it, b.data, r == 0 ? b.len : 0);
	while (r == 0 && (r = rd_nl_next(&it, &nlh)) == 1) {
		struct nlattr *tb[DCB_ATTR_MAX + 1];

		r = 0;
		/* A SET reply carries only the driver's status byte. */
		if (rd_nlmsg_parse(nlh, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX,
				   NULL) == 0 &&
		    tb[DCB_ATTR_IEEE] && nla_len(tb[DCB_ATTR_IEEE]) == 1)
			status = nla_get_u8(tb[DCB_ATTR_IEEE]);
	}
	rd_nl_iter_end(&it);
	rd_nl_buf_free(&b);
	if (r < 0) {
		snprintf(msg, ml, "%s: dcbnl: %s", rd_esc_tmp(t->arg),
			 strerror(-r));
		return r;
	}
	if (status) {
		snprintf(msg, ml, "%s: the driver refused the PFC setting (%d)",
			 rd_esc_tmp(t->arg), status);
		return -EIO;
	}
	return 0;
}

const struct rd_fix_ops rd_fix_pfc_ops = {
	RD_FIX_KIND(pfc, "pfc", RD_FIX_PFC, true),
	.netdev_arg = RD_FIX_NETDEV_ARG,
	.cuts_session = true,
	.target_value = pfc_target,
	.change_command = pfc_change_command,
	.validate = pfc_validate,
};
