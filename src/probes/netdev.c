// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtnetlink: the netdevs behind RDMA ports (named by a port, or sharing
 * the PCI function of an RDMA device). One link dump and one address dump
 * per refresh over a socket kept in the probe cache.
 */
#include "config.h"
#include "probes/netdev.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/route/link.h>

#include "core/attr.h"
#include "probes/nl_util.h"
#include "probes/read.h"

#define SRC "netdev"
#define NETDEV_MAX_LINKS 65536
#define NETDEV_MAX_ADDRS 1024
/* Longest link-layer address (MAX_ADDR_LEN in the kernel). */
#define NETDEV_MAX_HWADDR 32

static struct nla_policy link_policy[IFLA_MAX + 1] = {
	[IFLA_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
	[IFLA_MTU] = { .type = NLA_U32 },
	[IFLA_MIN_MTU] = { .type = NLA_U32 },
	[IFLA_MAX_MTU] = { .type = NLA_U32 },
	[IFLA_OPERSTATE] = { .type = NLA_U8 },
	[IFLA_CARRIER] = { .type = NLA_U8 },
	[IFLA_CARRIER_CHANGES] = { .type = NLA_U32 },
	[IFLA_CARRIER_UP_COUNT] = { .type = NLA_U32 },
	[IFLA_CARRIER_DOWN_COUNT] = { .type = NLA_U32 },
	[IFLA_ADDRESS] = { .type = NLA_UNSPEC, .minlen = 1,
			   .maxlen = NETDEV_MAX_HWADDR },
	[IFLA_PERM_ADDRESS] = { .type = NLA_UNSPEC, .minlen = 1,
				.maxlen = NETDEV_MAX_HWADDR },
	[IFLA_LINKINFO] = { .type = NLA_NESTED },
	[IFLA_LINK] = { .type = NLA_U32 },
	[IFLA_PARENT_DEV_NAME] = { .type = NLA_STRING, .maxlen = 256 },
	[IFLA_PARENT_DEV_BUS_NAME] = { .type = NLA_STRING, .maxlen = 64 },
};

static struct nla_policy linkinfo_policy[IFLA_INFO_MAX + 1] = {
	[IFLA_INFO_KIND] = { .type = NLA_STRING, .maxlen = 64 },
	[IFLA_INFO_DATA] = { .type = NLA_NESTED },
};

static struct nla_policy vlan_policy[IFLA_VLAN_MAX + 1] = {
	[IFLA_VLAN_ID] = { .type = NLA_U16 },
	[IFLA_VLAN_EGRESS_QOS] = { .type = NLA_NESTED },
};

static struct nla_policy addr_policy[IFA_MAX + 1] = {
	[IFA_ADDRESS] = { .type = NLA_UNSPEC, .minlen = 4, .maxlen = 16 },
	[IFA_LOCAL] = { .type = NLA_UNSPEC, .minlen = 4, .maxlen = 16 },
};

void rd_netdev_free_array(struct rd_netdev *nd, size_t n)
{
	rd_model_free_array(rd_netdev_fields, (void **)&nd, &n, sizeof(*nd));
}

const char *rd_netdev_scope_name(unsigned scope, char *buf, size_t size)
{
	switch (scope) {
	case RT_SCOPE_UNIVERSE:
		return "global";
	case RT_SCOPE_SITE:
		return "site";
	case RT_SCOPE_LINK:
		return "link";
	case RT_SCOPE_HOST:
		return "host";
	case RT_SCOPE_NOWHERE:
		return "nowhere";
	default:
		snprintf(buf, size, "%u", scope);
		return buf;
	}
}

static void format_hw(struct nlattr *a, char **dst)
{
	const uint8_t *b = nla_data(a);
	int n = nla_len(a);
	char buf[NETDEV_MAX_HWADDR * 3 + 1];

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(buf);

		snprintf(buf + l, sizeof(buf) - l, i ? ":%02x" : "%02x", b[i]);
	}
	rd_str_put(dst, buf);
}

/*
 * A VLAN device's id and egress map (skb priority -> PCP, what
 * `ip link add ... egress-qos-map` sets): IFLA_VLAN_QOS_MAPPING entries.
 */
