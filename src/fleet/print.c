// SPDX-License-Identifier: GPL-2.0-or-later
/* Fleet reports: the table for people and the JSON for programs. */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

static size_t count_state(const struct rd_fleet *f, enum rd_fleet_state st)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_hosts; i++)
		n += f->hosts[i].state == st;
	return n;
}

static size_t count_worst(const struct rd_fleet *f, int v)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_hosts; i++)
		n += f->hosts[i].state == RD_FLEET_ANSWERED &&
		     f->hosts[i].worst == v;
	return n;
}

/* Host names (already escaped) of hosts in state st. */
static void print_state_hosts(const struct rd_fleet *f, FILE *out,
			      enum rd_fleet_state st, const char *title)
{
	size_t n = count_state(f, st);

	if (!n)
		return;
	fprintf(out, "\n%s (%zu):\n", title, n);
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct rd_fleet_host *h = &f->hosts[i];

		if (h->state == st)
			fprintf(out, "  %-20s %s\n", h->name,
				h->reason ? h->reason : "");
	}
}

int rd_fleet_print_text(const struct rd_fleet *f, FILE *out,
			size_t max_findings)
{
	size_t answered = count_state(f, RD_FLEET_ANSWERED);
	size_t shown = 0, none = count_worst(f, -1);
	char hosts[1024];

	/* A host with no results (check --only with nothing to judge there)
	 * passed nothing: counted apart, and only when there is one. */
	fprintf(out,
		"%zu hosts: %zu answered (worst verdict: %zu FAIL, %zu WARN, "
		"%zu UNKNOWN, %zu PASS",
		f->n_hosts, answered, count_worst(f, RD_FLEET_FAIL),
		count_worst(f, RD_FLEET_WARN), count_worst(f, RD_FLEET_UNKNOWN),
		count_worst(f, RD_FLEET_PASS));
	if (none)
		fprintf(out, "; %zu with nothing judged", none);
	fprintf(out, "), %zu with malformed output, %zu did not answer",
		count_state(f, RD_FLEET_MALFORMED),
		count_state(f, RD_FLEET_NO_ANSWER));
	if (count_state(f, RD_FLEET_CONFLICT))
		fprintf(out, ", %zu in conflict",
			count_state(f, RD_FLEET_CONFLICT));
	fputc('\n', out);
	if (f->n_findings) {
		fprintf(out, "\nFindings, worst first (hosts with the same "
			     "finding together):\n");
		fprintf(out, "  %-7s  %-18s %s\n", "VERDICT", "CHECK",
			"FINDING");
	}
	for (size_t i = 0; i < f->n_findings; i++) {
		const struct rd_fleet_finding *x = &f->findings[i];

		if (max_findings && shown == max_findings) {
			fprintf(out,
				"  ... %zu more findings (--all shows them)\n",
				f->n_findings - shown);
			break;
		}
		shown++;
		fprintf(out, "  %-7s  %-18s %zu host%s: %s\n",
			rd_fleet_verdict_name(x->verdict), x->check, x->n_hosts,
			x->n_hosts == 1 ? "" : "s", x->summary);
		fprintf(out, "  %-7s  %-18s on %s\n", "", "",
			rd_fleet_host_list(f, x->hosts, x->n_hosts, hosts,
					   sizeof(hosts)));
	}
	if (f->findings_dropped)
		fprintf(out,
			"  (%zu more distinct findings not grouped: more than "
			"%d)\n",
			f->findings_dropped, RD_FLEET_FINDINGS_MAX);
	print_state_hosts(f, out, RD_FLEET_NO_ANSWER,
			  "Hosts that did not answer");
	print_state_hosts(f, out, RD_FLEET_MALFORMED,
			  "Hosts whose output is malformed or truncated");
	print_state_hosts(f, out, RD_FLEET_CONFLICT,
			  "Hosts whose output conflicts");
	if (f->hosts_dropped)
		fprintf(out,
			"\nMore than %d hosts: %zu lines of the others not "
			"read\n",
			RD_FLEET_HOSTS_MAX, f->hosts_dropped);
	if (f->input_cut)
		fprintf(out, "\nInput not read past %u MiB\n",
			RD_FLEET_INPUT_BYTES >> 20);
	if (f->stray_lines)
		fprintf(out, "\n%zu lines name no host, the first: %s\n",
			f->stray_lines, f->stray ? f->stray : "");
	return ferror(out) ? -EIO : 0;
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* add, after the steps that built v: none of them failed (r is 0). */
static int add_built(struct json_object *o, const char *key,
		     struct json_object *v, int r)
{
	if (r) {
		json_object_put(v);
		return r;
	}
	return add(o, key, v);
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *host_json(const struct rd_fleet_host *h)
{
	static const char *const states[] = { "no_output", "answered",
					      "malformed", "no_answer",
					      "conflict" };
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return NULL;
	r |= add(o, "host", json_object_new_string(h->name));
	r |= add(o, "state", json_object_new_string(states[h->state]));
	if (h->worst >= 0)
		r |= add(o, "worst",
			 json_object_new_string(
				 rd_fleet_verdict_name(h->worst)));
	else
		json_object_object_add(o, "worst", NULL);
	json_object_object_add(o, "reason", str_or_null(h->reason));
	if (h->exit_code >= 0)
		r |= add(o, "exit_code", json_object_new_int(h->exit_code));
	else
		json_object_object_add(o, "exit_code", NULL);
	json_object_object_add(o, "reported_host", str_or_null(h->reported));
	json_object_object_add(o, "time", str_or_null(h->time));
	for (int v = 3; v >= 0; v--) {
		char key[16];

		snprintf(key, sizeof(key), "%s", rd_fleet_verdict_name(v));
		for (char *p = key; *p; p++)
			*p = (char)(*p - 'A' + 'a');
		r |= add(o, key, json_object_new_uint64(h->count[v]));
	}
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *report_json(const struct rd_fleet *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *fa = json_object_new_array();
	struct json_object *ha = json_object_new_array();
	int r = 0;

	if (!o || !fa || !ha) {
		json_object_put(o);
		json_object_put(fa);
		json_object_put(ha);
		return NULL;
	}
	r |= add(o, "hosts_total", json_object_new_uint64(f->n_hosts));
	r |= add(o, "answered",
		 json_object_new_uint64(count_state(f, RD_FLEET_ANSWERED)));
	r |= add(o, "malformed",
		 json_object_new_uint64(count_state(f, RD_FLEET_MALFORMED)));
	r |= add(o, "no_answer",
		 json_object_new_uint64(count_state(f, RD_FLEET_NO_ANSWER)));
	r |= add(o, "conflict",
		 json_object_new_uint64(count_state(f, RD_FLEET_CONFLICT)));
	for (size_t i = 0; i < f->n_findings && !r; i++) {
		const struct rd_fleet_finding *x = &f->findings[i];
		struct json_object *e = json_object_new_object();
		struct json_object *hs = json_object_new_array();

		if (!e || !hs) {
			json_object_put(e);
			json_object_put(hs);
			r = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < x->n_hosts && !r; k++)
			if (json_object_array_add(
				    hs, json_object_new_string(
						f->hosts[x->hosts[k]].name)) <
			    0)
				r = -ENOMEM;
		r |= add(e, "verdict",
			 json_object_new_string(
				 rd_fleet_verdict_name(x->verdict)));
		r |= add(e, "check", json_object_new_string(x->check));
		r |= add(e, "cause", json_object_new_string(x->cause));
		r |= add(e, "summary", json_object_new_string(x->summary));
		r |= add(e, "count", json_object_new_uint64(x->n_hosts));
		r |= add(e, "hosts", hs);
		if (r || json_object_array_add(fa, e) < 0) {
			json_object_put(e);
			r = -ENOMEM;
		}
	}
	r = add_built(o, "findings", fa, r);
	for (size_t i = 0; i < f->n_hosts && !r; i++) {
		struct json_object *h = host_json(&f->hosts[i]);

		if (!h || json_object_array_add(ha, h) < 0) {
			json_object_put(h);
			r = -ENOMEM;
		}
	}
	r = add_built(o, "hosts", ha, r);
	r |= add(o, "findings_not_grouped",
		 json_object_new_uint64(f->findings_dropped));
	r |= add(o, "lines_of_hosts_not_read",
		 json_object_new_uint64(f->hosts_dropped));
	r |= add(o, "input_cut", json_object_new_boolean(f->input_cut));
	r |= add(o, "lines_without_host",
		 json_object_new_uint64(f->stray_lines));
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int rd_fleet_print_json(const struct rd_fleet *f, FILE *out)
{
	struct json_object *o = report_json(f);
	const char *t;

	if (!o)
		return -ENOMEM;
	t = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!t) {
		json_object_put(o);
		return -ENOMEM;
	}
	fprintf(out, "%s\n", t);
	json_object_put(o);
	return ferror(out) ? -EIO : 0;
}
