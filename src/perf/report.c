// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a test reports: progress lines for the console (one JSON object per
 * line on a file descriptor, written whole so a reader never sees half a
 * line), the result as JSON, and the counters that moved. All JSON goes
 * through the one writer (core/print.h), so names and messages from
 * outside are escaped and no number is Infinity or NaN.
 */
#include "config.h"
#include "perf/perf.h"

#include <inttypes.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/print.h"
#include "core/rate.h"
#include "core/snapshot.h"

static void emit(int fd, const char *line, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, line, len);

		if (n <= 0)
			return; /* the reader went away: the test goes on */
		line += n;
		len -= (size_t)n;
	}
}

/* One JSON object, on one line, written whole to the progress fd. */
static void emit_doc(const struct perf_opts *o, struct rd_printer *p,
		     char **buf, size_t *len, FILE *m)
{
	rd_print_close(p);
	if (rd_print_end(p) == 0 && fflush(m) == 0)
		emit(o->progress_fd, *buf, *len);
	fclose(m);
	free(*buf);
}

static FILE *open_doc(struct rd_printer *p, char **buf, size_t *len,
		      const char *test, const struct perf_opts *o, double t,
		      uint64_t size)
{
	FILE *m = open_memstream(buf, len);

	if (!m)
		return NULL;
	rd_print_begin(p, m, true);
	p->one_line = true;
	rd_print_open_object(p, NULL);
	rd_print_str(p, "type", NULL, "progress");
	rd_print_str(p, "test", NULL, test);
	rd_print_str(p, "op", NULL, perf_op_name(o->op));
	rd_print_double(p, "t", NULL, t);
	rd_print_u64(p, "size", NULL, size);
	return m;
}

void perf_progress_bw(const struct perf_opts *o, double t, uint64_t size,
		      double bytes, uint64_t msgs, double interval_bytes,
		      double interval_s)
{
	struct rd_printer p;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (o->progress_fd < 0 ||
	    !(m = open_doc(&p, &buf, &len, "bw", o, t, size)))
		return;
	rd_print_double(&p, "bytes", NULL, bytes);
	rd_print_u64(&p, "msgs", NULL, msgs);
	rd_print_double(&p, "gbps", NULL,
			perf_bw_gbit(interval_bytes, interval_s));
	rd_print_double(&p, "mibps", NULL,
			perf_bw_mib(interval_bytes, interval_s));
	rd_print_double(
		&p, "mpps", NULL,
		perf_msg_rate_mpps(interval_bytes / (double)size, interval_s));
	emit_doc(o, &p, &buf, &len, m);
}

void perf_progress_lat(const struct perf_opts *o, double t, uint64_t size,
		       uint64_t n, double *interval_usec, size_t ni)
{
	struct perf_lat_stats st;
	struct rd_printer p;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (o->progress_fd < 0 || ni == 0 ||
	    perf_lat_stats(interval_usec, ni, &st) < 0 ||
	    !(m = open_doc(&p, &buf, &len, "lat", o, t, size)))
		return;
	rd_print_u64(&p, "msgs", NULL, n);
	rd_print_u64(&p, "samples", NULL, ni);
	rd_print_double(&p, "t_min", NULL, st.min);
	rd_print_double(&p, "t_typical", NULL, st.median);
	rd_print_double(&p, "t_avg", NULL, st.avg);
	rd_print_double(&p, "t_p99", NULL, st.p99);
	rd_print_double(&p, "t_max", NULL, st.max_all);
	emit_doc(o, &p, &buf, &len, m);
}

static void counter_deltas(struct rd_printer *p, const struct rd_counters *a,
			   const struct rd_counters *b, bool *first)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct rd_counter *c = &b->v[i];
		const struct rd_counter *o = rd_counters_find(a, c->name);

		if (!o || !o->value.ok || !c->value.ok ||
		    o->value.v == c->value.v)
			continue;
		rd_print_str(p, NULL, "   %-32s ", c->name);
		rd_print_s64(p, c->name, "%+" PRId64 "\n",
			     (int64_t)(c->value.v - o->value.v));
		*first = false;
	}
}

