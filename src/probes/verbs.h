/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What libibverbs reports for each RDMA device (ibv_devinfo's view). */
#ifndef RD_PROBES_VERBS_H
#define RD_PROBES_VERBS_H

#include <stdint.h>

#include "probes/probe.h"

extern const struct rd_probe probe_verbs;

/* enum ibv_mtu (1..5) to bytes (256..4096); 0 when out of range. */
uint64_t rd_ibv_mtu_bytes(unsigned mtu);

#endif
