// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer summary decoder on arbitrary bytes: a refusal is one clean
 * line; what decodes compares with itself without a mismatch, prints
 * clean text, and encodes and decodes again, the test's choices (when
 * sent and accepted) unchanged.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/compare.h"
#include "fuzz_text.h"
#include "peer/summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_peer_summary a, b;
	struct rd_compare c;
	char err[256];
	char *text;
	size_t len;

	if (rd_peer_summary_decode((const char *)data, size, &a, err,
				   sizeof(err)) < 0) {
		fuzz_assert_text(err, strlen(err));
		if (strchr(err, '\n'))
			abort();
		return 0;
	}
	fuzz_assert_text(a.program, strlen(a.program));
	fuzz_assert_text(a.test_err, strlen(a.test_err));
	if (a.test.set) {
		struct rd_cmp_item it[RD_TEST_ITEMS_MAX];
		char t[160];

		rd_test_choice_text(&a.test, t, sizeof(t));
		fuzz_assert_text(t, strlen(t));
		if (rd_test_choice_compare(&a.test, &a.test, a.side.port,
					   a.side.port, it) != 0)
			abort();
	}
	if (rd_compare(&a.side, &a.side, &c) == 0) {
		for (size_t i = 0; i < c.n; i++) {
			fuzz_assert_text(c.items[i].a, strlen(c.items[i].a));
			fuzz_assert_text(c.items[i].b, strlen(c.items[i].b));
		}
		fuzz_assert_text(c.addr_a, strlen(c.addr_a));
		fuzz_assert_text(c.unread, strlen(c.unread));
		rd_compare_free(&c);
	}
	if (rd_peer_summary_encode(&a, NULL, &text, &len) == 0) {
		if (rd_peer_summary_decode(text, len, &b, err, sizeof(err)) < 0) {
			fprintf(stderr, "summary does not decode again: %s\n", err);
			abort();
		}
		if (b.test.set != a.test.set ||
		    (a.test.set &&
		     (b.test.gid_index != a.test.gid_index ||
		      b.test.type != a.test.type || b.test.mtu != a.test.mtu ||
		      b.test.by_cm != a.test.by_cm ||
		      memcmp(b.test.gid, a.test.gid, 16) != 0)))
			abort();
		rd_peer_summary_free(&b);
		free(text);
	}
	rd_peer_summary_free(&a);
	return 0;
}
