// SPDX-License-Identifier: GPL-2.0-or-later
/* perftest's -R, both ways: see cm.h for what travels where. */
#include "config.h"
#include "perf/cm.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"
#include "perf/verbs.h"

#define CM_RESOLVE_MS 2000 /* perftest's address and route timeouts */
#define CM_RETRY_US 100000 /* between refused connects, as perftest */

int perf_cm_keys_encode(const struct perf_oob_keys *k, uint8_t *buf,
			size_t len)
{
	uint64_t va = htobe64(k->vaddr);

	if (len < PERF_CM_KEYS_LEN)
		return -ENOSPC;
	memset(buf, 0, PERF_CM_KEYS_LEN);
	perf_oob_put_be32(buf + 0, k->lid);
	perf_oob_put_be32(buf + 4, k->out_reads);
	perf_oob_put_be32(buf + 8, k->qpn);
	perf_oob_put_be32(buf + 12, k->psn);
	perf_oob_put_be32(buf + 16, k->rkey);
	memcpy(buf + 24, &va, 8);
	memcpy(buf + 32, k->gid, 16);
	perf_oob_put_be32(buf + 48, k->srqn);
	return PERF_CM_KEYS_LEN;
}

int perf_cm_keys_decode(const uint8_t *buf, size_t len,
			struct perf_oob_keys *k, char *err, size_t errlen)
{
	uint64_t va;

	if (len != PERF_CM_KEYS_LEN) {
		snprintf(err, errlen,
			 "QP keys of %zu bytes, expected %d (perftest's -R "
			 "sends its binary struct)",
			 len, PERF_CM_KEYS_LEN);
		return -EPROTO;
	}
	memset(k, 0, sizeof(*k));
	k->lid = perf_oob_get_be32(buf + 0);
	k->out_reads = perf_oob_get_be32(buf + 4);
	k->qpn = perf_oob_get_be32(buf + 8);
	k->psn = perf_oob_get_be32(buf + 12);
	k->rkey = perf_oob_get_be32(buf + 16);
	memcpy(&va, buf + 24, 8);
	k->vaddr = be64toh(va);
	memcpy(k->gid, buf + 32, 16);
	k->srqn = perf_oob_get_be32(buf + 48);
	if (k->qpn > 0xffffff || k->psn > 0xffffff || k->lid > 0xffff) {
		snprintf(err, errlen,
			 "QP keys out of range (QPN %#x, PSN %#x, LID %#x): "
			 "not perftest's struct",
			 k->qpn, k->psn, k->lid);
		return -EPROTO;
	}
	return 0;
}

