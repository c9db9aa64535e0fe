// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live facts about netdevs for the fix kinds that change one: rtnetlink
 * for the link (index, flags, MTU and its range), RDMA netlink for which
 * netdevs carry an RDMA port. Through the probes' netlink helpers.
 */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/model.h"
#include "probes/nl_util.h"
#include "probes/rdma_nl.h"

bool rd_fix_ifname_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n >= IFNAMSIZ || strcmp(s, ".") == 0 ||
	    strcmp(s, "..") == 0)
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || (unsigned char)*s <= ' ' ||
		    *s == 0x7f)
			return false;
	return true;
}

int rd_fix_need(bool ok, const char *arg, const char *what, char *why,
		size_t len)
{
	if (ok)
		return 0;
	rd_snprintf_text(why, len, "\"%s\" is not %s", rd_esc_tmp(arg), what);
	return -EINVAL;
}

int rd_fix_need_ifname(const char *s, char *why, size_t len)
{
	return rd_fix_need(rd_fix_ifname_ok(s), s, "an interface name", why,
			   len);
}

int rd_fix_parse_dec(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++, n++) {
		if (*s < '0' || *s > '9' || n >= 20)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int rd_fix_need_word(const struct rd_fix_ops *k, const char *value,
		     char *why, size_t len)
{
	size_t o;

	for (size_t i = 0; value && k->words[i]; i++)
		if (strcmp(value, k->words[i]) == 0)
			return 0;
	o = (size_t)rd_snprintf_text(why, len, "%s \"%s\" is not",
				     k->words_name, rd_esc_tmp(value));
	for (size_t i = 0; k->words[i] && o < len; i++)
		o += (size_t)snprintf(why + o, len - o, "%s %s",
				      i ? (k->words[i + 1] ? "," : " or") : "",
				      k->words[i]);
	return -EINVAL;
}

int rd_fix_target_decimal(const struct rd_fixup *f, const char *before,
			  char *after, size_t len)
{
	(void)before;
	snprintf(after, len, "%" PRIu64, f->value);
	return 0;
}

static const struct nla_policy link_policy[IFLA_MAX + 1] = {
	[IFLA_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
	[IFLA_MTU] = { .type = NLA_U32 },
	[IFLA_MIN_MTU] = { .type = NLA_U32 },
	[IFLA_MAX_MTU] = { .type = NLA_U32 },
};

static int parse_link(const struct rd_nl_buf *b, struct rd_fix_link *l)
{
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	int r, found = 0;

	rd_nl_iter_init(&it, b->data, b->len);
	while ((r = rd_nl_next(&it, &nlh)) == 1) {
		struct nlattr *tb[IFLA_MAX + 1];
		struct ifinfomsg *ifi;

		if (nlh->nlmsg_type != RTM_NEWLINK)
			continue;
		if (rd_nlmsg_parse(nlh, sizeof(*ifi), tb, IFLA_MAX,
				   link_policy) < 0 ||
		    !tb[IFLA_IFNAME] || !tb[IFLA_MTU]) {
			r = -EBADMSG;
			break;
		}
		ifi = nlmsg_data(nlh);
		memset(l, 0, sizeof(*l));
		l->ifindex = (uint32_t)ifi->ifi_index;
		l->flags = ifi->ifi_flags;
		snprintf(l->name, sizeof(l->name), "%s",
			 nla_get_string(tb[IFLA_IFNAME]));
		l->mtu = nla_get_u32(tb[IFLA_MTU]);
		if (tb[IFLA_MIN_MTU])
			l->min_mtu = nla_get_u32(tb[IFLA_MIN_MTU]);
		if (tb[IFLA_MAX_MTU])
			l->max_mtu = nla_get_u32(tb[IFLA_MAX_MTU]);
		found = 1;
	}
	rd_nl_iter_end(&it);
	if (r < 0)
		return r;
	return found ? 0 : -ENODEV;
}

int rd_fix_link_get(const char *name, struct rd_fix_link *l, char *msg,
		    size_t ml)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rd_nl_buf b = { 0 };
	struct nl_sock *sk = NULL;
	struct nl_msg *m;
	int r;

	if (!rd_fix_ifname_ok(name)) {
		snprintf(msg, ml, "\"%s\" is not an interface name",
			 rd_esc_tmp(name));
		return -EINVAL;
	}
	r = rd_nl_open(NETLINK_ROUTE, &sk);
	if (r < 0) {
		snprintf(msg, ml, "rtnetlink: %s", strerror(-r));
		return r;
	}
	m = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);
	if (!m || nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, IFLA_IFNAME, name) < 0)
		r = -ENOMEM;
	else
		r = rd_nl_request(sk, m, &b);
	nlmsg_free(m);
	nl_socket_free(sk);
	if (r == 0)
		r = parse_link(&b, l);
	rd_nl_buf_free(&b);
	if (r == -ENODEV)
		snprintf(msg, ml, "there is no interface %s", rd_esc_tmp(name));
	else if (r < 0)
		snprintf(msg, ml, "%s: rtnetlink: %s", rd_esc_tmp(name),
			 strerror(-r));
	return r;
}

