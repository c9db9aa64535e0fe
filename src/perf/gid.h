/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which GID a RoCE test uses when the user gave no -x, and why. */
#ifndef RD_PERF_GID_H
#define RD_PERF_GID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum perf_gid_type { PERF_GID_IB_ROCE_V1 = 1, PERF_GID_ROCE_V2 = 2 };

struct perf_gid_cand {
	int index;
	uint8_t raw[16];
	enum perf_gid_type type;
};

bool perf_gid_is_zero(const uint8_t *raw);
bool perf_gid_is_v4mapped(const uint8_t *raw);
bool perf_gid_is_link_local(const uint8_t *raw);

/*
 * Rank the candidates as perftest does on RoCE: the address family of the
 * out-of-band connection first (IPv4-mapped when want_ipv4), then not
 * link-local, then RoCE v2 over v1, then the lowest index. Empty entries
 * are skipped. Returns the chosen index (why says why) or -ENOENT.
 */
int perf_gid_choose(const struct perf_gid_cand *c, size_t n, bool want_ipv4,
		    char *why, size_t whylen);

/* "fe80::1" / "::ffff:192.0.2.1" style text of a raw GID. */
void perf_gid_format(const uint8_t *raw, char *buf, size_t len);

#endif
