// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /sys/class/infiniband: devices, ports, GIDs, P_Keys and counters.
 *
 * Everything goes through a per-device cache so the console's refresh is
 * cheap: counter and port-state files stay open and are re-read with one
 * pread each; static attributes (GUIDs, firmware, names) are read again
 * only every RD_STATIC_EVERY refreshes; the GID table every RD_GID_EVERY.
 * A one-shot snapshot uses the same code with a cache it throws away.
 */
#include "config.h"
#include "probes/ib_sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "ib_sysfs"
#define RD_STATIC_EVERY 30
#define RD_GID_EVERY 10
#define ATTR_BUF 4096
/* Directories with more entries than this are refused as hostile. */
#define MAX_DIR_ENTRIES 65536

enum port_attr {
	PA_STATE,
	PA_PHYS,
	PA_RATE,
	PA_LID,
	PA_SM_LID,
	PA_SM_SL,
	PA_LMC,
	PA_CAP,
	PA_COUNT
};

static const char *const port_attr_file[PA_COUNT] = {
	"state", "phys_state", "rate", "lid", "sm_lid", "sm_sl",
	"lid_mask_count", "cap_mask",
};

struct attr_fd {
	char *name;
	int fd;
};

struct port_cache {
	uint64_t port;
	int dirfd;
	int fd[PA_COUNT];
	struct attr_fd *ctr;
	size_t n_ctr;
	bool ctr_scanned;
	struct attr_fd *hw;
	size_t n_hw;
	bool hw_scanned;
	/* Slow-changing port data, refreshed every RD_GID_EVERY ticks; the
	 * rest of the port stays empty, so it is freed as a whole port. */
	struct rd_port slow;
	bool slow_ok;
	uint64_t slow_tick;
};

struct dev_cache {
	char *name;
	dev_t st_dev;
	ino_t st_ino;
	int dirfd;
	struct rd_device stat;	/* static fields only: freed as a device */
	bool stat_ok;
	uint64_t stat_tick;
	struct port_cache *ports;
	size_t n_ports;
	bool seen;
};

struct ib_sysfs_cache {
	struct dev_cache *devs;
	size_t n_devs;
};

/* ---- small helpers ---- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void attr_fds_free(struct attr_fd **v, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		free((*v)[i].name);
		close_fd(&(*v)[i].fd);
	}
	free(*v);
	*v = NULL;
	*n = 0;
}

static void port_cache_clear(struct port_cache *pc)
{
	close_fd(&pc->dirfd);
	for (int i = 0; i < PA_COUNT; i++)
		close_fd(&pc->fd[i]);
	attr_fds_free(&pc->ctr, &pc->n_ctr);
	attr_fds_free(&pc->hw, &pc->n_hw);
	rd_model_free(rd_port_fields, &pc->slow);
	pc->slow_ok = false;
}

static void dev_cache_clear(struct dev_cache *dc)
{
	for (size_t i = 0; i < dc->n_ports; i++)
		port_cache_clear(&dc->ports[i]);
	free(dc->ports);
	dc->ports = NULL;
	dc->n_ports = 0;
	close_fd(&dc->dirfd);
	rd_model_free(rd_device_fields, &dc->stat);
	free(dc->name);
	dc->name = NULL;
}

static void ib_sysfs_state_clear(void *state)
{
	struct ib_sysfs_cache *c = state;

	for (size_t i = 0; i < c->n_devs; i++)
		dev_cache_clear(&c->devs[i]);
	free(c->devs);
	c->devs = NULL;
	c->n_devs = 0;
}

/* Path of dirfd-relative name for error messages. */
static void where(char *buf, size_t size, const char *base, const char *rel)
{
	snprintf(buf, size, "%s/%s", base, rel);
}

/*
 * buf, read from base/rel, as a number in numbase no larger than max;
 * anything else is recorded as an unexpected value.
 */
static void parse_num(struct rd_snapshot *s, const char *base, const char *rel,
		      const char *buf, struct rd_ou64 *out, uint64_t max,
		      int numbase)
{
	uint64_t v;

	if (rd_parse_u64(buf, numbase, &v) == 0 && v <= max)
		*out = rd_u64(v);
	else
		rd_probe_bad_value(s, SRC, base, rel, EINVAL, buf);
}

