/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which SR-IOV function and which bond a device or netdev of the snapshot
 * belongs to: one set of lookups for the checks and the console.
 */
#ifndef RD_CORE_VIRT_H
#define RD_CORE_VIRT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model_virt.h"

struct rd_snapshot;

/* Its operstate says up and its carrier was not read to be off. */
bool rd_bond_member_up(const struct rd_bond_member *m);
/* How many of b's members are up; *unread: how many have no state read. */
size_t rd_bond_members_up(const struct rd_bond *b, size_t *unread);

/*
 * What the PF's driver holds for the VF, as one line of parts joined by
 * sep ("MAC 02:00:00:00:00:01, VLAN 100, spoof check on, trust off,
 * link-state auto"; "node GUID 0x…, port GUID 0x…" for an IPoIB PF, which
 * has no MAC, VLAN or spoof check the VF uses); "" when nothing was read.
 * Only numbers and fixed words: nothing from outside needs escaping.
 */
void rd_vf_settings(const struct rd_vf *v, const char *sep, char *buf,
		    size_t len);
/*
 * The row of a PCI function found in another network namespace (its RDMA
 * device's row first, else its netdev's), or NULL.
 */
const struct rd_netns_dev *rd_netns_of_function(const struct rd_snapshot *s,
						const char *bdf);
/* Where a row lives, for a person: "c1", "pid 4242 (pause, pod …)". */
void rd_netns_where(const struct rd_netns_dev *d, char *buf, size_t len);
/* RDMA netns mode is exclusive and other namespaces were not read. */
bool rd_netns_unread(const struct rd_snapshot *s);
/*
 * An InfiniBand VF whose node or port GUID the PF holds as 0 (sent only
 * by IPoIB PFs): no GUID set by the PF.
 */
bool rd_vf_guid_unset(const struct rd_vf *v);
/* The PF holds the VF's link down, or an InfiniBand VF's GUID as 0. */
bool rd_vf_held_down(const struct rd_vf *v);
/* The physical function whose RDMA device is dev, or NULL. */
const struct rd_sriov *rd_sriov_of_pf(const struct rd_snapshot *s,
				      const char *dev);
/* The virtual function whose RDMA device is dev (its PF in *pf). */
const struct rd_vf *rd_vf_of_device(const struct rd_snapshot *s,
				    const char *dev,
				    const struct rd_sriov **pf);
/*
 * The bond whose RoCE LAG device is dev, or whose master or member is
 * the netdev (NULL: none), or NULL.
 */
const struct rd_bond *rd_bond_of(const struct rd_snapshot *s, const char *dev,
				 const char *netdev);

#endif
