/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What happened to the ports, as a list of timed events: read back from
 * the flight recorder's store (rdmadiag record) or seen live by the
 * console's worker (rtnetlink link messages, verbs asynchronous events,
 * the RDMA netlink monitor). The checks read them as evidence of the past
 * (port.flaps); the Events screen shows them.
 *
 * Strings are raw, as read: escape them on every output path.
 */
#ifndef RD_CORE_EVENTS_H
#define RD_CORE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many are kept; the oldest go first. */
#define RD_EVENTS_MAX 4096

struct rd_event {
	double time;   /* seconds since the epoch */
	char *device;  /* RDMA device (may be NULL: host-wide) */
	uint64_t port; /* 0 = none */
	char *netdev;
	/*
	 * "link" (the port's state: "DOWN (was ACTIVE)"), "phys", "carrier"
	 * ("off (was on)"), "module", "light" (a lane's received light
	 * changing class: "lane 2 Rx dark, -40.00 dBm (was ok, -2.31 dBm)"),
	 * "health", "kernel", "check", as the
	 * recorder writes them; "verbs" (an asynchronous event: "port
	 * error"), "rdma" (the RDMA netlink monitor) from the live watch.
	 */
	char *kind;
	char *text;
	const char *source; /* static: "flight recorder", "rtnetlink", ... */
};

struct rd_events {
	struct rd_event *v; /* oldest first once sorted */
	size_t n;
	/* what was read, for the evidence: "/var/lib/rdmadiag/record" */
	char *from;
	double since; /* the span asked for starts here (epoch seconds); 0 */
};

/* Copies the strings; drops the oldest past RD_EVENTS_MAX. 0 or -ENOMEM. */
int rd_events_add(struct rd_events *ev, double time, const char *device,
		  uint64_t port, const char *netdev, const char *kind,
		  const char *text, const char *source);
/* Append every event of src (copied). 0 or -ENOMEM. */
int rd_events_merge(struct rd_events *dst, const struct rd_events *src);
/* Oldest first; equal times keep their order. */
void rd_events_sort(struct rd_events *ev);
void rd_events_free(struct rd_events *ev);

/*
 * Is the event the port going down (the port's state leaving ACTIVE, the
 * carrier lost, a verbs port error)? rd_event_up: coming back (ACTIVE,
 * carrier on, port active).
 */
bool rd_event_down(const struct rd_event *e);
bool rd_event_up(const struct rd_event *e);
/* Is it about this port (device and port; netdev when it has no device)? */
bool rd_event_about(const struct rd_event *e, const char *device, uint64_t port,
		    const char *netdev);

/*
 * The downs of one port among ev at or after since, counted once each:
 * where the port's own state ("link", "verbs") was seen, a carrier loss
 * is the same down seen twice and is not counted again. Fills at most
 * max times (oldest first) and returns how many there were.
 */
size_t rd_events_downs(const struct rd_events *ev, const char *device,
		       uint64_t port, const char *netdev, double since,
		       double *times, size_t max);

#endif
