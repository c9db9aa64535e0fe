// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's live watch: rtnetlink link messages, verbs asynchronous
 * events and the RDMA netlink monitor, read without blocking into events.
 */
#include "config.h"
#include "console/watch.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <rdma/rdma_netlink.h>

#include "probes/nl_util.h"

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000 /* linux/if.h: the driver signals L1 up */
#endif

static void say(struct con_watch *w, const char *what, int e)
{
	size_t off = strlen(w->err);

	snprintf(w->err + off, sizeof(w->err) - off, "%s%s: %s",
		 off ? "; " : "", what, strerror(e));
}

/* Join a multicast group on a fresh socket of protocol; 0 or -errno. */
static int join(int protocol, int group, struct nl_sock **out)
{
	int r = rd_nl_open(protocol, out);

	if (r < 0)
		return r;
	r = nl_socket_add_membership(*out, group);
	if (r == 0)
		r = nl_socket_set_nonblocking(*out);
	if (r < 0) {
		/* libnl's codes are not errno; the kernel refused the group */
		rd_nl_close(out);
		return -EPERM;
	}
	return 0;
}

static const struct rd_netdev *netdev_by_index(const struct rd_snapshot *s,
					       int ifindex, const char *name)
{
	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		if ((n->ifindex.ok && n->ifindex.v == (uint64_t)ifindex) ||
		    (name && n->name && !strcmp(n->name, name)))
			return n;
	}
	return NULL;
}

static struct con_watch_link *link_of(struct con_watch *w, int ifindex)
{
	struct con_watch_link *l;

	for (size_t i = 0; i < w->n_links; i++)
		if (w->links[i].ifindex == ifindex)
			return &w->links[i];
	l = realloc(w->links, (w->n_links + 1) * sizeof(*l));
	if (!l)
		return NULL;
	w->links = l;
	l = &w->links[w->n_links++];
	l->ifindex = ifindex;
	l->carrier = -1;
	return l;
}

/*
 * Does the device's driver let go of an open context when the device is
 * removed (ib_device_ops.disassociate_ucontext: the context gets
 * DEVICE_FATAL and the removal goes on)? Only mlx5's and mlx4's are
 * relied on here; a driver that does not would make `rdma link delete`
 * or the driver's unload wait for the console to end (Soft-RoCE on the
 * lab's 6.1 kernel does).
 */
static bool lets_go(const char *driver)
{
	return driver &&
	       (!strncmp(driver, "mlx5_", 5) || !strncmp(driver, "mlx4_", 5));
}

/* Is the device's context watched? */
static bool watched(const struct con_watch *w, const char *name)
{
	for (size_t i = 0; i < w->n_devs; i++)
		if (!strcmp(w->devs[i].name, name))
			return true;
	return false;
}

/*
 * Open a context on each of the snapshot's devices not yet watched (at
 * the start, and when the devices change: one re-added after its
 * removal). A device that cannot be opened is said once per change.
 */
static void watch_devices(struct con_watch *w, const struct rd_snapshot *s)
{
	struct ibv_device **list;
	char names[sizeof(w->names)] = "";
	int n = 0;

	for (size_t k = 0; k < s->n_devices; k++)
		if (s->devices[k].name) {
			size_t off = strlen(names);

			snprintf(names + off, sizeof(names) - off, "%s ",
				 s->devices[k].name);
		}
	if (!strcmp(names, w->names))
		return;
	snprintf(w->names, sizeof(w->names), "%s", names);
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n; i++) {
		const char *name = ibv_get_device_name(list[i]);
		struct con_watch_dev *d;
		struct ibv_context *c;
		bool ours = false;

		const char *driver = NULL;

		for (size_t k = 0; name && k < s->n_devices && !ours; k++) {
			ours = s->devices[k].name &&
			       !strcmp(s->devices[k].name, name);
			if (ours)
				driver = s->devices[k].driver;
		}
		if (!ours || watched(w, name))
			continue;
		if (!lets_go(driver)) {
			size_t off = strlen(w->err);

			snprintf(w->err + off, sizeof(w->err) - off,
				 "%sverbs events of %s: not watched (an open "
				 "context would hold off its removal)",
				 off ? "; " : "", name);
			continue;
		}
		c = ibv_open_device(list[i]);
		if (!c) {
			char what[96];

			snprintf(what, sizeof(what), "verbs events of %s",
				 name);
			say(w, what, errno ? errno : ENODEV);
			continue;
		}
		d = realloc(w->devs, (w->n_devs + 1) * sizeof(*d));
		if (!d || fcntl(c->async_fd, F_SETFL,
				fcntl(c->async_fd, F_GETFL) | O_NONBLOCK) < 0) {
			if (d)
				w->devs = d;
			ibv_close_device(c);
			continue;
		}
		w->devs = d;
		d[w->n_devs].name = strdup(name);
		d[w->n_devs].ctx = c;
		if (!d[w->n_devs].name) {
			ibv_close_device(c);
			continue;
		}
		w->n_devs++;
	}
	if (list)
		ibv_free_device_list(list);
	else
		say(w, "verbs events", errno ? errno : ENOSYS);
}