int rd_fix_link_set(uint32_t ifindex, uint32_t mtu, int up, char *msg,
		    size_t ml)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
				 .ifi_index = (int)ifindex };
	struct rd_nl_buf b = { 0 };
	struct nl_sock *sk = NULL;
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	struct nl_msg *m;
	int r;

	if (up >= 0) {
		ifi.ifi_change = IFF_UP;
		ifi.ifi_flags = up ? IFF_UP : 0;
	}
	r = rd_nl_open(NETLINK_ROUTE, &sk);
	if (r < 0) {
		snprintf(msg, ml, "rtnetlink: %s", strerror(-r));
		return r;
	}
	/* By index only: a name next to an index would rename the link. */
	m = nlmsg_alloc_simple(RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK);
	if (!m || nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    (mtu && nla_put_u32(m, IFLA_MTU, mtu) < 0))
		r = -ENOMEM;
	else
		r = rd_nl_request(sk, m, &b);
	nlmsg_free(m);
	nl_socket_free(sk);
	if (r == 0) {
		rd_nl_iter_init(&it, b.data, b.len);
		while ((r = rd_nl_next(&it, &nlh)) == 1)
			;
		rd_nl_iter_end(&it);
	}
	rd_nl_buf_free(&b);
	if (r < 0)
		snprintf(msg, ml, "interface #%u: rtnetlink: %s", ifindex,
			 strerror(-r));
	return r;
}

static const struct nla_policy dev_policy[RDMA_NLDEV_ATTR_MAX + 1] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING },
};

int rd_fix_rdma_parse_devices(const void *bytes, size_t len,
			      const char *name, struct rd_device **devs,
			      size_t *n, uint32_t *named)
{
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	bool found = false;
	int r;

	*devs = NULL;
	*n = 0;
	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &nlh)) == 1) {
		struct nlattr *tb[RDMA_NLDEV_ATTR_MAX + 1];
		struct rd_device *d;
		uint32_t idx;

		r = 0;
		if (nlh->nlmsg_type !=
			    RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET) ||
		    rd_nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX, dev_policy) < 0 ||
		    !tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
			r = -EBADMSG;
			break;
		}
		if (*n >= 1024 || !(d = RD_PUSH(*devs, *n))) {
			r = *n >= 1024 ? -E2BIG : -ENOMEM;
			break;
		}
		idx = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
		memset(d, 0, sizeof(*d));
		d->index = rd_u64(idx);
		/* Compared as bytes: a name nobody can print never matches. */
		if (name && tb[RDMA_NLDEV_ATTR_DEV_NAME] &&
		    strcmp(nla_get_string(tb[RDMA_NLDEV_ATTR_DEV_NAME]), name) == 0) {
			*named = idx;
			found = true;
		}
	}
	rd_nl_iter_end(&it);
	if (r < 0) {
		rd_rdma_nl_free_devices(*devs, *n);
		*devs = NULL;
		*n = 0;
		return r;
	}
	return name && !found ? -ENODEV : 0;
}

int rd_fix_rdma_devices(struct nl_sock *sk, const char *name,
			struct rd_device **devs, size_t *n, uint32_t *named)
{
	struct rd_nl_buf b = { 0 };
	int r = rd_rdma_nl_dump(sk, RDMA_NLDEV_CMD_GET, &b);

