// SPDX-License-Identifier: GPL-2.0-or-later
/* The host around the NICs: memlock, hugepages, NUMA, containers, buffers. */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MIB ((uint64_t)1024 * 1024)

static void human_bytes(uint64_t b, char *buf, size_t len)
{
	if (b >= MIB && b % MIB == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", b / MIB);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", b / 1024);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", b);
}

void check_host_memlock(struct diag_ctx *x, const struct diag_target *t,
			struct rd_result *r)
{
	const struct rd_host *hs = &x->s->host;
	char soft[32] = "", hard[32] = "";
	bool cap = hs->cap_ipc_lock.ok && hs->cap_ipc_lock.v;

	(void)t;
	if (hs->memlock_unlimited.ok && hs->memlock_unlimited.v)
		diag_ev(x, r, "RLIMIT_MEMLOCK", "getrlimit", "unlimited");
	if (hs->memlock_soft.ok) {
		human_bytes(hs->memlock_soft.v, soft, sizeof(soft));
		diag_ev(x, r, "RLIMIT_MEMLOCK soft", "getrlimit", "%s", soft);
	}
	if (hs->memlock_hard.ok) {
		human_bytes(hs->memlock_hard.v, hard, sizeof(hard));
		diag_ev(x, r, "RLIMIT_MEMLOCK hard", "getrlimit", "%s", hard);
	}
	if (hs->cap_ipc_lock.ok)
		diag_ev(x, r, "CAP_IPC_LOCK", "capget (effective)", "%s",
			hs->cap_ipc_lock.v ? "yes" : "no");
	for (size_t i = 0; i < hs->n_limits; i++) {
		const struct rd_limit_line *l = &hs->limits[i];

		diag_ev(x, r, "limits.conf", l->file ? l->file : "?",
			"line %" PRIu64 ": %s %s %s %s", l->line.v,
			l->domain ? l->domain : "", l->type ? l->type : "",
			l->item ? l->item : "", l->value ? l->value : "");
	}
	diag_next(x, r,
		  "raise it for the service user: '* - memlock unlimited' in "
		  "/etc/security/limits.d/rdma.conf, or LimitMEMLOCK=infinity "
		  "for a systemd unit, then log in again");
	if (hs->memlock_unlimited.ok && hs->memlock_unlimited.v) {
		diag_verdict(x, r, RD_PASS, "ok", "memlock unlimited");
	} else if (!hs->memlock_soft.ok) {
		if (cap)
			diag_verdict(x, r, RD_PASS, "ok",
				     "CAP_IPC_LOCK: locked memory not limited");
		else
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "memlock limit not read");
	} else if (hs->memlock_soft.v >= 64 * MIB) {
		diag_verdict(x, r, RD_PASS, "ok", "memlock %s", soft);
	} else if (cap) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "memlock %s, but CAP_IPC_LOCK lifts it for this process (programs without it are limited)",
			     soft);
	} else if (hs->memlock_soft.v >= 8 * MIB) {
		diag_verdict(x, r, RD_WARN, "memlock_low",
			     "memlock %s: large registrations will fail (want unlimited or >= 64 MiB)",
			     soft);
	} else {
		diag_verdict(x, r, RD_FAIL, "memlock_low",
			     "memlock %s: ibv_reg_mr will fail with EPERM/ENOMEM",
			     soft);
	}
}

void check_host_hugepages(struct diag_ctx *x, const struct diag_target *t,
			  struct rd_result *r)
{
	const struct rd_host *hs = &x->s->host;

	(void)t;
	if (!diag_have(x, r, hs->hugepages_total.ok && hs->hugepages_free.ok,
		       "/proc/meminfo HugePages not read"))
		return;
	diag_ev(x, r, "HugePages_Total", "/proc/meminfo", "%" PRIu64,
		hs->hugepages_total.v);
	diag_ev(x, r, "HugePages_Free", "/proc/meminfo", "%" PRIu64,
		hs->hugepages_free.v);
	if (hs->hugepage_kb.ok)
		diag_ev(x, r, "Hugepagesize", "/proc/meminfo", "%" PRIu64 " kB",
			hs->hugepage_kb.v);
	if (x->o->hugepages_wanted) {
		uint64_t w = x->o->hugepages_wanted;

		if (hs->hugepages_free.v >= w) {
			diag_verdict(x, r, RD_PASS, "ok",
				     "%" PRIu64 " huge pages free (%" PRIu64 " wanted)",
				     hs->hugepages_free.v, w);
		} else {
			uint64_t n = hs->hugepages_total.v +
				     (w - hs->hugepages_free.v);

			diag_verdict(x, r, RD_WARN, "hugepages_low",
				     "%" PRIu64 " huge pages free, %" PRIu64 " wanted",
				     hs->hugepages_free.v, w);
			diag_next(x, r,
				  "reserve more (early after boot, memory fragments later)");
			struct rd_fixup *f = diag_fix(
				x, r, RD_FIX_SYSCTL, "/proc/sys/vm/nr_hugepages",
				false, true,
				"reserves memory for huge pages; it is taken from the page cache and free memory",
				"sysctl -w vm.nr_hugepages=%" PRIu64, n);

			if (f)
				f->value = n;
		}
	} else if (hs->hugepages_total.v > 0) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%" PRIu64 " huge pages reserved, %" PRIu64 " free",
			     hs->hugepages_total.v, hs->hugepages_free.v);
	} else {
		diag_verdict(x, r, RD_WARN, "no_hugepages",
			     "no huge pages reserved");
		diag_next(x, r,
			  "if the application uses them: sysctl -w vm.nr_hugepages=N "
			  "(rdmadiag check --hugepages N to check a count)");
	}
}

