/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a snapshot and its verdicts look like to Prometheus: node_exporter's
 * node_infiniband_* series (on request, with its names, labels and values)
 * and rdmadiag_* for everything else, units in the names.
 */
#ifndef RD_EXPORT_METRICS_H
#define RD_EXPORT_METRICS_H

#include "core/snapshot.h"
#include "diag/diag.h"
#include "export/prom.h"

enum rd_export_flags {
	/* node_infiniband_* as node_exporter's infiniband collector has them */
	RD_EXPORT_COMPAT_NODE = 1u << 0,
};

/* Map verdicts to rdmadiag_check_status: 0 pass, 1 warn, 2 fail, 3 unknown. */
unsigned rd_export_status_code(enum rd_verdict v);

/*
 * Every metric of s (and of res, when not NULL) into w. Counters are the
 * values read, never adjusted: a value lower than the last scrape's is a
 * reset, which Prometheus's rate() and increase() take as one.
 */
void rd_export_metrics(struct rd_prom *w, const struct rd_snapshot *s,
		       const struct rd_results *res, unsigned flags);

#endif