/* The port's counters that moved between s0 and s1, as text or JSON. */
static void print_counters(struct rd_printer *p, const struct rd_snapshot *s0,
			   const struct rd_snapshot *s1, const char *dev,
			   unsigned port)
{
	const struct rd_device *d0 = rd_snapshot_device(s0, dev);
	const struct rd_device *d1 = rd_snapshot_device(s1, dev);
	const struct rd_port *a = d0 ? rd_device_port(d0, port) : NULL;
	const struct rd_port *b = d1 ? rd_device_port(d1, port) : NULL;
	bool first = true;

	rd_print_open_object(p, "counters");
	if (a && b) {
		rd_print_str(p, NULL, " Port counters that changed (%s", dev);
		rd_print_text(p, " port %u):\n", port);
		counter_deltas(p, &a->counters, &b->counters, &first);
		counter_deltas(p, &a->hw_counters, &b->hw_counters, &first);
		if (first)
			rd_print_text(p, "   (none)\n");
	}
	rd_print_close(p);
}

void perf_counters_text(FILE *f, const struct rd_snapshot *s0,
			const struct rd_snapshot *s1, const char *dev,
			unsigned port)
{
	struct rd_printer p;

	rd_print_begin(&p, f, false);
	print_counters(&p, s0, s1, dev, port);
	rd_print_end(&p);
}

/* ---- what the path can reach ---- */

void perf_reach_set(struct perf_session *s, const struct rd_snapshot *snap)
{
	const struct rd_device *d =
		snap ? rd_snapshot_device(snap, s->dev.name) : NULL;
	struct rd_rate *r = &s->reach;
	int mtu = perf_mtu_bytes(s->mtu);

	memset(r, 0, sizeof(*r));
	s->reach_why[0] = '\0';
	if (!d) {
		snprintf(s->reach_why, sizeof(s->reach_why),
			 "the port was not read before the test");
		return;
	}
	if (!d->pci_bdf) {
		snprintf(s->reach_why, sizeof(s->reach_why),
			 "%s has no PCI function (software RDMA: the CPU, "
			 "not a link, bounds it)",
			 s->dev.name);
		return;
	}
	if (rd_rate_port(snap, s->dev.name, s->dev.port, r) < 0 ||
	    !r->link_ok) {
		r->ok = false;
		snprintf(s->reach_why, sizeof(s->reach_why),
			 "the link's data rate of %s port %u is not known",
			 s->dev.name, s->dev.port);
		return;
	}
	/* The test's own MTU (-m), which may not be the port's. */
	if (mtu > 0 && rd_rate_mtu_efficiency(r->ethernet, (uint64_t)mtu) > 0) {
		r->mtu_ok = true;
		r->mtu = (uint64_t)mtu;
		r->mtu_efficiency =
			rd_rate_mtu_efficiency(r->ethernet, (uint64_t)mtu);
	}
	if (r->pcie_ok && s->o->bidir) {
		uint64_t mps = r->max_payload;

		r->pcie_gbps = rd_rate_pcie_gbps(r->pcie_gts, r->pcie_width,
						 mps, true, NULL);
		if (r->uplink_ok)
			r->uplink_gbps = rd_rate_pcie_gbps(r->uplink_gts,
							   r->uplink_width, mps,
							   true, NULL);
	}
	rd_rate_combine(r);
	/* perftest's -b figure is both directions added. */
	if (r->ok && s->o->bidir)
		r->reachable_gbps *= 2;
}

double perf_reach_percent(const struct perf_session *s, double bps)
{
	double g = perf_bw_gbit(bps, 1);

	if (!s->reach.ok || s->reach.reachable_gbps <= 0 || !isfinite(g) ||
	    g < 0)
		return -1;
	return 100.0 * g / s->reach.reachable_gbps;
}

