// SPDX-License-Identifier: GPL-2.0-or-later
/* The flight recorder's events and counter deltas between two snapshots. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/record_diff.h"
#include "core/model.h"
#include "diag/data.h"

void rd_rec_batch_free(struct rd_rec_batch *b)
{
	for (size_t i = 0; i < b->n_events; i++) {
		free(b->events[i].device);
		free(b->events[i].netdev);
		free(b->events[i].text);
	}
	for (size_t i = 0; i < b->n_deltas; i++) {
		free(b->deltas[i].device);
		free(b->deltas[i].counter);
	}
	free(b->events);
	free(b->deltas);
	memset(b, 0, sizeof(*b));
}

static int add_event(struct rd_rec_batch *b, double time, const char *device,
		     uint64_t port, const char *netdev, const char *kind,
		     const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int add_event(struct rd_rec_batch *b, double time, const char *device,
		     uint64_t port, const char *netdev, const char *kind,
		     const char *fmt, ...)
{
	struct rd_rec_event *e;
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	e = RD_PUSH(b->events, b->n_events);
	if (!e) {
		free(text);
		return -ENOMEM;
	}
	e->time = time;
	e->device = rd_strdup(device);
	e->port = port;
	e->netdev = rd_strdup(netdev);
	e->kind = kind;
	e->text = text;
	if ((device && !e->device) || (netdev && !e->netdev))
		return -ENOMEM;
	return 0;
}

static int add_delta(struct rd_rec_batch *b, const char *device, uint64_t port,
		     const char *counter, uint64_t delta)
{
	struct rd_rec_delta *d = RD_PUSH(b->deltas, b->n_deltas);

	if (!d)
		return -ENOMEM;
	d->device = rd_strdup(device);
	d->port = port;
	d->counter = rd_strdup(counter);
	d->delta = delta;
	return (device && !d->device) || !d->counter ? -ENOMEM : 0;
}

static const char *state_of(const struct rd_port *p)
{
	if (p->state)
		return p->state;
	return p->state_num.ok ? rd_port_state_name(p->state_num.v) : "unknown";
}

static const char *phys_of(const struct rd_port *p)
{
	if (p->phys_state)
		return p->phys_state;
	return p->phys_state_num.ok
		       ? rd_port_phys_state_name(p->phys_state_num.v)
		       : "unknown";
}

static const char *obool(struct rd_obool b, const char *yes, const char *no)
{
	return !b.ok ? "unknown" : b.v ? yes : no;
}

static bool counted(enum rd_counter_group g, const char *name)
{
	return strcmp(name, "link_downed") == 0 ||
	       rd_counter_bad_when_rising(rd_data_counters(), g, name);
}

static int diff_counters(struct rd_rec_batch *b, const char *device,
			 uint64_t port, enum rd_counter_group g,
			 const struct rd_counters *a,
			 const struct rd_counters *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct rd_counter *was;
		int r;

		if (!c->v[i].value.ok || !counted(g, c->v[i].name))
			continue;
		was = rd_counters_find(a, c->v[i].name);
		if (!was || !was->value.ok || c->v[i].value.v <= was->value.v)
			continue;
		r = add_delta(b, device, port, c->v[i].name,
			      c->v[i].value.v - was->value.v);
		if (r < 0)
			return r;
	}
	return 0;
}

static int diff_port(struct rd_rec_batch *b, double t, const char *dev,
		     const struct rd_port *a, const struct rd_port *c)
{
	int r = 0;

	if (!a)
		return add_event(b, t, dev, c->port, c->netdev, "link",
				 "%s %s (recording started)", state_of(c),
				 phys_of(c));
	if (strcmp(state_of(a), state_of(c)) != 0)
		r = add_event(b, t, dev, c->port, c->netdev, "link",
			      "%s (was %s)", state_of(c), state_of(a));
	if (r == 0 && strcmp(phys_of(a), phys_of(c)) != 0)
		r = add_event(b, t, dev, c->port, c->netdev, "phys",
			      "%s (was %s)", phys_of(c), phys_of(a));
	if (r == 0)
		r = diff_counters(b, dev, c->port, RD_CTR_PORT, &a->counters,
				  &c->counters);
	if (r == 0)
		r = diff_counters(b, dev, c->port, RD_CTR_HW, &a->hw_counters,
				  &c->hw_counters);
	return r;
}

static void rx_text(char *buf, size_t size, enum rd_xcvr_rx_class c,
		    const struct rd_xcvr_lane *l)
{
	char dbm[24];

	rd_xcvr_fmt_dbm(dbm, sizeof(dbm), l->rx_power_mw, "no light");
	if (l->rx_power_mw.ok && strcmp(dbm, "no light"))
		snprintf(buf, size, "%s, %s dBm", rd_xcvr_rx_class_name(c),
			 dbm);
	else if (l->rx_power_mw.ok)
		snprintf(buf, size, "%s, no light", rd_xcvr_rx_class_name(c));
	else
		snprintf(buf, size, "%s", rd_xcvr_rx_class_name(c));
}

/*
 * A lane whose received light changed class (ok, low, dark) between two
 * readings of the same module: "lane 2 Rx dark, -40.00 dBm (was ok,
 * -2.31 dBm)". A flap that follows a drop of light points at the fibre
 * or the far transmitter; one with steady light, elsewhere.
 */