static int vlan_from_data(struct nlattr *data, struct rd_netdev *d)
{
	struct nlattr *tb[IFLA_VLAN_MAX + 1], *m;
	int r, rem;

	r = rd_nla_parse_nested(tb, IFLA_VLAN_MAX, data, vlan_policy);
	if (r < 0)
		return r;
	if (tb[IFLA_VLAN_ID])
		d->vlan_id = rd_u64(nla_get_u16(tb[IFLA_VLAN_ID]) & 0xfff);
	if (!tb[IFLA_VLAN_EGRESS_QOS])
		return 0;
	nla_for_each_nested(m, tb[IFLA_VLAN_EGRESS_QOS], rem) {
		struct ifla_vlan_qos_mapping q;
		char key[16];

		if (nla_type(m) != IFLA_VLAN_QOS_MAPPING)
			continue;
		if (nla_len(m) < (int)sizeof(q))
			return -EBADMSG;
		memcpy(&q, nla_data(m), sizeof(q));
		/* to is a PCP (0-7); skb priorities above 7 never come from a ToS. */
		if (q.to > 7)
			return -EBADMSG;
		if (q.from > 7)
			continue;
		snprintf(key, sizeof(key), "prio%u", q.from);
		if (!rd_counters_add(&d->vlan_egress, key, rd_u64(q.to)))
			return -ENOMEM;
	}
	return 0;
}

static int link_from_msg(struct nlmsghdr *nlh, struct rd_netdev *d)
{
	struct nlattr *tb[IFLA_MAX + 1];
	struct ifinfomsg ifi;
	const char *name, *t;
	int r;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(ifi)))
		return -EBADMSG;
	memcpy(&ifi, NLMSG_DATA(nlh), sizeof(ifi));
	r = rd_nlmsg_parse(nlh, sizeof(ifi), tb, IFLA_MAX, link_policy);
	if (r < 0)
		return r;
	name = rd_nl_text(tb[IFLA_IFNAME]);
	if (!name || ifi.ifi_index <= 0)
		return -EBADMSG;
	rd_str_put(&d->name, name);
	d->ifindex = rd_u64((uint64_t)ifi.ifi_index);
	d->admin_up = rd_bool(ifi.ifi_flags & IFF_UP);
	if (tb[IFLA_OPERSTATE]) {
		char buf[32];

		rd_str_put(
			&d->operstate,
			rtnl_link_operstate2str(nla_get_u8(tb[IFLA_OPERSTATE]),
						buf, sizeof(buf)));
	}
	if (tb[IFLA_CARRIER])
		d->carrier = rd_bool(nla_get_u8(tb[IFLA_CARRIER]) != 0);
	if (tb[IFLA_CARRIER_CHANGES])
		d->carrier_changes = rd_u64(nla_get_u32(tb[IFLA_CARRIER_CHANGES]));
	if (tb[IFLA_CARRIER_UP_COUNT])
		d->carrier_up_count =
			rd_u64(nla_get_u32(tb[IFLA_CARRIER_UP_COUNT]));
	if (tb[IFLA_CARRIER_DOWN_COUNT])
		d->carrier_down_count =
			rd_u64(nla_get_u32(tb[IFLA_CARRIER_DOWN_COUNT]));
	if (tb[IFLA_MTU])
		d->mtu = rd_u64(nla_get_u32(tb[IFLA_MTU]));
	if (tb[IFLA_MIN_MTU])
		d->min_mtu = rd_u64(nla_get_u32(tb[IFLA_MIN_MTU]));
	if (tb[IFLA_MAX_MTU])
		d->max_mtu = rd_u64(nla_get_u32(tb[IFLA_MAX_MTU]));
	if (tb[IFLA_ADDRESS])
		format_hw(tb[IFLA_ADDRESS], &d->mac);
	if (tb[IFLA_PERM_ADDRESS])
		format_hw(tb[IFLA_PERM_ADDRESS], &d->perm_mac);
	if (tb[IFLA_LINKINFO]) {
		struct nlattr *li[IFLA_INFO_MAX + 1];

		r = rd_nla_parse_nested(li, IFLA_INFO_MAX, tb[IFLA_LINKINFO],
					linkinfo_policy);
		if (r < 0)
			return r;
		t = rd_nl_text(li[IFLA_INFO_KIND]);
		if (t)
			rd_str_put(&d->kind, t);
		if (t && strcmp(t, "vlan") == 0 && li[IFLA_INFO_DATA]) {
			r = vlan_from_data(li[IFLA_INFO_DATA], d);
			if (r < 0)
				return r;
		}
	}
	if (tb[IFLA_LINK])
		d->link_ifindex = rd_u64(nla_get_u32(tb[IFLA_LINK]));
	t = rd_nl_text(tb[IFLA_PARENT_DEV_BUS_NAME]);
	if (t && strcmp(t, "pci") == 0) {
		t = rd_nl_text(tb[IFLA_PARENT_DEV_NAME]);
		if (t)
			rd_str_put(&d->pci_bdf, t);
	}
	return 0;
}