void perf_reach_text(FILE *f, const struct perf_session *s, double bps)
{
	double pct = perf_reach_percent(s, bps);
	struct rd_printer p;

	rd_print_begin(&p, f, false);
	if (pct < 0) {
		rd_print_str(&p, NULL, " (no reachable rate: %s)\n",
			     s->reach_why[0] ? s->reach_why : "not known");
	} else {
		rd_print_text(&p,
			      " %.2f %% of the %.2f Gb/s this path can "
			      "reach, limited by %s%s\n",
			      pct, s->reach.reachable_gbps,
			      rd_rate_limit_name(s->reach.limit),
			      s->reach.limit == RD_RATE_LIMIT_PCIE &&
					      s->reach.pcie_upper_bound
				      ? " (at most: MaxPayload not read)"
				      : "");
	}
	rd_print_end(&p);
}

static void reach_json(struct rd_printer *p, const struct perf_session *s)
{
	const struct rd_rate *r = &s->reach;

	rd_print_open_object(p, "reachable");
	if (r->ok) {
		rd_print_double(p, "gbps", NULL, r->reachable_gbps);
		rd_print_str(p, "limited_by", NULL,
			     rd_rate_limit_name(r->limit));
		rd_print_double(p, "link_gbps", NULL, r->link_gbps);
		if (r->mtu_ok)
			rd_print_u64(p, "mtu", NULL, r->mtu);
		if (r->pcie_ok) {
			rd_print_double(p, "pcie_gbps", NULL, r->pcie_gbps);
			rd_print_bool(p, "pcie_upper_bound", NULL,
				      r->pcie_upper_bound);
		}
	} else {
		rd_print_str(p, "unknown_because", NULL,
			     s->reach_why[0] ? s->reach_why : "not known");
	}
	rd_print_close(p);
}

/* Beside perftest's figures: every sample's, and a histogram. */
static void lat_every_sample(struct rd_printer *p,
			     const struct perf_lat_result *r)
{
	const struct perf_lat_stats *st = &r->st;
	struct perf_lat_hist h;

	rd_print_u64(p, "samples_kept", NULL, st->kept);
	rd_print_double(p, "t_max_all", NULL, st->max_all);
	rd_print_double(p, "t_p9999_all", NULL, st->p9999);
	rd_print_double(p, "t_avg_all", NULL, st->avg_all);
	rd_print_double(p, "t_stdev_all", NULL, st->stdev_all);
	if (r->capped)
		rd_print_bool(p, "capped", NULL, true);
	if (perf_lat_hist(r->samples, r->nsamples, 20, &h) < 0)
		return;
	rd_print_open_object(p, "histogram");
	rd_print_str(p, "unit", NULL, "usec");
	rd_print_double(p, "lo", NULL, h.lo);
	rd_print_double(p, "width", NULL, h.width);
	rd_print_open_array(p, "counts");
	for (size_t b = 0; b < h.nbins; b++)
		rd_print_u64(p, NULL, NULL, h.counts[b]);
	rd_print_close(p);
	rd_print_u64(p, "over", NULL, h.over);
	rd_print_double(p, "max", NULL, h.max);
	rd_print_close(p);
}

