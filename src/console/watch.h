/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console's live watch: what the kernel says the moment it happens,
 * between two snapshots. rtnetlink link messages (RTNLGRP_LINK: a carrier
 * lost or back, a netdev removed), each RDMA device's verbs asynchronous
 * events (port error, port active, device fatal) and the RDMA netlink
 * monitor (RDMA_NL_GROUP_NOTIFY, kernels from 6.12: a device registered
 * or removed, a netdev attached or detached). All three are unprivileged.
 * What could not be watched is said (err), never guessed around.
 *
 * The parsers take bytes and plain values, so tests feed them what the
 * kernel sends without a socket.
 */
#ifndef RD_CONSOLE_WATCH_H
#define RD_CONSOLE_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/events.h"
#include "core/snapshot.h"

/* rdma_netlink.h of kernels before 6.12 lacks the monitor. */
#define CON_RDMA_NL_GROUP_NOTIFY 4
#define CON_RDMA_NLDEV_CMD_MONITOR 28
#define CON_RDMA_NLDEV_ATTR_EVENT_TYPE 102
#define CON_RDMA_NLDEV_SYS_ATTR_MONITOR_MODE 103

struct con_watch_link {
	int ifindex;
	int carrier; /* 1 on, 0 off */
};

struct con_watch_dev {
	char *name;
	void *ctx; /* struct ibv_context */
};

struct con_watch {
	struct nl_sock *rt, *rdma;
	struct con_watch_dev *devs;
	size_t n_devs;
	struct con_watch_link *links; /* the last carrier seen per ifindex */
	size_t n_links;
	char names[512]; /* the devices the contexts were opened for */
	char err[512];	 /* what is not watched and why; "" */
};

/*
 * Start watching what the snapshot's devices and netdevs do. Never
 * fails as a whole: each source that cannot be opened is named in
 * w->err and the others go on.
 */
void con_watch_open(struct con_watch *w, const struct rd_snapshot *s);
/* Descriptors to poll for input; how many were written (at most max). */
size_t con_watch_fds(const struct con_watch *w, struct pollfd *pfd, size_t max);
/*
 * Read everything waiting, without blocking, into out as events about
 * the snapshot's ports (now: seconds since the epoch). The number of
 * events added, or -ENOMEM.
 */
int con_watch_drain(struct con_watch *w, const struct rd_snapshot *s,
		    double now, struct rd_events *out);
void con_watch_close(struct con_watch *w);

/* rtnetlink messages (RTM_NEWLINK, RTM_DELLINK) in bytes. */
int con_watch_link_bytes(struct con_watch *w, const void *bytes, size_t len,
			 const struct rd_snapshot *s, double now,
			 struct rd_events *out);
/*
 * A SYS_GET reply in bytes: 1 when it carries the monitor mode attribute
 * (the kernel has the monitor), 0 when not, or -errno (-EBADMSG, the
 * kernel's error).
 */
int con_watch_rdma_monitor_mode(const void *bytes, size_t len);
/* RDMA netlink monitor messages in bytes. */
int con_watch_rdma_bytes(const void *bytes, size_t len, double now,
			 struct rd_events *out);
/* One verbs asynchronous event (enum ibv_event_type) of a device. */
int con_watch_verbs_event(const char *device, int type, unsigned port,
			  const struct rd_snapshot *s, double now,
			  struct rd_events *out);

#endif
