// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag env nccl|ucx|mpi: the environment a job needs on this host (or
 * a saved snapshot), as NAME=value lines a shell can source, each after a
 * comment saying why; --check says which set variable disagrees.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "core/attr.h"
#include "core/escape.h"
#include "core/topo.h"
#include "diag/diag.h"
#include "diag/qos_model.h"

enum { EXIT_WRONG = 1, EXIT_RUN_ERROR = 3 };

/* How a variable's value is compared with what is set (--check). */
enum env_kind {
	ENV_EXACT,
	ENV_NUMBER,
	ENV_NCCL_LIST,	/* NCCL_IB_HCA, NCCL_SOCKET_IFNAME */
	ENV_LIST,	/* UCX_NET_DEVICES, Open MPI's if_include */
	ENV_GPU_HCAS,	/* NCCL_IB_HCA of a GPU host: judged per GPU */
	ENV_GDR_LEVEL,	/* NCCL_NET_GDR_LEVEL: a label or an old number */
};

struct env_var {
	const char *name;
	char value[256];
	char why[512];
	enum env_kind kind;
};

struct env_plan {
	struct env_var v[8];
	size_t n;
	char port_line[256];
	char notes[3][320];
	size_t n_notes;
};

static struct env_var *add(struct env_plan *e, const char *name,
			   enum env_kind kind, const char *value,
			   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static struct env_var *add(struct env_plan *e, const char *name,
			   enum env_kind kind, const char *value,
			   const char *fmt, ...)
{
	struct env_var *v = &e->v[e->n++];
	va_list ap;

	v->name = name;
	v->kind = kind;
	snprintf(v->value, sizeof(v->value), "%s", value);
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return v;
}

static void note(struct env_plan *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct env_plan *e, const char *fmt, ...)
{
	va_list ap;

	if (e->n_notes >= 3)
		return;
	va_start(ap, fmt);
	vsnprintf(e->notes[e->n_notes++], sizeof(e->notes[0]), fmt, ap);
	va_end(ap);
}

/* The first RoCE v2 GID holding an IPv4 address (::ffff:a.b.c.d). */
static const struct rd_gid *v4_gid(const struct rd_port *p)
{
	static const uint8_t pfx[12] = { [10] = 0xff, [11] = 0xff };

	for (size_t i = 0; i < p->n_gids; i++) {
		const struct rd_gid *g = &p->gids[i];

		if (g->raw_ok && memcmp(g->raw, pfx, 12) == 0 && g->type &&
		    strstr(g->type, "v2"))
			return g;
	}
	return NULL;
}

/* The first port the filter keeps, ACTIVE ones first. */
static int pick(const struct rd_snapshot *s, const char *dev, uint64_t port,
		const struct rd_device **pd, const struct rd_port **pp)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n_devices; i++)
			for (size_t j = 0; j < s->devices[i].n_ports; j++) {
				const struct rd_device *d = &s->devices[i];
				const struct rd_port *p = &d->ports[j];
				bool active = rd_port_active(p);

				if ((dev && (!d->name || strcmp(d->name, dev))) ||
				    (port && p->port != port) || (!pass && !active))
					continue;
				*pd = d;
				*pp = p;
				return 0;
			}
	return -ENOENT;
}

/* The traffic class (IP ToS byte) that reaches the lossless RoCE priority. */
static int traffic_class(const struct rd_snapshot *s, const struct rd_device *d,
			 const struct rd_port *p, const struct rd_netdev *n,
			 char *why, size_t len)
{
	struct rd_qos_model m;
	char dscps[64];
	int prio = -1;

	rd_qos_derive(s, d, p, n, &m);
	if (m.pfc_known)
		for (int k = 0; k < RD_QOS_NPRIO; k++)
			if (m.pfc_en & (1u << k))
				prio = prio < 0 ? k : -2;
	if (prio < 0) {
		snprintf(why, len, "%s", !m.pfc_known ? "PFC state not read" :
				 prio == -1 ? "no priority has PFC on" :
					      "PFC is on for more than one priority");
		return -1;
	}
	if (m.trust != RD_QOS_TRUST_DSCP) {
		snprintf(why, len, "the port trusts %s, not DSCP: the traffic class does not pick the priority",
			 m.trust == RD_QOS_TRUST_PCP ? "PCP" : "an unknown field");
		return -1;
	}
	rd_qos_dscps_of(n, prio, dscps, sizeof(dscps));
	if (!dscps[0]) {
		snprintf(why, len, "no DSCP of the APP table maps to priority %d", prio);
		return -1;
	}
	snprintf(why, len, "DSCP %d maps to priority %d, the one with PFC on (DSCP %s map there; %s)",
		 atoi(dscps), prio, dscps, m.chain[0] ? m.chain : "no rdma_cm ToS read");
	return atoi(dscps) << 2;
}