int rd_parse_state_line(const char *text, uint64_t *num)
{
	return rd_parse_u64_prefix(text, ":", num, NULL);
}

int rd_parse_rate(const char *text, double *gbps, char *width, size_t wlen,
		  char *speed, size_t slen)
{
	char unit[16], rest[128];
	const char *p;
	size_t i;

	if (rd_probe_lead_number(text, gbps, &p) < 0 || *gbps < 0)
		return -EINVAL;
	while (*p == ' ')
		p++;
	i = 0;
	while (p[i] && p[i] != ' ' && i + 1 < sizeof(unit)) {
		unit[i] = p[i];
		i++;
	}
	unit[i] = '\0';
	if (strcmp(unit, "Gb/sec") != 0)
		return -EINVAL;
	p += i;
	while (*p == ' ')
		p++;
	width[0] = speed[0] = '\0';
	if (*p == '\0')
		return 0;
	/* "(4X EDR)" or "(4X)" or "(1X 25.0 Gbps)" */
	if (*p != '(' || strlen(p) >= sizeof(rest))
		return -EINVAL;
	snprintf(rest, sizeof(rest), "%s", p + 1);
	char *close = strchr(rest, ')');
	if (!close || close[1] != '\0')
		return -EINVAL;
	*close = '\0';
	char *sp = strchr(rest, ' ');
	if (sp) {
		*sp = '\0';
		/* A part that does not fit is no rate the kernel writes; a
		 * cut would also split a UTF-8 character. */
		if ((size_t)snprintf(speed, slen, "%s", sp + 1) >= slen)
			return -EINVAL;
	}
	if ((size_t)snprintf(width, wlen, "%s", rest) >= wlen)
		return -EINVAL;
	return 0;
}

/* ---- static device data ---- */

static bool looks_like_bdf(const char *s)
{
	unsigned a, b, c, d;
	char tail;

	return sscanf(s, "%4x:%2x:%2x.%1x%c", &a, &b, &c, &d, &tail) == 4 &&
	       strlen(s) == 12;
}

static void find_uverbs(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
			const char *devname, struct rd_device *d)
{
	char path[PATH_MAX], buf[256];
	struct dirent *de;
	DIR *dir;

	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/infiniband_verbs") < 0)
		return;
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char p2[PATH_MAX];

		if (strncmp(de->d_name, "uverbs", 6) != 0)
			continue;
		if (snprintf(p2, sizeof(p2), "%s/%s/ibdev", path, de->d_name) >=
		    (int)sizeof(p2))
			continue;
		if (rd_attr_read(p2, buf, sizeof(buf)) < 0)
			continue;
		if (strcmp(buf, devname) == 0) {
			rd_str_put(&d->uverbs, de->d_name);
			/* The node as the host names it, whatever the roots. */
			snprintf(p2, sizeof(p2), "/dev/infiniband/%s",
				 de->d_name);
			rd_str_put(&d->uverbs_dev, p2);
			break;
		}
	}
	closedir(dir);
	(void)s;
}

/* Device attributes read as they are: GUIDs, then optional text. */
static const struct {
	const char *file;
	size_t off;
	bool optional;
} guids[] = {
	{ "node_guid", offsetof(struct rd_device, node_guid), false },
	{ "sys_image_guid", offsetof(struct rd_device, sys_image_guid), true },
};
static const struct {
	const char *file;
	size_t off;
} texts[] = {
	{ "fw_ver", offsetof(struct rd_device, fw_ver) },
	{ "hca_type", offsetof(struct rd_device, hca_type) },
	{ "board_id", offsetof(struct rd_device, board_id) },
	{ "node_desc", offsetof(struct rd_device, node_desc) },
};
static void read_static(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
			struct dev_cache *dc, const char *base)
{
	struct rd_device *d = &dc->stat;
	char buf[ATTR_BUF];
	uint64_t v;

	/* Read afresh: nothing of the last reading stays. */
	rd_model_reset(rd_device_fields, d, sizeof(*d));

