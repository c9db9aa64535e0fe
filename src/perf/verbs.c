// SPDX-License-Identifier: GPL-2.0-or-later
/* Verbs setup for the perf tests; every call checked, undone in reverse. */
#include "config.h"
#include "perf/verbs.h"

#include <errno.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"

int perf_mtu_bytes(int mtu_enum)
{
	return (mtu_enum >= IBV_MTU_256 && mtu_enum <= IBV_MTU_4096)
		       ? 128 << mtu_enum
		       : 0;
}

int perf_mtu_enum(unsigned bytes)
{
	for (int m = IBV_MTU_256; m <= IBV_MTU_4096; m++)
		if ((unsigned)(128 << m) == bytes)
			return m;
	return -EINVAL;
}

static int dev_setup(struct perf_dev *d, unsigned port, char *err,
		     size_t errlen);

int perf_dev_open(struct perf_dev *d, const char *name, unsigned port,
		  char *err, size_t errlen)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	int n = 0, r;

	memset(d, 0, sizeof(*d));
	d->gid_index = -1;
	list = ibv_get_device_list(&n);
	if (!list) {
		r = -errno;
		rd_snprintf_text(err, errlen,
				 "cannot list RDMA devices: %s "
				 "(is ib_uverbs loaded?)",
				 strerror(errno));
		return r;
	}
	for (int i = 0; i < n; i++)
		if (!name || strcmp(ibv_get_device_name(list[i]), name) == 0) {
			dev = list[i];
			break;
		}
	if (!dev) {
		rd_snprintf_text(err, errlen,
				 name ? "no RDMA device named %s"
				      : "no RDMA device found%s",
				 name ? name : "");
		r = -ENODEV;
		goto out_list;
	}
	snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(dev));
	d->ctx = ibv_open_device(dev);
	if (!d->ctx) {
		r = errno ? -errno : -ENODEV;
		rd_snprintf_text(err, errlen,
				 "cannot open %s: %s (permissions on "
				 "/dev/infiniband/uverbs*?)",
				 d->name, strerror(-r));
		goto out_list;
	}
	ibv_free_device_list(list);
	return dev_setup(d, port, err, errlen);
out_list:
	ibv_free_device_list(list);
	return r;
}

int perf_dev_open_cm(struct perf_dev *d, const char *name, unsigned port,
		     char *err, size_t errlen)
{
	struct ibv_context **list;
	int n = 0;

	memset(d, 0, sizeof(*d));
	d->gid_index = -1;
	list = rdma_get_devices(&n);
	if (!list) {
		rd_snprintf_text(
			err, errlen,
			"rdma_cm lists no RDMA device: %s (are rdma_ucm and "
			"ib_uverbs loaded?)",
			strerror(errno ? errno : ENODEV));
		return -ENODEV;
	}
	for (int i = 0; i < n && !d->ctx; i++)
		if (!name ||
		    strcmp(ibv_get_device_name(list[i]->device), name) == 0)
			d->ctx = list[i];
	rdma_free_devices(list);
	if (!d->ctx) {
		rd_snprintf_text(err, errlen,
				 "rdma_cm has no RDMA device named %s",
				 name ? name : "(any)");
		return -ENODEV;
	}
	d->cm_ctx = true;
	snprintf(d->name, sizeof(d->name), "%s",
		 ibv_get_device_name(d->ctx->device));
	return dev_setup(d, port, err, errlen);
}

static int dev_setup(struct perf_dev *d, unsigned port, char *err,
		     size_t errlen)
{
	int r;

	if ((r = ibv_query_device(d->ctx, &d->attr)) != 0) {
		rd_snprintf_text(err, errlen, "ibv_query_device(%s): %s",
				 d->name, strerror(r));
		r = -r;
		goto out_close;
	}
	if (port < 1 || port > d->attr.phys_port_cnt) {
		rd_snprintf_text(err, errlen, "%s has no port %u (ports 1..%u)",
				 d->name, port, d->attr.phys_port_cnt);
		r = -ENODEV;
		goto out_close;
	}
	d->port = (uint8_t)port;
	if ((r = ibv_query_port(d->ctx, d->port, &d->port_attr)) != 0) {
		rd_snprintf_text(err, errlen, "ibv_query_port(%s/%u): %s",
				 d->name, port, strerror(r));
		r = -r;
		goto out_close;
	}
	d->roce = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
	d->pd = ibv_alloc_pd(d->ctx);
	if (!d->pd) {
		r = errno ? -errno : -ENOMEM;
		rd_snprintf_text(err, errlen, "ibv_alloc_pd: %s", strerror(-r));
		goto out_close;
	}
	return 0;
out_close:
	if (!d->cm_ctx)
		ibv_close_device(d->ctx);
	d->ctx = NULL;
	return r;
}

