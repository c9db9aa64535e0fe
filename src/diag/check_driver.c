// SPDX-License-Identifier: GPL-2.0-or-later
/* Driver and user-space layers: modules, OFED, CQ size, provider, uverbs. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The modules whose state was not read, "a, b", for the verdict. */
struct unread {
	char names[160];
	size_t len;
};

static void want_module(struct diag_ctx *x, struct rd_result *r,
			const char *name, bool essential, const char **fail,
			const char **warn, struct unread *u)
{
	enum diag_mod m = diag_module(x->s, name);
	const struct rd_module *mod = rd_snapshot_module(x->s, name);

	diag_ev(x, r, name, "/sys/module", "%s%s%s",
		m == DIAG_MOD_LOADED ? "loaded" :
		m == DIAG_MOD_ABSENT ? "not loaded" : "unknown",
		mod && mod->version ? " version " : "",
		mod && mod->version ? mod->version : "");
	if (m == DIAG_MOD_UNKNOWN) {
		int w = snprintf(u->names + u->len, sizeof(u->names) - u->len,
				 "%s%s", u->len ? ", " : "", name);

		if (w > 0 && (size_t)w < sizeof(u->names) - u->len)
			u->len += (size_t)w;
		return;
	}
	if (m != DIAG_MOD_ABSENT)
		return;
	if (essential && !*fail)
		*fail = name;
	else if (!essential && !*warn)
		*warn = name;
}

void check_driver_modules(struct diag_ctx *x, const struct diag_target *t,
			  struct rd_result *r)
{
	const struct rd_snapshot *s = x->s;
	const char *fail = NULL, *warn = NULL, *missing;
	struct unread u = { .len = 0 };
	bool soft_rxe = false, soft_siw = false;

	(void)t;
	if (!diag_have(x, r, s->n_modules > 0,
		       "module list not read (/sys/module)"))
		return;
	want_module(x, r, "ib_core", true, &fail, &warn, &u);
	want_module(x, r, "ib_uverbs", true, &fail, &warn, &u);
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
			want_module(x, r, ib, true, &fail, &warn, &u);
	}
	/* Each soft device's own module, once: rdma_rxe, or siw. */
	for (size_t i = 0; i < s->n_devices; i++) {
		const char *m = diag_soft_module(&s->devices[i]);
		bool *seen = !m			 ? NULL
			     : !strcmp(m, "siw") ? &soft_siw
						 : &soft_rxe;

		if (seen && !*seen)
			want_module(x, r, m, false, &fail, &warn, &u);
		if (seen)
			*seen = true;
	}
	want_module(x, r, "rdma_cm", false, &fail, &warn, &u);
	want_module(x, r, "rdma_ucm", false, &fail, &warn, &u);
	missing = fail ? fail : warn;
	/* A module whose state was not read is neither loaded nor missing. */
	if (!fail && u.len) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "not known whether %s %s loaded%s%s%s", u.names,
			     strchr(u.names, ',') ? "are" : "is",
			     warn ? "; " : "", warn ? warn : "",
			     warn ? " is not loaded" : "");
		return;
	}
	if (!missing) {
		diag_verdict(x, r, RD_PASS, "ok", "RDMA modules loaded");
		return;
	}
	/* ib_uverbs pulls in ib_core: one command, as port.state gives. */
	if (fail && strcmp(fail, "ib_core") == 0 &&
	    diag_module(s, "ib_uverbs") == DIAG_MOD_ABSENT)
		missing = fail = "ib_uverbs";
	if (fail && strcmp(fail, "ib_uverbs") == 0 &&
	    diag_module(s, "ib_core") == DIAG_MOD_ABSENT)
		diag_verdict(x, r, RD_FAIL, "module_missing",
			     "ib_core and ib_uverbs are not loaded");
	else if (fail)
		diag_verdict(x, r, RD_FAIL, "module_missing",
			     "%s is not loaded", fail);
	else
		diag_verdict(x, r, RD_WARN, "module_missing",
			     "%s is not loaded%s", warn,
			     !strcmp(warn, "rdma_cm") ||
					     !strcmp(warn, "rdma_ucm")
				     ? ": rdma_cm programs will fail"
				     : "");
	diag_next(x, r, "load %s and check dmesg for errors", missing);
	diag_fix(x, r, RD_FIX_MODPROBE, missing, false, false,
		 "loads a kernel module; nothing stops", "modprobe %s",
		 rd_shquote_tmp(missing));
}

void check_driver_ofed(struct diag_ctx *x, const struct diag_target *t,
		       struct rd_result *r)
{
	const struct rd_snapshot *s = x->s;
	enum diag_mod compat = diag_module(s, "mlx_compat");
	bool ofed = s->host.mlnx_ofed.ok ? s->host.mlnx_ofed.v :
					   compat == DIAG_MOD_LOADED;

