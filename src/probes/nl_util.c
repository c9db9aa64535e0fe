// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netlink helpers. Replies are gathered as raw bytes first and parsed
 * afterwards, so a captured reply and a live one take the same path.
 */
#include "config.h"
#include "probes/nl_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <netlink/errno.h>
#include <netlink/socket.h>

#include "core/attr.h"
#include "core/model.h"
#include "core/snapshot.h"

void rd_nl_buf_free(struct rd_nl_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int rd_nl_buf_append(struct rd_nl_buf *b, const void *p, size_t n)
{
	if (n > RD_NL_MAX_REPLY || b->len > RD_NL_MAX_REPLY - n)
		return -EMSGSIZE;
	if (rd_buf_reserve((void **)&b->data, &b->cap, b->len + n, 4096) < 0)
		return -ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

int rd_nl_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0:
		return 0;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_PERM:
		return -EPERM;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_MSGSIZE:
	case NLE_MSG_TRUNC:
		return -EMSGSIZE;
	case NLE_RANGE:
	case NLE_MSG_TOOSHORT:
	case NLE_MSG_OVERFLOW:
	case NLE_INVAL:
	case NLE_PARSE_ERR:
		return -EBADMSG;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}

int rd_nl_open(int protocol, struct nl_sock **out)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = RD_NL_TIMEOUT_S };
	struct nl_sock *sk;
	int fd, r;

	*out = NULL;
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	/* Our own socket call keeps the kernel's errno (EPROTONOSUPPORT). */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (fd < 0) {
		r = -errno;
		goto err_sk;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		r = -errno;
		goto err_fd;
	}
	r = nl_socket_set_fd(sk, protocol, fd);
	if (r < 0) {
		r = rd_nl_errno(r);
		goto err_fd;
	}
	/* Dumps of many links or strings arrive faster than we read them. */
	(void)nl_socket_set_buffer_size(sk, 1 << 20, 0);
	*out = sk;
	return 0;

err_fd:
	close(fd);
err_sk:
	nl_socket_free(sk);
	return r;
}

int rd_nl_open_once(struct rd_snapshot *s, const char *source, int protocol,
		    struct nl_sock **sk)
{
	int r;

	if (*sk)
		return 0;
	r = rd_nl_open(protocol, sk);
	if (r < 0)
		rd_snapshot_error(s, source,
				  protocol == NETLINK_GENERIC
					  ? "generic netlink"
				  : protocol == NETLINK_ROUTE ? "NETLINK_ROUTE"
							      : "netlink",
				  r, NULL);
	return r;
}

int rd_nl_one_reply(struct rd_nl_iter *it, const void *bytes, size_t len,
		    const struct rd_nl_reply *want, int cmd, struct nlattr **tb)
{
	struct nlmsghdr *nlh;
	int r;

	rd_nl_iter_init(it, bytes, len);
	r = rd_nl_next(it, &nlh);
	if (r <= 0)
		return r == 0 ? -ENODATA : r;
	if ((want->type ? nlh->nlmsg_type != want->type
			: nlh->nlmsg_type < NLMSG_MIN_TYPE) ||
	    nlh->nlmsg_len < NLMSG_LENGTH(want->hdrlen) ||
	    ((const uint8_t *)NLMSG_DATA(nlh))[want->cmd_off] != cmd)
		return -EBADMSG;
	r = rd_nlmsg_parse(nlh, (int)want->hdrlen, tb, want->maxtype,
			   want->policy);
	return r < 0 ? r : 1;
}

void rd_nl_close(struct nl_sock **sk)
{
	if (*sk)
		nl_socket_free(*sk);
	*sk = NULL;
}

void rd_nl_state_clear(void *state)
{
	rd_nl_close(&((struct rd_nl_state *)state)->sk);
}

const char *rd_nl_text(const struct nlattr *a)
{
	const char *s;
	size_t n;

	if (!a)
		return NULL;
	s = nla_data(a);
	n = strnlen(s, (size_t)nla_len(a));
	if (n == 0 || n == (size_t)nla_len(a) || rd_text_check(s, n) < 0)
		return NULL;
	return s;
}

/* Append the messages of one datagram that answer seq; *done at the end. */
static int take_chunk(struct rd_nl_buf *out, const uint8_t *p, size_t n,
		      uint32_t seq, uint32_t port, bool *done)
{
	while (n >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		size_t len, step;
		int r;

		memcpy(&h, p, sizeof(h));
		len = h.nlmsg_len;
		if (len < sizeof(h) || len > n)
			return -EBADMSG;
		step = NLMSG_ALIGN(len) < n ? NLMSG_ALIGN(len) : n;
		/* Stale answers to an earlier, timed-out request. */
		if (h.nlmsg_seq == seq && (h.nlmsg_pid == port || !h.nlmsg_pid)) {
			r = rd_nl_buf_append(out, p, step);
			if (r < 0)
				return r;
			if (h.nlmsg_type == NLMSG_DONE ||
			    h.nlmsg_type == NLMSG_ERROR ||
			    !(h.nlmsg_flags & NLM_F_MULTI))
				*done = true;
		}
		p += step;
		n -= step;
	}
	return n ? -EBADMSG : 0;
}

int rd_nl_request(struct nl_sock *sk, struct nl_msg *msg,
		  struct rd_nl_buf *out)
{
	bool done = false;
	uint32_t seq, port;
	int r;

