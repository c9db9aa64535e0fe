// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * port.flaps: how often a port went down before anyone looked. Counters
 * that need no daemon (the netdev's carrier counts since it was created,
 * the IB PMA link_downed, the firmware's own link-down count that
 * survives driver reloads), rising counters in the history window, and
 * the kernel's own "Link down" lines with their times.
 */
#include "config.h"
#include "core/clock.h"
#include "core/escape.h"
#include "core/events.h"
#include "diag/data.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define HOUR 3600.0
/* Downs per hour past which a port is flapping. */
#define FLAPS_PER_HOUR 3
/* The PMA's link_downed is 8 bits wide and stops at its maximum. */
#define LINK_DOWNED_MAX 255

/* Is the record a link-down line about this port? */
static bool down_record(const struct rd_kmsg_rec *k,
			const struct diag_target *t)
{
	const struct rd_kmsg_class *c;

	if (!k->message || !k->rdma_device ||
	    strcmp(k->rdma_device, t->d->name))
		return false;
	if (k->port.ok && k->port.v && k->port.v != t->p->port)
		return false;
	c = rd_kmsg_classify(rd_data_kmsg(), k->message);
	return c && c->kind == RD_KMSG_LINK && strcasestr(k->message, "down");
}

/* Seconds between the record and the snapshot; false when not known. */
static bool age_of(const struct rd_snapshot *s, const struct rd_kmsg_rec *k,
		   double *age)
{
	if (k->wall_time.ok && s->time.ok) {
		*age = s->time.v - k->wall_time.v;
		return true;
	}
	return false;
}

static void clock_at(double t, char *buf, size_t size)
{
	rd_clock_fmt(t, RD_CLOCK_UTC, "%H:%M:%S", "?", buf, size);
}

/* The most downs within any one hour among times (oldest first). */
static size_t most_in_an_hour(const double *times, size_t n)
{
	size_t best = 0;

	for (size_t i = 0, j = 0; j < n; j++) {
		while (times[j] - times[i] > HOUR)
			i++;
		if (j - i + 1 > best)
			best = j - i + 1;
	}
	return best;
}

/* The first time the port came back after t; false when it has not. */
static bool up_after(const struct rd_events *ev, const struct diag_target *t,
		     double after, double *when)
{
	for (size_t i = 0; i < ev->n; i++) {
		const struct rd_event *e = &ev->v[i];

		if (e->time >= after && rd_event_up(e) &&
		    rd_event_about(e, t->d->name, t->p->port, t->netdev)) {
			*when = e->time;
			return true;
		}
	}
	return false;
}

#define PAST_SHOWN 1024

/* A drop of a lane's light ("lane 2 Rx dark, ...", "lane 2 Rx low, ..."). */
static bool light_dropped(const struct rd_event *e, unsigned *lane)
{
	char cls[8];

	return e->kind && strcmp(e->kind, "light") == 0 && e->text &&
	       sscanf(e->text, "lane %u Rx %7[a-z]", lane, cls) == 2 &&
	       (strcmp(cls, "dark") == 0 || strcmp(cls, "low") == 0);
}

/*
 * The module's recorded light around the downs: each change is evidence,
 * and when the light of a lane dropped at or shortly before every down,
 * the summary says so, since it points at the fibre or the far end's
 * transmitter rather than at this host.
 */
