// SPDX-License-Identifier: GPL-2.0-or-later
/* The reachability matrix: see matrix.h. */
#include "config.h"

#include "peer/matrix.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "core/escape.h"
#include "core/json_check.h"
#include "perf/verbs.h"
#include "peer/wire.h"

/* The message each pair carries. */
#define MSG_LEN 64
/* Retransmission timeout exponent: 4.096 us * 2^14, about 67 ms. */
#define QP_TIMEOUT 14

static const struct rd_json_limits matrix_limits = {
	.values = 400, .containers = 40, .depth = 4, .members = 40,
	.string = 256,
};

static bool gid_zero(const uint8_t *raw)
{
	static const uint8_t zero[16];

	return memcmp(raw, zero, 16) == 0;
}

static void cand_of(const struct rd_gid *g, struct rd_peer_cand *c)
{
	static const uint8_t v4pfx[12] = { [10] = 0xff, [11] = 0xff };

	memset(c, 0, sizeof(*c));
	c->index = (int64_t)g->index;
	c->v2 = strcmp(g->type, "RoCE v2") == 0;
	c->ipv4 = memcmp(g->raw, v4pfx, sizeof(v4pfx)) == 0;
	if (c->ipv4)
		inet_ntop(AF_INET, g->raw + 12, c->addr, sizeof(c->addr));
	else
		inet_ntop(AF_INET6, g->raw, c->addr, sizeof(c->addr));
}

size_t rd_peer_candidates(const struct rd_port *p, struct rd_peer_cand *out,
			  size_t max)
{
	size_t n = 0;

	/* IPv4 v2, IPv4 v1, IPv6 v2, IPv6 v1. */
	for (int pass = 0; pass < 4; pass++) {
		for (size_t i = 0; i < p->n_gids && n < max; i++) {
			const struct rd_gid *g = &p->gids[i];
			struct rd_peer_cand c;

			if (!g->raw_ok || gid_zero(g->raw) || !g->type ||
			    (strcmp(g->type, "RoCE v2") &&
			     strcmp(g->type, "IB/RoCE v1")))
				continue;
			cand_of(g, &c);
			if (c.ipv4 == (pass >= 2) || c.v2 == (pass % 2 == 1))
				continue;
			out[n++] = c;
		}
	}
	return n;
}

size_t rd_peer_pairs(const struct rd_peer_cand *a, size_t na,
		     const struct rd_peer_cand *b, size_t nb,
		     struct rd_peer_pair *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb && n < max; j++) {
			if (a[i].v2 != b[j].v2 || a[i].ipv4 != b[j].ipv4)
				continue;
			memset(&out[n], 0, sizeof(out[n]));
			out[n].a = a[i];
			out[n].b = b[j];
			snprintf(out[n].why, sizeof(out[n].why), "not tried");
			n++;
		}
	return n;
}

static void set_why(struct rd_peer_pair *p, enum rd_peer_result r,
		    const char *why)
{
	p->result = r;
	rd_esc(p->why, sizeof(p->why), why);
	rd_utf8_trim_cut(p->why);
}

/* A JSON frame from the peer, bounded and checked; NULL with err set. */
/* The peer's next frame (what names it in err), as a JSON object. */
static int recv_json(struct perf_oob *o, int timeout_ms, const char *what,
		     struct json_object **j, char *err, size_t errlen)
{
	char *text, why[256];
	size_t len;
	int r;

	*j = NULL;
	r = rd_peer_frame_recv(o, &text, &len, timeout_ms, what);
	if (r < 0) {
		rd_esc(err, errlen, o->err);
		return r;
	}
	r = rd_json_check(text, len, &matrix_limits, why, sizeof(why));
	if (r == 0)
		*j = json_tokener_parse(text);
	free(text);
	if (r < 0) {
		rd_esc(err, errlen, why);
		return -EPROTO;
	}
	if (!*j || !json_object_is_type(*j, json_type_object)) {
		snprintf(err, errlen, "the peer's answer is not a JSON object");
		json_object_put(*j);
		*j = NULL;
		return -EPROTO;
	}
	return 0;
}

static int send_json(struct perf_oob *o, struct json_object *j, char *err,
		     size_t errlen)
{
	const char *text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	int r = text ? rd_peer_frame_send(o, text, strlen(text), "the matrix") :
		       -ENOMEM;

	if (r < 0)
		rd_esc(err, errlen, text ? o->err : "out of memory");
	return r;
}

