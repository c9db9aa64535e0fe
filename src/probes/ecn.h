/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RoCE congestion control settings: OFED's per-priority ECN files under
 * /sys/class/net/X/ecn, and rdma_cm's configfs defaults (RoCE mode, ToS).
 */
#ifndef RD_PROBES_ECN_H
#define RD_PROBES_ECN_H

#include <stdbool.h>

#include "probes/probe.h"

extern const struct rd_probe probe_ecn;

/* A netdev name safe to put in a path (no '/', not "." or "..", < 16). */
bool rd_netdev_name_ok(const char *name);

#endif