	*devs = NULL;
	*n = 0;
	if (r == 0)
		r = rd_fix_rdma_parse_devices(b.data, b.len, name, devs, n,
					      named);
	rd_nl_buf_free(&b);
	return r;
}

/* Does an RDMA port have this netdev behind it (the kernel's pairing)? */
static int carries_rdma(const char *name, uint32_t ifindex)
{
	struct rd_nl_buf b = { 0 };
	struct rd_device *devs = NULL;
	struct nl_sock *sk = NULL;
	size_t n = 0;
	bool found = false;
	int r;

	r = rd_nl_open(NETLINK_RDMA, &sk);
	if (r < 0)
		return r;
	r = rd_fix_rdma_devices(sk, NULL, &devs, &n, NULL);
	for (size_t i = 0; r == 0 && i < n; i++) {
		rd_nl_buf_free(&b);
		r = rd_rdma_nl_port_dump(sk, devs[i].index.v, &b);
		if (r == 0)
			r = rd_rdma_nl_parse_ports(b.data, b.len, devs, n);
		if (r == -ENODEV || r == -ENOENT)
			r = 0;
	}
	for (size_t i = 0; r == 0 && i < n; i++)
		for (size_t k = 0; k < devs[i].n_ports; k++) {
			const struct rd_port *p = &devs[i].ports[k];

			if (p->netdev && strcmp(p->netdev, name) == 0 &&
			    (!p->netdev_ifindex.ok ||
			     p->netdev_ifindex.v == ifindex))
				found = true;
		}
	rd_rdma_nl_free_devices(devs, n);
	rd_nl_buf_free(&b);
	nl_socket_free(sk);
	return r < 0 ? r : found;
}

int rd_fix_link_same(const struct rd_fix_target *t, const char *name,
		     struct rd_fix_link *l, char *msg, size_t ml)
{
	int r = rd_fix_link_get(name, l, msg, ml);

	if (r < 0)
		return r == -ENODEV ? -ESTALE : r;
	if (!t->ifindex) {
		snprintf(msg, ml,
			 "the reading has no interface index for %s (netlink not read)",
			 rd_esc_tmp(name));
		return -ESTALE;
	}
	if (l->ifindex != t->ifindex || strcmp(l->name, name) != 0) {
		snprintf(msg, ml,
			 "%s is now interface #%u; the reading saw #%llu: not the same interface",
			 rd_esc_tmp(name), l->ifindex,
			 (unsigned long long)t->ifindex);
		return -ESTALE;
	}
	if (l->flags & IFF_LOOPBACK) {
		snprintf(msg, ml, "%s is a loopback interface; no check names it",
			 rd_esc_tmp(name));
		return -EINVAL;
	}
	r = carries_rdma(name, l->ifindex);
	if (r <= 0) {
		snprintf(msg, ml, r < 0 ? "RDMA netlink: %s" :
					  "%s carries no RDMA port; no check names it",
			 r < 0 ? strerror(-r) : rd_esc_tmp(name));
		return r < 0 ? r : -EINVAL;
	}
	return 0;
}

void rd_fix_link_command(const struct rd_fix_target *t, const char *attr,
			 const char *value, char *buf, size_t len)
{
	snprintf(buf, len, "ip link set dev %s%s%s %s", rd_shquote_tmp(t->arg),
		 attr ? " " : "", attr ? attr : "", rd_shquote_tmp(value));
}

int rd_fix_link_read(const struct rd_fix_target *t, const char *attr,
		     char *val, size_t len, char *msg, size_t ml)
{
	struct rd_fix_link l;
	int r = rd_fix_link_get(t->arg, &l, msg, ml);

	if (r == 0 && attr)
		snprintf(val, len, "%u", l.mtu);
	else if (r == 0)
		snprintf(val, len, "%s", l.flags & IFF_UP ? "up" : "down");
	return r;
}

int rd_fix_link_apply(const struct rd_fix_target *t, const char *attr,
		      const char *value, char *msg, size_t ml)
{
	uint64_t mtu = 0;

	if (attr)
		rd_fix_parse_dec(value, &mtu);
	return rd_fix_link_set((uint32_t)t->ifindex, (uint32_t)mtu,
			       attr ? -1 : strcmp(value, "up") == 0, msg, ml);
}
