// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag bw / rdmadiag lat: perftest-compatible verbs tests. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "core/attr.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "core/snapshot.h"
#include "peer/inband.h"
#include "peer/precheck.h"
#include "perf/bind.h"
#include "perf/gid.h"
#include "perf/perf.h"
#include "perf/pretest.h"
#include "probes/probe.h"

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
		"  -p, --port N          TCP port of the out-of-band channel, "
		"with -R the\n"
		"                        rdma_cm port (18515)\n"
		"  -s, --size BYTES      message size (default %s)\n"
		"  -a, --all             every size from 2 B to 8 MiB\n"
		"  -n, --iters N         iterations (default %s)\n"
		"  -D, --duration SEC    run for SEC seconds instead of -n\n"
		"  -m, --mtu BYTES       path MTU 256..4096 (default: port's "
		"active)\n"
		"  -I, --inline_size N   largest message sent inline\n"
		"  -Q, --cq-mod N        one completion every N work requests\n"
		"  -u, --qp-timeout N    RC ack timeout exponent (default "
		"14)\n"
		"  -S, --sl N            service level 0..15 (default 0)\n"
		"      --tclass N        traffic class in the GRH 0..255 "
		"(default 0)\n"
		"  -R, --rdma_cm         connect the QPs through rdma_cm, as "
		"perftest's -R:\n"
		"                        the other end must use -R too\n"
		"  -T, --tos N           with -R: the QPs' ToS 0..255 "
		"(default: rdma_cm's,\n"
		"                        default_roce_tos in configfs)\n"
		"  -F, --CPU-freq        accepted for perftest's command "
		"lines; rdmadiag measures\n"
		"                        its clock against the monotonic clock "
		"during the\n"
		"                        test, so there is no CPU frequency "
		"check to skip\n",
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
			   "      --report-both     with -b: each direction's "
			   "figures as well\n"
			   "      --report_gbits    Gb/s (10^9 bit/s) instead "
			   "of MB/s (2^20 B/s)\n");
	else
		fprintf(f, "  -H, --report-histogram  print every sample, "
			   "sorted, as perftest does\n"
			   "      --histogram       print a histogram of the "
			   "samples (usec, counts)\n"
			   "      --samples FILE    write every sample, in the "
			   "order measured, to a new\n"
			   "                        FILE after the run\n");
	fprintf(f,
		"      --loopback        both ends on this port, no peer "
		"needed\n"
		"      --bind ADDR       server: listen on this IPv4 "
		"address (default: the\n"
		"                        IPv4 address of the port's netdev "
		"and 127.0.0.1,\n"
		"                        else every address)\n"
		"      --timeout MS      wait for each out-of-band message "
		"(5000)\n"
		"      --json            print the result as JSON\n"
		"      --progress-fd N   stream JSON progress lines to "
		"descriptor N\n"
		"      --interval MS     progress interval (default 1000)\n"
		"      --no-counters     do not show the port's counter "
		"changes\n"
		"      --expect-percent P  bw: exit 1 when a result (with -a: "
		"the largest)\n"
		"                        is below P %% of the rate this path "
		"can reach\n"
		"      --peer-port N     client: before the test, compare "
		"both ports with\n"
		"                        'rdmadiag peer --listen -p N' on "
		"HOST and list\n"
		"                        the mismatches (without it, an "
		"rdmadiag server\n"
		"                        is asked in the test's own "
		"channel; not with -R)\n"
		"exit status: 0 done, 1 test failed, below --expect-percent "
		"or bad usage\n"
		"(as perftest), 130 "
		"interrupted\n");
}

/*
 * An unknown option: getopt has named it; one more line, as perftest
 * prints, and where the options are listed instead of all of them.
 */
static void perf_usage_short(FILE *f, bool lat)
{
	fprintf(f,
		" Invalid Command or flag: 'rdmadiag %s --help' lists "
		"the options\n",
		lat ? "lat" : "bw");
}

static int parse_op(struct rd_cli *cli, const char *arg, void *dst)
{
	struct perf_opts *o = dst;

	if (strcmp(arg, "write") == 0)
		o->op = PERF_OP_WRITE;
	else if (strcmp(arg, "send") == 0)
		o->op = PERF_OP_SEND;
	else if (strcmp(arg, "read") == 0 && !o->lat)
		o->op = PERF_OP_READ;
	else {
		cli_error(cli, "--op: \"%s\" is not one of %s", arg,
			  o->lat ? "send, write" : "write, read, send");
		return -1;
	}
	return 0;
}

