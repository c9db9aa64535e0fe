/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netlink plumbing shared by the rdma_nl, netdev, ethtool and dcb probes:
 * long-lived libnl sockets with receive timeouts, a request/reply exchange
 * that collects the raw reply bytes (so parsers can be fed captured bytes
 * in tests), and strict walking of message streams and attributes.
 */
#ifndef RD_PROBES_NL_UTIL_H
#define RD_PROBES_NL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

/* Reply bytes of one request: every message, as the kernel sent them. */
struct rd_nl_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

void rd_nl_buf_free(struct rd_nl_buf *b);
int rd_nl_buf_append(struct rd_nl_buf *b, const void *p, size_t n);

/* Largest reply accepted; a bigger one is refused, not cut. */
#define RD_NL_MAX_REPLY (32u << 20)
/* Seconds to wait for the kernel's next reply message. */
#define RD_NL_TIMEOUT_S 2

/*
 * Open and bind a netlink socket of the given protocol (NETLINK_ROUTE,
 * NETLINK_RDMA, NETLINK_GENERIC). Returns 0 or -errno; -EPROTONOSUPPORT
 * when the kernel has no such family (e.g. no RDMA core).
 */
int rd_nl_open(int protocol, struct nl_sock **out);

/*
 * A probe's socket, opened on first use and kept: 0 when *sk is open, or
 * -errno with the failure recorded in s against the probe's source.
 */
struct rd_snapshot;
int rd_nl_open_once(struct rd_snapshot *s, const char *source, int protocol,
		    struct nl_sock **sk);

/* Free *sk if open and forget it (a later refresh opens afresh). */
void rd_nl_close(struct nl_sock **sk);

/* The kept state of a probe that keeps only its netlink socket. */
struct rd_nl_state {
	struct nl_sock *sk;
};
void rd_nl_state_clear(void *state);

/*
 * Send msg (port and sequence are filled in) and collect every reply
 * message with the request's sequence number until the kernel says done.
 * Returns 0 or -errno (-ETIMEDOUT when the kernel stays silent). The
 * kernel's own error answer is left in the bytes for the parser.
 */
int rd_nl_request(struct nl_sock *sk, struct nl_msg *msg,
		  struct rd_nl_buf *out);

/*
 * Iterate over a stream of messages in bytes. rd_nl_next() returns 1 with
 * *nlh set for a data message, 0 at the end (NLMSG_DONE or no bytes left),
 * -EBADMSG for a truncated or malformed header, and the kernel's -errno
 * for an NLMSG_ERROR carrying one (ACKs are skipped).
 */
struct rd_nl_iter {
	const uint8_t *p;
	size_t left;
	void *copy;	/* aligned copy of the input when it was not aligned */
};

void rd_nl_iter_init(struct rd_nl_iter *it, const void *bytes, size_t len);
int rd_nl_next(struct rd_nl_iter *it, struct nlmsghdr **nlh);
void rd_nl_iter_end(struct rd_nl_iter *it);

/* The one reply message a GET request gets, as rd_nl_one_reply reads it. */
struct rd_nl_reply {
	uint16_t type;	/* message type; 0: any family's (genetlink) */
	size_t hdrlen;	/* family header before the attributes */
	size_t cmd_off; /* offset of the command byte in that header */
	int maxtype;	/* attributes are indexed into tb[maxtype + 1] */
	const struct nla_policy *policy;
};

/*
 * Start it on bytes and read their first message as the reply want
 * describes, carrying command cmd; its attributes are indexed into tb.
 * 1, -ENODATA when there is no message, -EBADMSG for another message,
 * or the kernel's -errno. End with rd_nl_iter_end() in every case.
 */
int rd_nl_one_reply(struct rd_nl_iter *it, const void *bytes, size_t len,
		    const struct rd_nl_reply *want, int cmd,
		    struct nlattr **tb);

/*
 * Validate and index attributes: every attribute must lie entirely within
 * len (no trailing garbage, no attribute running past the end) and match
 * policy (libnl: type sizes, NUL-terminated strings, minlen/maxlen).
 * Returns 0 or -EBADMSG.
 */
int rd_nla_parse(struct nlattr **tb, int maxtype, struct nlattr *head,
		 int len, const struct nla_policy *policy);
int rd_nla_parse_nested(struct nlattr **tb, int maxtype, struct nlattr *nest,
			const struct nla_policy *policy);
/* Attributes of a message after a family header of hdrlen bytes. */
int rd_nlmsg_parse(struct nlmsghdr *nlh, int hdrlen, struct nlattr **tb,
		   int maxtype, const struct nla_policy *policy);

/* A libnl error code as the closest -errno. */
/*
 * A string attribute as text we are willing to store: NUL-terminated
 * within the attribute, not empty, and passing rd_text_check; else NULL.
 */
const char *rd_nl_text(const struct nlattr *a);

int rd_nl_errno(int nlerr);

/* Read a whole file (fixtures, captures) into a buffer; 0 or -errno. */
int rd_nl_read_file(const char *path, struct rd_nl_buf *out);

#endif
