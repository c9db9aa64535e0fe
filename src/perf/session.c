// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A connected test: the same sequence of out-of-band messages as perftest's
 * ib_*_bw / ib_*_lat, so either side may be a stock perftest binary.
 */
#include "config.h"
#include "perf/perf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perf/gid.h"

/* The first failure is the cause; what follows is its echo. */
static void keep(struct perf_session *s, const struct perf_fail *why)
{
	if (s->fail.kind == PERF_FAIL_NONE)
		s->fail = *why;
}

static int verr(struct perf_session *s, int r, const struct perf_fail *why,
		const char *fmt, va_list ap)
{
	if (s->fail.kind != PERF_FAIL_NONE)
		return r;
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	keep(s, why);
	return r;
}

int perf_err(struct perf_session *s, int r, enum perf_fail_kind kind,
	     const char *fmt, ...)
{
	struct perf_fail why = perf_fail_of(kind, r < 0 ? -r : 0);
	va_list ap;

	va_start(ap, fmt);
	r = verr(s, r, &why, fmt, ap);
	va_end(ap);
	return r;
}

int perf_err_why(struct perf_session *s, int r, const struct perf_fail *why,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r = verr(s, r, why, fmt, ap);
	va_end(ap);
	return r;
}

int perf_failed(struct perf_session *s, int r, enum perf_fail_kind kind)
{
	struct perf_fail why = perf_fail_of(kind, r < 0 ? -r : 0);

	keep(s, &why);
	return r;
}

/*
 * A layer's failure r, told with its message and the kind it recorded; a
 * message without a kind (one of a layer above it, as the in-band check's
 * frames on the out-of-band channel) takes the layer's own, dflt.
 */
static int relay(struct perf_session *s, int r, const struct perf_fail *f,
		 enum perf_fail_kind dflt, const char *msg)
{
	struct perf_fail why = *f;

	if (why.kind == PERF_FAIL_NONE)
		why = perf_fail_of(dflt, r < 0 ? -r : 0);
	return perf_err_why(s, r, &why, "%s", msg);
}

int perf_err_oob(struct perf_session *s, int r)
{
	return relay(s, r, &s->oob.fail, PERF_FAIL_OOB, s->oob.err);
}

/* rdma_cm's failure r: its message and kind. */
static int cm_failed(struct perf_session *s, int r)
{
	return relay(s, r, &s->cm.fail, PERF_FAIL_CM, s->cm.err);
}

double perf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *perf_op_title(enum perf_op op)
{
	return op == PERF_OP_SEND    ? "Send"
	       : op == PERF_OP_WRITE ? "RDMA_Write"
				     : "RDMA_Read";
}

const char *perf_op_name(enum perf_op op)
{
	return op == PERF_OP_SEND    ? "send"
	       : op == PERF_OP_WRITE ? "write"
				     : "read";
}

bool perf_should_stop(struct perf_session *s, const char *during)
{
	if (s->stop && *s->stop) {
		perf_err(s, 0, PERF_FAIL_STOPPED, "interrupted during %s",
			 during);
		return true;
	}
	if (!s->loopback && perf_oob_peer_gone(&s->oob)) {
		perf_err(s, 0, PERF_FAIL_OOB_CLOSED,
			 "the peer closed the out-of-band connection "
			 "during %s: it exited or was killed",
			 during);
		return true;
	}
	return false;
}

static int choose_gid(struct perf_session *s)
{
	struct perf_dev *d = &s->dev;
	struct perf_gid_cand *c;
	size_t n = 0;
	char why[200];
	int idx, r;

	c = calloc((size_t)d->port_attr.gid_tbl_len, sizeof(*c));
	if (!c)
		return perf_err(s, -ENOMEM, PERF_FAIL_LOCAL, "out of memory");
	for (int i = 0; i < d->port_attr.gid_tbl_len; i++) {
		struct ibv_gid_entry ge;

		if (ibv_query_gid_ex(d->ctx, d->port, (uint32_t)i, &ge, 0))
			continue;
		c[n].index = i;
		memcpy(c[n].raw, ge.gid.raw, 16);
		c[n].type = ge.gid_type == IBV_GID_TYPE_ROCE_V2
				    ? PERF_GID_ROCE_V2
				    : PERF_GID_IB_ROCE_V1;
		n++;
	}
	/* perftest's out-of-band channel is IPv4 only. */
	idx = perf_gid_choose(c, n, true, why, sizeof(why));
	free(c);
	if (idx < 0)
		return perf_err(s, idx, PERF_FAIL_LOCAL,
				"%s port %u: no usable GID: %s", d->name,
				d->port, why);
	snprintf(s->gid_why, sizeof(s->gid_why), "GID index %d chosen: %s", idx,
		 why);
	r = perf_dev_set_gid(d, idx, s->err, sizeof(s->err));
	return r < 0 ? perf_failed(s, r, PERF_FAIL_LOCAL) : r;
}

