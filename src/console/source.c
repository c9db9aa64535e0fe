// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot sources: live probing, or a recording played in a loop. */
#include "config.h"
#include "console/source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probe.h"

static int live_next(struct con_source *src, bool fresh, struct rd_snapshot *s,
		     char *err, size_t errlen)
{
	/* A refresh key or a fix-up wants what is true now. */
	int r = rd_snapshot_take(src->roots, src->cache, src->tick++,
				 fresh ? RD_PROBE_FRESH : 0, s);

	if (r < 0)
		snprintf(err, errlen, "cannot take a snapshot: %s: %s",
			 src->roots->sysfs, strerror(-r));
	return r;
}

static void live_close(struct con_source *src)
{
	rd_probe_cache_free(src->cache);
	src->cache = NULL;
}

static const struct con_source_ops live_ops = { live_next, live_close };

static int rec_next(struct con_source *src, bool fresh, struct rd_snapshot *s,
		    char *err, size_t errlen)
{
	uint64_t ns;
	int r = -EINVAL;

	(void)fresh; /* a recording has only what it recorded */
	for (size_t tries = 0; tries < src->rec.n; tries++) {
		if (src->started)
			src->frame = (src->frame + 1) % src->rec.n;
		src->started = true;
		r = rd_recording_frame(&src->rec, src->frame, s, err, errlen);
		if (r == 0)
			break;
		rd_snapshot_free(s);
		rd_snapshot_init(s);
	}
	if (r < 0)
		return r;
	if (!s->monotonic_ns.ok) {
		snprintf(err, errlen, "frame %zu has no monotonic time",
			 src->frame + 1);
		return -EINVAL;
	}
	/* Looping: shift recorded times so the history never runs back. */
	ns = s->monotonic_ns.v + src->shift_ns;
	if (src->last_ns && ns <= src->last_ns) {
		src->shift_ns +=
			src->last_ns - ns + (uint64_t)(src->interval * 1e9);
		ns = s->monotonic_ns.v + src->shift_ns;
	}
	s->monotonic_ns.v = ns;
	src->last_ns = ns;
	return 0;
}

static void rec_close(struct con_source *src)
{
	rd_recording_close(&src->rec);
}

static const struct con_source_ops rec_ops = { rec_next, rec_close };

/* A snapshot document has no time of its own: one frame, time 1 s. */
static int snap_next(struct con_source *src, bool fresh,
		     struct rd_snapshot *s, char *err, size_t errlen)
{
	int r;

	(void)fresh;
	rd_snapshot_free(s);
	r = rd_snapshot_load_file(src->snapshot_path, s, err, errlen);
	if (r < 0)
		return r;
	if (!s->monotonic_ns.ok)
		s->monotonic_ns = rd_u64(1000000000);
	src->frame = 0;
	return 0;
}

static void snap_close(struct con_source *src)
{
	free(src->snapshot_path);
	src->snapshot_path = NULL;
}

static const struct con_source_ops snap_ops = { snap_next, snap_close };

/* path as one snapshot document; 0, or -errno with err set. */
static int open_snapshot(struct con_source *src, const char *path, char *err,
			 size_t errlen)
{
	struct rd_snapshot s;
	int r;

	src->ops = &snap_ops;
	src->snapshot_path = strdup(path);
	if (!src->snapshot_path) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rd_snapshot_init(&s);
	r = snap_next(src, false, &s, err, errlen);
	rd_snapshot_free(&s);
	if (r < 0)
		snap_close(src);
	return r;
}

int con_source_open_live(struct con_source *src, const struct rd_roots *roots,
			 char *err, size_t errlen)
{
	memset(src, 0, sizeof(*src));
	src->kind = CON_LIVE;
	src->ops = &live_ops;
	src->roots = roots;
	src->cache = rd_probe_cache_new();
	if (!src->cache) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int con_source_open_recording(struct con_source *src, enum con_source_kind kind,
			      const char *path, double interval, char *err,
			      size_t errlen)
{
	struct rd_snapshot s;
	int r;

	memset(src, 0, sizeof(*src));
	src->kind = kind;
	src->ops = &rec_ops;
	src->interval = interval;
	r = rd_recording_open(path, &src->rec, err, errlen);
	if (r < 0)
		goto snapshot;
	/* One usable frame, or the file is refused now. */
	rd_snapshot_init(&s);
	r = rec_next(src, false, &s, err, errlen);
	rd_snapshot_free(&s);
	if (r < 0) {
		size_t frames = src->rec.n;

		rd_recording_close(&src->rec);
		/* A one-line snapshot (no time): a snapshot, not a frame. */
		if (frames <= 1)
			goto snapshot;
		return r;
	}
	src->started = false;
	src->frame = 0;
	src->shift_ns = src->last_ns = 0;
	return 0;

snapshot: {
	/* Not a recording: one snapshot document, as check --load reads. */
	char rerr[512], serr[512];
	int sr;

	snprintf(rerr, sizeof(rerr), "%s", err);
	memset(&src->rec, 0, sizeof(src->rec));
	sr = open_snapshot(src, path, serr, sizeof(serr));
	if (sr == 0)
		return 0;
	rd_load_failure(err, errlen, sr, serr, r, rerr);
	return sr;
}
}

void con_source_close(struct con_source *src)
{
	if (src->ops)
		src->ops->close(src);
	src->ops = NULL;
}

size_t con_source_frame(const struct con_source *src)
{
	return src->frame;
}

size_t con_source_frames(const struct con_source *src)
{
	if (src->snapshot_path)
		return 1;
	return src->kind == CON_LIVE ? 0 : src->rec.n;
}