static bool get_u32(struct json_object *o, const char *key, uint32_t max,
		    uint32_t *v)
{
	struct json_object *x;
	int64_t n;

	if (!json_object_object_get_ex(o, key, &x) ||
	    !json_object_is_type(x, json_type_int))
		return false;
	n = json_object_get_int64(x);
	if (n < 0 || n > (int64_t)max)
		return false;
	*v = (uint32_t)n;
	return true;
}

static void keys_to_json(struct json_object *o, const struct perf_oob_keys *k)
{
	char hex[33];

	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", k->gid[i]);
	json_object_object_add(o, "qpn", json_object_new_int64(k->qpn));
	json_object_object_add(o, "psn", json_object_new_int64(k->psn));
	json_object_object_add(o, "lid", json_object_new_int64(k->lid));
	json_object_object_add(o, "gid", json_object_new_string(hex));
}

/* The peer's QP keys, every field checked. */
static bool keys_from_json(struct json_object *o, struct perf_oob_keys *k)
{
	struct json_object *g;
	const char *s;

	memset(k, 0, sizeof(*k));
	if (!get_u32(o, "qpn", 0xffffff, &k->qpn) ||
	    !get_u32(o, "psn", 0xffffff, &k->psn) ||
	    !get_u32(o, "lid", 0xffff, &k->lid) ||
	    !json_object_object_get_ex(o, "gid", &g) ||
	    !json_object_is_type(g, json_type_string))
		return false;
	s = json_object_get_string(g);
	if (strlen(s) != 32)
		return false;
	for (int i = 0; i < 16; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1 ||
		    !strchr("0123456789abcdefABCDEF", s[2 * i]) ||
		    !strchr("0123456789abcdefABCDEF", s[2 * i + 1]))
			return false;
		k->gid[i] = (uint8_t)v;
	}
	k->out_reads = 1;
	return !gid_zero(k->gid);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const struct perf_end_cfg end_cfg = {
	.nqp = 1, .slot = MSG_LEN, .tx_depth = 1, .rx_depth = 1,
};

/* One RC end on GID index idx of d. */
static int make_end(struct perf_dev *d, int64_t idx, struct perf_end *e,
		    char *err, size_t errlen)
{
	int r = perf_dev_set_gid(d, (int)idx, err, errlen);

	if (r == 0)
		r = perf_end_create(d, e, &end_cfg, err, errlen);
	return r;
}

static int connect_end(struct perf_end *e, int64_t idx, enum ibv_mtu mtu,
		       bool send_side, char *err, size_t errlen)
{
	int r = perf_dev_set_gid(e->dev, (int)idx, err, errlen);

	if (r == 0)
		r = perf_end_connect(e, 0, mtu, send_side, QP_TIMEOUT, err,
				     errlen, NULL);
	return r;
}

static int post(struct perf_end *e, bool send)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(send ? perf_end_local(e, 0) :
					   perf_end_remote(e, 0)),
		.length = MSG_LEN,
		.lkey = e->mr->lkey,
	};
	struct ibv_send_wr swr = { .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED }, *sbad;
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *rbad;

	if (send) {
		memcpy(perf_end_local(e, 0), "rdmadiag peer reachability", 27);
		return ibv_post_send(e->qp[0], &swr, &sbad);
	}
	return ibv_post_recv(e->qp[0], &rwr, &rbad);
}

static enum ibv_mtu mtu_enum(unsigned bytes)
{
	int m = perf_mtu_enum(bytes);

	return m < 0 ? IBV_MTU_1024 : (enum ibv_mtu)m;
}

/* Read the server's answer to the request into the pairs' ends. */
static int read_answer(struct perf_oob *o, int timeout_ms,
		       struct rd_peer_pair *pairs, struct perf_end *ends,
		       const bool *ready, size_t n, bool *connect, char *err,
		       size_t errlen)
{
	struct json_object *j, *arr, *x;
	char why[256];
	size_t k = 0;
	int r;

	r = recv_json(o, timeout_ms, "the matrix answer", &j, err, errlen);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(j, "error", &x)) {
		snprintf(why, sizeof(why), "the peer cannot test: %s",
			 json_object_get_string(x));
		rd_esc(err, errlen, why);
		json_object_put(j);
		return -EREMOTE;
	}
	if (!json_object_object_get_ex(j, "matrix", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		snprintf(err, errlen, "the peer's matrix answer has no matrix");
		json_object_put(j);
		return -EPROTO;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = NULL;

		if (!ready[i])
			continue;
		x = json_object_array_get_idx(arr, k++);
		if (x && json_object_object_get_ex(x, "error", &e)) {
			snprintf(why, sizeof(why), "on the peer: %s",
				 json_object_get_string(e));
			set_why(&pairs[i], RD_PEER_FAILS, why);
		} else if (!x || !keys_from_json(x, &ends[i].peer[0])) {
			set_why(&pairs[i], RD_PEER_FAILS,
				"the peer's QP keys are missing or malformed");
		} else {
			connect[i] = true;
		}
	}
	json_object_put(j);
	return 0;
}

