// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Other network namespaces, in RDMA netns mode exclusive: there an RDMA
 * device (and the netdev of a VF given to a pod) lives only in the
 * namespace it was moved to, and neither RDMA netlink nor sysfs shows it
 * from here. For each namespace other than this thread's (the named ones
 * in /run/netns, and each process's /proc/PID/ns/net), the probe enters it
 * with setns() just long enough to open an RDMA and a route netlink
 * socket (a socket stays in the namespace it was made in), comes back, and
 * asks them what `rdma dev` and `ip link` would say in there: the RDMA
 * devices with their ports' netdevs, and the netdevs on PCI functions.
 * Entering needs CAP_SYS_ADMIN; without it netns_scan says so. In shared
 * mode every device is seen from here and nothing is read.
 */
#include "config.h"
#include "probes/netns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include "core/attr.h"
#include "probes/netdev.h"
#include "probes/nl_util.h"
#include "probes/rdma_nl.h"

#define SRC "netns"
#define MAX_NS 1024
#define MAX_PIDS 65536
/* Namespaces come and go with pods, not every second. */
#define RESCAN_EVERY 10

struct netns_state {
	uint64_t tick;
	bool have;
	char *scan;
	struct rd_netns_dev *rows;
	size_t n;
};

struct ns_ref {
	dev_t dev;
	ino_t ino;
	uint64_t pid; /* the lowest pid seen in it; 0: a named one */
	char path[96];
	char label[48];
	char owner[160];
};

static void state_clear(void *state)
{
	struct netns_state *c = state;

	free(c->scan);
	rd_model_free_array(rd_netns_dev_fields, (void **)&c->rows, &c->n,
			    sizeof(*c->rows));
	memset(c, 0, sizeof(*c));
}

/* A pod's UID in a cgroup path: ".../pod<uid>/..." or "...-pod<uid>.slice". */
void rd_netns_pod_of_cgroup(const char *cgroup, char *out, size_t len)
{
	out[0] = '\0';
	if (len < 37)
		return;
	/* "kubepods" holds "pod" too: try each, keep the first UID. */
	for (const char *p = strstr(cgroup, "pod"); p;
	     p = strstr(p + 1, "pod")) {
		const char *u = p + 3;
		size_t n = 0;

		while (u[n] &&
		       (rd_hex_digit(u[n]) >= 0 || u[n] == '-' || u[n] == '_'))
			n++;
		/* A UID has 32 hex digits and 4 separators. */
		if (n != 36)
			continue;
		for (size_t i = 0; i < n; i++)
			out[i] = u[i] == '_' ? '-' : u[i];
		out[n] = '\0';
		return;
	}
}

static void owner_of_pid(const char *proc, const char *pid, char *out,
			 size_t len)
{
	char path[PATH_MAX], comm[64] = "", cg[4096], pod[40] = "";

	if (rd_path(path, sizeof(path), proc, "/%s/comm", pid) == 0)
		(void)rd_attr_read(path, comm, sizeof(comm));
	if (rd_path(path, sizeof(path), proc, "/%s/cgroup", pid) == 0 &&
	    rd_attr_read_lines(path, cg, sizeof(cg)) > 0)
		rd_netns_pod_of_cgroup(cg, pod, sizeof(pod));
	snprintf(out, len, "%s%s%s", comm, *pod ? ", pod " : "", pod);
}

/* The entry of st's namespace, or NULL. */
static struct ns_ref *seen(struct ns_ref *ns, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (ns[i].dev == st->st_dev && ns[i].ino == st->st_ino)
			return &ns[i];
	return NULL;
}

/*
 * The entry of path's namespace, made when new; NULL for ours, for one
 * past MAX_NS, and for what is not a namespace file: a namespace file is
 * a regular file of nsfs, anything else (a FIFO that would block the
 * open, a device) is not entered.
 */
static struct ns_ref *add_ns(struct ns_ref *ns, size_t *n,
			     const struct stat *own, const char *path,
			     bool *fresh)
{
	struct ns_ref *e;
	struct stat st;

	*fresh = false;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_dev == own->st_dev && st.st_ino == own->st_ino))
		return NULL;
	if ((e = seen(ns, *n, &st)) || *n >= MAX_NS)
		return e;
	e = &ns[(*n)++];
	memset(e, 0, sizeof(*e));
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	snprintf(e->path, sizeof(e->path), "%s", path);
	*fresh = true;
	return e;
}

