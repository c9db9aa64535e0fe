// SPDX-License-Identifier: GPL-2.0-or-later
/* The snapshot/recording loader on arbitrary bytes; what loads must
 * serialise and load again to the same text. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_snapshot a, b;
	char err[256];
	char *j1, *j2;

	if (rd_snapshot_from_string((const char *)data, size, &a, err,
				    sizeof(err)) < 0) {
		fuzz_assert_text(err, strlen(err));
		rd_snapshot_free(&a);
		return 0;
	}
	fuzz_check_snapshot_text(&a);
	j1 = rd_snapshot_to_string(&a, 0);
	if (j1) {
		if (rd_snapshot_from_string(j1, strlen(j1), &b, err,
					    sizeof(err)) < 0)
			abort();
		j2 = rd_snapshot_to_string(&b, 0);
		if (j2 && strcmp(j1, j2) != 0)
			abort();
		free(j2);
		rd_snapshot_free(&b);
	}
	free(j1);
	rd_snapshot_free(&a);
	return 0;
}
