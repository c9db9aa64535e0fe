// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain on arbitrary input. The first byte picks: 0 the pasted-text
 * parser with the real tables, then the cause ranking on an empty host;
 * 1 the wc_status.tsv loader; 2 the mlx5_syndromes.tsv loader.
 *
 * A parse that says "known" must name a status of the table; every value
 * stays in its range; every loaded row is found again by its lookup. What
 * explain prints of a parse (the "Recognised" line, the meaning, the
 * ranked causes) holds no control byte and is valid UTF-8.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/data.h"
#include "diag/explain.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void text_case(const char *text)
{
	const struct rd_wc_status_table *wc = rd_data_wc_status();
	const struct rd_mlx5_table *m = rd_data_mlx5();
	struct rd_explain_input in;
	struct rd_explain_ranking rk;
	struct rd_explain_evidence ev = { 0 };
	char ids[512];
	int r;

	if (!wc || !m)
		abort();
	r = rd_explain_parse(text, wc, m, &in);
	if (r < 0)
		return;
	if (r == 1 && !rd_wc_status_find(wc, (unsigned)in.status))
		abort();
	if (in.status < -1 || in.status > 65535 || in.vendor_err < -1 ||
	    in.vendor_err > 255 || in.syndrome < -1 || in.syndrome > 255 ||
	    in.port > 255 || !memchr(in.recognised, 0, sizeof(in.recognised)) ||
	    !memchr(in.device, 0, sizeof(in.device)))
		abort();
	FUZZ_CHECK_PRINTED(fprintf(f, "Recognised: %s\n", in.recognised));
	FUZZ_CHECK_PRINTED(rd_explain_write_meaning(f, &in, wc, m));
	if (r == 1) {
		FUZZ_CHECK_PRINTED(rd_explain_write(f, &in, wc, m, &ev, "of no host"));
		rd_explain_cause_ids(&in, wc, m, ids, sizeof(ids));
		if (rd_explain_rank(ids, &ev, &rk) == 0)
			rd_explain_ranking_free(&rk);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[256];

	/* The text ends at the first NUL, as a file read as a string would. */
	text = size ? strndup((const char *)data + 1, size - 1) : NULL;
	if (!text)
		return 0;
	if (data[0] % 3 == 0) {
		text_case(text);
	} else if (data[0] % 3 == 1) {
		struct rd_wc_status_table t;

		if (rd_wc_status_tsv_parse("fuzz", text, &t, err, sizeof(err)) == 0) {
			for (size_t i = 0; i < t.n; i++)
				if (rd_wc_status_find(&t, t.v[i].value) != &t.v[i])
					abort();
			rd_wc_status_table_free(&t);
		}
	} else {
		struct rd_mlx5_table t;

		if (rd_mlx5_tsv_parse("fuzz", text, &t, err, sizeof(err)) == 0) {
			for (size_t i = 0; i < t.n; i++)
				if (rd_mlx5_find(&t, t.v[i].vendor, t.v[i].value) != &t.v[i] ||
				    t.v[i].value > 255)
					abort();
			rd_mlx5_table_free(&t);
		}
	}
	free(text);
	return 0;
}
