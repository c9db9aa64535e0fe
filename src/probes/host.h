/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host around the NICs: kernel, locked-memory limits and capabilities,
 * limits.conf, hugepages, NUMA, affinity, containers, /dev/infiniband and
 * the sysctls people tune for RDMA.
 */
#ifndef RD_PROBES_HOST_H
#define RD_PROBES_HOST_H

#include <sched.h>
#include <stddef.h>

#include "probes/probe.h"

extern const struct rd_probe probe_host;

/*
 * Parse one pam_limits file: memlock lines go to s->host.limits, malformed
 * lines to s->errors as "path:line". 0, or -errno when it cannot be read.
 */
int rd_host_parse_limits(const char *path, struct rd_snapshot *s);

/* Fill hugepage and memory fields from /proc/meminfo text. */
void rd_host_parse_meminfo(const char *text, const char *where,
			   struct rd_snapshot *s);

/* A CPU set in cpulist form ("0-3,8"); "" when empty. 0 or -ENOSPC. */
int rd_cpulist_format(const cpu_set_t *set, size_t setsize, char *buf,
		      size_t size);

/* "libibverbs.so.1.14.44.0" -> "44.0"; -EINVAL when not that form. */
int rd_rdma_core_version_from_path(const char *path, char *buf, size_t size);

/* Container kind named by a /proc/1/cgroup text, or NULL. */
const char *rd_container_from_cgroup(const char *text);

/* Is the root filesystem an overlay, by /proc/self/mountinfo text? */
bool rd_mountinfo_overlay_root(const char *text);

#endif
