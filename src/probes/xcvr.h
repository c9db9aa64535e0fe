/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pluggable module in each RDMA netdev's cage: its memory read page by
 * page through ethtool netlink (MODULE_EEPROM_GET), or whole through the
 * SIOCETHTOOL ioctl on kernels without it, then decoded by xcvr_decode.
 */
#ifndef RD_PROBES_XCVR_H
#define RD_PROBES_XCVR_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"
#include "core/xcvr_decode.h"

extern const struct rd_probe probe_xcvr;

/*
 * The DATA of a MODULE_EEPROM_GET reply: exactly 128 bytes into out.
 * 0, the kernel's -errno (-EPERM without CAP_NET_ADMIN, -EIO from an
 * empty cage, -EOPNOTSUPP), or -EBADMSG for a malformed reply.
 */
int rd_xcvr_parse_eeprom(const void *bytes, size_t len, uint8_t out[128]);

/*
 * What an empty or unreadable cage, a refusal or a missing operation
 * means, as the one line the checks show ("module data needs root
 * (CAP_NET_ADMIN)"); the errno is positive or negative.
 */
const char *rd_xcvr_errno_text(int err);

#ifdef RD_XCVR_FAKE_READER
/*
 * Only in a program built with RD_XCVR_FAKE_READER (tests/bench): the probe
 * reads each half through rd_xcvr_fake_read instead of MODULE_EEPROM_GET
 * (0 or -errno, as the kernel answers) and tells time by rd_xcvr_fake_now
 * (seconds) instead of CLOCK_MONOTONIC. The program defines both.
 */
int rd_xcvr_fake_read(const char *ifname, const struct rd_xcvr_req *q,
		      uint8_t out[128]);
double rd_xcvr_fake_now(void);
#endif

#endif
