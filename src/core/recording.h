/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recordings: a sequence of snapshots in JSON Lines form (one compact
 * snapshot object per line), written by `rdmadiag capture` and played back
 * by `--replay FILE` and `--demo`. Frames are indexed when the file is
 * opened and parsed one at a time, so a long capture costs little memory.
 */
#ifndef RD_CORE_RECORDING_H
#define RD_CORE_RECORDING_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/json.h"
#include "core/snapshot.h"

/* A line longer than this is refused rather than read (as a snapshot file). */
#define RD_RECORDING_LINE_MAX RD_SNAPSHOT_MAX
#define RD_RECORDING_FRAMES_MAX 1000000u

struct rd_recording {
	FILE *f;
	off_t *off;  /* start of each frame's line */
	size_t *len; /* its length without the newline */
	size_t n;
};

/*
 * Open and index a recording. Blank lines are skipped; the first frame is
 * parsed to reject a file that is not a recording. 0 or -errno, err set.
 */
int rd_recording_open(const char *path, struct rd_recording *rec, char *err,
		      size_t errlen);
/* Parse frame i into s (initialised here). 0 or -errno with err set. */
int rd_recording_frame(struct rd_recording *rec, size_t i,
		       struct rd_snapshot *s, char *err, size_t errlen);
void rd_recording_close(struct rd_recording *rec);

/*
 * A saved snapshot, or a recording's last frame, into s. 0 or -errno with
 * err set (naming the frame, or why the file is neither).
 */
int rd_recording_load_last(const char *path, struct rd_snapshot *s, char *err,
			   size_t errlen);

/*
 * Why a file is neither a snapshot (sr, serr from rd_snapshot_load_file)
 * nor a recording (rr, rerr from rd_recording_open), told once: a file that
 * is one JSON document is a snapshot and gets serr; one whose first line is
 * a document is a recording and gets rerr; only a file that is neither
 * gets both. rerr is read only when rr is an error.
 */
void rd_load_failure(char *err, size_t errlen, int sr, const char *serr,
		     int rr, const char *rerr);

/* Append s to f as one line. 0 or -errno. */
int rd_recording_append(FILE *f, const struct rd_snapshot *s);

#endif