void perf_result_json(FILE *f, const struct perf_session *s,
		      const struct perf_bw_result *bw, size_t nbw,
		      const struct perf_lat_result *lat, size_t nlat,
		      const char *warn, const struct rd_snapshot *s0,
		      const struct rd_snapshot *s1, const char *error)
{
	const struct perf_opts *o = s->o;
	static const char *const roles[] = { "server", "client", "loopback" };
	struct rd_printer p;

	rd_print_begin(&p, f, true);
	p.one_line = true; /* one line per result on the progress fd */
	rd_print_open_object(&p, NULL);
	rd_print_str(&p, "type", NULL, "result");
	rd_print_str(&p, "test", NULL, o->lat ? "lat" : "bw");
	rd_print_str(&p, "op", NULL, perf_op_name(o->op));
	rd_print_str(&p, "role", NULL, roles[o->role]);
	rd_print_bool(&p, "ok", NULL, !error);
	if (s->dev.name[0]) {
		rd_print_str(&p, "device", NULL, s->dev.name);
		rd_print_u64(&p, "port", NULL, s->dev.port);
		rd_print_s64(&p, "gid_index", NULL, s->dev.gid_index);
		rd_print_s64(&p, "mtu", NULL, perf_mtu_bytes(s->mtu));
		rd_print_u64(&p, "qps", NULL, o->nqp);
		rd_print_bool(&p, "bidirectional", NULL, o->bidir);
	}
	if (s->peer_version) {
		char v[16];

		snprintf(v, sizeof(v), "%u.%02u", s->peer_version / 100,
			 s->peer_version % 100);
		rd_print_str(&p, "peer_version", NULL, v);
	}
	if (error)
		rd_print_str(&p, "error", NULL, error);
	if (warn && warn[0])
		rd_print_str(&p, "warning", NULL, warn);
	if (nbw)
		reach_json(&p, s);
	rd_print_open_array(&p, "results");
	for (size_t i = 0; i < nbw; i++) {
		double pct = perf_reach_percent(s, bw[i].avg_bps);

		rd_print_open_object(&p, NULL);
		rd_print_u64(&p, "size", NULL, bw[i].size);
		rd_print_u64(&p, "iterations", NULL, bw[i].iters);
		rd_print_double(&p, "seconds", NULL, bw[i].seconds);
		rd_print_double(&p, "bw_peak_mibps", NULL,
				perf_bw_mib(bw[i].peak_bps, 1));
		rd_print_double(&p, "bw_avg_mibps", NULL,
				perf_bw_mib(bw[i].avg_bps, 1));
		rd_print_double(&p, "bw_peak_gbps", NULL,
				perf_bw_gbit(bw[i].peak_bps, 1));
		rd_print_double(&p, "bw_avg_gbps", NULL,
				perf_bw_gbit(bw[i].avg_bps, 1));
		rd_print_double(&p, "msg_rate_mpps", NULL, bw[i].msg_rate_mpps);
		rd_print_bool(&p, "from_peer", NULL, bw[i].remote);
		if (pct >= 0)
			rd_print_double(&p, "percent_of_reachable", NULL, pct);
		rd_print_close(&p);
	}
	for (size_t i = 0; i < nlat; i++) {
		const struct perf_lat_stats *st = &lat[i].st;

		rd_print_open_object(&p, NULL);
		rd_print_u64(&p, "size", NULL, lat[i].size);
		rd_print_u64(&p, "iterations", NULL, lat[i].iters);
		rd_print_u64(&p, "samples", NULL, lat[i].nsamples);
		rd_print_double(&p, "t_min", NULL, st->min);
		rd_print_double(&p, "t_max", NULL, st->max);
		rd_print_double(&p, "t_typical", NULL, st->median);
		rd_print_double(&p, "t_avg", NULL, st->avg);
		rd_print_double(&p, "t_stdev", NULL, st->stdev);
		rd_print_double(&p, "t_p99", NULL, st->p99);
		rd_print_double(&p, "t_p999", NULL, st->p999);
		lat_every_sample(&p, &lat[i]);
		rd_print_close(&p);
	}
	rd_print_close(&p);
	if (s0 && s1)
		print_counters(&p, s0, s1, s->dev.name, s->dev.port);
	rd_print_close(&p);
	if (rd_print_end(&p) < 0)
		fprintf(stderr, "rdmadiag: cannot write the JSON result\n");
}

/*
 * ---- perftest-looking text (f: stdout for rdmadiag bw|lat) ----
 * Through the one writer: the program's own words with rd_print_text,
 * every name and message from outside with rd_print_str (escaped).
 */

