// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCIe tree above GPUs and RDMA NICs. Each GPU and NIC function's
 * link in /sys/bus/pci/devices names its chain of bridges up to the host
 * bridge (the link text is parsed, never followed past the tree); each
 * function in it is read from its own directory: identity, NUMA node,
 * link, IOMMU group, and for bridges the ACS control register, found by
 * walking the extended capability chain in its config file. A reader
 * without CAP_SYS_ADMIN gets the first 64 bytes of config space only: ACS
 * is then "unreadable", not absent.
 */
#include "config.h"
#include "probes/topo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/topo.h"
#include "probes/pci.h"
#include "probes/read.h"

#define SRC "topo"
#define MAX_DEVS 65536
#define CFG_MAX 4096

int rd_topo_gpu_class(unsigned vendor, unsigned class_id)
{
	unsigned cls = class_id >> 8;

	/* VGA 0x0300, 3D 0x0302; AMD's Instinct parts are display 0x0380
	 * or processing accelerators 0x1200. */
	if (vendor == 0x10de)
		return cls == 0x0300 || cls == 0x0302;
	if (vendor == 0x1002)
		return cls == 0x0300 || cls == 0x0302 || cls == 0x0380 ||
		       cls == 0x1200;
	return 0;
}

static unsigned le16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int rd_topo_parse_acs(const uint8_t *cfg, size_t len, unsigned *off,
		      unsigned *cap, unsigned *ctl)
{
	unsigned at = 0x100;

	/* At most one capability per dword of the extended space. */
	for (int guard = 0; guard < (CFG_MAX - 0x100) / 4; guard++) {
		uint32_t hdr;

		if ((size_t)at + 4 > len)
			return -ENODATA;
		hdr = le32(cfg + at);
		/* No extended capabilities (zero), or no extended space. */
		if (hdr == 0 || hdr == 0xffffffff)
			return -ENOENT;
		if ((hdr & 0xffff) == 0x000d) {
			if ((size_t)at + 8 > len)
				return -ENODATA;
			*off = at;
			*cap = le16(cfg + at + 4);
			*ctl = le16(cfg + at + 6);
			return 0;
		}
		at = hdr >> 20;
		if (at == 0)
			return -ENOENT;
		if (at < 0x100 || (at & 3))
			return -EINVAL;
	}
	return -EINVAL;
}

static int is_bdf(const char *s)
{
	unsigned d, b, dv, f;

	return strlen(s) < 16 && rd_pci_parse_bdf(s, &d, &b, &dv, &f) == 0;
}

int rd_topo_parse_link(const char *target, char *host, size_t hostlen,
		       char bdfs[][16], size_t max, size_t *n)
{
	char buf[1024], *parts[64];
	size_t np = 0, first;
	char *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", target) >= (int)sizeof(buf))
		return -EINVAL;
	for (char *w = strtok_r(buf, "/", &save); w && np < 64;
	     w = strtok_r(NULL, "/", &save))
		parts[np++] = w;
	if (np == 0 || !is_bdf(parts[np - 1]))
		return -EINVAL;
	first = np - 1;
	while (first > 0 && is_bdf(parts[first - 1]))
		first--;
	if (np - first > max || first == 0 ||
	    rd_text_check(parts[first - 1], strlen(parts[first - 1])) < 0)
		return -EINVAL;
	snprintf(host, hostlen, "%s", parts[first - 1]);
	*n = 0;
	for (size_t i = first; i < np; i++)
		snprintf(bdfs[(*n)++], 16, "%s", parts[i]);
	return 0;
}

static struct rd_topo_node *node_get(struct rd_topo *t, const char *bdf)
{
	long i = rd_topo_find(t, bdf);

	if (i >= 0)
		return &t->nodes[i];
	return RD_PUSH_NAMED(t->nodes, t->n_nodes, bdf, bdf);
}

static void read_acs(struct rd_snapshot *s, int dirfd, const char *base,
		     struct rd_topo_node *n)
{
	uint8_t cfg[CFG_MAX];
	unsigned off, cap, ctl;
	ssize_t len;
	int r;

	len = rd_attr_read_bytes_at(dirfd, "config", cfg, sizeof(cfg));
	if (len < 0) {
		char w[PATH_MAX];

		snprintf(w, sizeof(w), "%s/config", base);
		rd_snapshot_error(s, SRC, w, (int)len,
				  "config space not readable: ACS unknown");
		return;
	}
	r = rd_topo_parse_acs(cfg, (size_t)len, &off, &cap, &ctl);
	if (r == 0) {
		(void)rd_str_set(&n->acs, "read");
		n->acs_offset = rd_u64(off);
		n->acs_cap = rd_u64(cap);
		n->acs_ctl = rd_u64(ctl);
	} else {
		(void)rd_str_set(&n->acs, r == -ENOENT	  ? "none"
					  : r == -ENODATA ? "unreadable"
							  : "invalid");
	}
}

