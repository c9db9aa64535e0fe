// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SR-IOV and bonds, from sysfs: each NIC function's sriov_totalvfs and
 * sriov_numvfs and its virtfnN links (each VF's driver, netdev and RDMA
 * device), and for each netdev that is a bonding master its mode, hash
 * policy and members with their state; the mlx5 LAG state from debugfs
 * when it is readable (root).
 */
#include "config.h"
#include "probes/virt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "virt"
#define MAX_ENTRIES 4096

int rd_bond_parse_mode(const char *text, char *name, size_t len, uint64_t *num)
{
	const char *sp = strrchr(text, ' ');
	size_t n;

	if (!sp || sp == text)
		return -EINVAL;
	n = (size_t)(sp - text);
	if (n >= len || rd_parse_u64(sp + 1, 10, num) < 0 || *num > 6)
		return -EINVAL;
	memcpy(name, text, n);
	name[n] = '\0';
	return 0;
}

/* The first entry of dir/rel (a netdev, an RDMA device), or NULL. */
static char *first_entry(int dirfd, const char *rel)
{
	char **names = NULL;
	size_t n = 0;
	char *r = NULL;

	if (rd_dir_list(dirfd, rel, 64, &names, &n) == 0 && n > 0 &&
	    rd_text_check(names[0], strlen(names[0])) == 0)
		r = rd_strdup(names[0]);
	rd_dir_free(names, n);
	return r;
}

static void read_vf(struct rd_snapshot *s, int devsfd, struct rd_vf *v)
{
	char link[256];
	int fd = openat(devsfd, v->bdf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	(void)s;
	if (fd < 0)
		return;
	if (rd_probe_link_name(fd, "driver", link, sizeof(link)) == 0)
		(void)rd_str_set(&v->driver, link);
	v->netdev = first_entry(fd, "net");
	v->rdma_device = first_entry(fd, "infiniband");
	close(fd);
}

static void read_sriov(struct rd_snapshot *s, int devsfd, const char *devsdir,
		       const struct rd_pci *p)
{
	char base[PATH_MAX], name[32], link[64];
	struct rd_sriov *sv;
	uint64_t total, num;
	int fd;

	snprintf(base, sizeof(base), "%s/%s", devsdir, p->bdf);
	fd = openat(devsfd, p->bdf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* No sriov_totalvfs: not a physical function with SR-IOV. */
	if (rd_probe_read_u64(s, SRC, fd, base, "sriov_totalvfs", false, 65535,
			      &total, true) < 0) {
		close(fd);
		return;
	}
	sv = RD_PUSH(s->sriov, s->n_sriov);
	if (!sv) {
		close(fd);
		return;
	}
	sv->pf_bdf = rd_strdup(p->bdf);
	(void)rd_str_set(&sv->pf_rdma_device, p->rdma_device);
	sv->pf_netdev = first_entry(fd, "net");
	sv->totalvfs = rd_u64(total);
	if (rd_probe_read_u64(s, SRC, fd, base, "sriov_numvfs", false, 65535,
			      &num, false) == 0)
		sv->numvfs = rd_u64(num);
	for (uint64_t i = 0; sv->numvfs.ok && i < num && i < total; i++) {
		struct rd_vf *v;

		snprintf(name, sizeof(name), "virtfn%llu",
			 (unsigned long long)i);
		if (rd_probe_link_name(fd, name, link, sizeof(link)) < 0)
			continue;
		v = RD_PUSH(sv->vfs, sv->n_vfs);
		if (!v)
			break;
		v->index = rd_u64(i);
		v->bdf = rd_strdup(link);
		read_vf(s, devsfd, v);
	}
	close(fd);
}

static char *read_text(const char *path)
{
	char buf[512];

	return rd_attr_read(path, buf, sizeof(buf)) >= 0 ? rd_strdup(buf)
							 : NULL;
}

static void read_bond(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		      const struct rd_netdev *n)
{
	char path[PATH_MAX], buf[512], mode[32];
	struct rd_bond *b;
	uint64_t num;
	char *save = NULL;

	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/mode", n->name) < 0 ||
	    rd_attr_read(path, buf, sizeof(buf)) < 0)
		return;
	b = RD_PUSH(s->bonds, s->n_bonds);
	if (!b)
		return;
	b->name = rd_strdup(n->name);
	(void)rd_str_set(&b->rdma_device, n->rdma_device);
	if (rd_bond_parse_mode(buf, mode, sizeof(mode), &num) == 0) {
		b->mode = rd_strdup(mode);
		b->mode_num = rd_u64(num);
	} else {
		rd_probe_bad_value(s, SRC, NULL, path, EINVAL, buf);
	}
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/xmit_hash_policy", n->name) == 0 &&
	    rd_attr_read(path, buf, sizeof(buf)) >= 0 &&
	    rd_bond_parse_mode(buf, mode, sizeof(mode), &num) == 0)
		b->hash_policy = rd_strdup(mode);
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/active_slave", n->name) == 0)
		b->active_slave = read_text(path);
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/slaves", n->name) < 0 ||
	    rd_attr_read(path, buf, sizeof(buf)) < 0)
		return;
	for (char *w = strtok_r(buf, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		const struct rd_netdev *mn = rd_snapshot_netdev(s, w);
		struct rd_bond_member *m = RD_PUSH(b->members, b->n_members);
		char v[64];
		uint64_t c;

		if (!m)
			break;
		m->name = rd_strdup(w);
		if (mn) {
			(void)rd_str_set(&m->pci_bdf, mn->pci_bdf);
			(void)rd_str_set(&m->rdma_device, mn->rdma_device);
		}
		if (rd_path(path, sizeof(path), ctx->roots->sysfs,
			    "/class/net/%s/operstate", w) == 0)
			m->operstate = read_text(path);
		if (rd_path(path, sizeof(path), ctx->roots->sysfs,
			    "/class/net/%s/carrier", w) == 0 &&
		    rd_attr_read(path, v, sizeof(v)) >= 0 &&
		    rd_parse_u64(v, 10, &c) == 0 && c <= 1)
			m->carrier = rd_bool(c == 1);
	}
	if (b->n_members && b->members[0].pci_bdf &&
	    rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/kernel/debug/mlx5/%s/lag/state",
		    b->members[0].pci_bdf) == 0)
		b->lag_state = read_text(path);
}

static int probe_virt_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	char devsdir[PATH_MAX];
	int devsfd;

	(void)state;
	if (rd_path(devsdir, sizeof(devsdir), ctx->roots->sysfs,
		    "/bus/pci/devices") == 0 &&
	    (devsfd = open(devsdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		for (size_t i = 0; i < s->n_pci; i++)
			if (s->pci[i].bdf)
				read_sriov(s, devsfd, devsdir, &s->pci[i]);
		close(devsfd);
	}
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (s->netdevs[i].name)
			read_bond(ctx, s, &s->netdevs[i]);
	return 0;
}

const struct rd_probe probe_virt =
	RD_PROBE_ROW_STATELESS("virt", 0, probe_virt_collect);
