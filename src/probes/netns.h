/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA devices and PCI netdevs in other network namespaces (exclusive mode). */
#ifndef RD_PROBES_NETNS_H
#define RD_PROBES_NETNS_H

#include <stddef.h>

#include "probes/probe.h"

extern const struct rd_probe probe_netns;

/*
 * The pod UID in a process's cgroup text (kubepods ".../pod<uid>/..." or
 * systemd's "...-pod<uid_with_underscores>.slice"), dashed; "" if none.
 */
void rd_netns_pod_of_cgroup(const char *cgroup, char *out, size_t len);

#endif