/* The device is gone (DEVICE_FATAL): its context is let go of. */
static void unwatch(struct con_watch *w, size_t i)
{
	ibv_close_device(w->devs[i].ctx);
	free(w->devs[i].name);
	memmove(&w->devs[i], &w->devs[i + 1],
		(w->n_devs - i - 1) * sizeof(*w->devs));
	w->n_devs--;
	w->names[0] = '\0'; /* look again at the next snapshot */
}

int con_watch_rdma_monitor_mode(const void *bytes, size_t len)
{
	struct nlattr *tb[CON_RDMA_NLDEV_SYS_ATTR_MONITOR_MODE + 1];
	struct rd_nl_iter it;
	struct nlmsghdr *h;
	int r;

	rd_nl_iter_init(&it, bytes, len);
	r = rd_nl_next(&it, &h);
	if (r == 1 && h->nlmsg_type != RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
							RDMA_NLDEV_CMD_SYS_GET))
		r = -EBADMSG;
	if (r == 1)
		r = rd_nlmsg_parse(h, 0, tb,
				   CON_RDMA_NLDEV_SYS_ATTR_MONITOR_MODE,
				   NULL) < 0
			    ? -EBADMSG
			    : tb[CON_RDMA_NLDEV_SYS_ATTR_MONITOR_MODE] != NULL;
	else if (r == 0)
		r = -ENODATA;
	rd_nl_iter_end(&it);
	return r;
}

/* Ask the kernel (SYS_GET) whether its RDMA netlink has the monitor. */
static int rdma_monitor_mode(void)
{
	struct rd_nl_buf buf = { 0 };
	struct nl_sock *sk = NULL;
	struct nl_msg *m;
	int r = rd_nl_open(NETLINK_RDMA, &sk);

	if (r < 0)
		return r;
	m = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
		NLM_F_REQUEST);
	r = m ? rd_nl_request(sk, m, &buf) : -ENOMEM;
	nlmsg_free(m);
	if (r == 0)
		r = con_watch_rdma_monitor_mode(buf.data, buf.len);
	rd_nl_buf_free(&buf);
	rd_nl_close(&sk);
	return r;
}

void con_watch_open(struct con_watch *w, const struct rd_snapshot *s)
{
	int r;

	memset(w, 0, sizeof(*w));
	r = join(NETLINK_ROUTE, RTNLGRP_LINK, &w->rt);
	if (r < 0)
		say(w, "rtnetlink link messages", -r);
	/*
	 * A kernel without the monitor may still let the group be joined
	 * (it then never sends): SYS_GET's monitor mode says whether it has
	 * one.
	 */
	r = rdma_monitor_mode();
	if (r == 0) {
		size_t off = strlen(w->err);

		snprintf(w->err + off, sizeof(w->err) - off,
			 "%sRDMA netlink monitor: not in this kernel (from "
			 "6.12)",
			 off ? "; " : "");
	} else if (r < 0) {
		say(w, "RDMA netlink monitor", -r);
	} else {
		r = join(NETLINK_RDMA, CON_RDMA_NL_GROUP_NOTIFY, &w->rdma);
		if (r < 0)
			say(w, "RDMA netlink monitor", -r);
	}
	/* The carrier each netdev had when the watch began. */
	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *nd = &s->netdevs[i];
		struct con_watch_link *l;

		if (!nd->ifindex.ok || !nd->carrier.ok)
			continue;
		l = link_of(w, (int)nd->ifindex.v);
		if (l)
			l->carrier = nd->carrier.v;
	}
	watch_devices(w, s);
}

size_t con_watch_fds(const struct con_watch *w, struct pollfd *pfd, size_t max)
{
	size_t n = 0;

	if (w->rt && n < max)
		pfd[n++] = (struct pollfd){ .fd = nl_socket_get_fd(w->rt),
					    .events = POLLIN };
	if (w->rdma && n < max)
		pfd[n++] = (struct pollfd){ .fd = nl_socket_get_fd(w->rdma),
					    .events = POLLIN };
	for (size_t i = 0; i < w->n_devs && n < max; i++)
		pfd[n++] = (struct pollfd){
			.fd = ((struct ibv_context *)w->devs[i].ctx)->async_fd,
			.events = POLLIN
		};
	return n;
}

/*
 * Each message of a datagram to fn, which returns how many events it
 * added or -errno. The number added, or the first error.
 */