const char *perf_cm_event_hint(int event, int status)
{
	switch (event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
		return "no RDMA device reaches that address: is it the IPv4 "
		       "address of a netdev with an RDMA port, up, on both "
		       "sides?";
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return "no route to the peer (ARP or neighbour resolution "
		       "failed?)";
	case RDMA_CM_EVENT_REJECTED:
		/* The CM's reject reasons: 8 no listener on the port (the
		 * service ID), 28 refused by the application. */
		return status == 8
			       ? "nothing listens there through rdma_cm: is "
				 "the server running, with -R, on that port?"
			       : "the peer refused the connection: is it "
				 "running the same test, with -R, and free "
				 "for one more client?";
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return "the connection request got no answer: the peer's "
		       "rdma_cm uses another RoCE mode or GID type (configfs "
		       "rdma_cm/<dev>/ports/<port>/default_roce_mode; "
		       "'rdmadiag diff' of both snapshots names it), or the "
		       "network drops RoCE";
	default:
		return "see the peer's output";
	}
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void perf_cm_init(struct perf_cm *c, volatile sig_atomic_t *stop)
{
	memset(c, 0, sizeof(*c));
	c->stop = stop;
	c->fail = PERF_FAIL_INIT;
}

/* The kind of the failure c->err now tells; returns r. */
static int cm_failed(struct perf_cm *c, int r, enum perf_fail_kind kind)
{
	c->fail = perf_fail_of(kind, r < 0 ? -r : 0);
	return r;
}

/* rdma_cm answered what with ev instead: said in c->err. */
static int cm_event_failed(struct perf_cm *c, const char *what,
			   const struct rdma_cm_event *ev)
{
	int r = ev->event == RDMA_CM_EVENT_REJECTED ? -ECONNREFUSED
		: ev->event == RDMA_CM_EVENT_UNREACHABLE ||
				ev->event == RDMA_CM_EVENT_CONNECT_ERROR
			? -EHOSTUNREACH
			: -EPROTO;

	rd_snprintf_text(c->err, sizeof(c->err),
			 "%s: rdma_cm reported %s (status %d): %s", what,
			 rdma_event_str(ev->event), ev->status,
			 perf_cm_event_hint(ev->event, ev->status));
	c->fail = perf_fail_of(PERF_FAIL_CM_EVENT, -r);
	c->fail.cm_event = (int)ev->event;
	c->fail.cm_status = ev->status;
	return r;
}

static struct rdma_event_channel *new_channel(struct perf_cm *c)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	int fl;

	if (!ch) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "rdma_create_event_channel: %s (is rdma_ucm "
				 "loaded?)",
				 strerror(errno));
		cm_failed(c, -errno, PERF_FAIL_CM);
		return NULL;
	}
	fl = fcntl(ch->fd, F_GETFL);
	if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		rd_snprintf_text(c->err, sizeof(c->err), "rdma_cm channel: %s",
				 strerror(errno));
		cm_failed(c, -errno, PERF_FAIL_CM);
		rdma_destroy_event_channel(ch);
		return NULL;
	}
	return ch;
}

static int new_id(struct perf_cm *c, struct rdma_event_channel *ch,
		  struct rdma_cm_id **id)
{
	if (rdma_create_id(ch, id, NULL, RDMA_PS_TCP) == 0)
		return 0;
	rd_snprintf_text(c->err, sizeof(c->err), "rdma_create_id: %s",
			 strerror(errno));
	return cm_failed(c, -errno, PERF_FAIL_CM);
}

/* The next event on ch within timeout_ms (< 0: until *stop). */
static int next_event(struct perf_cm *c, struct rdma_event_channel *ch,
		      int timeout_ms, const char *what,
		      struct rdma_cm_event **ev)
{
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd p = { .fd = ch->fd, .events = POLLIN };
		int64_t left = deadline - now_ms();

		if (c->stop && *c->stop) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "interrupted while waiting for %s",
					 what);
			return cm_failed(c, -EINTR, PERF_FAIL_STOPPED);
		}
		if (rdma_get_cm_event(ch, ev) == 0)
			return 0;
		if (errno != EAGAIN && errno != EINTR) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "rdma_get_cm_event: %s",
					 strerror(errno));
			return cm_failed(c, -errno, PERF_FAIL_CM);
		}
		if (timeout_ms >= 0 && left <= 0) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "no rdma_cm event for %s in %d ms",
					 what, timeout_ms);
			return cm_failed(c, -ETIMEDOUT, PERF_FAIL_CM);
		}
		poll(&p, 1, (timeout_ms < 0 || left > 200) ? 200 : (int)left);
	}
}

/* Wait for want; another event is acknowledged and explained. */
static int expect_event(struct perf_cm *c, struct rdma_event_channel *ch,
			enum rdma_cm_event_type want, int timeout_ms,
			const char *what, struct rdma_cm_event **out)
{
	struct rdma_cm_event *ev;
	int r = next_event(c, ch, timeout_ms, what, &ev);

	if (r < 0)
		return r;
	if (ev->event == want) {
		if (out)
			*out = ev;
		else
			rdma_ack_cm_event(ev);
		return 0;
	}
	r = cm_event_failed(c, what, ev);
	rdma_ack_cm_event(ev);
	return r;
}