int rd_netdev_parse_links(const void *bytes, size_t len,
			  struct rd_netdev **out, size_t *n)
{
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	int r;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &nlh)) > 0) {
		struct rd_netdev tmp = { 0 }, *d;

		if (nlh->nlmsg_type != RTM_NEWLINK) {
			r = -EBADMSG;
			break;
		}
		r = link_from_msg(nlh, &tmp);
		if (r < 0) {
			rd_model_free(rd_netdev_fields, &tmp);
			break;
		}
		if (*n >= NETDEV_MAX_LINKS || !(d = RD_PUSH(*out, *n))) {
			rd_model_free(rd_netdev_fields, &tmp);
			r = *n >= NETDEV_MAX_LINKS ? -E2BIG : -ENOMEM;
			break;
		}
		*d = tmp;
	}
	rd_nl_iter_end(&it);
	return r < 0 ? r : 0;
}

static struct rd_netdev *by_ifindex(struct rd_netdev *nd, size_t n,
				    uint64_t idx)
{
	for (size_t i = 0; i < n; i++)
		if (nd[i].ifindex.ok && nd[i].ifindex.v == idx)
			return &nd[i];
	return NULL;
}

int rd_netdev_parse_addrs(const void *bytes, size_t len, struct rd_netdev *nd,
			  size_t n)
{
	struct nlattr *tb[IFA_MAX + 1];
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	int r;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &nlh)) > 0) {
		struct ifaddrmsg ifa;
		struct rd_netdev *d;
		struct rd_addr *a;
		struct nlattr *at;
		char text[INET6_ADDRSTRLEN], sbuf[16];
		size_t want;

		if (nlh->nlmsg_type != RTM_NEWADDR ||
		    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(ifa))) {
			r = -EBADMSG;
			break;
		}
		memcpy(&ifa, NLMSG_DATA(nlh), sizeof(ifa));
		r = rd_nlmsg_parse(nlh, sizeof(ifa), tb, IFA_MAX, addr_policy);
		if (r < 0)
			break;
		if (ifa.ifa_family != AF_INET && ifa.ifa_family != AF_INET6)
			continue;
		want = ifa.ifa_family == AF_INET ? 4 : 16;
		/* IPv4 peer links carry the peer in ADDRESS, ours in LOCAL. */
		at = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
		if (!at || (size_t)nla_len(at) != want ||
		    ifa.ifa_prefixlen > want * 8) {
			r = -EBADMSG;
			break;
		}
		d = by_ifindex(nd, n, ifa.ifa_index);
		if (!d)
			continue;
		if (d->n_addrs >= NETDEV_MAX_ADDRS) {
			d->addrs_read = rd_bool(false);	/* the list is cut */
			continue;
		}
		if (!inet_ntop(ifa.ifa_family, nla_data(at), text,
			       sizeof(text))) {
			r = -EBADMSG;
			break;
		}
		a = RD_PUSH(d->addrs, d->n_addrs);
		if (!a) {
			r = -ENOMEM;
			break;
		}
		rd_str_put(&a->family,
			   ifa.ifa_family == AF_INET ? "inet" : "inet6");
		rd_str_put(&a->address, text);
		a->prefixlen = rd_u64(ifa.ifa_prefixlen);
		rd_str_put(&a->scope, rd_netdev_scope_name(ifa.ifa_scope, sbuf,
							   sizeof(sbuf)));
	}
	rd_nl_iter_end(&it);
	if (r < 0)
		return r;
	/* The dump covers every link: one without an address has none. */
	for (size_t i = 0; i < n; i++)
		if (!nd[i].addrs_read.ok)
			nd[i].addrs_read = rd_bool(true);
	return 0;
}

/* ---- the probe ---- */

int rd_netdev_dump(struct nl_sock *sk, int type, struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, NLM_F_REQUEST | NLM_F_DUMP);
	int r = -ENOMEM;

	if (!m)
		return r;
	if (type == RTM_GETLINK) {
		struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };

		/* Statistics would make every message ten times bigger. */
		if (nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
		    nla_put_u32(m, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS) < 0)
			goto out;
	} else {
		struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };

		if (nlmsg_append(m, &ifa, sizeof(ifa), NLMSG_ALIGNTO) < 0)
			goto out;
	}
	r = rd_nl_request(sk, m, out);
