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
#include "diag/diag.h"
#include "diag/qos_model.h"

enum { EXIT_WRONG = 1, EXIT_RUN_ERROR = 3 };

/* How a variable's value is compared with what is set (--check). */
enum env_kind {
	ENV_EXACT,
	ENV_NUMBER,
	ENV_NCCL_LIST,	/* NCCL_IB_HCA, NCCL_SOCKET_IFNAME */
	ENV_LIST,	/* UCX_NET_DEVICES, Open MPI's if_include */
};

struct env_var {
	const char *name;
	char value[96];
	char why[384];
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
		char eq[100];

		snprintf(eq, sizeof(eq), "=%s", hca);
		add(e, "NCCL_IB_HCA", ENV_NCCL_LIST, eq,
		    "the port to use; \"=\" matches this device name exactly (mlx5_1 would also match mlx5_10)");
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
	rd_snapshot_free(&s);
	if (fflush(stdout) != 0)
		return EXIT_RUN_ERROR;
	return wrong ? EXIT_WRONG : 0;
}