static void print_keys(struct rd_printer *p, const struct perf_session *s,
		       const char *side, const struct perf_oob_keys *k)
{
	const struct perf_opts *o = s->o;

	rd_print_text(p, " %s address: LID %#04x QPN %#06x PSN %#06x", side,
		      k->lid, k->qpn, k->psn);
	if (o->op == PERF_OP_READ)
		rd_print_text(p, " OUT %#04x", k->out_reads);
	if (o->op != PERF_OP_SEND)
		rd_print_text(p, " RKey %#08x VAddr %#016llx", k->rkey,
			      (unsigned long long)k->vaddr);
	rd_print_text(p, "\n");
	if (s->with_gid) {
		rd_print_text(p, " GID: ");
		for (int i = 0; i < 16; i++)
			rd_print_text(p, "%02d%s", k->gid[i],
				      i < 15 ? ":" : "\n");
	}
}

static void print_lat_columns(struct rd_printer *p)
{
	rd_print_text(p,
		      " #bytes #iterations    t_min[usec]    t_max[usec]  "
		      "t_typical[usec]    t_avg[usec]    t_stdev[usec]   99%% "
		      "percentile[usec]   99.9%% percentile[usec] \n");
}

void perf_text_header(FILE *f, const struct perf_session *s, const char *warn,
		      const char *peer_note)
{
	const struct perf_opts *o = s->o;
	bool sender = o->role != PERF_SERVER || o->bidir || o->lat;
	struct rd_printer pr, *p = &pr;

	rd_print_begin(p, f, false);

	rd_print_text(p, PERF_RESULT_LINE);
	rd_print_text(p, "                    %s %s%s Test\n",
		      perf_op_title(o->op),
		      !o->lat && o->bidir ? "Bidirectional " : "",
		      o->lat ? "Latency" : "BW");
	rd_print_str(p, NULL, " Dual-port       : OFF\t\tDevice         : %s\n",
		     s->dev.name);
	if (s->oob.peer[0])
		rd_print_str(p, NULL,
			     " Client          : %s (the only one: others are "
			     "refused)\n",
			     s->oob.peer);
	rd_print_text(p, " Number of qps   : %u\t\tTransport type : IB\n",
		      o->nqp);
	rd_print_text(p, " Connection type : RC\t\tUsing SRQ      : OFF\n");
	if (sender && !o->lat)
		rd_print_text(p, " TX depth        : %u\n", o->tx_depth);
	if (o->op == PERF_OP_SEND && (o->role != PERF_CLIENT || o->bidir))
		rd_print_text(p, " RX depth        : %u\n", o->rx_depth);
	if (!o->lat)
		rd_print_text(p, " CQ Moderation   : %u\n", o->cq_mod);
	rd_print_text(p, " Mtu             : %d[B]\n", perf_mtu_bytes(s->mtu));
	rd_print_text(p, " Link type       : %s\n",
		      s->dev.roce ? "Ethernet" : "IB");
	if (s->dev.gid_index >= 0)
		rd_print_text(p, " GID index       : %d\n", s->dev.gid_index);
	if (o->op != PERF_OP_READ)
		rd_print_text(p, " Max inline data : %u[B]\n", s->a.max_inline);
	else
		rd_print_text(p, " Outstand reads  : %u\n",
			      s->a.mine[0].out_reads);
	rd_print_text(p, " rdma_cm QPs\t : %s\n", o->rdma_cm ? "ON" : "OFF");
	rd_print_text(p, " Data ex. method : %s\n",
		      s->loopback  ? "loopback (in process)"
		      : o->rdma_cm ? "rdma_cm"
				   : "Ethernet");
	if (o->sl || o->tclass)
		rd_print_text(p,
			      " SL              : %u\t\tTraffic class  : %u\n",
			      o->sl, o->tclass);
	if (o->tos >= 0)
		rd_print_text(p, " ToS             : %d\n", o->tos);
	if (s->gid_why[0])
		rd_print_str(p, NULL, " GID choice      : %s\n", s->gid_why);
	if (peer_note && peer_note[0])
		rd_print_str(p, NULL, " Peer check      : %s\n", peer_note);
	if (warn && warn[0])
		rd_print_str(p, NULL, " Warning         : %s\n", warn);
	rd_print_text(p, PERF_RESULT_LINE);
	for (unsigned i = 0; i < o->nqp; i++)
		print_keys(p, s, "local", &s->a.mine[i]);
	for (unsigned i = 0; i < o->nqp; i++)
		print_keys(p, s, "remote", &s->a.peer[i]);
	rd_print_text(p, PERF_RESULT_LINE);
	if (o->lat)
		print_lat_columns(p);
	else
		rd_print_text(p,
			      " #bytes     #iterations    BW peak[%s]    BW "
			      "average[%s]   MsgRate[Mpps]\n",
			      o->gbits ? "Gb/sec" : "MB/sec",
			      o->gbits ? "Gb/sec" : "MB/sec");
	rd_print_end(p);
	fflush(f);
}