static void read_link(int dirfd, struct rd_topo_node *n)
{
	char buf[64];
	double g;
	uint64_t w;

	if (rd_attr_read_at(dirfd, "current_link_speed", buf, sizeof(buf)) >=
		    0 &&
	    rd_pci_parse_link_speed(buf, &g) == 0)
		n->speed_gts = rd_dbl(g);
	if (rd_attr_read_at(dirfd, "max_link_speed", buf, sizeof(buf)) >= 0 &&
	    rd_pci_parse_link_speed(buf, &g) == 0)
		n->max_speed_gts = rd_dbl(g);
	if (rd_attr_read_at(dirfd, "current_link_width", buf, sizeof(buf)) >=
		    0 &&
	    rd_parse_u64(buf, 10, &w) == 0 && w >= 1 && w <= 32)
		n->width = rd_u64(w);
	if (rd_attr_read_at(dirfd, "max_link_width", buf, sizeof(buf)) >= 0 &&
	    rd_parse_u64(buf, 10, &w) == 0 && w >= 1 && w <= 32)
		n->max_width = rd_u64(w);
}

static void read_iommu(const struct rd_probe_ctx *ctx, int dirfd,
		       struct rd_topo_node *n)
{
	char name[64], path[PATH_MAX], buf[64];
	uint64_t g;

	if (rd_probe_link_name(dirfd, "iommu_group", name, sizeof(name)) < 0 ||
	    rd_parse_u64(name, 10, &g) < 0)
		return;
	n->iommu_group = rd_u64(g);
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/kernel/iommu_groups/%s/type", name) == 0 &&
	    rd_attr_read(path, buf, sizeof(buf)) > 0)
		(void)rd_str_set(&n->iommu_type, buf);
}

/* Read one function of the tree from its directory. */
static void read_node(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		      int devsfd, const char *devsdir, struct rd_topo_node *n)
{
	char base[PATH_MAX], buf[64], link[256];
	uint64_t v;
	int64_t numa;
	int dirfd;

	snprintf(base, sizeof(base), "%s/%s", devsdir, n->bdf);
	dirfd = openat(devsfd, n->bdf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		rd_snapshot_error(s, SRC, base, errno, NULL);
		return;
	}
	if (rd_probe_read_u64(s, SRC, dirfd, base, "vendor", true, 0xffff, &v,
			      false) == 0)
		n->vendor_id = rd_u64(v);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "device", true, 0xffff, &v,
			      false) == 0)
		n->device_id = rd_u64(v);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "class", true, 0xffffff, &v,
			      false) == 0)
		n->class_id = rd_u64(v);
	/* Optional: a tree of files may lack them; they only refine
	 * NCCL's label on Broadcom switches. */
	if (rd_probe_read_u64(s, SRC, dirfd, base, "subsystem_vendor", true,
			      0xffff, &v, true) == 0)
		n->subsys_vendor_id = rd_u64(v);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "subsystem_device", true,
			      0xffff, &v, true) == 0)
		n->subsys_device_id = rd_u64(v);
	if (rd_probe_link_name(dirfd, "driver", link, sizeof(link)) == 0)
		(void)rd_str_set(&n->driver, link);
	if (rd_attr_read_at(dirfd, "numa_node", buf, sizeof(buf)) >= 0 &&
	    rd_parse_s64(buf, 10, &numa) == 0 && numa >= -1 && numa < 65536)
		n->numa_node = rd_s64(numa);
	read_link(dirfd, n);
	read_iommu(ctx, dirfd, n);
	if (strcmp(n->kind, "bridge") == 0)
		read_acs(s, dirfd, base, n);
	close(dirfd);
}