static int parse_mtu(struct rd_cli *cli, const char *arg, void *dst)
{
	uint64_t v;

	if (rd_parse_u64(arg, 0, &v) < 0 || v < 256 || v > 4096 ||
	    perf_mtu_enum((unsigned)v) < 0) {
		cli_error(cli, "-m: use 256, 512, 1024, 2048 or 4096");
		return -1;
	}
	*(unsigned *)dst = (unsigned)v;
	return 0;
}

/* cli_parse: stdout for --help, stderr after an unknown option. */
static void bw_usage(FILE *f)
{
	if (f == stderr)
		perf_usage_short(f, false);
	else
		perf_usage(f, false);
}

static void lat_usage(FILE *f)
{
	if (f == stderr)
		perf_usage_short(f, true);
	else
		perf_usage(f, true);
}

/* ---- checks before the test, counters around it ---- */

static bool take_snapshot(struct rd_cli *cli, struct rd_snapshot *s)
{
	return rd_snapshot_take(&cli->roots, NULL, 0, 0, s) == 0;
}

/*
 * --expect-percent: 1 when a result is below it, or cannot be judged.
 * With -a only the largest size counts: small messages are bound by the
 * message rate, not by the path.
 */
static int expect_check(struct rd_cli *cli, const struct perf_session *s,
			const struct perf_bw_result *bw, size_t nbw)
{
	unsigned want = s->o->expect_percent;

	if (want == 0 || s->o->lat || nbw == 0)
		return 0;
	for (size_t i = s->o->all_sizes ? nbw - 1 : 0; i < nbw; i++) {
		double pct = perf_reach_percent(s, bw[i].avg_bps);

		if (pct < 0) {
			cli_error(cli, "--expect-percent %u: cannot judge, %s",
				  want,
				  s->reach_why[0]
					  ? s->reach_why
					  : "the reachable rate is not known");
			return 1;
		}
		if (pct < want) {
			cli_error(
				cli,
				"%llu B: %.2f %% of the %.2f Gb/s "
				"this path can reach, below the %u %% expected",
				(unsigned long long)bw[i].size, pct,
				s->reach.reachable_gbps, want);
			return 1;
		}
	}
	return 0;
}

/* ---- the command ---- */

/*
 * Each size in turn, its line printed as it ends (a one-way WRITE/READ
 * server only waits for the client's report), then the goodbye. 0, or
 * -errno with s->err set; *nbw and *nlat count the results kept.
 */
static int measure(struct perf_session *s, const uint64_t *sizes, size_t nsizes,
		   struct perf_bw_result *bw, size_t *nbw,
		   struct perf_lat_result *lat, size_t *nlat)
{
	const struct perf_opts *o = s->o;
	bool text = !o->json && !o->quiet;
	int r;

	if (!o->lat && o->role == PERF_SERVER && !o->bidir &&
	    o->op != PERF_OP_SEND) {
		r = perf_bw_server_wait(s, &bw[0]);
		if (r < 0)
			return r;
		*nbw = 1;
		if (text) {
			perf_text_bw_line(stdout, o, &bw[0]);
			perf_reach_text(stdout, s, bw[0].avg_bps);
		}
	} else {
		for (size_t k = 0; k < nsizes; k++) {
			if (o->lat) {
				r = perf_lat_run(s, sizes[k], &lat[k]);
				if (r < 0)
					return r;
				(*nlat)++;
				if (text && o->histogram)
					perf_text_sorted_samples(stdout,
								 &lat[k]);
				if (text)
					perf_text_lat_line(stdout, &lat[k]);
				continue;
			}
			r = perf_bw_run(s, sizes[k], &bw[k]);
			if (r < 0)
				return r;
			(*nbw)++;
			if (text) {
				perf_text_bw_line(stdout, o, &bw[k]);
				perf_text_bw_parts(stdout, o, &bw[k]);
				perf_reach_text(stdout, s, bw[k].avg_bps);
			}
		}
	}
	if (!o->lat)
		return perf_bw_finish(s, *nbw ? &bw[*nbw - 1] : NULL);
	if (o->op == PERF_OP_SEND)
		return perf_session_goodbye(s);
	return 0; /* ib_write_lat just closes */
}

