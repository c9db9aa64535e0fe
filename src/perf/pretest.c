// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "perf/pretest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "core/snapshot.h"
#include "perf/bind.h"
#include "perf/perf.h"

static const struct rd_port *snap_port(const struct rd_snapshot *s,
				       const char *dev, unsigned port)
{
	const struct rd_device *d = rd_snapshot_device(s, dev);

	return d ? rd_device_port(d, port) : NULL;
}

/* A port that is not ACTIVE refuses the test; 0 when it may go on. */
static int port_usable(const struct rd_snapshot *s, const char *dev,
		       unsigned port, char *msg, size_t len)
{
	const struct rd_port *p = snap_port(s, dev, port);

	if (!rd_snapshot_device(s, dev)) {
		snprintf(msg, len, "no RDMA device named %s%s", dev,
			 s->n_devices ? ""
				      : " (no RDMA device at all: is the "
					"driver, e.g. rdma_rxe, loaded?)");
		return -ENODEV;
	}
	if (!p) {
		snprintf(msg, len, "%s has no port %u", dev, port);
		return -ENODEV;
	}
	if (!p->state_num.ok) {
		snprintf(msg, len,
			 "state of %s port %u is unknown; trying anyway", dev,
			 port);
		return 0;
	}
	if (!rd_port_active(p)) {
		snprintf(msg, len,
			 "%s port %u is %s (physical state %s), not ACTIVE: "
			 "no traffic can pass%s%s%s. Run 'rdmadiag snapshot' "
			 "for the details.",
			 dev, port, p->state ? p->state : "not active",
			 p->phys_state ? p->phys_state : "unknown",
			 p->netdev ? " (is " : "", p->netdev ? p->netdev : "",
			 p->netdev ? " up with a carrier?)" : "");
		return -ENETDOWN;
	}
	return 0;
}

int perf_pick_device(struct perf_opts *o, const struct rd_snapshot *s,
		     char *msg, size_t len)
{
	msg[0] = '\0';
	if (!s) {
		snprintf(msg, len, "cannot read the port state; trying anyway");
		return 0;
	}
	if (!o->dev && s->n_devices && s->devices[0].name) {
		snprintf(o->dev_first, sizeof(o->dev_first), "%s",
			 s->devices[0].name);
		o->dev = o->dev_first;
	}
	if (!o->dev) {
		snprintf(msg, len,
			 "no RDMA device found (is the driver, "
			 "e.g. rdma_rxe, loaded and a link added?)");
		return -ENODEV;
	}
	return port_usable(s, o->dev, o->ib_port, msg, len);
}
void perf_bind_choose(struct perf_opts *o, const struct rd_snapshot *s,
		      char *buf, size_t len)
{
	char why[256] = "the port state could not be read";
	bool text = !o->json && !o->quiet;
	FILE *f = text ? stdout : stderr;

	if (o->bind_addr) {
		fprintf(f, "%sListening on %s port %u (--bind)\n",
			text ? " " : "rdmadiag: ", rd_esc_tmp(o->bind_addr),
			o->port);
		fflush(f);
		return;
	}
	if (o->rdma_cm) {
		/* rdma_cm reaches a device only through its address. */
		if (s && perf_bind_default(s, o->dev, o->ib_port, buf, len, why,
					   sizeof(why)) == 0)
			o->bind_addr = buf;
		fprintf(f, "%sListening through rdma_cm on %s port %u%s%s\n",
			text ? " " : "rdmadiag: ",
			o->bind_addr ? buf : "every IPv4 address", o->port,
			o->bind_addr ? ", " : "", o->bind_addr ? why : "");
		fflush(f);
		return;
	}
	if (s && perf_bind_default(s, o->dev, o->ib_port, buf, len, why,
				   sizeof(why)) == 0) {
		/* Loopback too: reachable only from this host. */
		o->bind_addr = buf;
		o->bind_addr2 = "127.0.0.1";
		fprintf(f,
			"%sListening on %s and 127.0.0.1 port %u, %s "
			"(--bind ADDR to choose)\n",
			text ? " " : "rdmadiag: ", buf, o->port, why);
		fflush(f); /* seen while waiting for the client */
		return;
	}
	fprintf(f,
		"%sListening on every IPv4 address, port %u: %s "
		"(--bind ADDR to listen on one)\n",
		text ? " " : "rdmadiag: ", o->port, why);
	fflush(f);
}

void perf_mtu_warning(const struct rd_snapshot *s, const struct perf_dev *d,
		      char *buf, size_t len)
{
	const struct rd_port *p = snap_port(s, d->name, d->port);
	const struct rd_netdev *nd =
		p && p->netdev ? rd_snapshot_netdev(s, p->netdev) : NULL;
	int active = perf_mtu_bytes(d->port_attr.active_mtu);
	int max = perf_mtu_bytes(d->port_attr.max_mtu);

	buf[0] = '\0';
	if (active >= 4096)
		return;
	/* RoCE carries the IB MTU plus about 100 bytes of headers. */
	if (nd && nd->mtu.ok && nd->mtu.v >= 4096 + 100 && max >= 4096)
		snprintf(buf, len,
			 "active MTU %d < 4096 although %s has MTU "
			 "%llu: the port has not picked up the larger MTU",
			 active, nd->name, (unsigned long long)nd->mtu.v);
	else if (!d->roce && max > active)
		snprintf(buf, len,
			 "active MTU %d < the port's maximum %d: "
			 "check the subnet manager's MTU",
			 active, max);
}

void perf_cm_mode_note(const struct rd_snapshot *s, const struct perf_opts *o,
		       char *err, size_t len)
{
	const struct rd_host *h = &s->host;
	size_t n = strlen(err);

	for (size_t i = 0; o->dev && i < h->n_cm_ports; i++) {
		const struct rd_cm_port *cm = &h->cm_ports[i];

		if (cm->device && strcmp(cm->device, o->dev) == 0 &&
		    cm->port.ok && cm->port.v == o->ib_port &&
		    cm->default_roce_mode && n < len) {
			snprintf(err + n, len - n,
				 " (this host's rdma_cm default RoCE mode on "
				 "%s port %u: %s; the peer's must be the same)",
				 o->dev, o->ib_port,
				 rd_esc_tmp(cm->default_roce_mode));
			return;
		}
	}
}
