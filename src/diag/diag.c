// SPDX-License-Identifier: GPL-2.0-or-later
/* Results: building, running the table, sorting, names and JSON. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *vfmt(const char *fmt, va_list ap)
{
	char *p = NULL;

	if (vasprintf(&p, fmt, ap) < 0)
		return NULL;
	return p;
}

static void result_clear(struct rd_result *r)
{
	free(r->device);
	free(r->netdev);
	free(r->cause);
	free(r->summary);
	free(r->why);
	free(r->next_step);
	for (size_t i = 0; i < r->n_evidence; i++) {
		free(r->evidence[i].what);
		free(r->evidence[i].value);
		free(r->evidence[i].source);
	}
	free(r->evidence);
	for (size_t i = 0; i < r->n_path; i++)
		free(r->path[i].text);
	free(r->path);
	diag_fix_free(r->fix);
	memset(r, 0, sizeof(*r));
}

void diag_fix_free(struct rd_fixup *f)
{
	if (!f)
		return;
	free(f->id);
	free(f->command);
	free(f->impact);
	free(f->arg);
	free(f->arg2);
	free(f->device);
	free(f);
}

static void oom(struct diag_ctx *x)
{
	if (!x->err)
		x->err = -ENOMEM;
}

struct rd_result *diag_new(struct diag_ctx *x, const char *device,
			   uint64_t port, const char *netdev)
{
	struct rd_result *r = RD_PUSH(x->out->v, x->out->n);

	if (!r) {
		oom(x);
		result_clear(&x->scratch);
		r = &x->scratch;
	}
	r->check_id = x->c->id;
	r->title = x->c->title;
	r->layer = x->c->layer;
	r->port = port;
	r->verdict = RD_UNKNOWN;
	if ((device && !(r->device = strdup(device))) ||
	    (netdev && !(r->netdev = strdup(netdev))))
		oom(x);
	return r;
}

static void set_str(struct diag_ctx *x, char **dst, const char *fmt,
		    va_list ap)
{
	char *p = vfmt(fmt, ap);

	if (!p) {
		oom(x);
		return;
	}
	free(*dst);
	*dst = p;
}

void diag_verdict(struct diag_ctx *x, struct rd_result *r, enum rd_verdict v,
		  const char *cause, const char *fmt, ...)
{
	va_list ap;

	r->verdict = v;
	free(r->cause);
	r->cause = strdup(cause);
	if (!r->cause)
		oom(x);
	va_start(ap, fmt);
	set_str(x, &r->summary, fmt, ap);
	va_end(ap);
}

void diag_why(struct diag_ctx *x, struct rd_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_str(x, &r->why, fmt, ap);
	va_end(ap);
}

void diag_next(struct diag_ctx *x, struct rd_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_str(x, &r->next_step, fmt, ap);
	va_end(ap);
}

void diag_ev(struct diag_ctx *x, struct rd_result *r, const char *what,
	     const char *source, const char *fmt, ...)
{
	struct rd_evidence *e;
	va_list ap;
	char *value, *w, *src;

	va_start(ap, fmt);
	value = vfmt(fmt, ap);
	va_end(ap);
	w = strdup(what);
	src = strdup(source ? source : "");
	if (!value || !w || !src) {
		free(value);
		free(w);
		free(src);
		oom(x);
		return;
	}
	e = RD_PUSH(r->evidence, r->n_evidence);
	if (!e) {
		free(value);
		free(w);
		free(src);
		oom(x);
		return;
	}
	e->what = w;
	e->value = value;
	e->source = src;
}

void diag_step(struct diag_ctx *x, struct rd_result *r, enum rd_verdict v,
	       const char *fmt, ...)
{
	struct rd_step *st;
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = vfmt(fmt, ap);
	va_end(ap);
	if (!text) {
		oom(x);
		return;
	}
	st = RD_PUSH(r->path, r->n_path);
	if (!st) {
		free(text);
		oom(x);
		return;
	}
	st->text = text;
	st->verdict = v;
}

struct rd_fixup *diag_fix(struct diag_ctx *x, struct rd_result *r,
			  enum rd_fix_kind kind, bool disruptive,
			  bool undoable, const char *impact, const char *fmt,
			  ...)
{
	struct rd_fixup *f = calloc(1, sizeof(*f));
	va_list ap;

	if (!f) {
		oom(x);
		return NULL;
	}
	va_start(ap, fmt);
	f->command = vfmt(fmt, ap);
	va_end(ap);
	f->id = strdup(r->check_id);
	f->impact = strdup(impact);
	if (r->device)
		f->device = strdup(r->device);
	if (!f->command || !f->id || !f->impact ||
	    (r->device && !f->device)) {
		diag_fix_free(f);
		oom(x);
		return NULL;
	}
	f->kind = kind;
	f->disruptive = disruptive;
	f->undoable = undoable;
	f->port = r->port;
	diag_fix_free(r->fix);
	r->fix = f;
	return f;
}

int diag_done(struct diag_ctx *x)
{
	result_clear(&x->scratch);
	return x->err;
}

bool diag_wants(const struct diag_ctx *x, const char *device, uint64_t port)
{
	if (!device)
		return true;	/* host-wide results always apply */
	if (x->o && x->o->device && strcmp(x->o->device, device) != 0)
		return false;
	if (x->o && x->o->port && port && x->o->port != port)
		return false;
	return true;
}

