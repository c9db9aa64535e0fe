// SPDX-License-Identifier: GPL-2.0-or-later
/* Every parser of sysfs/procfs attribute text, on arbitrary bytes. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "probes/ib_sysfs.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_assert_escaped(const char *s)
{
	size_t n = strlen(s) * 4 + 1;
	char *e = malloc(n);

	if (!e)
		return;
	rd_esc(e, n, s);
	fuzz_assert_text(e, strlen(e));
	free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char w[32], sp[64], buf[64];
	uint8_t gid[16];
	uint64_t u;
	uint32_t u32;
	int64_t i;
	double d;
	const char *rest;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (rd_text_check(s, size) == 0) {
		/*
		 * What the strict reader lets through is valid text; printed,
		 * it goes through rd_esc, which leaves it clean (bidirectional
		 * and zero-width characters escaped as C1 controls are).
		 */
		fuzz_assert_escaped(s);
		rd_parse_u64(s, 0, &u);
		rd_parse_u64(s, 16, &u);
		rd_parse_u32(s, 10, &u32);
		rd_parse_s64(s, 10, &i);
		rd_parse_double(s, &d);
		rd_parse_u64_prefix(s, ":", &u, &rest);
		rd_parse_state_line(s, &u);
		if (rd_parse_gid(s, gid) == 0) {
			rd_format_gid(gid, buf, sizeof(buf));
			fuzz_assert_text(buf, strlen(buf));
			/* What we print, we must read back to the same bytes. */
			uint8_t again[16];
			if (rd_parse_gid(buf, again) != 0 || memcmp(gid, again, 16))
				abort();
		}
		if (rd_parse_guid(s, &u) == 0) {
			uint64_t again;

			rd_format_guid(u, buf, sizeof(buf));
			if (rd_parse_guid(buf, &again) != 0 || again != u)
				abort();
		}
		if (rd_parse_rate(s, &d, w, sizeof(w), sp, sizeof(sp)) == 0) {
			fuzz_assert_escaped(w);
			fuzz_assert_escaped(sp);
		}
		rd_strtrim(s);
	}
	free(s);
	return 0;
}