static void light_before(struct diag_ctx *x, const struct diag_target *t,
			 struct rd_result *r, const double *times, size_t kept,
			 char *text, size_t size)
{
	const struct rd_events *ev = x->o->past;
	uint64_t lanes = 0;
	size_t with = 0, said = 0;
	char list[64] = "";
	unsigned named = 0;

	for (size_t i = 0; i < ev->n && said < 5; i++) {
		const struct rd_event *e = &ev->v[i];
		char k[16];

		if (!e->kind || strcmp(e->kind, "light") ||
		    !rd_event_about(e, t->d->name, t->p->port, t->netdev) ||
		    e->time < times[0] - 60 || e->time > times[kept - 1] + 60)
			continue;
		clock_at(e->time, k, sizeof(k));
		diag_ev(x, r, "received light", "flight recorder", "%s UTC %s",
			k, rd_esc_tmp(e->text));
		said++;
	}
	for (size_t d = 0; d < kept; d++) {
		bool seen = false;

		for (size_t i = 0; i < ev->n; i++) {
			const struct rd_event *e = &ev->v[i];
			unsigned lane;

			if (e->time < times[d] - 60 || e->time > times[d] + 1 ||
			    !light_dropped(e, &lane) ||
			    !rd_event_about(e, t->d->name, t->p->port,
					    t->netdev))
				continue;
			seen = true;
			if (lane < 64)
				lanes |= UINT64_C(1) << lane;
		}
		with += seen;
	}
	if (!kept || with != kept)
		return;
	for (unsigned l = 0; l < 64; l++) {
		size_t len = strlen(list);

		if (!(lanes & (UINT64_C(1) << l)))
			continue;
		snprintf(list + len, sizeof(list) - len, "%s%u", len ? "," : "",
			 l);
		named++;
	}
	if (strlen(text) + strlen(list) + 56 < size)
		snprintf(text + strlen(text), size - strlen(text),
			 ", %swith the received light dropping on lane%s %s",
			 kept == 1 ? "" : "each ", named > 1 ? "s" : "", list);
}

/*
 * What the flight recorder's store (or the console's live watch) saw of
 * this port: each down with the time it came back, and the kernel's
 * lines about the device around them. The number of downs; *hour the
 * most within one hour; text a summary ("3 times between 02:40:10 and
 * 03:05:20 UTC").
 */
static size_t past_downs(struct diag_ctx *x, const struct diag_target *t,
			 struct rd_result *r, size_t *hour, char *text,
			 size_t size)
{
	const struct rd_events *ev = x->o->past;
	double times[PAST_SHOWN], since = ev->since;
	size_t n, kept, said = 0;
	char a[16], b[16];

	if (since <= 0 && x->s->time.ok)
		since = x->s->time.v - HOUR;
	n = rd_events_downs(ev, t->d->name, t->p->port, t->netdev, since, times,
			    PAST_SHOWN);
	kept = n < PAST_SHOWN ? n : PAST_SHOWN;
	*hour = most_in_an_hour(times, kept);
	clock_at(since, a, sizeof(a));
	if (!n) {
		diag_ev(x, r, "recorded downs",
			ev->from ? rd_esc_tmp(ev->from) : "watched live",
			"none since %s UTC", a);
		return 0;
	}
	for (size_t i = 0; i < kept && i < 10; i++) {
		double up;
		char d[16], u[16];

		clock_at(times[i], d, sizeof(d));
		if (up_after(ev, t, times[i], &up)) {
			clock_at(up, u, sizeof(u));
			diag_ev(x, r, "down",
				ev->from ? rd_esc_tmp(ev->from)
					 : "watched live",
				"%s UTC, up again at %s UTC", d, u);
		} else {
			diag_ev(x, r, "down",
				ev->from ? rd_esc_tmp(ev->from)
					 : "watched live",
				"%s UTC, not seen up again since", d);
		}
	}
	if (kept > 10)
		diag_ev(x, r, "down", "flight recorder", "%zu more", n - 10);
	/* What the kernel said about the device while it flapped. */
	for (size_t i = 0; i < ev->n && said < 5; i++) {
		const struct rd_event *e = &ev->v[i];
		char k[16];

		if (!e->kind || strcmp(e->kind, "kernel") || !e->device ||
		    strcmp(e->device, t->d->name) ||
		    (e->port && e->port != t->p->port) ||
		    e->time < times[0] - 60 || e->time > times[kept - 1] + 60)
			continue;
		clock_at(e->time, k, sizeof(k));
		diag_ev(x, r, "kernel", "flight recorder", "%s UTC %s", k,
			rd_esc_tmp(e->text));
		said++;
	}
	clock_at(times[0], a, sizeof(a));
	clock_at(times[kept - 1], b, sizeof(b));
	if (n == 1)
		snprintf(text, size, "once, at %s UTC", a);
	else
		snprintf(text, size, "%zu times between %s and %s UTC", n, a,
			 b);
	light_before(x, t, r, times, kept, text, size);
	return n;
}

