// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/history.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY SIZE_MAX

void rd_history_init(struct rd_history *h)
{
	memset(h, 0, sizeof(*h));
}

void rd_history_free(struct rd_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i].key);
	free(h->v);
	free(h->index);
	rd_history_init(h);
}

static size_t lookup(const struct rd_history *h, const char *key)
{
	if (!h->index_size)
		return EMPTY;
	for (size_t i = rd_hash_str(RD_HASH_INIT, key) & (h->index_size - 1);;
	     i = (i + 1) & (h->index_size - 1)) {
		size_t pos = h->index[i];

		if (pos == EMPTY)
			return EMPTY;
		if (strcmp(h->v[pos].key, key) == 0)
			return pos;
	}
}

static int reindex(struct rd_history *h, size_t size)
{
	size_t *idx = malloc(size * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < size; i++)
		idx[i] = EMPTY;
	for (size_t pos = 0; pos < h->n; pos++) {
		size_t i =
			rd_hash_str(RD_HASH_INIT, h->v[pos].key) & (size - 1);

		while (idx[i] != EMPTY)
			i = (i + 1) & (size - 1);
		idx[i] = pos;
	}
	free(h->index);
	h->index = idx;
	h->index_size = size;
	return 0;
}

static struct rd_series *series_for(struct rd_history *h, const char *key)
{
	size_t pos = lookup(h, key);
	struct rd_series *s;

	if (pos != EMPTY)
		return &h->v[pos];
	/* Keep the table at most half full. */
	if ((h->n + 1) * 2 > h->index_size &&
	    reindex(h, h->index_size ? h->index_size * 2 : 256) < 0)
		return NULL;
	s = RD_PUSH_NAMED(h->v, h->n, key, key);
	if (!s)
		return NULL;
	size_t i = rd_hash_str(RD_HASH_INIT, key) & (h->index_size - 1);

	while (h->index[i] != EMPTY)
		i = (i + 1) & (h->index_size - 1);
	h->index[i] = h->n - 1;
	return s;
}

static int add_counters(struct rd_history *h, const char *prefix,
			const struct rd_counters *c, double t)
{
	char key[512];

	for (size_t i = 0; i < c->n; i++) {
		struct rd_series *s;
		struct rd_sample *x;

		snprintf(key, sizeof(key), "%s/%s", prefix, c->v[i].name);
		s = series_for(h, key);
		if (!s)
			return -ENOMEM;
		if (s->last_seen == h->generation)
			continue;	/* duplicate name within one group */
		x = &s->s[s->head];
		x->t = t;
		x->v = c->v[i].value.v;
		x->ok = c->v[i].value.ok;
		s->head = (s->head + 1) % RD_HISTORY_DEPTH;
		if (s->len < RD_HISTORY_DEPTH)
			s->len++;
		s->last_seen = h->generation;
	}
	return 0;
}

/*
 * The module's Rx power per lane as a gauge, in 0.1 uW (the unit the
 * module reports): "netdev/<if>/xcvr/rx_power_lane<N>".
 */
static int add_xcvr(struct rd_history *h, const struct rd_netdev *n,
		    double t)
{
	struct rd_counters c = { 0 };
	char prefix[320];
	int r = 0;

	for (size_t i = 0; i < n->xcvr.n_lanes && r == 0; i++) {
		const struct rd_xcvr_lane *l = &n->xcvr.lanes[i];
		char name[48];
		struct rd_ou64 v = { 0 };

		if (!l->rx_power_mw.ok)
			continue;
		if (l->rx_power_mw.v > 0 && l->rx_power_mw.v < 1e6)
			v = rd_u64((uint64_t)(l->rx_power_mw.v * 1e4 + 0.5));
		else if (l->rx_power_mw.v == 0)
			v = rd_u64(0);
		snprintf(name, sizeof(name), "rx_power_lane%" PRIu64, l->lane);
		if (!rd_counters_add(&c, name, v))
			r = -ENOMEM;
	}
	if (r == 0 && c.n) {
		snprintf(prefix, sizeof(prefix), "netdev/%s/xcvr",
			 n->name ? n->name : "?");
		r = add_counters(h, prefix, &c, t);
	}
	for (size_t i = 0; i < c.n; i++)
		free(c.v[i].name);
	free(c.v);
	return r;
}

int rd_history_add(struct rd_history *h, const struct rd_snapshot *s)
{
	double t = s->monotonic_ns.ok ? (double)s->monotonic_ns.v / 1e9 :
					h->last_t + 1.0;
	char prefix[256];
	int r = 0;

	h->generation++;
	h->last_t = t;
	for (size_t i = 0; i < s->n_devices && r == 0; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t j = 0; j < d->n_ports && r == 0; j++) {
			const struct rd_port *p = &d->ports[j];

			snprintf(prefix, sizeof(prefix), "%s/%" PRIu64 "/%s",
				 d->name ? d->name : "?", p->port,
				 rd_counter_group_name(RD_CTR_PORT));
			r = add_counters(h, prefix, &p->counters, t);
			snprintf(prefix, sizeof(prefix), "%s/%" PRIu64 "/%s",
				 d->name ? d->name : "?", p->port,
				 rd_counter_group_name(RD_CTR_HW));
			if (r == 0)
				r = add_counters(h, prefix, &p->hw_counters, t);
		}
	}
	for (size_t i = 0; i < s->n_netdevs && r == 0; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		snprintf(prefix, sizeof(prefix), "netdev/%s/%s",
			 n->name ? n->name : "?",
			 rd_counter_group_name(RD_CTR_ETHTOOL));
		r = add_counters(h, prefix, &n->ethtool.stats, t);
		snprintf(prefix, sizeof(prefix), "netdev/%s/%s",
			 n->name ? n->name : "?",
			 rd_counter_group_name(RD_CTR_FEC));
		if (r == 0)
			r = add_counters(h, prefix, &n->ethtool.fec_stats, t);
		if (r == 0)
			r = add_xcvr(h, n, t);
	}
	return r;
}