	if (rd_probe_read(s, SRC, dc->dirfd, base, "node_type", buf,
			  sizeof(buf), false) == 0) {
		if (rd_parse_state_line(buf, &v) == 0) {
			d->node_type_num = rd_u64(v);
			rd_str_put(&d->node_type, rd_node_type_name(v));
		} else {
			rd_probe_bad_value(s, SRC, base, "node_type", EINVAL,
					   buf);
		}
	}
	for (size_t i = 0; i < sizeof(guids) / sizeof(guids[0]); i++) {
		if (rd_probe_read(s, SRC, dc->dirfd, base, guids[i].file, buf,
				  sizeof(buf), guids[i].optional) < 0)
			continue;
		if (rd_parse_guid(buf, &v) == 0)
			*(struct rd_ou64 *)((char *)d + guids[i].off) = rd_u64(v);
		else
			rd_probe_bad_value(s, SRC, base, guids[i].file, EINVAL,
					   buf);
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (rd_probe_read(s, SRC, dc->dirfd, base, texts[i].file, buf,
				  sizeof(buf), true) == 0)
			rd_str_put((char **)((char *)d + texts[i].off), buf);

	/* The parent device: a PCI function for hardware, none for rxe/siw. */
	if (rd_probe_link_name(dc->dirfd, "device", buf, sizeof(buf)) == 0) {
		if (looks_like_bdf(buf))
			rd_str_put(&d->pci_bdf, buf);
		if (rd_probe_link_name(dc->dirfd, "device/driver", buf,
				       sizeof(buf)) == 0)
			rd_str_put(&d->driver, buf);
	}
	if (!d->driver) {
		/* Software devices name their driver in the device name. */
		if (strncmp(dc->name, "rxe", 3) == 0)
			rd_str_put(&d->driver, "rdma_rxe");
		else if (strncmp(dc->name, "siw", 3) == 0)
			rd_str_put(&d->driver, "siw");
	}
	find_uverbs(ctx, s, dc->name, d);
	dc->stat_ok = true;
	dc->stat_tick = ctx->tick;
}

/* ---- ports ---- */

static int port_pread(struct port_cache *pc, enum port_attr a, char *buf,
		      size_t size)
{
	ssize_t r;

	if (pc->fd[a] < 0) {
		int fd = openat(pc->dirfd, port_attr_file[a],
				O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			return -errno;
		pc->fd[a] = fd;
	}
	r = rd_attr_pread(pc->fd[a], buf, size);
	if (r < 0 && (r == -ENODEV || r == -ENOENT || r == -EISDIR))
		close_fd(&pc->fd[a]);
	return r < 0 ? (int)r : 0;
}

/* Open every counter file of a directory once; later refreshes only pread. */
static void scan_counters(struct rd_snapshot *s, int pdirfd, const char *pbase,
			  const char *sub, struct attr_fd **fds, size_t *n)
{
	char **names;
	size_t nn;
	int subfd, r;
	char w[1024];

	r = rd_dir_list(pdirfd, sub, MAX_DIR_ENTRIES, &names, &nn);
	if (r < 0) {
		if (r != -ENOENT) {
			where(w, sizeof(w), pbase, sub);
			rd_snapshot_error(s, SRC, w, r, NULL);
		}
		return;
	}
	subfd = openat(pdirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; subfd >= 0 && i < nn; i++) {
		struct attr_fd *a;
		int fd;

		/* A setting, not a counter. */
		if (strcmp(names[i], "lifespan") == 0)
			continue;
		fd = openat(subfd, names[i],
			    O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		a = RD_PUSH(*fds, *n);
		if (!a) {
			if (fd >= 0)
				close(fd);
			break;
		}
		a->name = names[i];
		names[i] = NULL;
		a->fd = fd >= 0 ? fd : -errno;
	}
	if (subfd >= 0)
		close(subfd);
	rd_dir_free(names, nn);
}

static void read_counters(struct rd_snapshot *s, const char *pbase,
			  const char *sub, struct attr_fd *fds, size_t n,
			  struct rd_counters *out, bool *stale)
{
	char buf[128], w[1024];

	for (size_t i = 0; i < n; i++) {
		struct rd_ou64 v = { 0 };
		ssize_t r = fds[i].fd;
		uint64_t x;

		if (fds[i].fd >= 0)
			r = rd_attr_pread(fds[i].fd, buf, sizeof(buf));
		if (r < 0) {
			if (r == -ENODEV || r == -ENOENT)
				*stale = true;
			snprintf(w, sizeof(w), "%s/%s/%s", pbase, sub,
				 fds[i].name);
			rd_snapshot_error(s, SRC, w, (int)r, NULL);
		} else if (rd_parse_u64(buf, 10, &x) == 0) {
			v = rd_u64(x);
		} else {
			snprintf(w, sizeof(w), "%s/%s", sub, fds[i].name);
			rd_probe_bad_value(s, SRC, pbase, w, EINVAL, buf);
		}
		rd_counters_add(out, fds[i].name, v);
	}
}

static void read_gids(struct rd_snapshot *s, int pdirfd, const char *pbase,
		      struct rd_port *slow)
{
	char **names;
	size_t nn;
	char buf[256], rel[96];

	if (rd_dir_list(pdirfd, "gids", MAX_DIR_ENTRIES, &names, &nn) < 0)
		return;
	for (size_t i = 0; i < nn; i++) {
		uint8_t raw[16];
		uint64_t idx;
		struct rd_gid *g;
		static const uint8_t zero[16];

		if (rd_parse_u64(names[i], 10, &idx) < 0)
			continue;
		snprintf(rel, sizeof(rel), "gids/%s", names[i]);
		if (rd_probe_read(s, SRC, pdirfd, pbase, rel, buf, sizeof(buf),
				  false) < 0)
			continue;
		if (rd_parse_gid(buf, raw) < 0) {
			rd_probe_bad_value(s, SRC, pbase, rel, EINVAL, buf);
			continue;
		}
		if (memcmp(raw, zero, 16) == 0)
			continue;
		g = RD_PUSH(slow->gids, slow->n_gids);
		if (!g)
			break;
		g->index = idx;
		memcpy(g->raw, raw, 16);
		g->raw_ok = true;
		snprintf(rel, sizeof(rel), "gid_attrs/types/%s", names[i]);
		if (rd_attr_read_at(pdirfd, rel, buf, sizeof(buf)) >= 0)
			rd_str_put(&g->type, buf);
		snprintf(rel, sizeof(rel), "gid_attrs/ndevs/%s", names[i]);
		if (rd_attr_read_at(pdirfd, rel, buf, sizeof(buf)) >= 0)
			rd_str_put(&g->netdev, buf);
	}
	/* Entries were sorted as strings; order them by index. */
	for (size_t i = 1; i < slow->n_gids; i++) {
		for (size_t j = i; j > 0 &&
				   slow->gids[j - 1].index > slow->gids[j].index;
		     j--) {
			struct rd_gid t = slow->gids[j];
			slow->gids[j] = slow->gids[j - 1];
			slow->gids[j - 1] = t;
		}
	}
	rd_dir_free(names, nn);
}

static void read_slow(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		      struct port_cache *pc, const char *pbase)
{
	struct rd_port *p = &pc->slow;
	char buf[ATTR_BUF];

	rd_model_reset(rd_port_fields, p, sizeof(*p));
	if (rd_probe_read(s, SRC, pc->dirfd, pbase, "link_layer", buf,
			  sizeof(buf), false) == 0)
		rd_str_put(&p->link_layer, buf);
	if (rd_probe_read(s, SRC, pc->dirfd, pbase, "pkeys/0", buf, sizeof(buf),
			  true) == 0)
		parse_num(s, pbase, "pkeys/0", buf, &p->pkey0, 0xffff, 16);
	read_gids(s, pc->dirfd, pbase, p);
	/* The netdev of a RoCE port: what GID 0 is bound to. */
	if (rd_attr_read_at(pc->dirfd, "gid_attrs/ndevs/0", buf, sizeof(buf)) >= 0 &&
	    buf[0])
		rd_str_put(&p->netdev, buf);
	for (size_t i = 0; !p->netdev && i < p->n_gids; i++)
		if (p->gids[i].netdev)
			rd_str_put(&p->netdev, p->gids[i].netdev);
	pc->slow_ok = true;
	pc->slow_tick = ctx->tick;
}

/*
 * A netdev can be renamed while its port stays DOWN, so no state change
 * marks it: GID 0's netdev is one small read, worth doing every refresh
 * rather than show a name that no longer exists until the next GID read.
 */
static bool netdev_renamed(const struct port_cache *pc)
{
	char buf[256];

	if (rd_attr_read_at(pc->dirfd, "gid_attrs/ndevs/0", buf,
			    sizeof(buf)) < 0 || !buf[0])
		return false;
	return !pc->slow.netdev || strcmp(buf, pc->slow.netdev) != 0;
}

static void copy_gids(struct rd_port *dst, const struct rd_port *src)
{
	for (size_t i = 0; i < src->n_gids; i++) {
		struct rd_gid *g = RD_PUSH(dst->gids, dst->n_gids);

		if (!g)
			return;
		*g = src->gids[i];
		g->type = rd_strdup(src->gids[i].type);
		g->netdev = rd_strdup(src->gids[i].netdev);
	}
}

/* The numeric port attributes: where they go, the largest value, base. */
static const struct {
	size_t off;
	uint64_t max;
	int base;
} port_nums[PA_COUNT] = {
	[PA_LID] = { offsetof(struct rd_port, lid), 0xffff, 16 },
	[PA_SM_LID] = { offsetof(struct rd_port, sm_lid), 0xffff, 16 },
	[PA_SM_SL] = { offsetof(struct rd_port, sm_sl), 15, 10 },
	[PA_LMC] = { offsetof(struct rd_port, lid_mask_count), 7, 10 },
	[PA_CAP] = { offsetof(struct rd_port, cap_mask), UINT32_MAX, 16 },
};

static bool collect_port(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
			 struct port_cache *pc, const char *pbase,
			 struct rd_port *p)
{
	char buf[ATTR_BUF], w[1024];
	bool stale = false;
	uint64_t v;
	int r;

	p->port = pc->port;
	for (int a = 0; a < PA_COUNT; a++) {
		r = port_pread(pc, a, buf, sizeof(buf));
		if (r < 0) {
			if (r == -ENODEV)
				stale = true;
			/* cap_mask and SM fields are absent on some iWARP ports. */
			if (r == -ENOENT && a >= PA_LID)
				continue;
			where(w, sizeof(w), pbase, port_attr_file[a]);
			rd_snapshot_error(s, SRC, w, r, NULL);
			continue;
		}
		switch (a) {
		case PA_STATE:
			if (rd_parse_state_line(buf, &v) == 0) {
				p->state_num = rd_u64(v);
				rd_str_put(&p->state, rd_port_state_name(v));
			} else {
				rd_probe_bad_value(s, SRC, pbase, "state",
						   EINVAL, buf);
			}
			break;
		case PA_PHYS:
			if (rd_parse_state_line(buf, &v) == 0) {
				p->phys_state_num = rd_u64(v);
				rd_str_put(&p->phys_state,
					   rd_port_phys_state_name(v));
			} else {
				rd_probe_bad_value(s, SRC, pbase, "phys_state",
						   EINVAL, buf);
			}
			break;
		case PA_RATE: {
			char wd[32], sp[64];
			double g;

			if (rd_parse_rate(buf, &g, wd, sizeof(wd), sp,
					  sizeof(sp)) == 0) {
				p->rate_gbps = rd_dbl(g);
				rd_str_put(&p->rate_text, buf);
				if (wd[0])
					rd_str_put(&p->width, wd);
				if (sp[0])
					rd_str_put(&p->speed, sp);
			} else {
				rd_probe_bad_value(s, SRC, pbase, "rate",
						   EINVAL, buf);
			}
			break;
		}
		default:
			if (port_nums[a].max) {
				void *dst = (char *)p + port_nums[a].off;

				parse_num(s, pbase, port_attr_file[a], buf, dst,
					  port_nums[a].max, port_nums[a].base);
			}
			break;
		}
	}

	if (!rd_probe_cache_fresh(ctx, pc->slow_tick, pc->slow_ok,
				  RD_GID_EVERY) ||
	    netdev_renamed(pc))
		read_slow(ctx, s, pc, pbase);
	rd_str_put(&p->link_layer, pc->slow.link_layer);
	rd_str_put(&p->netdev, pc->slow.netdev);
	p->pkey0 = pc->slow.pkey0;
	copy_gids(p, &pc->slow);

	if (!pc->ctr_scanned) {
		scan_counters(s, pc->dirfd, pbase, "counters", &pc->ctr,
			      &pc->n_ctr);
		pc->ctr_scanned = true;
	}
	if (!pc->hw_scanned) {
		scan_counters(s, pc->dirfd, pbase, "hw_counters", &pc->hw,
			      &pc->n_hw);
		pc->hw_scanned = true;
	}
	read_counters(s, pbase, "counters", pc->ctr, pc->n_ctr, &p->counters,
		      &stale);
	read_counters(s, pbase, "hw_counters", pc->hw, pc->n_hw,
		      &p->hw_counters, &stale);

	/* PMA data counters count 4-byte words. */
	const struct rd_counter *c = rd_counters_find(&p->counters, "port_xmit_data");
	if (c && c->value.ok && c->value.v <= UINT64_MAX / 4)
		p->xmit_bytes = rd_u64(c->value.v * 4);
	c = rd_counters_find(&p->counters, "port_rcv_data");
	if (c && c->value.ok && c->value.v <= UINT64_MAX / 4)
		p->rcv_bytes = rd_u64(c->value.v * 4);
	return !stale;
}

static struct port_cache *port_cache_get(struct dev_cache *dc, uint64_t num,
					 bool *fresh)
{
	struct port_cache *pc;

	*fresh = false;
	for (size_t i = 0; i < dc->n_ports; i++)
		if (dc->ports[i].port == num)
			return &dc->ports[i];
	pc = RD_PUSH(dc->ports, dc->n_ports);
	if (!pc)
		return NULL;
	pc->port = num;
	pc->dirfd = -1;
	for (int a = 0; a < PA_COUNT; a++)
		pc->fd[a] = -1;
	*fresh = true;
	return pc;
}

static int cmp_port(const void *a, const void *b)
{
	const struct rd_port *x = a, *y = b;

	return x->port < y->port ? -1 : x->port > y->port;
}

static bool collect_ports(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
			  struct dev_cache *dc, const char *base,
			  struct rd_device *d)
{
	char **names;
	size_t nn;
	char pbase[PATH_MAX], w[PATH_MAX];
	bool ok = true;
	int r;

	/* Port numbers are stable for a device's lifetime: list them once. */
	if (dc->n_ports == 0) {
		r = rd_dir_list(dc->dirfd, "ports", MAX_DIR_ENTRIES, &names, &nn);
		if (r < 0) {
			where(w, sizeof(w), base, "ports");
			rd_snapshot_error(s, SRC, w, r, NULL);
			return true;
		}
		for (size_t i = 0; i < nn; i++) {
			uint64_t num;
			bool fresh;
			struct port_cache *pc;
			char rel[300];

			if (rd_parse_u64(names[i], 10, &num) < 0 || num == 0 ||
			    num > 255) {
				where(w, sizeof(w), base, "ports");
				rd_snapshot_error(s, SRC, w, EINVAL,
						  "unexpected port entry \"%.32s\"",
						  names[i]);
				continue;
			}
			pc = port_cache_get(dc, num, &fresh);
			if (!pc)
				break;
			snprintf(rel, sizeof(rel), "ports/%s", names[i]);
			pc->dirfd = openat(dc->dirfd, rel,
					   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (pc->dirfd < 0) {
				where(w, sizeof(w), base, rel);
				rd_snapshot_error(s, SRC, w, errno, NULL);
				port_cache_clear(pc);
				dc->n_ports--;
			}
		}
		rd_dir_free(names, nn);
		if (dc->n_ports > 1)
			qsort(dc->ports, dc->n_ports, sizeof(*dc->ports),
			      cmp_port);
	}
	for (size_t i = 0; i < dc->n_ports; i++) {
		struct port_cache *pc = &dc->ports[i];
		struct rd_port *p = RD_PUSH(d->ports, d->n_ports);

		if (!p)
			break;
		snprintf(pbase, sizeof(pbase), "%s/ports/%" PRIu64, base,
			 pc->port);
		if (!collect_port(ctx, s, pc, pbase, p))
			ok = false;
	}
	return ok;
}

/* ---- devices ---- */

static struct dev_cache *dev_cache_get(struct ib_sysfs_cache *c,
				       const char *name, const struct stat *st)
{
	struct dev_cache *dc;

	for (size_t i = 0; i < c->n_devs; i++) {
		dc = &c->devs[i];
		if (strcmp(dc->name, name) != 0)
			continue;
		if (dc->st_dev == st->st_dev && dc->st_ino == st->st_ino)
			return dc;
		/* Same name, new device: start over. */
		dev_cache_clear(dc);
		dc->name = strdup(name);
		dc->st_dev = st->st_dev;
		dc->st_ino = st->st_ino;
		dc->dirfd = -1;
		return dc->name ? dc : NULL;
	}
	dc = RD_PUSH_NAMED(c->devs, c->n_devs, name, name);
	if (!dc)
		return NULL;
	dc->st_dev = st->st_dev;
	dc->st_ino = st->st_ino;
	dc->dirfd = -1;
	return dc;
}

static void copy_static(struct rd_device *d, const struct rd_device *st)
{
	rd_str_put(&d->node_type, st->node_type);
	d->node_type_num = st->node_type_num;
	d->node_guid = st->node_guid;
	d->sys_image_guid = st->sys_image_guid;
	rd_str_put(&d->fw_ver, st->fw_ver);
	rd_str_put(&d->hca_type, st->hca_type);
	rd_str_put(&d->board_id, st->board_id);
	rd_str_put(&d->node_desc, st->node_desc);
	rd_str_put(&d->driver, st->driver);
	rd_str_put(&d->pci_bdf, st->pci_bdf);
	rd_str_put(&d->uverbs, st->uverbs);
	rd_str_put(&d->uverbs_dev, st->uverbs_dev);
}

static void prune(struct ib_sysfs_cache *c)
{
	size_t j = 0;

	for (size_t i = 0; i < c->n_devs; i++) {
		if (c->devs[i].seen) {
			c->devs[i].seen = false;
			if (i != j)
				c->devs[j] = c->devs[i];
			j++;
		} else {
			dev_cache_clear(&c->devs[i]);
		}
	}
	c->n_devs = j;
}

static int probe_ib_sysfs_collect(const struct rd_probe_ctx *ctx, void *state,
				  struct rd_snapshot *s)
{
	struct ib_sysfs_cache *c = state;
	char classdir[PATH_MAX], base[PATH_MAX];
	char **names;
	size_t nn;
	int classfd, r;

	r = rd_path(classdir, sizeof(classdir), ctx->roots->sysfs,
		    "/class/infiniband");
	if (r < 0)
		return r;
	/* No class directory: no RDMA core loaded, hence no devices. */
	classfd = rd_probe_open_dir(s, SRC, classdir);
	if (classfd < 0) {
		prune(c);
		return 0;
	}
	r = rd_dir_list(classfd, ".", MAX_DIR_ENTRIES, &names, &nn);
	if (r < 0)
		rd_snapshot_error(s, SRC, classdir, r, NULL);
	for (size_t i = 0; r == 0 && i < nn; i++) {
		struct stat st;
		struct dev_cache *dc;
		struct rd_device *d;

		snprintf(base, sizeof(base), "%s/%s", classdir, names[i]);
		if (fstatat(classfd, names[i], &st, 0) < 0) {
			/* Vanished between listing and reading: not an error. */
			if (errno != ENOENT)
				rd_snapshot_error(s, SRC, base, errno, NULL);
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			rd_snapshot_error(s, SRC, base, ENOTDIR, NULL);
			continue;
		}
		dc = dev_cache_get(c, names[i], &st);
		if (!dc)
			break;
		dc->seen = true;
		if (dc->dirfd < 0) {
			dc->dirfd = openat(classfd, names[i],
					   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dc->dirfd < 0) {
				rd_snapshot_error(s, SRC, base, errno, NULL);
				continue;
			}
		}
		d = RD_PUSH(s->devices, s->n_devices);
		if (!d)
			break;
		rd_str_put(&d->name, names[i]);
		if (!rd_probe_cache_fresh(ctx, dc->stat_tick, dc->stat_ok,
					  RD_STATIC_EVERY))
			read_static(ctx, s, dc, base);
		copy_static(d, &dc->stat);
		if (!collect_ports(ctx, s, dc, base, d)) {
			/* Files went away under us: re-open everything next time. */
			dev_cache_clear(dc);
			dc->name = strdup(names[i]);
			dc->dirfd = -1;
			if (!dc->name)
				dc->seen = false;
		}
	}
	rd_dir_free(names, nn);
	close(classfd);
	prune(c);
	return 0;
}

const struct rd_probe probe_ib_sysfs =
	RD_PROBE_ROW("ib_sysfs", 0, probe_ib_sysfs_collect,
		     struct ib_sysfs_cache, NULL, ib_sysfs_state_clear);
