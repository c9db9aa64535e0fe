/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit tests: fixture paths and scratch trees. */
#ifndef RD_TESTS_UNIT_H
#define RD_TESTS_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline const char *unit_fixture(const char *name, char *buf,
				       size_t size)
{
	snprintf(buf, size, "%s/%s", RD_FIXTURES, name);
	return buf;
}

/* Write content to root/rel, creating directories on the way. */
static inline void unit_put(const char *root, const char *rel,
			    const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static inline int unit_rm_cb(const char *p, const struct stat *st, int flag,
			     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static inline void unit_rmtree(const char *root)
{
	nftw(root, unit_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static inline char *unit_tmpdir(char *buf, size_t size)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, size, "%s/rdmadiag-test-XXXXXX", t && *t ? t : "/tmp");
	assert_non_null(mkdtemp(buf));
	return buf;
}

#endif