void perf_dev_close(struct perf_dev *d)
{
	if (d->pd)
		ibv_dealloc_pd(d->pd);
	d->pd = NULL;
	if (d->ctx && !d->cm_ctx)
		ibv_close_device(d->ctx);
	d->ctx = NULL;
}

int perf_dev_set_gid(struct perf_dev *d, int index, char *err, size_t errlen)
{
	int r;

	if (index < 0 || index >= d->port_attr.gid_tbl_len) {
		rd_snprintf_text(err, errlen,
				 "GID index %d is outside the table of "
				 "%s port %u (0..%d)",
				 index, d->name, d->port,
				 d->port_attr.gid_tbl_len - 1);
		return -EINVAL;
	}
	r = ibv_query_gid(d->ctx, d->port, index, &d->gid);
	if (r == 0) {
		static const uint8_t zero[16];

		r = memcmp(d->gid.raw, zero, 16) == 0;
	}
	if (r) {
		rd_snprintf_text(err, errlen,
				 "GID index %d of %s port %u cannot be "
				 "read (empty entry?)",
				 index, d->name, d->port);
		return -EINVAL;
	}
	d->gid_index = index;
	return 0;
}

static uint32_t random_psn(void)
{
	uint32_t v = 0;

	/* Early in boot the pool may not be ready: fall back to a seed of
	 * time, pid and a stack address, enough to tell runs apart. */
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = (uint32_t)ts.tv_nsec ^ (uint32_t)getpid() << 8 ^
		    (uint32_t)(uintptr_t)&ts;
		v ^= v >> 13;
		v *= 0x5bd1e995u;
		v ^= v >> 15;
	}
	return v & 0xffffff;
}

/* QP i of e, on id when given (rdma_cm then moves it to INIT), its keys. */
static int create_qp(struct perf_end *e, unsigned i, struct rdma_cm_id *id,
		     char *err, size_t errlen)
{
	struct perf_dev *d = e->dev;
	struct ibv_qp_init_attr ia = {
		.send_cq = e->scq,
		.recv_cq = e->rcq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = e->tx_depth,
			 .max_recv_wr = e->rx_depth,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = e->max_inline },
	};
	int r;

	for (int tries = 0; tries < 2; tries++) {
		if (id)
			e->qp[i] = rdma_create_qp(id, d->pd, &ia) == 0 ? id->qp
								       : NULL;
		else
			e->qp[i] = ibv_create_qp(d->pd, &ia);
		if (e->qp[i] || !e->max_inline)
			break;
		/* The device cannot inline that much: do without. */
		e->max_inline = 0;
		ia.cap.max_inline_data = 0;
	}
	if (!e->qp[i]) {
		r = errno ? -errno : -ENOMEM;
		rd_snprintf_text(
			err, errlen,
			"%s(RC, send %u, recv %u): %s (device max_qp_wr %d)",
			id ? "rdma_create_qp" : "ibv_create_qp", e->tx_depth,
			e->rx_depth, strerror(-r), d->attr.max_qp_wr);
		return r;
	}
	e->mine[i] = (struct perf_oob_keys){
		.lid = d->port_attr.lid,
		.out_reads = e->out_reads,
		.qpn = e->qp[i]->qp_num,
		.psn = random_psn(),
		.rkey = e->mr->rkey,
		.vaddr = (uintptr_t)perf_end_remote(e, i),
	};
	if (d->gid_index >= 0)
		memcpy(e->mine[i].gid, d->gid.raw, 16);
	return 0;
}

