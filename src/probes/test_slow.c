// SPDX-License-Identifier: GPL-2.0-or-later
/* The test-only slow probe: a kernel wait that takes its time. */
#include "config.h"
#include "probes/test_slow.h"

#include <poll.h>
#include <stdlib.h>

#include "core/roots.h"

#ifndef RD_TEST_PROBES
#error "test_slow.c belongs in test builds only"
#endif

int probe_test_slow_collect(const struct rd_probe_ctx *ctx,
			    struct rd_snapshot *s)
{
	const char *v = rd_env_untrusted()
				? NULL
				: getenv("RDMADIAG_TEST_PROBE_DELAY_MS");
	char *end;
	long ms;

	(void)ctx;
	(void)s;
	if (!v || !*v)
		return 0;
	ms = strtol(v, &end, 10);
	if (*end || ms <= 0 || ms > 60000)
		return 0;
	/* Blocked in the kernel, as a netlink receive would be. */
	poll(NULL, 0, (int)ms);
	return 0;
}