out:
	nlmsg_free(m);
	return r;
}

/* The netdev's parent device, driver and bus address from sysfs. */
static void sysfs_parent(const struct rd_probe_ctx *ctx, struct rd_netdev *d)
{
	char path[PATH_MAX], name[256];

	if (!d->pci_bdf &&
	    rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/device", d->name) == 0 &&
	    rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)) == 0) {
		unsigned dom, bus, dev, fn;
		char tail;

		if (sscanf(name, "%4x:%2x:%2x.%1x%c", &dom, &bus, &dev, &fn,
			   &tail) == 4 &&
		    strlen(name) == 12)
			rd_str_put(&d->pci_bdf, name);
	}
	if (!d->driver &&
	    rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/device/driver", d->name) == 0 &&
	    rd_probe_link_name(AT_FDCWD, path, name, sizeof(name)) == 0)
		rd_str_put(&d->driver, name);
	/* Virtual devices have no parent: their kind names the driver. */
	if (!d->driver && d->kind)
		rd_str_put(&d->driver, d->kind);
}

/* Which RDMA port, if any, sits on this netdev. */
static bool rdma_owner(const struct rd_snapshot *s, const struct rd_netdev *d,
		       const char **dev, uint64_t *port)
{
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *rd = &s->devices[i];

		for (size_t j = 0; j < rd->n_ports; j++) {
			const struct rd_port *p = &rd->ports[j];

			if ((p->netdev && strcmp(p->netdev, d->name) == 0) ||
			    (p->netdev_ifindex.ok &&
			     p->netdev_ifindex.v == d->ifindex.v)) {
				*dev = rd->name;
				*port = p->port;
				return true;
			}
		}
	}
	return false;
}

static bool same_pci(const struct rd_snapshot *s, const struct rd_netdev *d,
		     const char **dev)
{
	if (!d->pci_bdf)
		return false;
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].pci_bdf &&
		    strcmp(s->devices[i].pci_bdf, d->pci_bdf) == 0) {
			*dev = s->devices[i].name;
			return true;
		}
	return false;
}

/*
 * A VLAN device stacked on an RDMA port's netdev: RoCE over that VLAN
 * carries its egress map's PCP, so the QoS model needs it.
 */
static bool vlan_of_port(const struct rd_snapshot *s, struct rd_netdev *all,
			 size_t n, struct rd_netdev *v, const char **dev)
{
	const struct rd_netdev *lower = NULL;
	uint64_t port;

	if (!v->kind || strcmp(v->kind, "vlan") != 0 || !v->link_ifindex.ok)
		return false;
	/* The lower may be parsed but not kept yet, or kept already. */
	for (size_t i = 0; i < n && !lower; i++)
		if (&all[i] != v && all[i].name && all[i].ifindex.ok &&
		    all[i].ifindex.v == v->link_ifindex.v)
			lower = &all[i];
	for (size_t i = 0; i < s->n_netdevs && !lower; i++)
		if (s->netdevs[i].name && s->netdevs[i].ifindex.ok &&
		    s->netdevs[i].ifindex.v == v->link_ifindex.v)
			lower = &s->netdevs[i];
	if (!lower || !rdma_owner(s, lower, dev, &port))
		return false;
	rd_str_put(&v->lower, lower->name);
	rd_str_put(&v->rdma_device, *dev);
	return true;
}

/* Move the link data into the snapshot's entry for that name. */
static void adopt(struct rd_snapshot *s, struct rd_netdev *d)
{
	struct rd_netdev *e = rd_snapshot_netdev(s, d->name);

	if (!e) {
		e = RD_PUSH(s->netdevs, s->n_netdevs);
		if (!e)
			return;
		*e = *d;
		memset(d, 0, sizeof(*d));
		return;
	}
	/* Another probe made the entry: keep its ethtool/dcb/ecn parts. */
	struct rd_ethtool et = e->ethtool;
	struct rd_dcb dcb = e->dcb;
	struct rd_ecn ecn = e->ecn;

	memset(&e->ethtool, 0, sizeof(e->ethtool));
	memset(&e->dcb, 0, sizeof(e->dcb));
	memset(&e->ecn, 0, sizeof(e->ecn));
	rd_model_free(rd_netdev_fields, e);
	*e = *d;
	e->ethtool = et;
	e->dcb = dcb;
	e->ecn = ecn;
	memset(d, 0, sizeof(*d));
}

