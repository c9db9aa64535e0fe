// SPDX-License-Identifier: GPL-2.0-or-later
/* One peer exchange: see session.h. */
#include "config.h"

#include "peer/session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

static int oob_fail(struct perf_oob *o, int r, char *err, size_t errlen)
{
	rd_esc(err, errlen, o->err);
	return r;
}

/* Read the other side's greeting and say who it is when it is not us. */
static int read_hello(struct perf_oob *o, const char *who, int timeout_ms,
		      char *err, size_t errlen)
{
	char buf[RD_PEER_HELLO_LEN], what[64];
	unsigned proto;
	int r;

	r = perf_oob_read(o, buf, sizeof(buf), timeout_ms, "the greeting");
	if (r == -ETIMEDOUT) {
		snprintf(err, errlen,
			 "%s accepted the connection but sent no greeting "
			 "within %d ms: not rdmadiag peer, or stuck",
			 who, timeout_ms);
		return r;
	}
	if (r == -ECONNRESET) {
		snprintf(err, errlen,
			 "%s closed the connection without a greeting: it is "
			 "not rdmadiag peer (a perftest server, or another "
			 "program)",
			 who);
		return r;
	}
	if (r < 0)
		return oob_fail(o, r, err, errlen);
	switch (rd_peer_hello_classify(buf, &proto, what, sizeof(what))) {
	case RD_PEER_HELLO_OK:
		return 0;
	case RD_PEER_HELLO_PERFTEST:
		snprintf(err, errlen,
			 "%s speaks perftest (version %s), not rdmadiag peer: "
			 "run 'rdmadiag peer --listen' there",
			 who, what);
		return -EPROTO;
	default:
		snprintf(err, errlen,
			 "%s is not rdmadiag peer: its first 16 bytes were "
			 "\"%s\"",
			 who, what);
		return -EPROTO;
	}
}

static int send_summary(struct perf_oob *o, const struct rd_peer_summary *s,
			const char *why_not, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int r;

	r = rd_peer_summary_encode(s, why_not, &text, &len);
	if (r < 0) {
		snprintf(err, errlen, "cannot encode this host's summary: %s",
			 strerror(-r));
		return r;
	}
	r = rd_peer_frame_send(o, text, len, "the summary");
	free(text);
	return r < 0 ? oob_fail(o, r, err, errlen) : 0;
}

static int recv_summary_b(struct perf_oob *o, const char *who,
			  int timeout_ms, struct rd_peer_summary *theirs,
			  bool *broken, char *err, size_t errlen)
{
	char *text, why[320];
	size_t len;
	int r;

	memset(theirs, 0, sizeof(*theirs));
	*broken = false;
	r = rd_peer_frame_recv(o, &text, &len, timeout_ms, "the summary");
	if (r < 0) {
		*broken = true;
		snprintf(err, errlen, "%s: %s", who, rd_esc_tmp(o->err));
		return r;
	}
	r = rd_peer_summary_decode(text, len, theirs, why, sizeof(why));
	free(text);
	if (r < 0)
		snprintf(err, errlen, "%s: %s", who, why);
	return r;
}

static int recv_summary(struct perf_oob *o, const char *who, int timeout_ms,
			struct rd_peer_summary *theirs, char *err,
			size_t errlen)
{
	bool broken;

	return recv_summary_b(o, who, timeout_ms, theirs, &broken, err,
			      errlen);
}

int rd_peer_swap_client(struct perf_oob *o, const char *who, int timeout_ms,
			const struct rd_peer_summary *mine,
			const char *why_not, struct rd_peer_summary *theirs,
			bool *broken, char *err, size_t errlen)
{
	int r;

	memset(theirs, 0, sizeof(*theirs));
	*broken = true;
	r = send_summary(o, mine, mine ? NULL : why_not, err, errlen);
	if (r < 0)
		return r;
	return recv_summary_b(o, who, timeout_ms, theirs, broken, err, errlen);
}

int rd_peer_swap_server(struct perf_oob *o, const char *who, int timeout_ms,
			const struct rd_peer_summary *mine,
			const char *why_not, struct rd_peer_summary *theirs,
			bool *broken, char *err, size_t errlen)
{
	char scratch[8];
	int r, w;

	r = recv_summary_b(o, who, timeout_ms, theirs, broken, err, errlen);
	if (*broken)
		return r;
	/* Answer even a refused summary: the client waits for one frame. */
	if (r < 0)
		w = send_summary(o, NULL, err, scratch, sizeof(scratch));
	else
		w = send_summary(o, mine, mine ? NULL : why_not, err, errlen);
	if (w < 0) {
		*broken = true;
		if (r == 0)
			rd_peer_summary_free(theirs);
		return w;
	}
	return r;
}

bool rd_peer_greeting_claims(const char *first, size_t len)
{
	char what[64];
	unsigned proto;

	return len == RD_PEER_HELLO_LEN &&
	       rd_peer_hello_classify(first, &proto, what, sizeof(what)) ==
		       RD_PEER_HELLO_OK;
}

int rd_peer_client(struct perf_oob *o, const char *host, uint16_t port,
		   int timeout_ms, const struct rd_peer_summary *mine,
		   struct rd_peer_summary *theirs, char *err, size_t errlen)
{
	char hello[RD_PEER_HELLO_LEN], who[300];
	int r;

	memset(theirs, 0, sizeof(*theirs));
	snprintf(who, sizeof(who), "%s:%u", rd_esc_tmp(host), port);
	r = perf_oob_connect(o, host, port, timeout_ms);
	if (r == -ECONNREFUSED) {
		snprintf(err, errlen,
			 "nothing listens on %s (connection refused): run "
			 "'rdmadiag peer --listen' there (an rdmadiag bw or "
			 "lat server answers too, while it waits for its "
			 "test's client)",
			 who);
		return r;
	}
	if (r < 0)
		return oob_fail(o, r, err, errlen);
	rd_peer_hello_encode(hello);
	r = perf_oob_write(o, hello, sizeof(hello), "the greeting");
	if (r < 0)
		oob_fail(o, r, err, errlen);
	else
		r = read_hello(o, who, timeout_ms, err, errlen);
	if (r == 0)
		r = send_summary(o, mine, NULL, err, errlen);
	if (r == 0)
		r = recv_summary(o, who, timeout_ms, theirs, err, errlen);
	if (r < 0)
		perf_oob_close(o);
	return r;
}

int rd_peer_serve(struct perf_oob *o, int timeout_ms,
		  const struct rd_peer_summary *mine, const char *why_not,
		  struct rd_peer_summary *theirs, char *err, size_t errlen)
{
	char hello[RD_PEER_HELLO_LEN], who[64];
	int r;

	memset(theirs, 0, sizeof(*theirs));
	snprintf(who, sizeof(who), "the client %s", o->peer);
	r = read_hello(o, who, timeout_ms, err, errlen);
	if (r < 0)
		return r;
	rd_peer_hello_encode(hello);
	r = perf_oob_write(o, hello, sizeof(hello), "the greeting");
	if (r < 0)
		return oob_fail(o, r, err, errlen);
	r = recv_summary(o, who, timeout_ms, theirs, err, errlen);
	if (r == -ENOMEM || r == -ETIMEDOUT || r == -ECONNRESET)
		return r;
	/* Tell the client why its summary was refused, then stop. */
	if (r < 0) {
		char scratch[8];

		send_summary(o, NULL, err, scratch, sizeof(scratch));
		return r;
	}
	r = send_summary(o, mine, why_not, err, errlen);
	if (r < 0)
		rd_peer_summary_free(theirs);
	return r;
}
