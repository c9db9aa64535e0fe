// SPDX-License-Identifier: GPL-2.0-or-later
/* GID choice for RoCE tests. */
#include "config.h"
#include "perf/gid.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

bool perf_gid_is_zero(const uint8_t *raw)
{
	for (int i = 0; i < 16; i++)
		if (raw[i])
			return false;
	return true;
}

bool perf_gid_is_v4mapped(const uint8_t *raw)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0,	   0,
					 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(raw, pfx, sizeof(pfx)) == 0;
}

bool perf_gid_is_link_local(const uint8_t *raw)
{
	return raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
}

void perf_gid_format(const uint8_t *raw, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, raw, buf, (socklen_t)len) && len)
		buf[0] = '\0';
}

static unsigned score(const struct perf_gid_cand *g, bool want_ipv4)
{
	bool v4 = perf_gid_is_v4mapped(g->raw);

	return (v4 == want_ipv4) * 4u + !perf_gid_is_link_local(g->raw) * 2u +
	       (g->type == PERF_GID_ROCE_V2) * 1u;
}

int perf_gid_choose(const struct perf_gid_cand *c, size_t n, bool want_ipv4,
		    char *why, size_t whylen)
{
	const struct perf_gid_cand *best = NULL;
	unsigned bs = 0;
	char txt[64];

	for (size_t i = 0; i < n; i++) {
		unsigned s;

		if (perf_gid_is_zero(c[i].raw))
			continue;
		s = score(&c[i], want_ipv4);
		if (!best || s > bs || (s == bs && c[i].index < best->index)) {
			best = &c[i];
			bs = s;
		}
	}
	if (!best) {
		if (why && whylen)
			snprintf(why, whylen,
				 "the GID table has no entries "
				 "(is the netdev up with an address?)");
		return -ENOENT;
	}
	perf_gid_format(best->raw, txt, sizeof(txt));
	if (why && whylen)
		snprintf(why, whylen, "%s %s: %s%s, %s%s", txt,
			 best->type == PERF_GID_ROCE_V2 ? "RoCE v2" : "RoCE v1",
			 (bs & 4) ? (want_ipv4 ? "IPv4 like" : "IPv6 like")
				  : "no GID of the family of",
			 " the OOB address",
			 (bs & 2) ? "not link-local" : "only link-local left",
			 (bs & 1) ? ", RoCE v2 preferred"
				  : ", no RoCE v2 entry of that kind");
	return best->index;
}
