/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The property every fuzz target checks on the text it can print: no
 * control byte but the newlines and tabs of the program's own layout, no
 * C1 control, valid UTF-8. Anything else would reach a terminal.
 */
#ifndef RD_FUZZ_TEXT_H
#define RD_FUZZ_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/escape.h"
#include "core/json.h"
#include "core/print.h"
#include "core/snapshot.h"
#include "diag/diag.h"
#include "views/text_snapshot.h"

static inline void fuzz_assert_text(const char *s, size_t len)
{
	size_t start = 0;

	if (!s)
		return;
	/* rd_text_clean refuses every control byte: check line by line. */
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '\n' && s[i] != '\t')
			continue;
		if (!rd_text_clean(s + start, i - start)) {
			fprintf(stderr, "control byte or invalid UTF-8 in: %.*s\n",
				(int)(i - start), s + start);
			abort();
		}
		start = i + 1;
	}
}

/* Run print(f, arg) into memory and check what it wrote. */
#define FUZZ_CHECK_PRINTED(call)                                        \
	do {                                                            \
		char *buf_ = NULL;                                      \
		size_t len_ = 0;                                        \
		FILE *f = open_memstream(&buf_, &len_);                 \
		if (f) {                                                \
			call;                                           \
			fclose(f);                                      \
			fuzz_assert_text(buf_, len_);                   \
			free(buf_);                                     \
		}                                                       \
	} while (0)

/*
 * Everything the text commands print about a snapshot: `snapshot -v`, the
 * snapshot's JSON, and `check -v` as text and JSON. No control byte may
 * appear, and the JSON must parse.
 */
static inline void fuzz_check_snapshot_text(const struct rd_snapshot *s)
{
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct rd_printer p;
	char *j;

	FUZZ_CHECK_PRINTED(view_text_snapshot(f, s, false, true));
	j = rd_snapshot_to_string(s, 1);
	if (j) {
		struct json_object *o2 = json_tokener_parse(j);

		fuzz_assert_text(j, strlen(j));
		if (!o2)
			abort();
		json_object_put(o2);
		free(j);
	}
	rd_diag_opts_init(&o);
	if (rd_diag_run(s, NULL, &o, &res) == 0) {
		rd_results_sort(&res);
		FUZZ_CHECK_PRINTED((rd_print_begin(&p, f, false),
				    rd_results_print(&p, &res, true),
				    rd_print_end(&p)));
		FUZZ_CHECK_PRINTED((rd_print_begin(&p, f, true),
				    rd_results_print(&p, &res, true),
				    (rd_print_end(&p) < 0 ? abort() : (void)0)));
	}
	rd_results_free(&res);
}

/*
 * What lands in a snapshot must serialise and load again unchanged (a
 * capture that cannot be replayed is lost evidence), and print as text.
 */
static inline void fuzz_round_trip(const struct rd_snapshot *s)
{
	struct rd_snapshot b;
	char err[256];
	char *j1, *j2;

	fuzz_check_snapshot_text(s);
	j1 = rd_snapshot_to_string(s, 0);
	if (!j1)
		return;
	if (rd_snapshot_from_string(j1, strlen(j1), &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "snapshot does not load again: %s\n", err);
		abort();
	}
	j2 = rd_snapshot_to_string(&b, 0);
	if (j2 && strcmp(j1, j2) != 0)
		abort();
	free(j2);
	free(j1);
	rd_snapshot_free(&b);
}

#endif
