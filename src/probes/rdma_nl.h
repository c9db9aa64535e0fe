/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA devices and ports as the RDMA netlink family (what `rdma link`) shows. */
#ifndef RD_PROBES_RDMA_NL_H
#define RD_PROBES_RDMA_NL_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"

extern const struct rd_probe probe_rdma_nl;

/*
 * Parsers of reply bytes (one whole dump, as rd_nl_request collects it).
 * They add to or update a device array owned by the caller (free it with
 * rd_rdma_nl_free_devices).
 * RDMA_NLDEV_CMD_GET: one device per message.
 * RDMA_NLDEV_CMD_PORT_GET: one port per message, matched by device index.
 * RDMA_NLDEV_CMD_STAT_GET: hardware counters of one port.
 * Return 0 or -errno (-EBADMSG for a truncated or malformed reply).
 */
int rd_rdma_nl_parse_devices(const void *bytes, size_t len,
			     struct rd_device **devs, size_t *n);
int rd_rdma_nl_parse_ports(const void *bytes, size_t len,
			   struct rd_device *devs, size_t n);
/*
 * RDMA_NLDEV_CMD_SYS_GET's answer: the network namespace mode (u8, 1
 * shared, 0 exclusive) and copy-on-fork into h. 0 or -errno.
 */
int rd_rdma_nl_parse_sys(const void *bytes, size_t len, struct rd_host *h);
int rd_rdma_nl_parse_stats(const void *bytes, size_t len,
			   struct rd_counters *out);

/*
 * Fold what netlink found into the snapshot: devices sysfs already has are
 * matched by name and keep their sysfs values; each disagreement becomes a
 * line in rd_port.mismatch and an error entry. Devices only netlink knows
 * are moved into the snapshot (nl entries are consumed either way).
 */
void rd_rdma_nl_merge(struct rd_snapshot *s, struct rd_device *nl, size_t n);

void rd_rdma_nl_free_devices(struct rd_device *devs, size_t n);

/* Requests whose replies the parsers above read (sk: NETLINK_RDMA). */
struct nl_sock;
struct rd_nl_buf;
int rd_rdma_nl_dump(struct nl_sock *sk, int cmd, struct rd_nl_buf *out);
int rd_rdma_nl_port_dump(struct nl_sock *sk, uint64_t dev,
			 struct rd_nl_buf *out);
int rd_rdma_nl_port_stats(struct nl_sock *sk, uint64_t dev, uint64_t port,
			  struct rd_nl_buf *out);

#endif
