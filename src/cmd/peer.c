// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag peer HOST / peer --listen: compare this host's RDMA port with
 * the one of another host running rdmadiag, over TCP, and list every
 * mismatch with what it breaks and the GID index to use on each side.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "core/recording.h"
#include "peer/matrix.h"
#include "peer/session.h"
#include "perf/bind.h"
#include "probes/probe.h"

enum { EXIT_SAME = 0, EXIT_DIFFER = 1, EXIT_PEER_ERROR = 2 };

static volatile sig_atomic_t peer_stop;

static void on_signal(int sig)
{
	(void)sig;
	peer_stop = 1;
}

struct peer_opts {
	const char *dev, *load, *bind;
	uint64_t ib_port, port;
	double timeout;
	bool listen, json, once, summary, no_matrix;
};

/*
 * The server: each client is served by a child of its own, killed when
 * it is not done within PEER_CLIENT_DEADLINE_S, while the listeners stay
 * open; at most PEER_PER_ADDRESS clients of one address (a loopback /8 is
 * one) and PEER_CLIENTS_MAX in all are served at once, others are closed
 * at once.
 */
#define PEER_CLIENT_DEADLINE_S 10
#define PEER_PER_ADDRESS 2
#define PEER_CLIENTS_MAX 8

/* How long the matrix waits for its messages. */
#define MATRIX_WAIT_MS 2000

struct peer_matrix {
	struct rd_peer_pair pairs[RD_PEER_PAIRS_MAX];
	size_t n;
	bool run;
	char err[256];		/* why it did not run */
};

static void peer_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag peer HOST [OPTIONS]\n"
		"       rdmadiag peer --listen [--bind ADDR] [OPTIONS]\n"
		"  Compare this host's RDMA port with the one of HOST, where\n"
		"  'rdmadiag peer --listen' runs: every mismatch with both values\n"
		"  and what it breaks, and the GID index (-x, NCCL_IB_GID_INDEX,\n"
		"  UCX_IB_GID_INDEX) each host should use.  Then, for each pair of\n"
		"  GIDs of the same RoCE type and address family, one RC message\n"
		"  shows whether the pair works.\n"
		"  -p, --port N        TCP port (default %u, perftest's)\n"
		"  -d, --ib-dev DEV    the RDMA device (default: the port with an\n"
		"                      IPv4 RoCE v2 GID, or the only one)\n"
		"  -i, --ib-port N     its port number\n"
		"  --timeout SECS      for the connection and each message (default 5)\n"
		"  --json              the comparison as JSON\n"
		"  --load FILE         describe a saved snapshot instead of this host\n"
		"  --listen            answer peers until interrupted (each within\n"
		"                      10 s, 2 at once from one address), on the\n"
		"                      IPv4 address of the port's netdev and\n"
		"                      127.0.0.1 (127.0.0.1 only with --load)\n"
		"  --bind ADDR         listen on this IPv4 address only\n"
		"  --once              with --listen: answer one peer, then exit\n"
		"  --no-matrix         compare only: send no RDMA message\n"
		"  --summary           print what this host would send, and exit\n"
		"exit status: 0 no mismatch, 1 mismatches listed, 2 error (no peer,\n"
		"not rdmadiag, bad answer, bad usage)\n",
		PERF_OOB_PORT);
}

/* This host's (or a saved snapshot's) port as a summary. */
static int my_summary(struct rd_cli *cli, const struct peer_opts *po,
		      struct rd_peer_summary *out, char *err, size_t errlen)
{
	struct rd_snapshot s;
	struct rd_cmp_side side;
	int r;

	rd_snapshot_init(&s);
	if (po->load) {
		r = rd_recording_load_last(po->load, &s, err, errlen);
		if (r < 0)
			return r;
	} else {
		r = rd_snapshot_take(&cli->roots, NULL, 0, 0, &s);
		if (r < 0) {
			snprintf(err, errlen, "cannot read this host: %s",
				 strerror(-r));
			rd_snapshot_free(&s);
			return r;
		}
	}
	r = rd_cmp_pick(&s, po->dev, po->ib_port, &side, err, errlen);
	if (r == 0) {
		r = rd_peer_summary_make(&side, out);
		if (r < 0)
			snprintf(err, errlen, "out of memory");
	}
	rd_snapshot_free(&s);
	return r;
}