static int xchg_keys(struct perf_session *s, unsigned i,
		     struct perf_oob_keys *into, const char *what,
		     int timeout_ms)
{
	size_t len = s->with_gid ? PERF_OOB_KEYS_GID_LEN : PERF_OOB_KEYS_LEN;
	char out[PERF_OOB_KEYS_GID_LEN], in[PERF_OOB_KEYS_GID_LEN];
	char derr[200];
	int r;

	if (s->o->rdma_cm) {
		uint8_t bout[PERF_CM_KEYS_LEN], bin[PERF_CM_KEYS_LEN];

		perf_cm_keys_encode(&s->a.mine[i], bout, sizeof(bout));
		r = perf_oob_xchg(&s->oob, bout, bin, sizeof(bin), timeout_ms,
				  what);
		if (r < 0)
			return perf_err_oob(s, r);
		r = perf_cm_keys_decode(bin, sizeof(bin), into, derr,
					sizeof(derr));
		if (r < 0)
			return perf_err(s, r, PERF_FAIL_OOB,
					"bad %s from the peer: %s", what, derr);
		return 0;
	}
	r = perf_oob_keys_encode(&s->a.mine[i], s->with_gid, out, sizeof(out));
	if (r < 0)
		return perf_err(s, r, PERF_FAIL_LOCAL,
				"cannot encode the keys of QP %u", i);
	r = perf_oob_xchg(&s->oob, out, in, len, timeout_ms, what);
	if (r < 0)
		return perf_err_oob(s, r);
	r = perf_oob_keys_decode(in, len, s->with_gid, into, derr,
				 sizeof(derr));
	if (r < 0)
		return perf_err(s, r, PERF_FAIL_OOB,
				"bad %s from the peer: %s", what, derr);
	return 0;
}

/* The GID and MTU this side's test will use, for the peer check. */
static void choice_of(const struct perf_session *s, int mtu,
		      struct perf_choice *ch)
{
	struct ibv_gid_entry ge;

	memset(ch, 0, sizeof(*ch));
	ch->gid_index = s->dev.gid_index;
	ch->gid_type = -1;
	ch->roce = s->dev.roce;
	ch->by_cm = s->o->rdma_cm;
	ch->mtu = (unsigned)perf_mtu_bytes(mtu);
	if (ch->gid_index < 0)
		return;
	memcpy(ch->gid, s->dev.gid.raw, 16);
	if (ibv_query_gid_ex(s->dev.ctx, s->dev.port, (uint32_t)ch->gid_index,
			     &ge, 0) == 0)
		ch->gid_type = (int)ge.gid_type;
}

