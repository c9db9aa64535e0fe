/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perftest's out-of-band TCP protocol: fixed-size messages, no framing, the
 * client writes first in every exchange. Encoders and decoders are pure so
 * every field a peer sends can be checked before it reaches the verbs layer.
 */
#ifndef RD_PERF_OOB_H
#define RD_PERF_OOB_H

#include <endian.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf/fail.h"

#define PERF_OOB_PORT 18515
#define PERF_OOB_VERSION_LEN 16
/* perftest refuses peers below 5.70 and negotiates parameters only with
 * peers at 6.28 or later, so this is what we claim to be. */
#define PERF_OOB_VERSION "6.06"
#define PERF_OOB_MIN_VERSION 570 /* hundredths */
#define PERF_OOB_SYSDATA_LEN 8
#define PERF_OOB_MTU_LEN 2
#define PERF_OOB_KEYS_LEN 59
#define PERF_OOB_KEYS_GID_LEN 108
#define PERF_OOB_FIELD_LEN 8 /* each field of the bw report */
#define PERF_OOB_REPORT_FIELDS 5
#define PERF_OOB_DONE "done" /* sent with its NUL: 5 bytes */

/* What one QP tells its peer (perftest's pingpong_dest). */
struct perf_oob_keys {
	uint32_t lid;
	uint32_t out_reads;
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint64_t vaddr;
	uint32_t srqn;
	uint8_t gid[16];
};

struct perf_oob_report {
	uint64_t size;
	uint64_t iters;
	double bw_peak;
	double bw_avg;
	double msg_rate;
};

/* perftest's binary integers are big-endian. */
static inline void perf_oob_put_be32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static inline uint32_t perf_oob_get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

/* Encoders return the number of bytes written, or -ENOSPC / -ERANGE. */
int perf_oob_keys_encode(const struct perf_oob_keys *k, bool with_gid,
			 char *buf, size_t len);
/* Decoders return 0 or -EPROTO with a sentence in err. */
int perf_oob_keys_decode(const char *buf, size_t len, bool with_gid,
			 struct perf_oob_keys *k, char *err, size_t errlen);

int perf_oob_version_encode(const char *version, char *buf, size_t len);
/*
 * rdmadiag's extension mark: perftest reads the version message only up
 * to its NUL (atof, strverscmp), so the bytes after it are free. The mark
 * is PERF_OOB_MARK_PREFIX and a protocol number right after the NUL, the
 * rest NUL. perf_oob_version_mark writes it into an encoded message
 * (-ENOSPC when the version leaves no room); perf_oob_version_marked
 * returns the protocol number, or 0 for no mark (a stock perftest
 * message has zeros there) or for anything that is not a well-formed mark.
 */
#define PERF_OOB_MARK_PREFIX "rdmadiag/"
#define PERF_OOB_MARK_PROTO 1
int perf_oob_version_mark(char *buf, size_t len, unsigned proto);
unsigned perf_oob_version_marked(const char *buf, size_t len);
/* "6.06" -> 606; refuses what is not digits.digits NUL-terminated. */
int perf_oob_version_decode(const char *buf, size_t len, unsigned *hundredths,
			    char *err, size_t errlen);

void perf_oob_sysdata_encode(uint32_t cycle_buffer, uint32_t cache_line,
			     uint8_t *buf);
int perf_oob_sysdata_decode(const uint8_t *buf, size_t len,
			    uint32_t *cycle_buffer, uint32_t *cache_line,
			    char *err, size_t errlen);

/* The ibv_mtu enum (1..5) as ASCII, NUL-padded to two bytes. */
int perf_oob_mtu_encode(int mtu_enum, char *buf, size_t len);
int perf_oob_mtu_decode(const char *buf, size_t len, int *mtu_enum, char *err,
			size_t errlen);

/* Field i of a report as perftest sends it (big-endian integers, doubles
 * byte-swapped on little-endian hosts). */
void perf_oob_report_field_encode(const struct perf_oob_report *r, int i,
				  uint8_t *buf);
int perf_oob_report_field_decode(const uint8_t *buf, int i,
				 struct perf_oob_report *r, char *err,
				 size_t errlen);