static int each_msg(const void *bytes, size_t len,
		    int (*fn)(struct nlmsghdr *h, void *arg), void *arg)
{
	struct rd_nl_iter it;
	struct nlmsghdr *h;
	int r, added = 0;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &h)) == 1) {
		r = fn(h, arg);
		if (r < 0)
			break;
		added += r;
	}
	rd_nl_iter_end(&it);
	return r < 0 && r != -EBADMSG ? r : added;
}

struct link_arg {
	struct con_watch *w;
	const struct rd_snapshot *s;
	double now;
	struct rd_events *out;
};

static int link_msg(struct nlmsghdr *h, void *arg)
{
	struct link_arg *a = arg;
	struct nlattr *tb[IFLA_MAX + 1];
	const struct rd_netdev *nd;
	struct con_watch_link *l;
	struct ifinfomsg *ifi;
	const char *name = NULL;
	char text[96], ifname[IF_NAMESIZE + 1];
	int carrier, r;

	if ((h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK) ||
	    nlmsg_parse(h, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return 0;
	ifi = nlmsg_data(h);
	/* copied with a bound: the attribute's own NUL is not trusted */
	if (tb[IFLA_IFNAME] &&
	    nla_strlcpy(ifname, tb[IFLA_IFNAME], sizeof(ifname)) > 0)
		name = ifname;
	nd = netdev_by_index(a->s, ifi->ifi_index, name);
	/* Only the netdevs behind this host's RDMA ports. */
	if (!nd || !nd->rdma_device)
		return 0;
	l = link_of(a->w, ifi->ifi_index);
	if (!l)
		return -ENOMEM;
	if (h->nlmsg_type == RTM_DELLINK) {
		snprintf(text, sizeof(text), "netdev removed");
		carrier = 0;
	} else {
		carrier = tb[IFLA_CARRIER] && nla_len(tb[IFLA_CARRIER]) >= 1
				  ? nla_get_u8(tb[IFLA_CARRIER]) != 0
				  : (ifi->ifi_flags & IFF_LOWER_UP) != 0;
		if (carrier == l->carrier)
			return 0;
		snprintf(text, sizeof(text), "%s (was %s)",
			 carrier ? "on" : "off",
			 l->carrier < 0 ? "unknown"
			 : l->carrier	? "on"
					: "off");
	}
	l->carrier = carrier;
	r = rd_events_add(a->out, a->now, nd->rdma_device,
			  nd->rdma_port.ok ? nd->rdma_port.v : 0,
			  name ? name : nd->name, "carrier", text, "rtnetlink");
	return r < 0 ? r : 1;
}

int con_watch_link_bytes(struct con_watch *w, const void *bytes, size_t len,
			 const struct rd_snapshot *s, double now,
			 struct rd_events *out)
{
	struct link_arg a = { w, s, now, out };

	return each_msg(bytes, len, link_msg, &a);
}

static const char *const rdma_event_names[] = {
	"device registered", "device unregistered", "netdev attached",
	"netdev detached",   "device renamed",	    "netdev renamed",
};

struct rdma_arg {
	double now;
	struct rd_events *out;
};

static int rdma_msg(struct nlmsghdr *h, void *arg)
{
	struct rdma_arg *a = arg;
	struct nlattr *tb[CON_RDMA_NLDEV_ATTR_EVENT_TYPE + 1];
	const char *dev = NULL, *nd = NULL;
	char text[128], devname[64], ndname[IF_NAMESIZE + 1];
	uint64_t port = 0;
	unsigned type;
	int r;

	if (h->nlmsg_type != RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					      CON_RDMA_NLDEV_CMD_MONITOR) ||
	    nlmsg_parse(h, 0, tb, CON_RDMA_NLDEV_ATTR_EVENT_TYPE, NULL) < 0 ||
	    !tb[CON_RDMA_NLDEV_ATTR_EVENT_TYPE] ||
	    nla_len(tb[CON_RDMA_NLDEV_ATTR_EVENT_TYPE]) < 1)
		return 0;
	type = nla_get_u8(tb[CON_RDMA_NLDEV_ATTR_EVENT_TYPE]);
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME] &&
	    nla_strlcpy(devname, tb[RDMA_NLDEV_ATTR_DEV_NAME],
			sizeof(devname)) > 0)
		dev = devname;
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME] &&
	    nla_strlcpy(ndname, tb[RDMA_NLDEV_ATTR_NDEV_NAME], sizeof(ndname)) >
		    0)
		nd = ndname;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX] &&
	    nla_len(tb[RDMA_NLDEV_ATTR_PORT_INDEX]) >= 4)
		port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (type < sizeof(rdma_event_names) / sizeof(*rdma_event_names))
		snprintf(text, sizeof(text), "%s", rdma_event_names[type]);
	else
		snprintf(text, sizeof(text), "monitor event %u", type);
	if (!dev && tb[RDMA_NLDEV_ATTR_DEV_INDEX] &&
	    nla_len(tb[RDMA_NLDEV_ATTR_DEV_INDEX]) >= 4) {
		size_t off = strlen(text);

		snprintf(text + off, sizeof(text) - off, " (device index %u)",
			 nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
	}
	r = rd_events_add(a->out, a->now, dev, port < 256 ? port : 0, nd,
			  "rdma", text, "RDMA netlink monitor");
	return r < 0 ? r : 1;
}