/* Wait for each sent message's completion until the deadline. */
static void wait_sends(struct rd_peer_pair *pairs, struct perf_end *ends,
		       bool *sent, size_t n, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	size_t left = 0;
	char why[200];

	for (size_t i = 0; i < n; i++)
		left += sent[i];
	while (left && now_ms() < deadline) {
		for (size_t i = 0; i < n; i++) {
			struct ibv_wc wc;

			if (!sent[i] || ibv_poll_cq(ends[i].scq, 1, &wc) != 1)
				continue;
			sent[i] = false;
			left--;
			if (wc.status == IBV_WC_SUCCESS) {
				set_why(&pairs[i], RD_PEER_WORKS, "");
				continue;
			}
			snprintf(why, sizeof(why), "%s (status %d): %s",
				 ibv_wc_status_str(wc.status), wc.status,
				 perf_wc_hint(wc.status));
			set_why(&pairs[i], RD_PEER_FAILS, why);
		}
		if (left) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (sent[i]) {
			snprintf(why, sizeof(why),
				 "no acknowledgement within %d ms", timeout_ms);
			set_why(&pairs[i], RD_PEER_FAILS, why);
		}
}

/* Either side's end of the test: the QPs made for the pairs, then d. */
static void close_ends(struct perf_dev *d, struct perf_end *ends,
		       const bool *made, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (made[i])
			perf_end_destroy(&ends[i]);
	perf_dev_close(d);
}

int rd_peer_matrix_run(struct perf_oob *o, const char *dev, unsigned port,
		       unsigned mtu_bytes, int timeout_ms,
		       struct rd_peer_pair *pairs, size_t n, char *err,
		       size_t errlen)
{
	struct perf_end ends[RD_PEER_PAIRS_MAX];
	bool ready[RD_PEER_PAIRS_MAX] = { 0 }, conn[RD_PEER_PAIRS_MAX] = { 0 };
	struct json_object *req, *arr;
	struct perf_dev d;
	char why[256];
	int r;

	if (n > RD_PEER_PAIRS_MAX)
		n = RD_PEER_PAIRS_MAX;
	memset(ends, 0, sizeof(ends));
	r = perf_dev_open(&d, dev, port, why, sizeof(why));
	if (r < 0) {
		rd_esc(err, errlen, why);
		return r;
	}
	req = json_object_new_object();
	arr = json_object_new_array();
	if (!req || !arr) {
		json_object_put(req);
		json_object_put(arr);
		perf_dev_close(&d);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	json_object_object_add(req, "mtu", json_object_new_int64(mtu_bytes));
	json_object_object_add(req, "matrix", arr);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x;

		if (make_end(&d, pairs[i].a.index, &ends[i], why, sizeof(why)) < 0) {
			set_why(&pairs[i], RD_PEER_FAILS, why);
			continue;
		}
		x = json_object_new_object();
		if (!x)
			continue;
		ready[i] = true;
		json_object_object_add(x, "a", json_object_new_int64(pairs[i].a.index));
		json_object_object_add(x, "b", json_object_new_int64(pairs[i].b.index));
		keys_to_json(x, &ends[i].mine[0]);
		json_object_array_add(arr, x);
	}
	r = send_json(o, req, err, errlen);
	json_object_put(req);
	if (r == 0)
		r = read_answer(o, timeout_ms, pairs, ends, ready, n, conn, err,
				errlen);
	for (size_t i = 0; r == 0 && i < n; i++) {
		if (!conn[i])
			continue;
		conn[i] = false;
		if (connect_end(&ends[i], pairs[i].a.index, mtu_enum(mtu_bytes),
				true, why, sizeof(why)) < 0)
			set_why(&pairs[i], RD_PEER_FAILS, why);
		else if (post(&ends[i], true) != 0)
			set_why(&pairs[i], RD_PEER_FAILS, "ibv_post_send failed");
		else
			conn[i] = true;
	}
	if (r == 0) {
		struct json_object *done = json_object_new_object();

		wait_sends(pairs, ends, conn, n, timeout_ms);
		if (done) {
			json_object_object_add(done, "done",
					       json_object_new_boolean(1));
			send_json(o, done, why, sizeof(why));
			json_object_put(done);
		}
	}
	close_ends(&d, ends, ready, n);
	return r;
}

/* The server's side of one pair: its QP on GID b, connected, receiving. */
static void serve_pair(struct perf_dev *d, struct json_object *x,
		       enum ibv_mtu mtu, struct perf_end *e, bool *made,
		       struct json_object *out)
{
	char why[256];
	uint32_t b;

	if (!get_u32(x, "b", 0xffff, &b) ||
	    !keys_from_json(x, &(struct perf_oob_keys){ 0 })) {
		snprintf(why, sizeof(why), "a malformed request");
		goto fail;
	}
	if (make_end(d, b, e, why, sizeof(why)) < 0)
		goto fail;
	*made = true;
	keys_from_json(x, &e->peer[0]);
	if (connect_end(e, b, mtu, false, why, sizeof(why)) < 0)
		goto fail;
	if (post(e, false) != 0) {
		snprintf(why, sizeof(why), "ibv_post_recv failed");
		goto fail;
	}
	keys_to_json(out, &e->mine[0]);
	return;
fail:
	json_object_object_add(out, "error", json_object_new_string(why));
}

static int answer(struct perf_oob *o, const char *dev, unsigned port,
		  struct json_object *req, int timeout_ms, char *err,
		  size_t errlen)
{
	struct perf_end ends[RD_PEER_PAIRS_MAX];
	bool made[RD_PEER_PAIRS_MAX] = { 0 };
	struct json_object *arr, *reply, *list;
	struct perf_dev d;
	uint32_t mtu = 1024;
	char why[256], *text;
	size_t n, len;
	int r;

	if (!json_object_object_get_ex(req, "matrix", &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    (json_object_object_get_ex(req, "mtu", NULL) &&
	     !get_u32(req, "mtu", 4096, &mtu))) {
		snprintf(err, errlen, "a malformed matrix request");
		return -EPROTO;
	}
	n = json_object_array_length(arr);
	if (n > RD_PEER_PAIRS_MAX)
		n = RD_PEER_PAIRS_MAX;
	reply = json_object_new_object();
	list = json_object_new_array();
	if (!reply || !list) {
		json_object_put(reply);
		json_object_put(list);
		return -ENOMEM;
	}
	r = perf_dev_open(&d, dev, port, why, sizeof(why));
	if (r < 0) {
		json_object_put(list);
		json_object_object_add(reply, "error", json_object_new_string(why));
		send_json(o, reply, err, errlen);
		json_object_put(reply);
		return 0;
	}
	json_object_object_add(reply, "matrix", list);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_new_object();

		if (!x)
			break;
		serve_pair(&d, json_object_array_get_idx(arr, i), mtu_enum(mtu),
			   &ends[i], &made[i], x);
		json_object_array_add(list, x);
	}
	r = send_json(o, reply, err, errlen);
	json_object_put(reply);
	/* Keep the QPs until the client has its completions. */
	if (r == 0 && rd_peer_frame_recv(o, &text, &len, timeout_ms + 5000,
					 "the end of the matrix") == 0)
		free(text);
	close_ends(&d, ends, made, n);
	return r;
}

int rd_peer_matrix_serve(struct perf_oob *o, const char *dev, unsigned port,
			 const char *why_not, int timeout_ms, char *err,
			 size_t errlen)
{
	struct json_object *req, *reply;
	int r;

	r = recv_json(o, timeout_ms, "a matrix request", &req, err, errlen);
	if (r == -ECONNRESET)
		return 0; /* the client wanted the comparison only */
	if (r < 0)
		return r;
	if (json_object_object_get_ex(req, "done", NULL)) {
		r = 0;
	} else if (!dev) {
		reply = json_object_new_object();
		r = -ENOMEM;
		if (reply) {
			json_object_object_add(reply, "error",
					       json_object_new_string(why_not));
			r = send_json(o, reply, err, errlen);
			json_object_put(reply);
		}
	} else {
		r = answer(o, dev, port, req, timeout_ms, err, errlen);
	}
	json_object_put(req);
	return r;
}