static const char *port_text(const struct rd_peer_summary *s, char *buf,
			     size_t len)
{
	const struct rd_port *p = s->side.port;

	snprintf(buf, len, "%.64s%s%.64s port %" PRIu64 "%s%.64s",
		 s->s.host.hostname ? rd_esc_tmp(s->s.host.hostname) : "",
		 s->s.host.hostname ? " " : "", rd_esc_tmp(s->side.dev->name),
		 p->port, p->netdev ? " on " : "",
		 p->netdev ? rd_esc_tmp(p->netdev) : "");
	return buf;
}

static void print_gid_line(const char *who, int64_t idx)
{
	printf("  %-14s -x %" PRId64 "   NCCL_IB_GID_INDEX=%" PRId64
	       "   UCX_IB_GID_INDEX=%" PRId64 "\n",
	       who, idx, idx, idx);
}

static void print_text(const char *who, const struct rd_peer_summary *mine,
		       const struct rd_peer_summary *theirs,
		       const struct rd_compare *c)
{
	char a[256], b[256];

	printf("here: %s (%s)\n", port_text(mine, a, sizeof(a)), mine->program);
	printf("peer: %s, %s (%s)\n", who, port_text(theirs, b, sizeof(b)),
	       theirs->program[0] ? theirs->program : "version unknown");
	if (c->gid_a >= 0 && c->gid_b >= 0) {
		printf("GID: IPv4 RoCE v2 index %" PRId64 " here (%s), %" PRId64
		       " on the peer (%s)\n",
		       c->gid_a, c->addr_a, c->gid_b, c->addr_b);
		if (c->gid_a == c->gid_b) {
			print_gid_line("both hosts:", c->gid_a);
		} else {
			print_gid_line("this host:", c->gid_a);
			print_gid_line("the peer:", c->gid_b);
		}
	} else {
		printf("GID: no IPv4 RoCE v2 GID %s: no GID pair works for "
		       "RoCE v2 over IPv4\n",
		       c->gid_a < 0 && c->gid_b < 0 ? "on either host" :
		       c->gid_a < 0 ? "here" : "on the peer");
	}
	if (c->n)
		printf("%-26s %-28s %s\n", "MISMATCH", "HERE", "PEER");
	for (size_t i = 0; i < c->n; i++)
		printf("%-26s %-28s %s\n  breaks: %s\n", c->items[i].what,
		       c->items[i].a, c->items[i].b, c->items[i].breaks);
	if (c->unread[0])
		printf("not compared (unknown on one host): %s\n", c->unread);
	if (!c->n)
		printf("no mismatch found\n");
	else
		printf("%zu mismatch%s\n", c->n, c->n == 1 ? "" : "es");
}

static const char *cand_text(const struct rd_peer_cand *c, char *buf,
			     size_t len)
{
	snprintf(buf, len, "%" PRId64 " %s %s", c->index,
		 c->v2 ? "v2" : "v1", c->addr);
	return buf;
}

static void print_matrix(const struct peer_matrix *m,
			 const struct rd_compare *c)
{
	char a[80], b[80];

	if (!m->run) {
		if (m->err[0])
			printf("reachability: not tested: %s\n", m->err);
		return;
	}
	if (!m->n) {
		printf("reachability: no pair of GIDs of the same RoCE type "
		       "and address family to try\n");
		return;
	}
	printf("%-36s %-36s %s\n", "REACH: GID HERE", "GID ON THE PEER",
	       "ONE RC MESSAGE");
	for (size_t i = 0; i < m->n; i++) {
		const struct rd_peer_pair *p = &m->pairs[i];

		printf("%-36s %-36s %s%s%s\n", cand_text(&p->a, a, sizeof(a)),
		       cand_text(&p->b, b, sizeof(b)),
		       p->result == RD_PEER_WORKS ? "works" :
		       p->result == RD_PEER_FAILS ? "FAILS" : "not tried",
		       p->result == RD_PEER_WORKS ? "" : ": ",
		       p->result == RD_PEER_WORKS ? "" : p->why);
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct rd_peer_pair *p = &m->pairs[i];

		if (p->a.index == c->gid_a && p->b.index == c->gid_b)
			printf("the IPv4 RoCE v2 pair (-x %" PRId64 " here, -x %"
			       PRId64 " on the peer) %s\n",
			       p->a.index, p->b.index,
			       p->result == RD_PEER_WORKS ? "works" :
							    "does NOT work");
	}
	/* Pairs are in order of preference: the first that works. */
	for (size_t i = 0; i < m->n; i++) {
		const struct rd_peer_pair *p = &m->pairs[i];

		if (p->result != RD_PEER_WORKS)
			continue;
		printf("proven to work: RoCE %s over %s\n", p->a.v2 ? "v2" : "v1",
		       p->a.ipv4 ? "IPv4" : "IPv6");
		print_gid_line("this host:", p->a.index);
		print_gid_line("the peer:", p->b.index);
		return;
	}
	printf("no GID pair was proven to work\n");
}

