// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host facts the checklist needs. Two kinds:
 *  - files under the roots (meminfo, sysctls, limits.conf, /dev/infiniband,
 *    NUMA nodes, container hints), which a fixture can stand in for;
 *  - facts about this process (uid, RLIMIT_MEMLOCK, capabilities, CPU
 *    affinity, memory policy, the libibverbs it runs with), which belong to
 *    the live host only and stay absent when the roots are redirected.
 */
#include "config.h"
#include "probes/host.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/mempolicy.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "host"
#define LIMITS_MAX_LINES 100000
#define LIMITS_LINE_MAX 4096
#define MAX_DIR_ENTRIES 4096
#define MAX_CPUS 65536
#define MAX_NODES 4096

/* ---- small helpers ---- */

static bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* A hostname or release: one printable word. */
static bool word_ok(const char *s)
{
	return rd_probe_word_ok(s, 255);
}

/* ---- kernel identity ---- */

static void read_identity(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	struct rd_host *h = &s->host;
	char path[PATH_MAX];
	struct utsname u;
	const struct {
		const char *file;
		char **dst;
	} words[] = {
		{ "/sys/kernel/hostname", &h->hostname },
		{ "/sys/kernel/osrelease", &h->kernel },
	};

	/* procfs first: a fixture carries these, and so does a live host. */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (rd_path(path, sizeof(path), ctx->roots->proc, "%s",
			    words[i].file) == 0)
			(void)rd_probe_read_str(s, SRC, AT_FDCWD, NULL, path,
						word_ok, words[i].dst, true);
	}
	if (ctx->roots->redirected || (h->hostname && h->kernel))
		return;
	if (uname(&u) == 0) {
		if (!h->hostname && word_ok(u.nodename))
			(void)rd_str_set(&h->hostname, u.nodename);
		if (!h->kernel && word_ok(u.release))
			(void)rd_str_set(&h->kernel, u.release);
	}
}

/* ---- this process ---- */

int rd_cpulist_format(const cpu_set_t *set, size_t setsize, char *buf,
		      size_t size)
{
	size_t ncpu = setsize * 8, len = 0;
	bool first = true;

	if (size == 0)
		return -ENOSPC;
	buf[0] = '\0';
	for (size_t i = 0; i < ncpu; i++) {
		size_t j = i;
		int n;

		if (!CPU_ISSET_S(i, setsize, set))
			continue;
		while (j + 1 < ncpu && CPU_ISSET_S(j + 1, setsize, set))
			j++;
		if (j == i)
			n = snprintf(buf + len, size - len, "%s%zu",
				     first ? "" : ",", i);
		else
			n = snprintf(buf + len, size - len, "%s%zu-%zu",
				     first ? "" : ",", i, j);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += (size_t)n;
		first = false;
		i = j;
	}
	return 0;
}

static void read_affinity(struct rd_snapshot *s)
{
	size_t setsize = CPU_ALLOC_SIZE(1024);
	cpu_set_t *set = NULL;
	char *buf = NULL;

	/* Grow until the kernel's cpumask fits. */
	for (;;) {
		set = malloc(setsize);
		if (!set)
			return;
		if (sched_getaffinity(0, setsize, set) == 0)
			break;
		free(set);
		set = NULL;
		if (errno != EINVAL || setsize >= CPU_ALLOC_SIZE(MAX_CPUS)) {
			rd_snapshot_error(s, SRC, "sched_getaffinity", errno,
					  NULL);
			return;
		}
		setsize *= 2;
	}
	buf = malloc(65536);
	if (buf && rd_cpulist_format(set, setsize, buf, 65536) == 0)
		(void)rd_str_set(&s->host.cpu_affinity, buf);
	free(buf);
	free(set);
}

static const char *mpol_name(int mode)
{
	static const char *const names[] = {
		"default",
		"preferred",
		"bind",
		"interleave",
		"local",
		"preferred_many",
		"weighted_interleave",
	};

	return mode >= 0 && mode < (int)(sizeof(names) / sizeof(names[0]))
		       ? names[mode]
		       : NULL;
}

