// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netlink reply parsers (RDMA nldev, rtnetlink links and addresses,
 * ethtool genetlink and ioctl answers, dcbnl, a PF's VF list, devlink
 * info, health and eswitch) on arbitrary bytes.
 *
 * Input: one byte picks the parser; parsers that read two buffers (ports
 * after devices, addresses after links, ethtool names and values) take a
 * little-endian 16-bit length of the first buffer next, and the rest is
 * the second. Whatever was parsed goes into a snapshot, which must
 * serialise and load again to the same text: a value the parsers accept
 * but a recording cannot carry would make replays lie.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/snapshot.h"
#include "probes/dcb.h"
#include "probes/devlink.h"
#include "probes/ethtool.h"
#include "probes/netdev.h"
#include "probes/rdma_nl.h"
#include "probes/virt.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
	P_DEVICES,
	P_PORTS,
	P_STATS,
	P_LINKS,
	P_ADDRS,
	P_LINKMODES,
	P_LINKSTATE,
	P_PAUSE,
	P_FEC,
	P_DRVINFO,
	P_ETHSTATS,
	P_DCB_IEEE,
	P_DCB_DCBX,
	P_VFLIST,
	P_ESWITCH,
	P_DEVLINK_INFO,
	P_DEVLINK_HEALTH,
	P_COUNT
};

/* The ethtool replies parsed into one netdev's ethtool part. */
static int (*const ethtool_parsers[P_COUNT])(const void *, size_t,
					     struct rd_ethtool *) = {
	[P_LINKMODES] = rd_ethtool_parse_linkmodes,
	[P_LINKSTATE] = rd_ethtool_parse_linkstate,
	[P_PAUSE] = rd_ethtool_parse_pause,
	[P_FEC] = rd_ethtool_parse_fec,
	[P_DRVINFO] = rd_ethtool_parse_drvinfo,
};

/* Split data into two buffers at the 16-bit length in front. */
static void split(const uint8_t *data, size_t size, const uint8_t **a,
		  size_t *alen, const uint8_t **b, size_t *blen)
{
	size_t n = 0;

	if (size >= 2) {
		n = (size_t)data[0] | (size_t)data[1] << 8;
		data += 2;
		size -= 2;
	} else {
		data += size;
		size = 0;
	}
	if (n > size)
		n = size;
	*a = data;
	*alen = n;
	*b = data + n;
	*blen = size - n;
}

static void rdma(int which, const uint8_t *data, size_t size,
		 struct rd_snapshot *s)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	struct rd_port *p;

	switch (which) {
	case P_DEVICES:
		rd_rdma_nl_parse_devices(data, size, &s->devices,
					 &s->n_devices);
		break;
	case P_PORTS:
		split(data, size, &a, &alen, &b, &blen);
		if (rd_rdma_nl_parse_devices(a, alen, &s->devices,
					     &s->n_devices) == 0)
			rd_rdma_nl_parse_ports(b, blen, s->devices,
					       s->n_devices);
		break;
	case P_STATS:
		if (!(s->devices = calloc(1, sizeof(*s->devices))))
			return;
		s->n_devices = 1;
		s->devices[0].name = strdup("dev0");
		p = RD_PUSH(s->devices[0].ports, s->devices[0].n_ports);
		if (!p)
			return;
		p->port = 1;
		rd_rdma_nl_parse_stats(data, size, &p->hw_counters);
		break;
	}
}

static void net(int which, const uint8_t *data, size_t size,
		struct rd_snapshot *s)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	struct rd_netdev *nd;

	if (which == P_LINKS) {
		rd_netdev_parse_links(data, size, &s->netdevs, &s->n_netdevs);
		return;
	}
	if (which == P_ADDRS) {
		split(data, size, &a, &alen, &b, &blen);
		if (rd_netdev_parse_links(a, alen, &s->netdevs,
					  &s->n_netdevs) == 0)
			rd_netdev_parse_addrs(b, blen, s->netdevs,
					      s->n_netdevs);
		return;
	}
	if (!(nd = RD_PUSH(s->netdevs, s->n_netdevs)))
		return;
	nd->name = strdup("eth0");
	if (ethtool_parsers[which]) {
		ethtool_parsers[which](data, size, &nd->ethtool);
		return;
	}
	switch (which) {
	case P_ETHSTATS:
		split(data, size, &a, &alen, &b, &blen);
		rd_ethtool_parse_stats(a, alen, b, blen, &nd->ethtool.stats);
		break;
	case P_DCB_IEEE:
		if (rd_dcb_parse_ieee(data, size, &nd->dcb) == 0)
			(void)rd_dcb_trust_from_apps(&nd->dcb);
		break;
	case P_DCB_DCBX:
		rd_dcb_parse_dcbx(data, size, &nd->dcb);
		break;
	}
}

/* A PF's VF list (any netdev's: no name to match) and devlink replies. */
static void functions(int which, const uint8_t *data, size_t size,
		      struct rd_snapshot *s)
{
	struct rd_sriov *sv;

	switch (which) {
	case P_VFLIST:
		if (!(sv = RD_PUSH(s->sriov, s->n_sriov)))
			return;
		(void)rd_vf_parse_link(data, size, sv);
		break;
	case P_ESWITCH:
		(void)rd_devlink_parse_eswitch(data, size, s);
		break;
	case P_DEVLINK_INFO:
		(void)rd_devlink_parse_info(data, size, s);
		break;
	case P_DEVLINK_HEALTH:
		(void)rd_devlink_parse_health(data, size, s);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_snapshot s;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % P_COUNT;
	data++;
	size--;
	rd_snapshot_init(&s);
	if (which <= P_STATS)
		rdma(which, data, size, &s);
	else if (which >= P_VFLIST)
		functions(which, data, size, &s);
	else
		net(which, data, size, &s);
	fuzz_round_trip(&s);
	rd_snapshot_free(&s);
	return 0;
}
