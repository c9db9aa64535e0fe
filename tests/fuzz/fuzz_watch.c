// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's live watch on arbitrary bytes: the first byte picks the
 * parser (0 rtnetlink link messages, 1 the RDMA netlink monitor, 2
 * SYS_GET's monitor mode), the rest is one datagram. Nothing may crash
 * or leak; every event made must be about a port of the snapshot or say
 * what it names, and what is printed of it (escaped, and the "since you
 * were last here" line) must be printable text.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "console/state.h"
#include "console/watch.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void host(struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = RD_PUSH(s->devices, s->n_devices);
	if (!d)
		abort();
	d->name = rd_strdup("rxe0");
	n = RD_PUSH(s->netdevs, s->n_netdevs);
	if (!n)
		abort();
	n->name = rd_strdup("veth0");
	n->ifindex = rd_u64(5);
	n->carrier = rd_bool(true);
	n->rdma_device = rd_strdup("rxe0");
	n->rdma_port = rd_u64(1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct con_watch w = { 0 };
	struct rd_events ev = { 0 };
	struct rd_snapshot s;
	void *copy;
	char line[512];
	int r = 0;

	if (size < 1)
		return 0;
	/* the datagram as recv() leaves it: aligned */
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	host(&s);
	switch (data[0] % 3) {
	case 0:
		r = con_watch_link_bytes(&w, copy, size - 1, &s, 1e9, &ev);
		for (size_t i = 0; i < ev.n; i++)
			if (!ev.v[i].device || strcmp(ev.v[i].device, "rxe0") ||
			    ev.v[i].port != 1)
				abort(); /* only the RDMA port's netdev */
		break;
	case 1:
		r = con_watch_rdma_bytes(copy, size - 1, 1e9, &ev);
		break;
	default:
		r = con_watch_rdma_monitor_mode(copy, size - 1);
		if (r > 1)
			abort();
		break;
	}
	(void)r; /* an error after some events: what came first is kept */
	for (size_t i = 0; i < ev.n; i++) {
		const struct rd_event *e = &ev.v[i];
		const char *f[] = { e->device, e->netdev, e->kind, e->text };

		for (size_t k = 0; k < 4; k++)
			if (f[k])
				fuzz_assert_text(rd_esc_tmp(f[k]),
						 strlen(rd_esc_tmp(f[k])));
	}
	con_past_summary(&ev, 1e9, 6, line, sizeof(line));
	fuzz_assert_text(line, strlen(line));
	rd_events_free(&ev);
	free(w.links);
	rd_snapshot_free(&s);
	free(copy);
	return 0;
}
