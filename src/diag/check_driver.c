// SPDX-License-Identifier: GPL-2.0-or-later
/* Driver and user-space layers: modules, OFED, CQ size, provider, uverbs. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void want_module(struct diag_ctx *x, struct rd_result *r,
			const char *name, bool essential, const char **fail,
			const char **warn)
{
	enum diag_mod m = diag_module(x->s, name);
	const struct rd_module *mod = rd_snapshot_module(x->s, name);

	diag_ev(x, r, name, "/sys/module", "%s%s%s",
		m == DIAG_MOD_LOADED ? "loaded" :
		m == DIAG_MOD_ABSENT ? "not loaded" : "unknown",
		mod && mod->version ? " version " : "",
		mod && mod->version ? mod->version : "");
	if (m != DIAG_MOD_ABSENT)
		return;
	if (essential && !*fail)
		*fail = name;
	else if (!essential && !*warn)
		*warn = name;
}

DIAG_CHECK(check_driver_modules)
{
	DIAG_CTX(x);
	struct rd_result *r = diag_new(&x, NULL, 0, NULL);
	const char *fail = NULL, *warn = NULL, *missing;
	bool soft = false;

	diag_why(&x, r,
		 "Verbs needs ib_core and ib_uverbs plus the vendor's RDMA "
		 "module (mlx5_core alone gives a netdev but no RDMA device); "
		 "rdma_cm programs also need rdma_ucm.");
	if (s->n_modules == 0) {
		diag_verdict(&x, r, RD_UNKNOWN, "no_data",
			     "module list not read (/sys/module)");
		return diag_done(&x);
	}
	want_module(&x, r, "ib_core", true, &fail, &warn);
	want_module(&x, r, "ib_uverbs", true, &fail, &warn);
	for (size_t i = 0; i < s->n_pci; i++) {
		const char *ib = diag_rdma_module_of(s->pci[i].driver);
		bool seen = false;

		/* Two ports of one NIC are two functions, one module. */
		for (size_t j = 0; ib && j < i; j++) {
			const char *e = diag_rdma_module_of(s->pci[j].driver);

			if (e && strcmp(e, ib) == 0)
				seen = true;
		}
		if (ib && !seen)
			want_module(&x, r, ib, true, &fail, &warn);
	}
	for (size_t i = 0; i < s->n_devices; i++)
		if (diag_device_is_soft(&s->devices[i]))
			soft = true;
	if (soft)
		want_module(&x, r, "rdma_rxe", false, &fail, &warn);
	want_module(&x, r, "rdma_cm", false, &fail, &warn);
	want_module(&x, r, "rdma_ucm", false, &fail, &warn);
	missing = fail ? fail : warn;
	if (!missing) {
		diag_verdict(&x, r, RD_PASS, "ok", "RDMA modules loaded");
		return diag_done(&x);
	}
	if (fail)
		diag_verdict(&x, r, RD_FAIL, "module_missing",
			     "%s is not loaded", fail);
	else
		diag_verdict(&x, r, RD_WARN, "module_missing",
			     "%s is not loaded: rdma_cm programs will fail", warn);
	diag_next(&x, r, "load %s and check dmesg for errors", missing);
	struct rd_fixup *f = diag_fix(&x, r, RD_FIX_MODPROBE, false, false,
				      "loads a kernel module; nothing stops",
				      "modprobe %s", rd_shquote_tmp(missing));
	if (f && !(f->arg = strdup(missing)))
		x.err = -ENOMEM;
	return diag_done(&x);
}

DIAG_CHECK(check_driver_ofed)
{
	DIAG_CTX(x);
	struct rd_result *r = diag_new(&x, NULL, 0, NULL);
	enum diag_mod compat = diag_module(s, "mlx_compat");
	bool ofed;

	diag_why(&x, r,
		 "MLNX_OFED replaces the inbox modules (mlx_compat is its "
		 "marker); a mix of OFED and inbox modules keeps ports down.");
	if (s->host.mlnx_ofed.ok)
		ofed = s->host.mlnx_ofed.v;
	else if (compat != DIAG_MOD_UNKNOWN)
		ofed = compat == DIAG_MOD_LOADED;
	else {
		diag_verdict(&x, r, RD_UNKNOWN, "no_data",
			     "module list not read (/sys/module)");
		return diag_done(&x);
	}
	diag_ev(&x, r, "mlx_compat", "/sys/module/mlx_compat", "%s",
		ofed ? "loaded (MLNX_OFED)" : "absent (inbox drivers)");
	for (size_t i = 0; i < s->n_modules; i++) {
		const struct rd_module *m = &s->modules[i];

		if (m->name && m->version &&
		    (strncmp(m->name, "mlx", 3) == 0 ||
		     strncmp(m->name, "ib_", 3) == 0 ||
		     strncmp(m->name, "rdma", 4) == 0)) {
			char src[160];

			snprintf(src, sizeof(src), "/sys/module/%s/version",
				 m->name);
			diag_ev(&x, r, m->name, src, "%s", m->version);
		}
	}
	if (s->host.rdma_core_version)
		diag_ev(&x, r, "rdma-core", "libibverbs", "%s",
			s->host.rdma_core_version);
	diag_verdict(&x, r, RD_PASS, "ok", "%s driver stack",
		     ofed ? "MLNX_OFED" : "inbox");
	return diag_done(&x);
}

