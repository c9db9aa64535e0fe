// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix kind rxe_add: a Soft-RoCE link on a netdev (undo: delete it). */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <net/if.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/escape.h"
#include "core/model.h"
#include "probes/nl_util.h"
#include "probes/rdma_nl.h"

/* Defined at the end; its word list is what the check accepts. */
extern const struct rd_fix_ops rd_fix_rxe_ops;

static const char *const checks[] = { "port.state", NULL };
static const char *const words[] = { "present", "absent", NULL };

/* "rxe" and up to three digits: the names the check gives. */
static bool rxe_name_ok(const char *s)
{
	size_t n;

	if (!s || strncmp(s, "rxe", 3) != 0)
		return false;
	n = strlen(s + 3);
	return n >= 1 && n <= 3 && strspn(s + 3, "0123456789") == n;
}

static int rxe_check(const struct rd_fix_target *t, const char *value,
		     char *why, size_t len)
{
	if (rd_fix_need(rxe_name_ok(t->arg), t->arg,
			"a Soft-RoCE name (rxeN)", why, len) < 0 ||
	    rd_fix_need_ifname(t->arg2, why, len) < 0)
		return -EINVAL;
	return rd_fix_need_word(&rd_fix_rxe_ops, value, why, len);
}

static void rxe_command(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len)
{
	if (strcmp(value, "present") == 0)
		snprintf(buf, len, "rdma link add %s type rxe netdev %s",
			 rd_shquote_tmp(t->arg), rd_shquote_tmp(t->arg2));
	else
		snprintf(buf, len, "rdma link delete %s", rd_shquote_tmp(t->arg));
}

/* The RDMA device index of name, or -ENODEV. */
static int rdma_index(const char *name, uint32_t *idx, char *msg, size_t ml)
{
	struct rd_device *devs = NULL;
	struct nl_sock *sk = NULL;
	size_t n = 0;
	int r;

	r = rd_nl_open(NETLINK_RDMA, &sk);
	if (r == 0)
		r = rd_fix_rdma_devices(sk, name, &devs, &n, idx);
	if (r < 0 && r != -ENODEV)
		snprintf(msg, ml, "RDMA netlink: %s", strerror(-r));
	rd_rdma_nl_free_devices(devs, n);
	nl_socket_free(sk);
	return r;
}

static int rxe_read(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml)
{
	uint32_t idx;
	int r = rdma_index(t->arg, &idx, msg, ml);

	if (r < 0 && r != -ENODEV)
		return r;
	snprintf(val, len, "%s", r == 0 ? "present" : "absent");
	return 0;
}

static int rxe_validate(const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml)
{
	char path[PATH_MAX], parent[64];
	struct rd_fix_link l;
	int r = rd_fix_link_get(t->arg2, &l, msg, ml);

	if (r < 0)
		return r == -ENODEV ? -ESTALE : r;
	if (!t->ifindex || l.ifindex != t->ifindex) {
		snprintf(msg, ml, "%s is not the interface the reading saw",
			 rd_esc_tmp(t->arg2));
		return -ESTALE;
	}
	if (l.flags & IFF_LOOPBACK) {
		snprintf(msg, ml, "%s is a loopback interface; no check names it",
			 rd_esc_tmp(t->arg2));
		return -EINVAL;
	}
	if (strcmp(value, "present") == 0)
		return 0;
	/* Delete only the Soft-RoCE link on that netdev, nothing else. */
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/parent", t->arg);
	if (rd_attr_read(path, parent, sizeof(parent)) < 0 ||
	    strcmp(parent, t->arg2) != 0) {
		snprintf(msg, ml, "%s is not a Soft-RoCE link on %s",
			 rd_esc_tmp(t->arg), rd_esc_tmp(t->arg2));
		return -EINVAL;
	}
	return 0;
}

static int rxe_apply(const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml)
{
	bool add = strcmp(value, "present") == 0;
	struct rd_nl_buf b = { 0 };
	struct nl_sock *sk = NULL;
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	struct nl_msg *m = NULL;
	uint32_t idx = 0;
	int r, op;

	if (!add && (r = rdma_index(t->arg, &idx, msg, ml)) < 0)
		return r;
	r = rd_nl_open(NETLINK_RDMA, &sk);
	if (r < 0) {
		snprintf(msg, ml, "RDMA netlink: %s", strerror(-r));
		return r;
	}
	/* RDMA_NL_GET_TYPE does not parenthesise its operands. */
	op = add ? RDMA_NLDEV_CMD_NEWLINK : RDMA_NLDEV_CMD_DELLINK;
	m = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op),
			       NLM_F_REQUEST | NLM_F_ACK);
	if (!m)
		r = -ENOMEM;
	else if (add)
		r = nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, t->arg) ||
				    nla_put_string(m, RDMA_NLDEV_ATTR_LINK_TYPE, "rxe") ||
				    nla_put_string(m, RDMA_NLDEV_ATTR_NDEV_NAME, t->arg2) ?
			    -ENOMEM : 0;
	else
		r = nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, idx) ? -ENOMEM : 0;
	if (r == 0)
		r = rd_nl_request(sk, m, &b);
	if (r == 0) {
		rd_nl_iter_init(&it, b.data, b.len);
		while ((r = rd_nl_next(&it, &nlh)) == 1)
			;
		rd_nl_iter_end(&it);
	}
	if (r < 0)
		snprintf(msg, ml, "RDMA netlink %s %s: %s",
			 add ? "new link" : "delete link", rd_esc_tmp(t->arg),
			 strerror(-r));
	nlmsg_free(m);
	rd_nl_buf_free(&b);
	nl_socket_free(sk);
	return r;
}

const struct rd_fix_ops rd_fix_rxe_ops = {
	RD_FIX_KIND(rxe, "rxe_add", RD_FIX_RXE_ADD, true),
	.netdev_arg = RD_FIX_NETDEV_ARG2,
	.words = words,
	.words_name = "Soft-RoCE link state",
	.validate = rxe_validate,
};
