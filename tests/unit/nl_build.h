/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Build netlink replies the way the kernel lays them out (libnl writes the
 * same headers and attribute padding), for situations the lab cannot
 * produce: mlx5 PFC/ETS/APP tables, link-down reasons, IB ports. Also the
 * hostile-input helpers shared by the netlink parser tests.
 */
#ifndef RD_TESTS_NL_BUILD_H
#define RD_TESTS_NL_BUILD_H

#include "unit.h"

#include <stdbool.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "probes/nl_util.h"

static inline struct nl_msg *nb_msg(int type, int flags, const void *hdr,
				    size_t hdrlen)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, flags);

	assert_non_null(m);
	if (hdrlen)
		assert_int_equal(nlmsg_append(m, (void *)hdr, hdrlen,
					      NLMSG_ALIGNTO), 0);
	nlmsg_hdr(m)->nlmsg_seq = 7;
	return m;
}

/* Append the message's bytes to out and free it. */
static inline void nb_take(struct rd_nl_buf *out, struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	assert_int_equal(rd_nl_buf_append(out, h, NLMSG_ALIGN(h->nlmsg_len)),
			 0);
	nlmsg_free(m);
}

static inline void nb_done(struct rd_nl_buf *out)
{
	int zero = 0;

	nb_take(out, nb_msg(NLMSG_DONE, NLM_F_MULTI, &zero, sizeof(zero)));
}

/* The kernel's error answer: struct nlmsgerr with the request's header. */
static inline void nb_error(struct rd_nl_buf *out, int err)
{
	struct nlmsgerr e = { .error = err };

	e.msg.nlmsg_len = sizeof(e.msg);
	nb_take(out, nb_msg(NLMSG_ERROR, 0, &e, sizeof(e)));
}

static inline void nb_load(const char *rel, struct rd_nl_buf *out)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/netlink/%s", RD_FIXTURES, rel);
	if (rd_nl_read_file(path, out) < 0)
		fail_msg("cannot read fixture %s", path);
	assert_true(out->len > 0);
}

/* Offsets where each message of a well-formed stream ends. */
static inline bool nb_is_boundary(const struct rd_nl_buf *b, size_t cut)
{
	size_t off = 0;

	while (off + sizeof(struct nlmsghdr) <= b->len) {
		struct nlmsghdr h;

		memcpy(&h, b->data + off, sizeof(h));
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (off == cut || (off > b->len && cut == b->len))
			return true;
	}
	return cut == 0;
}

/*
 * Feed parse() every prefix of b: a cut inside a message must be refused
 * with -EBADMSG, never half-read. Returns how many cuts were tried.
 */
typedef int (*nb_parse_fn)(const void *bytes, size_t len, void *arg);
typedef void (*nb_reset_fn)(void *arg);

static inline size_t nb_truncations(const struct rd_nl_buf *b,
				    nb_parse_fn parse, nb_reset_fn reset,
				    void *arg)
{
	size_t tried = 0;

	for (size_t cut = 1; cut < b->len; cut++) {
		uint8_t *copy = malloc(cut);
		int r;

		assert_non_null(copy);
		memcpy(copy, b->data, cut);
		r = parse(copy, cut, arg);
		if (!nb_is_boundary(b, cut) && r != -EBADMSG)
			fail_msg("cut at %zu of %zu: got %d, want -EBADMSG",
				 cut, b->len, r);
		free(copy);
		reset(arg);
		tried++;
	}
	return tried;
}

/*
 * Overwrite every byte in turn with hostile values; the parser must
 * return (anything) without reading out of bounds — ASan is the judge
 * under --enable-sanitizers. Returns how many were refused.
 */
static inline size_t nb_corruptions(const struct rd_nl_buf *b,
				    nb_parse_fn parse, nb_reset_fn reset,
				    void *arg)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x7f, 0x01 };
	size_t refused = 0;

	for (size_t i = 0; i < b->len; i++) {
		for (size_t v = 0; v < sizeof(vals); v++) {
			uint8_t *copy = malloc(b->len);

			assert_non_null(copy);
			memcpy(copy, b->data, b->len);
			if (copy[i] == vals[v]) {
				free(copy);
				continue;
			}
			copy[i] = vals[v];
			if (parse(copy, b->len, arg) < 0)
				refused++;
			free(copy);
			reset(arg);
		}
	}
	return refused;
}

#endif
