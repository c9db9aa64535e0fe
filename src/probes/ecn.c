// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ECN for RoCE (DCQCN). Upstream kernels have no per-priority switch in
 * sysfs; MLNX_OFED's mlx5 adds /sys/class/net/X/ecn/roce_np (notification
 * point: sends CNPs) and roce_rp (reaction point: slows down on CNPs), each
 * with enable/<prio> and tuning files. Their absence is recorded as
 * present=false, which a check must read as "not OFED", not "ECN off".
 *
 * rdma_cm's configfs directory shows default_roce_mode/default_roce_tos
 * only for devices someone created a directory for; we read what exists.
 */
#include "config.h"
#include "probes/ecn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "ecn"
#define MAX_ENTRIES 1024

bool rd_netdev_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n >= 16 || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '/' || name[i] <= ' ' || name[i] > '~')
			return false;
	return true;
}

/* enable/<prio> files: prio 0..7, value 0 or 1. */
static void read_enable(struct rd_snapshot *s, const char *dir,
			struct rd_counters *out)
{
	char path[PATH_MAX], key[16];
	char **names;
	size_t nn;

	if (rd_probe_list(s, SRC, dir, MAX_ENTRIES, &names, &nn) < 0)
		return;
	for (size_t i = 0; i < nn; i++) {
		uint64_t prio, v;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (rd_parse_u64(names[i], 10, &prio) < 0 || prio > 7) {
			rd_snapshot_error(s, SRC, path, EINVAL,
					  "not a priority (0-7)");
			continue;
		}
		snprintf(key, sizeof(key), "prio%u", (unsigned)prio);
		if (rd_probe_read_u64(s, SRC, AT_FDCWD, NULL, path, false, 1,
				      &v, true) == 0)
			rd_counters_add(out, key, rd_u64(v));
	}
	rd_dir_free(names, nn);
}

/* Every other numeric file of roce_np/ and roce_rp/ as "roce_xx/name". */
static void read_params(struct rd_snapshot *s, const char *dir,
			const char *prefix, struct rd_counters *out)
{
	char path[PATH_MAX], key[128];
	char **names;
	size_t nn;
	struct stat st;

	if (rd_dir_list(AT_FDCWD, dir, MAX_ENTRIES, &names, &nn) < 0)
		return;
	for (size_t i = 0; i < nn; i++) {
		uint64_t v;

		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >=
			    (int)sizeof(path) ||
		    stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(key, sizeof(key), "%s/%s", prefix, names[i]);
		if (rd_probe_read_u64(s, SRC, AT_FDCWD, NULL, path, false,
				      UINT64_MAX, &v, true) == 0)
			rd_counters_add(out, key, rd_u64(v));
	}
	rd_dir_free(names, nn);
}

static void read_ecn(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		     struct rd_netdev *nd)
{
	char base[PATH_MAX], dir[PATH_MAX + 32];
	struct rd_ecn *e = &nd->ecn;
	struct stat st;

	if (rd_path(base, sizeof(base), ctx->roots->sysfs, "/class/net/%s/ecn",
		    nd->name) < 0)
		return;
	if (stat(base, &st) < 0) {
		/* Unreadable is not the same as absent: leave it unknown. */
		if (errno == ENOENT || errno == ENOTDIR)
			e->present = rd_bool(false);
		else
			rd_snapshot_error(s, SRC, base, errno, NULL);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		rd_snapshot_error(s, SRC, base, ENOTDIR, NULL);
		return;
	}
	e->present = rd_bool(true);
	snprintf(dir, sizeof(dir), "%s/roce_np/enable", base);
	read_enable(s, dir, &e->np_enable);
	snprintf(dir, sizeof(dir), "%s/roce_rp/enable", base);
	read_enable(s, dir, &e->rp_enable);
	snprintf(dir, sizeof(dir), "%s/roce_np", base);
	read_params(s, dir, "roce_np", &e->params);
	snprintf(dir, sizeof(dir), "%s/roce_rp", base);
	read_params(s, dir, "roce_rp", &e->params);
}

