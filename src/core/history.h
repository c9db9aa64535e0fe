/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * History ring: the recent values of every counter across snapshots, so
 * checks can see a counter rising and views can draw rates and sparklines.
 *
 * Series are keyed "<scope>/<group>/<name>" where scope is "dev/port"
 * (e.g. "mlx5_0/1") or "netdev/<ifname>", and group is the name of an
 * enum rd_counter_group ("counters", "hw_counters", "ethtool"):
 *   "mlx5_0/1/hw_counters/out_of_buffer", "netdev/eth2/ethtool/rx_prio3_pause"
 * and the module's Rx power per lane, a gauge in 0.1 uW:
 *   "netdev/eth2/xcvr/rx_power_lane1"
 */
#ifndef RD_CORE_HISTORY_H
#define RD_CORE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/* Samples kept per series: a minute at the default 1 s refresh, plus slack. */
#define RD_HISTORY_DEPTH 128

struct rd_sample {
	double t;	/* seconds, monotonic */
	uint64_t v;
	bool ok;
};

struct rd_series {
	char *key;
	struct rd_sample s[RD_HISTORY_DEPTH];
	size_t head;	/* index of the next write */
	size_t len;	/* samples held */
	uint64_t last_seen;	/* history generation that last updated it */
};

struct rd_history {
	struct rd_series *v;
	size_t n;
	size_t *index;	/* open-addressing hash of series positions */
	size_t index_size;
	uint64_t generation;
	double last_t;
};

void rd_history_init(struct rd_history *h);
void rd_history_free(struct rd_history *h);

/* Append every counter of s (time from s->monotonic_ns). 0 or -ENOMEM. */
int rd_history_add(struct rd_history *h, const struct rd_snapshot *s);

const struct rd_series *rd_history_get(const struct rd_history *h,
				       const char *key);
/* Convenience: build the key for a port counter / netdev statistic. */
const struct rd_series *rd_history_port(const struct rd_history *h,
					const char *dev, uint64_t port,
					enum rd_counter_group group,
					const char *name);
const struct rd_series *rd_history_netdev(const struct rd_history *h,
					  const char *ifname,
					  const char *name);
/* A counter of any group at a port; ifname is the port's netdev (for
 * RD_CTR_ETHTOOL and RD_CTR_FEC; NULL gives NULL). */
const struct rd_series *rd_history_counter(const struct rd_history *h,
					   const char *dev, uint64_t port,
					   const char *ifname,
					   enum rd_counter_group group,
					   const char *name);

/* The i-th newest sample (0 = latest); NULL when out of range. */
const struct rd_sample *rd_series_at(const struct rd_series *s, size_t i);

/*
 * The one window a counter's rate is taken over unless a person asks for
 * another (check --window): the console's screens, its checklist, check
 * --load of a recording and export all judge the newest RD_RATE_WINDOW
 * seconds of samples with rd_series_rate, so one recording gives one rate.
 */
#define RD_RATE_WINDOW 10.0

/*
 * Rate per second over (at most) the last window seconds, from the oldest
 * valid sample inside the window to the newest (rd_series_rise: the newest
 * two samples when they are further apart). A counter that went
 * backwards (reset, device re-created) restarts from the reset point.
 * Returns false when fewer than two valid samples exist.
 */
bool rd_series_rate(const struct rd_series *s, double window, double *rate);
/*
 * The rise a rate is taken from: over the window as rd_series_delta, or,
 * when samples are further apart than the window (a refresh slower than
 * it), between the newest two. False with < 2 samples or no time between.
 */
bool rd_series_rise(const struct rd_series *s, double window,
		    uint64_t *delta, double *span);
/* Increase over the window (same rules); false with < 2 samples. */
bool rd_series_delta(const struct rd_series *s, double window,
		     uint64_t *delta, double *span);
/* Fill out[0..n-1] with per-interval rates, oldest first; returns count. */
size_t rd_series_rates(const struct rd_series *s, double *out, size_t n);

#endif
