// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag bw / rdmadiag lat: perftest-compatible verbs tests. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "core/snapshot.h"
#include "perf/gid.h"
#include "perf/perf.h"
#include "probes/probe.h"

#define RESULT_LINE                                                            \
	"---------------------------------------------------------------"      \
	"------------------------\n"

static volatile sig_atomic_t perf_stop;

static void on_signal(int sig)
{
	(void)sig;
	perf_stop = 1;
}

static void perf_usage(FILE *f, bool lat)
{
	fprintf(f,
		"usage: rdmadiag %s [OPTIONS] [HOST]\n"
		"  HOST given: client of a server on HOST (rdmadiag or "
		"perftest's\n"
		"  ib_%s_%s); no HOST: server; --loopback: both ends here.\n"
		"options (perftest's letters):\n"
		"  --op OP               %s (default %s)\n"
		"  -d, --ib-dev DEV      RDMA device (default: the first)\n"
		"  -i, --ib-port N       port (default 1)\n"
		"  -x, --gid-index N     GID index (default: chosen as "
		"perftest does)\n"
		"  -p, --port N          TCP port of the out-of-band channel "
		"(18515)\n"
		"  -s, --size BYTES      message size (default %s)\n"
		"  -a, --all             every size from 2 B to 8 MiB\n"
		"  -n, --iters N         iterations (default %s)\n"
		"  -D, --duration SEC    run for SEC seconds instead of -n\n"
		"  -m, --mtu BYTES       path MTU 256..4096 (default: port's "
		"active)\n"
		"  -I, --inline_size N   largest message sent inline\n"
		"  -Q, --cq-mod N        one completion every N work requests\n"
		"  -u, --qp-timeout N    RC ack timeout exponent (default "
		"14)\n",
		lat ? "lat" : "bw", lat ? "send" : "write", lat ? "lat" : "bw",
		lat ? "send | write" : "write | read | send",
		lat ? "send" : "write", lat ? "2" : "65536",
		lat ? "1000" : "5000 for write, 1000 otherwise");
	if (!lat)
		fprintf(f, "  -q, --qp N            number of QPs (default 1)\n"
			   "  -t, --tx-depth N      work requests in flight "
			   "per QP (128)\n"
			   "  -r, --rx-depth N      receives posted per QP, "
			   "send (512)\n"
			   "  -b, --bidirectional   both directions at once\n"
			   "      --report_gbits    Gb/s (10^9 bit/s) instead "
			   "of MB/s (2^20 B/s)\n");
	else
		fprintf(f, "  -H, --report-histogram  print a histogram of the "
			   "samples\n");
	fprintf(f, "      --loopback        both ends on this port, no peer "
		   "needed\n"
		   "      --bind ADDR       server: listen on this IPv4 "
		   "address only\n"
		   "      --timeout MS      wait for each out-of-band message "
		   "(5000)\n"
		   "      --json            print the result as JSON\n"
		   "      --progress-fd N   stream JSON progress lines to "
		   "descriptor N\n"
		   "      --interval MS     progress interval (default 1000)\n"
		   "      --no-counters     do not show the port's counter "
		   "changes\n"
		   "exit status: 0 done, 1 test failed, 2 bad usage, 130 "
		   "interrupted\n");
}