static int run(struct rd_cli *cli, struct perf_opts *o, unsigned peer_port)
{
	struct rd_peer_precheck pc = { .ran = false };
	struct rd_peer_inband ib;
	struct perf_session s;
	struct rd_snapshot s0, s1;
	bool have0 = false, have1 = false;
	struct perf_bw_result *bw = NULL;
	struct perf_lat_result *lat = NULL;
	size_t nbw = 0, nlat = 0, nsizes = 0;
	uint64_t sizes[24];
	char warn[300] = "", note[600] = "", msg[300];
	char bindaddr[INET_ADDRSTRLEN];
	struct rd_outfile samples = { .f = NULL, .dirfd = -1 };
	int r, rc = 1;

	if (o->all_sizes)
		for (uint64_t sz = 2; sz <= PERF_MAX_SIZE; sz <<= 1)
			sizes[nsizes++] = sz;
	else
		sizes[nsizes++] = o->size;
	/* Made before the test, so a name in the way is said at once. */
	if (o->samples_path) {
		if (!o->lat || o->role == PERF_SERVER) {
			cli_error(cli, "--samples is for the measuring side "
				       "of a latency test (the client, or "
				       "--loopback)");
			return 1;
		}
		r = rd_outfile_open(&samples, o->samples_path, false, 0644, msg,
				    sizeof(msg));
		if (r == -EEXIST) {
			cli_error(cli,
				  "%s: a file or a symlink is there; "
				  "--samples writes a new file",
				  rd_esc_tmp(o->samples_path));
			return 1;
		}
		if (r < 0) {
			cli_error(cli, "%s", msg);
			return 1;
		}
	}

	have0 = take_snapshot(cli, &s0);
	r = perf_pick_device(o, have0 ? &s0 : NULL, msg, sizeof(msg));
	if (r < 0) {
		cli_error(cli, "%s", msg);
		goto out_snap;
	}
	if (msg[0])
		fprintf(stderr, "rdmadiag: warning: %s\n", msg);
	if (o->role == PERF_SERVER)
		perf_bind_choose(o, have0 ? &s0 : NULL, bindaddr,
				 sizeof(bindaddr));
	rd_peer_inband_init(&ib, o, have0 ? &s0 : NULL, &pc);
	if (peer_port)
		rd_peer_precheck_run(&pc, have0 ? &s0 : NULL, o->dev,
				     o->ib_port, o->host, (uint16_t)peer_port,
				     o->timeout_ms, rd_peer_inband_out(o));
	else if (o->role != PERF_LOOPBACK)
		o->inband = &ib.hooks;
	r = perf_session_open(&s, o, &perf_stop);
	if (!peer_port && !ib.done && s.peer_version)
		snprintf(pc.err, sizeof(pc.err),
			 "the peer's version message (perftest %u.%02u) "
			 "carries no rdmadiag extension: stock perftest, or "
			 "an rdmadiag without the in-band check",
			 s.peer_version / 100, s.peer_version % 100);
	if (r < 0) {
		if (o->rdma_cm && have0)
			perf_cm_mode_note(&s0, o, s.err, sizeof(s.err));
		cli_error(cli, "%s", s.err);
		rd_peer_precheck_explain(&pc, s.peer_version || o->rdma_cm,
					 &s.fail, stderr);
		perf_result_emit(&s, NULL, 0, NULL, 0, NULL, NULL, NULL, s.err);
		rc = perf_stop ? 130 : 1;
		goto out_snap;
	}
	if (have0)
		perf_mtu_warning(&s0, &s.dev, warn, sizeof(warn));
	perf_reach_set(&s, have0 ? &s0 : NULL);
	if (warn[0] && (o->json || o->quiet))
		fprintf(stderr, "rdmadiag: warning: %s\n", rd_esc_tmp(warn));
	rd_peer_inband_note(o, &pc, peer_port || ib.done, note, sizeof(note));
	if (!o->json && !o->quiet)
		perf_text_header(stdout, &s, warn, note);
	else if (note[0] && !peer_port && !ib.done)
		fprintf(stderr, "peer check: %s\n", note); /* why none */

	bw = calloc(nsizes, sizeof(*bw));
	lat = calloc(nsizes, sizeof(*lat));
	if (!bw || !lat) {
		snprintf(s.err, sizeof(s.err), "out of memory");
		r = -ENOMEM;
		goto fail;
	}
	r = measure(&s, sizes, nsizes, bw, &nbw, lat, &nlat);
	if (r < 0)
		goto fail;
	if (samples.f) {
		r = perf_write_samples(samples.f, lat, nlat);
		if (r < 0 || rd_outfile_close(&samples, true, s.err,
					      sizeof(s.err)) < 0) {
			if (r < 0)
				snprintf(s.err, sizeof(s.err), "%s: %s",
					 o->samples_path, strerror(-r));
			goto fail;
		}
	}
	if (!o->json && !o->quiet) {
		fputs(PERF_RESULT_LINE, stdout);
		if (nlat)
			perf_text_every_sample(stdout, o, lat, nlat);
	}
	if (have0 && o->counters)
		have1 = take_snapshot(cli, &s1);
	if (have0 && have1 && !o->json && !o->quiet)
		perf_counters_text(stdout, &s0, &s1, s.dev.name, s.dev.port);
	perf_result_emit(&s, bw, nbw, lat, nlat, warn, have1 ? &s0 : NULL,
			 have1 ? &s1 : NULL, NULL);
	rc = expect_check(cli, &s, bw, nbw);
	goto out;
fail:
	cli_error(cli, "%s", s.err);
	rd_peer_precheck_explain(&pc, true, &s.fail, stderr);
	if (have0 && o->counters)
		have1 = take_snapshot(cli, &s1);
	if (have0 && have1 && !o->json && !o->quiet)
		perf_counters_text(stderr, &s0, &s1, s.dev.name, s.dev.port);
	if (!o->json && !o->quiet && s.fail.kind == PERF_FAIL_WC)
		cli_explain_completion(cli, stderr, s.err, s.dev.name,
				       s.dev.port, have1 ? &s0 : NULL,
				       have1 ? &s1 : NULL);
	perf_result_emit(&s, bw, nbw, lat, nlat, warn, have1 ? &s0 : NULL,
			 have1 ? &s1 : NULL, s.err);
	rc = perf_stop ? 130 : 1;
out:
	for (size_t k = 0; k < nlat; k++) {
		free(lat[k].samples);
		free(lat[k].in_order);
	}
	free(lat);
	free(bw);
	perf_session_close(&s);
	if (have1)
		rd_snapshot_free(&s1);
out_snap:
	rd_peer_precheck_free(&pc);
	if (have0)
		rd_snapshot_free(&s0);
	if (o->dev == o->dev_first)
		o->dev = NULL;
	o->inband = NULL;
	/* Not written: the test did not finish. */
	(void)rd_outfile_close(&samples, false, msg, sizeof(msg));
	return rc;
}