/* Read one numeric attribute of /sys/class/net/NAME; absent on failure. */
static struct rd_ou64 sysfs_u64(const struct rd_probe_ctx *ctx,
				struct rd_snapshot *s, const char *name,
				const char *attr, int base)
{
	char path[PATH_MAX], buf[64];
	uint64_t v;
	ssize_t r;

	if (rd_path(path, sizeof(path), ctx->roots->sysfs, "/class/net/%s/%s",
		    name, attr) < 0)
		return (struct rd_ou64){ 0 };
	r = rd_attr_read(path, buf, sizeof(buf));
	if (r < 0) {
		/* Absent counters are normal on older kernels; say so once. */
		if (r != -ENOENT && r != -EINVAL)
			rd_snapshot_error(s, SRC, path, (int)r, NULL);
		return (struct rd_ou64){ 0 };
	}
	if (rd_parse_u64(buf, base, &v) < 0) {
		rd_snapshot_error(s, SRC, path, EINVAL,
				  "unexpected value \"%.32s\"", buf);
		return (struct rd_ou64){ 0 };
	}
	return rd_u64(v);
}

static bool netdev_name_ok(const char *n)
{
	return n && *n && strlen(n) < IFNAMSIZ && !strchr(n, '/') &&
	       strcmp(n, ".") != 0 && strcmp(n, "..") != 0;
}

/*
 * The netdev of an Ethernet port whose GID table names none (a port that
 * never came up has no GID 0): the PCI function's net/ directory, and
 * when it holds several, the one whose dev_port is the port's number - 1.
 */
static bool netdev_of_function(const struct rd_probe_ctx *ctx,
			       const struct rd_device *rd,
			       const struct rd_port *p, char *out, size_t len)
{
	char path[PATH_MAX], buf[32];
	char **names = NULL;
	size_t n = 0;
	bool found = false;

	if (!rd->name || !p->link_layer ||
	    strcmp(p->link_layer, "Ethernet") != 0 ||
	    rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/infiniband/%s/device/net", rd->name) < 0 ||
	    rd_dir_list(AT_FDCWD, path, 64, &names, &n) < 0)
		return false;
	for (size_t i = 0; i < n && !found; i++) {
		uint64_t dp;

		if (!netdev_name_ok(names[i]))
			continue;
		if (n > 1 &&
		    (rd_path(path, sizeof(path), ctx->roots->sysfs,
			     "/class/infiniband/%s/device/net/%s/dev_port",
			     rd->name, names[i]) < 0 ||
		     rd_attr_read(path, buf, sizeof(buf)) <= 0 ||
		     rd_parse_u64(buf, 10, &dp) < 0 || dp + 1 != p->port))
			continue;
		found = (size_t)snprintf(out, len, "%s", names[i]) < len;
	}
	rd_dir_free(names, n);
	return found;
}

/*
 * Without netlink (a fixture tree, or a recorded host) the same link facts
 * come from /sys/class/net: enough for the port checks to reason about
 * admin state, carrier and MTU.
 */