static struct rd_netdev *netdev_entry(struct rd_snapshot *s, const char *name,
				      const char *rdma, uint64_t port)
{
	struct rd_netdev *nd = rd_snapshot_netdev(s, name);

	if (nd)
		return nd;
	/* The netlink probe did not run (fixtures) or did not see it. */
	nd = RD_PUSH_NAMED(s->netdevs, s->n_netdevs, name, name);
	if (!nd)
		return NULL;
	nd->rdma_device = rd_strdup(rdma);
	nd->rdma_port = rd_u64(port);
	return nd;
}

static void read_cm_port(struct rd_snapshot *s, const char *dir,
			 const char *dev, uint64_t port)
{
	char path[PATH_MAX + 32], buf[64];
	struct rd_cm_port *c;
	uint64_t tos;
	ssize_t r;

	c = RD_PUSH(s->host.cm_ports, s->host.n_cm_ports);
	if (!c)
		return;
	c->device = rd_strdup(dev);
	c->port = rd_u64(port);
	snprintf(path, sizeof(path), "%s/default_roce_mode", dir);
	r = rd_attr_read(path, buf, sizeof(buf));
	if (r >= 0) {
		/* The kernel's names for the GID types. */
		if (strcmp(buf, "RoCE v2") == 0 ||
		    strcmp(buf, "IB/RoCE v1") == 0)
			c->default_roce_mode = rd_strdup(buf);
		else
			rd_snapshot_error(s, SRC, path, EINVAL,
					  "unexpected value \"%.64s\"", buf);
	} else if (r != -ENOENT) {
		rd_snapshot_error(s, SRC, path, (int)r, NULL);
	}
	snprintf(path, sizeof(path), "%s/default_roce_tos", dir);
	if (rd_probe_read_u64(s, SRC, AT_FDCWD, NULL, path, false, 255, &tos,
			      true) == 0)
		c->default_roce_tos = rd_u64(tos);
}

static void read_rdma_cm(const struct rd_probe_ctx *ctx, struct rd_snapshot *s)
{
	char root[PATH_MAX], dir[PATH_MAX + 512];
	char **devs, **ports;
	size_t nd, np;

	/* Absent: configfs not mounted or rdma_cm not loaded; nothing set. */
	if (rd_probe_list_under(s, SRC, root, sizeof(root), ctx->roots->sysfs,
				"/kernel/config/rdma_cm", MAX_ENTRIES, &devs,
				&nd) < 0)
		return;
	for (size_t i = 0; i < nd; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/ports", root, devs[i]);
		if (rd_dir_list(AT_FDCWD, dir, MAX_ENTRIES, &ports, &np) < 0)
			continue;
		for (size_t j = 0; j < np; j++) {
			char pdir[sizeof(dir) + 300];
			uint64_t port;

			snprintf(pdir, sizeof(pdir), "%s/%s", dir, ports[j]);
			if (rd_parse_u64(ports[j], 10, &port) < 0 ||
			    port == 0 || port > 255) {
				rd_snapshot_error(s, SRC, pdir, EINVAL,
						  "not a port number");
				continue;
			}
			read_cm_port(s, pdir, devs[i], port);
		}
		rd_dir_free(ports, np);
	}
	rd_dir_free(devs, nd);
}

static int probe_ecn_collect(const struct rd_probe_ctx *ctx, void *state,
			     struct rd_snapshot *s)
{
	(void)state;
	/* Netdevs of RDMA ports as sysfs saw them... */
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t j = 0; j < d->n_ports; j++) {
			const char *name = d->ports[j].netdev;
			struct rd_netdev *nd;

			if (!name)
				continue;
			if (!rd_netdev_name_ok(name)) {
				rd_snapshot_error(s, SRC, name, EINVAL,
						  "unusable netdev name");
				continue;
			}
			nd = netdev_entry(s, name, d->name, d->ports[j].port);
			if (nd && !nd->ecn.present.ok)
				read_ecn(ctx, s, nd);
		}
	}
	/* ...and as netlink saw them. */
	for (size_t i = 0; i < s->n_netdevs; i++) {
		struct rd_netdev *nd = &s->netdevs[i];

		if (nd->rdma_device && !nd->ecn.present.ok &&
		    rd_netdev_name_ok(nd->name))
			read_ecn(ctx, s, nd);
	}
	read_rdma_cm(ctx, s);
	return 0;
}

const struct rd_probe probe_ecn =
	RD_PROBE_ROW_STATELESS("ecn", 0, probe_ecn_collect);