const struct rd_series *rd_history_get(const struct rd_history *h,
				       const char *key)
{
	size_t pos = lookup(h, key);

	return pos == EMPTY ? NULL : &h->v[pos];
}

const struct rd_series *rd_history_port(const struct rd_history *h,
					const char *dev, uint64_t port,
					enum rd_counter_group group,
					const char *name)
{
	char key[512];

	snprintf(key, sizeof(key), "%s/%" PRIu64 "/%s/%s", dev, port,
		 rd_counter_group_name(group), name);
	return rd_history_get(h, key);
}

const struct rd_series *rd_history_netdev(const struct rd_history *h,
					  const char *ifname, const char *name)
{
	char key[512];

	snprintf(key, sizeof(key), "netdev/%s/%s/%s", ifname,
		 rd_counter_group_name(RD_CTR_ETHTOOL), name);
	return rd_history_get(h, key);
}

const struct rd_series *rd_history_counter(const struct rd_history *h,
					   const char *dev, uint64_t port,
					   const char *ifname,
					   enum rd_counter_group group,
					   const char *name)
{
	char key[512];

	if (group != RD_CTR_ETHTOOL && group != RD_CTR_FEC)
		return rd_history_port(h, dev, port, group, name);
	if (!ifname)
		return NULL;
	snprintf(key, sizeof(key), "netdev/%s/%s/%s", ifname,
		 rd_counter_group_name(group), name);
	return rd_history_get(h, key);
}

const struct rd_sample *rd_series_at(const struct rd_series *s, size_t i)
{
	if (!s || i >= s->len)
		return NULL;
	return &s->s[(s->head + RD_HISTORY_DEPTH - 1 - i) % RD_HISTORY_DEPTH];
}

bool rd_series_delta(const struct rd_series *s, double window,
		     uint64_t *delta, double *span)
{
	const struct rd_sample *newest = NULL, *prev = NULL;
	uint64_t sum = 0;
	double t0 = 0, t1 = 0;
	bool any = false;

	if (!s)
		return false;
	for (size_t i = 0; i < s->len; i++) {
		const struct rd_sample *x = rd_series_at(s, i);

		if (!x->ok)
			continue;
		if (!newest) {
			newest = prev = x;
			t1 = x->t;
			continue;
		}
		if (t1 - x->t > window + 1e-6)
			break;
		/* Walking backwards: prev is the later sample. */
		if (prev->v >= x->v)
			sum += prev->v - x->v;
		/* else: a reset between x and prev; count nothing across it. */
		t0 = x->t;
		prev = x;
		any = true;
	}
	if (!any)
		return false;
	*delta = sum;
	if (span)
		*span = t1 - t0;
	return true;
}

bool rd_series_rise(const struct rd_series *s, double window,
		    uint64_t *delta, double *span)
{
	const struct rd_sample *a = NULL, *b = NULL;

	if (rd_series_delta(s, window, delta, span) && *span > 0)
		return true;
	/* Samples further apart than the window: the newest two. */
	for (size_t i = 0; s && i < s->len && !b; i++) {
		const struct rd_sample *x = rd_series_at(s, i);

		if (!x->ok)
			continue;
		if (!a)
			a = x;
		else
			b = x;
	}
	if (!b || a->t <= b->t)
		return false;
	*delta = a->v >= b->v ? a->v - b->v : 0; /* a reset: nothing */
	*span = a->t - b->t;
	return true;
}

bool rd_series_rate(const struct rd_series *s, double window, double *rate)
{
	uint64_t d;
	double span;

	if (!rd_series_rise(s, window, &d, &span))
		return false;
	*rate = (double)d / span;
	return true;
}

size_t rd_series_rates(const struct rd_series *s, double *out, size_t n)
{
	size_t count = 0;

	if (!s || s->len < 2)
		return 0;
	/* Oldest first: walk from the oldest pair that still fits in n. */
	size_t pairs = s->len - 1;
	size_t start = pairs > n ? pairs - n : 0;

	for (size_t k = start; k < pairs; k++) {
		const struct rd_sample *a = rd_series_at(s, pairs - k);
		const struct rd_sample *b = rd_series_at(s, pairs - k - 1);
		double dt = b->t - a->t;

		if (a->ok && b->ok && dt > 0 && b->v >= a->v)
			out[count++] = (double)(b->v - a->v) / dt;
		else
			out[count++] = 0;
	}
	return count;
}
