/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA devices and ports from /sys/class/infiniband (what ibstat shows). */
#ifndef RD_PROBES_IB_SYSFS_H
#define RD_PROBES_IB_SYSFS_H

#include "probes/probe.h"

extern const struct rd_probe probe_ib_sysfs;

/* "4: ACTIVE" -> 4; the text after the number varies between kernels. */
int rd_parse_state_line(const char *text, uint64_t *num);
/* "100 Gb/sec (4X EDR)" -> 100.0, "4X", "EDR" (width/speed may be empty). */
int rd_parse_rate(const char *text, double *gbps, char *width, size_t wlen,
		  char *speed, size_t slen);

#endif