static int parse_num(struct rd_cli *cli, const char *opt, const char *arg,
		     uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;

	if (rd_parse_u64(arg, 0, &v) < 0 || v < lo || v > hi) {
		cli_error(cli, "%s: \"%s\" is not a number in %llu..%llu", opt,
			  arg, (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* ---- checks before the test, counters around it ---- */

static bool take_snapshot(struct rd_cli *cli, struct rd_snapshot *s)
{
	struct rd_probe_ctx ctx = { .roots = &cli->roots };

	rd_snapshot_init(s);
	if (cli->roots.redirected)
		ctx.flags |= RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
	if (rd_probe_all(&ctx, s) < 0) {
		rd_snapshot_free(s);
		return false;
	}
	return true;
}

static const struct rd_port *snap_port(const struct rd_snapshot *s,
				       const char *dev, unsigned port)
{
	const struct rd_device *d = rd_snapshot_device(s, dev);

	return d ? rd_device_port(d, port) : NULL;
}

/* Refuse a port that is not ACTIVE; 0 when the test may go on. */
static int check_port(struct rd_cli *cli, const struct rd_snapshot *s,
		      const char *dev, unsigned port)
{
	const struct rd_port *p = snap_port(s, dev, port);

	if (!rd_snapshot_device(s, dev)) {
		cli_error(cli, "no RDMA device named %s%s", dev,
			  s->n_devices ? ""
				       : " (no RDMA device at all: is the "
					 "driver, e.g. rdma_rxe, loaded?)");
		return -ENODEV;
	}
	if (!p) {
		cli_error(cli, "%s has no port %u", dev, port);
		return -ENODEV;
	}
	if (!p->state_num.ok) {
		fprintf(stderr,
			"rdmadiag: warning: state of %s port %u is "
			"unknown; trying anyway\n",
			dev, port);
		return 0;
	}
	if (p->state_num.v != 4) {
		cli_error(cli,
			  "%s port %u is %s (physical state %s), not ACTIVE: "
			  "no traffic can pass%s%s%s. Run 'rdmadiag snapshot' "
			  "for the details.",
			  dev, port, p->state ? p->state : "not active",
			  p->phys_state ? p->phys_state : "unknown",
			  p->netdev ? " (is " : "", p->netdev ? p->netdev : "",
			  p->netdev ? " up with a carrier?)" : "");
		return -ENETDOWN;
	}
	return 0;
}

static void mtu_warning(const struct rd_snapshot *s, const struct perf_dev *d,
			char *buf, size_t len)
{
	const struct rd_port *p = snap_port(s, d->name, d->port);
	const struct rd_netdev *nd =
		p && p->netdev ? rd_snapshot_netdev(s, p->netdev) : NULL;
	int active = perf_mtu_bytes(d->port_attr.active_mtu);
	int max = perf_mtu_bytes(d->port_attr.max_mtu);

	buf[0] = '\0';
	if (active >= 4096)
		return;
	/* RoCE carries the IB MTU plus about 100 bytes of headers. */
	if (nd && nd->mtu.ok && nd->mtu.v >= 4096 + 100 && max >= 4096)
		snprintf(buf, len,
			 "active MTU %d < 4096 although %s has MTU "
			 "%llu: the port has not picked up the larger MTU",
			 active, nd->name, (unsigned long long)nd->mtu.v);
	else if (!d->roce && max > active)
		snprintf(buf, len,
			 "active MTU %d < the port's maximum %d: "
			 "check the subnet manager's MTU",
			 active, max);
}

static void counter_deltas(FILE *f, bool json, const struct rd_counters *a,
			   const struct rd_counters *b, bool *first)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct rd_counter *c = &b->v[i];
		const struct rd_counter *o = rd_counters_find(a, c->name);

		if (!o || !o->value.ok || !c->value.ok ||
		    o->value.v == c->value.v)
			continue;
		if (json)
			fprintf(f, "%s\"%s\":%lld", *first ? "" : ",", c->name,
				(long long)(c->value.v - o->value.v));
		else
			fprintf(f, "   %-32s %+lld\n", c->name,
				(long long)(c->value.v - o->value.v));
		*first = false;
	}
}

static void print_counters(FILE *f, bool json, const struct rd_snapshot *s0,
			   const struct rd_snapshot *s1, const char *dev,
			   unsigned port)
{
	const struct rd_port *a = snap_port(s0, dev, port);
	const struct rd_port *b = snap_port(s1, dev, port);
	bool first = true;

	if (!a || !b)
		return;
	if (!json)
		fprintf(f, " Port counters that changed (%s port %u):\n", dev,
			port);
	counter_deltas(f, json, &a->counters, &b->counters, &first);
	counter_deltas(f, json, &a->hw_counters, &b->hw_counters, &first);
	if (!json && first)
		fprintf(f, "   (none)\n");
}

/* ---- perftest-looking text ---- */

static void print_keys(const struct perf_session *s, const char *side,
		       const struct perf_oob_keys *k)
{
	const struct perf_opts *o = s->o;

	printf(" %s address: LID %#04x QPN %#06x PSN %#06x", side, k->lid,
	       k->qpn, k->psn);
	if (o->op == PERF_OP_READ)
		printf(" OUT %#04x", k->out_reads);
	if (o->op != PERF_OP_SEND)
		printf(" RKey %#08x VAddr %#016llx", k->rkey,
		       (unsigned long long)k->vaddr);
	putchar('\n');
	if (s->with_gid) {
		printf(" GID: ");
		for (int i = 0; i < 16; i++)
			printf("%02d%s", k->gid[i], i < 15 ? ":" : "\n");
	}
}

static void print_header(const struct perf_session *s, const char *warn)
{
	const struct perf_opts *o = s->o;
	bool sender = o->role != PERF_SERVER || o->bidir || o->lat;

	printf(RESULT_LINE);
	printf("                    %s %s%s Test\n", perf_op_title(o->op),
	       !o->lat && o->bidir ? "Bidirectional " : "",
	       o->lat ? "Latency" : "BW");
	printf(" Dual-port       : OFF\t\tDevice         : %s\n", s->dev.name);
	printf(" Number of qps   : %u\t\tTransport type : IB\n", o->nqp);
	printf(" Connection type : RC\t\tUsing SRQ      : OFF\n");
	if (sender && !o->lat)
		printf(" TX depth        : %u\n", o->tx_depth);
	if (o->op == PERF_OP_SEND && (o->role != PERF_CLIENT || o->bidir))
		printf(" RX depth        : %u\n", o->rx_depth);
	if (!o->lat)
		printf(" CQ Moderation   : %u\n", o->cq_mod);
	printf(" Mtu             : %d[B]\n", perf_mtu_bytes(s->mtu));
	printf(" Link type       : %s\n", s->dev.roce ? "Ethernet" : "IB");
	if (s->dev.gid_index >= 0)
		printf(" GID index       : %d\n", s->dev.gid_index);
	if (o->op != PERF_OP_READ)
		printf(" Max inline data : %u[B]\n", s->a.max_inline);
	else
		printf(" Outstand reads  : %u\n", s->a.mine[0].out_reads);
	printf(" rdma_cm QPs\t : OFF\n");
	printf(" Data ex. method : %s\n",
	       s->loopback ? "loopback (in process)" : "Ethernet");
	if (s->gid_why[0])
		printf(" GID choice      : %s\n", s->gid_why);
	if (warn && warn[0])
		printf(" Warning         : %s\n", warn);
	printf(RESULT_LINE);
	for (unsigned i = 0; i < o->nqp; i++)
		print_keys(s, "local", &s->a.mine[i]);
	for (unsigned i = 0; i < o->nqp; i++)
		print_keys(s, "remote", &s->a.peer[i]);
	printf(RESULT_LINE);
	if (o->lat)
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  "
		       "t_typical[usec]    t_avg[usec]    t_stdev[usec]   99%% "
		       "percentile[usec]   99.9%% percentile[usec] \n");
	else
		printf(" #bytes     #iterations    BW peak[%s]    BW "
		       "average[%s]   MsgRate[Mpps]\n",
		       o->gbits ? "Gb/sec" : "MB/sec",
		       o->gbits ? "Gb/sec" : "MB/sec");
	fflush(stdout);
}

static void print_bw_line(const struct perf_opts *o,
			  const struct perf_bw_result *r)
{
	printf(" %-7llu    %-10llu       %-7.2f            %-7.2f\t\t   "
	       "%-7.6f\n",
	       (unsigned long long)r->size, (unsigned long long)r->iters,
	       perf_bw_unit(r->peak_bps, 1, o->gbits),
	       perf_bw_unit(r->avg_bps, 1, o->gbits), r->msg_rate_mpps);
	fflush(stdout);
}

static void print_lat_line(const struct perf_lat_result *r)
{
	const struct perf_lat_stats *st = &r->st;

	printf(" %-7llu %-10llu     %-7.2f        %-7.2f      %-7.2f  \t       "
	       "%-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
	       (unsigned long long)r->size, (unsigned long long)r->iters,
	       st->min, st->max, st->median, st->avg, st->stdev, st->p99,
	       st->p999);
	fflush(stdout);
}

static void print_histogram(const struct perf_lat_result *r)
{
	size_t bins[20];
	double w = (r->st.max - r->st.min) / 20;

	perf_lat_histogram(r->samples, r->nsamples, bins, 20);
	printf(" Histogram of %zu samples (usec):\n", r->nsamples);
	for (int b = 0; b < 20; b++) {
		size_t bar = r->nsamples ? bins[b] * 50 / r->nsamples : 0;

		printf("  %10.2f .. %-10.2f %8zu ", r->st.min + w * b,
		       r->st.min + w * (b + 1), bins[b]);
		for (size_t k = 0; k < bar; k++)
			putchar('#');
		putchar('\n');
	}
}

/* ---- the JSON result ---- */

static void json_result(FILE *f, const struct perf_session *s,
			const struct perf_bw_result *bw, size_t nbw,
			const struct perf_lat_result *lat, size_t nlat,
			const char *warn, const struct rd_snapshot *s0,
			const struct rd_snapshot *s1, const char *error)
{
	const struct perf_opts *o = s->o;
	static const char *const roles[] = { "server", "client", "loopback" };

	fprintf(f,
		"{\"type\":\"result\",\"test\":\"%s\",\"op\":\"%s\","
		"\"role\":\"%s\",\"ok\":%s",
		o->lat ? "lat" : "bw", perf_op_name(o->op), roles[o->role],
		error ? "false" : "true");
	if (s->dev.name[0])
		fprintf(f,
			",\"device\":\"%s\",\"port\":%u,\"gid_index\":%d,"
			"\"mtu\":%d,\"qps\":%u,\"bidirectional\":%s",
			s->dev.name, s->dev.port, s->dev.gid_index,
			perf_mtu_bytes(s->mtu), o->nqp,
			o->bidir ? "true" : "false");
	if (s->peer_version)
		fprintf(f, ",\"peer_version\":\"%u.%02u\"",
			s->peer_version / 100, s->peer_version % 100);
	if (error) {
		fputs(",\"error\":\"", f);
		for (const char *c = error; *c; c++)
			if (*c == '"' || *c == '\\')
				fprintf(f, "\\%c", *c);
			else if ((unsigned char)*c < 0x20)
				fputc(' ', f);
			else
				fputc(*c, f);
		fputc('"', f);
	}
	if (warn && warn[0])
		fprintf(f, ",\"warning\":\"%s\"", warn);
	fputs(",\"results\":[", f);
	for (size_t i = 0; i < nbw; i++)
		fprintf(f,
			"%s{\"size\":%llu,\"iterations\":%llu,\"seconds\":%.6f,"
			"\"bw_peak_mibps\":%.3f,\"bw_avg_mibps\":%.3f,"
			"\"bw_peak_gbps\":%.6f,\"bw_avg_gbps\":%.6f,"
			"\"msg_rate_mpps\":%.6f,\"from_peer\":%s}",
			i ? "," : "", (unsigned long long)bw[i].size,
			(unsigned long long)bw[i].iters, bw[i].seconds,
			perf_bw_mib(bw[i].peak_bps, 1),
			perf_bw_mib(bw[i].avg_bps, 1),
			perf_bw_gbit(bw[i].peak_bps, 1),
			perf_bw_gbit(bw[i].avg_bps, 1), bw[i].msg_rate_mpps,
			bw[i].remote ? "true" : "false");
	for (size_t i = 0; i < nlat; i++) {
		const struct perf_lat_stats *st = &lat[i].st;

		fprintf(f,
			"%s{\"size\":%llu,\"iterations\":%llu,\"samples\":%zu,"
			"\"t_min\":%.3f,\"t_max\":%.3f,\"t_typical\":%.3f,"
			"\"t_avg\":%.3f,\"t_stdev\":%.3f,\"t_p99\":%.3f,"
			"\"t_p999\":%.3f}",
			i ? "," : "", (unsigned long long)lat[i].size,
			(unsigned long long)lat[i].iters, lat[i].nsamples,
			st->min, st->max, st->median, st->avg, st->stdev,
			st->p99, st->p999);
	}
	fputc(']', f);
	if (s0 && s1) {
		fputs(",\"counters\":{", f);
		print_counters(f, true, s0, s1, s->dev.name, s->dev.port);
		fputc('}', f);
	}
	fputs("}\n", f);
}

static void emit_result(const struct perf_session *s,
			const struct perf_bw_result *bw, size_t nbw,
			const struct perf_lat_result *lat, size_t nlat,
			const char *warn, const struct rd_snapshot *s0,
			const struct rd_snapshot *s1, const char *error)
{
	const struct perf_opts *o = s->o;

	if (o->json)
		json_result(stdout, s, bw, nbw, lat, nlat, warn, s0, s1, error);
	if (o->progress_fd >= 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			json_result(m, s, bw, nbw, lat, nlat, warn, s0, s1,
				    error);
			fclose(m);
			if (buf && write(o->progress_fd, buf, len) < 0)
				perror("rdmadiag: progress fd");
			free(buf);
		}
	}
}