static size_t list_namespaces(const struct rd_probe_ctx *ctx,
			      const struct stat *own, struct ns_ref *ns)
{
	char path[PATH_MAX];
	char **names = NULL;
	size_t n = 0, k = 0;
	struct ns_ref *e;
	bool fresh;

	/* Named ones first (ip netns add, CNI): a name says more than a pid. */
	if (rd_dir_list(AT_FDCWD, "/run/netns", MAX_NS, &names, &k) == 0)
		for (size_t i = 0; i < k; i++) {
			if (rd_text_check(names[i], strlen(names[i])) < 0)
				continue;
			snprintf(path, sizeof(path), "/run/netns/%s", names[i]);
			if ((e = add_ns(ns, &n, own, path, &fresh)) && fresh)
				snprintf(e->label, sizeof(e->label), "%s",
					 names[i]);
		}
	rd_dir_free(names, k);
	names = NULL;
	k = 0;
	/* Then each process's, labelled by the lowest pid in it (the
	 * list is sorted by name, not number); its name and pod are read
	 * only for that one. */
	if (rd_dir_list(AT_FDCWD, ctx->roots->proc, MAX_PIDS, &names, &k) == 0)
		for (size_t i = 0; i < k; i++) {
			uint64_t pid;

			if (rd_parse_u64(names[i], 10, &pid) < 0 || pid == 0 ||
			    rd_path(path, sizeof(path), ctx->roots->proc,
				    "/%s/ns/net", names[i]) < 0 ||
			    !(e = add_ns(ns, &n, own, path, &fresh)) ||
			    (!fresh && (!e->pid || e->pid <= pid)))
				continue;
			e->pid = pid;
			snprintf(e->label, sizeof(e->label), "pid %s",
				 names[i]);
			owner_of_pid(ctx->roots->proc, names[i], e->owner,
				     sizeof(e->owner));
		}
	rd_dir_free(names, k);
	return n;
}

/*
 * Open an RDMA and a route socket inside the namespace at path, and come
 * back to self (this thread's own). 0, or -errno: -EPERM without
 * CAP_SYS_ADMIN; -EDEADLK when this thread could not come back (the
 * caller stops everything).
 */
static int sockets_in(const char *path, int self, struct nl_sock **rdma,
		      struct nl_sock **route)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY),
	    r = 0;

	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	close(fd);
	if (rd_nl_open(NETLINK_RDMA, rdma) < 0)
		*rdma = NULL;
	if (rd_nl_open(NETLINK_ROUTE, route) < 0)
		*route = NULL;
	if (setns(self, CLONE_NEWNET) < 0)
		r = -EDEADLK;
	return r;
}

static struct rd_netns_dev *new_row(struct netns_state *c,
				    const struct ns_ref *ns)
{
	struct rd_netns_dev *d = RD_PUSH(c->rows, c->n);

	if (!d)
		return NULL;
	rd_str_put(&d->netns, ns->label);
	if (*ns->owner)
		rd_str_put(&d->owner, ns->owner);
	return d;
}

/* What the two sockets see in one namespace, as rows. */
static void read_one(struct netns_state *c, const struct ns_ref *ns,
		     struct nl_sock *rdma, struct nl_sock *route)
{
	struct rd_device *devs = NULL;
	struct rd_netdev *nd = NULL;
	struct rd_nl_buf b = { 0 };
	size_t ndevs = 0, nnd = 0;

