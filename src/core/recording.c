// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/recording.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/json.h"

static int index_push(struct rd_recording *rec, off_t off, size_t len)
{
	size_t n = rec->n;
	off_t *o;
	size_t *l;

	if (n >= RD_RECORDING_FRAMES_MAX)
		return -E2BIG;
	o = RD_PUSH(rec->off, n);
	if (!o)
		return -ENOMEM;
	n = rec->n;
	l = RD_PUSH(rec->len, n);
	if (!l)
		return -ENOMEM;
	*o = off;
	*l = len;
	rec->n = n;
	return 0;
}

/* One pass over the file noting where each non-blank line starts. */
static int index_lines(struct rd_recording *rec, char *err, size_t errlen)
{
	char buf[65536];
	off_t pos = 0, start = 0;
	size_t len = 0, got, lineno = 1;
	bool blank = true;
	int r;

	while ((got = fread(buf, 1, sizeof(buf), rec->f)) > 0) {
		for (size_t i = 0; i < got; i++, pos++) {
			char c = buf[i];

			if (c == '\n') {
				if (!blank) {
					r = index_push(rec, start, len);
					if (r < 0)
						goto fail;
				}
				start = pos + 1;
				len = 0;
				blank = true;
				lineno++;
				continue;
			}
			if (c == '\0') {
				rd_snprintf_text(err, errlen,
					 "line %zu: binary data, not JSON",
					 lineno);
				return -EINVAL;
			}
			if (c != ' ' && c != '\t' && c != '\r')
				blank = false;
			if (++len > RD_RECORDING_LINE_MAX) {
				rd_snprintf_text(err, errlen,
					 "line %zu: longer than %u bytes",
					 lineno, RD_RECORDING_LINE_MAX);
				return -EFBIG;
			}
		}
	}
	if (ferror(rec->f)) {
		rd_snprintf_text(err, errlen, "read error");
		return -EIO;
	}
	if (!blank) {
		r = index_push(rec, start, len);
		if (r < 0)
			goto fail;
	}
	return 0;
fail:
	rd_snprintf_text(err, errlen, "line %zu: %s", lineno, strerror(-r));
	return r;
}

int rd_recording_open(const char *path, struct rd_recording *rec, char *err,
		      size_t errlen)
{
	struct rd_snapshot s;
	struct stat st;
	char msg[512];
	int fd, r;

	memset(rec, 0, sizeof(*rec));
	/* A FIFO or a device is refused before opening: open would block. */
	if (stat(path, &st) < 0) {
		r = -errno;
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path), strerror(-r));
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		rd_snprintf_text(err, errlen, "%s: not a regular file", rd_esc_tmp(path));
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0)
		rec->f = fdopen(fd, "r");
	if (!rec->f) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path), strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rd_snprintf_text(err, errlen, "%s: not a regular file", rd_esc_tmp(path));
		r = -EINVAL;
		goto fail;
	}
	r = index_lines(rec, msg, sizeof(msg));
	if (r < 0) {
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path), msg);
		goto fail;
	}
	if (rec->n == 0) {
		rd_snprintf_text(err, errlen, "%s: no snapshots in the recording",
			 rd_esc_tmp(path));
		r = -EINVAL;
		goto fail;
	}
	r = rd_recording_frame(rec, 0, &s, msg, sizeof(msg));
	rd_snapshot_free(&s);
	if (r < 0) {
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path), msg);
		goto fail;
	}
	return 0;
fail:
	rd_recording_close(rec);
	return r;
}

int rd_recording_frame(struct rd_recording *rec, size_t i,
		       struct rd_snapshot *s, char *err, size_t errlen)
{
	char *line, msg[384];
	int r;

	rd_snapshot_init(s);
	if (i >= rec->n) {
		rd_snprintf_text(err, errlen, "frame %zu: out of range (%zu frames)",
			 i + 1, rec->n);
		return -ERANGE;
	}
	line = malloc(rec->len[i] + 1);
	if (!line) {
		rd_snprintf_text(err, errlen, "frame %zu: out of memory", i + 1);
		return -ENOMEM;
	}
	if (fseeko(rec->f, rec->off[i], SEEK_SET) < 0 ||
	    fread(line, 1, rec->len[i], rec->f) != rec->len[i]) {
		/* The file shrank or went away under us. */
		rd_snprintf_text(err, errlen, "frame %zu: cannot read", i + 1);
		free(line);
		return -EIO;
	}
	line[rec->len[i]] = '\0';
	r = rd_snapshot_from_string(line, rec->len[i], s, msg, sizeof(msg));
	free(line);
	if (r < 0)
		rd_snprintf_text(err, errlen, "frame %zu: %s", i + 1, msg);
	return r;
}

int rd_recording_load_last(const char *path, struct rd_snapshot *s, char *err,
			   size_t errlen)
{
	struct rd_recording rec = { 0 };
	char msg[512], rerr[512];
	int r, rr;

	r = rr = rd_recording_open(path, &rec, rerr, sizeof(rerr));
	if (r == 0 && rec.n > 1) {
		r = rd_recording_frame(&rec, rec.n - 1, s, msg, sizeof(msg));
		rd_recording_close(&rec);
		if (r < 0)
			rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path), msg);
		return r;
	}
	if (r == 0)
		rd_recording_close(&rec);
	r = rd_snapshot_load_file(path, s, msg, sizeof(msg));
	if (r < 0)
		rd_load_failure(err, errlen, r, msg, rr, rerr);
	return r;
}

void rd_load_failure(char *err, size_t errlen, int sr, const char *serr,
		     int rr, const char *rerr)
{
	/* rr 0: the recording reading did not fail, and rerr holds nothing
	 * (the file changed between the two readings). */
	if (sr != -EBADMSG || rr == 0)
		rd_snprintf_text(err, errlen, "%s", serr);
	else if (rr != -EBADMSG)
		rd_snprintf_text(err, errlen, "%s", rerr);
	else
		rd_snprintf_text(err, errlen, "%s (not a recording either: %s)",
				 serr, rerr);
}

void rd_recording_close(struct rd_recording *rec)
{
	if (rec->f)
		fclose(rec->f);
	free(rec->off);
	free(rec->len);
	memset(rec, 0, sizeof(*rec));
}

int rd_recording_append(FILE *f, const struct rd_snapshot *s)
{
	char *text = rd_snapshot_to_string(s, 0);
	int r = 0;

	if (!text)
		return -ENOMEM;
	/* The plain form never contains a newline, so one line = one frame. */
	if (strchr(text, '\n'))
		r = -EINVAL;
	else if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		r = errno ? -errno : -EIO;
	free(text);
	return r;
}