static void collect_sysfs(const struct rd_probe_ctx *ctx,
			  struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *rd = &s->devices[i];

		for (size_t j = 0; j < rd->n_ports; j++) {
			const struct rd_port *p = &rd->ports[j];
			struct rd_netdev d = { 0 };
			char path[PATH_MAX], buf[128];
			struct rd_ou64 flags, carrier;
			char fn[IFNAMSIZ];
			const char *name = p->netdev;

			if (!netdev_name_ok(name) &&
			    netdev_of_function(ctx, rd, p, fn, sizeof(fn)))
				name = fn;
			if (!netdev_name_ok(name) ||
			    rd_snapshot_netdev(s, name) ||
			    rd_path(path, sizeof(path), ctx->roots->sysfs,
				    "/class/net/%s/ifindex", name) < 0 ||
			    access(path, F_OK) != 0)
				continue;
			rd_str_put(&d.name, name);
			rd_str_put(&d.rdma_device, rd->name);
			d.rdma_port = rd_u64(p->port);
			d.ifindex = sysfs_u64(ctx, s, d.name, "ifindex", 10);
			d.mtu = sysfs_u64(ctx, s, d.name, "mtu", 10);
			flags = sysfs_u64(ctx, s, d.name, "flags", 16);
			if (flags.ok)
				d.admin_up = rd_bool(flags.v & IFF_UP);
			/* carrier reads EINVAL while the device is down. */
			carrier = sysfs_u64(ctx, s, d.name, "carrier", 10);
			if (carrier.ok && carrier.v <= 1)
				d.carrier = rd_bool(carrier.v == 1);
			d.carrier_changes =
				sysfs_u64(ctx, s, d.name, "carrier_changes", 10);
			d.carrier_up_count =
				sysfs_u64(ctx, s, d.name, "carrier_up_count", 10);
			d.carrier_down_count =
				sysfs_u64(ctx, s, d.name, "carrier_down_count", 10);
			if (rd_path(path, sizeof(path), ctx->roots->sysfs,
				    "/class/net/%s/operstate", d.name) == 0 &&
			    rd_attr_read(path, buf, sizeof(buf)) > 0)
				rd_str_put(&d.operstate, buf);
			if (rd_path(path, sizeof(path), ctx->roots->sysfs,
				    "/class/net/%s/address", d.name) == 0 &&
			    rd_attr_read(path, buf, sizeof(buf)) > 0)
				rd_str_put(&d.mac, buf);
			sysfs_parent(ctx, &d);
			adopt(s, &d);
			rd_model_free(rd_netdev_fields, &d);
		}
	}
}

/*
 * Keep the parsed links that matter: the netdevs of RDMA ports, those on
 * an RDMA device's PCI function, the VLANs stacked on a port's netdev,
 * or every interface when there is no RDMA device at all.
 */
void rd_netdev_keep(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		    struct rd_netdev *nd, size_t n)
{
	bool any_pci = false;

	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].pci_bdf)
			any_pci = true;
	for (size_t i = 0; i < n; i++) {
		const char *dev = NULL;
		uint64_t port = 0;
		bool on_port = rdma_owner(s, &nd[i], &dev, &port);

		/*
		 * No RDMA device at all: every interface is a candidate for
		 * one (a Soft-RoCE link, a NIC whose RDMA driver is missing).
		 */
		if (s->n_devices == 0) {
			if (nd[i].name && strcmp(nd[i].name, "lo") != 0) {
				sysfs_parent(ctx, &nd[i]);
				adopt(s, &nd[i]);
			}
			continue;
		}
		if (!on_port && vlan_of_port(s, nd, n, &nd[i], &dev)) {
			adopt(s, &nd[i]);
			continue;
		}
		if (!on_port && !any_pci)
			continue;
		sysfs_parent(ctx, &nd[i]);
		if (!on_port && !same_pci(s, &nd[i], &dev))
			continue;
		rd_str_put(&nd[i].rdma_device, dev);
		if (on_port)
			nd[i].rdma_port = rd_u64(port);
		adopt(s, &nd[i]);
	}
}

static int probe_netdev_collect(const struct rd_probe_ctx *ctx, void *state,
				struct rd_snapshot *s)
{
	struct rd_nl_state *c = state;
	struct rd_nl_buf b = { 0 };
	struct rd_netdev *nd = NULL;
	size_t n = 0;
	int r;

	if (ctx->flags & RD_PROBE_NO_NETLINK) {
		collect_sysfs(ctx, s);
		return 0;
	}
	if (rd_nl_open_once(s, SRC, NETLINK_ROUTE, &c->sk) < 0)
		return 0;
	r = rd_netdev_dump(c->sk, RTM_GETLINK, &b);
	if (r == 0)
		r = rd_netdev_parse_links(b.data, b.len, &nd, &n);
	if (r < 0) {
		rd_snapshot_error(s, SRC, "link dump", r, NULL);
		goto drop_socket;
	}
	rd_nl_buf_free(&b);
	r = rd_netdev_dump(c->sk, RTM_GETADDR, &b);
	if (r == 0)
		r = rd_netdev_parse_addrs(b.data, b.len, nd, n);
	if (r < 0) {
		rd_snapshot_error(s, SRC, "address dump", r, NULL);
		goto drop_socket;
	}
	rd_netdev_keep(ctx, s, nd, n);
	goto out;

drop_socket:
	rd_nl_close(&c->sk);
out:
	rd_nl_buf_free(&b);
	rd_netdev_free_array(nd, n);
	return 0;
}

const struct rd_probe probe_netdev =
	RD_PROBE_ROW("netdev", 0, probe_netdev_collect, struct rd_nl_state,
		     NULL, rd_nl_state_clear);