static int resolve(struct perf_cm *c, struct rdma_event_channel *ch,
		   struct rdma_cm_id *id, int tos)
{
	char host[INET_ADDRSTRLEN] = "?";
	int r;

	inet_ntop(AF_INET, &c->addr.sin_addr, host, sizeof(host));
	if (rdma_resolve_addr(id, NULL, (struct sockaddr *)&c->addr,
			      CM_RESOLVE_MS)) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "rdma_resolve_addr(%s): %s", host,
				 strerror(errno));
		return cm_failed(c, -errno, PERF_FAIL_CM);
	}
	r = expect_event(c, ch, RDMA_CM_EVENT_ADDR_RESOLVED, CM_RESOLVE_MS * 2,
			 "the peer's address", NULL);
	if (r < 0)
		return r;
	if (tos >= 0) {
		uint8_t t = (uint8_t)tos;

		if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &t,
				    sizeof(t))) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "rdma_cm ToS %d: %s", tos,
					 strerror(errno));
			return cm_failed(c, -errno, PERF_FAIL_CM);
		}
	}
	if (rdma_resolve_route(id, CM_RESOLVE_MS)) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "rdma_resolve_route(%s): %s", host,
				 strerror(errno));
		return cm_failed(c, -errno, PERF_FAIL_CM);
	}
	return expect_event(c, ch, RDMA_CM_EVENT_ROUTE_RESOLVED,
			    CM_RESOLVE_MS * 2, "the route to the peer", NULL);
}

/* rdma_cm picked the device by address: it must be the one under test. */
static int same_device(struct perf_cm *c, struct rdma_cm_id *id,
		       struct ibv_context *verbs)
{
	if (id->verbs == verbs)
		return 0;
	rd_snprintf_text(
		c->err, sizeof(c->err),
		"rdma_cm reaches the peer through %s, not %s: give -d %s, or "
		"the address of %s's netdev",
		id->verbs ? ibv_get_device_name(id->verbs->device)
			  : "no device",
		ibv_get_device_name(verbs->device),
		id->verbs ? ibv_get_device_name(id->verbs->device) : "?",
		ibv_get_device_name(verbs->device));
	return cm_failed(c, -ENODEV, PERF_FAIL_LOCAL);
}

static int post_recv(struct perf_cm *c)
{
	struct ibv_sge sge = { .addr = (uintptr_t)c->buf,
			       .length = PERF_CM_MSG_MAX,
			       .lkey = c->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int r = ibv_post_recv(c->id->qp, &wr, &bad);

	if (!r)
		return 0;
	rd_snprintf_text(c->err, sizeof(c->err),
			 "control QP: ibv_post_recv: %s", strerror(r));
	return cm_failed(c, -r, PERF_FAIL_CM);
}

/* The control QP on c->id, which must be on verbs, with one receive
 * posted. */
static int control_qp(struct perf_cm *c, struct ibv_context *verbs,
		      struct ibv_pd *pd)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	int r = same_device(c, c->id, verbs);

	if (r < 0)
		return r;
	r = perf_buf_reg(pd, 2 * PERF_CM_MSG_MAX, IBV_ACCESS_LOCAL_WRITE,
			 &c->buf, &c->mr, c->err, sizeof(c->err));
	if (r < 0)
		return cm_failed(c, r, PERF_FAIL_LOCAL);
	c->cq = ibv_create_cq(c->id->verbs, 8, NULL, NULL, 0);
	if (!c->cq) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "control QP: ibv_create_cq: %s",
				 strerror(errno));
		return cm_failed(c, -errno, PERF_FAIL_CM);
	}
	ia.send_cq = ia.recv_cq = c->cq;
	if (rdma_create_qp(c->id, pd, &ia)) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "control QP: rdma_create_qp: %s",
				 strerror(errno));
		return cm_failed(c, -errno, PERF_FAIL_CM);
	}
	return post_recv(c);
}

static void control_free(struct perf_cm *c)
{
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	perf_buf_dereg(&c->buf, &c->mr);
	c->cq = NULL;
	c->recv_held = false;
	if (c->id)
		rdma_destroy_id(c->id);
	c->id = NULL;
}