static bool agrees(const struct env_var *v, const char *set);

/* The first ACTIVE port of an RDMA device, or 0. */
static uint64_t active_port(const struct rd_snapshot *s, const char *name)
{
	const struct rd_device *d = rd_snapshot_device(s, name);

	for (size_t i = 0; d && i < d->n_ports; i++)
		if (rd_port_active(&d->ports[i]))
			return d->ports[i].port;
	return 0;
}

/*
 * "=dev:port,..." of the NICs NCCL would pick for the GPUs, in GPU order,
 * each once; the number of NICs, 0 without a GPU or a usable NIC.
 */
static int gpu_hcas(const struct rd_snapshot *s, char *buf, size_t len)
{
	const struct rd_topo *t = &s->topo;
	size_t used = 1;
	int n = 0;

	snprintf(buf, len, "=");
	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;
		const char *name;
		char item[96];

		if (!rd_topo_is_gpu(&t->nodes[i]))
			continue;
		rd_topo_choose(s, i, &c);
		if (c.usable < 0)
			continue;
		name = t->nodes[c.usable].rdma_device;
		snprintf(item, sizeof(item), "%s:%" PRIu64, name,
			 active_port(s, name));
		if (strstr(buf, item))
			continue;
		if (used + strlen(item) + 2 > len)
			return -ENOSPC;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 n ? "," : "", item);
		n++;
	}
	return n;
}

/* The first redirecting hop on a GPU's path NCCL would use GPUDirect on. */
static bool gpu_redirect(const struct rd_snapshot *s, char *hop, size_t len)
{
	const struct rd_topo *t = &s->topo;

	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;

		if (!rd_topo_is_gpu(&t->nodes[i]))
			continue;
		rd_topo_choose(s, i, &c);
		if (c.usable >= 0 && c.use.n_redirect &&
		    c.use.dist <= RD_DIST_GDR_DEFAULT) {
			snprintf(hop, len, "%s",
				 rd_esc_tmp(t->nodes[c.use.redirect[0]].bdf));
			return true;
		}
	}
	return false;
}

/*
 * Each GPU, the NIC NCCL picks for it and whether GPUDirect RDMA is used
 * at level (NCCL's default or NCCL_NET_GDR_LEVEL), as comment lines.
 */
static void gpu_lines(const struct rd_snapshot *s, enum rd_topo_dist level,
		      const char *level_from)
{
	const struct rd_topo *t = &s->topo;

	printf("# GPUs and the NIC NCCL uses for each (PCIe distance, NCCL's "
	       "label), GPUDirect RDMA up to %s (%s):\n",
	       rd_topo_dist_name(level), level_from);
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct rd_topo_node *g = &t->nodes[i];
		struct rd_topo_choice c;
		const struct rd_topo_path *p;

		if (!rd_topo_is_gpu(g))
			continue;
		rd_topo_choose(s, i, &c);
		printf("#   GPU%ld %s: ", rd_topo_gpu_index(t, i), rd_esc_tmp(g->bdf));
		if (c.usable < 0) {
			printf("no usable NIC%s%s\n",
			       c.nearest >= 0 ? "; nearest " : "",
			       c.nearest >= 0
				       ? rd_esc_tmp(t->nodes[c.nearest].bdf)
				       : "");
			continue;
		}
		p = &c.use;
		printf("%s %s", rd_esc_tmp(t->nodes[c.usable].rdma_device),
		       rd_topo_dist_name(p->dist));
		if (c.nearest != c.usable)
			printf(" (nearest %s %s: %s)",
			       rd_esc_tmp(
				       t->nodes[c.nearest].rdma_device
					       ? t->nodes[c.nearest].rdma_device
					       : t->nodes[c.nearest].bdf),
			       rd_topo_dist_name(c.near.dist),
			       rd_topo_nic_use_text(c.near_use));
		if (p->dist == RD_DIST_UNKNOWN)
			printf(", GPUDirect RDMA unknown: a NUMA node not "
			       "read\n");
		else if (p->dist > level)
			printf(", GPUDirect RDMA off: %s is beyond %s\n",
			       rd_topo_dist_name(p->dist),
			       rd_topo_dist_name(level));
		else if (p->n_redirect)
			printf(", GPUDirect RDMA on across ACS redirection at "
			       "%s: slow or faulting\n",
			       rd_esc_tmp(t->nodes[p->redirect[0]].bdf));
		else
			printf(", GPUDirect RDMA on\n");
	}
}