int perf_end_create_cm_qp(struct perf_end *e, unsigned i,
			  struct rdma_cm_id *id, char *err, size_t errlen)
{
	int r;

	if (i >= e->nqp || !e->cm_id || e->qp[i]) {
		rd_snprintf_text(err, errlen, "QP %u cannot be made on rdma_cm",
				 i);
		return -EINVAL;
	}
	r = create_qp(e, i, id, err, errlen);
	if (r == 0)
		e->cm_id[i] = id;
	return r;
}

void perf_end_destroy_cm_qp(struct perf_end *e, unsigned i)
{
	if (i < e->nqp && e->cm_id && e->cm_id[i]) {
		rdma_destroy_qp(e->cm_id[i]);
		e->cm_id[i] = NULL;
		e->qp[i] = NULL;
	}
}

int perf_buf_reg(struct ibv_pd *pd, size_t len, int access, uint8_t **buf,
		 struct ibv_mr **mr, char *err, size_t errlen)
{
	int r;

	*mr = NULL;
	if (posix_memalign((void **)buf, 4096, len) != 0) {
		*buf = NULL;
		rd_snprintf_text(err, errlen,
				 "cannot allocate %zu bytes of buffers", len);
		return -ENOMEM;
	}
	memset(*buf, 0, len);
	*mr = ibv_reg_mr(pd, *buf, len, access);
	if (*mr)
		return 0;
	r = errno ? -errno : -ENOMEM;
	rd_snprintf_text(err, errlen, "ibv_reg_mr(%zu bytes): %s%s", len,
			 strerror(-r),
			 r == -ENOMEM || r == -EPERM
				 ? " (locked-memory limit too low? ulimit -l)"
				 : "");
	free(*buf);
	*buf = NULL;
	return r;
}

void perf_buf_dereg(uint8_t **buf, struct ibv_mr **mr)
{
	if (*mr)
		ibv_dereg_mr(*mr);
	free(*buf);
	*mr = NULL;
	*buf = NULL;
}

/* A completion queue of entries for e's QPs; which names it in err. */
static int create_cq(struct perf_end *e, struct ibv_cq **cq, unsigned entries,
		     const char *which, char *err, size_t errlen)
{
	int r;

	*cq = ibv_create_cq(e->dev->ctx, (int)entries, NULL, NULL, 0);
	if (*cq)
		return 0;
	r = errno ? -errno : -ENOMEM;
	rd_snprintf_text(err, errlen, "ibv_create_cq(%s, %u entries): %s",
			 which, entries, strerror(-r));
	return r;
}

