// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/virt.h"

#include <string.h>

#include "core/snapshot.h"

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

bool rd_bond_member_up(const struct rd_bond_member *m)
{
	return same(m->operstate, "up") && (!m->carrier.ok || m->carrier.v);
}

size_t rd_bond_members_up(const struct rd_bond *b, size_t *unread)
{
	size_t up = 0;

	*unread = 0;
	for (size_t i = 0; i < b->n_members; i++) {
		up += rd_bond_member_up(&b->members[i]);
		*unread += !b->members[i].operstate;
	}
	return up;
}

const struct rd_sriov *rd_sriov_of_pf(const struct rd_snapshot *s,
				      const char *dev)
{
	for (size_t i = 0; i < s->n_sriov; i++)
		if (same(s->sriov[i].pf_rdma_device, dev))
			return &s->sriov[i];
	return NULL;
}

const struct rd_vf *rd_vf_of_device(const struct rd_snapshot *s,
				    const char *dev, const struct rd_sriov **pf)
{
	for (size_t i = 0; i < s->n_sriov; i++)
		for (size_t j = 0; j < s->sriov[i].n_vfs; j++)
			if (same(s->sriov[i].vfs[j].rdma_device, dev)) {
				*pf = &s->sriov[i];
				return &s->sriov[i].vfs[j];
			}
	*pf = NULL;
	return NULL;
}

const struct rd_bond *rd_bond_of(const struct rd_snapshot *s, const char *dev,
				 const char *netdev)
{
	for (size_t i = 0; i < s->n_bonds; i++) {
		const struct rd_bond *b = &s->bonds[i];

		if (same(b->rdma_device, dev) || same(b->name, netdev))
			return b;
		for (size_t j = 0; j < b->n_members; j++)
			if (same(b->members[j].name, netdev))
				return b;
	}
	return NULL;
}