static int sockaddr_of(struct perf_cm *c, const char *host, uint16_t port)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	int r;

	memset(&c->addr, 0, sizeof(c->addr));
	c->addr.sin_family = AF_INET;
	c->addr.sin_port = htons(port);
	if (!host)
		return 0;
	r = getaddrinfo(host, NULL, &hints, &res);
	if (r || !res) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "cannot resolve %s to an IPv4 address: %s",
				 host, gai_strerror(r));
		return cm_failed(c, -EHOSTUNREACH, PERF_FAIL_CM);
	}
	c->addr.sin_addr = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

/* Either side's first steps: the address, then the control channel. */
static int start(struct perf_cm *c, bool client, const char *host,
		 uint16_t port)
{
	int r;

	c->client = client;
	r = sockaddr_of(c, host, port);
	if (r < 0)
		return r;
	c->ch = new_channel(c);
	return c->ch ? 0 : -ENOMEM;
}

static struct rdma_conn_param conn_param(unsigned out_reads)
{
	struct rdma_conn_param p = { .retry_count = 7, .rnr_retry_count = 7 };

	if (out_reads) {
		p.responder_resources = (uint8_t)out_reads;
		p.initiator_depth = (uint8_t)out_reads;
	}
	return p;
}

int perf_cm_connect(struct perf_cm *c, struct ibv_context *verbs,
		    struct ibv_pd *pd, const char *host, uint16_t port,
		    int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int r;

	r = start(c, true, host, port);
	if (r < 0)
		return r;
	for (;;) {
		struct rdma_conn_param cp = conn_param(0);

		r = new_id(c, c->ch, &c->id);
		if (r < 0)
			return r;
		r = resolve(c, c->ch, c->id, -1);
		if (r == 0)
			r = control_qp(c, verbs, pd);
		if (r == 0 && rdma_connect(c->id, &cp)) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "rdma_connect: %s", strerror(errno));
			r = cm_failed(c, -errno, PERF_FAIL_CM);
		}
		if (r == 0)
			r = expect_event(c, c->ch, RDMA_CM_EVENT_ESTABLISHED,
					 timeout_ms, "the connection", NULL);
		if (r == 0)
			return 0;
		/* A server not listening yet refuses: try again a while. */
		if (r != -ECONNREFUSED || now_ms() > deadline)
			break;
		control_free(c);
		usleep(CM_RETRY_US);
	}
	snprintf(c->err + strlen(c->err), sizeof(c->err) - strlen(c->err),
		 " (%s port %u)", host, port);
	return r;
}

int perf_cm_accept(struct perf_cm *c, struct ibv_context *verbs,
		   struct ibv_pd *pd, const char *bind_addr, uint16_t port)
{
	struct rdma_cm_event *ev = NULL;
	struct rdma_conn_param cp = conn_param(0);
	int r;

	r = start(c, false, bind_addr, port);
	if (r == 0)
		r = new_id(c, c->ch, &c->listen);
	if (r < 0)
		return r;
	if (rdma_bind_addr(c->listen, (struct sockaddr *)&c->addr) ||
	    rdma_listen(c->listen, 1)) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "rdma_cm cannot listen on %s port %u: %s%s",
				 bind_addr ? bind_addr : "every address", port,
				 strerror(errno),
				 errno == EADDRINUSE ? " (another server runs?)"
						     : "");
		return cm_failed(c, -errno, PERF_FAIL_CM);
	}
	r = expect_event(c, c->ch, RDMA_CM_EVENT_CONNECT_REQUEST, -1,
			 "a client", &ev);
	if (r < 0)
		return r;
	c->id = ev->id;
	r = control_qp(c, verbs, pd);
	if (r == 0 && rdma_accept(c->id, &cp)) {
		rd_snprintf_text(c->err, sizeof(c->err), "rdma_accept: %s",
				 strerror(errno));
		r = cm_failed(c, -errno, PERF_FAIL_CM);
	}
	if (r < 0)
		rdma_reject(c->id, NULL, 0);
	rdma_ack_cm_event(ev);
	/* One client per run: others are refused from now on. */
	rdma_destroy_id(c->listen);
	c->listen = NULL;
	return r;
}