/* The pair the comparison recommends failed in the matrix. */
static bool matrix_refutes(const struct peer_matrix *m,
			   const struct rd_compare *c)
{
	for (size_t i = 0; m->run && i < m->n; i++)
		if (m->pairs[i].a.index == c->gid_a &&
		    m->pairs[i].b.index == c->gid_b)
			return m->pairs[i].result != RD_PEER_WORKS;
	return false;
}

static void run_matrix(struct perf_oob *o, const struct peer_opts *po,
		       const struct rd_peer_summary *mine,
		       const struct rd_peer_summary *theirs,
		       struct peer_matrix *m)
{
	struct rd_peer_cand a[RD_PEER_CAND_MAX], b[RD_PEER_CAND_MAX];
	struct rd_ou64 ma = mine->side.port->verbs.active_mtu;
	struct rd_ou64 mb = theirs->side.port->verbs.active_mtu;
	unsigned mtu = 1024;
	size_t na, nb;

	memset(m, 0, sizeof(*m));
	if (po->no_matrix)
		return;
	if (po->load) {
		snprintf(m->err, sizeof(m->err),
			 "this side describes a saved snapshot");
		return;
	}
	if (ma.ok && mb.ok)
		mtu = (unsigned)(ma.v < mb.v ? ma.v : mb.v);
	na = rd_peer_candidates(mine->side.port, a, RD_PEER_CAND_MAX);
	nb = rd_peer_candidates(theirs->side.port, b, RD_PEER_CAND_MAX);
	m->n = rd_peer_pairs(a, na, b, nb, m->pairs, RD_PEER_PAIRS_MAX);
	m->run = true;
	if (m->n && rd_peer_matrix_run(o, mine->side.dev->name,
				       (unsigned)mine->side.port->port, mtu,
				       MATRIX_WAIT_MS, m->pairs, m->n, m->err,
				       sizeof(m->err)) < 0)
		m->run = false;
}

static struct json_object *matrix_json(const struct peer_matrix *m)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && m->run && i < m->n; i++) {
		const struct rd_peer_pair *p = &m->pairs[i];
		struct json_object *x = json_object_new_object();

		if (!x)
			break;
		json_object_object_add(x, "here", json_object_new_int64(p->a.index));
		json_object_object_add(x, "peer", json_object_new_int64(p->b.index));
		json_object_object_add(x, "roce", json_object_new_string(p->a.v2 ? "v2" : "v1"));
		json_object_object_add(x, "family",
				       json_object_new_string(p->a.ipv4 ? "ipv4" : "ipv6"));
		json_object_object_add(x, "works",
				       json_object_new_boolean(p->result == RD_PEER_WORKS));
		if (p->result != RD_PEER_WORKS)
			json_object_object_add(x, "why", json_object_new_string(p->why));
		json_object_array_add(arr, x);
	}
	return arr;
}

static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static struct json_object *side_json(const struct rd_peer_summary *s,
				     const char *addr, int64_t gid,
				     const char *gid_addr)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (addr)
		json_object_object_add(o, "address", jstr(rd_esc_tmp(addr)));
	json_object_object_add(o, "host",
			       s->s.host.hostname ?
				       jstr(rd_esc_tmp(s->s.host.hostname)) :
				       NULL);
	json_object_object_add(o, "program", jstr(s->program));
	json_object_object_add(o, "device", jstr(rd_esc_tmp(s->side.dev->name)));
	json_object_object_add(o, "port",
			       json_object_new_int64((int64_t)s->side.port->port));
	json_object_object_add(o, "netdev",
			       s->side.port->netdev ?
				       jstr(rd_esc_tmp(s->side.port->netdev)) :
				       NULL);
	json_object_object_add(o, "gid_index",
			       gid >= 0 ? json_object_new_int64(gid) : NULL);
	json_object_object_add(o, "gid_ipv4", gid >= 0 ? jstr(gid_addr) : NULL);
	return o;
}

