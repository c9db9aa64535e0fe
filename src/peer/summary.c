// SPDX-License-Identifier: GPL-2.0-or-later
/* The summary of one port that two rdmadiag hosts exchange: see summary.h. */
#include "config.h"

#include "peer/summary.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/escape.h"
#include "core/json.h"
#include "core/json_check.h"

/* A summary holds one port: far below what a whole snapshot may hold. */
static const struct rd_json_limits peer_limits = {
	.values = 20000,
	.containers = 4000,
	.depth = 12,
	.members = 512,
	.string = RD_PEER_STRING_MAX,
};

/* One escaped line into err. */
static int fail(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int r, const char *fmt, ...)
{
	char raw[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (errlen) {
		rd_esc(err, errlen, raw);
		rd_utf8_trim_cut(err);
	}
	return r;
}

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* The port's netdev, a VLAN on it, or a netdev one of its GIDs is on. */
static bool netdev_wanted(const struct rd_port *p, const struct rd_netdev *n)
{
	if (!p->netdev)
		return false;
	if (same(n->name, p->netdev) || same(n->lower, p->netdev))
		return true;
	for (size_t i = 0; i < p->n_gids; i++)
		if (same(n->name, p->gids[i].netdev))
			return true;
	return false;
}

static int add_netdevs(const struct rd_cmp_side *side, struct rd_snapshot *o)
{
	const struct rd_snapshot *s = side->s;

	for (size_t i = 0; i < s->n_netdevs; i++) {
		struct rd_netdev n = s->netdevs[i], *dst;

		if (!netdev_wanted(side->port, &n))
			continue;
		if (o->n_netdevs >= RD_PEER_NETDEVS_MAX)
			break;
		/* Counters change every second and say nothing of setup. */
		n.ethtool.stats = (struct rd_counters){ 0 };
		n.ethtool.fec_stats = (struct rd_counters){ 0 };
		/*
		 * The module's identity, state and light travel; its raw pages
		 * and the link mode lists (longer than a summary's strings
		 * may be) do not.
		 */
		n.xcvr.pages = NULL;
		n.xcvr.n_pages = 0;
		n.ethtool.modes_supported = NULL;
		n.ethtool.modes_advertised = NULL;
		n.ethtool.modes_partner = NULL;
		if (n.n_addrs > RD_PEER_ADDRS_MAX) {
			n.n_addrs = RD_PEER_ADDRS_MAX;
			n.addrs_read = rd_bool(false);	/* a cut list */
		}
		dst = RD_PUSH(o->netdevs, o->n_netdevs);
		if (!dst)
			return -ENOMEM;
		if (rd_model_dup(rd_netdev_fields, dst, &n, sizeof(n)) < 0) {
			o->n_netdevs--;
			return -ENOMEM;
		}
	}
	return 0;
}

static int add_host(const struct rd_cmp_side *side, struct rd_snapshot *o)
{
	const struct rd_host *h = &side->s->host;

	if (rd_str_set(&o->host.hostname, h->hostname) < 0 ||
	    rd_str_set(&o->host.kernel, h->kernel) < 0 ||
	    rd_str_set(&o->host.rdma_core_version, h->rdma_core_version) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_cm_ports; i++) {
		const struct rd_cm_port *cm = &h->cm_ports[i];
		struct rd_cm_port *dst;

		if (!same(cm->device, side->dev->name) ||
		    (cm->port.ok && cm->port.v != side->port->port))
			continue;
		if (o->host.n_cm_ports >= RD_PEER_CM_PORTS_MAX)
			break;
		dst = RD_PUSH(o->host.cm_ports, o->host.n_cm_ports);
		if (!dst)
			return -ENOMEM;
		dst->port = cm->port;
		dst->default_roce_tos = cm->default_roce_tos;
		if (rd_str_set(&dst->device, cm->device) < 0 ||
		    rd_str_set(&dst->default_roce_mode,
			       cm->default_roce_mode) < 0)
			return -ENOMEM;
	}
	return 0;
}

int rd_peer_summary_make(const struct rd_cmp_side *side,
			 struct rd_peer_summary *out)
{
	struct rd_port p = *side->port;
	struct rd_device d = *side->dev, *dst;
	struct rd_snapshot *o = &out->s;
	char err[64];

	memset(out, 0, sizeof(*out));
	rd_snapshot_init(o);
	o->time = side->s->time;
	p.counters = (struct rd_counters){ 0 };
	p.hw_counters = (struct rd_counters){ 0 };
	p.xmit_bytes = p.rcv_bytes = (struct rd_ou64){ 0 };
	if (p.n_gids > RD_PEER_GIDS_MAX)
		p.n_gids = RD_PEER_GIDS_MAX;
	d.ports = &p;
	d.n_ports = 1;
	dst = RD_PUSH(o->devices, o->n_devices);
	if (!dst)
		goto nomem;
	if (rd_model_dup(rd_device_fields, dst, &d, sizeof(d)) < 0) {
		o->n_devices = 0;
		goto nomem;
	}
	if (add_netdevs(side, o) < 0 || add_host(side, o) < 0)
		goto nomem;
	snprintf(out->program, sizeof(out->program), "%s %s", PACKAGE_NAME,
		 PACKAGE_VERSION);
	if (rd_cmp_pick(o, NULL, 0, &out->side, err, sizeof(err)) < 0)
		goto nomem; /* cannot happen: one device with one port */
	return 0;
nomem:
	rd_peer_summary_free(out);
	return -ENOMEM;
}

int rd_peer_summary_encode(const struct rd_peer_summary *sum, const char *msg,
			   char **out, size_t *len)
{
	struct json_object *j = json_object_new_object(), *v;
	char prog[64];
	const char *text;
	int r = -ENOMEM;

	*out = NULL;
	*len = 0;
	if (!j)
		return -ENOMEM;
	snprintf(prog, sizeof(prog), "%s %s", PACKAGE_NAME, PACKAGE_VERSION);
	if (json_object_object_add(j, "rdmadiag_peer",
				   json_object_new_int(RD_PEER_SUMMARY_VERSION)) ||
	    json_object_object_add(j, "program", json_object_new_string(prog)))
		goto out;
	if (sum) {
		v = rd_snapshot_to_json(&sum->s);
		if (!v || json_object_object_add(j, "summary", v))
			goto out;
		if (sum->test.set) {
			v = rd_test_choice_to_json(&sum->test);
			if (!v || json_object_object_add(j, "test", v))
				goto out;
		}
	} else {
		char line[RD_PEER_STRING_MAX];

		/* Cut at a character, so the peer's string cap holds. */
		snprintf(line, sizeof(line), "%s", msg ? msg : "unknown error");
		rd_utf8_trim_cut(line);
		if (json_object_object_add(j, "error",
					   json_object_new_string(line)))
			goto out;
	}
	text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		goto out;
	if (strlen(text) > RD_PEER_SUMMARY_MAX) {
		r = -E2BIG;
		goto out;
	}
	*out = rd_strdup(text);
	if (*out) {
		*len = strlen(*out);
		r = 0;
	}
out:
	json_object_put(j);
	return r;
}

/* The caps of a decoded summary: one port, bounded tables. */
static int check_caps(const struct rd_snapshot *s, char *err, size_t errlen)
{
	const struct rd_device *d;

	if (s->n_devices != 1 || s->devices[0].n_ports != 1)
		return fail(err, errlen, -EPROTO,
			    "the summary holds %zu devices (%zu ports), not one port",
			    s->n_devices, s->n_devices ? s->devices[0].n_ports : 0);
	d = &s->devices[0];
	if (!d->name || !d->ports[0].port)
		return fail(err, errlen, -EPROTO,
			    "the summary names no device or port number");
	if (d->ports[0].n_gids > RD_PEER_GIDS_MAX)
		return fail(err, errlen, -E2BIG,
			    "the summary lists %zu GIDs (at most %d)",
			    d->ports[0].n_gids, RD_PEER_GIDS_MAX);
	if (s->n_netdevs > RD_PEER_NETDEVS_MAX)
		return fail(err, errlen, -E2BIG,
			    "the summary lists %zu netdevs (at most %d)",
			    s->n_netdevs, RD_PEER_NETDEVS_MAX);
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (s->netdevs[i].n_addrs > RD_PEER_ADDRS_MAX)
			return fail(err, errlen, -E2BIG,
				    "the summary lists %zu addresses on one "
				    "netdev (at most %d)",
				    s->netdevs[i].n_addrs, RD_PEER_ADDRS_MAX);
	if (s->host.n_cm_ports > RD_PEER_CM_PORTS_MAX)
		return fail(err, errlen, -E2BIG,
			    "the summary lists %zu rdma_cm ports (at most %d)",
			    s->host.n_cm_ports, RD_PEER_CM_PORTS_MAX);
	return 0;
}

static int parse(const char *buf, size_t len, struct json_object **out,
		 char *err, size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	char why[256];
	size_t end;
	int r;

	*out = NULL;
	if (!len)
		return fail(err, errlen, -EPROTO, "an empty message, not a summary");
	if (len > RD_PEER_SUMMARY_MAX)
		return fail(err, errlen, -E2BIG,
			    "a summary of %zu bytes (at most %u)", len,
			    RD_PEER_SUMMARY_MAX);
	if (memchr(buf, '\0', len))
		return fail(err, errlen, -EPROTO,
			    "a NUL byte in the summary: not JSON text");
	r = rd_json_check(buf, len, &peer_limits, why, sizeof(why));
	if (r < 0)
		return fail(err, errlen, r, "summary refused: %s", why);
	tok = json_tokener_new_ex((int)peer_limits.depth + 1);
	if (!tok)
		return fail(err, errlen, -ENOMEM, "out of memory");
	*out = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!*out || jerr != json_tokener_success) {
		json_object_put(*out);
		*out = NULL;
		if (jerr == json_tokener_continue)
			return fail(err, errlen, -EPROTO,
				    "a truncated summary: the JSON ends early");
		return fail(err, errlen, -EPROTO,
			    "not JSON at byte %zu: %s", end,
			    json_tokener_error_desc(jerr));
	}
	for (size_t i = end; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t' &&
		    buf[i] != '\r') {
			json_object_put(*out);
			*out = NULL;
			return fail(err, errlen, -EPROTO,
				    "data after the summary at byte %zu", i);
		}
	return 0;
}

