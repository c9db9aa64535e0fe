/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verbs resources for the perf tests: device, shared CQs, RC QPs, one MR. */
#ifndef RD_PERF_VERBS_H
#define RD_PERF_VERBS_H

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/oob.h"

struct perf_dev {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_device_attr attr;
	struct ibv_port_attr port_attr;
	uint8_t port;
	bool roce;     /* Ethernet link layer: GRH required */
	int gid_index; /* -1: no GRH (InfiniBand without -x) */
	union ibv_gid gid;
	char name[IBV_SYSFS_NAME_MAX];
	bool cm_ctx; /* ctx is librdmacm's: not ours to close */
};

/* One side of a test: n RC QPs sharing a send CQ, a receive CQ and an MR.
 * QP i owns 2 slots of the buffer: [local | remote-visible/receive]. */
struct perf_end {
	struct perf_dev *dev;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp **qp;
	unsigned nqp;
	struct ibv_mr *mr;
	uint8_t *buf;
	size_t slot;
	unsigned max_inline;
	unsigned tx_depth, rx_depth, out_reads;
	uint8_t sl, traffic_class; /* of the address vector */
	struct perf_oob_keys *mine, *peer;
	struct rdma_cm_id **cm_id; /* QP i made on cm_id[i], else NULL */
};

struct perf_end_cfg {
	unsigned nqp;
	size_t slot; /* bytes per half, >= largest message */
	unsigned tx_depth;
	unsigned rx_depth;
	unsigned inline_size;
	unsigned out_reads; /* advertised; 0 for tests without READ */
	uint8_t sl, traffic_class;
	bool cm;	    /* QPs come later, one per rdma_cm id */
};

struct rdma_cm_id;

int perf_dev_open(struct perf_dev *d, const char *name, unsigned port,
		  char *err, size_t errlen);
/* The same on librdmacm's context of the device, for -R: rdma_cm ids
 * resolved to it share that context, so QPs on them can use d->pd. */
int perf_dev_open_cm(struct perf_dev *d, const char *name, unsigned port,
		     char *err, size_t errlen);
void perf_dev_close(struct perf_dev *d);
/* Query and cache the GID at index (sets d->gid_index). */
int perf_dev_set_gid(struct perf_dev *d, int index, char *err, size_t errlen);

/*
 * len zeroed, page-aligned bytes registered on pd with access: *buf and
 * *mr, or -errno with err set and nothing left allocated.
 */
int perf_buf_reg(struct ibv_pd *pd, size_t len, int access, uint8_t **buf,
		 struct ibv_mr **mr, char *err, size_t errlen);
/* Undo perf_buf_reg (either may be NULL); both are NULL after. */
void perf_buf_dereg(uint8_t **buf, struct ibv_mr **mr);

int perf_end_create(struct perf_dev *d, struct perf_end *e,
		    const struct perf_end_cfg *cfg, char *err, size_t errlen);
void perf_end_destroy(struct perf_end *e);
/* cfg.cm: QP i on id, which connects it (INIT..RTS); its keys filled. */
int perf_end_create_cm_qp(struct perf_end *e, unsigned i,
			  struct rdma_cm_id *id, char *err, size_t errlen);
/* Undo perf_end_create_cm_qp (perf_end_destroy does it for every one). */
void perf_end_destroy_cm_qp(struct perf_end *e, unsigned i);

static inline uint8_t *perf_end_local(const struct perf_end *e, unsigned i)
{
	return e->buf + 2 * (size_t)i * e->slot;
}
static inline uint8_t *perf_end_remote(const struct perf_end *e, unsigned i)
{
	return e->buf + (2 * (size_t)i + 1) * e->slot;
}

/*
 * INIT -> RTR (-> RTS when send_side) against the peer's keys of QP i.
 * Errors name the attribute that is the likely cause; fail (NULL: not
 * wanted) gets their kind: PERF_FAIL_QP_RTR / _QP_RTS with the errno
 * ibv_modify_qp gave, or the keys the peer sent were unusable.
 */
int perf_end_connect(struct perf_end *e, unsigned i, enum ibv_mtu mtu,
		     bool send_side, uint8_t qp_timeout, char *err,
		     size_t errlen, struct perf_fail *fail);

/* What a completion status usually means on a RoCE/IB fabric. */
const char *perf_wc_hint(enum ibv_wc_status s);

int perf_mtu_bytes(int mtu_enum);
int perf_mtu_enum(unsigned bytes);

#endif