int con_watch_rdma_bytes(const void *bytes, size_t len, double now,
			 struct rd_events *out)
{
	struct rdma_arg a = { now, out };

	return each_msg(bytes, len, rdma_msg, &a);
}

int con_watch_verbs_event(const char *device, int type, unsigned port,
			  const struct rd_snapshot *s, double now,
			  struct rd_events *out)
{
	const char *what, *netdev = NULL;
	int r;

	switch (type) {
	case IBV_EVENT_PORT_ERR:
		what = "port error (the port left ACTIVE)";
		break;
	case IBV_EVENT_PORT_ACTIVE:
		what = "port active";
		break;
	case IBV_EVENT_DEVICE_FATAL:
		what = "device fatal: every QP of the device is lost";
		port = 0;
		break;
	case IBV_EVENT_LID_CHANGE:
		what = "LID changed";
		break;
	case IBV_EVENT_PKEY_CHANGE:
		what = "P_Key table changed";
		break;
	case IBV_EVENT_SM_CHANGE:
		what = "subnet manager changed";
		break;
	case IBV_EVENT_CLIENT_REREGISTER:
		what = "subnet manager asked for re-registration";
		break;
	case IBV_EVENT_GID_CHANGE:
		what = "GID table changed";
		break;
	default:
		return 0; /* QP, CQ and SRQ events are a program's */
	}
	for (size_t i = 0; s && i < s->n_netdevs && port; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		if (n->rdma_device && !strcmp(n->rdma_device, device) &&
		    n->rdma_port.ok && n->rdma_port.v == port)
			netdev = n->name;
	}
	r = rd_events_add(out, now, device, port, netdev, "verbs", what,
			  "verbs asynchronous event");
	return r < 0 ? r : 1;
}

/* Everything waiting on a netlink socket, one datagram at a time. */
static int drain_nl(struct nl_sock *sk, struct con_watch *w, bool rdma,
		    const struct rd_snapshot *s, double now,
		    struct rd_events *out)
{
	static char buf[32768] __attribute__((aligned(8)));
	int added = 0;

	for (int i = 0; sk && i < 256; i++) {
		ssize_t n = recv(nl_socket_get_fd(sk), buf, sizeof(buf),
				 MSG_DONTWAIT);
		int r;

		if (n <= 0)
			break;
		r = rdma ? con_watch_rdma_bytes(buf, (size_t)n, now, out)
			 : con_watch_link_bytes(w, buf, (size_t)n, s, now, out);
		if (r < 0)
			return r;
		added += r;
	}
	return added;
}

int con_watch_drain(struct con_watch *w, const struct rd_snapshot *s,
		    double now, struct rd_events *out)
{
	int added = 0, r;

	r = drain_nl(w->rt, w, false, s, now, out);
	if (r < 0)
		return r;
	added += r;
	r = drain_nl(w->rdma, w, true, s, now, out);
	if (r < 0)
		return r;
	added += r;
	for (size_t i = 0; i < w->n_devs; i++) {
		struct ibv_context *c = w->devs[i].ctx;
		struct ibv_async_event ev;

		bool fatal = false;

		for (int k = 0; k < 256 && ibv_get_async_event(c, &ev) == 0;
		     k++) {
			fatal |= ev.event_type == IBV_EVENT_DEVICE_FATAL;
			r = con_watch_verbs_event(
				w->devs[i].name, ev.event_type,
				ev.element.port_num, s, now, out);
			ibv_ack_async_event(&ev);
			if (r < 0)
				return r;
			added += r;
		}
		/*
		 * A device removed (or reset) while open is disassociated:
		 * the context is let go of at once, so nothing of it is held.
		 */
		if (fatal)
			unwatch(w, i--);
	}
	watch_devices(w, s);
	return added;
}

void con_watch_close(struct con_watch *w)
{
	rd_nl_close(&w->rt);
	rd_nl_close(&w->rdma);
	for (size_t i = 0; i < w->n_devs; i++) {
		ibv_close_device(w->devs[i].ctx);
		free(w->devs[i].name);
	}
	free(w->devs);
	free(w->links);
	memset(w, 0, sizeof(*w));
}
