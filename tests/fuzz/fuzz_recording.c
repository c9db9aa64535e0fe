// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recording reader (JSON Lines of snapshots, what --replay and --demo
 * open) on arbitrary file contents, through a file in /dev/shm.
 *
 * Every frame that loads must be appended to a new recording by the
 * writer `capture` uses, and that recording must open and give back the
 * same frames.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/recording.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Frames looked at per input; enough for the writer and index paths. */
#define FRAMES_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[] = "/dev/shm/fuzz-rec-XXXXXX";
	char out[] = "/dev/shm/fuzz-rec-XXXXXX";
	char *texts[FRAMES_MAX];
	struct rd_recording a, b;
	size_t nt = 0;
	char err[1024];
	FILE *f;
	int fd;

	fd = mkstemp(in);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(in);
		return 0;
	}
	close(fd);
	if (rd_recording_open(in, &a, err, sizeof(err)) < 0) {
		fuzz_assert_text(err, strlen(err));
		unlink(in);
		return 0;
	}
	unlink(in);
	fd = mkstemp(out);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		rd_recording_close(&a);
		return 0;
	}
	for (size_t i = 0; i < a.n && nt < FRAMES_MAX; i++) {
		struct rd_snapshot s;

		if (rd_recording_frame(&a, i, &s, err, sizeof(err)) == 0) {
			fuzz_check_snapshot_text(&s);
			if (rd_recording_append(f, &s) < 0)
				abort();
			texts[nt++] = rd_snapshot_to_string(&s, 0);
		} else if (i == 0) {
			abort(); /* open said the first frame loads */
		}
		rd_snapshot_free(&s);
	}
	rd_recording_close(&a);
	fclose(f);
	if (rd_recording_open(out, &b, err, sizeof(err)) < 0 || b.n != nt)
		abort();
	for (size_t i = 0; i < nt; i++) {
		struct rd_snapshot s;
		char *t;

		if (rd_recording_frame(&b, i, &s, err, sizeof(err)) < 0)
			abort();
		t = rd_snapshot_to_string(&s, 0);
		if (t && texts[i] && strcmp(t, texts[i]) != 0)
			abort();
		free(t);
		rd_snapshot_free(&s);
	}
	rd_recording_close(&b);
	unlink(out);
	for (size_t i = 0; i < nt; i++)
		free(texts[i]);
	return 0;
}
