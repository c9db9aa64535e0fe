// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe table: every source of truth, in the order they run. */
#include "config.h"
#include "probes/probe.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "probes/dcb.h"
#include "probes/devlink.h"
#include "probes/ethtool.h"
#include "probes/xcvr.h"
#include "probes/ib_sysfs.h"
#include "probes/ecn.h"
#include "probes/host.h"
#include "probes/kmod.h"
#include "probes/kmsg.h"
#include "probes/pci.h"
#include "probes/topo.h"
#include "probes/virt.h"
#include "probes/netns.h"
#include "probes/verbs.h"
#include "probes/netdev.h"
#include "probes/rdma_nl.h"
#ifdef RD_TEST_PROBES
#include "probes/test_slow.h"
#endif

const struct rd_probe *const rd_probes[RD_PROBE_COUNT] = {
	[RD_PROBE_IB_SYSFS] = &probe_ib_sysfs,
	[RD_PROBE_RDMA_NL] = &probe_rdma_nl,
	[RD_PROBE_NETDEV] = &probe_netdev,
	[RD_PROBE_ETHTOOL] = &probe_ethtool,
	[RD_PROBE_XCVR] = &probe_xcvr,
	[RD_PROBE_DCB] = &probe_dcb,
	/* Files and libraries; after netlink so netdevs already exist. */
	[RD_PROBE_PCI] = &probe_pci,
	/* After pci: the NIC functions it found are the tree's leaves. */
	[RD_PROBE_TOPO] = &probe_topo,
	/* After pci and netdev: VFs of their functions, bonds of netdevs. */
	[RD_PROBE_VIRT] = &probe_virt,
	/* After rdma_nl: only in exclusive mode, other namespaces. */
	[RD_PROBE_NETNS] = &probe_netns,
	[RD_PROBE_DEVLINK] = &probe_devlink,
	[RD_PROBE_KMOD] = &probe_kmod,
	[RD_PROBE_HOST] = &probe_host,
	[RD_PROBE_ECN] = &probe_ecn,
	[RD_PROBE_VERBS] = &probe_verbs,
	/* Last: ties records to the devices, netdevs and functions found. */
	[RD_PROBE_KMSG] = &probe_kmsg,
};

struct rd_probe_cache *rd_probe_cache_new(void)
{
	return calloc(1, sizeof(struct rd_probe_cache));
}

void rd_probe_cache_free(struct rd_probe_cache *cache)
{
	if (!cache)
		return;
	for (size_t i = 0; i < RD_PROBE_COUNT; i++) {
		if (cache->state[i] && rd_probes[i]->state_clear)
			rd_probes[i]->state_clear(cache->state[i]);
		free(cache->state[i]);
	}
	free(cache);
}

static void *state_new(const struct rd_probe *p)
{
	void *state = calloc(1, p->state_size);

	if (state && p->state_init)
		p->state_init(state);
	return state;
}

static bool needs_met(unsigned needs, const struct rd_probe_ctx *ctx,
		      const struct rd_snapshot *s)
{
	if ((needs & RD_NEEDS_NETLINK) && (ctx->flags & RD_PROBE_NO_NETLINK))
		return false;
	if ((needs & RD_NEEDS_VERBS) && (ctx->flags & RD_PROBE_NO_VERBS))
		return false;
	if ((needs & RD_NEEDS_DEVICES) && s->n_devices == 0)
		return false;
	return !((needs & RD_NEEDS_NETDEVS) && s->n_netdevs == 0);
}

int rd_probe_run(const struct rd_probe_ctx *ctx, enum rd_probe_id id,
		 struct rd_snapshot *s)
{
	const struct rd_probe *p = rd_probes[id];
	void *state = NULL;
	int r;

	if (!needs_met(p->needs, ctx, s))
		return 0;
	if (p->state_size) {
		void **kept = ctx->cache ? &ctx->cache->state[id] : &state;

		if (!*kept)
			*kept = state_new(p);
		if (!*kept)
			return -ENOMEM;
		state = *kept;
	}
	r = p->collect(ctx, state, s);
	if (!ctx->cache && state) {
		if (p->state_clear)
			p->state_clear(state);
		free(state);
	}
	return r;
}

int rd_probe_all(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	struct timespec rt, mono;
	struct stat st;

	if (stat(ctx->roots->sysfs, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	s->time = rd_dbl((double)rt.tv_sec + (double)rt.tv_nsec / 1e9);
	s->monotonic_ns =
		rd_u64((uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec);
	if (!s->source)
		s->source = rd_strdup(ctx->roots->redirected ? ctx->roots->sysfs :
							       "live");
	for (size_t i = 0; i < RD_PROBE_COUNT; i++) {
		int r = rd_probe_run(ctx, (enum rd_probe_id)i, s);

		if (r < 0)
			rd_snapshot_error(s, rd_probes[i]->name, NULL, r,
					  "probe failed");
	}
#ifdef RD_TEST_PROBES
	/* Test builds only: a source that waits as a stuck driver would. */
	probe_test_slow_collect(ctx, s);
#endif
	return 0;
}

int rd_snapshot_take(const struct rd_roots *roots,
		     struct rd_probe_cache *cache, uint64_t tick,
		     unsigned flags, struct rd_snapshot *s)
{
	struct rd_probe_ctx ctx = {
		.roots = roots, .cache = cache, .flags = flags, .tick = tick,
	};
	int r;

	if (roots->redirected)
		ctx.flags |= RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
	rd_snapshot_init(s);
	r = rd_probe_all(&ctx, s);
	if (r < 0)
		rd_snapshot_free(s);
	return r;
}
