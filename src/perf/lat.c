// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency engine: SEND or RDMA WRITE ping-pong on one RC QP. A sample is
 * half the time between two consecutive posts of the initiating side, as
 * perftest measures it; statistics are computed on every sample in floating
 * point. Every post time is kept (at most PERF_LAT_MAX_SAMPLES + 1 of them,
 * allocated and touched before the clock starts), then turned into the
 * samples in place.
 */
#include "config.h"
#include "perf/perf.h"

#include "perf/clock.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct lat {
	struct perf_session *s;
	const struct perf_opts *o;
	uint64_t size;
	uint64_t iters; /* 0 with -D */
	double t_end; /* seconds on clk */
	bool time_up; /* -D: t_end passed */
	struct perf_clock clk;
	uint64_t tk0; /* clk's first checkpoint */
	uint64_t yield_ticks; /* a wait this long yields the CPU */
	double *t; /* post times of the initiator, ticks since tk0 */
	size_t nt, cap;
	bool capped; /* -D ended at PERF_LAT_MAX_SAMPLES */
	double last_prog, last_event; /* seconds on clk */
	uint64_t events, events_seen; /* completions, for stall checks */
	size_t prog_from;
};

static bool more(struct lat *l, uint64_t n)
{
	if (l->iters)
		return n < l->iters;
	if (l->nt >= PERF_LAT_MAX_SAMPLES) {
		l->capped = true;
		return false;
	}
	return !l->time_up;
}

/* Seconds on the clock of the post time t[k]. */
static double post_time(const struct lat *l, size_t k)
{
	return perf_clock_seconds(&l->clk, l->tk0 + (uint64_t)l->t[k]);
}

static int clock_failed(struct lat *l, int r)
{
	if (r == -ERANGE)
		return perf_err(l->s, r, PERF_FAIL_LOCAL,
				"the CPU's cycle counter did not keep pace "
				"with the system clock during the test, so "
				"its samples cannot be trusted");
	return perf_err(l->s, r, PERF_FAIL_LOCAL, "out of memory");
}

/*
 * Called while spinning, with the ticks just read: about every 0.1 s a
 * clock checkpoint, then Ctrl-C, a dead peer, a stall, the end of -D and
 * progress lines.
 */
static int housekeeping(struct lat *l, uint64_t tk)
{
	double stall = l->o->timeout_ms / 1000.0 * 2, now;
	int r;

	if (!perf_clock_due(&l->clk, tk))
		return 0;
	r = perf_clock_checkpoint(&l->clk, &now);
	if (r < 0)
		return clock_failed(l, r);
	if (stall < 10)
		stall = 10;
	if (now >= l->t_end)
		l->time_up = true;
	if (l->events != l->events_seen) {
		l->events_seen = l->events;
		l->last_event = now;
	}
	if (perf_should_stop(l->s, "the latency test"))
		return -EINTR;
	if (now - l->last_event > stall)
		return perf_err(l->s, -ETIMEDOUT, PERF_FAIL_STALL,
				"no reply for %.0f s after %zu round trips: "
				"the peer stopped responding",
				now - l->last_event, l->nt);
	if (l->o->progress_fd >= 0 &&
	    now - l->last_prog >= l->o->interval_ms / 1000.0 && l->nt > 1) {
		size_t from = l->prog_from ? l->prog_from : 1;
		size_t ni = l->nt > from ? l->nt - from : 0;
		double *iv = ni ? malloc(ni * sizeof(*iv)) : NULL;

		if (iv) {
			for (size_t k = 0; k < ni; k++)
				iv[k] = (post_time(l, from + k) -
					 post_time(l, from + k - 1)) *
					1e6 / 2;
			perf_progress_lat(l->o, now, l->size, l->nt - 1, iv,
					  ni);
			free(iv);
		}
		l->prog_from = l->nt;
		l->last_prog = now;
	}
	return 0;
}

