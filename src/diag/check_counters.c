// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Error counters rising: each bad-when-rising counter of data/counters.tsv
 * is looked up in the history; its rate over the window decides.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diag/data.h"

struct worst {
	enum rd_verdict v;
	char name[96];
	double rate;
	const char *hint;
	const char *unit;
	size_t watched;
	size_t samples;	/* series with two samples or more */
};

/* The counters of one group at a port: those of its netdev for ethtool. */
static const struct rd_counters *group_counters(const struct rd_port *p,
						const struct rd_netdev *n,
						enum rd_counter_group g)
{
	switch (g) {
	case RD_CTR_PORT:
		return &p->counters;
	case RD_CTR_HW:
		return &p->hw_counters;
	case RD_CTR_FEC:
		return n ? &n->ethtool.fec_stats : NULL;
	default:
		return n ? &n->ethtool.stats : NULL;
	}
}

static void judge(struct diag_ctx *x, struct rd_result *r, struct worst *w,
		  const struct rd_counter_table *t,
		  const struct diag_target *tg, enum rd_counter_group group)
{
	const struct rd_netdev *n = tg->n;
	const struct rd_counters *c = group_counters(tg->p, n, group);
	for (size_t i = 0; c && i < c->n; i++) {
		const struct rd_counter_info *ci =
			rd_counter_info_find(t, group, c->v[i].name);
		const struct rd_series *ser;
		enum rd_verdict v = RD_PASS;
		uint64_t delta;
		double span, rate;

		if (!rd_counter_bad_when_rising(t, group, c->v[i].name))
			continue;
		w->watched++;
		ser = rd_history_counter(x->h, tg->d->name, tg->p->port,
					 n ? n->name : NULL, group,
					 c->v[i].name);
		if (!ser || !diag_counter_rate(x, ser, &delta, &span, &rate))
			continue;
		w->samples++;
		if (delta == 0)
			continue;
		if (ci->fail_rate >= 0 && rate > ci->fail_rate)
			v = RD_FAIL;
		else if (rate > ci->warn_rate)
			v = RD_WARN;
		diag_ev(x, r, c->v[i].name, rd_counter_group_name(group),
			"+%" PRIu64 " in %.1f s (%.3g %s/s): %s", delta, span,
			rate, rd_counter_unit_name(ci->unit), ci->meaning);
		if (v > w->v || (v == w->v && v != RD_PASS && rate > w->rate)) {
			w->v = v;
			w->rate = rate;
			w->unit = rd_counter_unit_name(ci->unit);
			w->hint = ci->hint;
			snprintf(w->name, sizeof(w->name), "%s", c->v[i].name);
		}
	}
}

void check_counters_errors(struct diag_ctx *x, const struct diag_target *t,
			   struct rd_result *r)
{
	const struct rd_counter_table *tab = rd_data_counters();
	const struct rd_device *d = t->d;
	const struct rd_port *p = t->p;
	struct worst w = { .v = RD_PASS };

	if (!diag_have(x, r, tab != NULL, "counter table not loaded: %s",
		       rd_data_error() ? rd_data_error() : "?"))
		return;
	if (!x->h) {
		diag_verdict(x, r, RD_UNKNOWN, "no_history",
			     "%s/%" PRIu64 ": one snapshot only; rising counters need a window (--window)",
			     d->name, p->port);
		return;
	}
	for (int g = 0; g < RD_CTR_GROUPS; g++)
		judge(x, r, &w, tab, t, (enum rd_counter_group)g);
	if (w.watched == 0) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s/%" PRIu64 ": no known error counters read",
			     d->name, p->port);
	} else if (w.samples == 0) {
		diag_verdict(x, r, RD_UNKNOWN, "no_history",
			     "%s/%" PRIu64 ": one sample only; rising counters need a window (--window)",
			     d->name, p->port);
	} else if (w.v == RD_PASS) {
		/* A RoCE port's PHY errors are ethtool's: say when unread. */
		bool no_phy = rd_port_is_eth(p) &&
			      (!t->n || t->n->ethtool.stats.n == 0);

		char unsampled[64] = "";

		/* Judged are those with a window; the others are said. */
		if (w.samples < w.watched)
			snprintf(unsampled, sizeof(unsampled),
				 " (%zu more not sampled yet)",
				 w.watched - w.samples);
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s/%" PRIu64 ": none of %zu error counters "
			     "rising%s%s",
			     d->name, p->port, w.samples, unsampled,
			     no_phy ? " (no ethtool statistics read)" : "");
	} else {
		diag_verdict(x, r, w.v, "error_counter_rising",
			     "%s/%" PRIu64 ": %s rising at %.3g %s/s", d->name,
			     p->port, w.name, w.rate,
			     w.unit ? w.unit : "events");
		if (w.hint && *w.hint)
			diag_next(x, r, "%s", w.hint);
	}
}
