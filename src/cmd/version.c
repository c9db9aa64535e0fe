// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag --version: what a bug report needs to place a build. The
 * version, the git commit and configure options it was built from, and
 * for each library the version it was built against and the one it runs
 * with: the library's own answer where it has a function for it, and the
 * file the dynamic linker loaded (its name carries the version:
 * libibverbs.so.1.14.44.0) for those that have none.
 */
#include "config.h"

#include <curses.h>
#include <json-c/json_c_version.h>
#include <limits.h>
#include <link.h>
#include <microhttpd.h>
#include <netlink/version.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "cmd/cli.h"
#include "core/escape.h"

struct loaded_lib {
	const char *prefix;  /* "libibverbs.so" */
	char path[PATH_MAX]; /* the loaded file, links resolved */
};

static int find_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	struct loaded_lib *l = data;
	const char *base;

	(void)size;
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	base = strrchr(info->dlpi_name, '/');
	base = base ? base + 1 : info->dlpi_name;
	if (strncmp(base, l->prefix, strlen(l->prefix)) != 0)
		return 0;
	if (!realpath(info->dlpi_name, l->path))
		snprintf(l->path, sizeof(l->path), "%s", info->dlpi_name);
	return 1;
}

/* The file name the library with this soname prefix was loaded from. */
static const char *loaded_file(const char *prefix, char *buf, size_t len)
{
	struct loaded_lib l = { .prefix = prefix };
	const char *base;

	if (!dl_iterate_phdr(find_lib, &l))
		return NULL;
	base = strrchr(l.path, '/');
	snprintf(buf, len, "%s", base ? base + 1 : l.path);
	return buf;
}

/* What configure found for a pkg-config module ("" when it said nothing). */
static void built_with(const char *module, char *out, size_t len)
{
	const char *p = RD_BUILD_LIBS;
	size_t n = strlen(module);

	out[0] = '\0';
	while (*p) {
		const char *end = strchr(p, ';');

		if (!end)
			break;
		if (strncmp(p, module, n) == 0 && p[n] == ' ') {
			size_t vl = (size_t)(end - (p + n + 1));

			if (vl >= len)
				vl = len - 1;
			memcpy(out, p + n + 1, vl);
			out[vl] = '\0';
			return;
		}
		p = end + 1;
	}
}

static void lib_line(FILE *f, const char *name, const char *module,
		     const char *soname, const char *runtime)
{
	char built[64], file[PATH_MAX];
	const char *loaded = loaded_file(soname, file, sizeof(file));

	built_with(module, built, sizeof(built));
	fprintf(f, "  %-14s built with %s", name,
		built[0] ? built : "(unknown)");
	fputs(", running ", f);
	if (runtime)
		fprintf(f, "%s", runtime);
	if (runtime && loaded)
		fputs(" from ", f);
	if (loaded)
		rd_fputs_esc(loaded, f);
	if (!runtime && !loaded)
		fputs("(not loaded)", f);
	fputc('\n', f);
}

void cli_print_version(FILE *f)
{
	char nl[32], mhd[32];
	struct utsname u;

	fprintf(f, "rdmadiag %s\n", PACKAGE_VERSION);
	fprintf(f, "commit: %s\n",
		RD_GIT_COMMIT[0] ? RD_GIT_COMMIT
				 : "(not built from a git checkout)");
	fprintf(f, "configured with: %s\n",
		RD_CONFIGURE_ARGS[strspn(RD_CONFIGURE_ARGS, " ")]
			? RD_CONFIGURE_ARGS + strspn(RD_CONFIGURE_ARGS, " ")
			: "(no options)");
#if defined(__clang__)
	fprintf(f, "compiler: clang %s\n", __clang_version__);
#elif defined(__GNUC__)
	fprintf(f, "compiler: gcc %s\n", __VERSION__);
#endif
	if (uname(&u) == 0) {
		fputs("kernel: ", f);
		rd_fputs_esc(u.sysname, f);
		fputc(' ', f);
		rd_fputs_esc(u.release, f);
		fputc(' ', f);
		rd_fputs_esc(u.machine, f);
		fputc('\n', f);
	}
	snprintf(nl, sizeof(nl), "%d.%d.%d", nl_ver_maj, nl_ver_min,
		 nl_ver_mic);
	snprintf(mhd, sizeof(mhd), "%s", MHD_get_version());
	fputs("libraries:\n", f);
	lib_line(f, "libibverbs", "libibverbs", "libibverbs.so", NULL);
	lib_line(f, "librdmacm", "librdmacm", "librdmacm.so", NULL);
	lib_line(f, "libnl", "libnl-3.0", "libnl-3.so", nl);
	lib_line(f, "ncurses", "ncursesw", "libncursesw.so", curses_version());
	lib_line(f, "json-c", "json-c", "libjson-c.so", json_c_version());
	lib_line(f, "libpci", "libpci", "libpci.so", NULL);
	lib_line(f, "libkmod", "libkmod", "libkmod.so", NULL);
	lib_line(f, "libmicrohttpd", "libmicrohttpd", "libmicrohttpd.so", mhd);
	lib_line(f, "sqlite", "sqlite3", "libsqlite3.so", sqlite3_libversion());
	lib_line(f, "zlib", "zlib", "libz.so", zlibVersion());
}
