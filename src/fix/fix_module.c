// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix kind modprobe: load an RDMA kernel module through libkmod. */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/escape.h"
#include "diag/diag_int.h"

/* Defined at the end; its word list is what the check accepts. */
extern const struct rd_fix_ops rd_fix_module_ops;

static const char *const checks[] = { "driver.modules", "port.state",
				      "user.uverbs", NULL };
static const char *const words[] = { "loaded", NULL };

/* The RDMA core modules a check names; NIC drivers come from diag. */
static const char *const core_modules[] = {
	"ib_core", "ib_uverbs", "rdma_cm", "rdma_ucm", "rdma_rxe", NULL,
};

static bool module_ok(const char *m)
{
	for (size_t i = 0; m && core_modules[i]; i++)
		if (strcmp(m, core_modules[i]) == 0)
			return true;
	return diag_is_rdma_nic_module(m);
}

static int mod_check(const struct rd_fix_target *t, const char *value,
		     char *why, size_t len)
{
	if (rd_fix_need(module_ok(t->arg), t->arg,
			"an RDMA module a check names", why, len) < 0)
		return -EINVAL;
	if (rd_fix_need_word(&rd_fix_module_ops, value, why, len) < 0) {
		snprintf(why, len, "modules are only loaded, never unloaded");
		return -EINVAL;
	}
	return 0;
}

static void mod_command(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len)
{
	(void)value;
	snprintf(buf, len, "modprobe %s", rd_shquote_tmp(t->arg));
}

static int mod_read(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml)
{
	char path[PATH_MAX];
	struct stat st;

	(void)msg;
	(void)ml;
	snprintf(path, sizeof(path), "/sys/module/%s", t->arg);
	snprintf(val, len, "%s", stat(path, &st) == 0 ? "loaded" : "absent");
	return 0;
}

/*
 * The module, or a module it brings in, that modprobe.d gives an
 * "install" command (run by a shell in place of loading; often how an
 * admin blocks a module: "install X /bin/false"): its name in buf.
 */
static bool commanded(struct kmod_module *mod, char *buf, size_t len)
{
	struct kmod_list *lists[3] = { NULL, NULL, NULL }, *it;
	bool found = false;

	if (kmod_module_get_install_commands(mod)) {
		snprintf(buf, len, "%s", kmod_module_get_name(mod));
		return true;
	}
	lists[0] = kmod_module_get_dependencies(mod);
	kmod_module_get_softdeps(mod, &lists[1], &lists[2]);
	for (int i = 0; i < 3; i++) {
		kmod_list_foreach(it, lists[i]) {
			struct kmod_module *m = kmod_module_get_module(it);

			if (!found && kmod_module_get_install_commands(m)) {
				snprintf(buf, len, "%s", kmod_module_get_name(m));
				found = true;
			}
			kmod_module_unref(m);
		}
		kmod_module_unref_list(lists[i]);
	}
	return found;
}

int rd_fix_module_load(struct kmod_ctx *ctx, const char *name, char *msg,
		       size_t ml)
{
	struct kmod_list *list = NULL, *it;
	char cmd[128];
	bool refused = false;
	int r;

	r = kmod_module_new_from_lookup(ctx, name, &list);
	if (r == 0 && !list)
		r = -ENOENT;
	if (r < 0) {
		snprintf(msg, ml, "module %s: %s", rd_esc_tmp(name),
			 strerror(-r));
		return r;
	}
	kmod_list_foreach(it, list) {
		struct kmod_module *mod = kmod_module_get_module(it);

		if (!refused && (refused = commanded(mod, cmd, sizeof(cmd))))
			snprintf(msg, ml,
				 "modprobe.d gives %s an install command; rdmadiag runs no commands and does not override it; the command is: modprobe %s",
				 rd_esc_tmp(cmd), rd_shquote_tmp(name));
		kmod_module_unref(mod);
	}
	if (refused) {
		kmod_module_unref_list(list);
		return -EPERM;
	}
	kmod_list_foreach(it, list) {
		struct kmod_module *mod = kmod_module_get_module(it);

		/* No shell, ever: insert the modules themselves. */
		r = kmod_module_probe_insert_module(mod, KMOD_PROBE_IGNORE_COMMAND,
						    NULL, NULL, NULL, NULL);
		kmod_module_unref(mod);
		if (r == 0)
			break;
	}
	if (r < 0)
		snprintf(msg, ml, "loading %s: %s", rd_esc_tmp(name),
			 strerror(-r));
	kmod_module_unref_list(list);
	return r < 0 ? r : 0;
}

static int mod_apply(const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	int r;

	(void)value;
	if (!ctx) {
		snprintf(msg, ml, "libkmod: cannot initialise");
		return -ENOMEM;
	}
	kmod_load_resources(ctx);
	r = rd_fix_module_load(ctx, t->arg, msg, ml);
	kmod_unref(ctx);
	return r;
}

const struct rd_fix_ops rd_fix_module_ops = {
	RD_FIX_KIND(mod, "modprobe", RD_FIX_MODPROBE, false),
	.words = words,
	.words_name = "module state",
};