/* ---- the command ---- */

static int run(struct rd_cli *cli, struct perf_opts *o)
{
	struct perf_session s;
	struct rd_snapshot s0, s1;
	bool have0 = false, have1 = false;
	struct perf_bw_result *bw = NULL;
	struct perf_lat_result *lat = NULL;
	size_t nbw = 0, nlat = 0, nsizes = 0;
	uint64_t sizes[24];
	char warn[300] = "";
	char devname[IBV_SYSFS_NAME_MAX] = "";
	int r, rc = 1;

	if (o->all_sizes)
		for (uint64_t sz = 2; sz <= PERF_MAX_SIZE; sz <<= 1)
			sizes[nsizes++] = sz;
	else
		sizes[nsizes++] = o->size;

	have0 = take_snapshot(cli, &s0);
	if (have0) {
		if (!o->dev && s0.n_devices)
			snprintf(devname, sizeof(devname), "%s",
				 s0.devices[0].name);
		if (!o->dev && devname[0])
			o->dev = devname;
		if (o->dev && check_port(cli, &s0, o->dev, o->ib_port) < 0)
			goto out_snap;
		if (!o->dev) {
			cli_error(cli,
				  "no RDMA device found (is the driver, "
				  "e.g. rdma_rxe, loaded and a link added?)");
			goto out_snap;
		}
	} else {
		fprintf(stderr, "rdmadiag: warning: cannot read the port "
				"state; trying anyway\n");
	}

	r = perf_session_open(&s, o, &perf_stop);
	if (r < 0) {
		cli_error(cli, "%s", s.err);
		emit_result(&s, NULL, 0, NULL, 0, NULL, NULL, NULL, s.err);
		rc = perf_stop ? 130 : 1;
		goto out_snap;
	}
	if (have0)
		mtu_warning(&s0, &s.dev, warn, sizeof(warn));
	if (warn[0] && (o->json || o->quiet))
		fprintf(stderr, "rdmadiag: warning: %s\n", warn);
	if (!o->json && !o->quiet)
		print_header(&s, warn);

	bw = calloc(nsizes, sizeof(*bw));
	lat = calloc(nsizes, sizeof(*lat));
	if (!bw || !lat) {
		snprintf(s.err, sizeof(s.err), "out of memory");
		r = -ENOMEM;
		goto fail;
	}
	if (!o->lat && o->role == PERF_SERVER && !o->bidir &&
	    o->op != PERF_OP_SEND) {
		r = perf_bw_server_wait(&s, &bw[0]);
		if (r < 0)
			goto fail;
		nbw = 1;
		if (!o->json && !o->quiet)
			print_bw_line(o, &bw[0]);
	} else {
		for (size_t k = 0; k < nsizes; k++) {
			if (o->lat) {
				r = perf_lat_run(&s, sizes[k], &lat[k]);
				if (r < 0)
					goto fail;
				nlat++;
				if (!o->json && !o->quiet) {
					print_lat_line(&lat[k]);
					if (o->histogram)
						print_histogram(&lat[k]);
				}
			} else {
				r = perf_bw_run(&s, sizes[k], &bw[k]);
				if (r < 0)
					goto fail;
				nbw++;
				if (!o->json && !o->quiet)
					print_bw_line(o, &bw[k]);
			}
		}
	}
	if (!o->lat)
		r = perf_bw_finish(&s, nbw ? &bw[nbw - 1] : NULL);
	else if (o->op == PERF_OP_SEND)
		r = perf_session_goodbye(&s);
	else
		r = 0; /* ib_write_lat just closes */
	if (r < 0)
		goto fail;
	if (!o->json && !o->quiet)
		printf(RESULT_LINE);
	if (have0 && o->counters)
		have1 = take_snapshot(cli, &s1);
	if (have0 && have1 && !o->json && !o->quiet)
		print_counters(stdout, false, &s0, &s1, s.dev.name, s.dev.port);
	emit_result(&s, bw, nbw, lat, nlat, warn, have1 ? &s0 : NULL,
		    have1 ? &s1 : NULL, NULL);
	rc = 0;
	goto out;
fail:
	cli_error(cli, "%s", s.err);
	if (have0 && o->counters)
		have1 = take_snapshot(cli, &s1);
	if (have0 && have1 && !o->json && !o->quiet)
		print_counters(stderr, false, &s0, &s1, s.dev.name, s.dev.port);
	if (!o->json && !o->quiet)
		cli_explain_completion(cli, stderr, s.err, s.dev.name, s.dev.port,
				       have1 ? &s0 : NULL, have1 ? &s1 : NULL);
	emit_result(&s, bw, nbw, lat, nlat, warn, have1 ? &s0 : NULL,
		    have1 ? &s1 : NULL, s.err);
	rc = perf_stop ? 130 : 1;
out:
	for (size_t k = 0; k < nlat; k++)
		free(lat[k].samples);
	free(lat);
	free(bw);
	perf_session_close(&s);
	if (have1)
		rd_snapshot_free(&s1);
out_snap:
	if (have0)
		rd_snapshot_free(&s0);
	if (o->dev == devname)
		o->dev = NULL;
	return rc;
}

