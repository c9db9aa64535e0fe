/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The peer protocol on a TCP connection (docs/DESIGN.md, "Both ends of
 * the link"): a 16-byte greeting each way, the length of perftest's
 * version message, so a perftest peer answers with its version and is
 * recognised; then frames of a 4-byte big-endian length and that many
 * bytes of JSON, the client writing first. On a carrier of small
 * messages (-R) each piece of at most its msg_max bytes is answered with
 * a 1-byte acknowledgement.
 */
#ifndef RD_PEER_WIRE_H
#define RD_PEER_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "perf/oob.h"

#define RD_PEER_HELLO_LEN 16
#define RD_PEER_HELLO_PREFIX "rdmadiag-peer/"
#define RD_PEER_PROTOCOL 1
#define RD_PEER_FRAME_MAX (64u * 1024)

/* "rdmadiag-peer/1", NUL-padded to RD_PEER_HELLO_LEN bytes. */
void rd_peer_hello_encode(char buf[RD_PEER_HELLO_LEN]);

enum rd_peer_hello {
	RD_PEER_HELLO_OK,	/* an rdmadiag peer; *proto set */
	RD_PEER_HELLO_PERFTEST,	/* a perftest version: "6.06" in what */
	RD_PEER_HELLO_OTHER,	/* anything else */
};

/* What sent these 16 bytes; what gets a printable description. */
enum rd_peer_hello rd_peer_hello_classify(const char buf[RD_PEER_HELLO_LEN],
					  unsigned *proto, char *what,
					  size_t whatlen);

/* A frame's header for len bytes; -E2BIG above RD_PEER_FRAME_MAX. */
int rd_peer_frame_header(size_t len, uint8_t hdr[4]);
/* The length a header announces; -E2BIG above RD_PEER_FRAME_MAX. */
int rd_peer_frame_length(const uint8_t hdr[4], size_t *len);

/* Write one frame; 0 or -errno with o->err set. */
int rd_peer_frame_send(struct perf_oob *o, const char *text, size_t len,
		       const char *what);
/*
 * Read one frame into a malloc'd, NUL-terminated buffer. 0, or -errno
 * (-E2BIG: the peer announced more than RD_PEER_FRAME_MAX) with o->err.
 */
int rd_peer_frame_recv(struct perf_oob *o, char **text, size_t *len,
		       int timeout_ms, const char *what);

#endif