/* The rise of a port counter over the window; false without two samples. */
static bool risen(struct diag_ctx *x, const struct diag_target *t,
		  enum rd_counter_group g, const char *name, uint64_t *delta,
		  double *span)
{
	double window = x->o->counter_window > 0 ? x->o->counter_window
						 : RD_RATE_WINDOW;

	if (!x->h)
		return false;
	return rd_series_delta(rd_history_counter(x->h, t->d->name, t->p->port,
						  t->netdev, g, name),
			       window, delta, span);
}

void check_port_flaps(struct diag_ctx *x, const struct diag_target *t,
		      struct rd_result *r)
{
	const struct rd_snapshot *s = x->s;
	const struct rd_netdev *n = t->n;
	const struct rd_counter *ld =
		rd_counters_find(&t->p->counters, "link_downed");
	const struct rd_kmsg *log = &s->kmsg;
	/*
	 * Only a log read live relates its records to the snapshot's clock;
	 * a log read from a file (a fixture, a copy) says nothing of "the
	 * last hour".
	 */
	bool log_read = log->readable.ok && log->readable.v &&
			log->wall_clock.ok && log->wall_clock.v;
	bool window = false;
	unsigned recent = 0, logged = 0;
	char times[160] = "";
	uint64_t delta = 0, phy_delta = 0;
	double span = 0, phy_span = 0;
	size_t past = 0, past_hour = 0;
	char past_text[160] = "";