static int negotiate(struct perf_session *s, int *mtu)
{
	const struct perf_opts *o = s->o;
	char vout[PERF_OOB_VERSION_LEN], vin[PERF_OOB_VERSION_LEN];
	uint8_t sout[PERF_OOB_SYSDATA_LEN], sin[PERF_OOB_SYSDATA_LEN];
	char mout[PERF_OOB_MTU_LEN], min[PERF_OOB_MTU_LEN];
	uint32_t cb, cl;
	int r, rmtu;

	bool ext = o->inband && o->inband->exchange;

	perf_oob_version_encode(PERF_OOB_VERSION, vout, sizeof(vout));
	if (ext && s->oob.client &&
	    perf_oob_version_mark(vout, sizeof(vout), PERF_OOB_MARK_PROTO) < 0)
		ext = false;
	if (s->oob.client) {
		r = perf_oob_xchg(&s->oob, vout, vin, sizeof(vin),
				  o->timeout_ms, "the version string");
	} else {
		/* The mark goes back only to a client that sent the same. */
		r = perf_oob_read(&s->oob, vin, sizeof(vin), o->timeout_ms,
				  "the version string");
		if (r == 0 && ext &&
		    perf_oob_version_marked(vin, sizeof(vin)) ==
			    PERF_OOB_MARK_PROTO)
			perf_oob_version_mark(vout, sizeof(vout),
					      PERF_OOB_MARK_PROTO);
		if (r == 0)
			r = perf_oob_write(&s->oob, vout, sizeof(vout),
					   "the version string");
	}
	if (r < 0)
		return perf_err_oob(s, r);
	r = perf_oob_version_decode(vin, sizeof(vin), &s->peer_version, s->err,
				    sizeof(s->err));
	if (r < 0)
		return perf_failed(s, r, PERF_FAIL_OOB);
	if (s->peer_version < PERF_OOB_MIN_VERSION)
		return perf_err(s, -EPROTO, PERF_FAIL_OOB,
				"peer speaks perftest %u.%02u; versions below "
				"5.70 use another report format and are not "
				"supported",
				s->peer_version / 100, s->peer_version % 100);
	s->peer_mark = perf_oob_version_marked(vin, sizeof(vin));
	if (ext && s->peer_mark == PERF_OOB_MARK_PROTO &&
	    perf_oob_version_marked(vout, sizeof(vout))) {
		struct perf_choice ch;

		choice_of(s, *mtu, &ch);
		r = o->inband->exchange(&s->oob, s->oob.client, &ch,
					o->inband->ctx);
		if (r < 0)
			return perf_err_oob(s, r);
	}
	perf_oob_sysdata_encode(s->cycle_buffer, s->cache_line, sout);
	/* Two exchanges of four bytes: a server reading all eight before
	 * answering would wait for a client waiting for it. */
	r = perf_oob_xchg(&s->oob, sout, sin, 4, o->timeout_ms,
			  "the system data (cycle buffer)");
	if (r == 0)
		r = perf_oob_xchg(&s->oob, sout + 4, sin + 4, 4, o->timeout_ms,
				  "the system data (cache line)");
	if (r < 0)
		return perf_err_oob(s, r);
	r = perf_oob_sysdata_decode(sin, sizeof(sin), &cb, &cl, s->err,
				    sizeof(s->err));
	if (r < 0)
		return perf_failed(s, r, PERF_FAIL_OOB);
	if (cb > s->cycle_buffer)
		s->cycle_buffer = cb;
	if (cl > s->cache_line)
		s->cache_line = cl;
	perf_oob_mtu_encode(*mtu, mout, sizeof(mout));
	r = perf_oob_xchg(&s->oob, mout, min, sizeof(min), o->timeout_ms,
			  "the MTU");
	if (r < 0)
		return perf_err_oob(s, r);
	r = perf_oob_mtu_decode(min, sizeof(min), &rmtu, s->err,
				sizeof(s->err));
	if (r < 0)
		return perf_failed(s, r, PERF_FAIL_OOB);
	if (rmtu < *mtu)
		*mtu = rmtu;
	return 0;
}

/*
 * perftest -R: a synchronisation, every QP connected by rdma_cm, another
 * one. rdma_cm chose the GID and the path MTU: take them from QP 0.
 */
static int cm_connect_qps(struct perf_session *s, unsigned out_reads)
{
	const struct perf_opts *o = s->o;
	struct perf_oob_keys tmp;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr ia;
	struct ibv_gid_entry ge;
	int r;

	/* Listening first: the synchronisation lets the client connect. */
	r = perf_cm_listen_qps(&s->cm, &s->a);
	if (r < 0)
		return cm_failed(s, r);
	r = xchg_keys(s, 0, &tmp, "the synchronisation before rdma_cm",
		      o->timeout_ms);
	if (r < 0)
		return r;
	r = perf_cm_connect_qps(&s->cm, &s->a, o->tos,
				o->op == PERF_OP_READ ? out_reads : 0,
				o->timeout_ms);
	if (r < 0)
		return cm_failed(s, r);
	r = xchg_keys(s, 0, &tmp, "the synchronisation after rdma_cm",
		      o->timeout_ms);
	if (r < 0)
		return r;
	if (ibv_query_qp(s->a.qp[0], &qa, IBV_QP_PATH_MTU | IBV_QP_AV, &ia))
		return 0; /* the header then shows what was negotiated */
	s->mtu = qa.path_mtu;
	if (!qa.ah_attr.is_global)
		return 0;
	if (perf_dev_set_gid(&s->dev, qa.ah_attr.grh.sgid_index, s->err,
			     sizeof(s->err)) < 0)
		return 0;
	for (unsigned i = 0; i < o->nqp; i++)
		memcpy(s->a.mine[i].gid, s->dev.gid.raw, 16);
	snprintf(s->gid_why, sizeof(s->gid_why),
		 "GID index %d (%s) chosen by rdma_cm from the address and "
		 "its default RoCE mode",
		 s->dev.gid_index,
		 ibv_query_gid_ex(s->dev.ctx, s->dev.port,
				  (uint32_t)s->dev.gid_index, &ge, 0) != 0
			 ? "type unknown"
		 : ge.gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2"
		 : ge.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1"
						       : "IB");
	return 0;
}

