/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Data Center Bridging of the netdevs behind RDMA ports (dcbnl over
 * rtnetlink): PFC, ETS, the APP table, the DCBX mode and the trust mode.
 */
#ifndef RD_PROBES_DCB_H
#define RD_PROBES_DCB_H

#include <stddef.h>

#include "probes/nl_util.h"
#include "probes/probe.h"

extern const struct rd_probe probe_dcb;

/* One RTM_GETDCB request (DCB_CMD_IEEE_GET, DCB_CMD_GDCBX) for ifname. */
int rd_dcb_request(struct nl_sock *sk, int cmd, const char *ifname,
		   struct rd_nl_buf *out);

/*
 * Reply parsers: 0, the kernel's -errno (-EOPNOTSUPP: the driver has no
 * dcbnl operations), or -EBADMSG for a truncated or malformed reply.
 */
int rd_dcb_parse_ieee(const void *bytes, size_t len, struct rd_dcb *dcb);
int rd_dcb_parse_dcbx(const void *bytes, size_t len, struct rd_dcb *dcb);

/* "dscp" when the APP table maps any DSCP value (selector 5), else "pcp". */
const char *rd_dcb_trust_from_apps(const struct rd_dcb *dcb);

#endif