	if (n && n->carrier_down_count.ok) {
		diag_ev(x, r, "carrier down count",
			"/sys/class/net/<netdev>/carrier_down_count",
			"%" PRIu64 " since the netdev was created",
			n->carrier_down_count.v);
	}
	if (ld && ld->value.ok) {
		diag_ev(x, r, "link_downed",
			"IB PMA ports/<n>/counters/link_downed",
			"%" PRIu64 "%s", ld->value.v,
			ld->value.v >= LINK_DOWNED_MAX
				? " (the 8-bit counter is full: at least that "
				  "many)"
				: "");
	}
	if (n && n->ethtool.link_down_events.ok) {
		diag_ev(x, r, "firmware link-down count",
			"ethtool netlink LINKSTATE (link_down_events)",
			"%" PRIu64 "%s", n->ethtool.link_down_events.v,
			n->carrier_down_count.ok &&
					n->ethtool.link_down_events.v >
						n->carrier_down_count.v
				? ": more than the host counted, so the port "
				  "also "
				  "went down while the driver was not watching "
				  "(reset, reload)"
				: "");
	}
	/* Rising in the window: the link went down while we watched. */
	/* Both counters, the larger rise: a full 8-bit link_downed can no
	 * longer rise, and the PHY's count may still. */
	if (!(ld && ld->value.ok && ld->value.v >= LINK_DOWNED_MAX) &&
	    risen(x, t, RD_CTR_PORT, "link_downed", &delta, &span))
		window = true;
	if (t->netdev && risen(x, t, RD_CTR_ETHTOOL, "link_down_events_phy",
			       &phy_delta, &phy_span)) {
		if (!window || phy_delta > delta) {
			delta = phy_delta;
			span = phy_span;
		}
		window = true;
	}
	if (window && delta > 0) {
		diag_verdict(x, r, RD_WARN, "flapping",
			     "%s: the link went down %" PRIu64 " time%s in the "
			     "last %.0f s",
			     t->name, delta, delta == 1 ? "" : "s", span);
		diag_next(x, r,
			  "watch phy.optics and phy.fec for the lane "
			  "that drops; check the peer or switch port's "
			  "log for the same times");
		return;
	}
	if (x->o->past_error)
		diag_ev(x, r, "flight recorder", "rdmadiag record's store",
			"not read: %s", rd_esc_tmp(x->o->past_error));
	if (x->o->past)
		past = past_downs(x, t, r, &past_hour, past_text,
				  sizeof(past_text));
	if (past_hour >= FLAPS_PER_HOUR) {
		diag_verdict(x, r, RD_WARN, "flapping",
			     "%s: the port went down %s (%zu within one hour)",
			     t->name, past_text, past_hour);
		diag_next(x, r,
			  "look at the cable and optics at those times "
			  "(phy.optics) and at the peer or switch port; "
			  "rdmadiag timeline shows every change "
			  "recorded");
		return;
	}
	for (size_t i = 0; log_read && i < log->n_records; i++) {
		const struct rd_kmsg_rec *k = &log->records[i];
		double age;
		char when[48];

		if (!down_record(k, t))
			continue;
		logged++;
		if (!age_of(s, k, &age) || age > HOUR || age < 0)
			continue;
		recent++;
		rd_kmsg_rec_when(k, RD_CLOCK_UTC, "%H:%M:%S", when,
				 sizeof(when));
		diag_ev(x, r, "link down", "/dev/kmsg", "%s %s", when,
			rd_esc_tmp(k->message));
		if (strlen(times) + strlen(when) + 3 < sizeof(times))
			snprintf(times + strlen(times),
				 sizeof(times) - strlen(times), "%s%s",
				 times[0] ? ", " : "", when);
	}
	if (recent >= FLAPS_PER_HOUR) {
		diag_verdict(x, r, RD_WARN, "flapping",
			     "%s: the link went down %u times in the last hour "
			     "(%s)",
			     t->name, recent, times);
		diag_next(x, r,
			  "look at the cable and optics at those times "
			  "(phy.optics) and at the peer or switch port; "
			  "the kernel log lines are in the evidence");
		return;
	}
	if (past) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: went down %s (fewer than %d within an hour); "
			     "the evidence says when it came back",
			     t->name, past_text, FLAPS_PER_HOUR);
		return;
	}
	if (!window && !log_read && !x->o->past) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: recent link downs not known: no window of "
			     "counters, and %s%s%s",
			     t->name,
			     log->readable.ok && log->readable.v
				     ? "the kernel log was read from a file "
				       "(its times are not this clock's)"
				     : "the kernel log was not read",
			     log->error ? ": " : "",
			     log->error ? log->error : "");
		return;
	}
	if (!log_read && !window) {
		char a[16];

		clock_at(x->o->past->since > 0 ? x->o->past->since
			 : x->s->time.ok       ? x->s->time.v - HOUR
					       : 0,
			 a, sizeof(a));
		diag_verdict(
			x, r, RD_PASS, "ok",
			"%s: no down recorded since %s UTC (%s)", t->name, a,
			x->o->past->from ? "flight recorder" : "watched live");
		return;
	}
	if (!log_read) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: no link down in the last %.0f s (the kernel "
			     "log was not read: older downs are not known)",
			     t->name, span);
		return;
	}
	if (recent) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: went down %u time%s in the last hour (%s), "
			     "fewer than %d",
			     t->name, recent, recent == 1 ? "" : "s", times,
			     FLAPS_PER_HOUR);
		return;
	}
	diag_verdict(x, r, RD_PASS, "ok",
		     "%s: no link down logged in the last hour%s (%u in the "
		     "kernel log%s)",
		     t->name, window ? " nor in the counters' window" : "",
		     logged,
		     x->s->kmsg.dropped.ok && x->s->kmsg.dropped.v
			     ? "; lines past the newest kept were not read"
			     : "");
}
