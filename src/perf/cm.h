/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perftest's -R: QPs connected through librdmacm. perftest then opens no
 * TCP socket: its out-of-band messages (the same ones, in the same order)
 * travel as SENDs on one more RC QP, itself connected through rdma_cm on
 * the test's port, and a QP's keys travel as its binary struct, big-endian,
 * instead of text. The data QPs connect afterwards to the same port, one
 * rdma_cm connection each, with no private data; the goodbye has no "done".
 */
#ifndef RD_PERF_CM_H
#define RD_PERF_CM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "perf/oob.h"

/* perftest's struct pingpong_dest on LP64: lid, out_reads, qpn, psn, rkey
 * (4 bytes each), 4 of padding, vaddr (8), gid (16), srqn, gid_index. */
#define PERF_CM_KEYS_LEN 56
#define PERF_CM_MSG_MAX 64 /* the largest control message plus room */

int perf_cm_keys_encode(const struct perf_oob_keys *k, uint8_t *buf,
			size_t len);
/* 0, or -EPROTO with a sentence in err (a length other than 56). */
int perf_cm_keys_decode(const uint8_t *buf, size_t len,
			struct perf_oob_keys *k, char *err, size_t errlen);

struct ibv_context;
struct ibv_pd;
struct perf_end;

struct perf_cm {
	struct rdma_event_channel *ch;	/* the control connection's */
	struct rdma_cm_id *listen, *id;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;	/* receive slot, then send slot */
	bool client;
	bool gone;	/* the peer disconnected */
	/* A receive that completed while a send was awaited: the peer's
	 * next message, already in the receive slot. */
	bool recv_held;
	uint32_t recv_len;
	struct sockaddr_in addr; /* the server's (client) or bound address */
	struct rdma_event_channel *dch; /* the data QPs' connections */
	struct rdma_cm_id *qlisten;	/* server: listening for them */
	volatile sig_atomic_t *stop;
	int timeout_ms;	/* a send the peer never takes; 0: no limit */
	char err[300];
	struct perf_fail fail;	/* the kind of the failure err tells */
};

void perf_cm_init(struct perf_cm *c, volatile sig_atomic_t *stop);
/* The control connection, on verbs (the device -d names) and pd. */
int perf_cm_connect(struct perf_cm *c, struct ibv_context *verbs,
		    struct ibv_pd *pd, const char *host, uint16_t port,
		    int timeout_ms);
/* Server: wait (until *stop) for one client; bind_addr NULL: any. */
int perf_cm_accept(struct perf_cm *c, struct ibv_context *verbs,
		   struct ibv_pd *pd, const char *bind_addr, uint16_t port);
/* One control message of exactly len bytes. */
int perf_cm_read(struct perf_cm *c, void *buf, size_t len, int timeout_ms,
		 const char *what);
int perf_cm_write(struct perf_cm *c, const void *buf, size_t len,
		  const char *what);
bool perf_cm_peer_gone(struct perf_cm *c);
/* Carry o's messages on c's control QP from now on. */
void perf_cm_carry_oob(struct perf_cm *c, struct perf_oob *o);

/*
 * Server: listen for the connections of e's QPs, before the message that
 * lets the client make them (perftest's client does not retry one that
 * finds no listener). Client: nothing. 0 or -errno, c->err set.
 */
int perf_cm_listen_qps(struct perf_cm *c, struct perf_end *e);
/* Connect every QP of e (made with cfg.cm) to the peer; tos < 0: rdma_cm's
 * default; out_reads > 0 for READ tests (responder resources). The server
 * listens now unless perf_cm_listen_qps did. */
int perf_cm_connect_qps(struct perf_cm *c, struct perf_end *e, int tos,
			unsigned out_reads, int timeout_ms);
/* Disconnect and destroy the data QPs' ids (their QPs first). */
void perf_cm_close_qps(struct perf_cm *c, struct perf_end *e);
void perf_cm_close(struct perf_cm *c);

/* What an rdma_cm event that ended a connection means, one sentence. */
const char *perf_cm_event_hint(int event, int status);

#endif