/*
 * NCCL_IB_HCA on a GPU host: a named NIC with no port ACTIVE, and a GPU
 * whose nearest NIC the list keeps is SYS away while a nearer one is left
 * out. Prints one line per finding; returns their number.
 */
static int gpu_hca_check(const struct rd_snapshot *s, const char *set)
{
	const struct rd_topo *t = &s->topo;
	int wrong = 0;

	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t k = 0; k < d->n_ports; k++) {
			struct env_var v = { .kind = ENV_NCCL_LIST };

			snprintf(v.value, sizeof(v.value), "%s:%" PRIu64,
				 d->name, d->ports[k].port);
			if (!agrees(&v, set) || !d->ports[k].state_num.ok ||
			    rd_port_active(&d->ports[k]))
				continue;
			printf("WRONG  NCCL_IB_HCA=%s: names %s port %" PRIu64
			       ", which is %s\n",
			       rd_esc_tmp(set), rd_esc_tmp(d->name),
			       d->ports[k].port,
			       d->ports[k].state ? rd_esc_tmp(d->ports[k].state)
						 : "not ACTIVE");
			wrong++;
		}
	}
	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_path p, best = { .dist = RD_DIST_UNKNOWN };
		const char *bname = NULL, *near = NULL;
		enum rd_topo_dist near_d = RD_DIST_UNKNOWN;

		if (!rd_topo_is_gpu(&t->nodes[i]))
			continue;
		for (size_t k = 0; k < t->n_nodes; k++) {
			const struct rd_topo_node *n = &t->nodes[k];
			struct env_var v = { .kind = ENV_NCCL_LIST };
			uint64_t port;

			if (!rd_topo_is_nic(n) || !n->rdma_device ||
			    rd_topo_nic_use(s, n, NULL) != RD_NIC_USABLE ||
			    rd_topo_path(t, i, k, &p) < 0)
				continue;
			port = active_port(s, n->rdma_device);
			snprintf(v.value, sizeof(v.value), "%s:%" PRIu64,
				 n->rdma_device, port);
			if (p.dist < near_d) {
				near_d = p.dist;
				near = n->rdma_device;
			}
			if (agrees(&v, set) && p.dist < best.dist) {
				best = p;
				bname = n->rdma_device;
			}
		}
		if (bname && best.dist == RD_DIST_SYS && near_d < RD_DIST_SYS) {
			printf("WRONG  NCCL_IB_HCA=%s: GPU%ld %s would use %s "
			       "across the CPU interconnect (SYS); it leaves "
			       "out %s (%s)\n",
			       rd_esc_tmp(set), rd_topo_gpu_index(t, i),
			       rd_esc_tmp(t->nodes[i].bdf), rd_esc_tmp(bname),
			       rd_esc_tmp(near), rd_topo_dist_name(near_d));
			wrong++;
		}
	}
	if (!wrong)
		printf("ok     NCCL_IB_HCA=%s: every NIC it names is ACTIVE, "
		       "no GPU is left with a SYS-distance NIC\n",
		       rd_esc_tmp(set));
	return wrong;
}

/*
 * NCCL_NET_GDR_LEVEL set: refused by NCCL, or forcing GPUDirect RDMA on a
 * path whose ACS redirects it. One line; 1 when wrong.
 */
