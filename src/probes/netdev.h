/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network devices behind RDMA ports, from rtnetlink (what `ip link/addr` shows). */
#ifndef RD_PROBES_NETDEV_H
#define RD_PROBES_NETDEV_H

#include <stddef.h>

#include "probes/probe.h"

extern const struct rd_probe probe_netdev;

/*
 * RTM_NEWLINK messages (a link dump) into a netdev array owned by the
 * caller (free with rd_netdev_free_array). 0 or -errno (-EBADMSG for a
 * truncated or malformed reply).
 */
int rd_netdev_parse_links(const void *bytes, size_t len,
			  struct rd_netdev **out, size_t *n);
/*
 * RTM_NEWADDR messages of a whole dump; each address goes to the netdev of
 * its ifindex. On success every netdev of nd has addrs_read set: true, or
 * false where more addresses came than one netdev keeps.
 */
int rd_netdev_parse_addrs(const void *bytes, size_t len, struct rd_netdev *nd,
			  size_t n);
void rd_netdev_free_array(struct rd_netdev *nd, size_t n);
/*
 * Move the links worth keeping into s (RDMA ports' netdevs, their PCI
 * functions' netdevs, VLANs on a port's netdev); the rest stay in nd.
 */
void rd_netdev_keep(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		    struct rd_netdev *nd, size_t n);

/* RTM_GETLINK or RTM_GETADDR dump over sk (NETLINK_ROUTE). */
struct nl_sock;
struct rd_nl_buf;
int rd_netdev_dump(struct nl_sock *sk, int type, struct rd_nl_buf *out);

/* "global", "link", "host", ... as ip prints an address scope. */
const char *rd_netdev_scope_name(unsigned scope, char *buf, size_t size);

#endif