static bool cpuset_subset(const uint64_t *a, const uint64_t *b)
{
	for (int i = 0; i < 16; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

void check_host_numa(struct diag_ctx *x, const struct diag_target *t,
		     struct rd_result *r)
{
	const struct rd_host *hs = &x->s->host;
	const struct rd_device *d = t->d;
	const struct rd_pci *p = d->pci_bdf ? rd_snapshot_pci(x->s, d->pci_bdf) :
					      NULL;
	uint64_t aff[16], local[16];
	int64_t node;

	if (hs->numa_nodes.ok)
		diag_ev(x, r, "NUMA nodes", "/sys/devices/system/node",
			"%" PRIu64, hs->numa_nodes.v);
	if (hs->numa_nodes.ok && hs->numa_nodes.v <= 1) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: single NUMA node host", d->name);
		return;
	}
	if (!d->pci_bdf) {
		diag_verdict(x, r, diag_device_is_soft(d) ? RD_PASS : RD_UNKNOWN,
			     diag_device_is_soft(d) ? "not_applicable" : "no_data",
			     "%s: no PCI function, no NUMA node", d->name);
		return;
	}
	if (!diag_have(x, r, p && p->numa_node.ok,
		       "%s: NUMA node of %s not read", d->name, d->pci_bdf))
		return;
	node = p->numa_node.v;
	diag_ev(x, r, "NIC NUMA node", "/sys/bus/pci/devices/<bdf>/numa_node",
		"%" PRId64, node);
	if (p->local_cpulist)
		diag_ev(x, r, "NIC local CPUs",
			"/sys/bus/pci/devices/<bdf>/local_cpulist", "%s",
			p->local_cpulist);
	if (hs->cpu_affinity)
		diag_ev(x, r, "this process's CPUs", "sched_getaffinity",
			"%s", hs->cpu_affinity);
	if (hs->mempolicy)
		diag_ev(x, r, "memory policy", "get_mempolicy", "%s",
			hs->mempolicy);
	/* Several nodes (or their count not read): which node's CPUs and
	 * memory are near the NIC is not known. */
	if (node < 0) {
		diag_have(x, r, false,
			  "%s: firmware reports no NUMA node (-1)%s: which "
			  "CPUs and memory are near it is not known",
			  d->name,
			  hs->numa_nodes.ok ? " on a host of several nodes"
					    : "");
		diag_next(x, r,
			  "common for a NIC passed into a VM; on bare metal "
			  "the BIOS's ACPI tables (SRAT, _PXM) omit it");
		return;
	}
	diag_next(x, r, "run the workload with numactl -N %" PRId64
		  " -m %" PRId64, node, node);
	if (x->o->numa_node_wanted >= 0) {
		if (x->o->numa_node_wanted == node)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s is on node %" PRId64 " as planned",
				     d->name, node);
		else
			diag_verdict(x, r, RD_WARN, "numa_remote",
				     "%s is on node %" PRId64 ", the workload is planned for node %d",
				     d->name, node, x->o->numa_node_wanted);
		return;
	}
	if (!diag_have(x, r,
		       hs->cpu_affinity && p->local_cpulist &&
			       diag_cpulist_parse(hs->cpu_affinity, aff) == 0 &&
			       diag_cpulist_parse(p->local_cpulist, local) == 0,
		       "%s on node %" PRId64 ": CPU affinity not read", d->name,
		       node))
		return;
	if (cpuset_subset(aff, local))
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: running on its node %" PRId64, d->name,
			     node);
	else
		diag_verdict(x, r, RD_WARN, "numa_unbound",
			     "%s is on node %" PRId64 " but this process may run on other nodes",
			     d->name, node);
}

void check_host_container(struct diag_ctx *x, const struct diag_target *t,
			  struct rd_result *r)
{
	const struct rd_snapshot *s = x->s;
	const struct rd_host *hs = &s->host;
	size_t uverbs = 0, uverbs_ok = 0;
	const char *cm_bad = NULL;
	bool bad_node;