bool diag_next_port(const struct diag_ctx *x, struct diag_target *t)
{
	for (; t->dev < x->s->n_devices; t->dev++, t->port = 0) {
		const struct rd_device *d = &x->s->devices[t->dev];

		while (t->port < d->n_ports) {
			const struct rd_port *p = &d->ports[t->port++];

			if (!diag_wants(x, d->name, p->port))
				continue;
			t->d = d;
			t->p = p;
			snprintf(t->name, sizeof(t->name), "%s/%" PRIu64,
				 d->name ? d->name : "?", p->port);
			return true;
		}
	}
	return false;
}

bool diag_next_device(const struct diag_ctx *x, struct diag_target *t)
{
	while (t->dev < x->s->n_devices) {
		const struct rd_device *d = &x->s->devices[t->dev++];

		if (!diag_wants(x, d->name, 0))
			continue;
		t->d = d;
		t->p = NULL;
		snprintf(t->name, sizeof(t->name), "%s", d->name ? d->name : "?");
		return true;
	}
	return false;
}

struct rd_result *diag_new_target(struct diag_ctx *x,
				  const struct diag_target *t,
				  const char *netdev)
{
	return diag_new(x, t->d->name, t->p ? t->p->port : 0, netdev);
}

void rd_diag_opts_init(struct rd_diag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->numa_node_wanted = -1;
}

static bool area_selected(const struct rd_check *c, const char *only)
{
	size_t n;

	if (!only || !*only)
		return true;
	if (strcmp(only, c->area) == 0 || strcmp(only, c->id) == 0)
		return true;
	n = strlen(only);
	/* "port." or a layer name select a group too. */
	if (only[n - 1] == '.' && strncmp(c->id, only, n) == 0)
		return true;
	return strcasecmp(only, rd_layer_name(c->layer)) == 0;
}

int rd_diag_run(const struct rd_snapshot *s, const struct rd_history *h,
		const struct rd_diag_opts *o, struct rd_results *out)
{
	struct rd_diag_opts def;
	int err = 0;

	out->v = NULL;
	out->n = 0;
	if (!o) {
		rd_diag_opts_init(&def);
		o = &def;
	}
	for (size_t i = 0; i < rd_n_checks; i++) {
		const struct rd_check *c = &rd_checks[i];
		int r;

		if (!area_selected(c, o->only_area))
			continue;
		r = c->evaluate(c, s, h, o, out);
		if (r < 0 && !err)
			err = r;
	}
	return err;
}