/* Add a GPU or NIC function and the bridges its link names. */
static void add_device(struct rd_snapshot *s, int devsfd, const char *devsdir,
		       const char *name, const char *kind, const char *rdma)
{
	struct rd_topo *t = &s->topo;
	char target[1024], host[128], bdfs[RD_TOPO_MAX_DEPTH][16];
	size_t n = 0;
	ssize_t len;

	len = readlinkat(devsfd, name, target, sizeof(target) - 1);
	if (len < 0) {
		char w[PATH_MAX];

		snprintf(w, sizeof(w), "%s/%s", devsdir, name);
		rd_snapshot_error(s, SRC, w, errno, "not a link into the tree");
		return;
	}
	target[len] = '\0';
	if (rd_topo_parse_link(target, host, sizeof(host), bdfs,
			       RD_TOPO_MAX_DEPTH, &n) < 0 ||
	    strcmp(bdfs[n - 1], name) != 0) {
		char w[PATH_MAX];

		snprintf(w, sizeof(w), "%s/%s", devsdir, name);
		rd_snapshot_error(s, SRC, w, EINVAL,
				  "link target is not a PCI path");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct rd_topo_node *nd = node_get(t, bdfs[i]);

		if (!nd)
			return;
		if (!nd->kind)
			(void)rd_str_set(&nd->kind,
					 i + 1 == n ? kind : "bridge");
		else if (i + 1 == n)
			(void)rd_str_set(&nd->kind, kind);
		(void)rd_str_set(&nd->parent, i ? bdfs[i - 1] : NULL);
		(void)rd_str_set(&nd->host_bridge, host);
		nd->depth = rd_u64(i);
		if (i + 1 == n && rdma)
			(void)rd_str_set(&nd->rdma_device, rdma);
	}
}

/* The module's directory is there (or could not be looked at). */
static bool loaded(const struct rd_probe_ctx *ctx, const char *module)
{
	char path[PATH_MAX];
	struct stat st;

	if (rd_path(path, sizeof(path), ctx->roots->sysfs, "/module/%s",
		    module) < 0)
		return true;
	return stat(path, &st) == 0 || errno != ENOENT;
}

static void read_peermem(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	static const char *const legacy[] = {
		"/kernel/mm/memory_peers/nv_mem/version",
		"/kernel/mm/memory_peers/nv_mem_nc/version",
	};
	struct rd_topo *t = &s->topo;
	char path[PATH_MAX], buf[128];
	bool unread = false;
	ssize_t r;

	/* The files NCCL tests: present means loaded. */
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/module/nvidia_peermem/version") == 0) {
		r = rd_attr_read(path, buf, sizeof(buf));
		t->nvidia_peermem = rd_bool(r >= 0);
		if (r >= 0)
			(void)rd_str_set(&t->nvidia_peermem_version, buf);
		else if (r != -ENOENT)
			rd_snapshot_error(s, SRC, path, (int)r, NULL);
	}
	for (size_t i = 0; i < 2 && !t->nv_peer_mem.ok; i++) {
		if (rd_path(path, sizeof(path), ctx->roots->sysfs, "%s",
			    legacy[i]) < 0) {
			unread = true;
			continue;
		}
		r = rd_attr_read(path, buf, sizeof(buf));
		if (r >= 0) {
			t->nv_peer_mem = rd_bool(true);
			(void)rd_str_set(&t->nv_peer_mem_version, buf);
		} else if (r != -ENOENT) {
			rd_snapshot_error(s, SRC, path, (int)r, NULL);
			unread = true;
		}
	}
	/* Absent only when every file NCCL tries was read as absent. */
	if (!t->nv_peer_mem.ok && !unread)
		t->nv_peer_mem = rd_bool(false);
	/* The open flavour is dual MIT/GPL; the proprietary one taints P. */
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/module/nvidia/taint") == 0) {
		r = rd_attr_read(path, buf, sizeof(buf));
		if (r >= 0)
			(void)rd_str_set(&t->nvidia_modules,
					 strchr(buf, 'P') ? "proprietary"
							  : "open");
		else if (r == -ENOENT && !loaded(ctx, "nvidia"))
			(void)rd_str_set(&t->nvidia_modules, "not loaded");
		else
			rd_snapshot_error(s, SRC, path, (int)r, NULL);
	}
}

static void read_iommu_host(const struct rd_probe_ctx *ctx,
			    struct rd_snapshot *s)
{
	struct rd_topo *t = &s->topo;
	char path[PATH_MAX], line[4096], words[512] = "";
	char **names = NULL;
	size_t n = 0, used = 0;
	char *save = NULL;

