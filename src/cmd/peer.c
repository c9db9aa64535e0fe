// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag peer HOST / peer --listen: compare this host's RDMA port with
 * the one of another host running rdmadiag, over TCP, and list every
 * mismatch with what it breaks and the GID index to use on each side.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "core/recording.h"
#include "peer/session.h"
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
	bool listen, json, once, summary;
};

static void peer_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag peer HOST [OPTIONS]\n"
		"       rdmadiag peer --listen [--bind ADDR] [OPTIONS]\n"
		"  Compare this host's RDMA port with the one of HOST, where\n"
		"  'rdmadiag peer --listen' runs: every mismatch with both values\n"
		"  and what it breaks, and the GID index (-x, NCCL_IB_GID_INDEX,\n"
		"  UCX_IB_GID_INDEX) each host should use.\n"
		"  -p, --port N        TCP port (default %u, perftest's)\n"
		"  -d, --ib-dev DEV    the RDMA device (default: the port with an\n"
		"                      IPv4 RoCE v2 GID, or the only one)\n"
		"  -i, --ib-port N     its port number\n"
		"  --timeout SECS      for the connection and each message (default 5)\n"
		"  --json              the comparison as JSON\n"
		"  --load FILE         describe a saved snapshot instead of this host\n"
		"  --listen            answer peers (one at a time) until interrupted\n"
		"  --bind ADDR         listen on this IPv4 address only\n"
		"  --once              with --listen: answer one peer, then exit\n"
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
		      const struct rd_compare *c)
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
	perf_oob_close(&o);
	if (rd_compare(&mine->side, &theirs.side, &c) < 0) {
		cli_error(cli, "peer: out of memory");
		goto out;
	}
	snprintf(who, sizeof(who), "%s:%" PRIu64, rd_esc_tmp(host), po->port);
	if (po->json)
		r = print_json(who, mine, &theirs, &c);
	else
		print_text(who, mine, &theirs, &c);
	rc = r < 0 ? EXIT_PEER_ERROR : c.n ? EXIT_DIFFER : EXIT_SAME;
	rd_compare_free(&c);
out:
	rd_peer_summary_free(&theirs);
	return rc;
}

static int run_server(struct rd_cli *cli, const struct peer_opts *po,
		      const struct rd_peer_summary *mine, const char *why_not)
{
	int timeout_ms = (int)(po->timeout * 1000);

	printf("rdmadiag peer: listening on %s TCP port %" PRIu64 "\n",
	       po->bind ? rd_esc_tmp(po->bind) : "every IPv4 address", po->port);
	fflush(stdout);
	while (!peer_stop) {
		struct perf_oob o = { .fd = -1, .stop = &peer_stop };
		struct rd_peer_summary theirs;
		struct rd_compare c;
		char err[512], port[256];
		int r;

		o.timeout_ms = timeout_ms;
		r = perf_oob_accept(&o, po->bind, NULL, (uint16_t)po->port, -1);
		if (r < 0) {
			if (peer_stop)
				break;
			cli_error(cli, "peer: %s", o.err);
			return EXIT_PEER_ERROR;
		}
		r = rd_peer_serve(&o, timeout_ms, why_not ? NULL : mine, why_not,
				  &theirs, err, sizeof(err));
		perf_oob_close(&o);
		if (r < 0) {
			cli_error(cli, "peer: %s", err);
		} else {
			if (!why_not && rd_compare(&mine->side, &theirs.side, &c) == 0) {
				printf("answered %s: %s, %zu mismatch%s\n", o.peer,
				       port_text(&theirs, port, sizeof(port)),
				       c.n, c.n == 1 ? "" : "es");
				rd_compare_free(&c);
			} else {
				printf("answered %s: %s\n", o.peer,
				       port_text(&theirs, port, sizeof(port)));
			}
			fflush(stdout);
			rd_peer_summary_free(&theirs);
		}
		if (po->once)
			return r < 0 ? EXIT_PEER_ERROR : EXIT_SAME;
	}
	return EXIT_SAME;
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