/* Room for n post times, touched now so no page fault lands in a sample. */
static int reserve(struct lat *l, size_t n)
{
	double *nv;

	if (n <= l->cap)
		return 0;
	nv = realloc(l->t, n * sizeof(*nv));
	if (!nv)
		return perf_err(l->s, -ENOMEM, PERF_FAIL_LOCAL,
				"out of memory for %zu latency samples (%zu "
				"MiB)",
				n, n * sizeof(*nv) >> 20);
	memset(nv + l->cap, 0, (n - l->cap) * sizeof(*nv));
	l->t = nv;
	l->cap = n;
	return 0;
}

static int stamp(struct lat *l, uint64_t tk)
{
	if (l->nt == l->cap) {
		size_t n = l->cap * 2;
		int r = reserve(l, n < PERF_LAT_MAX_SAMPLES + 1
					   ? n
					   : PERF_LAT_MAX_SAMPLES + 1);

		if (r < 0)
			return r;
	}
	l->t[l->nt++] = (double)(tk - l->tk0);
	return 0;
}

/* A busy wait: its turns, and the ticks when it began to look long. */
struct spin {
	unsigned n;
	uint64_t since;
};

/*
 * One turn of a busy wait. A reply that is late may be waiting for the CPU
 * this loop holds: Soft-RoCE moves packets in kernel threads, and the peer
 * may share the CPU. So after about 50 us without one, yield the CPU every
 * 64 turns; a prompt reply never pays for a system call. Every 4096 turns,
 * look at the clock and the peer.
 */
static int spin_pause(struct lat *l, struct spin *sp)
{
	uint64_t tk;

	if (++sp->n % 64 != 0)
		return 0;
	tk = perf_clock_ticks(&l->clk);
	if (sp->n == 64)
		sp->since = tk;
	else if (tk - sp->since >= l->yield_ticks)
		sched_yield();
	if (sp->n % 4096 == 0)
		return housekeeping(l, tk);
	return 0;
}

static int wait_cq(struct lat *l, struct ibv_cq *cq, const char *what)
{
	struct ibv_wc wc;
	struct spin sp = { 0, 0 };
	int r;

	for (;;) {
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0)
			return perf_err(l->s, -EIO, PERF_FAIL_LOCAL,
					"ibv_poll_cq failed: %d", n);
		if (n == 1)
			break;
		r = spin_pause(l, &sp);
		if (r < 0)
			return r;
	}
	if (wc.status != IBV_WC_SUCCESS) {
		struct perf_fail why = perf_fail_of(PERF_FAIL_WC, EIO);

		why.wc_status = (int)wc.status;
		return perf_err_why(l->s, -EIO, &why,
				    "%s completion error on QP %#x after %zu "
				    "round trips: %s (status %d, vendor error "
				    "%#x): %s",
				    what, wc.qp_num, l->nt,
				    ibv_wc_status_str(wc.status), wc.status,
				    wc.vendor_err, perf_wc_hint(wc.status));
	}
	l->events++;
	return 0;
}

static int wait_byte(struct lat *l, volatile uint8_t *p, uint8_t v)
{
	struct spin sp = { 0, 0 };

	while (*p != v) {
		int r = spin_pause(l, &sp);

		if (r < 0)
			return r;
	}
	l->events++;
	return 0;
}

