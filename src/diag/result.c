// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What checks call to build their results: a result per target, its
 * verdict, evidence, steps, next step and fix-up, and the walk over the
 * targets a row keeps. A leaf under the check files: it names no check.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

static char *vfmt(const char *fmt, va_list ap)
{
	char *p = NULL;

	if (vasprintf(&p, fmt, ap) < 0)
		return NULL;
	return p;
}

void diag_result_clear(struct rd_result *r)
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
		diag_result_clear(&x->scratch);
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

static void set_str(struct diag_ctx *x, char **dst, const char *fmt, va_list ap)
{
	char *p = vfmt(fmt, ap);

	if (!p) {
		oom(x);
		return;
	}
	free(*dst);
	*dst = p;
}

static void verdict_v(struct diag_ctx *x, struct rd_result *r,
		      enum rd_verdict v, const char *cause, const char *fmt,
		      va_list ap)
{
	r->verdict = v;
	free(r->cause);
	r->cause = strdup(cause);
	if (!r->cause)
		oom(x);
	set_str(x, &r->summary, fmt, ap);
}

void diag_verdict(struct diag_ctx *x, struct rd_result *r, enum rd_verdict v,
		  const char *cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verdict_v(x, r, v, cause, fmt, ap);
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

/*
 * An evidence source names the file it was read from: the result's
 * target fills in <dev>, <n> (<p>), <netdev> and <bdf> (the device's PCI
 * address). A name the target does not have leaves no source at all
 * rather than a placeholder.
 */
static char *source_path(const struct diag_ctx *x, const struct rd_result *r,
			 const char *tmpl)
{
	static const char *const keys[] = { "<dev>", "<n>", "<p>", "<netdev>",
					    "<bdf>" };
	const struct rd_device *d =
		r->device && x->s ? rd_snapshot_device(x->s, r->device) : NULL;
	char port[24] = "", out[1024];
	const char *vals[] = { r->device, port, port, r->netdev,
			       d ? d->pci_bdf : NULL };
	size_t len = 0;

	if (r->port)
		snprintf(port, sizeof(port), "%" PRIu64, r->port);
	for (const char *p = tmpl; *p;) {
		const char *val = p;
		size_t klen = 1, vlen = 1;

		for (size_t k = 0;
		     *p == '<' && k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (strncmp(p, keys[k], strlen(keys[k])) != 0)
				continue;
			if (!vals[k] || !*vals[k])
				return strdup("");
			val = vals[k];
			klen = strlen(keys[k]);
			vlen = strlen(val);
			break;
		}
		if (len + vlen >= sizeof(out))
			return strdup("");
		memcpy(out + len, val, vlen);
		len += vlen;
		p += klen;
	}
	out[len] = '\0';
	return strdup(out);
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
	src = source_path(x, r, source ? source : "");
	e = value && w && src ? RD_PUSH(r->evidence, r->n_evidence) : NULL;
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
			  enum rd_fix_kind kind, const char *arg,
			  bool disruptive, bool undoable, const char *impact,
			  const char *fmt, ...)
{
	struct rd_fixup *f;
	va_list ap;

	/*
	 * From a container a fix-up would change the host's kernel (a
	 * module, a sysctl) or a link through a namespace: none is offered.
	 */
	if (diag_in_container(x->s)) {
		r->no_fix = "inside a container: modules, sysctls and links "
			    "are the host's; fix them on the host";
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		oom(x);
		return NULL;
	}
	va_start(ap, fmt);
	f->command = vfmt(fmt, ap);
	va_end(ap);
	f->id = strdup(r->check_id);
	f->impact = strdup(impact);
	f->arg = strdup(arg);
	if (r->device)
		f->device = strdup(r->device);
	if (!f->command || !f->id || !f->impact || !f->arg ||
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

bool diag_wants(const struct diag_ctx *x, const char *device, uint64_t port)
{
	if (!device)
		return true; /* host-wide results always apply */
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
			t->netdev = rd_port_netdev_name(x->s, d, p);
			t->n = t->netdev ? rd_snapshot_netdev(x->s, t->netdev)
					 : NULL;
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
		snprintf(t->name, sizeof(t->name), "%s",
			 d->name ? d->name : "?");
		t->netdev = NULL;
		t->n = NULL;
		return true;
	}
	return false;
}

/* The row's only: does the check judge this target at all? */
static bool walk_keeps(const struct rd_check *c, const struct diag_target *t)
{
	bool roce = t->p && rd_port_is_eth(t->p);

	/* A device is RoCE when one of its ports is. */
	for (size_t i = 0; !t->p && !roce && i < t->d->n_ports; i++)
		roce = rd_port_is_eth(&t->d->ports[i]);
	if ((c->only & RD_ONLY_HW) && diag_device_is_soft(t->d))
		return false;
	if ((c->only & RD_ONLY_ROCE) && !roce)
		return false;
	return !((c->only & RD_ONLY_IB) && roce);
}

/* Start the target's result as the row says, and have it judged. */
static void walk_one(struct diag_ctx *x, const struct diag_target *t)
{
	const struct rd_check *c = x->c;
	struct rd_result *r;

	r = diag_new(x, t->d ? t->d->name : NULL, t->p ? t->p->port : 0,
		     (c->only & RD_NAME_NETDEV) ? t->netdev : NULL);
	if ((c->only & RD_ONLY_ACTIVE) && t->p && !rd_port_active(t->p) &&
	    !((c->only & RD_STATE_UNREAD_OK) && !t->p->state_num.ok)) {
		/* An unread state is not a port known to be down. */
		if (!t->p->state_num.ok)
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: port state not read: see port.state",
				     t->name);
		else
			diag_verdict(x, r, RD_UNKNOWN, "port_not_active",
				     "%s not ACTIVE: see port.state", t->name);
		return;
	}
	if (c->why)
		diag_why(x, r, "%s", c->why);
	c->each(x, t, r);
}

void diag_walk(struct diag_ctx *x)
{
	const struct rd_check *c = x->c;
	struct diag_target t = { .name = "host" };

	if (c->walk == RD_WALK_HOST) {
		walk_one(x, &t);
		return;
	}
	while (c->walk == RD_WALK_PORT ? diag_next_port(x, &t)
				       : diag_next_device(x, &t))
		if (walk_keeps(c, &t))
			walk_one(x, &t);
}

bool diag_have(struct diag_ctx *x, struct rd_result *r, bool ok,
	       const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	va_start(ap, fmt);
	verdict_v(x, r, RD_UNKNOWN, "no_data", fmt, ap);
	va_end(ap);
	return false;
}

void rd_results_free(struct rd_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		diag_result_clear(&r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
