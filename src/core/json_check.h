/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A pass over JSON text before it is parsed into objects, so input from
 * outside (snapshot files, recordings) is bounded before memory is spent
 * on it, and so what the parser would silently accept is refused: a
 * duplicate key (json-c keeps the last), a NUL inside a string (json-c
 * cuts the string there), a number that does not fit 64 bits or is not
 * finite (1e400 would load as inf). Errors name the JSON path:
 * "devices[0].ports[1].port: number out of range".
 *
 * Text that is not JSON at all is left for the parser to report.
 */
#ifndef RD_CORE_JSON_CHECK_H
#define RD_CORE_JSON_CHECK_H

#include <stddef.h>

/*
 * 2^64 - 1 as a tool that reads numbers as doubles writes it back (jq
 * 1.6): the double 2^64, in its shortest round-trip digits. Loaded as
 * 2^64 - 1; any other integer above 2^64 - 1 is refused.
 */
#define RD_JSON_U64_MAX_AS_DOUBLE "18446744073709552000"

struct rd_json_limits {
	size_t values;		/* every value, containers included */
	size_t containers;	/* objects and arrays */
	size_t depth;
	size_t members;		/* members of one object or array */
	size_t string;		/* bytes of one string or key, decoded */
};

/* The limits for one snapshot (a file, or one frame of a recording). */
extern const struct rd_json_limits rd_snapshot_limits;

/* 0, or -E2BIG (a limit) / -EINVAL (a refused value) with err set. */
int rd_json_check(const char *text, size_t len,
		  const struct rd_json_limits *lim, char *err, size_t errlen);

#endif
