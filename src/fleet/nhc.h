/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check as a health-check plugin, and the fields that let many hosts'
 * check --json be merged.
 *
 * Slurm's NHC runs checks that fail with a one-line message, and
 * node-problem-detector's custom plugin monitor reads a plugin's exit
 * status (0 OK, 1 NonOK, anything else Unknown) and takes its standard
 * output, cut to max_output_length (80 bytes unless configured), as the
 * condition's message.
 */
#ifndef RD_FLEET_NHC_H
#define RD_FLEET_NHC_H

#include <stdbool.h>
#include <stddef.h>

#include "diag/diag.h"

/* Bytes of the --nhc line: node-problem-detector's default cut. */
#define RD_NHC_LINE_MAX 80

/*
 * The --nhc line for res in buf (at most len - 1 bytes, cut on a character
 * boundary) and the exit status: 1 when a check FAILs (with strict also a
 * WARN or an UNKNOWN), else 0. Outside text in the line is escaped.
 */
int rd_nhc_line(const struct rd_results *res, bool strict, char *buf,
		size_t len);

/*
 * Give every object of the check --json array the host name ("host", null
 * when unknown) and the time the snapshot was taken ("time", ISO 8601 UTC,
 * null when unknown). 0, or -ENOMEM.
 */
struct json_object;
int rd_fleet_stamp(struct json_object *results, const char *host, bool time_ok,
		   double time);

/* check --json: rd_results_to_json stamped with s's host and time (or NULL). */
struct rd_snapshot;
struct json_object *rd_fleet_results_json(const struct rd_results *res,
					  const struct rd_snapshot *s);

#endif
