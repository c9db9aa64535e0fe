/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What bw and lat judge from a snapshot before a test: the device and
 * whether its port can carry traffic, where a server listens, an MTU
 * below what the path could use, and the rdma_cm RoCE mode that a failed
 * -R connection depends on. Read-only on the snapshot; the command prints.
 */
#ifndef RD_PERF_PRETEST_H
#define RD_PERF_PRETEST_H

#include <stddef.h>

struct rd_snapshot;
struct perf_opts;
struct perf_dev;

/*
 * The device to test: -d, else the first one read (o->dev set); its port
 * must be ACTIVE. s is NULL when the snapshot could not be taken. 0 with
 * msg "" or a warning (the test tries anyway), -ENODEV or -ENETDOWN with
 * msg saying why the test cannot run.
 */
int perf_pick_device(struct perf_opts *o, const struct rd_snapshot *s,
		     char *msg, size_t len);

/*
 * A server listens on the IPv4 address of the port's netdev unless --bind
 * says otherwise (o->bind_addr, o->bind_addr2 set, buf holding the
 * address); the banner says which address and why.
 */
void perf_bind_choose(struct perf_opts *o, const struct rd_snapshot *s,
		      char *buf, size_t len);

/* Why the active MTU is below 4096 when the port could do more, or "". */
void perf_mtu_warning(const struct rd_snapshot *s, const struct perf_dev *d,
		      char *buf, size_t len);

/*
 * -R failed: rdma_cm picked the GID by this host's default RoCE mode,
 * which the peer's must match; append which it is to err (configfs, when
 * set up).
 */
void perf_cm_mode_note(const struct rd_snapshot *s, const struct perf_opts *o,
		       char *err, size_t len);

#endif
