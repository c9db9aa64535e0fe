/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot model to JSON and back (json-c), driven by field tables. */
#ifndef RD_CORE_JSON_H
#define RD_CORE_JSON_H

#include <json-c/json.h>
#include <stdio.h>

#include "core/snapshot.h"

struct json_object *rd_json_from_model(const struct rd_field *fields,
				       const void *obj);
/* Fill obj (zeroed by the caller) from j; on failure err names the key path. */
int rd_json_to_model(const struct rd_field *fields, void *obj,
		     struct json_object *j, const char *path, char *err,
		     size_t errlen);

struct json_object *rd_snapshot_to_json(const struct rd_snapshot *s);
int rd_snapshot_from_json(struct json_object *j, struct rd_snapshot *s,
			  char *err, size_t errlen);

/* Serialise; the string is owned by the caller (free()). NULL on ENOMEM. */
char *rd_snapshot_to_string(const struct rd_snapshot *s, int pretty);
int rd_snapshot_write(const struct rd_snapshot *s, FILE *f, int pretty);

/* Parse one JSON document of len bytes into s; err set on failure:
 * -EBADMSG when the text is not one JSON document (malformed, cut short,
 * trailing data), -EINVAL (or -E2BIG for a limit) when it is a document
 * that is not a valid snapshot. */
int rd_snapshot_from_string(const char *text, size_t len,
			    struct rd_snapshot *s, char *err, size_t errlen);
/*
 * A snapshot file (or one line of a recording) larger than this is refused
 * before it is read.
 */
#define RD_SNAPSHOT_MAX (32u * 1024 * 1024)

/*
 * Load a snapshot file; -errno with err set. Only a regular file is
 * opened. Input is bounded (rd_snapshot_limits, and at most 1024 devices,
 * 256 ports per device, 16384 counters per group); duplicate keys, NUL
 * in strings, numbers out of range or not finite are errors naming the
 * JSON path.
 */
int rd_snapshot_load_file(const char *path, struct rd_snapshot *s, char *err,
			  size_t errlen);

/*
 * Read a whole regular file of at most max bytes into a NUL-terminated
 * buffer. Anything else (FIFO, device, directory) is refused before it is
 * opened: -EINVAL, -EISDIR; too large: -EFBIG.
 */
int rd_read_file(const char *path, size_t max, char **out, size_t *len);

#endif
