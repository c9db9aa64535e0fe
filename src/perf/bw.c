// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bandwidth engine: keep tx_depth work requests in flight per QP, ask for a
 * completion every cq_mod of them, and (for SEND) keep the receive queues
 * full. Work requests are posted in chains, one doorbell per chain.
 */
#include "config.h"
#include "perf/perf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BW_POST_BATCH 16
#define BW_POLL_BATCH 16

struct bw_side {
	struct perf_end *e;
	uint64_t *scnt, *ccnt, *unsig; /* per QP, sender */
	uint64_t *rposted;	       /* per QP, receiver */
};

struct bw {
	struct perf_session *s;
	const struct perf_opts *o;
	uint64_t size;
	uint64_t iters; /* per QP; 0 with -D */
	double t_end;	/* -D: stop posting after this */
	struct bw_side tx[2], rx[2];
	unsigned ntx, nrx;
	uint64_t tot_s, tot_c, tot_r;
	double t_start, t_first, t_last;
	struct perf_mark *posts, *comps;
	size_t nposts, ncomps, cap_posts, cap_comps;
	double best_interval_bps;
};

static int push_mark(struct perf_mark **v, size_t *n, size_t *cap, double t,
		     uint64_t cnt)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct perf_mark *nv = realloc(*v, nc * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = (struct perf_mark){ .t = t, .n = cnt };
	return 0;
}

static int side_alloc(struct bw_side *sd, struct perf_end *e, bool tx)
{
	sd->e = e;
	if (tx) {
		sd->scnt = calloc(e->nqp, sizeof(uint64_t));
		sd->ccnt = calloc(e->nqp, sizeof(uint64_t));
		sd->unsig = calloc(e->nqp, sizeof(uint64_t));
		if (!sd->scnt || !sd->ccnt || !sd->unsig)
			return -ENOMEM;
	} else {
		sd->rposted = calloc(e->nqp, sizeof(uint64_t));
		if (!sd->rposted)
			return -ENOMEM;
	}
	return 0;
}

static void side_free(struct bw_side *sd)
{
	free(sd->scnt);
	free(sd->ccnt);
	free(sd->unsig);
	free(sd->rposted);
	memset(sd, 0, sizeof(*sd));
}

static int post_recv(struct bw *b, struct bw_side *sd, unsigned i,
		     unsigned count)
{
	struct perf_end *e = sd->e;
	struct ibv_sge sge = { .addr = (uintptr_t)perf_end_remote(e, i),
			       .length = (uint32_t)b->size,
			       .lkey = e->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	for (unsigned k = 0; k < count; k++) {
		int r = ibv_post_recv(e->qp[i], &wr, &bad);

		if (r)
			return perf_err(b->s, -r, PERF_FAIL_LOCAL,
					"ibv_post_recv on QP %#x: %s",
					e->qp[i]->qp_num, strerror(r));
		sd->rposted[i]++;
	}
	return 0;
}

static int post_batch(struct bw *b, struct bw_side *sd, unsigned i,
		      bool last_round)
{
	struct perf_end *e = sd->e;
	const struct perf_opts *o = b->o;
	struct ibv_send_wr wr[BW_POST_BATCH], *bad;
	struct ibv_sge sge = { .addr = (uintptr_t)perf_end_local(e, i),
			       .length = (uint32_t)b->size,
			       .lkey = e->mr->lkey };
	uint64_t inflight = sd->scnt[i] - sd->ccnt[i];
	uint64_t n = inflight >= o->tx_depth ? 0 : o->tx_depth - inflight;
	unsigned flags = 0;
	enum ibv_wr_opcode opc = o->op == PERF_OP_SEND	  ? IBV_WR_SEND
				 : o->op == PERF_OP_WRITE ? IBV_WR_RDMA_WRITE
							  : IBV_WR_RDMA_READ;
	int r;

	if (b->iters && n > b->iters - sd->scnt[i])
		n = b->iters - sd->scnt[i];
	if (n > BW_POST_BATCH)
		n = BW_POST_BATCH;
	if (n == 0)
		return 0;
	if (o->op != PERF_OP_READ && b->size <= e->max_inline)
		flags |= IBV_SEND_INLINE;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t seq = sd->scnt[i] + k + 1;
		bool sig = seq % o->cq_mod == 0 ||
			   (b->iters && seq == b->iters) ||
			   (!b->iters && k == n - 1);

		sd->unsig[i]++;
		wr[k] = (struct ibv_send_wr){
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = opc,
			.send_flags = flags | (sig ? IBV_SEND_SIGNALED : 0),
			.next = k + 1 < n ? &wr[k + 1] : NULL,
		};
		if (sig) {
			/* The completion covers every unsignaled one before. */
			wr[k].wr_id = sd->unsig[i] << 32 | i;
			sd->unsig[i] = 0;
		}
		if (o->op != PERF_OP_SEND) {
			wr[k].wr.rdma.remote_addr = e->peer[i].vaddr;
			wr[k].wr.rdma.rkey = e->peer[i].rkey;
		}
	}
	(void)last_round;
	r = ibv_post_send(e->qp[i], wr, &bad);
	if (r)
		return perf_err(b->s, -r, PERF_FAIL_LOCAL,
				"ibv_post_send on QP %#x: %s",
				e->qp[i]->qp_num, strerror(r));
	sd->scnt[i] += n;
	b->tot_s += n;
	return (int)n;
}