static void read_mempolicy(struct rd_snapshot *s)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };
	int mode = 0;
	const char *name;
	char text[4096], nodes[4000];
	size_t len = 0;
	bool first = true;

	if (syscall(SYS_get_mempolicy, &mode, mask, (unsigned long)MAX_NODES,
		    NULL, 0UL) < 0) {
		/* ENOSYS: a kernel without NUMA support has no policy. */
		if (errno != ENOSYS)
			rd_snapshot_error(s, SRC, "get_mempolicy", errno, NULL);
		return;
	}
	name = mpol_name(mode & ~MPOL_MODE_FLAGS);
	if (!name) {
		rd_snapshot_error(s, SRC, "get_mempolicy", EINVAL,
				  "unknown memory policy %d", mode);
		return;
	}
	nodes[0] = '\0';
	for (size_t i = 0; i < MAX_NODES; i++) {
		size_t j = i, bits = 8 * sizeof(unsigned long);
		int n;

		if (!(mask[i / bits] & (1UL << (i % bits))))
			continue;
		while (j + 1 < MAX_NODES &&
		       (mask[(j + 1) / bits] & (1UL << ((j + 1) % bits))))
			j++;
		n = j == i ? snprintf(nodes + len, sizeof(nodes) - len, "%s%zu",
				      first ? "" : ",", i)
			   : snprintf(nodes + len, sizeof(nodes) - len,
				      "%s%zu-%zu", first ? "" : ",", i, j);
		if (n < 0 || (size_t)n >= sizeof(nodes) - len)
			break;
		len += (size_t)n;
		first = false;
		i = j;
	}
	/* default and local carry no node mask. */
	if (nodes[0])
		snprintf(text, sizeof(text), "%s:%s", name, nodes);
	else
		snprintf(text, sizeof(text), "%s", name);
	(void)rd_str_set(&s->host.mempolicy, text);
}

static void read_caps(struct rd_snapshot *s)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	uint64_t eff;

	if (syscall(SYS_capget, &hdr, data) < 0) {
		rd_snapshot_error(s, SRC, "capget", errno, NULL);
		return;
	}
	eff = (uint64_t)data[0].effective | (uint64_t)data[1].effective << 32;
	s->host.cap_ipc_lock = rd_bool(eff & (1ULL << CAP_IPC_LOCK));
	s->host.cap_net_admin = rd_bool(eff & (1ULL << CAP_NET_ADMIN));
}

static void read_memlock(struct rd_snapshot *s)
{
	struct rd_host *h = &s->host;
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0) {
		rd_snapshot_error(s, SRC, "getrlimit(RLIMIT_MEMLOCK)", errno,
				  NULL);
		return;
	}
	h->memlock_unlimited = rd_bool(rl.rlim_cur == RLIM_INFINITY);
	h->memlock_hard_unlimited = rd_bool(rl.rlim_max == RLIM_INFINITY);
	if (rl.rlim_cur != RLIM_INFINITY)
		h->memlock_soft = rd_u64((uint64_t)rl.rlim_cur);
	if (rl.rlim_max != RLIM_INFINITY)
		h->memlock_hard = rd_u64((uint64_t)rl.rlim_max);
}

int rd_rdma_core_version_from_path(const char *path, char *buf, size_t size)
{
	const char *b = strrchr(path, '/');
	const char *p;
	unsigned dots = 0;

	b = b ? b + 1 : path;
	if (strncmp(b, "libibverbs.so.", 14) != 0)
		return -EINVAL;
	/* libibverbs.so.1.<abi>.<rdma-core version>: skip "1.<abi>." */
	p = b + 14;
	while (*p && dots < 2) {
		if (*p == '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			return -EINVAL;
		p++;
	}
	if (dots < 2 || !isdigit((unsigned char)*p) || strlen(p) >= size ||
	    strlen(p) > 32)
		return -EINVAL;
	for (const char *q = p; *q; q++)
		if (!isalnum((unsigned char)*q) && *q != '.' && *q != '_' &&
		    *q != '-')
			return -EINVAL;
	snprintf(buf, size, "%s", p);
	return 0;
}

static int find_ibverbs(struct dl_phdr_info *info, size_t size, void *data)
{
	char *out = data;
	char *real;
	const char *b;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name)
		return 0;
	b = strrchr(info->dlpi_name, '/');
	b = b ? b + 1 : info->dlpi_name;
	if (strncmp(b, "libibverbs.so", 13) != 0)
		return 0;
	/* The soname link names the major only; its target has the rest. */
	real = realpath(info->dlpi_name, NULL);
	if (real) {
		(void)rd_rdma_core_version_from_path(real, out, 64);
		free(real);
	}
	return 1;
}

