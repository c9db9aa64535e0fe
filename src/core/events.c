// SPDX-License-Identifier: GPL-2.0-or-later
/* Timed events about the ports: the recorder's store and the live watch. */
#include "config.h"
#include "core/events.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

static void event_free(struct rd_event *e)
{
	free(e->device);
	free(e->netdev);
	free(e->kind);
	free(e->text);
}

int rd_events_add(struct rd_events *ev, double time, const char *device,
		  uint64_t port, const char *netdev, const char *kind,
		  const char *text, const char *source)
{
	struct rd_event e = { .time = time, .port = port, .source = source };
	bool fail = false;

	e.device = dup_or_null(device, &fail);
	e.netdev = dup_or_null(netdev, &fail);
	e.kind = dup_or_null(kind ? kind : "?", &fail);
	e.text = dup_or_null(text ? text : "", &fail);
	if (fail) {
		event_free(&e);
		return -ENOMEM;
	}
	if (ev->n == RD_EVENTS_MAX) {
		event_free(&ev->v[0]);
		memmove(ev->v, ev->v + 1, (ev->n - 1) * sizeof(*ev->v));
		ev->n--;
	}
	if ((ev->n & (ev->n - 1)) == 0) {
		/* at 0, 1, 2, 4, ...: room for twice as many */
		struct rd_event *v =
			realloc(ev->v, (ev->n ? ev->n * 2 : 1) * sizeof(*v));

		if (!v) {
			event_free(&e);
			return -ENOMEM;
		}
		ev->v = v;
	}
	ev->v[ev->n++] = e;
	return 0;
}

int rd_events_merge(struct rd_events *dst, const struct rd_events *src)
{
	for (size_t i = 0; src && i < src->n; i++) {
		const struct rd_event *e = &src->v[i];
		int r = rd_events_add(dst, e->time, e->device, e->port,
				      e->netdev, e->kind, e->text, e->source);

		if (r < 0)
			return r;
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rd_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* qsort is not stable: the order they were added in decides */
	return x < y ? -1 : x > y;
}

void rd_events_sort(struct rd_events *ev)
{
	if (ev->n > 1)
		qsort(ev->v, ev->n, sizeof(*ev->v), by_time);
}

void rd_events_free(struct rd_events *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		event_free(&ev->v[i]);
	free(ev->v);
	free(ev->from);
	memset(ev, 0, sizeof(*ev));
}

static bool kind_is(const struct rd_event *e, const char *k)
{
	return e->kind && strcmp(e->kind, k) == 0;
}

static bool starts(const char *s, const char *p)
{
	return s && strncmp(s, p, strlen(p)) == 0;
}

/* The recorder's first row of a port is where it starts, not a change. */
static bool initial(const struct rd_event *e)
{
	return e->text && strstr(e->text, "(recording started)");
}

/* How each kind of event begins when the port went down, and came back. */
static const struct {
	const char *kind, *down, *up;
} edges[] = {
	{ "link", "DOWN", "ACTIVE" },
	{ "carrier", "off", "on" },
	{ "verbs", "port error", "port active" },
};

static bool edge(const struct rd_event *e, bool down)
{
	if (initial(e))
		return false;
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		if (kind_is(e, edges[i].kind))
			return starts(e->text,
				      down ? edges[i].down : edges[i].up);
	return false;
}

bool rd_event_down(const struct rd_event *e)
{
	return edge(e, true);
}

bool rd_event_up(const struct rd_event *e)
{
	return edge(e, false);
}

bool rd_event_about(const struct rd_event *e, const char *device, uint64_t port,
		    const char *netdev)
{
	if (e->device && device)
		return strcmp(e->device, device) == 0 &&
		       (!port || !e->port || e->port == port);
	return !e->device && e->netdev && netdev &&
	       strcmp(e->netdev, netdev) == 0;
}

size_t rd_events_downs(const struct rd_events *ev, const char *device,
		       uint64_t port, const char *netdev, double since,
		       double *times, size_t max)
{
	/* the port's own state first, then the verbs event, then carrier */
	static const char *const kinds[] = { "link", "verbs", "carrier" };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t n = 0;

		for (size_t i = 0; ev && i < ev->n; i++) {
			const struct rd_event *e = &ev->v[i];

			if (e->time < since || !kind_is(e, kinds[k]) ||
			    !rd_event_about(e, device, port, netdev) ||
			    !rd_event_down(e))
				continue;
			if (n < max)
				times[n] = e->time;
			n++;
		}
		if (n)
			return n;
	}
	return 0;
}