static int wc_error(struct bw *b, const struct ibv_wc *wc, const char *what,
		    uint64_t count)
{
	struct perf_fail why = perf_fail_of(PERF_FAIL_WC, EIO);

	why.wc_status = (int)wc->status;
	return perf_err_why(b->s, -EIO, &why,
			    "%s completion error on QP %#x after %llu "
			    "messages: %s (status %d, vendor error %#x): %s",
			    what, wc->qp_num, (unsigned long long)count,
			    ibv_wc_status_str(wc->status), wc->status,
			    wc->vendor_err, perf_wc_hint(wc->status));
}

static int poll_tx(struct bw *b, struct bw_side *sd)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	int n = ibv_poll_cq(sd->e->scq, BW_POLL_BATCH, wc);

	if (n < 0)
		return perf_err(b->s, -EIO, PERF_FAIL_LOCAL,
				"ibv_poll_cq (send) failed: %d", n);
	for (int k = 0; k < n; k++) {
		unsigned i = (unsigned)(wc[k].wr_id & 0xffffffffu);
		uint64_t covered = wc[k].wr_id >> 32;

		if (wc[k].status != IBV_WC_SUCCESS)
			return wc_error(b, &wc[k], perf_op_title(b->o->op),
					b->tot_c);
		if (i >= sd->e->nqp)
			return perf_err(b->s, -EIO, PERF_FAIL_LOCAL,
					"completion for unknown QP %u", i);
		sd->ccnt[i] += covered;
		b->tot_c += covered;
	}
	return n;
}

static int poll_rx(struct bw *b, struct bw_side *sd, double now)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	int n = ibv_poll_cq(sd->e->rcq, BW_POLL_BATCH, wc);

	if (n < 0)
		return perf_err(b->s, -EIO, PERF_FAIL_LOCAL,
				"ibv_poll_cq (receive) failed: %d", n);
	for (int k = 0; k < n; k++) {
		unsigned i = (unsigned)wc[k].wr_id;
		int r;

		if (wc[k].status != IBV_WC_SUCCESS)
			return wc_error(b, &wc[k], "Receive", b->tot_r);
		if (i >= sd->e->nqp)
			return perf_err(b->s, -EIO, PERF_FAIL_LOCAL,
					"receive for unknown QP %u", i);
		if (b->tot_r == 0)
			b->t_first = now;
		b->tot_r++;
		if (!b->iters || sd->rposted[i] < b->iters) {
			r = post_recv(b, sd, i, 1);
			if (r < 0)
				return r;
		}
	}
	return n;
}

static bool finished(const struct bw *b, double now)
{
	uint64_t want_tx = b->iters * b->s->o->nqp * b->ntx;
	uint64_t want_rx = b->iters * b->s->o->nqp * b->nrx;

	if (b->iters)
		return b->tot_c >= want_tx && b->tot_r >= want_rx;
	if (b->ntx)
		return now >= b->t_end && b->tot_c >= b->tot_s;
	/* A receiver alone keeps going for -D after the first message. */
	return b->tot_r > 0 && now >= b->t_first + b->o->duration;
}

