// SPDX-License-Identifier: GPL-2.0-or-later
/* The console's model: what is shown, replaced by whole updates. */
#include "config.h"
#include "console/state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/escape.h"

struct con_update *con_update_new(enum con_update_kind kind)
{
	struct con_update *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->kind = kind;
	rd_snapshot_init(&u->snap);
	return u;
}

void con_update_free(struct con_update *u)
{
	if (!u)
		return;
	/* Both are valid when empty: an update may hold either, or what an
	 * adopted update took away from the state. */
	rd_snapshot_free(&u->snap);
	rd_results_free(&u->results);
	rd_events_free(&u->past);
	free(u);
}

void con_state_init(struct con_state *st, enum con_source_kind source,
		    double interval)
{
	memset(st, 0, sizeof(*st));
	st->source = source;
	st->interval = interval > 0 ? interval : 1.0;
	rd_snapshot_init(&st->snap);
	rd_history_init(&st->hist);
	/* Loaded now, before the worker runs checks that read them too. */
	st->counters = rd_data_counters();
	rd_data_firmware();
	rd_data_wc_status(); /* the Explain screen's tables */
	rd_data_mlx5();
	rd_data_kmsg(); /* kernel.events */
}

void con_state_free(struct con_state *st)
{
	if (st->have_results)
		rd_results_free(&st->results);
	if (st->have_snap)
		rd_snapshot_free(&st->snap);
	rd_history_free(&st->hist);
	rd_events_free(&st->past);
	free(st->ports);
	st->ports = NULL;
	st->n_ports = 0;
	st->have_snap = st->have_results = false;
}

static void rebuild_ports(struct con_state *st)
{
	size_t want = 0, n = 0;
	bool found = false;

	free(st->ports);
	st->ports = NULL;
	st->n_ports = 0;
	for (size_t d = 0; d < st->snap.n_devices; d++)
		want += st->snap.devices[d].n_ports
				? st->snap.devices[d].n_ports
				: 1;
	if (!want) {
		st->sel = 0;
		return;
	}
	st->ports = calloc(want, sizeof(*st->ports));
	if (!st->ports)
		return;
	for (size_t d = 0; d < st->snap.n_devices; d++) {
		const struct rd_device *dev = &st->snap.devices[d];

		/* No readable port: the device still has its row. */
		if (!dev->n_ports) {
			st->ports[n] = (struct con_portref){ d, CON_NO_PORT };
			if (!found && dev->name &&
			    strcmp(dev->name, st->sel_dev) == 0 &&
			    st->sel_port == 0) {
				st->sel = n;
				found = true;
			}
			n++;
			continue;
		}
		for (size_t p = 0; p < dev->n_ports; p++) {
			st->ports[n] = (struct con_portref){ d, p };
			/* Keep the same port selected across refreshes. */
			if (!found && dev->name &&
			    strcmp(dev->name, st->sel_dev) == 0 &&
			    dev->ports[p].port == st->sel_port) {
				st->sel = n;
				found = true;
			}
			n++;
		}
	}
	st->n_ports = n;
	if (!found)
		con_select(st, st->sel < n ? st->sel : 0);
}

void con_state_adopt(struct con_state *st, struct con_update *u)
{
	if (u->source_changed || u->restarted) {
		rd_history_free(&st->hist);
		rd_history_init(&st->hist);
	}
	if (u->source_changed) {
		st->paused = false;
		st->picked_worst = false;
		if (!u->have_past) {
			rd_events_free(&st->past);
			st->have_past = false;
		}
	}
	st->source = u->source;
	if (u->kind == CON_UP_ERROR) {
		snprintf(st->source_err, sizeof(st->source_err), "%s", u->text);
		return;
	}
	/*
	 * What the update brings is swapped in: the update takes the old
	 * reading away, and con_update_free() releases it.
	 */
	if (u->have_snap) {
		struct rd_snapshot old = st->snap;

		st->snap = u->snap;
		u->snap = old;
		st->have_snap = true;
		rd_history_add(&st->hist, &st->snap);
		st->frame = u->frame;
		st->n_frames = u->n_frames;
		st->probe_ms = u->probe_ms;
		st->source_err[0] = '\0';
		rebuild_ports(st);
	}
	if (u->have_past) {
		struct rd_events old = st->past;

		st->past = u->past;
		u->past = old;
		st->have_past = true;
	}
	if (u->kind == CON_UP_SNAPSHOT || u->have_past) {
		snprintf(st->store_err, sizeof(st->store_err), "%s",
			 u->store_err);
		snprintf(st->watch_err, sizeof(st->watch_err), "%s",
			 u->watch_err);
	}
	if (u->have_results) {
		struct rd_results old = st->results;

		st->results = u->results;
		u->results = old;
		st->have_results = true;
	}
	/* At start, the port the person was called for is the one shown. */
	if (!st->picked_worst && st->have_snap && st->have_results &&
	    st->n_ports) {
		const struct rd_result *top = con_top_finding(st);

		if (top)
			con_select_for(st, top);
		st->picked_worst = true;
	}
}