static void bw_line(struct rd_printer *p, const struct perf_opts *o,
		    const struct perf_bw_result *r)
{
	rd_print_text(p,
		      " %-7llu    %-10llu       %-7.2f            %-7.2f\t\t   "
		      "%-7.6f\n",
		      (unsigned long long)r->size, (unsigned long long)r->iters,
		      perf_bw_unit(r->peak_bps, 1, o->gbits),
		      perf_bw_unit(r->avg_bps, 1, o->gbits), r->msg_rate_mpps);
}

void perf_text_bw_line(FILE *f, const struct perf_opts *o,
		       const struct perf_bw_result *r)
{
	struct rd_printer p;

	rd_print_begin(&p, f, false);
	bw_line(&p, o, r);
	rd_print_end(&p);
	fflush(f);
}

/* --report-both with -b: after the sum, each side's own figures. */
void perf_text_bw_parts(FILE *f, const struct perf_opts *o,
			const struct perf_bw_result *r)
{
	static const char *const title[2] = { "Local", "Remote" };
	struct rd_printer pr, *p = &pr;

	if (!o->report_both || !r->has_parts || o->all_sizes)
		return;
	rd_print_begin(p, f, false);
	for (int k = 0; k < 2; k++) {
		const struct perf_bw_part *part = k ? &r->theirs : &r->mine;
		struct perf_bw_result one = *r;

		one.peak_bps = part->peak_bps;
		one.avg_bps = part->avg_bps;
		one.msg_rate_mpps = part->msg_rate_mpps;
		rd_print_text(p,
			      PERF_RESULT_LINE
			      "\n %s results: \n" PERF_RESULT_LINE,
			      title[k]);
		rd_print_text(p,
			      " #bytes     #iterations    BW peak[%s]    BW "
			      "average[%s]   MsgRate[Mpps]\n",
			      o->gbits ? "Gb/sec" : "MB/sec",
			      o->gbits ? "Gb/sec" : "MB/sec");
		bw_line(p, o, &one);
	}
	rd_print_end(p);
	fflush(f);
}

void perf_text_lat_line(FILE *f, const struct perf_lat_result *r)
{
	const struct perf_lat_stats *st = &r->st;
	struct rd_printer pr, *p = &pr;

	rd_print_begin(p, f, false);
	rd_print_text(
		p,
		" %-7llu %-10llu     %-7.2f        %-7.2f      %-7.2f  \t      "
		" "
		"%-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
		(unsigned long long)r->size, (unsigned long long)r->iters,
		st->min, st->max, st->median, st->avg, st->stdev, st->p99,
		st->p999);
	rd_print_end(p);
	fflush(f);
}

/* -H: the samples perftest's figures come from, sorted, then the
 * column heads again, as ib_*_lat -H prints them. */
void perf_text_sorted_samples(FILE *f, const struct perf_lat_result *r)
{
	struct rd_printer pr, *p = &pr;

	rd_print_begin(p, f, false);
	rd_print_text(p, "#, usec\n");
	for (size_t i = 0; i < r->st.kept; i++)
		rd_print_text(p, "%zu, %g\n", i + 1, r->samples[i]);
	rd_print_text(p, PERF_RESULT_LINE);
	print_lat_columns(p);
	rd_print_end(p);
}