/*
 * Another carrier for the same messages (perftest's -R sends them on an
 * rdma_cm QP): when set, read, write and peer_gone go through it. err
 * returns the carrier's last error text, fail its kind (NULL: the kind
 * follows from the errno the call returned).
 */
struct perf_oob_carrier {
	int (*read)(void *ctx, void *buf, size_t len, int timeout_ms,
		    const char *what);
	int (*write)(void *ctx, const void *buf, size_t len, const char *what);
	bool (*peer_gone)(void *ctx);
	const char *(*err)(void *ctx);
	size_t msg_max; /* the longest message it carries, in bytes */
	const struct perf_fail *(*fail)(void *ctx);
};

/* A connected OOB channel. */
struct perf_oob {
	int fd;
	bool client;		     /* writes first */
	int timeout_ms;		     /* per message */
	volatile sig_atomic_t *stop; /* set by SIGINT: give up waiting */
	char peer[32];		     /* server: "a.b.c.d:port" of the client */
	/* server: the client's first bytes, read before the test's
	 * exchange to see who it is; perf_oob_read returns them first */
	char pre[PERF_OOB_VERSION_LEN];
	size_t npre, pre_off;
	/* -R: messages on rdma_cm, no socket */
	const struct perf_oob_carrier *carrier;
	void *carrier_ctx;
	char err[256];
	struct perf_fail fail; /* the kind of the failure err tells */
};

int perf_oob_connect(struct perf_oob *o, const char *host, uint16_t port,
		     int timeout_ms);
/*
 * Listen on port at bind_addr (NULL: every IPv4 address) and, when given,
 * at bind_addr2 as well; accept one client and close the listeners, so a
 * second client is refused while the first one's test runs. wait_ms < 0
 * waits until *o->stop.
 */
int perf_oob_accept(struct perf_oob *o, const char *bind_addr,
		    const char *bind_addr2, uint16_t port, int wait_ms);

/*
 * Clients on the test's port that are not the test's: after accepting,
 * the server reads the client's first PERF_OOB_VERSION_LEN bytes (perftest's
 * client writes first: its version message); when claims() says they are
 * not a version message, serve() gets the connection (those bytes are
 * read again first), it is closed, and the server waits on for the
 * test's client with its listeners still open.
 */
struct perf_oob_aside {
	bool (*claims)(const char *first, size_t len, void *ctx);
	void (*serve)(struct perf_oob *o, void *ctx);
	void *ctx;
};
int perf_oob_accept_aside(struct perf_oob *o, const char *bind_addr,
			  const char *bind_addr2, uint16_t port, int wait_ms,
			  const struct perf_oob_aside *aside);
void perf_oob_close(struct perf_oob *o);

/*
 * Listeners that stay open (a server of many clients): on port at
 * bind_addr (NULL: every IPv4 address) and, when given, bind_addr2; their
 * fds in fds[0..*n). 0, or -errno with o->err set.
 */
int perf_oob_listen(struct perf_oob *o, const char *bind_addr,
		    const char *bind_addr2, uint16_t port, int backlog,
		    int fds[2], int *n);
/*
 * One client accepted from those listeners, which stay open: o->fd and
 * o->peer, and its address in *from when given. wait_ms < 0 waits until
 * *o->stop; -ETIMEDOUT after wait_ms.
 */
struct sockaddr_in;
int perf_oob_accept_from(struct perf_oob *o, const int *fds, int n,
			 uint16_t port, int wait_ms, struct sockaddr_in *from);

/* Exactly len bytes, or -ETIMEDOUT / -ECONNRESET (peer closed) / -EINTR
 * (stop) / -errno with o->err saying what was being read and o->fail its
 * kind (PERF_FAIL_OOB_SILENT, _OOB_CLOSED, _STOPPED...). Every call that
 * fails sets both. */
int perf_oob_read(struct perf_oob *o, void *buf, size_t len, int timeout_ms,
		  const char *what);
int perf_oob_write(struct perf_oob *o, const void *buf, size_t len,
		   const char *what);
/* Client: write then read; server: read then write. */
int perf_oob_xchg(struct perf_oob *o, const void *out, void *in, size_t len,
		  int timeout_ms, const char *what);
/* true when the peer has closed or reset the connection. */
bool perf_oob_peer_gone(struct perf_oob *o);

#endif