const struct rd_device *con_sel_device(const struct con_state *st)
{
	if (!st->have_snap || st->sel >= st->n_ports)
		return NULL;
	return &st->snap.devices[st->ports[st->sel].d];
}

const struct rd_port *con_sel_port(const struct con_state *st)
{
	const struct rd_device *d = con_sel_device(st);

	if (!d || st->ports[st->sel].p == CON_NO_PORT)
		return NULL;
	return &d->ports[st->ports[st->sel].p];
}

const struct rd_netdev *con_port_netdev(const struct con_state *st,
					const struct rd_port *p)
{
	if (!p || !p->netdev)
		return NULL;
	return rd_snapshot_netdev(&st->snap, p->netdev);
}

const struct rd_pci *con_device_pci(const struct con_state *st,
				    const struct rd_device *d)
{
	if (!d || !d->pci_bdf)
		return NULL;
	return rd_snapshot_pci(&st->snap, d->pci_bdf);
}

void con_select(struct con_state *st, size_t row)
{
	const struct rd_device *d;

	if (st->n_ports == 0)
		return;
	if (row >= st->n_ports)
		row = st->n_ports - 1;
	st->sel = row;
	d = con_sel_device(st);
	snprintf(st->sel_dev, sizeof(st->sel_dev), "%s",
		 d->name ? d->name : "-");
	st->sel_port = con_sel_port(st) ? con_sel_port(st)->port : 0;
}

int con_finding_rank(const struct rd_result *r)
{
	return rd_finding_rank(r);
}

const struct rd_result *con_top_finding(const struct con_state *st)
{
	return st->have_results ? rd_results_top(&st->results) : NULL;
}

/* The row's device name and port number (0: a device with no port). */
static void row_id(const struct con_state *st, size_t row, const char **dev,
		   uint64_t *port)
{
	const struct rd_device *d = &st->snap.devices[st->ports[row].d];

	*dev = d->name;
	*port = st->ports[row].p == CON_NO_PORT
			? 0
			: d->ports[st->ports[row].p].port;
}

/* The worst finding about one row, as a rank (-1: none). */
static int row_rank(const struct con_state *st, size_t row)
{
	const char *dev;
	uint64_t port;
	int best = -1;

	row_id(st, row, &dev, &port);
	for (size_t i = 0; dev && i < st->results.n; i++) {
		const struct rd_result *r = &st->results.v[i];

		if (r->verdict == RD_PASS || !r->device ||
		    strcmp(r->device, dev) != 0 || (r->port && r->port != port))
			continue;
		if (con_finding_rank(r) > best)
			best = con_finding_rank(r);
	}
	return best;
}

bool con_select_for(struct con_state *st, const struct rd_result *r)
{
	size_t pick = SIZE_MAX;
	int best = -1;

	if (!st->have_snap || !st->n_ports || !r)
		return false;
	for (size_t row = 0; row < st->n_ports; row++) {
		const char *dev;
		uint64_t port;

		row_id(st, row, &dev, &port);
		if (r->device) {
			if (!dev || strcmp(dev, r->device) != 0 ||
			    (r->port && port != r->port))
				continue;
			pick = row;
			break;
		}
		/* Host-wide: the port with the worst findings of its own. */
		if (row_rank(st, row) > best) {
			best = row_rank(st, row);
			pick = row;
		}
	}
	if (pick == SIZE_MAX)
		return false;
	con_select(st, pick);
	return true;
}

