// SPDX-License-Identifier: GPL-2.0-or-later
/* Node sets as pdsh and clush print them: "n[01-03,7]x,m1". */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

struct ns_walk {
	int (*fn)(void *arg, const char *name);
	void *arg;
	size_t count;
};

static int expand(struct ns_walk *w, char *done, size_t dlen, const char *rest,
		  size_t rlen);

/* One range "7", "01-03" of a bracket, each value through expand(). */
static int expand_range(struct ns_walk *w, char *done, size_t dlen,
			const char *r, size_t len, const char *rest,
			size_t rlen)
{
	char lo_s[24], hi_s[24];
	const char *dash = memchr(r, '-', len);
	size_t llen = dash ? (size_t)(dash - r) : len;
	size_t hlen = dash ? len - llen - 1 : len;
	unsigned long lo, hi;
	int width, ret;
	char *end;

	if (!llen || !hlen || llen >= sizeof(lo_s) || hlen >= sizeof(hi_s))
		return -EINVAL;
	memcpy(lo_s, r, llen);
	lo_s[llen] = '\0';
	memcpy(hi_s, dash ? dash + 1 : r, hlen);
	hi_s[hlen] = '\0';
	if (strspn(lo_s, "0123456789") != llen ||
	    strspn(hi_s, "0123456789") != hlen)
		return -EINVAL;
	errno = 0;
	lo = strtoul(lo_s, &end, 10);
	hi = strtoul(hi_s, &end, 10);
	/* Bounded, so no range wraps around (n[18446744073709551615]). */
	if (errno == ERANGE || lo > RD_FLEET_NODESET_NUM_MAX ||
	    hi > RD_FLEET_NODESET_NUM_MAX)
		return -ERANGE;
	if (hi < lo)
		return -EINVAL;
	if (hi - lo >= RD_FLEET_NODESET_MAX)
		return -E2BIG;
	width = lo_s[0] == '0' && llen > 1 ? (int)llen : 1;
	for (unsigned long v = lo; v <= hi; v++) {
		int n = snprintf(done + dlen, 4096 - dlen, "%0*lu", width, v);

		if (n < 0 || (size_t)n >= 4096 - dlen)
			return -EINVAL;
		ret = expand(w, done, dlen + (size_t)n, rest, rlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* done[0..dlen) is fixed; rest may hold more brackets. */
static int expand(struct ns_walk *w, char *done, size_t dlen, const char *rest,
		  size_t rlen)
{
	const char *open = memchr(rest, '[', rlen), *close, *p;
	size_t plen = open ? (size_t)(open - rest) : rlen;

	if (dlen + plen >= 4096)
		return -EINVAL;
	memcpy(done + dlen, rest, plen);
	dlen += plen;
	if (memchr(rest, ']', plen))
		return -EINVAL;
	if (!open) {
		done[dlen] = '\0';
		if (!dlen)
			return -EINVAL;
		if (++w->count > RD_FLEET_NODESET_MAX)
			return -E2BIG;
		return w->fn ? w->fn(w->arg, done) : 0;
	}
	close = memchr(open, ']', rlen - plen);
	if (!close || close == open + 1)
		return -EINVAL;
	for (p = open + 1; p < close;) {
		const char *c = memchr(p, ',', (size_t)(close - p));
		size_t len = c ? (size_t)(c - p) : (size_t)(close - p);
		int ret = expand_range(w, done, dlen, p, len, close + 1,
				       rlen - (size_t)(close + 1 - rest));

		if (ret)
			return ret;
		p += len + (c ? 1 : 0);
		if (c && p == close)
			return -EINVAL;
	}
	return 0;
}

static int walk(const char *set, int (*fn)(void *arg, const char *name),
		void *arg)
{
	struct ns_walk w = { .fn = fn, .arg = arg };
	char done[4096];
	size_t i = 0, start = 0, len = strlen(set);
	int depth = 0, ret;

	if (!len)
		return -EINVAL;
	for (i = 0; i <= len; i++) {
		if (i < len && set[i] == '[' && ++depth > 1)
			return -EINVAL;
		if (i < len && set[i] == ']' && --depth < 0)
			return -EINVAL;
		if (i < len && (set[i] == ' ' || set[i] == '\t'))
			return -EINVAL;
		if (i == len || (set[i] == ',' && depth == 0)) {
			if (i == start)
				return -EINVAL;
			ret = expand(&w, done, 0, set + start, i - start);
			if (ret)
				return ret;
			start = i + 1;
		}
	}
	return depth ? -EINVAL : 0;
}

int rd_fleet_nodeset(const char *set, int (*fn)(void *arg, const char *name),
		     void *arg)
{
	/* Counted first: a set too large or malformed names no host. */
	int r = walk(set, NULL, NULL);

	return r ? r : walk(set, fn, arg);
}

/* name = head + digits at the end; the digits' offset (len when none). */
static size_t digits_at(const char *name)
{
	size_t len = strlen(name), d = len;

	while (d && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	/* Nine digits at most, so the value fits an unsigned long. */
	return len - d > 9 || d == 0 ? len : d;
}

/* Width of a zero-padded number, or 0 when it is not padded. */
static size_t pad_width(const char *num)
{
	return num[0] == '0' && num[1] ? strlen(num) : 0;
}

char *rd_fleet_fold(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t off = 0, i = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (i < n) {
		const char *name = names[i];
		size_t d = digits_at(name), j = i + 1, w, more;
		char item[4096];
		size_t il = 0;

		w = name[d] ? pad_width(name + d) : 0;
		/* Names with the same head and the same padding fold. */
		while (name[d] && j < n && digits_at(names[j]) == d &&
		       strncmp(names[j], name, d) == 0 &&
		       (w ? strlen(names[j] + d) == w
			  : pad_width(names[j] + d) == 0))
			j++;
		if (j - i == 1) {
			il = (size_t)snprintf(item, sizeof(item), "%s", name);
		} else {
			il = (size_t)snprintf(item, sizeof(item), "%.*s[",
					      (int)d, name);
			for (size_t k = i; k < j && il < sizeof(item);) {
				unsigned long lo =
					strtoul(names[k] + d, NULL, 10);
				unsigned long hi = lo;
				size_t m = k + 1;

				while (m < j && strtoul(names[m] + d, NULL,
							10) == hi + 1) {
					hi++;
					m++;
				}
				il += (size_t)snprintf(
					item + il, sizeof(item) - il,
					hi > lo ? "%s%0*lu-%0*lu" : "%s%0*lu",
					k > i ? "," : "", (int)w, lo, (int)w,
					hi);
				k = m;
			}
			if (il < sizeof(item))
				il += (size_t)snprintf(item + il,
						       sizeof(item) - il, "]");
		}
		if (il >= sizeof(item))
			il = sizeof(item) - 1;
		/* Room for the item and, when more follow, the count of them.
		 */
		more = j < n ? (size_t)snprintf(NULL, 0, ",... %zu more hosts",
						n - j)
			     : 0;
		if (off + (i ? 1 : 0) + il + more >= len) {
			snprintf(buf + off, len - off, "%s... %zu more hosts",
				 i ? "," : "", n - i);
			break;
		}
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? "," : "", item);
		i = j;
	}
	return buf;
}