static int bw_loop(struct bw *b)
{
	const struct perf_opts *o = b->o;
	double now = perf_now(), last_check = now, last_prog = now;
	double last_event = now, prog_bytes = 0, limit;
	double stall = o->timeout_ms / 1000.0 * 2;
	double ival = o->interval_ms / 1000.0;
	uint64_t last_tot = 0;

	if (stall < 10)
		stall = 10;
	b->t_start = now;
	b->t_end = now + o->duration;
	while (!finished(b, now)) {
		bool any = false;
		uint64_t before = b->tot_s;

		now = perf_now();
		if (!b->iters && now >= b->t_end)
			goto poll;
		for (unsigned k = 0; k < b->ntx; k++)
			for (unsigned i = 0; i < b->tx[k].e->nqp; i++) {
				int r = post_batch(b, &b->tx[k], i, false);

				if (r < 0)
					return r;
			}
		if (b->tot_s != before && b->iters &&
		    push_mark(&b->posts, &b->nposts, &b->cap_posts, now,
			      before) < 0)
			return perf_err(b->s, -ENOMEM, PERF_FAIL_LOCAL,
					"out of memory");
	poll:
		for (unsigned k = 0; k < b->ntx; k++) {
			int r = poll_tx(b, &b->tx[k]);

			if (r < 0)
				return r;
			if (r > 0) {
				any = true;
				b->t_last = perf_now();
				if (b->iters &&
				    push_mark(&b->comps, &b->ncomps,
					      &b->cap_comps, b->t_last,
					      b->tot_c) < 0)
					return perf_err(b->s, -ENOMEM,
							PERF_FAIL_LOCAL,
							"out of memory");
			}
		}
		for (unsigned k = 0; k < b->nrx; k++) {
			int r = poll_rx(b, &b->rx[k], now);

			if (r < 0)
				return r;
			if (r > 0) {
				any = true;
				if (!b->ntx)
					b->t_last = perf_now();
			}
		}
		if (any)
			last_event = now;
		if (now - last_check < 0.1)
			continue;
		last_check = now;
		if (perf_should_stop(b->s, "the bandwidth test"))
			return -EINTR;
		/* Large messages with CQ moderation may leave many megabytes
		 * between two completions: allow 1 MB/s before calling it a
		 * stall (a dead peer is noticed through the OOB socket). */
		limit = (double)(b->tot_s - b->tot_c + 1) * (double)b->size /
			1e6;
		if (limit < stall)
			limit = stall;
		if (now - last_event > limit &&
		    (b->ntx || b->tot_r > 0 || now - b->t_start > 3 * limit))
			return perf_err(
				b->s, -ETIMEDOUT, PERF_FAIL_STALL,
				"no completion for %.0f s (%llu of %llu "
				"messages done): the peer stopped "
				"responding",
				now - last_event,
				(unsigned long long)(b->ntx ? b->tot_c
							    : b->tot_r),
				(unsigned long long)(b->iters * o->nqp));
		if (now - last_prog >= ival) {
			uint64_t tot = b->ntx ? b->tot_c : b->tot_r;
			double bytes = (double)(tot - last_tot) * b->size;
			double rate = bytes / (now - last_prog);

			if (rate > b->best_interval_bps)
				b->best_interval_bps = rate;
			prog_bytes += bytes;
			perf_progress_bw(o, now - b->t_start, b->size,
					 prog_bytes, tot, bytes,
					 now - last_prog);
			last_tot = tot;
			last_prog = now;
		}
	}
	return 0;
}

static void fill_result(struct bw *b, struct perf_bw_result *r)
{
	uint64_t msgs = b->ntx ? b->tot_c : b->tot_r;
	double t0 = b->ntx ? b->t_start : b->t_first;

	memset(r, 0, sizeof(*r));
	r->size = b->size;
	r->iters = msgs;
	r->seconds = b->t_last > t0 ? b->t_last - t0 : 0;
	r->bytes = (double)msgs * (double)b->size;
	r->avg_bps = r->seconds > 0 ? r->bytes / r->seconds : 0;
	r->msg_rate_mpps = perf_msg_rate_mpps((double)msgs, r->seconds);
	if (b->iters && b->ntx)
		r->peak_bps = perf_bw_peak(b->posts, b->nposts, b->comps,
					   b->ncomps, b->size);
	else
		r->peak_bps = b->best_interval_bps;
	if (r->peak_bps < r->avg_bps)
		r->peak_bps = r->avg_bps;
}

static void to_report(const struct perf_bw_result *r, bool gbits,
		      struct perf_oob_report *rep)
{
	rep->size = r->size;
	rep->iters = r->iters;
	rep->bw_peak = perf_bw_unit(r->peak_bps, 1, gbits);
	rep->bw_avg = perf_bw_unit(r->avg_bps, 1, gbits);
	rep->msg_rate = r->msg_rate_mpps;
}

static void from_report(const struct perf_oob_report *rep, bool gbits,
			struct perf_bw_result *r)
{
	double unit = gbits ? 1e9 / 8 : 1048576.0;

	memset(r, 0, sizeof(*r));
	r->size = rep->size;
	r->iters = rep->iters;
	r->peak_bps = rep->bw_peak * unit;
	r->avg_bps = rep->bw_avg * unit;
	r->msg_rate_mpps = rep->msg_rate;
	r->bytes = (double)rep->size * (double)rep->iters;
	r->seconds = r->avg_bps > 0 ? r->bytes / r->avg_bps : 0;
	r->remote = true;
}

/* perftest's report exchange: five fields, each a separate exchange. */
static int xchg_report(struct perf_session *s,
		       const struct perf_bw_result *mine,
		       struct perf_bw_result *theirs, int timeout_ms)
{
	struct perf_oob_report out, in = { 0 };
	int r;