static int gdr_level_check(const struct rd_snapshot *s, const char *set)
{
	const struct rd_topo *t = &s->topo;
	enum rd_topo_dist l;

	if (rd_topo_dist_parse(set, &l) < 0) {
		printf("WRONG  NCCL_NET_GDR_LEVEL=%s: not a level NCCL reads "
		       "(LOC, PIX, PXB, PHB, SYS or 0 to 5): it keeps its "
		       "default %s\n",
		       rd_esc_tmp(set), rd_topo_dist_name(RD_DIST_GDR_DEFAULT));
		return 1;
	}
	for (size_t i = 0; i < t->n_nodes; i++) {
		struct rd_topo_choice c;

		if (!rd_topo_is_gpu(&t->nodes[i]))
			continue;
		rd_topo_choose(s, i, &c);
		if (c.usable < 0 || !c.use.n_redirect || c.use.dist > l)
			continue;
		printf("WRONG  NCCL_NET_GDR_LEVEL=%s: GPU%ld %s to %s (%s) "
		       "goes through ACS redirection at %s: GPUDirect RDMA "
		       "there is slow or faults\n",
		       rd_esc_tmp(set), rd_topo_gpu_index(t, i),
		       rd_esc_tmp(t->nodes[i].bdf),
		       rd_esc_tmp(t->nodes[c.usable].rdma_device),
		       rd_topo_dist_name(c.use.dist),
		       rd_esc_tmp(t->nodes[c.use.redirect[0]].bdf));
		return 1;
	}
	printf("ok     NCCL_NET_GDR_LEVEL=%s (%s)\n", rd_esc_tmp(set),
	       rd_topo_dist_name(l));
	return 0;
}

static int plan(const struct rd_snapshot *s, const char *what,
		const char *dev, uint64_t port, struct env_plan *e,
		char *err, size_t errlen)
{
	const struct rd_device *d;
	const struct rd_port *p;
	const struct rd_gid *g;
	const struct rd_netdev *n;
	const char *nd;
	char hca[96], tcw[384], num[16];
	bool eth;
	int tc;

	*e = (struct env_plan){ 0 };
	if (pick(s, dev, port, &d, &p) < 0) {
		snprintf(err, errlen, "no RDMA port%s%s%s", dev ? " on " : "",
			 dev ? rd_esc_tmp(dev) : "", port ? " with that number" : "");
		return -ENOENT;
	}
	eth = rd_port_is_eth(p);
	nd = rd_port_netdev_name(s, d, p);
	n = nd ? rd_snapshot_netdev(s, nd) : NULL;
	snprintf(e->port_line, sizeof(e->port_line), "%s port %" PRIu64 " (%s, %s)",
		 rd_esc_tmp(d->name), p->port, eth ? "RoCE" : "InfiniBand",
		 p->state ? rd_esc_tmp(p->state) : "state not read");
	if (!rd_port_active(p))
		note(e, "this port is not ACTIVE: a job on it fails until it is");
	snprintf(hca, sizeof(hca), "%s:%" PRIu64, d->name, p->port);
	g = eth ? v4_gid(p) : NULL;
	if (eth && !g)
		note(e, "%s has no RoCE v2 GID with an IPv4 address: give %s an IPv4 address, then its GID index is set here",
		     rd_esc_tmp(d->name), nd ? rd_esc_tmp(nd) : "its netdev");
	tc = eth ? traffic_class(s, d, p, n, tcw, sizeof(tcw)) : -1;
	if (eth && tc < 0)
		note(e, "no traffic class set: %s", tcw);

	if (strcmp(what, "nccl") == 0) {
		char eq[256], gl[256], hop[64];

		snprintf(eq, sizeof(eq), "=%s", hca);
		if (!dev && gpu_hcas(s, gl, sizeof(gl)) > 0)
			add(e, "NCCL_IB_HCA", ENV_GPU_HCAS, gl,
			    "the NICs the GPUs use, each the nearest usable one to a GPU (see the list below); \"=\" matches these device names exactly");
		else
			add(e, "NCCL_IB_HCA", ENV_NCCL_LIST, eq,
			    "the port to use; \"=\" matches this device name exactly (mlx5_1 would also match mlx5_10)");
		if (gpu_redirect(s, hop, sizeof(hop)))
			add(e, "NCCL_NET_GDR_LEVEL", ENV_GDR_LEVEL, "LOC",
			    "ACS on %s redirects the GPU-to-NIC traffic to the root complex, where GPUDirect RDMA is slow or faults: keep it off until ACS is cleared (gpu.gdr_path)",
			    hop);
		if (g) {
			snprintf(num, sizeof(num), "%" PRIu64, g->index);
			add(e, "NCCL_IB_GID_INDEX", ENV_NUMBER, num,
			    "GID %" PRIu64 " is RoCE v2 with the IPv4 address of %s: routable, and the same kind on every host",
			    g->index, nd ? rd_esc_tmp(nd) : "the netdev");
		}
		if (tc >= 0) {
			snprintf(num, sizeof(num), "%d", tc);
			add(e, "NCCL_IB_TC", ENV_NUMBER, num, "%s", tcw);
		}
		if (nd)
			add(e, "NCCL_SOCKET_IFNAME", ENV_NCCL_LIST, nd,
			    "bootstrap sockets on the port's own netdev");
		return 0;
	}
	if (strcmp(what, "mpi") == 0) {
		add(e, "OMPI_MCA_pml", ENV_EXACT, "ucx",
		    "Open MPI's point-to-point over UCX, which the UCX variables below steer");
		if (nd)
			add(e, "OMPI_MCA_btl_tcp_if_include", ENV_LIST, nd,
			    "TCP traffic of Open MPI on the port's own netdev");
	}
	add(e, "UCX_NET_DEVICES", ENV_LIST, hca, "the port to use");
	if (g) {
		snprintf(num, sizeof(num), "%" PRIu64, g->index);
		add(e, "UCX_IB_GID_INDEX", ENV_NUMBER, num,
		    "GID %" PRIu64 " is RoCE v2 with the IPv4 address of %s", g->index,
		    nd ? rd_esc_tmp(nd) : "the netdev");
	}
	if (tc >= 0) {
		snprintf(num, sizeof(num), "%d", tc);
		add(e, "UCX_IB_TRAFFIC_CLASS", ENV_NUMBER, num, "%s", tcw);
	}
	return 0;
}