int perf_end_create(struct perf_dev *d, struct perf_end *e,
		    const struct perf_end_cfg *cfg, char *err, size_t errlen)
{
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		     IBV_ACCESS_REMOTE_READ;
	size_t len = 2 * (size_t)cfg->nqp * cfg->slot;
	unsigned i;
	int r;

	memset(e, 0, sizeof(*e));
	e->dev = d;
	e->slot = cfg->slot;
	e->qp = calloc(cfg->nqp, sizeof(*e->qp));
	e->mine = calloc(cfg->nqp, sizeof(*e->mine));
	e->peer = calloc(cfg->nqp, sizeof(*e->peer));
	if (!e->qp || !e->mine || !e->peer) {
		rd_snprintf_text(err, errlen, "out of memory");
		r = -ENOMEM;
		goto fail;
	}
	r = perf_buf_reg(d->pd, len, access, &e->buf, &e->mr, err, errlen);
	if (r < 0)
		goto fail;
	r = create_cq(e, &e->scq, cfg->tx_depth * cfg->nqp, "send", err,
		      errlen);
	if (r == 0)
		r = create_cq(e, &e->rcq, cfg->rx_depth * cfg->nqp, "receive",
			      err, errlen);
	if (r < 0)
		goto fail;
	e->max_inline = cfg->inline_size;
	e->tx_depth = cfg->tx_depth;
	e->rx_depth = cfg->rx_depth;
	e->out_reads = cfg->out_reads ? cfg->out_reads : 1;
	e->sl = cfg->sl;
	e->traffic_class = cfg->traffic_class;
	e->nqp = cfg->nqp;
	if (cfg->cm) {
		e->cm_id = calloc(cfg->nqp, sizeof(*e->cm_id));
		if (!e->cm_id) {
			rd_snprintf_text(err, errlen, "out of memory");
			r = -ENOMEM;
			goto fail;
		}
		return 0;
	}
	for (i = 0; i < cfg->nqp; i++) {
		struct ibv_qp_attr qa = {
			.qp_state = IBV_QPS_INIT,
			.pkey_index = 0,
			.port_num = d->port,
			.qp_access_flags = access,
		};

		r = create_qp(e, i, NULL, err, errlen);
		if (r < 0)
			goto fail;
		r = ibv_modify_qp(e->qp[i], &qa,
				  IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
		if (r) {
			rd_snprintf_text(err, errlen,
					 "QP %#x to INIT (port %u, P_Key "
					 "index 0): %s",
					 e->qp[i]->qp_num, d->port,
					 strerror(r));
			r = -r;
			goto fail;
		}
	}
	return 0;
fail:
	/* What was made so far, in reverse. */
	perf_end_destroy(e);
	return r;
}

void perf_end_destroy(struct perf_end *e)
{
	if (!e->dev)
		return;
	for (unsigned i = e->nqp; i-- > 0;)
		perf_end_destroy_cm_qp(e, i);
	for (unsigned i = e->nqp; i-- > 0;)
		if (e->qp[i] && ibv_destroy_qp(e->qp[i]))
			fprintf(stderr,
				"rdmadiag: warning: destroying QP %#x "
				"failed\n",
				e->qp[i]->qp_num);
	if (e->rcq)
		ibv_destroy_cq(e->rcq);
	if (e->scq)
		ibv_destroy_cq(e->scq);
	perf_buf_dereg(&e->buf, &e->mr);
	free(e->qp);
	free(e->mine);
	free(e->peer);
	free(e->cm_id);
	memset(e, 0, sizeof(*e));
}

static int to_rtr(struct perf_end *e, unsigned i, enum ibv_mtu mtu,
		  int sgid_index)
{
	const struct perf_oob_keys *p = &e->peer[i];
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = p->qpn,
		.rq_psn = p->psn,
		.max_dest_rd_atomic = (uint8_t)(e->mine[i].out_reads > 255
							? 255
							: e->mine[i].out_reads),
		.min_rnr_timer = 12,
		.ah_attr = { .dlid = (uint16_t)p->lid,
			     .sl = e->sl,
			     .port_num = e->dev->port },
	};

	if (sgid_index >= 0) {
		a.ah_attr.is_global = 1;
		memcpy(a.ah_attr.grh.dgid.raw, p->gid, 16);
		a.ah_attr.grh.sgid_index = (uint8_t)sgid_index;
		a.ah_attr.grh.hop_limit = 0xff;
		a.ah_attr.grh.traffic_class = e->traffic_class;
	}
	return ibv_modify_qp(e->qp[i], &a,
			     IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				     IBV_QP_MAX_DEST_RD_ATOMIC |
				     IBV_QP_MIN_RNR_TIMER);
}

/* Record the kind of the failure err tells; returns r. */
static int failed_as(struct perf_fail *fail, int r, enum perf_fail_kind kind)
{
	if (fail)
		*fail = perf_fail_of(kind, -r);
	return r;
}

