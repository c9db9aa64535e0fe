/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the host's truth lives: /sys, /proc, /dev and /etc, each of which a
 * fixture tree can stand in for.
 */
#ifndef RD_CORE_ROOTS_H
#define RD_CORE_ROOTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct rd_roots {
	char sysfs[PATH_MAX];
	char proc[PATH_MAX];
	char dev[PATH_MAX];
	char etc[PATH_MAX];
	/* true when any root is not the real one (fixtures, tests). */
	bool redirected;
};

/*
 * Defaults (/sys, /proc, /dev, /etc) overridden by RDMADIAG_SYSFS_ROOT,
 * RDMADIAG_PROC_ROOT, RDMADIAG_DEV_ROOT, RDMADIAG_ETC_ROOT unless
 * rd_env_untrusted().
 */
void rd_roots_init(struct rd_roots *r);

/* Set one root from a command-line option; -ENAMETOOLONG or -EINVAL. */
int rd_roots_set(char *dst, const char *value);

/* Point every root inside one fixture tree: DIR/sys, DIR/proc, DIR/dev, DIR/etc. */
int rd_roots_under(struct rd_roots *r, const char *dir);

/*
 * True when the environment was chosen by someone other than the user we
 * run as: set-uid/set-gid or AT_SECURE, real and effective ids differ, or
 * SUDO_UID is set. RDMADIAG_* variables are then ignored.
 */
bool rd_env_untrusted(void);
/*
 * When the environment is untrusted (rd_env_untrusted), drop what it
 * could make the terminal and locale libraries load: TERMINFO,
 * TERMINFO_DIRS, TERMCAP, TERMPATH, LOCPATH, NLSPATH, and HOME (whose
 * ~/.terminfo ncurses reads) set to the effective user's own home. Call
 * before setlocale and curses start.
 */
void rd_env_scrub(void);
/*
 * Root says the environment is its own (--trust-env): honour RDMADIAG_*
 * even under sudo. -EPERM unless real and effective uid are 0 and the
 * exec was not set-id. Call before rd_roots_init() reads the variables.
 */
int rd_env_trust(void);

/* snprintf into buf as root + formatted suffix; -ENAMETOOLONG on overflow. */
int rd_path(char *buf, size_t size, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
