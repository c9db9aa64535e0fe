// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe table: every source of truth, in the order they run. */
#include "config.h"
#include "probes/probe.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "probes/dcb.h"
#include "probes/ethtool.h"
#include "probes/ib_sysfs.h"
#include "probes/ecn.h"
#include "probes/host.h"
#include "probes/kmod.h"
#include "probes/pci.h"
#include "probes/verbs.h"
#include "probes/netdev.h"
#include "probes/rdma_nl.h"
#ifdef RD_TEST_PROBES
#include "probes/test_slow.h"
#endif

const struct rd_probe rd_probes[] = {
	{ "ib_sysfs", probe_ib_sysfs_collect, probe_ib_sysfs_cache_free },
	{ "rdma_nl", probe_rdma_nl_collect, probe_rdma_nl_cache_free },
	{ "netdev", probe_netdev_collect, probe_netdev_cache_free },
	{ "ethtool", probe_ethtool_collect, probe_ethtool_cache_free },
	{ "dcb", probe_dcb_collect, probe_dcb_cache_free },
	/* Files and libraries; after netlink so netdevs already exist. */
	{ "pci", probe_pci_collect, probe_pci_cache_free },
	{ "kmod", probe_kmod_collect, probe_kmod_cache_free },
	{ "host", probe_host_collect, NULL },
	{ "ecn", probe_ecn_collect, NULL },
	{ "verbs", probe_verbs_collect, probe_verbs_cache_free },
#ifdef RD_TEST_PROBES
	{ "test_slow", probe_test_slow_collect, NULL },
#endif
	{ NULL, NULL, NULL },
};

struct rd_probe_cache *rd_probe_cache_new(void)
{
	return calloc(1, sizeof(struct rd_probe_cache));
}

void rd_probe_cache_free(struct rd_probe_cache *cache)
{
	if (!cache)
		return;
	for (const struct rd_probe *p = rd_probes; p->name; p++)
		if (p->cache_free)
			p->cache_free(cache);
	free(cache);
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
	for (const struct rd_probe *p = rd_probes; p->name; p++) {
		int r = p->collect(ctx, s);

		if (r < 0)
			rd_snapshot_error(s, p->name, NULL, r,
					  "probe failed");
	}
	return 0;
}
