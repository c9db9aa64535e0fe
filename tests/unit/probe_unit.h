/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the probe tests: a context on a tree, error lines. */
#ifndef RD_TESTS_PROBE_UNIT_H
#define RD_TESTS_PROBE_UNIT_H

#include "unit.h"

#include <stdbool.h>

#include "core/roots.h"
#include "core/snapshot.h"
#include "probes/probe.h"

/* A context that reads only the tree at root: no netlink, no verbs. */
static inline void unit_probe_ctx(struct rd_roots *roots,
				  struct rd_probe_ctx *ctx, const char *root,
				  struct rd_probe_cache *cache)
{
	rd_roots_init(roots);
	assert_int_equal(rd_roots_under(roots, root), 0);
	memset(ctx, 0, sizeof(*ctx));
	ctx->roots = roots;
	ctx->cache = cache;
	ctx->flags = RD_PROBE_NO_NETLINK | RD_PROBE_NO_VERBS;
}

/* An error line whose place holds where_part and message msg_part (if any). */
static inline bool unit_has_error(const struct rd_snapshot *s,
				  const char *where_part, const char *msg_part)
{
	for (size_t i = 0; i < s->n_errors; i++)
		if (s->errors[i].where &&
		    strstr(s->errors[i].where, where_part) &&
		    (!msg_part || (s->errors[i].message &&
				   strstr(s->errors[i].message, msg_part))))
			return true;
	return false;
}

#endif
