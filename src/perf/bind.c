// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "perf/bind.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "core/snapshot.h"

static bool usable_ipv4(const struct rd_addr *a, bool global)
{
	struct in_addr in;

	if (!a->family || strcmp(a->family, "inet") != 0 || !a->address ||
	    inet_pton(AF_INET, a->address, &in) != 1)
		return false;
	return !global || (a->scope && strcmp(a->scope, "global") == 0);
}

int perf_bind_default(const struct rd_snapshot *s, const char *dev,
		      unsigned port, char *addr, size_t addrlen, char *why,
		      size_t whylen)
{
	const struct rd_device *d = dev ? rd_snapshot_device(s, dev) : NULL;
	const struct rd_port *p = d ? rd_device_port(d, port) : NULL;
	const struct rd_netdev *nd;

	if (!p) {
		snprintf(why, whylen, "%s port %u is not in the snapshot",
			 rd_esc_tmp(dev), port);
		return -ENOENT;
	}
	if (!p->netdev) {
		snprintf(why, whylen, "%s port %u has no netdev",
			 rd_esc_tmp(dev), port);
		return -ENOENT;
	}
	nd = rd_snapshot_netdev(s, p->netdev);
	for (int pass = 0; nd && pass < 2; pass++) {
		for (size_t i = 0; i < nd->n_addrs; i++) {
			const struct rd_addr *a = &nd->addrs[i];

			if (!usable_ipv4(a, pass == 0) ||
			    strlen(a->address) >= addrlen)
				continue;
			snprintf(addr, addrlen, "%s", a->address);
			snprintf(why, whylen,
				 "the IPv4 address of %s, the netdev of %s port %u",
				 rd_esc_tmp(nd->name), rd_esc_tmp(dev), port);
			return 0;
		}
	}
	snprintf(why, whylen, "%s, the netdev of %s port %u, has no IPv4 address%s",
		 rd_esc_tmp(p->netdev), rd_esc_tmp(dev), port,
		 nd ? "" : " read");
	return -ENOENT;
}