/* The out-of-band channel to the peer: TCP, or with -R an rdma_cm QP. */
static int reach_peer(struct perf_session *s)
{
	const struct perf_opts *o = s->o;
	int r;

	if (o->rdma_cm) {
		/* perftest -R: no socket, its messages on an rdma_cm QP. */
		perf_cm_init(&s->cm, s->stop);
		s->cm.timeout_ms = o->timeout_ms;
		perf_cm_carry_oob(&s->cm, &s->oob);
		s->oob.client = o->role == PERF_CLIENT;
		if (o->role == PERF_CLIENT)
			r = perf_cm_connect(&s->cm, s->dev.ctx, s->dev.pd,
					    o->host, o->port, o->timeout_ms);
		else
			r = perf_cm_accept(&s->cm, s->dev.ctx, s->dev.pd,
					   o->bind_addr, o->port);
		return r < 0 ? cm_failed(s, r) : 0;
	}
	if (o->role == PERF_CLIENT)
		r = perf_oob_connect(&s->oob, o->host, o->port, o->timeout_ms);
	else
		r = perf_oob_accept_aside(
			&s->oob, o->bind_addr, o->bind_addr2, o->port, -1,
			o->inband && o->inband->aside.claims ? &o->inband->aside
							     : NULL);
	return r < 0 ? perf_err_oob(s, r) : 0;
}

int perf_session_open(struct perf_session *s, const struct perf_opts *o,
		      volatile sig_atomic_t *stop)
{
	struct perf_end_cfg cfg = { 0 };
	struct perf_fail why = perf_fail_of(PERF_FAIL_LOCAL, 0);
	uint64_t max_size = o->all_sizes ? PERF_MAX_SIZE : o->size;
	bool write_lat = o->lat && o->op == PERF_OP_WRITE;
	unsigned pre, post;
	int mtu, r;

	memset(s, 0, sizeof(*s));
	s->fail = PERF_FAIL_INIT;
	s->o = o;
	s->stop = stop;
	s->oob.fd = -1;
	s->oob.fail = PERF_FAIL_INIT;
	s->oob.stop = stop;
	s->oob.timeout_ms = o->timeout_ms;
	s->loopback = o->role == PERF_LOOPBACK;
	s->cycle_buffer = (uint32_t)sysconf(_SC_PAGESIZE);
	if (s->cycle_buffer < 512 || s->cycle_buffer > (1u << 24))
		s->cycle_buffer = 4096;
	s->cache_line = 64;

	if (o->rdma_cm)
		r = perf_dev_open_cm(&s->dev, o->dev, o->ib_port, s->err,
				     sizeof(s->err));
	else
		r = perf_dev_open(&s->dev, o->dev, o->ib_port, s->err,
				  sizeof(s->err));
	if (r < 0)
		return perf_failed(s, r, PERF_FAIL_LOCAL);
	if (o->gid_index >= 0) {
		r = perf_dev_set_gid(&s->dev, o->gid_index, s->err,
				     sizeof(s->err));
		if (r < 0) {
			perf_failed(s, r, PERF_FAIL_LOCAL);
			goto fail;
		}
		snprintf(s->gid_why, sizeof(s->gid_why),
			 "GID index %d given with -x", o->gid_index);
	} else if (s->dev.roce && !o->rdma_cm) {
		r = choose_gid(s);
		if (r < 0)
			goto fail;
	}
	s->with_gid = s->dev.gid_index >= 0;

	mtu = s->dev.port_attr.active_mtu;
	if (o->mtu) {
		int want = perf_mtu_enum(o->mtu);

		if (want < 0) {
			r = perf_err(s, -EINVAL, PERF_FAIL_LOCAL,
				     "-m %u: the MTU must be 256, 512, "
				     "1024, 2048 or 4096",
				     o->mtu);
			goto fail;
		}
		if (want > mtu)
			fprintf(stderr,
				"rdmadiag: warning: -m %u is above the "
				"port's active MTU %d: using %d\n",
				o->mtu, perf_mtu_bytes(mtu),
				perf_mtu_bytes(mtu));
		else
			mtu = want;
	}

	if (!s->loopback) {
		r = reach_peer(s);
		if (r == 0)
			r = negotiate(s, &mtu);
		if (r < 0)
			goto fail;
	}
	s->mtu = (enum ibv_mtu)mtu;

	cfg.nqp = o->nqp;
	cfg.slot = max_size > s->cycle_buffer ? max_size : s->cycle_buffer;
	cfg.slot = (cfg.slot + 4095) & ~(size_t)4095;
	cfg.tx_depth = o->lat ? o->cq_mod + 1 : o->tx_depth;
	cfg.rx_depth = o->op == PERF_OP_SEND ? o->rx_depth : 1;
	cfg.inline_size = o->inline_size < 0 ? 0 : (unsigned)o->inline_size;
	cfg.cm = o->rdma_cm && !s->loopback;
	cfg.sl = (uint8_t)o->sl;
	cfg.traffic_class = (uint8_t)o->tclass;
	if (o->op == PERF_OP_READ) {
		int m = s->dev.attr.max_qp_rd_atom;

		cfg.out_reads = m <= 0 ? 1 : m > 255 ? 255 : (unsigned)m;
	}
	r = perf_end_create(&s->dev, &s->a, &cfg, s->err, sizeof(s->err));
	if (r < 0) {
		perf_failed(s, r, PERF_FAIL_LOCAL);
		goto fail;
	}
	s->have_a = true;
	if (s->loopback) {
		r = perf_end_create(&s->dev, &s->b, &cfg, s->err,
				    sizeof(s->err));
		if (r < 0) {
			perf_failed(s, r, PERF_FAIL_LOCAL);
			goto fail;
		}
		s->have_b = true;
		for (unsigned i = 0; i < o->nqp; i++) {
			s->a.peer[i] = s->b.mine[i];
			s->b.peer[i] = s->a.mine[i];
		}
	} else {
		if (cfg.cm) {
			r = cm_connect_qps(s, cfg.out_reads);
			if (r < 0)
				goto fail;
		}
		/* ib_write_lat sends QP 0's keys once more up front. */
		pre = o->nqp + (write_lat ? 1 : 0);
		for (unsigned k = 0; k < pre; k++) {
			unsigned i = write_lat ? (k == 0 ? 0 : k - 1) : k;

			r = xchg_keys(s, i, &s->a.peer[i], "QP keys",
				      o->timeout_ms);
			if (r < 0)
				goto fail;
		}
	}

	for (unsigned i = 0; i < o->nqp && !cfg.cm; i++) {
		bool send_side = o->lat || o->bidir || o->role != PERF_SERVER;

		r = perf_end_connect(&s->a, i, s->mtu, send_side, o->qp_timeout,
				     s->err, sizeof(s->err), &why);
		if (r == 0 && s->loopback)
			r = perf_end_connect(&s->b, i, s->mtu,
					     o->lat || o->bidir, o->qp_timeout,
					     s->err, sizeof(s->err), &why);
		if (r < 0) {
			keep(s, &why);
			goto fail;
		}
	}
	if (!s->loopback) {
		/* The peer reads these only as a barrier: it reached RTR. */
		post = o->nqp + 1;
		for (unsigned k = 0; k < post; k++) {
			struct perf_oob_keys tmp;

			r = xchg_keys(s, k < o->nqp ? k : 0, &tmp,
				      "QP keys (after RTR)", o->timeout_ms);
			if (r < 0)
				goto fail;
		}
	}
	return 0;
fail:
	perf_session_close(s);
	return r < 0 ? r : -EIO;
}