static int cmd_perf(struct rd_cli *cli, int argc, char **argv, bool lat)
{
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
		.tos = -1,
	};
	bool cpu_freq = false;
	bool have_size, have_iters, have_cqmod;
	unsigned port, qp_timeout, cq_mod = 0, peer_port = 0;
	bool loopback = false, no_counters = false;
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction old_int, old_term, old_pipe;
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int r, rc;

	/* Latency tests have no -q/-t/-r/-b letters; the long names stay. */
	const struct cli_opt opts[] = {
		CLI_CALL("op", 0, &o, parse_op),
		CLI_TEXT("ib-dev", 'd', &o.dev),
		CLI_UINT("ib-port", 'i', &o.ib_port, 1, 255),
		CLI_INT("gid-index", 'x', &o.gid_index, 0, 255),
		CLI_UINT("port", 'p', &port, 1, 65535),
		CLI_U64("size", 's', &o.size, 1, 1u << 30),
		CLI_FLAG("all", 'a', &o.all_sizes),
		CLI_U64("iters", 'n', &o.iters, 5, 1099511627776.0),
		CLI_UINT("duration", 'D', &o.duration, 1, 86400),
		CLI_CALL("mtu", 'm', &o.mtu, parse_mtu),
		CLI_INT("inline_size", 'I', &o.inline_size, 0, 1024),
		CLI_UINT("cq-mod", 'Q', &cq_mod, 1, 1024),
		CLI_UINT("qp-timeout", 'u', &qp_timeout, 0, 31),
		CLI_UINT("qp", lat ? 0 : 'q', &o.nqp, 1, 1024),
		CLI_UINT("tx-depth", lat ? 0 : 't', &o.tx_depth, 1, 16384),
		CLI_UINT("rx-depth", lat ? 0 : 'r', &o.rx_depth, 1, 16384),
		CLI_FLAG("bidirectional", lat ? 0 : 'b', &o.bidir),
		CLI_FLAG("report_gbits", 0, &o.gbits),
		CLI_FLAG("report-both", 0, &o.report_both),
		CLI_UINT("sl", 'S', &o.sl, 0, 15),
		CLI_UINT("tclass", 0, &o.tclass, 0, 255),
		CLI_FLAG("rdma_cm", 'R', &o.rdma_cm),
		CLI_INT("tos", 'T', &o.tos, 0, 255),
		CLI_FLAG("CPU-freq", 'F', &cpu_freq),
		CLI_FLAG("report-histogram", 'H', &o.histogram),
		CLI_FLAG("histogram", 0, &o.hist_bins),
		CLI_TEXT("samples", 0, &o.samples_path),
		CLI_FLAG("loopback", 0, &loopback),
		CLI_TEXT("bind", 0, &o.bind_addr),
		CLI_INT("timeout", 0, &o.timeout_ms, 100, 3600000),
		CLI_FLAG("json", 0, &o.json),
		CLI_INT("progress-fd", 0, &o.progress_fd, 0, INT_MAX),
		CLI_UINT("interval", 0, &o.interval_ms, 50, 3600000),
		CLI_FLAG("no-counters", 0, &no_counters),
		CLI_UINT("expect-percent", 0, &o.expect_percent, 1, 100),
		CLI_UINT("peer-port", 0, &peer_port, 1, 65535),
		CLI_END,
	};

	port = o.port;
	qp_timeout = o.qp_timeout;
	r = cli_parse(cli, lat ? "lat" : "bw", opts, lat ? lat_usage : bw_usage,
		      argc, argv);
	if (r < 0)
		return r == CLI_HELP ? 0 : 1;
	optind = r;
	o.port = (uint16_t)port;
	o.qp_timeout = (uint8_t)qp_timeout;
	have_size = o.size != 0;
	have_iters = o.iters != 0;
	have_cqmod = cq_mod != 0;
	if (have_cqmod)
		o.cq_mod = cq_mod;
	if (optind < argc)
		o.host = argv[optind++];
	if (optind < argc) {
		cli_error(cli, "unexpected argument \"%s\"", argv[optind]);
		return 1;
	}
	if (loopback && o.host) {
		cli_error(cli, "--loopback needs no HOST");
		return 1;
	}
	o.role = loopback ? PERF_LOOPBACK : o.host ? PERF_CLIENT : PERF_SERVER;
	(void)cpu_freq; /* nothing to skip: see --help */
	if (o.tos >= 0 && !o.rdma_cm) {
		cli_error(cli, "-T sets the ToS of rdma_cm's QPs and needs -R; "
			       "--tclass sets the traffic class without it");
		return 1;
	}
	if (o.rdma_cm && loopback) {
		cli_error(cli, "-R connects to a peer: --loopback has none");
		return 1;
	}
	if (o.progress_fd >= 0 && fcntl(o.progress_fd, F_GETFD) < 0) {
		cli_error(cli, "--progress-fd %d is not an open descriptor",
			  o.progress_fd);
		return 1;
	}
	if (lat && o.expect_percent) {
		cli_error(cli, "--expect-percent judges bandwidth; lat has no "
			       "rate to compare");
		return 1;
	}
	if (o.all_sizes && o.duration) {
		cli_error(cli, "-a and -D cannot be combined");
		return 1;
	}
	if (o.all_sizes && have_size) {
		cli_error(cli, "-a and -s cannot be combined");
		return 1;
	}
	if (lat && o.duration && !loopback) {
		cli_error(cli, "-D is supported for lat only with --loopback; "
			       "use -n against a peer");
		return 1;
	}
	if (!have_size)
		o.size = lat ? 2 : 65536;
	if (o.size > PERF_MAX_SIZE && !o.all_sizes) {
		cli_error(cli, "-s: at most %u bytes", PERF_MAX_SIZE);
		return 1;
	}
	if (lat && o.op == PERF_OP_WRITE && o.size < 1) {
		cli_error(cli, "-s: at least 1 byte");
		return 1;
	}
	if (!have_iters)
		o.iters = (!lat && o.op == PERF_OP_WRITE) ? 5000 : 1000;
	if (lat && !o.duration && o.iters > PERF_LAT_MAX_SAMPLES) {
		cli_error(cli,
			  "-n: at most %u: every sample is kept (8 bytes "
			  "each)",
			  PERF_LAT_MAX_SAMPLES);
		return 2;
	}
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
	if (peer_port && o.role != PERF_CLIENT) {
		cli_error(cli, "--peer-port: only the client (with HOST) "
			       "checks its peer");
		return 1;
	}
	rc = run(cli, &o, peer_port);
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