int perf_end_connect(struct perf_end *e, unsigned i, enum ibv_mtu mtu,
		     bool send_side, uint8_t qp_timeout, char *err,
		     size_t errlen, struct perf_fail *fail)
{
	struct perf_dev *d = e->dev;
	const struct perf_oob_keys *p = &e->peer[i];
	struct ibv_qp_attr a;
	int r;

	if (p->psn > 0xffffff) {
		rd_snprintf_text(err, errlen,
				 "QP %#x to RTR: PSN %#x from the peer is "
				 "wider than 24 bits",
				 e->qp[i]->qp_num, p->psn);
		return failed_as(fail, -EINVAL, PERF_FAIL_OOB);
	}
	if (d->roce && d->gid_index < 0) {
		rd_snprintf_text(err, errlen,
				 "QP %#x to RTR: RoCE needs a GID index "
				 "(-x)",
				 e->qp[i]->qp_num);
		return failed_as(fail, -EINVAL, PERF_FAIL_LOCAL);
	}
	if (d->gid_index >= 0) {
		union ibv_gid zero = { 0 };

		if (memcmp(p->gid, zero.raw, 16) == 0) {
			rd_snprintf_text(err, errlen,
					 "QP %#x to RTR: the peer sent an "
					 "empty GID (does it use a GID index?)",
					 e->qp[i]->qp_num);
			return failed_as(fail, -EINVAL, PERF_FAIL_OOB);
		}
	}
	r = to_rtr(e, i, mtu, d->gid_index);
	if (r) {
		/* Find the attribute: retry with the safest value of each. */
		const char *what = "dest QPN / PSN / address vector";

		if (mtu > IBV_MTU_256 &&
		    to_rtr(e, i, IBV_MTU_256, d->gid_index) == 0)
			what = "path MTU (too large for this port: use -m)";
		else if (d->gid_index > 0 && to_rtr(e, i, mtu, 0) == 0)
			what = "GID index (try another -x; see 'rdmadiag "
			       "snapshot' for the GID table)";
		rd_snprintf_text(
			err, errlen,
			"QP %#x to RTR failed: %s; the culprit is the %s. "
			"Used: "
			"MTU %d, GID index %d, remote QPN %#x, remote PSN %#x, "
			"remote LID %#x",
			e->qp[i]->qp_num, strerror(r), what,
			perf_mtu_bytes((int)mtu), d->gid_index, p->qpn, p->psn,
			p->lid);
		return failed_as(fail, -r, PERF_FAIL_QP_RTR);
	}
	if (!send_side)
		return 0;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = e->mine[i].psn;
	a.timeout = qp_timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = (uint8_t)(p->out_reads > 255 ? 255 : p->out_reads);
	if (a.max_rd_atomic > d->attr.max_qp_init_rd_atom)
		a.max_rd_atomic = (uint8_t)d->attr.max_qp_init_rd_atom;
	r = ibv_modify_qp(e->qp[i], &a,
			  IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				  IBV_QP_MAX_QP_RD_ATOMIC);
	if (r) {
		rd_snprintf_text(
			err, errlen,
			"QP %#x to RTS failed: %s. Used: local PSN %#x, "
			"timeout %u, outstanding reads %u (device allows %d)",
			e->qp[i]->qp_num, strerror(r), a.sq_psn, a.timeout,
			a.max_rd_atomic, d->attr.max_qp_init_rd_atom);
		return failed_as(fail, -r, PERF_FAIL_QP_RTS);
	}
	return 0;
}

const char *perf_wc_hint(enum ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer never acknowledged: usually a wrong GID or "
		       "route (check -x and the GID type on both sides), the "
		       "peer QP is gone, or packets are dropped (no PFC/ECN "
		       "on a lossy RoCE fabric)";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive buffer posted: are both "
		       "sides running the same test with the same -n/-s?";
	case IBV_WC_REM_ACCESS_ERR:
		return "the peer rejected the rkey/address: its buffer is "
		       "smaller than -s, or its memory lacks remote access";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the peer rejected the request: message larger than "
		       "its receive buffer, or the operation is not enabled "
		       "on its QP";
	case IBV_WC_LOC_LEN_ERR:
		return "a message was larger than the posted receive buffer: "
		       "use the same -s on both sides";
	case IBV_WC_LOC_PROT_ERR:
		return "local buffer outside the registered memory";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed after an earlier error moved the QP to ERROR";
	case IBV_WC_REM_OP_ERR:
		return "the peer could not complete the operation";
	case IBV_WC_LOC_QP_OP_ERR:
		return "the local QP was asked for something its state or "
		       "capabilities do not allow (inline size, SGE count)";
	default:
		return "see the device's documentation for this status";
	}
}