static void read_rdma_core(struct rd_snapshot *s)
{
	char version[64] = "";

	dl_iterate_phdr(find_ibverbs, version);
	if (version[0])
		(void)rd_str_set(&s->host.rdma_core_version, version);
}

/* ---- limits.conf ---- */

static bool limit_type_ok(const char *t)
{
	return strcmp(t, "soft") == 0 || strcmp(t, "hard") == 0 ||
	       strcmp(t, "-") == 0;
}

static bool memlock_value_ok(const char *v)
{
	uint64_t x;

	return strcmp(v, "unlimited") == 0 || strcmp(v, "infinity") == 0 ||
	       strcmp(v, "-1") == 0 || rd_parse_u64(v, 10, &x) == 0;
}

static void limits_line(struct rd_snapshot *s, const char *path,
			uint64_t lineno, char *line)
{
	char *field[5], *save = NULL, *tok, *hash;
	char where[PATH_MAX + 32];
	struct rd_limit_line *l;
	int n = 0;

	snprintf(where, sizeof(where), "%s:%llu", path,
		 (unsigned long long)lineno);
	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	/* Files edited on other systems end lines in CR LF. */
	for (size_t len = strlen(line);
	     len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r');)
		line[--len] = '\0';
	if (rd_text_check_lines(line, strlen(line)) < 0) {
		rd_snapshot_error(s, SRC, where, EILSEQ, "line is not text");
		return;
	}
	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < 5;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		field[n++] = tok;
	if (n == 0)
		return;
	if (n != 4) {
		rd_snapshot_error(s, SRC, where, EINVAL,
				  "expected \"domain type item value\", got %d "
				  "field%s",
				  n, n == 1 ? "" : "s");
		return;
	}
	if (!limit_type_ok(field[1])) {
		rd_snapshot_error(s, SRC, where, EINVAL,
				  "type \"%.32s\" is not soft, hard or -",
				  field[1]);
		return;
	}
	if (strcmp(field[2], "memlock") != 0)
		return;
	if (!memlock_value_ok(field[3])) {
		rd_snapshot_error(s, SRC, where, EINVAL,
				  "memlock value \"%.32s\" is not a number of "
				  "KiB or unlimited",
				  field[3]);
		return;
	}
	l = RD_PUSH(s->host.limits, s->host.n_limits);
	if (!l)
		return;
	l->file = rd_strdup(path);
	l->line = rd_u64(lineno);
	l->domain = rd_strdup(field[0]);
	l->type = rd_strdup(field[1]);
	l->item = rd_strdup(field[2]);
	l->value = rd_strdup(field[3]);
}

int rd_host_parse_limits(const char *path, struct rd_snapshot *s)
{
	char line[LIMITS_LINE_MAX];
	char where[PATH_MAX + 32];
	uint64_t lineno = 0;
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (lineno > LIMITS_MAX_LINES) {
			rd_snapshot_error(s, SRC, path, EFBIG,
					  "more than %d lines: rest ignored",
					  LIMITS_MAX_LINES);
			break;
		}
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			int c;

			snprintf(where, sizeof(where), "%s:%llu", path,
				 (unsigned long long)lineno);
			rd_snapshot_error(s, SRC, where, E2BIG,
					  "line longer than %d bytes",
					  LIMITS_LINE_MAX);
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (memchr(line, '\0', len) || strlen(line) != len)
			continue;
		limits_line(s, path, lineno, line);
	}
	fclose(f);
	return 0;
}

static void read_limits(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char path[PATH_MAX], dir[PATH_MAX];
	char **names;
	size_t nn;
	int r;

	if (rd_path(path, sizeof(path), ctx->roots->etc,
		    "/security/limits.conf") == 0) {
		r = rd_host_parse_limits(path, s);
		if (r < 0 && r != -ENOENT)
			rd_snapshot_error(s, SRC, path, r, NULL);
	}
	if (rd_probe_list_under(s, SRC, dir, sizeof(dir), ctx->roots->etc,
				"/security/limits.d", MAX_DIR_ENTRIES, &names,
				&nn) < 0)
		return;
	/* pam_limits reads only *.conf there, in name order. */
	for (size_t i = 0; i < nn; i++) {
		size_t l = strlen(names[i]);

		if (l <= 5 || strcmp(names[i] + l - 5, ".conf") != 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >=
		    (int)sizeof(path))
			continue;
		r = rd_host_parse_limits(path, s);
		if (r < 0)
			rd_snapshot_error(s, SRC, path, r, NULL);
	}
	rd_dir_free(names, nn);
}