/* One completion of the control QP: a receive when recv, else a send. */
static int control_wait(struct perf_cm *c, bool recv, int timeout_ms,
			const char *what, struct ibv_wc *wc)
{
	int64_t deadline = now_ms() + timeout_ms;
	unsigned spins = 0;

	for (;;) {
		int n = ibv_poll_cq(c->cq, 1, wc);

		if (n < 0) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "control QP: ibv_poll_cq failed");
			return cm_failed(c, -EIO, PERF_FAIL_CM);
		}
		if (n == 1) {
			if (wc->status != IBV_WC_SUCCESS) {
				rd_snprintf_text(c->err, sizeof(c->err),
						 "control QP: %s %s failed: %s "
						 "(peer gone?)",
						 recv ? "receiving" : "sending",
						 what,
						 ibv_wc_status_str(wc->status));
				return cm_failed(c, -ECONNRESET, PERF_FAIL_CM);
			}
			if (recv == ((wc->opcode & IBV_WC_RECV) != 0))
				return 0;
			/* The peer's reply can overtake the ACK of our
			 * send: keep it for the read that follows. */
			if (!recv) {
				c->recv_len = wc->byte_len;
				c->recv_held = true;
			}
			continue;
		}
		if (c->stop && *c->stop) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "interrupted while waiting for %s",
					 what);
			return cm_failed(c, -EINTR, PERF_FAIL_STOPPED);
		}
		if (perf_cm_peer_gone(c)) {
			rd_snprintf_text(c->err, sizeof(c->err),
					 "the peer disconnected before %s",
					 what);
			return cm_failed(c, -ECONNRESET, PERF_FAIL_CM);
		}
		if (timeout_ms >= 0 && now_ms() > deadline) {
			rd_snprintf_text(
				c->err, sizeof(c->err),
				"nothing from the peer for %d ms while "
				"%s %s (peer silent, or not running the "
				"same test?)",
				timeout_ms, recv ? "waiting for" : "sending",
				what);
			return cm_failed(c, -ETIMEDOUT, PERF_FAIL_CM);
		}
		/* Spin briefly, then let a Soft-RoCE peer on this CPU run. */
		if (++spins > 2000)
			usleep(200);
	}
}

int perf_cm_read(struct perf_cm *c, void *buf, size_t len, int timeout_ms,
		 const char *what)
{
	struct ibv_wc wc;
	int r;

	if (!c->id || !c->cq) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "no rdma_cm control connection");
		return cm_failed(c, -ENOTCONN, PERF_FAIL_CM);
	}
	if (c->recv_held) {
		wc.byte_len = c->recv_len;
		c->recv_held = false;
	} else {
		r = control_wait(c, true, timeout_ms, what, &wc);
		if (r < 0)
			return r;
	}
	if (wc.byte_len != len) {
		rd_snprintf_text(
			c->err, sizeof(c->err),
			"peer sent %u bytes as %s, expected %zu (is it "
			"running the same test, with -R?)",
			wc.byte_len, what, len);
		return cm_failed(c, -EPROTO, PERF_FAIL_CM);
	}
	memcpy(buf, c->buf, len);
	return post_recv(c);
}

