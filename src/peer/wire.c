// SPDX-License-Identifier: GPL-2.0-or-later
/* The peer protocol's greeting and frames: see wire.h. */
#include "config.h"

#include "peer/wire.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

void rd_peer_hello_encode(char buf[RD_PEER_HELLO_LEN])
{
	memset(buf, 0, RD_PEER_HELLO_LEN);
	snprintf(buf, RD_PEER_HELLO_LEN, "%s%d", RD_PEER_HELLO_PREFIX,
		 RD_PEER_PROTOCOL);
}

/* digits '.' digits, then NUL padding: a perftest version message. */
static bool perftest_version(const char *b)
{
	size_t i = 0, digits = 0;

	while (i < RD_PEER_HELLO_LEN && isdigit((unsigned char)b[i]))
		i++, digits++;
	if (!digits || i >= RD_PEER_HELLO_LEN || b[i++] != '.')
		return false;
	for (digits = 0; i < RD_PEER_HELLO_LEN && isdigit((unsigned char)b[i]);
	     i++)
		digits++;
	if (!digits)
		return false;
	for (; i < RD_PEER_HELLO_LEN; i++)
		if (b[i])
			return false;
	return true;
}

enum rd_peer_hello rd_peer_hello_classify(const char buf[RD_PEER_HELLO_LEN],
					  unsigned *proto, char *what,
					  size_t whatlen)
{
	const size_t pl = sizeof(RD_PEER_HELLO_PREFIX) - 1;
	char text[RD_PEER_HELLO_LEN + 1];
	unsigned v = 0;
	size_t i;

	memcpy(text, buf, RD_PEER_HELLO_LEN);
	text[RD_PEER_HELLO_LEN] = '\0';
	*proto = 0;
	if (perftest_version(buf)) {
		snprintf(what, whatlen, "%s", text);
		return RD_PEER_HELLO_PERFTEST;
	}
	if (memcmp(buf, RD_PEER_HELLO_PREFIX, pl) == 0) {
		for (i = pl; i < RD_PEER_HELLO_LEN && i < pl + 4 &&
			     isdigit((unsigned char)buf[i]); i++)
			v = v * 10 + (unsigned)(buf[i] - '0');
		if (i > pl && v > 0 && i < RD_PEER_HELLO_LEN && !buf[i]) {
			*proto = v;
			snprintf(what, whatlen, "%s", text);
			return RD_PEER_HELLO_OK;
		}
	}
	rd_esc(what, whatlen, text);
	rd_utf8_trim_cut(what);
	return RD_PEER_HELLO_OTHER;
}

int rd_peer_frame_header(size_t len, uint8_t hdr[4])
{
	if (len > RD_PEER_FRAME_MAX)
		return -E2BIG;
	hdr[0] = (uint8_t)(len >> 24);
	hdr[1] = (uint8_t)(len >> 16);
	hdr[2] = (uint8_t)(len >> 8);
	hdr[3] = (uint8_t)len;
	return 0;
}

int rd_peer_frame_length(const uint8_t hdr[4], size_t *len)
{
	uint32_t v = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 |
		     (uint32_t)hdr[2] << 8 | hdr[3];

	*len = v;
	return v > RD_PEER_FRAME_MAX ? -E2BIG : 0;
}

/*
 * On a carrier of small messages (perftest -R's rdma_cm QP), a frame goes
 * as its header, then its bytes in messages of at most msg_max bytes, and
 * the receiver answers each with one byte, so the sender never runs ahead
 * of the one receive the other side has posted.
 */
static int piece_send(struct perf_oob *o, const void *buf, size_t len,
		      const char *what)
{
	char ack;
	int r = perf_oob_write(o, buf, len, what);

	if (r == 0 && o->carrier)
		r = perf_oob_read(o, &ack, 1, o->timeout_ms, what);
	return r;
}

static int piece_recv(struct perf_oob *o, void *buf, size_t len,
		      int timeout_ms, const char *what)
{
	int r = perf_oob_read(o, buf, len, timeout_ms, what);

	if (r == 0 && o->carrier)
		r = perf_oob_write(o, "k", 1, what);
	return r;
}

static size_t piece_max(const struct perf_oob *o, size_t len)
{
	size_t m = o->carrier && o->carrier->msg_max ? o->carrier->msg_max :
						       len;

	return len < m ? len : m;
}

int rd_peer_frame_send(struct perf_oob *o, const char *text, size_t len,
		       const char *what)
{
	uint8_t hdr[4];
	int r;

	if (rd_peer_frame_header(len, hdr) < 0) {
		snprintf(o->err, sizeof(o->err),
			 "%s: %zu bytes, more than a frame holds (%u)", what,
			 len, RD_PEER_FRAME_MAX);
		return -E2BIG;
	}
	r = piece_send(o, hdr, sizeof(hdr), what);
	for (size_t off = 0, n; r == 0 && off < len; off += n) {
		n = piece_max(o, len - off);
		r = piece_send(o, text + off, n, what);
	}
	return r;
}

int rd_peer_frame_recv(struct perf_oob *o, char **text, size_t *len,
		       int timeout_ms, const char *what)
{
	uint8_t hdr[4];
	char *buf;
	int r;

	*text = NULL;
	*len = 0;
	r = piece_recv(o, hdr, sizeof(hdr), timeout_ms, what);
	if (r < 0)
		return r;
	if (rd_peer_frame_length(hdr, len) < 0) {
		snprintf(o->err, sizeof(o->err),
			 "%s: the peer announced %zu bytes, more than a frame "
			 "holds (%u)", what, *len, RD_PEER_FRAME_MAX);
		return -E2BIG;
	}
	buf = malloc(*len + 1);
	if (!buf) {
		snprintf(o->err, sizeof(o->err), "%s: out of memory", what);
		return -ENOMEM;
	}
	r = 0;
	for (size_t off = 0, n; r == 0 && off < *len; off += n) {
		n = piece_max(o, *len - off);
		r = piece_recv(o, buf + off, n, timeout_ms, what);
	}
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[*len] = '\0';
	*text = buf;
	return 0;
}