static int print_json(const char *host, const struct rd_peer_summary *mine,
		      const struct rd_peer_summary *theirs,
		      const struct rd_compare *c, const struct peer_matrix *mx)
{
	struct json_object *j = json_object_new_object(), *arr;
	int r = 0;

	if (!j)
		return -ENOMEM;
	json_object_object_add(j, "here", side_json(mine, NULL, c->gid_a, c->addr_a));
	json_object_object_add(j, "peer",
			       side_json(theirs, host, c->gid_b, c->addr_b));
	arr = json_object_new_array();
	for (size_t i = 0; arr && i < c->n; i++) {
		struct json_object *m = json_object_new_object();

		if (!m)
			break;
		json_object_object_add(m, "what", jstr(c->items[i].what));
		json_object_object_add(m, "here", jstr(c->items[i].a));
		json_object_object_add(m, "peer", jstr(c->items[i].b));
		json_object_object_add(m, "breaks", jstr(c->items[i].breaks));
		json_object_array_add(arr, m);
	}
	json_object_object_add(j, "mismatches", arr);
	json_object_object_add(j, "not_compared", jstr(c->unread));
	json_object_object_add(j, "reachability", matrix_json(mx));
	if (!mx->run && mx->err[0])
		json_object_object_add(j, "reachability_not_tested", jstr(mx->err));
	if (puts(json_object_to_json_string_ext(
		    j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			       JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		r = -EIO;
	json_object_put(j);
	return r;
}

static int run_client(struct rd_cli *cli, const struct peer_opts *po,
		      const char *host, const struct rd_peer_summary *mine)
{
	struct perf_oob o = { .fd = -1, .stop = &peer_stop };
	struct rd_peer_summary theirs;
	struct peer_matrix m;
	struct rd_compare c;
	char err[512], who[300];
	int r, rc = EXIT_PEER_ERROR;

	o.timeout_ms = (int)(po->timeout * 1000);
	r = rd_peer_client(&o, host, (uint16_t)po->port, o.timeout_ms, mine,
			   &theirs, err, sizeof(err));
	if (r < 0) {
		cli_error(cli, "peer: %s", err);
		return EXIT_PEER_ERROR;
	}
	run_matrix(&o, po, mine, &theirs, &m);
	perf_oob_close(&o);
	if (rd_compare(&mine->side, &theirs.side, &c) < 0) {
		cli_error(cli, "peer: out of memory");
		goto out;
	}
	snprintf(who, sizeof(who), "%s:%" PRIu64, rd_esc_tmp(host), po->port);
	if (po->json)
		r = print_json(who, mine, &theirs, &c, &m);
	else {
		print_text(who, mine, &theirs, &c);
		print_matrix(&m, &c);
	}
	rc = r < 0		     ? EXIT_PEER_ERROR :
	     c.n || matrix_refutes(&m, &c) ? EXIT_DIFFER :
					     EXIT_SAME;
	rd_compare_free(&c);
out:
	rd_peer_summary_free(&theirs);
	return rc;
}

/* The matrix, if the client asks: on the live port only. */
static void serve_matrix(struct rd_cli *cli, const struct peer_opts *po,
			 struct perf_oob *o, const struct rd_peer_summary *mine,
			 const char *why_not)
{
	const char *dev = NULL;
	unsigned port = 0;
	char err[512];

	if (!why_not && po->load)
		why_not = "it describes a saved snapshot, not its live port";
	if (!why_not) {
		dev = mine->side.dev->name;
		port = (unsigned)mine->side.port->port;
	}
	if (rd_peer_matrix_serve(o, dev, port, why_not, o->timeout_ms, err,
				 sizeof(err)) < 0)
		cli_error(cli, "peer: reachability: %s", err);
}

/* One client, in a child of the server: its exit status. */
static int serve_one(struct rd_cli *cli, const struct peer_opts *po,
		     struct perf_oob *o, const struct rd_peer_summary *mine,
		     const char *why_not)
{
	int timeout_ms = (int)(po->timeout * 1000);
	struct rd_peer_summary theirs;
	struct rd_compare c;
	char err[512], port[256];
	int r;

	r = rd_peer_serve(o, timeout_ms, why_not ? NULL : mine, why_not,
			  &theirs, err, sizeof(err));
	if (r == 0)
		serve_matrix(cli, po, o, mine, why_not);
	perf_oob_close(o);
	if (r < 0) {
		cli_error(cli, "peer: %s", err);
		return EXIT_PEER_ERROR;
	}
	if (!why_not && rd_compare(&mine->side, &theirs.side, &c) == 0) {
		printf("answered %s: %s, %zu mismatch%s\n", o->peer,
		       port_text(&theirs, port, sizeof(port)), c.n,
		       c.n == 1 ? "" : "es");
		rd_compare_free(&c);
	} else {
		printf("answered %s: %s\n", o->peer,
		       port_text(&theirs, port, sizeof(port)));
	}
	fflush(stdout);
	rd_peer_summary_free(&theirs);
	return EXIT_SAME;
}

/*
 * Where the server listens without --bind, as bw and lat do: the IPv4
 * address of the port's netdev and 127.0.0.1; a saved snapshot's port is
 * not this host's, so only 127.0.0.1; every IPv4 address when the netdev
 * has none (the banner says which, and why).
 */
static void server_bind(const struct peer_opts *po,
			const struct rd_peer_summary *mine, const char *why_not,
			const char **a1, const char **a2, char *buf, size_t len,
			char *why, size_t whylen)
{
	*a1 = po->bind;
	*a2 = NULL;
	if (po->bind) {
		snprintf(why, whylen, "--bind");
		return;
	}
	if (po->load) {
		*a1 = "127.0.0.1";
		snprintf(why, whylen,
			 "--load describes a saved snapshot, not this host's "
			 "port (--bind ADDR to choose)");
		return;
	}
	if (why_not) {
		snprintf(why, whylen, "%s (--bind ADDR to listen on one)",
			 why_not);
		return;
	}
	if (perf_bind_default(&mine->s, mine->side.dev->name,
			      (unsigned)mine->side.port->port, buf, len, why,
			      whylen) == 0) {
		size_t n = strlen(why);

		*a1 = buf;
		*a2 = "127.0.0.1";
		snprintf(why + n, whylen - n, " (--bind ADDR to choose)");
		return;
	}
	snprintf(why + strlen(why), whylen - strlen(why),
		 " (--bind ADDR to listen on one)");
}

struct peer_child {
	pid_t pid;
	uint32_t group; /* the client's address, a loopback /8 as one */
	char peer[32];
};

static uint32_t addr_group(const struct sockaddr_in *a)
{
	uint32_t v = ntohl(a->sin_addr.s_addr);

	return (v >> 24) == 127 ? 0x7f000000u : v;
}

/* A child has ended: say so when the deadline killed it. */
static int child_ended(struct rd_cli *cli, const struct peer_child *k,
		       int status)
{
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		cli_error(cli,
			  "peer: %s: not done within %d s; connection closed",
			  k->peer, PEER_CLIENT_DEADLINE_S);
		return EXIT_PEER_ERROR;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return EXIT_PEER_ERROR;
}

/* Children that have ended are reaped; with wait, until all have. */
static int reap(struct rd_cli *cli, struct peer_child *kids, size_t *n,
		bool wait)
{
	int rc = -1;

	for (size_t i = 0; i < *n;) {
		int status;
		pid_t p = waitpid(kids[i].pid, &status, wait ? 0 : WNOHANG);

		if (p == 0 || (p < 0 && errno == EINTR)) {
			i++;
			continue;
		}
		rc = p > 0 ? child_ended(cli, &kids[i], status)
			   : EXIT_PEER_ERROR;
		kids[i] = kids[--*n];
	}
	return rc;
}

static int run_server(struct rd_cli *cli, const struct peer_opts *po,
		      const struct rd_peer_summary *mine, const char *why_not)
{
	int timeout_ms = (int)(po->timeout * 1000), fds[2], nfd = 0, rc;
	struct perf_oob lo = { .fd = -1, .stop = &peer_stop };
	struct peer_child kids[PEER_CLIENTS_MAX];
	const char *a1, *a2;
	char buf[64], why[512];
	size_t nkids = 0;

	server_bind(po, mine, why_not, &a1, &a2, buf, sizeof(buf), why,
		    sizeof(why));
	if (perf_oob_listen(&lo, a1, a2, (uint16_t)po->port, 8, fds, &nfd) <
	    0) {
		cli_error(cli, "peer: %s", lo.err);
		return EXIT_PEER_ERROR;
	}
	printf("rdmadiag peer: listening on %s%s%s TCP port %" PRIu64 ", %s\n",
	       a1 ? rd_esc_tmp(a1) : "every IPv4 address", a2 ? " and " : "",
	       a2 ? a2 : "", po->port, why);
	fflush(stdout);
	while (!peer_stop) {
		struct perf_oob o = { .fd = -1, .stop = &peer_stop };
		struct sockaddr_in from;
		size_t same = 0;
		uint32_t g;
		pid_t pid;
		int r;

		reap(cli, kids, &nkids, false);
		o.timeout_ms = timeout_ms;
		r = perf_oob_accept_from(&o, fds, nfd, (uint16_t)po->port, 200,
					 &from);
		if (r == -ETIMEDOUT)
			continue;
		if (r < 0) {
			if (peer_stop)
				break;
			cli_error(cli, "peer: %s", o.err);
			rc = EXIT_PEER_ERROR;
			goto out;
		}
		g = addr_group(&from);
		for (size_t i = 0; i < nkids; i++)
			same += kids[i].group == g;
		/* Its address has its share, or every slot is taken. */
		if (same >= PEER_PER_ADDRESS || nkids >= PEER_CLIENTS_MAX) {
			perf_oob_close(&o);
			continue;
		}
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0) {
			for (int i = 0; i < nfd; i++)
				close(fds[i]);
			alarm(PEER_CLIENT_DEADLINE_S);
			_exit(serve_one(cli, po, &o, mine, why_not));
		}
		perf_oob_close(&o);
		if (pid < 0) {
			cli_error(cli, "peer: fork: %s", strerror(errno));
			continue;
		}
		kids[nkids].pid = pid;
		kids[nkids].group = g;
		snprintf(kids[nkids].peer, sizeof(kids[nkids].peer), "%s",
			 o.peer);
		nkids++;
		if (po->once) {
			/* One client, then exit: the listeners go first. */
			for (int i = 0; i < nfd; i++)
				close(fds[i]);
			nfd = 0;
			rc = reap(cli, kids, &nkids, true);
			return rc < 0 ? EXIT_PEER_ERROR : rc;
		}
	}
	rc = EXIT_SAME;
out:
	for (int i = 0; i < nfd; i++)
		close(fds[i]);
	for (size_t i = 0; i < nkids; i++)
		kill(kids[i].pid, SIGTERM);
	reap(cli, kids, &nkids, true);
	return rc;
}

int cmd_peer(struct rd_cli *cli, int argc, char **argv)
{
	struct peer_opts po = { .port = PERF_OOB_PORT, .timeout = 5 };
	const struct cli_opt opts[] = {
		CLI_U64("port", 'p', &po.port, 1, 65535),
		CLI_TEXT("ib-dev", 'd', &po.dev),
		CLI_U64("ib-port", 'i', &po.ib_port, 1, 255),
		CLI_SECONDS("timeout", 0, &po.timeout, 0.1, 600),
		CLI_FLAG("json", 0, &po.json),
		CLI_TEXT("load", 0, &po.load),
		CLI_FLAG("listen", 0, &po.listen),
		CLI_TEXT("bind", 0, &po.bind),
		CLI_FLAG("once", 0, &po.once),
		CLI_FLAG("summary", 0, &po.summary),
		CLI_FLAG("no-matrix", 0, &po.no_matrix),
		CLI_END,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct rd_peer_summary mine;
	char err[512];
	int first, r, rc;

	first = cli_parse(cli, "peer", opts, peer_usage, argc, argv);
	if (first < 0)
		return first == CLI_HELP ? 0 : EXIT_PEER_ERROR;
	if (po.listen || po.summary ? argc - first != 0 : argc - first != 1) {
		cli_error(cli, po.listen || po.summary ?
				       "peer: --listen and --summary take no HOST" :
				       "peer: say which HOST to compare with (see --help)");
		return EXIT_PEER_ERROR;
	}
	if ((po.bind || po.once) && !po.listen) {
		cli_error(cli, "peer: --bind and --once go with --listen");
		return EXIT_PEER_ERROR;
	}
	r = my_summary(cli, &po, &mine, err, sizeof(err));
	/* A server without a port still answers, saying why. */
	if (r < 0 && !po.listen) {
		cli_error(cli, "peer: %s", err);
		return EXIT_PEER_ERROR;
	}
	if (po.summary) {
		char *text;
		size_t len;

		rc = EXIT_PEER_ERROR;
		if (rd_peer_summary_encode(&mine, NULL, &text, &len) == 0) {
			rc = puts(text) < 0 ? EXIT_PEER_ERROR : EXIT_SAME;
			free(text);
		}
		rd_peer_summary_free(&mine);
		return rc;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (po.listen)
		rc = run_server(cli, &po, &mine, r < 0 ? err : NULL);
	else
		rc = run_client(cli, &po, argv[first], &mine);
	if (r == 0)
		rd_peer_summary_free(&mine);
	return rc;
}
