/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe contract: a probe reads one source of truth and fills its part
 * of the snapshot. It never prints and never aborts the snapshot: what it
 * cannot read stays absent and is added to s->errors.
 */
#ifndef RD_PROBES_PROBE_H
#define RD_PROBES_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/roots.h"
#include "core/snapshot.h"

/*
 * State kept between refreshes (open files, sockets, static data) so the
 * console's steady state is cheap. Each probe owns its own member.
 */
/* Each probe's own index into rd_probe_cache.slot[]. */
enum rd_probe_slot {
	RD_SLOT_RDMA_NL = 0,
	RD_SLOT_NETDEV = 1,
	RD_SLOT_ETHTOOL = 2,
	RD_SLOT_DCB = 3,
	RD_SLOT_PCI = 4,
	RD_SLOT_VERBS = 5,
	RD_SLOT_KMOD = 6,
	RD_SLOT_COUNT
};

struct rd_ib_sysfs_cache;
struct rd_probe_cache {
	struct rd_ib_sysfs_cache *ib_sysfs;
	void *slot[RD_SLOT_COUNT];	/* one per probe, by enum rd_probe_slot */
};

enum rd_probe_flags {
	RD_PROBE_NO_VERBS = 1u << 0,	/* do not open devices with libibverbs */
	RD_PROBE_NO_NETLINK = 1u << 1,	/* only files: fixtures, tests */
	/*
	 * Re-read what a kept cache would serve from memory (static data
	 * read every few refreshes): after a fix-up, or when asked.
	 */
	RD_PROBE_FRESH = 1u << 2,
};

struct rd_probe_ctx {
	const struct rd_roots *roots;
	struct rd_probe_cache *cache;	/* NULL: one-shot, nothing kept */
	unsigned flags;
	uint64_t tick;			/* refresh number, 0 for the first */
};

/* Static data a kept cache re-reads only this often, in refreshes. */
#define RD_PROBE_STATIC_EVERY 10

/* True when a probe with a kept cache made at tick may serve it again. */
static inline bool rd_probe_cache_fresh(const struct rd_probe_ctx *ctx,
					uint64_t tick, bool have)
{
	return have && !(ctx->flags & RD_PROBE_FRESH) && ctx->tick >= tick &&
	       ctx->tick - tick < RD_PROBE_STATIC_EVERY;
}

struct rd_probe {
	const char *name;
	int (*collect)(const struct rd_probe_ctx *ctx, struct rd_snapshot *s);
	void (*cache_free)(struct rd_probe_cache *cache);
};

extern const struct rd_probe rd_probes[];

/* Run every probe in table order; stamps the time. Returns 0 or -errno
 * only when no snapshot could be taken at all (e.g. sysfs root missing). */
int rd_probe_all(const struct rd_probe_ctx *ctx, struct rd_snapshot *s);

struct rd_probe_cache *rd_probe_cache_new(void);
void rd_probe_cache_free(struct rd_probe_cache *cache);

#endif