bool con_port_worst(const struct con_state *st, const char *dev, uint64_t port,
		    enum rd_verdict *v)
{
	bool any = false;

	if (!st->have_results)
		return false;
	for (size_t i = 0; i < st->results.n; i++) {
		const struct rd_result *r = &st->results.v[i];

		if (!r->device || !dev || strcmp(r->device, dev) != 0)
			continue;
		if (port && r->port && r->port != port)
			continue;
		if (!any || r->verdict > *v)
			*v = r->verdict;
		any = true;
	}
	return any;
}

bool con_select_next_finding(struct con_state *st, int dir)
{
	size_t n = st->n_ports;

	if (!st->have_snap || !st->have_results || n < 1)
		return false;
	for (size_t k = 1; k <= n; k++) {
		size_t row =
			dir > 0 ? (st->sel + k) % n : (st->sel + n - k) % n;

		if (row == st->sel)
			break;
		if (row_rank(st, row) >= 0) {
			con_select(st, row);
			return true;
		}
	}
	return false;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

void con_result_key_of(const struct rd_result *r, struct con_result_key *k)
{
	snprintf(k->check, sizeof(k->check), "%s", or_dash(r->check_id));
	snprintf(k->device, sizeof(k->device), "%s", or_dash(r->device));
	snprintf(k->netdev, sizeof(k->netdev), "%s", or_dash(r->netdev));
	k->port = r->port;
}

bool con_result_key_eq(const struct con_result_key *a,
		       const struct con_result_key *b)
{
	return !strcmp(a->check, b->check) && !strcmp(a->device, b->device) &&
	       !strcmp(a->netdev, b->netdev) && a->port == b->port;
}

const struct rd_result *con_find_result(const struct rd_results *rs,
					const struct con_result_key *k)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct con_result_key rk;

		con_result_key_of(&rs->v[i], &rk);
		if (con_result_key_eq(&rk, k))
			return &rs->v[i];
	}
	return NULL;
}

bool con_past_summary(const struct rd_events *past, double now, double hours,
		      char *buf, size_t size)
{
	double since = now - hours * 3600.0;
	size_t events = 0, off = 0, ports = 0;

	buf[0] = '\0';
	for (size_t i = 0; past && i < past->n; i++) {
		const struct rd_event *e = &past->v[i];
		bool seen = false;
		double last = 0;
		size_t n;

		if (e->time < since || e->time > now + 1)
			continue;
		events++;
		if (!rd_event_down(e) || !e->device)
			continue;
		/* each port once: the first of its downs names it */
		for (size_t k = 0; k < i && !seen; k++)
			seen = past->v[k].time >= since &&
			       rd_event_down(&past->v[k]) &&
			       past->v[k].device &&
			       !strcmp(past->v[k].device, e->device) &&
			       past->v[k].port == e->port;
		if (seen)
			continue;
		n = rd_events_downs(past, e->device, e->port, e->netdev, since,
				    NULL, 0);
		for (size_t k = past->n; k-- > 0;)
			if (past->v[k].time >= since &&
			    rd_event_down(&past->v[k]) &&
			    rd_event_about(&past->v[k], e->device, e->port,
					   e->netdev)) {
				last = past->v[k].time;
				break;
			}
		if (n && off < size) {
			char at[16];

			rd_clock_fmt(last, RD_CLOCK_UTC, "%H:%M:%S", "?", at,
				     sizeof(at));
			off += (size_t)snprintf(
				buf + off, size - off,
				"%s%s/%" PRIu64
				" went down %s%zu time%s, last at "
				"%s UTC",
				ports ? "; " : "", rd_esc_tmp(e->device),
				e->port, "", n, n == 1 ? "" : "s", at);
			ports++;
		}
	}
	if (!events)
		return false;
	if (off < size)
		snprintf(buf + off, size - off, "%s%zu event%s recorded",
			 ports ? "; " : "", events, events == 1 ? "" : "s");
	return true;
}