	to_report(mine, s->o->gbits, &out);
	for (int f = 0; f < PERF_OOB_REPORT_FIELDS; f++) {
		uint8_t o8[PERF_OOB_FIELD_LEN], i8[PERF_OOB_FIELD_LEN];

		perf_oob_report_field_encode(&out, f, o8);
		r = perf_oob_xchg(&s->oob, o8, i8, sizeof(i8), timeout_ms,
				  "the bandwidth report");
		if (r < 0)
			return perf_err_oob(s, r);
		/* A one-way server sends whatever its unused report holds:
		 * check only the figures this side will use. */
		if (!theirs)
			continue;
		r = perf_oob_report_field_decode(i8, f, &in, s->err,
						 sizeof(s->err));
		if (r < 0)
			return perf_failed(s, r, PERF_FAIL_OOB);
	}
	if (theirs)
		from_report(&in, s->o->gbits, theirs);
	return 0;
}

int perf_bw_server_wait(struct perf_session *s, struct perf_bw_result *r)
{
	struct perf_bw_result none = { .size = s->o->size, .iters = 0 };
	int rc;

	rc = perf_session_barrier(s, -1);
	if (rc < 0)
		return rc;
	return xchg_report(s, &none, r, s->o->timeout_ms);
}

int perf_bw_finish(struct perf_session *s, const struct perf_bw_result *last)
{
	const struct perf_opts *o = s->o;
	int r;

	if (s->loopback)
		return 0;
	if (o->op != PERF_OP_SEND && !o->bidir && o->role == PERF_CLIENT) {
		r = perf_session_barrier(s, o->timeout_ms);
		if (r == 0)
			r = xchg_report(s, last, NULL, o->timeout_ms);
		if (r < 0)
			return r;
	}
	return perf_session_goodbye(s);
}

int perf_bw_run(struct perf_session *s, uint64_t size,
		struct perf_bw_result *res)
{
	const struct perf_opts *o = s->o;
	struct bw b = { .s = s, .o = o, .size = size };
	bool send = o->op == PERF_OP_SEND;
	int r = 0;

	b.iters = o->duration ? 0 : o->iters;
	/* Who sends and who receives on this side of the wire. */
	if (o->role != PERF_SERVER || o->bidir)
		r = side_alloc(&b.tx[b.ntx++], &s->a, true);
	if (r == 0 && s->loopback && o->bidir)
		r = side_alloc(&b.tx[b.ntx++], &s->b, true);
	if (r == 0 && send && (o->role == PERF_SERVER || o->bidir))
		r = side_alloc(&b.rx[b.nrx++], &s->a, false);
	if (r == 0 && send && s->loopback)
		r = side_alloc(&b.rx[b.nrx++], &s->b, false);
	if (r < 0) {
		perf_err(b.s, r, PERF_FAIL_LOCAL, "out of memory");
		goto out;
	}
	for (unsigned k = 0; k < b.nrx; k++)
		for (unsigned i = 0; i < b.rx[k].e->nqp; i++) {
			uint64_t n = o->rx_depth;

			if (b.iters && n > b.iters)
				n = b.iters;
			r = post_recv(&b, &b.rx[k], i, (unsigned)n);
			if (r < 0)
				goto out;
		}
	if (!s->loopback && (send || o->bidir)) {
		/* Receive buffers are posted: the peer may start. */
		r = perf_session_barrier(s, o->timeout_ms);
		if (r < 0)
			goto out;
	}
	r = bw_loop(&b);
	if (r < 0)
		goto out;
	fill_result(&b, res);
	if (!s->loopback && o->bidir) {
		struct perf_bw_result theirs;

		if (!send && o->all_sizes) {
			r = perf_session_barrier(s, -1);
			if (r < 0)
				goto out;
		}
		if (!(send && o->duration)) {
			r = xchg_report(s, res, &theirs, -1);
			if (r < 0)
				goto out;
			/* perftest reports the sum of both directions. */
			res->has_parts = true;
			res->mine = (struct perf_bw_part){ res->peak_bps,
				res->avg_bps, res->msg_rate_mpps };
			res->theirs = (struct perf_bw_part){ theirs.peak_bps,
				theirs.avg_bps, theirs.msg_rate_mpps };
			res->peak_bps += theirs.peak_bps;
			res->avg_bps += theirs.avg_bps;
			res->msg_rate_mpps += theirs.msg_rate_mpps;
			res->bytes += theirs.bytes;
		}
	}
	/* ib_send_bw syncs after each size only when it runs -a. */
	if (!s->loopback && send && o->all_sizes) {
		r = perf_session_barrier(s, -1);
		if (r < 0)
			goto out;
	}
out:
	for (unsigned k = 0; k < 2; k++) {
		side_free(&b.tx[k]);
		side_free(&b.rx[k]);
	}
	free(b.posts);
	free(b.comps);
	return r;
}
