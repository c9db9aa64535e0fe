// SPDX-License-Identifier: GPL-2.0-or-later
/* What `rdmadiag peer HOST --json` printed, read as the console keeps it:
 * see child.h (the process itself is console/peer_run.c). */
#include "config.h"

#include "peer/child.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/escape.h"

static const char *jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool jint(struct json_object *o, const char *key, int64_t *out)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static void side_text(struct json_object *o, char *buf, size_t len)
{
	const char *host = jget(o, "host"), *dev = jget(o, "device");
	const char *nd = jget(o, "netdev"), *addr = jget(o, "address");
	int64_t port = 0;

	jint(o, "port", &port);
	snprintf(buf, len, "%s%s%s%s%s port %lld%s%s",
		 addr ? rd_esc_tmp(addr) : "", addr ? ", " : "",
		 host ? rd_esc_tmp(host) : "", host ? " " : "",
		 dev ? rd_esc_tmp(dev) : "?", (long long)port,
		 nd ? " on " : "", nd ? rd_esc_tmp(nd) : "");
}

/* The last non-empty line of text, escaped: the child's error. */
static void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	{
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
		rd_esc(buf, len, line);
	}
}

static bool jbool(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) &&
	       json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

/* The reachability rows, or why there are none. */
static void keep_matrix(struct json_object *j, struct rd_peer_child_result *r)
{
	struct json_object *arr;
	size_t n;

	if (jget(j, "reachability_not_tested")) {
		rd_esc(r->matrix_not, sizeof(r->matrix_not),
		       jget(j, "reachability_not_tested"));
		return;
	}
	if (!json_object_object_get_ex(j, "reachability", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		snprintf(r->matrix_not, sizeof(r->matrix_not),
			 "the answer has no reachability matrix");
		return;
	}
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n && r->n_pairs < RD_PEER_CHILD_PAIRS; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		struct rd_peer_child_pair *p = &r->pairs[r->n_pairs];

		if (!jint(v, "here", &p->here) || !jint(v, "peer", &p->peer) ||
		    p->here < 0 || p->peer < 0)
			continue;
		rd_esc(p->roce, sizeof(p->roce), jget(v, "roce"));
		rd_esc(p->family, sizeof(p->family), jget(v, "family"));
		p->works = jbool(v, "works");
		rd_esc(p->why, sizeof(p->why), jget(v, "why"));
		r->n_pairs++;
	}
	if (!r->n_pairs)
		snprintf(r->matrix_not, sizeof(r->matrix_not),
			 "no pair of GIDs of the same RoCE type and address "
			 "family to try");
}

void rd_peer_child_parse(struct rd_peer_child *c, const char *out,
			 int exit_status)
{
	struct rd_peer_child_result *r = &c->res;
	struct json_object *j, *here, *peer, *arr, *v;
	const char *json = out;
	int64_t ga = -1, gb = -1;

	memset(r, 0, sizeof(*r));
	c->done = true;
	c->ok = false;
	while (*json && *json != '{') {
		json = strchr(json, '\n');
		json = json ? json + 1 : "";
	}
	if (exit_status > 1 || !*json) {
		last_line(out, c->err, sizeof(c->err));
		if (!c->err[0])
			snprintf(c->err, sizeof(c->err),
				 "rdmadiag peer exited %d with no message",
				 exit_status);
		return;
	}
	j = json_tokener_parse(json);
	if (!j || !json_object_is_type(j, json_type_object)) {
		snprintf(c->err, sizeof(c->err),
			 "rdmadiag peer printed no readable answer%s",
			 c->truncated ? " (over 128 KiB)" : "");
		json_object_put(j);
		return;
	}
	if (!json_object_object_get_ex(j, "here", &here) ||
	    !json_object_object_get_ex(j, "peer", &peer)) {
		snprintf(c->err, sizeof(c->err),
			 "rdmadiag peer's answer names no ports");
		json_object_put(j);
		return;
	}
	side_text(here, r->here, sizeof(r->here));
	side_text(peer, r->peer, sizeof(r->peer));
	jint(here, "gid_index", &ga);
	jint(peer, "gid_index", &gb);
	if (ga >= 0 && gb >= 0) {
		char a[64], b[64];

		rd_esc(a, sizeof(a), jget(here, "gid_ipv4"));
		rd_esc(b, sizeof(b), jget(peer, "gid_ipv4"));
		snprintf(r->gid, sizeof(r->gid),
			 "IPv4 RoCE v2: -x %lld here (%s), -x %lld on the peer "
			 "(%s)",
			 (long long)ga, a, (long long)gb, b);
	} else {
		snprintf(r->gid, sizeof(r->gid),
			 "no IPv4 RoCE v2 GID %s: no GID pair works for RoCE "
			 "v2 over IPv4",
			 ga < 0 && gb < 0 ? "on either host" :
			 ga < 0		  ? "here" :
					    "on the peer");
	}
	if (json_object_object_get_ex(j, "mismatches", &arr) &&
	    json_object_is_type(arr, json_type_array)) {
		r->n_total = json_object_array_length(arr);
		for (size_t i = 0;
		     i < r->n_total && r->n_items < RD_PEER_CHILD_ITEMS; i++) {
			struct rd_peer_child_item *it = &r->items[r->n_items];

			v = json_object_array_get_idx(arr, i);
			if (!jget(v, "what"))
				continue;
			rd_esc(it->what, sizeof(it->what), jget(v, "what"));
			rd_esc(it->here, sizeof(it->here), jget(v, "here"));
			rd_esc(it->peer, sizeof(it->peer), jget(v, "peer"));
			rd_esc(it->breaks, sizeof(it->breaks), jget(v, "breaks"));
			r->n_items++;
		}
	}
	rd_esc(r->not_compared, sizeof(r->not_compared),
	       jget(j, "not_compared"));
	if (c->matrix)
		keep_matrix(j, r);
	c->ok = true;
	json_object_put(j);
}
