// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA module set as the kernel shows it in /sys/module, and whether
 * each missing one could be loaded (libkmod, the running kernel's module
 * index), which is what a "load the module" fix-up needs to know.
 */
#include "config.h"
#include "probes/kmod.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkmod.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "kmod"

static struct rd_module *module_entry(struct rd_snapshot *s, const char *name)
{
	struct rd_module *m = rd_snapshot_module(s, name);

	if (m)
		return m;
	m = RD_PUSH(s->modules, s->n_modules);
	if (m && !(m->name = rd_strdup(name))) {
		s->n_modules--;
		return NULL;
	}
	return m;
}

static bool initstate_ok(const char *v)
{
	return !strcmp(v, "live") || !strcmp(v, "coming") ||
	       !strcmp(v, "going");
}

static bool version_ok(const char *v)
{
	return v[0] && rd_text_check(v, strlen(v)) == 0;
}

/* The module's source checksum: a word of up to 64 printable bytes. */
static bool srcversion_ok(const char *v)
{
	return rd_probe_word_ok(v, 64);
}

static void collect_one(struct rd_snapshot *s, int moddirfd, const char *moddir,
			const char *name)
{
	struct rd_module *m = module_entry(s, name);
	char base[PATH_MAX];
	struct stat st;
	uint64_t v;
	int fd;

	if (!m)
		return;
	snprintf(base, sizeof(base), "%s/%s", moddir, name);
	fd = openat(moddirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR) {
			m->loaded = rd_bool(false);
		} else {
			rd_snapshot_error(s, SRC, base, errno, NULL);
		}
		return;
	}
	m->loaded = rd_bool(true);
	/* Built-in modules have a directory (parameters) but no initstate. */
	if (fstatat(fd, "initstate", &st, 0) < 0 && errno == ENOENT) {
		m->builtin = rd_bool(true);
	} else {
		m->builtin = rd_bool(false);
		(void)rd_probe_read_str(s, SRC, fd, base, "initstate",
					initstate_ok, &m->initstate, true);
	}
	(void)rd_probe_read_str(s, SRC, fd, base, "version", version_ok,
				&m->version, true);
	(void)rd_probe_read_str(s, SRC, fd, base, "srcversion", srcversion_ok,
				&m->srcversion, true);
	if (rd_probe_read_u64(s, SRC, fd, base, "refcnt", false, UINT64_MAX, &v,
			      true) == 0)
		m->refcnt = rd_u64(v);
	close(fd);
}

static void kmod_quiet(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	(void)format;
	(void)args;
}

int probe_kmod_available(const char *moddir, struct rd_snapshot *s)
{
	struct kmod_ctx *kctx;
	char index[PATH_MAX];
	const char *dir;
	struct stat st;

	kctx = kmod_new(moddir, NULL);
	if (!kctx) {
		rd_snapshot_error(s, SRC, moddir, ENOMEM,
				  "libkmod: no context");
		return 0;
	}
	kmod_set_log_fn(kctx, kmod_quiet, NULL);
	dir = kmod_get_dirname(kctx);
	/* Without an index every lookup fails: that is "unknown", not "no". */
	if (snprintf(index, sizeof(index), "%s/modules.dep.bin", dir) >=
		    (int)sizeof(index) ||
	    stat(index, &st) < 0 || !S_ISREG(st.st_mode)) {
		rd_snapshot_error(s, SRC, dir, ENOENT,
				  "no module index: cannot tell which modules "
				  "can be loaded");
		goto out;
	}
	for (const char *const *n = rd_rdma_modules; *n; n++) {
		struct rd_module *m = module_entry(s, *n);
		struct kmod_list *list = NULL, *it;
		bool found = false;

		if (!m)
			break;
		if (kmod_module_new_from_lookup(kctx, *n, &list) < 0) {
			rd_snapshot_error(s, SRC, dir, 0,
					  "libkmod lookup of %s failed", *n);
			continue;
		}
		kmod_list_foreach(it, list) {
			struct kmod_module *km = kmod_module_get_module(it);

			if (kmod_module_get_path(km) ||
			    kmod_module_get_initstate(km) ==
				    KMOD_MODULE_BUILTIN)
				found = true;
			kmod_module_unref(km);
		}
		kmod_module_unref_list(list);
		m->available = rd_bool(found);
	}
out:
	kmod_unref(kctx);
	return 0;
}

/*
 * Modules change only when someone loads or unloads one: a kept cache
 * serves the last reading for RD_PROBE_STATIC_EVERY refreshes (a fix-up
 * asks for a fresh one). Opening libkmod's index is most of the cost.
 */
struct kmod_cache {
	struct rd_module *mods;
	size_t n;
	struct rd_obool ofed;
	uint64_t tick;
	bool ok;
};

static void kmod_state_clear(void *state)
{
	struct kmod_cache *c = state;

	rd_model_free_array(rd_module_fields, (void **)&c->mods, &c->n,
			    sizeof(*c->mods));
	c->ok = false;
}

/* Append copies of n modules to dst's list; false when out of memory. */
static bool copy_modules(struct rd_module **dst, size_t *dn,
			 const struct rd_module *src, size_t n)
{
	return rd_model_dup_array(rd_module_fields, (void **)dst, dn, src, n,
				  sizeof(*src)) == 0;
}

static int collect_modules(const struct rd_probe_ctx *ctx,
			   struct rd_snapshot *s);

static int probe_kmod_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	struct kmod_cache *c = state;
	size_t first = s->n_modules;
	int r;

	if (rd_probe_cache_fresh(ctx, c->tick, c->ok, RD_PROBE_STATIC_EVERY)) {
		if (copy_modules(&s->modules, &s->n_modules, c->mods, c->n)) {
			if (c->ofed.ok)
				s->host.mlnx_ofed = c->ofed;
			return 0;
		}
	}
	r = collect_modules(ctx, s);
	if (ctx->cache) {
		kmod_state_clear(c);
		if (copy_modules(&c->mods, &c->n, s->modules + first,
				 s->n_modules - first)) {
			c->ofed = s->host.mlnx_ofed;
			c->tick = ctx->tick;
			c->ok = true;
		}
	}
	return r;
}

const struct rd_probe probe_kmod =
	RD_PROBE_ROW("kmod", 0, probe_kmod_collect, struct kmod_cache, NULL,
		     kmod_state_clear);

static int collect_modules(const struct rd_probe_ctx *ctx,
			   struct rd_snapshot *s)
{
	char moddir[PATH_MAX];
	int fd, r;
	struct rd_module *compat;

	r = rd_path(moddir, sizeof(moddir), ctx->roots->sysfs, "/module");
	if (r < 0)
		return r;
	fd = open(moddir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rd_snapshot_error(s, SRC, moddir, errno, NULL);
	} else {
		for (const char *const *n = rd_rdma_modules; *n; n++)
			collect_one(s, fd, moddir, *n);
		close(fd);
	}
	compat = rd_snapshot_module(s, "mlx_compat");
	if (compat && compat->loaded.ok)
		s->host.mlnx_ofed = compat->loaded;
	/* The module index belongs to the running kernel, not to a fixture. */
	if (!ctx->roots->redirected)
		probe_kmod_available(NULL, s);
	return 0;
}
