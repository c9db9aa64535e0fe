/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the console's snapshots come from, behind one interface: live
 * probing of this host, or the frames of a recording (--replay FILE, and
 * --demo, which is a recording shipped in the data directory). A source
 * is used by one thread at a time: the worker, once it runs.
 */
#ifndef RD_CONSOLE_SOURCE_H
#define RD_CONSOLE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "console/state.h"
#include "core/recording.h"
#include "core/roots.h"
#include "core/snapshot.h"

struct con_source;

struct con_source_ops {
	/*
	 * The next snapshot into s (initialised by the caller; freed by the
	 * caller whatever the result). fresh: a person asked for what is
	 * true now (refresh key, after a fix-up). 0 or -errno, err set.
	 */
	int (*next)(struct con_source *src, bool fresh, struct rd_snapshot *s,
		    char *err, size_t errlen);
	void (*close)(struct con_source *src);
};

struct con_source {
	enum con_source_kind kind;
	const struct con_source_ops *ops;
	/* live */
	const struct rd_roots *roots;
	struct rd_probe_cache *cache;
	uint64_t tick;
	/*
	 * The flight recorder's store the worker reads the past from (the
	 * console's --store); NULL: RD_STORE_DEFAULT when the host itself
	 * is read (not a --root tree), else none.
	 */
	const char *store;
	/* recordings */
	struct rd_recording rec;
	size_t frame;
	bool started;
	double interval; /* keeps replayed time moving across a loop */
	uint64_t shift_ns, last_ns;
	/* one snapshot document (rdmadiag snapshot --json, pretty or not):
	 * read again each time, as a recording of one frame */
	char *snapshot_path;
};

/* Live probing of the host (or of the fixture tree roots names). */
int con_source_open_live(struct con_source *src, const struct rd_roots *roots,
			 char *err, size_t errlen);
/*
 * A recording, played in a loop. Its frames are checked here so a file
 * that holds no usable frame is refused before the console starts.
 */
int con_source_open_recording(struct con_source *src, enum con_source_kind kind,
			      const char *path, double interval, char *err,
			      size_t errlen);
static inline int con_source_next(struct con_source *src, bool fresh,
				  struct rd_snapshot *s, char *err,
				  size_t errlen)
{
	return src->ops->next(src, fresh, s, err, errlen);
}
void con_source_close(struct con_source *src);
/* Recordings: the frame last returned and how many there are. */
size_t con_source_frame(const struct con_source *src);
size_t con_source_frames(const struct con_source *src);

#endif