/* ---- memory ---- */

static const struct meminfo_key {
	const char *key;
	size_t off;
	bool kb; /* sizes end in " kB"; counts have no unit */
} meminfo_keys[] = {
	{ "MemTotal", offsetof(struct rd_host, mem_total_kb), true },
	{ "HugePages_Total", offsetof(struct rd_host, hugepages_total), false },
	{ "HugePages_Free", offsetof(struct rd_host, hugepages_free), false },
	{ "Hugepagesize", offsetof(struct rd_host, hugepage_kb), true },
};

/* One "Key:   value [kB]" line; keys we do not use are skipped. */
static void meminfo_line(char *buf, const char *where, struct rd_snapshot *s)
{
	const struct meminfo_key *k = NULL;
	char *colon = strchr(buf, ':'), *val, w[PATH_MAX + 64];
	struct rd_ou64 *dst;
	size_t vl;
	uint64_t v;

	if (!colon)
		return;
	*colon = '\0';
	for (size_t i = 0; i < sizeof(meminfo_keys) / sizeof(*meminfo_keys);
	     i++)
		if (strcmp(buf, meminfo_keys[i].key) == 0)
			k = &meminfo_keys[i];
	if (!k)
		return;
	val = colon + 1;
	vl = strlen(val);
	dst = (struct rd_ou64 *)((char *)&s->host + k->off);
	if (k->kb && vl > 3 && strcmp(val + vl - 3, " kB") == 0) {
		val[vl - 3] = '\0';
	} else if (k->kb) {
		val = NULL;
	}
	if (val && rd_parse_u64(val, 10, &v) == 0) {
		*dst = rd_u64(v);
		return;
	}
	snprintf(w, sizeof(w), "%s: %s", where, k->key);
	rd_snapshot_error(s, SRC, w, EINVAL, "unexpected value \"%.64s\"",
			  colon + 1);
}

void rd_host_parse_meminfo(const char *text, const char *where,
			   struct rd_snapshot *s)
{
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[256];

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			meminfo_line(buf, where, s);
		}
		line = nl ? nl + 1 : NULL;
	}
}

static void read_meminfo(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char path[PATH_MAX];
	ssize_t r;
	char *buf;

	if (rd_path(path, sizeof(path), ctx->roots->proc, "/meminfo") < 0)
		return;
	buf = malloc(RD_ATTR_MAX + 1);
	if (!buf)
		return;
	r = rd_attr_read_lines(path, buf, RD_ATTR_MAX + 1);
	if (r >= 0)
		rd_host_parse_meminfo(buf, path, s);
	else
		rd_snapshot_error(s, SRC, path, (int)r, NULL);
	free(buf);
}

static void read_numa_nodes(const struct rd_probe_ctx *ctx,
			    struct rd_snapshot *s)
{
	char dir[PATH_MAX];
	char **names;
	size_t nn;
	uint64_t count = 0;

	/* No directory: a kernel without NUMA. Guess nothing. */
	if (rd_probe_list_under(s, SRC, dir, sizeof(dir), ctx->roots->sysfs,
				"/devices/system/node", MAX_DIR_ENTRIES, &names,
				&nn) < 0)
		return;
	for (size_t i = 0; i < nn; i++) {
		uint64_t v;

		if (strncmp(names[i], "node", 4) == 0 &&
		    rd_parse_u64(names[i] + 4, 10, &v) == 0)
			count++;
	}
	rd_dir_free(names, nn);
	if (count)
		s->host.numa_nodes = rd_u64(count);
}

/* ---- containers ---- */