static int diff_light(struct rd_rec_batch *b, double t, const char *dev,
		      uint64_t port, const char *netdev,
		      const struct rd_xcvr *a, const struct rd_xcvr *c)
{
	if (!a->identifier.ok || !c->identifier.ok)
		return 0;
	for (size_t i = 0; i < c->n_lanes; i++) {
		const struct rd_xcvr_lane *lc = &c->lanes[i];
		const struct rd_xcvr_lane *la = NULL;
		enum rd_xcvr_rx_class ka, kc;
		char was[48], now[48];

		for (size_t j = 0; j < a->n_lanes && !la; j++)
			if (a->lanes[j].lane == lc->lane)
				la = &a->lanes[j];
		if (!la)
			continue;
		ka = rd_xcvr_lane_rx(a, la);
		kc = rd_xcvr_lane_rx(c, lc);
		if (ka == kc || ka == RD_XCVR_RX_UNREAD ||
		    kc == RD_XCVR_RX_UNREAD)
			continue;
		rx_text(was, sizeof(was), ka, la);
		rx_text(now, sizeof(now), kc, lc);
		if (add_event(b, t, dev, port, netdev, "light",
			      "lane %" PRIu64 " Rx %s (was %s)", lc->lane, now,
			      was) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_netdev(struct rd_rec_batch *b, double t,
		       const struct rd_netdev *a, const struct rd_netdev *c)
{
	const char *dev = c->rdma_device;
	uint64_t port = c->rdma_port.ok ? c->rdma_port.v : 0;
	int r = 0;

	if (!a)
		return 0;
	if (a->carrier.ok != c->carrier.ok || a->carrier.v != c->carrier.v)
		r = add_event(b, t, dev, port, c->name, "carrier",
			      "%s (was %s)", obool(c->carrier, "on", "off"),
			      obool(a->carrier, "on", "off"));
	if (r == 0 && (a->xcvr.present.ok != c->xcvr.present.ok ||
		       a->xcvr.present.v != c->xcvr.present.v))
		r = add_event(b, t, dev, port, c->name, "module", "%s (was %s)",
			      obool(c->xcvr.present, "present", "absent"),
			      obool(a->xcvr.present, "present", "absent"));
	if (r == 0)
		r = diff_light(b, t, dev, port, c->name, &a->xcvr, &c->xcvr);
	if (r == 0 && a->carrier_down_count.ok && c->carrier_down_count.ok &&
	    c->carrier_down_count.v > a->carrier_down_count.v)
		r = add_delta(
			b, dev ? dev : c->name, port, "carrier_down_count",
			c->carrier_down_count.v - a->carrier_down_count.v);
	if (r == 0 && dev)
		r = diff_counters(b, dev, port, RD_CTR_ETHTOOL,
				  &a->ethtool.stats, &c->ethtool.stats);
	return r;
}

static const struct rd_devlink_reporter *
find_reporter(const struct rd_devlink *d, const char *name)
{
	for (size_t i = 0; d && i < d->n_reporters; i++)
		if (d->reporters[i].name &&
		    strcmp(d->reporters[i].name, name) == 0)
			return &d->reporters[i];
	return NULL;
}

static const char *devlink_device(const struct rd_snapshot *s,
				  const struct rd_devlink *d)
{
	for (size_t i = 0; d->dev && i < s->n_devices; i++)
		if (s->devices[i].pci_bdf &&
		    strcmp(s->devices[i].pci_bdf, d->dev) == 0)
			return s->devices[i].name;
	return d->dev;
}

static int diff_devlink(struct rd_rec_batch *b, double t,
			const struct rd_snapshot *cs,
			const struct rd_devlink *a, const struct rd_devlink *c)
{
	for (size_t i = 0; a && i < c->n_reporters; i++) {
		const struct rd_devlink_reporter *n = &c->reporters[i], *o;
		const char *sa, *sc;
		int r;

		if (!n->name || !(o = find_reporter(a, n->name)))
			continue;
		sa = o->state ? o->state : "unknown";
		sc = n->state ? n->state : "unknown";
		if (strcmp(sa, sc) == 0 &&
		    o->error_count.ok == n->error_count.ok &&
		    o->error_count.v == n->error_count.v)
			continue;
		r = add_event(
			b, t, devlink_device(cs, c), 0, NULL, "health",
			"reporter %s %s, %llu errors (was %s, %llu errors)",
			n->name, sc, (unsigned long long)n->error_count.v, sa,
			(unsigned long long)o->error_count.v);
		if (r < 0)
			return r;
	}
	return 0;
}

static const struct rd_devlink *find_devlink(const struct rd_snapshot *s,
					     const struct rd_devlink *d)
{
	for (size_t i = 0; s && i < s->n_devlinks; i++)
		if (s->devlinks[i].dev && d->dev &&
		    strcmp(s->devlinks[i].dev, d->dev) == 0)
			return &s->devlinks[i];
	return NULL;
}

/* The newest sequence number prev had seen; false when it saw none. */
static bool last_seq(const struct rd_snapshot *s, uint64_t *seq)
{
	bool have = false;

	*seq = 0;
	if (s->kmsg.last_seq.ok) {
		*seq = s->kmsg.last_seq.v;
		have = true;
	}
	for (size_t i = 0; i < s->kmsg.n_records; i++)
		if (!have || s->kmsg.records[i].seq > *seq) {
			*seq = s->kmsg.records[i].seq;
			have = true;
		}
	return have;
}

static int diff_kmsg(struct rd_rec_batch *b, double t,
		     const struct rd_snapshot *a, const struct rd_snapshot *c)
{
	uint64_t seq = 0;
	bool have = a && last_seq(a, &seq);

	for (size_t i = 0; i < c->kmsg.n_records; i++) {
		const struct rd_kmsg_rec *k = &c->kmsg.records[i];
		int r;

		if (have && k->seq <= seq)
			continue;
		r = add_event(b, k->wall_time.ok ? k->wall_time.v : t,
			      k->rdma_device, k->port.ok ? k->port.v : 0,
			      k->netdev, "kernel", "%s",
			      k->message ? k->message : "");
		if (r < 0)
			return r;
	}
	return 0;
}

static bool same_target(const struct rd_result *x, const struct rd_result *y)
{
	return strcmp(x->check_id, y->check_id) == 0 && x->port == y->port &&
	       ((!x->device && !y->device) ||
		(x->device && y->device && strcmp(x->device, y->device) == 0));
}

static int diff_verdicts(struct rd_rec_batch *b, double t,
			 const struct rd_results *a, const struct rd_results *c)
{
	for (size_t i = 0; c && i < c->n; i++) {
		const struct rd_result *n = &c->v[i], *o = NULL;
		int r;

		for (size_t j = 0; a && j < a->n && !o; j++)
			if (same_target(&a->v[j], n))
				o = &a->v[j];
		if (o && o->verdict == n->verdict)
			continue;
		if (!a && (n->verdict == RD_PASS || n->verdict == RD_UNKNOWN))
			continue;
		r = add_event(b, t, n->device, n->port, n->netdev, "check",
			      "%s %s%s%s%s: %s", n->check_id,
			      rd_verdict_name(n->verdict), o ? " (was " : "",
			      o ? rd_verdict_name(o->verdict) : "",
			      o ? ")" : "", n->summary ? n->summary : "");
		if (r < 0)
			return r;
	}
	return 0;
}

int rd_rec_diff(const struct rd_snapshot *prev, const struct rd_results *pres,
		const struct rd_snapshot *cur, const struct rd_results *cres,
		struct rd_rec_batch *out)
{
	double t = cur->time.ok ? cur->time.v : 0;
	int r = 0;

	for (size_t i = 0; r == 0 && i < cur->n_devices; i++) {
		const struct rd_device *d = &cur->devices[i];
		const struct rd_device *pd =
			prev && d->name ? rd_snapshot_device(prev, d->name)
					: NULL;

		if (prev && !pd)
			r = add_event(out, t, d->name, 0, NULL, "device",
				      "appeared");
		for (size_t j = 0; r == 0 && j < d->n_ports; j++) {
			const struct rd_port *pp =
				pd ? rd_device_port(pd, d->ports[j].port)
				   : NULL;

			if (prev && pd && !pp)
				continue;
			r = diff_port(out, t, d->name, pp, &d->ports[j]);
		}
	}
	for (size_t i = 0; r == 0 && prev && i < prev->n_devices; i++)
		if (prev->devices[i].name &&
		    !rd_snapshot_device(cur, prev->devices[i].name))
			r = add_event(out, t, prev->devices[i].name, 0, NULL,
				      "device", "gone");
	for (size_t i = 0; r == 0 && i < cur->n_netdevs; i++) {
		const struct rd_netdev *n = &cur->netdevs[i];

		r = diff_netdev(out, t,
				prev && n->name
					? rd_snapshot_netdev(prev, n->name)
					: NULL,
				n);
	}
	for (size_t i = 0; r == 0 && i < cur->n_devlinks; i++)
		r = diff_devlink(out, t, cur,
				 find_devlink(prev, &cur->devlinks[i]),
				 &cur->devlinks[i]);
	if (r == 0)
		r = diff_kmsg(out, t, prev, cur);
	if (r == 0)
		r = diff_verdicts(out, t, prev ? pres : NULL, cres);
	return r;
}

int rd_rec_parse_duration(const char *s, double *seconds)
{
	double v = 0, scale = 1, unit = 1;
	bool digits = false, point = false;
	const char *p = s;

	for (; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			if (point)
				scale /= 10;
			v = v * (point ? 1 : 10) +
			    (*p - '0') * (point ? scale : 1);
			digits = true;
		} else if (*p == '.' && !point) {
			point = true;
		} else {
			break;
		}
	}
	if (!digits || p - s > 15)
		return -EINVAL;
	switch (*p) {
	case '\0':
	case 's':
		break;
	case 'm':
		unit = 60;
		break;
	case 'h':
		unit = 3600;
		break;
	case 'd':
		unit = 86400;
		break;
	default:
		return -EINVAL;
	}
	if (*p && p[1])
		return -EINVAL;
	if (v <= 0)
		return -EINVAL;
	*seconds = v * unit;
	return 0;
}