DIAG_CHECK(check_dev_cq_size)
{
	DIAG_CTX(x);

	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);) {
		const struct rd_device *d = tg.d;
		struct rd_result *r;

		r = diag_new_target(&x, &tg, NULL);
		diag_why(&x, r,
			 "A CQ smaller than the outstanding work requests "
			 "overflows. The limit is the device attribute max_cqe; "
			 "mlx5_core has no log_max_cq module parameter.");
		if (!d->verbs.max_cqe.ok) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: max_cqe not read (%s)", d->name,
				     d->verbs.open_error ? d->verbs.open_error :
				     "no libibverbs data");
			continue;
		}
		diag_ev(&x, r, "max_cqe", "ibv_query_device", "%" PRIu64,
			d->verbs.max_cqe.v);
		if (d->verbs.max_cq.ok)
			diag_ev(&x, r, "max_cq", "ibv_query_device", "%" PRIu64,
				d->verbs.max_cq.v);
		if (d->verbs.max_cqe.v >= 4096)
			diag_verdict(&x, r, RD_PASS, "ok",
				     "%s: CQs up to %" PRIu64 " entries", d->name,
				     d->verbs.max_cqe.v);
		else
			diag_verdict(&x, r, RD_WARN, "cq_small",
				     "%s: max_cqe %" PRIu64 " below 4096", d->name,
				     d->verbs.max_cqe.v);
	}
	return diag_done(&x);
}

DIAG_CHECK(check_user_provider)
{
	DIAG_CTX(x);

	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);) {
		const struct rd_device *d = tg.d;
		struct rd_result *r;

		r = diag_new_target(&x, &tg, NULL);
		diag_why(&x, r,
			 "libibverbs needs a provider library (libmlx5, librxe, "
			 "...) matching the kernel driver; without it the device "
			 "is in sysfs but ibv_devices does not list it.");
		if (!d->verbs.opened.ok) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: libibverbs not queried", d->name);
			continue;
		}
		if (d->verbs.opened.v) {
			diag_ev(&x, r, "ibv_open_device", "libibverbs", "ok");
			diag_verdict(&x, r, RD_PASS, "ok",
				     "%s: libibverbs opens it", d->name);
			continue;
		}
		diag_ev(&x, r, "ibv_open_device", "libibverbs", "%s",
			d->verbs.open_error ? d->verbs.open_error : "failed");
		diag_verdict(&x, r, RD_FAIL, "provider_missing",
			     "%s: libibverbs cannot open it%s%s", d->name,
			     d->verbs.open_error ? ": " : "",
			     d->verbs.open_error ? d->verbs.open_error : "");
		diag_next(&x, r,
			  "install the provider (Debian: ibverbs-providers) and "
			  "check /etc/libibverbs.d; ibv_devices must list %s",
			  d->name);
	}
	return diag_done(&x);
}

/*
 * The node of a host path ("/dev/infiniband/uverbs0"). Under --root the
 * probe stores ROOT/dev/...: compare with the root prefix stripped.
 */
static const struct rd_devnode *devnode(const struct rd_host *hs,
					const char *path)
{
	size_t want = path ? strlen(path) : 0;

	for (size_t i = 0; path && i < hs->n_devnodes; i++) {
		const char *p = hs->devnodes[i].path;
		size_t len = p ? strlen(p) : 0;

		if (p && len >= want && strcmp(p + len - want, path) == 0)
			return &hs->devnodes[i];
	}
	return NULL;
}

DIAG_CHECK(check_user_uverbs)
{
	DIAG_CTX(x);
	char path[256];

	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);) {
		const struct rd_device *d = tg.d;
		const struct rd_devnode *n;
		struct rd_result *r;

		r = diag_new_target(&x, &tg, NULL);
		diag_why(&x, r,
			 "Verbs programs talk to the kernel through "
			 "/dev/infiniband/uverbsN; missing or unreadable, every "
			 "program fails to open the device.");
		if (!d->uverbs) {
			if (diag_module(s, "ib_uverbs") == DIAG_MOD_ABSENT) {
				diag_verdict(&x, r, RD_FAIL, "module_missing",
					     "%s: no uverbs device, ib_uverbs not loaded",
					     d->name);
				struct rd_fixup *f = diag_fix(
					&x, r, RD_FIX_MODPROBE, false, false,
					"loads a kernel module; nothing stops",
					"modprobe ib_uverbs");
				if (f && !(f->arg = strdup("ib_uverbs")))
					x.err = -ENOMEM;
			} else {
				diag_verdict(&x, r, RD_UNKNOWN, "no_data",
					     "%s: uverbs device not read", d->name);
			}
			continue;
		}
		if (d->uverbs_dev)
			snprintf(path, sizeof(path), "%s", d->uverbs_dev);
		else
			snprintf(path, sizeof(path), "/dev/infiniband/%s",
				 d->uverbs);
		n = devnode(&s->host, path);
		if (!n || !n->exists.ok) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: %s not checked", d->name, path);
			continue;
		}
		if (!n->exists.v)
			diag_ev(&x, r, "device node", n->path, "missing");
		else
			diag_ev(&x, r, "device node", n->path,
				"present, mode %04" PRIo64 "%s%s", n->mode.v,
				n->readable.ok && !n->readable.v ?
					", not readable" : "",
				n->writable.ok && !n->writable.v ?
					", not writable" : "");
		if (!n->exists.v)
			diag_verdict(&x, r, RD_FAIL, "uverbs_missing",
				     "%s: %s is missing", d->name, path);
		else if ((n->readable.ok && !n->readable.v) ||
			 (n->writable.ok && !n->writable.v))
			diag_verdict(&x, r, RD_FAIL, "uverbs_denied",
				     "%s: %s is not accessible to this user",
				     d->name, path);
		else
			diag_verdict(&x, r, RD_PASS, "ok", "%s: %s usable",
				     d->name, path);
		if (r->verdict == RD_FAIL)
			diag_next(&x, r,
				  "check udev rules (rdma group, 0666 on uverbs), or "
				  "pass /dev/infiniband into the container");
	}
	return diag_done(&x);
}