	if (route && rd_netdev_dump(route, RTM_GETLINK, &b) == 0)
		(void)rd_netdev_parse_links(b.data, b.len, &nd, &nnd);
	rd_nl_buf_free(&b);
	if (rdma && rd_rdma_nl_dump(rdma, RDMA_NLDEV_CMD_GET, &b) == 0 &&
	    rd_rdma_nl_parse_devices(b.data, b.len, &devs, &ndevs) == 0)
		for (size_t i = 0; i < ndevs; i++) {
			rd_nl_buf_free(&b);
			if (devs[i].index.ok &&
			    rd_rdma_nl_port_dump(rdma, devs[i].index.v, &b) ==
				    0)
				(void)rd_rdma_nl_parse_ports(b.data, b.len,
							     &devs[i], 1);
		}
	rd_nl_buf_free(&b);
	for (size_t i = 0; i < ndevs; i++) {
		struct rd_netns_dev *d = new_row(c, ns);
		const char *nn =
			devs[i].n_ports ? devs[i].ports[0].netdev : NULL;

		if (!d)
			break;
		rd_str_put(&d->rdma_device, devs[i].name);
		rd_str_put(&d->netdev, nn);
		for (size_t k = 0; nn && k < nnd; k++)
			if (nd[k].name && !strcmp(nd[k].name, nn))
				rd_str_put(&d->pci_bdf, nd[k].pci_bdf);
	}
	/* Netdevs on a PCI function that no RDMA device there sits on. */
	for (size_t k = 0; k < nnd; k++) {
		struct rd_netns_dev *d;
		bool taken = false;

		if (!nd[k].pci_bdf || !nd[k].name)
			continue;
		for (size_t i = 0; i < ndevs && !taken; i++)
			taken = devs[i].n_ports && devs[i].ports[0].netdev &&
				!strcmp(devs[i].ports[0].netdev, nd[k].name);
		if (taken || !(d = new_row(c, ns)))
			continue;
		rd_str_put(&d->netdev, nd[k].name);
		rd_str_put(&d->pci_bdf, nd[k].pci_bdf);
	}
	rd_rdma_nl_free_devices(devs, ndevs);
	rd_netdev_free_array(nd, nnd);
}

static void scan(const struct rd_probe_ctx *ctx, struct netns_state *c,
		 struct rd_snapshot *s)
{
	struct ns_ref *ns = calloc(MAX_NS, sizeof(*ns));
	struct stat own;
	size_t n;
	int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	state_clear(c);
	if (!ns || self < 0 || fstat(self, &own) < 0) {
		c->scan = rd_strdup("this thread's network namespace not read");
		goto out;
	}
	n = list_namespaces(ctx, &own, ns);
	c->scan = rd_strdup("read");
	for (size_t i = 0; i < n; i++) {
		struct nl_sock *rdma = NULL, *route = NULL;
		int r = sockets_in(ns[i].path, self, &rdma, &route);

		if (r == -EDEADLK) {
			rd_nl_close(&rdma);
			rd_nl_close(&route);
			rd_snapshot_error(s, SRC, "setns", EDEADLK,
					  "could not come back from %s",
					  ns[i].path);
			(void)rd_str_set(&c->scan, "stopped: could not come "
						   "back from a namespace");
			break;
		}
		if (r == -EPERM) {
			(void)rd_str_set(&c->scan,
					 "reading other network namespaces "
					 "needs CAP_SYS_ADMIN");
			break;
		}
		if (r < 0)
			continue; /* it ended meanwhile */
		read_one(c, &ns[i], rdma, route);
		rd_nl_close(&rdma);
		rd_nl_close(&route);
	}
out:
	if (self >= 0)
		close(self);
	free(ns);
	c->tick = ctx->tick;
	c->have = true;
}

static int probe_netns_collect(const struct rd_probe_ctx *ctx, void *state,
			       struct rd_snapshot *s)
{
	struct netns_state *c = state;
	struct rd_host *h = &s->host;

	if ((ctx->flags & RD_PROBE_NO_NETLINK) || !h->rdma_netns_mode ||
	    strcmp(h->rdma_netns_mode, "exclusive") != 0)
		return 0;
	if (!rd_probe_cache_fresh(ctx, c->tick, c->have, RESCAN_EVERY))
		scan(ctx, c, s);
	(void)rd_str_set(&h->netns_scan, c->scan);
	if (rd_model_dup_array(rd_netns_dev_fields, (void **)&h->netns_devs,
			       &h->n_netns_devs, c->rows, c->n,
			       sizeof(*c->rows)) < 0)
		rd_snapshot_error(s, SRC, "rows", ENOMEM, NULL);
	return 0;
}

const struct rd_probe probe_netns =
	RD_PROBE_ROW("netns", RD_NEEDS_NETLINK, probe_netns_collect,
		     struct netns_state, NULL, state_clear);