static int cmd_perf(struct rd_cli *cli, int argc, char **argv, bool lat)
{
	enum {
		OPT_OP = 0x2000,
		OPT_GBITS,
		OPT_LOOPBACK,
		OPT_BIND,
		OPT_TIMEOUT,
		OPT_JSON,
		OPT_PROGRESS,
		OPT_INTERVAL,
		OPT_NO_COUNTERS,
	};
	static const struct option longopts[] = {
		{ "op", required_argument, NULL, OPT_OP },
		{ "ib-dev", required_argument, NULL, 'd' },
		{ "ib-port", required_argument, NULL, 'i' },
		{ "gid-index", required_argument, NULL, 'x' },
		{ "port", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "iters", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'D' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "inline_size", required_argument, NULL, 'I' },
		{ "cq-mod", required_argument, NULL, 'Q' },
		{ "qp-timeout", required_argument, NULL, 'u' },
		{ "qp", required_argument, NULL, 'q' },
		{ "tx-depth", required_argument, NULL, 't' },
		{ "rx-depth", required_argument, NULL, 'r' },
		{ "bidirectional", no_argument, NULL, 'b' },
		{ "report_gbits", no_argument, NULL, OPT_GBITS },
		{ "report-histogram", no_argument, NULL, 'H' },
		{ "loopback", no_argument, NULL, OPT_LOOPBACK },
		{ "bind", required_argument, NULL, OPT_BIND },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
		{ "help", no_argument, NULL, 'h' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct perf_opts o = {
		.lat = lat,
		.op = lat ? PERF_OP_SEND : PERF_OP_WRITE,
		.port = PERF_OOB_PORT,
		.ib_port = 1,
		.gid_index = -1,
		.nqp = 1,
		.tx_depth = 128,
		.rx_depth = 512,
		.cq_mod = 100,
		.inline_size = -1,
		.qp_timeout = 14,
		.timeout_ms = 5000,
		.progress_fd = -1,
		.interval_ms = 1000,
	};
	bool have_size = false, have_iters = false, have_cqmod = false;
	bool loopback = false, no_counters = false;
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction old_int, old_term, old_pipe;
	struct sigaction ign = { .sa_handler = SIG_IGN };
	uint64_t v;
	int opt, r, rc;
	const char *shorts = lat ? "d:i:x:p:s:an:D:m:I:Q:u:Hh"
				 : "d:i:x:p:s:an:D:m:I:Q:u:q:t:r:bh";

	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		r = cli_common_option(cli, opt, optarg);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		switch (opt) {
		case OPT_OP:
			if (strcmp(optarg, "write") == 0)
				o.op = PERF_OP_WRITE;
			else if (strcmp(optarg, "send") == 0)
				o.op = PERF_OP_SEND;
			else if (strcmp(optarg, "read") == 0 && !lat)
				o.op = PERF_OP_READ;
			else {
				cli_error(cli, "--op: \"%s\" is not one of %s",
					  optarg,
					  lat ? "send, write"
					      : "write, read, send");
				return 2;
			}
			break;
		case 'd':
			o.dev = optarg;
			break;
		case 'i':
			if (parse_num(cli, "-i", optarg, 1, 255, &v) < 0)
				return 2;
			o.ib_port = (unsigned)v;
			break;
		case 'x':
			if (parse_num(cli, "-x", optarg, 0, 255, &v) < 0)
				return 2;
			o.gid_index = (int)v;
			break;
		case 'p':
			if (parse_num(cli, "-p", optarg, 1, 65535, &v) < 0)
				return 2;
			o.port = (uint16_t)v;
			break;
		case 's':
			if (parse_num(cli, "-s", optarg, 1, 1u << 30, &v) < 0)
				return 2;
			o.size = v;
			have_size = true;
			break;
		case 'a':
			o.all_sizes = true;
			break;
		case 'n':
			if (parse_num(cli, "-n", optarg, 5, 1ull << 40, &v) < 0)
				return 2;
			o.iters = v;
			have_iters = true;
			break;
		case 'D':
			if (parse_num(cli, "-D", optarg, 1, 86400, &v) < 0)
				return 2;
			o.duration = (unsigned)v;
			break;
		case 'm':
			if (parse_num(cli, "-m", optarg, 256, 4096, &v) < 0 ||
			    perf_mtu_enum((unsigned)v) < 0) {
				cli_error(cli, "-m: use 256, 512, 1024, 2048 "
					       "or 4096");
				return 2;
			}
			o.mtu = (unsigned)v;
			break;
		case 'I':
			if (parse_num(cli, "-I", optarg, 0, 1024, &v) < 0)
				return 2;
			o.inline_size = (int)v;
			break;
		case 'Q':
			if (parse_num(cli, "-Q", optarg, 1, 1024, &v) < 0)
				return 2;
			o.cq_mod = (unsigned)v;
			have_cqmod = true;
			break;
		case 'u':
			if (parse_num(cli, "-u", optarg, 0, 31, &v) < 0)
				return 2;
			o.qp_timeout = (uint8_t)v;
			break;
		case 'q':
			if (parse_num(cli, "-q", optarg, 1, 1024, &v) < 0)
				return 2;
			o.nqp = (unsigned)v;
			break;
		case 't':
			if (parse_num(cli, "-t", optarg, 1, 16384, &v) < 0)
				return 2;
			o.tx_depth = (unsigned)v;
			break;
		case 'r':
			if (parse_num(cli, "-r", optarg, 1, 16384, &v) < 0)
				return 2;
			o.rx_depth = (unsigned)v;
			break;
		case 'b':
			o.bidir = true;
			break;
		case 'H':
			o.histogram = true;
			break;
		case OPT_GBITS:
			o.gbits = true;
			break;
		case OPT_LOOPBACK:
			loopback = true;
			break;
		case OPT_BIND:
			o.bind_addr = optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_num(cli, "--timeout", optarg, 100, 3600000,
				      &v) < 0)
				return 2;
			o.timeout_ms = (int)v;
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_PROGRESS:
			if (parse_num(cli, "--progress-fd", optarg, 0, INT_MAX,
				      &v) < 0)
				return 2;
			o.progress_fd = (int)v;
			break;
		case OPT_INTERVAL:
			if (parse_num(cli, "--interval", optarg, 50, 3600000,
				      &v) < 0)
				return 2;
			o.interval_ms = (unsigned)v;
			break;
		case OPT_NO_COUNTERS:
			no_counters = true;
			break;
		case 'h':
			perf_usage(stdout, lat);
			return 0;
		default:
			perf_usage(stderr, lat);
			return 2;
		}
	}
	if (optind < argc)
		o.host = argv[optind++];
	if (optind < argc) {
		cli_error(cli, "unexpected argument \"%s\"", argv[optind]);
		return 2;
	}
	if (loopback && o.host) {
		cli_error(cli, "--loopback needs no HOST");
		return 2;
	}
	o.role = loopback ? PERF_LOOPBACK : o.host ? PERF_CLIENT : PERF_SERVER;
	if (o.progress_fd >= 0 && fcntl(o.progress_fd, F_GETFD) < 0) {
		cli_error(cli, "--progress-fd %d is not an open descriptor",
			  o.progress_fd);
		return 2;
	}
	if (o.all_sizes && o.duration) {
		cli_error(cli, "-a and -D cannot be combined");
		return 2;
	}
	if (o.all_sizes && have_size) {
		cli_error(cli, "-a and -s cannot be combined");
		return 2;
	}
	if (lat && o.duration && !loopback) {
		cli_error(cli, "-D is supported for lat only with --loopback; "
			       "use -n against a peer");
		return 2;
	}
	if (!have_size)
		o.size = lat ? 2 : 65536;
	if (o.size > PERF_MAX_SIZE && !o.all_sizes) {
		cli_error(cli, "-s: at most %u bytes", PERF_MAX_SIZE);
		return 2;
	}
	if (lat && o.op == PERF_OP_WRITE && o.size < 1) {
		cli_error(cli, "-s: at least 1 byte");
		return 2;
	}
	if (!have_iters)
		o.iters = (!lat && o.op == PERF_OP_WRITE) ? 5000 : 1000;
	if (o.inline_size < 0)
		o.inline_size = lat ? (o.op == PERF_OP_WRITE ? 220 : 236) : 0;
	if (o.op == PERF_OP_READ)
		o.inline_size = 0;
	/* As perftest: one completion per message for large messages. */
	if (!have_cqmod && !lat && o.size > 8192 && !o.all_sizes)
		o.cq_mod = 1;
	if (!o.duration) {
		if (o.tx_depth > o.iters)
			o.tx_depth = (unsigned)o.iters;
		if (o.rx_depth > o.iters)
			o.rx_depth = (unsigned)o.iters;
	}
	if (o.cq_mod > o.tx_depth && !lat)
		o.cq_mod = o.tx_depth;
	o.quiet = false;

	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGPIPE, &ign, &old_pipe);
	perf_stop = 0;
	o.counters = !no_counters;
	rc = run(cli, &o);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return rc;
}

int cmd_bw(struct rd_cli *cli, int argc, char **argv)
{
	return cmd_perf(cli, argc, argv, false);
}

int cmd_lat(struct rd_cli *cli, int argc, char **argv)
{
	return cmd_perf(cli, argc, argv, true);
}