	if (rd_probe_list_under(s, SRC, path, sizeof(path), ctx->roots->sysfs,
				"/class/iommu", 256, &names, &n) == 0) {
		t->iommu = rd_bool(n > 0);
		rd_dir_free(names, n);
	}
	if (rd_path(path, sizeof(path), ctx->roots->proc, "/cmdline") < 0 ||
	    rd_attr_read(path, line, sizeof(line)) < 0)
		return;
	for (char *w = strtok_r(line, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "iommu", 5) && strncmp(w, "intel_iommu", 11) &&
		    strncmp(w, "amd_iommu", 9) && strncmp(w, "pci=", 4) &&
		    strncmp(w, "pcie_acs_override", 17))
			continue;
		if (used + strlen(w) + 2 >= sizeof(words))
			break;
		used += (size_t)snprintf(words + used, sizeof(words) - used,
					 "%s%s", used ? " " : "", w);
	}
	(void)rd_str_set(&t->cmdline, words);
}

static const char *nic_rdma(const struct rd_snapshot *s, const char *bdf)
{
	const struct rd_pci *p = rd_snapshot_pci(s, bdf);

	return p ? (p->rdma_device ? p->rdma_device : "") : NULL;
}

static int read_hex(int dirfd, const char *name, uint64_t *v)
{
	char buf[32];

	if (rd_attr_read_at(dirfd, name, buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "0x", 2) != 0)
		return -EINVAL;
	return rd_parse_u64(buf + 2, 16, v);
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Kept across refreshes: the tree is static but for links and ACS. */
struct topo_cache {
	struct rd_topo kept;
	uint64_t tick;
	bool ok;
};

static void topo_state_clear(void *state)
{
	struct topo_cache *c = state;

	rd_model_reset(rd_topo_fields, &c->kept, sizeof(c->kept));
	c->ok = false;
}

static int topo_read(const struct rd_probe_ctx *ctx, struct rd_snapshot *s);

static int probe_topo_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	struct topo_cache *c = state;
	int r;

	if (ctx->cache &&
	    rd_probe_cache_fresh(ctx, c->tick, c->ok, RD_PROBE_STATIC_EVERY)) {
		rd_model_reset(rd_topo_fields, &s->topo, sizeof(s->topo));
		if (rd_model_dup(rd_topo_fields, &s->topo, &c->kept,
				 sizeof(s->topo)) == 0)
			return 0;
	}
	r = topo_read(ctx, s);
	if (ctx->cache && s->topo.read.ok) {
		topo_state_clear(c);
		if (rd_model_dup(rd_topo_fields, &c->kept, &s->topo,
				 sizeof(c->kept)) == 0) {
			c->tick = ctx->tick;
			c->ok = true;
		}
	}
	return r;
}

static int topo_read(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char devsdir[PATH_MAX];
	char **names = NULL;
	size_t nn = 0;
	int devsfd, r;

	r = rd_probe_list_under(s, SRC, devsdir, sizeof(devsdir),
				ctx->roots->sysfs, "/bus/pci/devices", MAX_DEVS,
				&names, &nn);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	if (nn > 1)
		qsort(names, nn, sizeof(*names), cmp_name);
	devsfd = rd_probe_open_dir(s, SRC, devsdir);
	if (devsfd < 0) {
		rd_dir_free(names, nn);
		return 0;
	}
	/* GPUs first, then the NIC functions: the tree answers GPU-to-NIC
	 * paths, and for every NIC the links between it and its root port. */
	for (size_t i = 0; i < nn; i++) {
		uint64_t vendor, class_id;
		int dirfd;

		if (nic_rdma(s, names[i]))
			continue;
		dirfd = openat(devsfd, names[i],
			       O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			continue;
		/* Quietly: the pci probe already recorded a bad file. */
		if (read_hex(dirfd, "vendor", &vendor) == 0 &&
		    read_hex(dirfd, "class", &class_id) == 0 &&
		    rd_topo_gpu_class((unsigned)vendor, (unsigned)class_id))
			add_device(s, devsfd, devsdir, names[i], "gpu", NULL);
		close(dirfd);
	}
	for (size_t i = 0; i < nn; i++) {
		const char *rdma = nic_rdma(s, names[i]);

		if (rdma)
			add_device(s, devsfd, devsdir, names[i], "nic",
				   rdma[0] ? rdma : NULL);
	}
	rd_dir_free(names, nn);
	for (size_t i = 0; i < s->topo.n_nodes; i++)
		read_node(ctx, s, devsfd, devsdir, &s->topo.nodes[i]);
	close(devsfd);
	s->topo.read = rd_bool(true);
	read_peermem(ctx, s);
	read_iommu_host(ctx, s);
	return 0;
}

const struct rd_probe probe_topo =
	RD_PROBE_ROW("topo", 0, probe_topo_collect, struct topo_cache, NULL,
		     topo_state_clear);
