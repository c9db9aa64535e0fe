/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SR-IOV virtual functions of the NICs, and bonds of their ports. */
#ifndef RD_PROBES_VIRT_H
#define RD_PROBES_VIRT_H

#include "probes/probe.h"

extern const struct rd_probe probe_virt;

/* "802.3ad 4" (bonding's sysfs form): the name and the number. */
int rd_bond_parse_mode(const char *text, char *name, size_t len, uint64_t *num);

/*
 * The VF list of an RTM_NEWLINK reply for sv's PF netdev (RTEXT_FILTER_VF)
 * into sv's VFs, matched by VF number. 0, -ENODATA when no message is of
 * that netdev, or -EBADMSG for a malformed reply.
 */
int rd_vf_parse_link(const void *bytes, size_t len, struct rd_sriov *sv);

#endif
