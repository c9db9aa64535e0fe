/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One writer for text and JSON results. Each call names both forms of a
 * value: its JSON key and its text format, so a command has one code path
 * for both outputs.
 *
 *   rd_print_str(p, "netdev", "  netdev %s\n", nd);
 *
 * Text mode: the format is printed with every string argument escaped
 * (rd_esc). JSON mode: the value is added under key to the open object
 * or array; strings with control characters or invalid UTF-8 are stored
 * escaped, doubles that are not finite become null. A NULL format prints
 * nothing as text; a NULL key adds nothing to JSON.
 */
#ifndef RD_CORE_PRINT_H
#define RD_CORE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

#define RD_PRINT_DEPTH 16

struct rd_printer {
	FILE *f;
	bool json;
	bool color;		/* text: colour escapes allowed */
	bool one_line;		/* JSON: the whole document on one line */
	int depth;
	struct json_object *stack[RD_PRINT_DEPTH];
	struct json_object *root;
	int err;		/* first error, -errno */
};

void rd_print_begin(struct rd_printer *p, FILE *f, bool json);
/* JSON: write the document and a newline. 0 or the first -errno. */
int rd_print_end(struct rd_printer *p);
/* JSON mode: hand over the document instead of writing it (NULL on error). */
struct json_object *rd_print_take_json(struct rd_printer *p);
/* Write a tree made by the JSON mode (and perhaps added to) to f. */
int rd_print_json_to(FILE *f, struct json_object *j, bool one_line);

/* Open an object or array under key (NULL inside an array or at the top). */
void rd_print_open_object(struct rd_printer *p, const char *key);
void rd_print_open_array(struct rd_printer *p, const char *key);
void rd_print_close(struct rd_printer *p);

/* fmt takes one %s (escaped text) / PRIu64 / PRId64 / %f-like / %s. */
void rd_print_str(struct rd_printer *p, const char *key, const char *fmt,
		  const char *v);
void rd_print_u64(struct rd_printer *p, const char *key, const char *fmt,
		  uint64_t v);
void rd_print_s64(struct rd_printer *p, const char *key, const char *fmt,
		  int64_t v);
void rd_print_double(struct rd_printer *p, const char *key, const char *fmt,
		     double v);
/* Text: fmt gets "yes"/"no". */
void rd_print_bool(struct rd_printer *p, const char *key, const char *fmt,
		   bool v);
/* JSON null under key; text: fmt as is. */
void rd_print_null(struct rd_printer *p, const char *key, const char *fmt);

/*
 * Text only: the program's own words (labels, padding, counts). Neither
 * the format nor its arguments may come from outside: outside text goes
 * through rd_print_str.
 */
void rd_print_text(struct rd_printer *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text only, when colour is on: an SGR sequence of the program's own. */
void rd_print_color(struct rd_printer *p, const char *sgr);

/*
 * A string safe for JSON output: s itself when it is valid UTF-8 without
 * control characters, else its escaped form (rd_esc) in a rotating buffer
 * (as rd_esc_tmp), so no reader of the JSON gets a control byte back.
 */
const char *rd_print_json_text(const char *s);

#endif
