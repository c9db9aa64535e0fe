/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checked reading for the probes: read a file, record what went wrong in
 * the snapshot's errors, and hand back only values that passed.
 */
#ifndef RD_PROBES_READ_H
#define RD_PROBES_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/*
 * Read the attribute rel under dirfd (AT_FDCWD: rel is a path) into buf,
 * as rd_attr_read_at() does. A failure is recorded in s->errors as source
 * src at "base/rel" (rel alone when base is NULL), unless optional and the
 * file is absent. Returns 0 or -errno.
 */
int rd_probe_read(struct rd_snapshot *s, const char *src, int dirfd,
		  const char *base, const char *rel, char *buf, size_t size,
		  bool optional);

/*
 * Record in s->errors, as source src at "base/rel" (rel alone when base
 * is NULL), that reading it failed with err or, with text, that it held
 * a value no probe takes ("unexpected value \"...\"", cut at 64 bytes).
 */
void rd_probe_bad_value(struct rd_snapshot *s, const char *src,
			const char *base, const char *rel, int err,
			const char *text);

/*
 * The same, as an unsigned number (decimal; with hex, "0x" hex too) no
 * larger than max. Any other value is recorded as well and gives -EINVAL.
 */
int rd_probe_read_u64(struct rd_snapshot *s, const char *src, int dirfd,
		      const char *base, const char *rel, bool hex,
		      uint64_t max, uint64_t *out, bool optional);

/* One word of 1 to max printable ASCII bytes, no space: a name, a version. */
bool rd_probe_word_ok(const char *s, size_t max);

/*
 * The same, as a string that ok() accepts (512 bytes at most), set in
 * *out. Any other value is recorded as well and gives -EINVAL.
 */
int rd_probe_read_str(struct rd_snapshot *s, const char *src, int dirfd,
		      const char *base, const char *rel,
		      bool (*ok)(const char *v), char **out, bool optional);

/*
 * The decimal number ("25", "8.0") text starts with, after spaces, as a
 * double; *end is the text after it. -EINVAL when there is none.
 */
int rd_probe_lead_number(const char *text, double *v, const char **end);

/*
 * The entries of the directory path (rd_dir_list, at most max; free with
 * rd_dir_free). A failure other than an absent directory is recorded as
 * source src. Returns 0 or -errno.
 */
int rd_probe_list(struct rd_snapshot *s, const char *src, const char *path,
		  size_t max, char ***names, size_t *n);

/*
 * rd_probe_list() of the directory rel under root (an rd_roots member);
 * the path is left in path (size bytes) for the caller. -ENAMETOOLONG
 * when it does not fit (not recorded).
 */
int rd_probe_list_under(struct rd_snapshot *s, const char *src, char *path,
			size_t size, const char *root, const char *rel,
			size_t max, char ***names, size_t *n);

/*
 * Open the directory path (O_DIRECTORY, close-on-exec). A failure other
 * than an absent directory is recorded as source src. Returns the file
 * descriptor or -errno.
 */
int rd_probe_open_dir(struct rd_snapshot *s, const char *src,
		      const char *path);

/*
 * The last component of the symbolic link rel under dirfd (AT_FDCWD: a
 * path) into name, when it is non-empty text that rd_text_check accepts.
 * Returns 0, -errno of readlink, or -EINVAL (empty, too long, not text).
 */
int rd_probe_link_name(int dirfd, const char *rel, char *name, size_t size);

#endif