void rd_results_free(struct rd_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		result_clear(&r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

/* Insertion sort: results are few, and stability keeps table order. */
void rd_results_sort(struct rd_results *r)
{
	for (size_t i = 1; i < r->n; i++) {
		struct rd_result tmp = r->v[i];
		size_t j = i;

		while (j > 0) {
			const struct rd_result *p = &r->v[j - 1];

			if (p->layer < tmp.layer ||
			    (p->layer == tmp.layer && p->verdict >= tmp.verdict))
				break;
			r->v[j] = r->v[j - 1];
			j--;
		}
		r->v[j] = tmp;
	}
}

enum rd_verdict rd_results_worst(const struct rd_results *r)
{
	enum rd_verdict w = RD_PASS;

	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].verdict > w)
			w = r->v[i].verdict;
	return w;
}

const char *rd_verdict_name(enum rd_verdict v)
{
	static const char *const names[] = { "PASS", "UNKNOWN", "WARN",
					     "FAIL" };

	return (unsigned)v < 4 ? names[v] : "?";
}

const char *rd_layer_name(enum rd_layer l)
{
	static const char *const names[] = { "hw",     "driver", "user",
					     "netcfg", "port",   "host" };

	return (unsigned)l < RD_LAYER_COUNT ? names[l] : "?";
}

static int add_str(struct json_object *o, const char *k, const char *v)
{
	struct json_object *j = v ? json_object_new_string(v) : NULL;

	if (v && !j)
		return -ENOMEM;
	if (json_object_object_add(o, k, j) < 0) {
		json_object_put(j);
		return -ENOMEM;
	}
	return 0;
}

static int add_obj(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, k, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *fixup_to_json(const struct rd_fixup *f)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return NULL;
	r |= add_str(o, "id", f->id);
	r |= add_str(o, "command", f->command);
	r |= add_str(o, "impact", f->impact);
	r |= add_obj(o, "disruptive", json_object_new_boolean(f->disruptive));
	r |= add_obj(o, "undoable", json_object_new_boolean(f->undoable));
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *rd_result_to_json(const struct rd_result *res)
{
	struct json_object *o = json_object_new_object(), *a;
	int r = 0;

	if (!o)
		return NULL;
	r |= add_str(o, "check", res->check_id);
	r |= add_str(o, "title", res->title);
	r |= add_str(o, "layer", rd_layer_name(res->layer));
	r |= add_str(o, "device", res->device);
	if (res->port)
		r |= add_obj(o, "port", json_object_new_uint64(res->port));
	else
		r |= add_str(o, "port", NULL);
	r |= add_str(o, "netdev", res->netdev);
	r |= add_str(o, "verdict", rd_verdict_name(res->verdict));
	r |= add_str(o, "cause", res->cause);
	r |= add_str(o, "summary", res->summary);
	r |= add_str(o, "why", res->why);
	r |= add_str(o, "next_step", res->next_step);
	a = json_object_new_array();
	for (size_t i = 0; a && i < res->n_evidence; i++) {
		struct json_object *e = json_object_new_object();

		if (!e || add_str(e, "what", res->evidence[i].what) ||
		    add_str(e, "value", res->evidence[i].value) ||
		    add_str(e, "source", res->evidence[i].source) ||
		    json_object_array_add(a, e) < 0) {
			json_object_put(e);
			r = -ENOMEM;
			break;
		}
	}
	r |= add_obj(o, "evidence", a);
	a = json_object_new_array();
	for (size_t i = 0; a && i < res->n_path; i++) {
		struct json_object *e = json_object_new_object();

		if (!e || add_str(e, "step", res->path[i].text) ||
		    add_str(e, "verdict",
			    rd_verdict_name(res->path[i].verdict)) ||
		    json_object_array_add(a, e) < 0) {
			json_object_put(e);
			r = -ENOMEM;
			break;
		}
	}
	r |= add_obj(o, "path", a);
	if (res->fix)
		r |= add_obj(o, "fix", fixup_to_json(res->fix));
	else
		r |= add_str(o, "fix", NULL);
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *rd_results_to_json(const struct rd_results *r)
{
	struct json_object *a = json_object_new_array();

	if (!a)
		return NULL;
	for (size_t i = 0; i < r->n; i++) {
		struct json_object *o = rd_result_to_json(&r->v[i]);

		if (!o || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}