int rd_peer_summary_decode(const char *buf, size_t len,
			   struct rd_peer_summary *out, char *err,
			   size_t errlen)
{
	struct json_object *j, *v;
	char why[256];
	int64_t ver;
	int r;

	memset(out, 0, sizeof(*out));
	rd_snapshot_init(&out->s);
	r = parse(buf, len, &j, err, errlen);
	if (r < 0)
		return r;
	r = -EPROTO;
	if (!json_object_is_type(j, json_type_object) ||
	    !json_object_object_get_ex(j, "rdmadiag_peer", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		fail(err, errlen, r, "not an rdmadiag peer summary");
		goto out;
	}
	ver = json_object_get_int64(v);
	if (ver < 1 || ver > RD_PEER_SUMMARY_VERSION) {
		fail(err, errlen, r,
		     "the peer sent summary version %" PRId64
		     "; this rdmadiag reads version %d: run the same "
		     "rdmadiag release on both hosts",
		     ver, RD_PEER_SUMMARY_VERSION);
		goto out;
	}
	if (json_object_object_get_ex(j, "program", &v) &&
	    json_object_is_type(v, json_type_string)) {
		rd_esc(out->program, sizeof(out->program), json_object_get_string(v));
		rd_utf8_trim_cut(out->program);
	}
	if (json_object_object_get_ex(j, "error", &v)) {
		r = -EREMOTE;
		fail(err, errlen, r, "the peer says: %s",
		     json_object_is_type(v, json_type_string) ?
			     json_object_get_string(v) : "(an error that is not text)");
		goto out;
	}
	if (!json_object_object_get_ex(j, "summary", &v)) {
		fail(err, errlen, r, "the peer sent neither a summary nor an error");
		goto out;
	}
	r = rd_snapshot_from_json(v, &out->s, why, sizeof(why));
	if (r < 0) {
		fail(err, errlen, r == -ENOMEM ? r : -EPROTO,
		     "a damaged summary: %s", why);
		r = r == -ENOMEM ? r : -EPROTO;
		goto out;
	}
	if (json_object_object_get_ex(j, "test", &v) &&
	    rd_test_choice_from_json(v, &out->test, why, sizeof(why)) < 0)
		snprintf(out->test_err, sizeof(out->test_err),
			 "the peer's test choices were refused: %s", why);
	r = check_caps(&out->s, err, errlen);
	if (r == 0 &&
	    rd_cmp_pick(&out->s, NULL, 0, &out->side, why, sizeof(why)) < 0)
		r = fail(err, errlen, -EPROTO, "a damaged summary: %s", why);
out:
	json_object_put(j);
	if (r < 0)
		rd_peer_summary_free(out);
	return r;
}

void rd_peer_summary_free(struct rd_peer_summary *sum)
{
	rd_snapshot_free(&sum->s);
	memset(&sum->side, 0, sizeof(sum->side));
}