int perf_write_samples(FILE *f, const struct perf_lat_result *lat, size_t n)
{
	struct rd_printer pr, *p = &pr;

	rd_print_begin(p, f, false);
	rd_print_text(p, "# rdmadiag lat: each round trip's half, in the order "
			 "measured\n# size_B\titeration\tusec\n");
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; lat[k].in_order && i < lat[k].nsamples; i++)
			rd_print_text(p, "%" PRIu64 "\t%zu\t%.3f\n",
				      lat[k].size, i + 1, lat[k].in_order[i]);
	return rd_print_end(p);
}

static void print_bar(struct rd_printer *p, size_t count, size_t most)
{
	size_t bar = most ? (count * 40 + most - 1) / most : 0;

	for (size_t k = 0; k < bar; k++)
		rd_print_text(p, "#");
	rd_print_text(p, "\n");
}

/* --histogram: counts per bin of round width, the tail in one more row. */
static void print_histogram(struct rd_printer *p,
			    const struct perf_lat_result *r)
{
	struct perf_lat_hist h;
	size_t most = 0;

	if (perf_lat_hist(r->samples, r->nsamples, 20, &h) < 0)
		return;
	for (size_t b = 0; b < h.nbins; b++)
		most = h.counts[b] > most ? h.counts[b] : most;
	most = h.over > most ? h.over : most;
	rd_print_text(p, " Histogram of %zu samples of %llu B (usec: count):\n",
		      h.total, (unsigned long long)r->size);
	for (size_t b = 0; b < h.nbins; b++) {
		rd_print_text(p, "  %10.2f .. %-10.2f %8zu ",
			      h.lo + h.width * (double)b,
			      h.lo + h.width * (double)(b + 1), h.counts[b]);
		print_bar(p, h.counts[b], most);
	}
	if (h.over) {
		rd_print_text(p, "  %10.2f .. %-10.2f %8zu ",
			      h.lo + h.width * (double)h.nbins, h.max, h.over);
		print_bar(p, h.over, most);
	}
}

/* What perftest's columns leave out, after them (so their lines stay
 * together for scripts), and --histogram. */
void perf_text_every_sample(FILE *f, const struct perf_opts *o,
			    const struct perf_lat_result *lat, size_t nlat)
{
	struct rd_printer pr, *p = &pr;

	rd_print_begin(p, f, false);
	for (size_t k = 0; k < nlat; k++) {
		const struct perf_lat_stats *st = &lat[k].st;

		if (k == 0)
			rd_print_text(
				p,
				" Over every sample (the columns above leave "
				"out the largest %zu, as perftest does):\n",
				st->n - st->kept);
		rd_print_text(
			p,
			" %llu B: %zu samples, t_max %.2f usec, 99.99%% "
			"percentile %.2f usec, t_avg %.2f usec, t_stdev %.2f "
			"usec\n",
			(unsigned long long)lat[k].size, st->n, st->max_all,
			st->p9999, st->avg_all, st->stdev_all);
		if (lat[k].capped)
			rd_print_text(
				p,
				" %llu B: stopped at %zu samples, the most "
				"kept for one size\n",
				(unsigned long long)lat[k].size, st->n);
	}
	if (o->hist_bins)
		for (size_t k = 0; k < nlat; k++)
			print_histogram(p, &lat[k]);
	rd_print_end(p);
}

void perf_result_emit(const struct perf_session *s,
		      const struct perf_bw_result *bw, size_t nbw,
		      const struct perf_lat_result *lat, size_t nlat,
		      const char *warn, const struct rd_snapshot *s0,
		      const struct rd_snapshot *s1, const char *error)
{
	const struct perf_opts *o = s->o;

	if (o->json)
		perf_result_json(stdout, s, bw, nbw, lat, nlat, warn, s0, s1,
				 error);
	if (o->progress_fd >= 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			perf_result_json(m, s, bw, nbw, lat, nlat, warn, s0, s1,
					 error);
			fclose(m);
			if (buf && write(o->progress_fd, buf, len) < 0)
				perror("rdmadiag: progress fd");
			free(buf);
		}
	}
}