	(void)t;
	if (!diag_have(x, r, hs->container != NULL,
		       "container detection not read"))
		return;
	diag_ev(x, r, "container", "/proc/1/environ, /.dockerenv, cgroup",
		"%s", hs->container);
	if (strcmp(hs->container, "none") == 0) {
		diag_verdict(x, r, RD_PASS, "ok", "not in a container");
		return;
	}
	for (size_t i = 0; i < hs->n_devnodes; i++) {
		const struct rd_devnode *n = &hs->devnodes[i];
		bool ok;

		if (!n->path || !n->exists.ok)
			continue;
		diag_ev(x, r, "device node", n->path, "%s%s",
			n->exists.v ? "present" : "missing",
			n->exists.v && n->readable.ok && n->writable.ok &&
					!(n->readable.v && n->writable.v) ?
				", not accessible" : "");
		ok = n->exists.v && !rd_devnode_denied(n);
		/* A pod is often given some of the host's devices only. */
		if (strstr(n->path, "/uverbs")) {
			uverbs++;
			uverbs_ok += ok;
		} else if (strstr(n->path, "/rdma_cm") && !ok) {
			cm_bad = n->path;
		}
	}
	bad_node = uverbs > 0 && uverbs_ok == 0;
	/* Devices, yet no node looked at: /dev was not read. */
	if (!bad_node &&
	    !diag_have(x, r, s->n_devices == 0 || hs->n_devnodes > 0,
		       "in a %s container; its /dev/infiniband nodes not checked",
		       hs->container))
		return;
	if (bad_node) {
		diag_verdict(x, r, RD_FAIL, "container_no_devices",
			     "in a %s container without usable /dev/infiniband",
			     hs->container);
		diag_next(x, r,
			  "start the container with --device=/dev/infiniband (or the "
			  "rdma device plugin) and --cap-add=IPC_LOCK");
	} else if (cm_bad && s->n_devices > 0) {
		diag_verdict(x, r, RD_WARN, "container_no_rdma_cm",
			     "in a %s container without a usable %s: programs "
			     "that connect through rdma_cm (perftest -R, "
			     "UCX, MPI) fail; plain verbs work",
			     hs->container, cm_bad);
		diag_next(x, r,
			  "pass /dev/infiniband/rdma_cm into the container as "
			  "well (the RDMA device plugin does)");
	} else if (s->n_devices == 0) {
		/*
		 * Nothing RDMA can be used or fixed from in here: a FAIL,
		 * the first finding. An overlay root alone may be a host.
		 */
		diag_verdict(x, r, diag_in_container(s) ? RD_FAIL : RD_WARN,
			     "container_no_devices",
			     "in a %s container that sees no RDMA device",
			     hs->container);
		diag_next(x, r,
			  "pass /dev/infiniband and the netdev into the "
			  "container (--device=/dev/infiniband or the RDMA "
			  "device plugin, and the NIC's netdev or an SR-IOV "
			  "VF through its CNI); check on the host");
	} else if (hs->cap_ipc_lock.ok && !hs->cap_ipc_lock.v &&
		   !(hs->memlock_unlimited.ok && hs->memlock_unlimited.v) &&
		   !(hs->memlock_soft.ok && hs->memlock_soft.v >= 64 * MIB)) {
		diag_verdict(x, r, RD_WARN, "container_no_ipc_lock",
			     "in a %s container without CAP_IPC_LOCK; see host.memlock",
			     hs->container);
		diag_next(x, r, "add --cap-add=IPC_LOCK or --ulimit memlock=-1");
	} else if (uverbs_ok < uverbs) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "in a %s container with %zu of the %zu RDMA "
			     "devices it sees passed in; the others have no "
			     "usable node here (see user.uverbs)",
			     hs->container, uverbs_ok, uverbs);
	} else {
		diag_verdict(x, r, RD_PASS, "ok",
			     "in a %s container with RDMA devices passed in",
			     hs->container);
	}
}

void check_host_udp_buffers(struct diag_ctx *x, const struct diag_target *t,
			    struct rd_result *r)
{
	const struct rd_host *hs = &x->s->host;

	(void)t;
	if (!diag_have(x, r, hs->rmem_default.ok || hs->rmem_max.ok,
		       "net.core.rmem_* not read"))
		return;
	if (hs->rmem_default.ok)
		diag_ev(x, r, "net.core.rmem_default",
			"/proc/sys/net/core/rmem_default", "%" PRIu64,
			hs->rmem_default.v);
	if (hs->rmem_max.ok)
		diag_ev(x, r, "net.core.rmem_max", "/proc/sys/net/core/rmem_max",
			"%" PRIu64, hs->rmem_max.v);
	diag_verdict(x, r, RD_PASS, "info",
		     "socket buffers do not affect hardware RoCE (information)");
}
