// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/roots.h"

#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static bool env_trusted_by_root;

bool rd_env_untrusted(void)
{
	const char *sudo = getenv("SUDO_UID");

	if (env_trusted_by_root)
		return false;
	/*
	 * Whoever set the environment is not who we run as: a set-id
	 * program, a capability-raising exec, or sudo (which keeps chosen
	 * variables with -E or env_keep).
	 */
	return getauxval(AT_SECURE) != 0 || getuid() != geteuid() ||
	       getgid() != getegid() || (sudo && *sudo);
}

void rd_env_scrub(void)
{
	static const char *const caller_chosen[] = {
		"TERMINFO", "TERMINFO_DIRS", "TERMCAP", "TERMPATH", "LOCPATH",
		"NLSPATH",
	};
	const struct passwd *pw;

	if (!rd_env_untrusted())
		return;
	for (size_t i = 0;
	     i < sizeof(caller_chosen) / sizeof(caller_chosen[0]); i++)
		unsetenv(caller_chosen[i]);
	/* ncurses reads $HOME/.terminfo: our own home, not the caller's. */
	pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
		setenv("HOME", pw->pw_dir, 1);
	else
		unsetenv("HOME");
}

int rd_env_trust(void)
{
	if (getuid() != 0 || geteuid() != 0 || getauxval(AT_SECURE) != 0)
		return -EPERM;
	env_trusted_by_root = true;
	return 0;
}

int rd_roots_set(char *dst, const char *value)
{
	size_t len;

	if (!value || !*value)
		return -EINVAL;
	len = strlen(value);
	while (len > 1 && value[len - 1] == '/')
		len--;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(dst, value, len);
	dst[len] = '\0';
	return 0;
}

static void root_default(struct rd_roots *r, char *dst, const char *env,
			 const char *def)
{
	const char *v = rd_env_untrusted() ? NULL : getenv(env);

	if (v && *v && rd_roots_set(dst, v) == 0 && strcmp(dst, def) != 0) {
		r->redirected = true;
		return;
	}
	snprintf(dst, PATH_MAX, "%s", def);
}

void rd_roots_init(struct rd_roots *r)
{
	memset(r, 0, sizeof(*r));
	root_default(r, r->sysfs, "RDMADIAG_SYSFS_ROOT", "/sys");
	root_default(r, r->proc, "RDMADIAG_PROC_ROOT", "/proc");
	root_default(r, r->dev, "RDMADIAG_DEV_ROOT", "/dev");
	root_default(r, r->etc, "RDMADIAG_ETC_ROOT", "/etc");
}

int rd_path(char *buf, size_t size, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, size, "%s", root);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

int rd_roots_under(struct rd_roots *r, const char *dir)
{
	char base[PATH_MAX];
	int e;

	if ((e = rd_roots_set(base, dir)) < 0)
		return e;
	if (rd_path(r->sysfs, PATH_MAX, base, "/sys") < 0 ||
	    rd_path(r->proc, PATH_MAX, base, "/proc") < 0 ||
	    rd_path(r->dev, PATH_MAX, base, "/dev") < 0 ||
	    rd_path(r->etc, PATH_MAX, base, "/etc") < 0)
		return -ENAMETOOLONG;
	r->redirected = true;
	return 0;
}