	(void)t;
	if (!diag_have(x, r,
		       s->host.mlnx_ofed.ok || compat != DIAG_MOD_UNKNOWN,
		       "module list not read (/sys/module)"))
		return;
	diag_ev(x, r, "mlx_compat", "/sys/module/mlx_compat", "%s",
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
			diag_ev(x, r, m->name, src, "%s", m->version);
		}
	}
	if (s->host.rdma_core_version)
		diag_ev(x, r, "rdma-core", "libibverbs", "%s",
			s->host.rdma_core_version);
	diag_verdict(x, r, RD_PASS, "ok", "%s driver stack",
		     ofed ? "MLNX_OFED" : "inbox");
}

void check_dev_cq_size(struct diag_ctx *x, const struct diag_target *t,
		       struct rd_result *r)
{
	const struct rd_device *d = t->d;

	if (!diag_have(x, r, d->verbs.max_cqe.ok, "%s: max_cqe not read (%s)",
		       d->name,
		       d->verbs.open_error ? d->verbs.open_error :
					     "no libibverbs data"))
		return;
	diag_ev(x, r, "max_cqe", "ibv_query_device", "%" PRIu64,
		d->verbs.max_cqe.v);
	if (d->verbs.max_cq.ok)
		diag_ev(x, r, "max_cq", "ibv_query_device", "%" PRIu64,
			d->verbs.max_cq.v);
	if (d->verbs.max_cqe.v >= 4096)
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: CQs up to %" PRIu64 " entries", d->name,
			     d->verbs.max_cqe.v);
	else
		diag_verdict(x, r, RD_WARN, "cq_small",
			     "%s: max_cqe %" PRIu64 " below 4096", d->name,
			     d->verbs.max_cqe.v);
}

/* Why the open failed: the probe's words, the errno's, or none kept. */
static void verdict_open_failed(struct diag_ctx *x, struct rd_result *r,
				const struct rd_device *d, int err)
{
	const char *why = d->verbs.open_error ? d->verbs.open_error
			  : err		      ? strerror(err)
					      : NULL;

	diag_verdict(x, r, RD_FAIL, "open_failed",
		     "%s: libibverbs lists it but cannot open it%s%s", d->name,
		     why ? ": " : " (no errno recorded)", why ? why : "");
}

/*
 * libibverbs lists only devices it has a provider for: a listed device
 * that does not open is a problem of its node or of the device itself.
 */
static void provider_open_failed(struct diag_ctx *x, struct rd_result *r,
				 const struct rd_device *d)
{
	const char *node = d->uverbs_dev ? d->uverbs_dev : "/dev/infiniband";
	uint64_t e = d->verbs.open_errno.ok ? d->verbs.open_errno.v : 0;

	/*
	 * The probe records an errno for a failed open and names the call
	 * for a failed query ("ibv_query_device: ..."): only then did the
	 * device open. A record with neither (a file from elsewhere) says
	 * only that it did not open.
	 */
	bool query_failed = d->verbs.open_error &&
			    strncmp(d->verbs.open_error, "ibv_query_device",
				    strlen("ibv_query_device")) == 0;

	if (!d->verbs.open_errno.ok && !query_failed) {
		verdict_open_failed(x, r, d, 0);
		diag_next(x, r,
			  "run ibv_devinfo -d %s to see why it does not open; "
			  "check access to %s (see user.uverbs) and dmesg for "
			  "errors of its driver",
			  rd_shquote_tmp(d->name), node);
	} else if (!d->verbs.open_errno.ok) {
		/* It opened; a query failed after that. */
		diag_verdict(x, r, RD_FAIL, "query_failed",
			     "%s: libibverbs opens it but cannot query it%s%s",
			     d->name, d->verbs.open_error ? ": " : "",
			     d->verbs.open_error ? d->verbs.open_error : "");
		diag_next(x, r, "check dmesg for errors of %s's driver",
			  d->name);
	} else if (e == EACCES || e == EPERM) {
		diag_verdict(x, r, RD_FAIL, "uverbs_denied",
			     "%s: libibverbs lists it but %s cannot be opened: %s",
			     d->name, node, strerror((int)e));
		diag_next(x, r,
			  "run as root, or give this user read and write "
			  "access to %s (udev rules: the rdma group or mode "
			  "0666); a container needs the device passed in",
			  node);
	} else if (e == ENOENT) {
		diag_verdict(x, r, RD_FAIL, "uverbs_missing",
			     "%s: libibverbs lists it but %s does not exist",
			     d->name, node);
		diag_next(x, r,
			  "a container needs /dev/infiniband passed in; on the "
			  "host, check that udev made %s (see user.uverbs)",
			  node);
	} else if (e == ENODEV || e == ENXIO) {
		diag_verdict(x, r, RD_FAIL, "device_gone",
			     "%s: libibverbs lists it but it went away while "
			     "being opened: %s",
			     d->name, strerror((int)e));
		diag_next(x, r,
			  "check dmesg for %s being removed or reset (driver "
			  "reload, firmware reset, hot unplug), then run again",
			  d->name);
	} else {
		verdict_open_failed(x, r, d, (int)e);
		diag_next(x, r,
			  "check dmesg for errors of %s's driver, and that "
			  "rdma-core suits the kernel (ibv_devinfo -d %s)",
			  d->name, rd_shquote_tmp(d->name));
	}
}