/*
 * Does the set value select what the plan wants? NCCL's lists: entries
 * "name[:port]" matching as a prefix, or exactly after "=", all excluded
 * by a leading "^". UCX's and Open MPI's: exact entries, or "all".
 */
static bool agrees(const struct env_var *v, const char *set)
{
	const char *want = v->value + (v->value[0] == '=');
	size_t wl = strcspn(want, ":");
	bool exclude = v->kind == ENV_NCCL_LIST && set[0] == '^';
	char buf[512];
	uint64_t a, b;

	if (v->kind == ENV_EXACT)
		return strcmp(set, v->value) == 0;
	if (v->kind == ENV_GDR_LEVEL) {
		enum rd_topo_dist x, y;

		return rd_topo_dist_parse(set, &x) == 0 &&
		       rd_topo_dist_parse(v->value, &y) == 0 && x == y;
	}
	if (v->kind == ENV_NUMBER)
		return rd_parse_u64(set, 10, &a) == 0 &&
		       rd_parse_u64(v->value, 10, &b) == 0 && a == b;
	if (v->kind == ENV_LIST && strcmp(set, "all") == 0)
		return true;
	snprintf(buf, sizeof(buf), "%s", set + exclude);
	for (char *sv = NULL, *w = strtok_r(buf, ",", &sv); w;
	     w = strtok_r(NULL, ",", &sv)) {
		bool exact = v->kind == ENV_LIST || w[0] == '=';
		char *colon;
		size_t nl;

		w += w[0] == '=';
		colon = strchr(w, ':');
		nl = colon ? (size_t)(colon - w) : strlen(w);
		if (exact ? nl != wl || strncmp(w, want, wl) != 0 :
			    nl > wl || strncmp(w, want, nl) != 0)
			continue;
		/* A port in the entry must be the one wanted. */
		if (colon && strcmp(colon, want + wl) != 0)
			continue;
		if (v->kind == ENV_LIST && !colon && want[wl])
			continue;
		return !exclude;
	}
	return exclude;
}