int perf_cm_write(struct perf_cm *c, const void *buf, size_t len,
		  const char *what)
{
	uint8_t *slot = c->buf + PERF_CM_MSG_MAX;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED,
				  .sg_list = &sge,
				  .num_sge = 1 },
			   *bad;
	struct ibv_wc wc;
	int r;

	if (!c->id || !c->cq || len > PERF_CM_MSG_MAX) {
		rd_snprintf_text(
			c->err, sizeof(c->err),
			"cannot send %s on the rdma_cm control connection",
			what);
		return cm_failed(c, -EINVAL, PERF_FAIL_CM);
	}
	memcpy(slot, buf, len);
	sge = (struct ibv_sge){ .addr = (uintptr_t)slot,
				.length = (uint32_t)len,
				.lkey = c->mr->lkey };
	r = ibv_post_send(c->id->qp, &wr, &bad);
	if (r) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "control QP: sending %s: %s", what,
				 strerror(r));
		return cm_failed(c, -r, PERF_FAIL_CM);
	}
	/* rnr_retry 7 waits for the peer's receive for ever: bound it. */
	return control_wait(c, false, c->timeout_ms > 0 ? c->timeout_ms : -1,
			    what, &wc);
}

bool perf_cm_peer_gone(struct perf_cm *c)
{
	struct rdma_cm_event *ev;

	if (!c->ch)
		return false;
	while (!c->gone && rdma_get_cm_event(c->ch, &ev) == 0) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED ||
		    ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			c->gone = true;
		rdma_ack_cm_event(ev);
	}
	return c->gone;
}

/* QP i of e on id, which must be on e's device. */
static int test_qp(struct perf_cm *c, struct perf_end *e, unsigned i,
		   struct rdma_cm_id *id)
{
	int r = same_device(c, id, e->dev->ctx);

	if (r == 0)
		r = perf_end_create_cm_qp(e, i, id, c->err, sizeof(c->err));
	return r < 0 ? cm_failed(c, r, PERF_FAIL_LOCAL) : 0;
}

int perf_cm_listen_qps(struct perf_cm *c, struct perf_end *e)
{
	int r;

	if (c->client || c->qlisten)
		return 0;
	c->dch = new_channel(c);
	if (!c->dch)
		return -ENOMEM;
	r = new_id(c, c->dch, &c->qlisten);
	if (r < 0)
		return r;
	if (rdma_bind_addr(c->qlisten, (struct sockaddr *)&c->addr) ||
	    rdma_listen(c->qlisten, (int)e->nqp)) {
		rd_snprintf_text(c->err, sizeof(c->err),
				 "rdma_cm cannot listen for the test QPs: %s",
				 strerror(errno));
		r = cm_failed(c, -errno, PERF_FAIL_CM);
		rdma_destroy_id(c->qlisten);
		c->qlisten = NULL;
	}
	return r;
}

