// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/virt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Append one part to buf, with sep before all but the first. */
static void part(char *buf, size_t len, size_t *n, const char *sep,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void part(char *buf, size_t len, size_t *n, const char *sep,
		 const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*n >= len)
		return;
	if (*n) {
		w = snprintf(buf + *n, len - *n, "%s", sep);
		*n += w > 0 ? (size_t)w : 0;
		if (*n >= len)
			return;
	}
	va_start(ap, fmt);
	w = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	*n += w > 0 ? (size_t)w : 0;
}

void rd_vf_settings(const struct rd_vf *v, const char *sep, char *buf,
		    size_t len)
{
	size_t n = 0;
	bool ether = v->mac != NULL;

	if (!len)
		return;
	buf[0] = '\0';
	if (ether)
		part(buf, len, &n, sep, "MAC %s", v->mac);
	if (ether && v->vlan.ok)
		part(buf, len, &n, sep, v->vlan.v ? "VLAN %" PRIu64 : "no VLAN",
		     v->vlan.v);
	if (ether && v->vlan.ok && v->vlan.v && v->qos.ok && v->qos.v)
		part(buf, len, &n, "", " qos %" PRIu64, v->qos.v);
	if (v->node_guid.ok)
		part(buf, len, &n, sep, "node GUID 0x%016" PRIx64,
		     v->node_guid.v);
	if (v->port_guid.ok)
		part(buf, len, &n, sep, "port GUID 0x%016" PRIx64,
		     v->port_guid.v);
	if (ether && v->spoofchk.ok)
		part(buf, len, &n, sep, "spoof check %s",
		     v->spoofchk.v ? "on" : "off");
	if (v->trust.ok)
		part(buf, len, &n, sep, "trust %s", v->trust.v ? "on" : "off");
	if (v->link_state)
		part(buf, len, &n, sep, "link-state %s", v->link_state);
	if (v->max_tx_rate.ok && v->max_tx_rate.v)
		part(buf, len, &n, sep, "max %" PRIu64 " Mb/s",
		     v->max_tx_rate.v);
	if (n >= len)
		buf[len - 1] = '\0';
}

bool rd_vf_guid_unset(const struct rd_vf *v)
{
	return (v->node_guid.ok && v->node_guid.v == 0) ||
	       (v->port_guid.ok && v->port_guid.v == 0);
}

bool rd_vf_held_down(const struct rd_vf *v)
{
	return same(v->link_state, "disable") || rd_vf_guid_unset(v);
}

const struct rd_netns_dev *rd_netns_of_function(const struct rd_snapshot *s,
						const char *bdf)
{
	const struct rd_netns_dev *nd = NULL;

	for (size_t i = 0; bdf && i < s->host.n_netns_devs; i++) {
		const struct rd_netns_dev *d = &s->host.netns_devs[i];

		if (!same(d->pci_bdf, bdf))
			continue;
		if (d->rdma_device)
			return d;
		if (!nd)
			nd = d;
	}
	return nd;
}

void rd_netns_where(const struct rd_netns_dev *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", d->netns ? d->netns : "?",
		 d->owner ? " (" : "", d->owner ? d->owner : "",
		 d->owner ? ")" : "");
}

bool rd_netns_unread(const struct rd_snapshot *s)
{
	return same(s->host.rdma_netns_mode, "exclusive") &&
	       !same(s->host.netns_scan, "read");
}