	nl_complete_msg(sk, msg);
	seq = nlmsg_hdr(msg)->nlmsg_seq;
	port = nl_socket_get_local_port(sk);
	r = nl_send(sk, msg);
	if (r < 0)
		return rd_nl_errno(r);
	while (!done) {
		struct sockaddr_nl peer;
		unsigned char *chunk = NULL;

		errno = 0;
		r = nl_recv(sk, &peer, &chunk, NULL);
		if (r <= 0) {
			int e = errno;

			free(chunk);
			if (r == 0)
				return (e == EAGAIN || e == EWOULDBLOCK) ?
					       -ETIMEDOUT : -ECONNRESET;
			r = rd_nl_errno(r);
			return r == -EAGAIN ? -ETIMEDOUT : r;
		}
		/* Only the kernel may answer. */
		if (peer.nl_pid != 0) {
			free(chunk);
			continue;
		}
		r = take_chunk(out, chunk, (size_t)r, seq, port, &done);
		free(chunk);
		if (r < 0)
			return r;
	}
	return 0;
}

void rd_nl_iter_init(struct rd_nl_iter *it, const void *bytes, size_t len)
{
	it->copy = NULL;
	it->p = bytes;
	it->left = bytes ? len : 0;
	/* Attribute getters load integers in place: give them aligned data. */
	if (it->left && ((uintptr_t)bytes % NLMSG_ALIGNTO)) {
		it->copy = malloc(len);
		if (it->copy) {
			memcpy(it->copy, bytes, len);
			it->p = it->copy;
		} else {
			it->left = 0;
		}
	}
}

void rd_nl_iter_end(struct rd_nl_iter *it)
{
	free(it->copy);
	it->copy = NULL;
	it->left = 0;
}

int rd_nl_next(struct rd_nl_iter *it, struct nlmsghdr **nlh)
{
	for (;;) {
		struct nlmsghdr *h;
		size_t len, step;

		if (it->left == 0)
			return 0;
		if (it->left < sizeof(*h))
			return -EBADMSG;
		h = (struct nlmsghdr *)it->p;
		len = h->nlmsg_len;
		if (len < sizeof(*h) || len > it->left)
			return -EBADMSG;
		step = NLMSG_ALIGN(len) < it->left ? NLMSG_ALIGN(len) :
						     it->left;
		it->p += step;
		it->left -= step;
		if (h->nlmsg_type == NLMSG_DONE) {
			int err = 0;

			/* A dump may end with an error in its DONE. */
			if (len >= sizeof(*h) + sizeof(int))
				memcpy(&err, NLMSG_DATA(h), sizeof(int));
			it->left = 0;
			return err < 0 ? err : 0;
		}
		if (h->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr e;

			if (len < NLMSG_LENGTH(sizeof(int)))
				return -EBADMSG;
			memcpy(&e.error, NLMSG_DATA(h), sizeof(int));
			if (e.error == 0)
				continue;
			if (e.error > 0 || e.error < -4095)
				return -EBADMSG;
			return e.error;
		}
		if (h->nlmsg_type == NLMSG_NOOP ||
		    h->nlmsg_type == NLMSG_OVERRUN)
			continue;
		*nlh = h;
		return 1;
	}
}

/* Every attribute lies within len, and nothing but padding follows. */
static int attrs_fit(const struct nlattr *head, int len)
{
	const uint8_t *p = (const uint8_t *)head;

	if (len < 0)
		return -EBADMSG;
	while (len > 0) {
		struct nlattr a;
		int step;

		if (len < NLA_HDRLEN)
			return -EBADMSG;
		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			return -EBADMSG;
		step = NLA_ALIGN(a.nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return 0;
}

int rd_nla_parse(struct nlattr **tb, int maxtype, struct nlattr *head,
		 int len, const struct nla_policy *policy)
{
	int r = attrs_fit(head, len);

	if (r < 0) {
		memset(tb, 0, sizeof(*tb) * (size_t)(maxtype + 1));
		return r;
	}
	/* libnl's policy type is not const-qualified in every version. */
	r = nla_parse(tb, maxtype, head, len, (struct nla_policy *)policy);
	if (r < 0) {
		memset(tb, 0, sizeof(*tb) * (size_t)(maxtype + 1));
		return -EBADMSG;
	}
	return 0;
}

int rd_nla_parse_nested(struct nlattr **tb, int maxtype, struct nlattr *nest,
			const struct nla_policy *policy)
{
	return rd_nla_parse(tb, maxtype, nla_data(nest), nla_len(nest), policy);
}

int rd_nlmsg_parse(struct nlmsghdr *nlh, int hdrlen, struct nlattr **tb,
		   int maxtype, const struct nla_policy *policy)
{
	if (hdrlen < 0 ||
	    nlh->nlmsg_len < NLMSG_LENGTH((unsigned)hdrlen)) {
		memset(tb, 0, sizeof(*tb) * (size_t)(maxtype + 1));
		return -EBADMSG;
	}
	return rd_nla_parse(tb, maxtype, nlmsg_attrdata(nlh, hdrlen),
			    nlmsg_attrlen(nlh, hdrlen), policy);
}

int rd_nl_read_file(const char *path, struct rd_nl_buf *out)
{
	uint8_t tmp[8192];
	int fd, r = 0;

	out->data = NULL;
	out->len = out->cap = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, tmp, sizeof(tmp));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		r = rd_nl_buf_append(out, tmp, (size_t)n);
		if (r < 0)
			break;
	}
	close(fd);
	if (r < 0)
		rd_nl_buf_free(out);
	return r;
}