void check_user_provider(struct diag_ctx *x, const struct diag_target *t,
			 struct rd_result *r)
{
	const struct rd_device *d = t->d;

	if (!diag_have(x, r, d->verbs.opened.ok, "%s: libibverbs not queried%s%s",
		       d->name, d->verbs.open_error ? ": " : "",
		       d->verbs.open_error ? d->verbs.open_error : ""))
		return;
	if (d->verbs.opened.v) {
		diag_ev(x, r, "ibv_open_device", "libibverbs", "ok");
		diag_verdict(x, r, RD_PASS, "ok", "%s: libibverbs opens it",
			     d->name);
		return;
	}
	diag_ev(x, r, "ibv_open_device", "libibverbs", "%s",
		d->verbs.open_error ? d->verbs.open_error : "failed");
	/* Without a uverbs interface no provider could be tried. */
	if (!diag_have(x, r, d->uverbs != NULL,
		       "%s: no uverbs interface, so no provider could be "
		       "tried: see user.uverbs", d->name))
		return;
	if (!d->verbs.listed.ok || !d->verbs.listed.v) {
		bool unlisted = d->verbs.listed.ok;

		if (unlisted)
			diag_ev(x, r, "ibv_get_device_list", "libibverbs",
				"%s not listed", d->name);
		/* A recording without the listing gets no guess. */
		diag_verdict(x, r, RD_FAIL,
			     unlisted ? "provider_missing" : "open_failed",
			     "%s: libibverbs cannot open it%s%s", d->name,
			     d->verbs.open_error ? ": " : "",
			     d->verbs.open_error ? d->verbs.open_error : "");
		if (unlisted)
			diag_next(x, r,
				  "install the provider (Debian: "
				  "ibverbs-providers) and check "
				  "/etc/libibverbs.d; ibv_devices must list %s",
				  d->name);
		else
			diag_next(x, r,
				  "run ibv_devices: a device it does not list "
				  "has no provider (Debian: ibverbs-providers); "
				  "one it lists needs access to %s (see "
				  "user.uverbs)",
				  d->uverbs_dev ? d->uverbs_dev : "/dev/infiniband");
		return;
	}
	diag_ev(x, r, "ibv_get_device_list", "libibverbs", "%s listed",
		d->name);
	provider_open_failed(x, r, d);
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

void check_user_uverbs(struct diag_ctx *x, const struct diag_target *t,
		       struct rd_result *r)
{
	const struct rd_device *d = t->d;
	const struct rd_devnode *n;
	char path[256];

	if (!d->uverbs) {
		if (diag_module(x->s, "ib_uverbs") == DIAG_MOD_ABSENT) {
			diag_verdict(x, r, RD_FAIL, "module_missing",
				     "%s: no uverbs device, ib_uverbs not loaded",
				     d->name);
			diag_fix(x, r, RD_FIX_MODPROBE, "ib_uverbs", false,
				 false, "loads a kernel module; nothing stops",
				 "modprobe ib_uverbs");
		} else {
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: uverbs device not read", d->name);
		}
		return;
	}
	if (d->uverbs_dev)
		snprintf(path, sizeof(path), "%s", d->uverbs_dev);
	else
		snprintf(path, sizeof(path), "/dev/infiniband/%s", d->uverbs);
	n = devnode(&x->s->host, path);
	if (!diag_have(x, r, n && n->exists.ok, "%s: %s not checked", d->name,
		       path))
		return;
	if (!n->exists.v)
		diag_ev(x, r, "device node", n->path, "missing");
	else
		diag_ev(x, r, "device node", n->path,
			"present, mode %04" PRIo64 "%s%s", n->mode.v,
			n->readable.ok && !n->readable.v ?
				", not readable" : "",
			n->writable.ok && !n->writable.v ?
				", not writable" : "");
	if (!n->exists.v)
		diag_verdict(x, r, RD_FAIL, "uverbs_missing",
			     "%s: %s is missing", d->name, path);
	else if (rd_devnode_denied(n))
		diag_verdict(x, r, RD_FAIL, "uverbs_denied",
			     "%s: %s is not accessible to this user",
			     d->name, path);
	else if (!n->readable.ok || !n->writable.ok)
		/* Present is not usable: whether this user may open it. */
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: %s present; its read and write access for "
			     "this user not checked",
			     d->name, path);
	else
		diag_verdict(x, r, RD_PASS, "ok", "%s: %s usable",
			     d->name, path);
	if (r->verdict == RD_FAIL)
		diag_next(x, r,
			  "check udev rules (rdma group, 0666 on uverbs), then "
			  "apply them: udevadm trigger "
			  "--subsystem-match=infiniband_verbs; ls -l %s shows "
			  "the node, its mode and group (or pass "
			  "/dev/infiniband into the container)",
			  rd_shquote_tmp(path));
}