static void env_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag env nccl|ucx|mpi [--device DEV] [--port N] [--load FILE]\n"
		"                    [--check]\n"
		"  prints NAME=value lines for this host (or a saved snapshot) that a\n"
		"  shell can source, each after a comment saying why\n"
		"  --device DEV, --port N  the port to use (default: the first ACTIVE)\n"
		"  --load FILE       a snapshot or recording instead of this host\n"
		"  --check           compare with the current environment: which set\n"
		"                    variable disagrees (exit 1 when one does)\n"
		"exit status: 0 printed (or all agree), 1 a variable disagrees or no\n"
		"             port, 3 bad option or no snapshot\n");
}

int cmd_env(struct rd_cli *cli, int argc, char **argv)
{
	const char *dev = NULL, *load = NULL, *what;
	struct rd_snapshot s = { 0 };
	struct rd_history h;
	struct env_plan e;
	double window = 0;
	uint64_t port = 0;
	bool check = false;
	char label[1024], err[256];
	int r, wrong = 0;

	const struct cli_opt opts[] = {
		CLI_TARGET(&dev, &port),
		CLI_TEXT("load", 0, &load),
		CLI_FLAG("check", 0, &check),
		CLI_END,
	};

	CLI_PARSE_OR_RETURN(cli, "env", opts, env_usage, argc, argv,
			    EXIT_RUN_ERROR);
	what = optind < argc ? argv[optind] : "";
	if (optind + 1 != argc || (strcmp(what, "nccl") && strcmp(what, "ucx") &&
				   strcmp(what, "mpi"))) {
		cli_error(cli, "env: say which: nccl, ucx or mpi");
		env_usage(stderr);
		return EXIT_RUN_ERROR;
	}
	rd_history_init(&h);
	r = cli_check_evidence(cli, load, &window, &s, &h, label, sizeof(label));
	rd_history_free(&h);
	if (r < 0) {
		cli_error(cli, "env: cannot take a snapshot: %s", strerror(-r));
		return EXIT_RUN_ERROR;
	}
	r = plan(&s, what, dev, port, &e, err, sizeof(err));
	if (r < 0) {
		cli_error(cli, "env: %s %s", err, label);
		rd_snapshot_free(&s);
		return EXIT_WRONG;
	}
	printf("# rdmadiag env %s: %s %s\n", what, e.port_line, label);
	for (size_t i = 0; i < e.n_notes; i++)
		printf("# note: %s\n", e.notes[i]);
	for (size_t i = 0; i < e.n; i++) {
		const struct env_var *v = &e.v[i];
		const char *set = getenv(v->name);

		if (check && set && v->kind == ENV_GPU_HCAS) {
			wrong += gpu_hca_check(&s, set);
			continue;
		}
		if (!check) {
			printf("# %s\n%s=%s\n", v->why, v->name, rd_shquote_tmp(v->value));
		} else if (!set) {
			printf("unset  %s (this host: %s)\n", v->name, rd_esc_tmp(v->value));
		} else if (agrees(v, set)) {
			printf("ok     %s=%s\n", v->name, rd_esc_tmp(set));
		} else {
			printf("WRONG  %s=%s: this host needs %s: %s\n", v->name,
			       rd_esc_tmp(set), rd_esc_tmp(v->value), v->why);
			wrong++;
		}
	}
	if (strcmp(what, "nccl") == 0 && rd_topo_count(&s.topo, "gpu")) {
		const char *gl = getenv("NCCL_NET_GDR_LEVEL");
		enum rd_topo_dist l = RD_DIST_GDR_DEFAULT;
		bool planned = false;

		for (size_t i = 0; i < e.n; i++)
			planned |= e.v[i].kind == ENV_GDR_LEVEL;
		if (check && gl && !planned)
			wrong += gdr_level_check(&s, gl);
		if (!check)
			gpu_lines(&s, l, "NCCL's default");
		else if (gl && rd_topo_dist_parse(gl, &l) == 0)
			gpu_lines(&s, l, "NCCL_NET_GDR_LEVEL");
		else
			gpu_lines(&s, l, "NCCL's default");
	}
	rd_snapshot_free(&s);
	if (fflush(stdout) != 0)
		return EXIT_RUN_ERROR;
	return wrong ? EXIT_WRONG : 0;
}
