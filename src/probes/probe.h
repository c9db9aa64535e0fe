/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe contract: a probe reads one source of truth and fills its part
 * of the snapshot. It never prints and never aborts the snapshot: what it
 * cannot read stays absent and is added to s->errors.
 */
#ifndef RD_PROBES_PROBE_H
#define RD_PROBES_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/roots.h"
#include "core/snapshot.h"

/* Each probe's row in rd_probes[], and its kept state's index. */
enum rd_probe_id {
	RD_PROBE_IB_SYSFS,
	RD_PROBE_RDMA_NL,
	RD_PROBE_NETDEV,
	RD_PROBE_ETHTOOL,
	RD_PROBE_XCVR,
	RD_PROBE_DCB,
	RD_PROBE_PCI,
	RD_PROBE_TOPO,
	RD_PROBE_VIRT,
	RD_PROBE_NETNS,
	RD_PROBE_DEVLINK,
	RD_PROBE_KMOD,
	RD_PROBE_HOST,
	RD_PROBE_ECN,
	RD_PROBE_VERBS,
	RD_PROBE_KMSG,
	RD_PROBE_COUNT
};

/*
 * State kept between refreshes (open files, sockets, static data) so the
 * console's steady state is cheap: one opaque block per probe, indexed by
 * its row in rd_probes[], allocated on first use.
 */
struct rd_probe_cache {
	void *state[RD_PROBE_COUNT];
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

/*
 * True when a reading a probe kept (have), made at tick, may be served
 * again: it is less than every refreshes old and no fresh one was asked.
 */
static inline bool rd_probe_cache_fresh(const struct rd_probe_ctx *ctx,
					uint64_t tick, bool have,
					uint64_t every)
{
	return have && !(ctx->flags & RD_PROBE_FRESH) && ctx->tick >= tick &&
	       ctx->tick - tick < every;
}

/*
 * What a probe needs before it can read anything; without it the probe is
 * not run (nothing recorded: its part of the snapshot stays absent).
 */
enum rd_probe_needs {
	RD_NEEDS_NETLINK = 1u << 0, /* a context without RD_PROBE_NO_NETLINK */
	RD_NEEDS_VERBS = 1u << 1,   /* a context without RD_PROBE_NO_VERBS */
	RD_NEEDS_DEVICES = 1u << 2, /* an RDMA device found by earlier rows */
	RD_NEEDS_NETDEVS = 1u << 3, /* a netdev found by earlier rows */
};

/*
 * A probe's collect gets its kept state (NULL for a probe that keeps
 * nothing): the block kept in ctx->cache, allocated and initialised on
 * first use, or, for a one-shot ctx, a fresh one released after the call.
 */
struct rd_probe {
	const char *name;
	unsigned needs;			/* enum rd_probe_needs */
	int (*collect)(const struct rd_probe_ctx *ctx, void *state,
		       struct rd_snapshot *s);
	size_t state_size;		/* 0: keeps nothing between refreshes */
	void (*state_init)(void *state);	/* optional, after zeroing */
	void (*state_clear)(void *state);	/* releases what it holds */
};

/* A probe's row: its needs, its kept state's type and init/clear (NULL: none).
 */
#define RD_PROBE_ROW(name, needs, collect, type, init, clear)                  \
	{                                                                      \
		name, needs, collect, sizeof(type), init, clear                \
	}
#define RD_PROBE_ROW_STATELESS(name, needs, collect)                           \
	{                                                                      \
		name, needs, collect, 0, NULL, NULL                            \
	}

/*
 * The probe table, in the order probes run: each probe file defines its
 * row (const struct rd_probe probe_X) and this table points at it.
 */
extern const struct rd_probe *const rd_probes[RD_PROBE_COUNT];

/* Run every probe in table order; stamps the time. Returns 0 or -errno
 * only when no snapshot could be taken at all (e.g. sysfs root missing). */
int rd_probe_all(const struct rd_probe_ctx *ctx, struct rd_snapshot *s);

/*
 * Take one snapshot, the way every command and the console do: s is
 * initialised here and left empty on failure. cache: kept state of a
 * repeating caller (NULL: one shot); tick: its refresh number; flags:
 * extra RD_PROBE_* flags. Under a redirected root (fixtures, a copied
 * tree) only files are read: no netlink, no libibverbs. Returns 0, or
 * -errno from rd_probe_all.
 */
int rd_snapshot_take(const struct rd_roots *roots,
		     struct rd_probe_cache *cache, uint64_t tick,
		     unsigned flags, struct rd_snapshot *s);

/*
 * Run the probe of row id as rd_probe_all does: not at all when what it
 * needs is missing (0), else its collect with its state. Returns what
 * collect returns, or -ENOMEM when there is no memory for its state.
 */
int rd_probe_run(const struct rd_probe_ctx *ctx, enum rd_probe_id id,
		 struct rd_snapshot *s);

struct rd_probe_cache *rd_probe_cache_new(void);
void rd_probe_cache_free(struct rd_probe_cache *cache);

#endif