const char *rd_container_from_cgroup(const char *text)
{
	static const struct {
		const char *needle, *kind;
	} hints[] = {
		{ "kubepods", "kubernetes" },
		{ "libpod", "podman" },
		{ "/docker/", "docker" },
		{ "docker-", "docker" },
		{ "/lxc/", "lxc" },
		{ "lxc.payload", "lxc" },
		{ "containerd", "containerd" },
	};

	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (strstr(text, hints[i].needle))
			return hints[i].kind;
	return NULL;
}

/* 1 overlay, 0 other type, -1 not the root mount or not parsable. */
static int mountinfo_root_line(char *buf)
{
	char *f[5], *save = NULL, *sep = strstr(buf, " - ");
	int n = 0;

	if (!sep)
		return -1;
	*sep = '\0';
	for (char *t = strtok_r(buf, " ", &save); t && n < 5;
	     t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	/* Field 5 is the mount point; the type follows " - ". */
	if (n < 5 || strcmp(f[4], "/") != 0)
		return -1;
	return strncmp(sep + 3, "overlay ", 8) == 0;
}

bool rd_mountinfo_overlay_root(const char *text)
{
	const char *line = text;
	int last = 0;

	/* Mounts stacked on "/" are listed in order: the last one is seen. */
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[4096];
		int r;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			r = mountinfo_root_line(buf);
			if (r >= 0)
				last = r;
		}
		line = nl ? nl + 1 : NULL;
	}
	return last == 1;
}

static bool env_word_ok(const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n > 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '-' && v[i] != '_')
			return false;
	return true;
}

static void read_container(const struct rd_probe_ctx *ctx,
			   struct rd_snapshot *s)
{
	const char *kind = NULL;
	char path[PATH_MAX];
	char *buf = malloc(RD_ATTR_MAX + 1);
	bool read = false;

	if (!buf)
		return;
	/* <proc>/self/root is "/" on a live host, a directory in a fixture. */
	if (rd_path(path, sizeof(path), ctx->roots->proc,
		    "/self/root/.dockerenv") == 0 &&
	    path_exists(path))
		kind = "docker";
	if (!kind &&
	    rd_path(path, sizeof(path), ctx->roots->proc,
		    "/self/root/run/.containerenv") == 0 &&
	    path_exists(path))
		kind = "podman";
	if (!kind && !ctx->roots->redirected) {
		const char *v = getenv("container");

		if (v && env_word_ok(v))
			kind = v;
	}
	if (!kind &&
	    rd_path(path, sizeof(path), ctx->roots->proc, "/1/cgroup") == 0 &&
	    rd_attr_read_lines(path, buf, RD_ATTR_MAX + 1) >= 0) {
		read = true;
		kind = rd_container_from_cgroup(buf);
	}
	if (!kind &&
	    rd_path(path, sizeof(path), ctx->roots->proc, "/self/mountinfo") ==
		    0 &&
	    rd_attr_read_lines(path, buf, RD_ATTR_MAX + 1) >= 0) {
		read = true;
		if (rd_mountinfo_overlay_root(buf))
			kind = "overlay-root";
	}
	/*
	 * "none" is a claim: only when the cgroup or the mounts were read
	 * and showed no container. A tree without /proc says nothing.
	 */
	if (kind || read)
		(void)rd_str_set(&s->host.container, kind ? kind : "none");
	else
		rd_snapshot_error(s, SRC, "container detection", ENOENT,
				  "neither %s/1/cgroup nor %s/self/mountinfo "
				  "could be read",
				  ctx->roots->proc, ctx->roots->proc);
	free(buf);
}

/* ---- /dev/infiniband ---- */