int perf_cm_connect_qps(struct perf_cm *c, struct perf_end *e, int tos,
			unsigned out_reads, int timeout_ms)
{
	struct rdma_conn_param cp = conn_param(out_reads);
	struct ibv_qp_attr rnr = { .min_rnr_timer = 12 };
	struct rdma_cm_id *listen = NULL;
	unsigned accepted = 0, established = 0;
	int r = 0;

	if (!c->client && !c->qlisten) {
		r = perf_cm_listen_qps(c, e);
		if (r < 0)
			return r;
	}
	if (!c->dch)
		c->dch = new_channel(c);
	if (!c->dch)
		return -ENOMEM;
	if (c->client) {
		for (unsigned i = 0; i < e->nqp; i++) {
			int64_t deadline = now_ms() + timeout_ms;

			for (;;) {
				struct rdma_cm_id *id;

				r = new_id(c, c->dch, &id);
				if (r < 0)
					return r;
				r = resolve(c, c->dch, id, tos);
				if (r == 0)
					r = test_qp(c, e, i, id);
				if (r == 0 && rdma_connect(id, &cp)) {
					rd_snprintf_text(c->err, sizeof(c->err),
							 "rdma_connect: %s",
							 strerror(errno));
					r = cm_failed(c, -errno, PERF_FAIL_CM);
				}
				if (r == 0)
					r = expect_event(
						c, c->dch,
						RDMA_CM_EVENT_ESTABLISHED,
						timeout_ms,
						"the test QP's connection",
						NULL);
				if (r == 0)
					break;
				perf_end_destroy_cm_qp(e, i);
				rdma_destroy_id(id);
				if (r != -ECONNREFUSED || now_ms() > deadline)
					return r;
				usleep(CM_RETRY_US);
			}
		}
		return 0;
	}
	listen = c->qlisten;
	c->qlisten = NULL;
	while (r == 0 && (accepted < e->nqp || established < e->nqp)) {
		struct rdma_cm_event *ev;

		r = next_event(c, c->dch, timeout_ms, "the test QPs", &ev);
		if (r < 0)
			break;
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    accepted < e->nqp) {
			r = test_qp(c, e, accepted, ev->id);
			if (r == 0 && rdma_accept(ev->id, &cp)) {
				rd_snprintf_text(c->err, sizeof(c->err),
						 "rdma_accept: %s",
						 strerror(errno));
				r = cm_failed(c, -errno, PERF_FAIL_CM);
			}
			if (r < 0) {
				struct rdma_cm_id *id = ev->id;

				rdma_reject(id, NULL, 0);
				perf_end_destroy_cm_qp(e, accepted);
				/* An id goes only after its events. */
				rdma_ack_cm_event(ev);
				rdma_destroy_id(id);
				break;
			} else {
				ibv_modify_qp(e->qp[accepted], &rnr,
					      IBV_QP_MIN_RNR_TIMER);
				accepted++;
			}
		} else if (ev->event == RDMA_CM_EVENT_ESTABLISHED) {
			established++;
		} else {
			r = cm_event_failed(c, "test QP's connection", ev);
		}
		rdma_ack_cm_event(ev);
	}
	rdma_destroy_id(listen);
	return r;
}

/* The test QPs' listen, if it is still there, and their event channel. */
static void close_data_channel(struct perf_cm *c)
{
	if (c->qlisten)
		rdma_destroy_id(c->qlisten);
	c->qlisten = NULL;
	if (c->dch)
		rdma_destroy_event_channel(c->dch);
	c->dch = NULL;
}

void perf_cm_close_qps(struct perf_cm *c, struct perf_end *e)
{
	for (unsigned i = 0; e->cm_id && i < e->nqp; i++) {
		struct rdma_cm_id *id = e->cm_id[i];

		if (!id)
			continue;
		rdma_disconnect(id);
		perf_end_destroy_cm_qp(e, i);
		rdma_destroy_id(id);
	}
	close_data_channel(c);
}

void perf_cm_close(struct perf_cm *c)
{
	if (c->id)
		rdma_disconnect(c->id);
	control_free(c);
	if (c->listen)
		rdma_destroy_id(c->listen);
	c->listen = NULL;
	/* A listen for the test QPs that never took them (a failed run). */
	close_data_channel(c);
	if (c->ch)
		rdma_destroy_event_channel(c->ch);
	c->ch = NULL;
}

static int carrier_read(void *ctx, void *buf, size_t len, int timeout_ms,
			const char *what)
{
	return perf_cm_read(ctx, buf, len, timeout_ms, what);
}

static int carrier_write(void *ctx, const void *buf, size_t len,
			 const char *what)
{
	return perf_cm_write(ctx, buf, len, what);
}

static bool carrier_peer_gone(void *ctx)
{
	return perf_cm_peer_gone(ctx);
}

static const char *carrier_err(void *ctx)
{
	return ((struct perf_cm *)ctx)->err;
}

static const struct perf_fail *carrier_fail(void *ctx)
{
	return &((struct perf_cm *)ctx)->fail;
}

static const struct perf_oob_carrier cm_carrier = {
	.read = carrier_read,
	.write = carrier_write,
	.peer_gone = carrier_peer_gone,
	.err = carrier_err,
	.fail = carrier_fail,
	.msg_max = PERF_CM_MSG_MAX,
};

void perf_cm_carry_oob(struct perf_cm *c, struct perf_oob *o)
{
	o->carrier = &cm_carrier;
	o->carrier_ctx = c;
}