int perf_session_barrier(struct perf_session *s, int timeout_ms)
{
	struct perf_oob_keys tmp;

	if (s->loopback)
		return 0;
	/* A wait for a peer still running its test has no fixed bound;
	 * peer death and Ctrl-C still end it. */
	return xchg_keys(s, 0, &tmp, "the synchronisation message", timeout_ms);
}

int perf_session_goodbye(struct perf_session *s)
{
	char done[sizeof(PERF_OOB_DONE)];
	int r;

	if (s->loopback)
		return 0;
	r = perf_session_barrier(s, s->o->timeout_ms);
	if (r < 0)
		return r;
	if (s->o->rdma_cm)
		return 0; /* perftest -R ends on the barrier */
	r = perf_oob_write(&s->oob, PERF_OOB_DONE, sizeof(PERF_OOB_DONE),
			   "the goodbye");
	if (r < 0)
		return perf_err_oob(s, r);
	/* Read the peer's so closing does not reset the connection early;
	 * a peer that closes without it is fine. */
	perf_oob_read(&s->oob, done, sizeof(done), 1000, "the goodbye");
	return 0;
}

void perf_session_close(struct perf_session *s)
{
	if (s->have_b)
		perf_end_destroy(&s->b);
	if (s->have_a) {
		perf_cm_close_qps(&s->cm, &s->a);
		perf_end_destroy(&s->a);
	}
	s->have_a = s->have_b = false;
	perf_cm_close(&s->cm);
	perf_dev_close(&s->dev);
	perf_oob_close(&s->oob);
}
