// SPDX-License-Identifier: GPL-2.0-or-later
/* check --nhc and the host/time fields of check --json. */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/escape.h"
#include "core/snapshot.h"
#include "fleet/nhc.h"

/* Drop a character snprintf cut in half at the end of s. */
static void cut_utf8(char *s)
{
	size_t n = strlen(s), p = n, want;
	unsigned char c;

	while (p && ((unsigned char)s[p - 1] & 0xc0) == 0x80)
		p--;
	if (!p)
		return;
	c = (unsigned char)s[p - 1];
	want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	if (p - 1 + want > n)
		s[p - 1] = '\0';
}

int rd_nhc_line(const struct rd_results *res, bool strict, char *buf,
		size_t len)
{
	size_t count[4] = { 0 };
	const struct rd_result *top = NULL;
	bool problem;

	if (!len)
		return 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *r = &res->v[i];

		count[r->verdict & 3]++;
		if (!top || r->verdict > top->verdict)
			top = r;
	}
	/* The finding the console puts first. */
	if (rd_results_top(res))
		top = rd_results_top(res);
	problem = count[RD_FAIL] ||
		  (strict && (count[RD_WARN] || count[RD_UNKNOWN]));
	if (!top || top->verdict == RD_PASS) {
		snprintf(buf, len, "OK: %zu PASS", count[RD_PASS]);
		return 0;
	}
	/* Counts first: they survive the cut. */
	snprintf(buf, len, "%s: %zu FAIL, %zu WARN, %zu UNKNOWN; %s %s",
		 problem ? "ERROR" : "OK", count[RD_FAIL], count[RD_WARN],
		 count[RD_UNKNOWN], top->check_id,
		 rd_esc_tmp(top->summary ? top->summary : ""));
	cut_utf8(buf);
	return problem ? 1 : 0;
}

int rd_fleet_stamp(struct json_object *results, const char *host, bool time_ok,
		   double time)
{
	char when[32] = "";
	time_t t = (time_t)time;
	struct tm tm;
	size_t n;

	if (time_ok && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = json_object_array_length(results);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(results, i);
		struct json_object *h =
			host ? json_object_new_string(host) : NULL;
		struct json_object *w =
			when[0] ? json_object_new_string(when) : NULL;

		if ((host && !h) || (when[0] && !w) ||
		    json_object_object_add(o, "host", h) < 0) {
			json_object_put(h);
			json_object_put(w);
			return -ENOMEM;
		}
		if (json_object_object_add(o, "time", w) < 0) {
			json_object_put(w);
			return -ENOMEM;
		}
	}
	return 0;
}

struct json_object *rd_fleet_results_json(const struct rd_results *res,
					  const struct rd_snapshot *s)
{
	struct json_object *j = rd_results_to_json(res);

	if (j &&
	    rd_fleet_stamp(j, s->host.hostname, s->time.ok, s->time.v) < 0) {
		json_object_put(j);
		return NULL;
	}
	return j;
}
