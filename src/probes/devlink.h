/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devlink over generic netlink: `devlink dev info` (driver, serials,
 * firmware versions with the board's PSID) and `devlink health show` (the
 * driver's health reporters) for the PCI functions of RDMA devices. Both
 * GETs are unprivileged. `devlink dev eswitch show` for the PFs with
 * SR-IOV needs CAP_NET_ADMIN.
 */
#ifndef RD_PROBES_DEVLINK_H
#define RD_PROBES_DEVLINK_H

#include <stddef.h>

#include "probes/nl_util.h"
#include "probes/probe.h"

extern const struct rd_probe probe_devlink;

/*
 * Parsers of the dump replies: every message in bytes adds to (or fills)
 * the instance of its bus/dev in s->devlinks. 0, the kernel's -errno, or
 * -EBADMSG for a malformed reply.
 */
int rd_devlink_parse_info(const void *bytes, size_t len, struct rd_snapshot *s);
int rd_devlink_parse_health(const void *bytes, size_t len,
			    struct rd_snapshot *s);
/* The reply to DEVLINK_CMD_ESWITCH_GET of one instance: its eswitch mode. */
int rd_devlink_parse_eswitch(const void *bytes, size_t len,
			     struct rd_snapshot *s);

#endif