static bool devnode_name_ok(const char *n)
{
	static const char *const prefixes[] = { "uverbs", "umad", "issm",
						"rdma_cm" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static void add_devnode(struct rd_snapshot *s, const char *dir,
			const char *name)
{
	struct rd_host *h = &s->host;
	char path[PATH_MAX];
	struct rd_devnode *d;
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return;
	for (size_t i = 0; i < h->n_devnodes; i++)
		if (strcmp(h->devnodes[i].path, path) == 0)
			return;
	d = RD_PUSH(h->devnodes, h->n_devnodes);
	if (!d)
		return;
	d->path = rd_strdup(path);
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			d->exists = rd_bool(false);
		else
			rd_snapshot_error(s, SRC, path, errno, NULL);
		return;
	}
	d->exists = rd_bool(true);
	d->mode = rd_u64(st.st_mode & 07777);
	/* With effective ids, as open() will judge them. */
	d->readable = rd_bool(faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0);
	d->writable = rd_bool(faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0);
}

static int cmp_devnode(const void *a, const void *b)
{
	return strcmp(((const struct rd_devnode *)a)->path,
		      ((const struct rd_devnode *)b)->path);
}

static void read_devnodes(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char dir[PATH_MAX], misc[PATH_MAX];
	char **names;
	size_t nn;
	int r;

	/*
	 * A tree without /dev at all (a fixture of sysfs alone) tells
	 * nothing of the nodes; a host always has /dev, and there a missing
	 * /dev/infiniband is a finding.
	 */
	if (!path_exists(ctx->roots->dev)) {
		rd_snapshot_error(s, SRC, ctx->roots->dev, ENOENT,
				  "no /dev: device nodes not checked");
		return;
	}
	if (rd_path(dir, sizeof(dir), ctx->roots->dev, "/infiniband") < 0)
		return;
	r = rd_probe_list(s, SRC, dir, MAX_DIR_ENTRIES, &names, &nn);
	for (size_t i = 0; r == 0 && i < nn; i++)
		if (devnode_name_ok(names[i]))
			add_devnode(s, dir, names[i]);
	if (r == 0)
		rd_dir_free(names, nn);
	/* What the kernel offers must be here too: list the missing ones. */
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].uverbs)
			add_devnode(s, dir, s->devices[i].uverbs);
	if (rd_path(misc, sizeof(misc), ctx->roots->sysfs,
		    "/class/misc/rdma_cm") == 0 &&
	    path_exists(misc))
		add_devnode(s, dir, "rdma_cm");
	if (s->host.n_devnodes > 1)
		qsort(s->host.devnodes, s->host.n_devnodes,
		      sizeof(*s->host.devnodes), cmp_devnode);
}

/* ---- sysctls ---- */

static void read_sysctl_u64(const struct rd_probe_ctx *ctx,
			    struct rd_snapshot *s, const char *rel,
			    struct rd_ou64 *out)
{
	char path[PATH_MAX], buf[64];
	uint64_t v;

	if (rd_path(path, sizeof(path), ctx->roots->proc, "/sys/%s", rel) < 0 ||
	    rd_probe_read(s, SRC, AT_FDCWD, NULL, path, buf, sizeof(buf),
			  true) < 0)
		return;
	if (rd_parse_u64(buf, 10, &v) == 0)
		*out = rd_u64(v);
	else
		rd_probe_bad_value(s, SRC, NULL, path, EINVAL, buf);
}

static void read_sysctls(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char path[PATH_MAX], buf[64];
	int64_t v;

	if (rd_path(path, sizeof(path), ctx->roots->proc,
		    "/sys/net/ipv4/tcp_ecn") == 0 &&
	    rd_probe_read(s, SRC, AT_FDCWD, NULL, path, buf, sizeof(buf),
			  true) == 0) {
		if (rd_parse_s64(buf, 10, &v) == 0 && v >= 0 && v <= 255)
			s->host.tcp_ecn = rd_s64(v);
		else
			rd_probe_bad_value(s, SRC, NULL, path, EINVAL, buf);
	}
	read_sysctl_u64(ctx, s, "net/core/rmem_default", &s->host.rmem_default);
	read_sysctl_u64(ctx, s, "net/core/rmem_max", &s->host.rmem_max);
	read_sysctl_u64(ctx, s, "vm/nr_hugepages", &s->host.nr_hugepages);
}

static int probe_host_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	struct rd_host *h = &s->host;

	(void)state;
	read_identity(ctx, s);
	if (!ctx->roots->redirected) {
		h->is_root = rd_bool(geteuid() == 0);
		read_memlock(s);
		read_caps(s);
		read_affinity(s);
		read_mempolicy(s);
		read_rdma_core(s);
	}
	read_limits(ctx, s);
	read_meminfo(ctx, s);
	read_numa_nodes(ctx, s);
	read_container(ctx, s);
	read_devnodes(ctx, s);
	read_sysctls(ctx, s);
	return 0;
}

const struct rd_probe probe_host =
	RD_PROBE_ROW_STATELESS("host", 0, probe_host_collect);