static int post_recv1(struct lat *l, struct perf_end *e)
{
	struct ibv_sge sge = { .addr = (uintptr_t)perf_end_remote(e, 0),
			       .length = (uint32_t)l->size,
			       .lkey = e->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int r = ibv_post_recv(e->qp[0], &wr, &bad);

	if (r)
		return perf_err(l->s, -r, PERF_FAIL_LOCAL, "ibv_post_recv: %s",
				strerror(r));
	return 0;
}

/* One SEND or WRITE from e; waits for its completion when signaled. */
static int post1(struct lat *l, struct perf_end *e, uint64_t seq)
{
	const struct perf_opts *o = l->o;
	struct ibv_sge sge = { .addr = (uintptr_t)perf_end_local(e, 0),
			       .length = (uint32_t)l->size,
			       .lkey = e->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	bool sig;
	int r;

	if (o->op == PERF_OP_WRITE) {
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = e->peer[0].vaddr;
		wr.wr.rdma.rkey = e->peer[0].rkey;
		sig = true;
	} else {
		wr.opcode = IBV_WR_SEND;
		sig = seq % o->cq_mod == 0 || (l->iters && seq == l->iters);
	}
	wr.send_flags = sig ? IBV_SEND_SIGNALED : 0;
	if (l->size <= e->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	r = ibv_post_send(e->qp[0], &wr, &bad);
	if (r)
		return perf_err(l->s, -r, PERF_FAIL_LOCAL,
				"ibv_post_send on QP %#x: %s",
				e->qp[0]->qp_num, strerror(r));
	return sig ? wait_cq(l, e->scq, perf_op_title(o->op)) : 0;
}

static int recv_one(struct lat *l, struct perf_end *e, uint64_t got)
{
	int r = wait_cq(l, e->rcq, "Receive");

	if (r < 0)
		return r;
	/* Keep rx_depth receives posted, never more than will arrive. */
	if (!l->iters || got + l->o->rx_depth <= l->iters)
		r = post_recv1(l, e);
	return r;
}

/* The poll/post byte of a WRITE ping-pong message of l->size bytes. */
static volatile uint8_t *last_byte(struct perf_end *e, bool remote,
				   uint64_t size)
{
	return (remote ? perf_end_remote(e, 0) : perf_end_local(e, 0)) + size -
	       1;
}

static int run_remote(struct lat *l)
{
	struct perf_end *e = &l->s->a;
	bool client = l->o->role == PERF_CLIENT;
	bool write = l->o->op == PERF_OP_WRITE;
	volatile uint8_t *pb = last_byte(e, true, l->size);
	volatile uint8_t *sb = last_byte(e, false, l->size);
	uint64_t scnt = 0, rcnt = 0, tk;
	int r;

	/* SEND: the client starts; WRITE: the server starts (as perftest). */
	bool starter = write ? !client : client;

	while (more(l, scnt) || (l->iters && rcnt < l->iters)) {
		if ((l->iters ? rcnt < l->iters : true) &&
		    !(scnt == 0 && starter)) {
			rcnt++;
			r = write ? wait_byte(l, pb, (uint8_t)rcnt)
				  : recv_one(l, e, rcnt);
			if (r < 0)
				return r;
		}
		/* One clock read per round trip, a cheap one. */
		tk = perf_clock_ticks(&l->clk);
		if (!more(l, scnt) && !l->iters)
			break;
		if (more(l, scnt)) {
			r = stamp(l, tk);
			if (r < 0)
				return r;
			scnt++;
			if (write)
				*sb = (uint8_t)scnt;
			r = post1(l, e, scnt);
			if (r < 0)
				return r;
		}
		r = housekeeping(l, tk);
		if (r < 0)
			return r;
	}
	return 0;
}

static int run_loopback(struct lat *l)
{
	struct perf_end *a = &l->s->a, *b = &l->s->b;
	bool write = l->o->op == PERF_OP_WRITE;
	uint64_t n = 0, tk = perf_clock_ticks(&l->clk);
	int r;

	while (more(l, n)) {
		n++;
		r = stamp(l, tk);
		if (r < 0)
			return r;
		if (write) {
			*last_byte(a, false, l->size) = (uint8_t)n;
			r = post1(l, a, n);
			if (r == 0)
				r = wait_byte(l, last_byte(b, true, l->size),
					      (uint8_t)n);
			if (r == 0) {
				*last_byte(b, false, l->size) = (uint8_t)n;
				r = post1(l, b, n);
			}
			if (r == 0)
				r = wait_byte(l, last_byte(a, true, l->size),
					      (uint8_t)n);
		} else {
			r = post1(l, a, n);
			if (r == 0)
				r = recv_one(l, b, n);
			if (r == 0)
				r = post1(l, b, n);
			if (r == 0)
				r = recv_one(l, a, n);
		}
		if (r < 0)
			return r;
		tk = perf_clock_ticks(&l->clk);
		r = housekeeping(l, tk);
		if (r < 0)
			return r;
	}
	/* The end of the last round trip closes the last sample. */
	return stamp(l, tk);
}

int perf_lat_run(struct perf_session *s, uint64_t size,
		 struct perf_lat_result *res)
{
	const struct perf_opts *o = s->o;
	struct lat l = { .s = s, .o = o, .size = size };
	bool send = o->op == PERF_OP_SEND;
	int r = 0;

	memset(res, 0, sizeof(*res));
	l.iters = o->duration ? 0 : o->iters;
	if (l.iters > PERF_LAT_MAX_SAMPLES) {
		r = perf_err(s, -E2BIG, PERF_FAIL_LOCAL,
			     "%llu iterations: every sample is kept, and at "
			     "most %u of them fit in the memory set aside",
			     (unsigned long long)l.iters,
			     PERF_LAT_MAX_SAMPLES);
		goto out;
	}
	/* One post time per iteration, one more to close the last sample;
	 * -D grows from 64 Ki. */
	r = reserve(&l, l.iters ? (size_t)l.iters + 1 : 65536);
	if (r < 0)
		goto out;
	/* Before the barrier: its first 2 ms are no one's sample. */
	r = perf_clock_start(&l.clk, true);
	if (r < 0) {
		r = clock_failed(&l, r);
		goto out;
	}
	l.tk0 = l.clk.cp[0].ticks;
	l.yield_ticks = l.clk.check_ticks / 2000; /* 50 us */
	if (send) {
		uint64_t n = o->rx_depth;

		if (l.iters && n > l.iters)
			n = l.iters;
		for (uint64_t k = 0; k < n && r == 0; k++) {
			r = post_recv1(&l, &s->a);
			if (r == 0 && s->loopback)
				r = post_recv1(&l, &s->b);
		}
		if (r < 0)
			goto out;
		/* ib_send_lat syncs after posting receives, per size. */
		if (!s->loopback) {
			r = perf_session_barrier(s, o->timeout_ms);
			if (r < 0)
				goto out;
		}
	}
	r = perf_clock_checkpoint(&l.clk, &l.last_event);
	if (r < 0) {
		r = clock_failed(&l, r);
		goto out;
	}
	l.last_prog = l.last_event;
	l.t_end = l.last_event + o->duration;
	r = s->loopback ? run_loopback(&l) : run_remote(&l);
	if (r < 0)
		goto out;
	/* The last checkpoint follows every post time. */
	if (l.nt > 0) {
		double end;

		r = perf_clock_checkpoint(&l.clk, &end);
		if (r < 0) {
			r = clock_failed(&l, r);
			goto out;
		}
	}
	if (l.nt < 2) {
		r = perf_err(l.s, -ENODATA, PERF_FAIL_LOCAL,
			     "no complete round trip to measure");
		goto out;
	}
	res->size = size;
	res->iters = s->loopback ? l.nt - 1 : l.nt;
	res->capped = l.capped;
	res->nsamples = l.nt - 1;
	/* In place: sample k needs post times k and k + 1 only. */
	for (size_t k = 0; k < res->nsamples; k++)
		l.t[k] = (post_time(&l, k + 1) - post_time(&l, k)) * 1e6 / 2;
	res->samples = l.t;
	l.t = NULL;
	/* Kept before the statistics sort them, outside the timed loop. */
	if (s->o->samples_path) {
		res->in_order = malloc(res->nsamples * sizeof(double));
		if (!res->in_order) {
			r = perf_err(l.s, -ENOMEM, PERF_FAIL_LOCAL,
				     "out of memory for --samples");
			goto out;
		}
		memcpy(res->in_order, res->samples,
		       res->nsamples * sizeof(double));
	}
	r = perf_lat_stats(res->samples, res->nsamples, &res->st);
out:
	perf_clock_free(&l.clk);
	free(l.t);
	return r;
}
