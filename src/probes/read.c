// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "probes/read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/roots.h"

void rd_probe_bad_value(struct rd_snapshot *s, const char *src,
			const char *base, const char *rel, int err,
			const char *text)
{
	char w[PATH_MAX + 256];

	if (base)
		snprintf(w, sizeof(w), "%s/%s", base, rel);
	else
		snprintf(w, sizeof(w), "%s", rel);
	if (text)
		rd_snapshot_error(s, src, w, err, "unexpected value \"%.64s\"",
				  text);
	else
		rd_snapshot_error(s, src, w, err, NULL);
}

int rd_probe_read(struct rd_snapshot *s, const char *src, int dirfd,
		  const char *base, const char *rel, char *buf, size_t size,
		  bool optional)
{
	ssize_t r = rd_attr_read_at(dirfd, rel, buf, size);

	if (r >= 0)
		return 0;
	if (!(optional && r == -ENOENT))
		rd_probe_bad_value(s, src, base, rel, (int)-r, NULL);
	return (int)r;
}

int rd_probe_read_u64(struct rd_snapshot *s, const char *src, int dirfd,
		      const char *base, const char *rel, bool hex,
		      uint64_t max, uint64_t *out, bool optional)
{
	char buf[64];
	uint64_t v;
	int r = rd_probe_read(s, src, dirfd, base, rel, buf, sizeof(buf),
			      optional);

	if (r < 0)
		return r;
	if (rd_parse_u64(buf, hex ? 0 : 10, &v) < 0 || v > max) {
		rd_probe_bad_value(s, src, base, rel, EINVAL, buf);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

bool rd_probe_word_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return true;
}

int rd_probe_read_str(struct rd_snapshot *s, const char *src, int dirfd,
		      const char *base, const char *rel,
		      bool (*ok)(const char *v), char **out, bool optional)
{
	char buf[512];
	int r = rd_probe_read(s, src, dirfd, base, rel, buf, sizeof(buf),
			      optional);

	if (r < 0)
		return r;
	if (!ok(buf)) {
		rd_probe_bad_value(s, src, base, rel, EINVAL, buf);
		return -EINVAL;
	}
	return rd_str_set(out, buf);
}

int rd_probe_lead_number(const char *text, double *v, const char **end)
{
	char num[32];
	size_t i = 0;

	while (*text == ' ')
		text++;
	while ((text[i] >= '0' && text[i] <= '9') || text[i] == '.') {
		if (i + 1 >= sizeof(num))
			return -EINVAL;
		num[i] = text[i];
		i++;
	}
	num[i] = '\0';
	if (i == 0 || rd_parse_double(num, v) < 0)
		return -EINVAL;
	*end = text + i;
	return 0;
}

int rd_probe_list(struct rd_snapshot *s, const char *src, const char *path,
		  size_t max, char ***names, size_t *n)
{
	int r = rd_dir_list(AT_FDCWD, path, max, names, n);

	if (r < 0 && r != -ENOENT)
		rd_probe_bad_value(s, src, NULL, path, r, NULL);
	return r;
}

int rd_probe_list_under(struct rd_snapshot *s, const char *src, char *path,
			size_t size, const char *root, const char *rel,
			size_t max, char ***names, size_t *n)
{
	int r = rd_path(path, size, root, "%s", rel);

	return r < 0 ? r : rd_probe_list(s, src, path, max, names, n);
}

int rd_probe_open_dir(struct rd_snapshot *s, const char *src,
		      const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	fd = -errno;
	if (fd != -ENOENT)
		rd_probe_bad_value(s, src, NULL, path, fd, NULL);
	return fd;
}

int rd_probe_link_name(int dirfd, const char *rel, char *name, size_t size)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(dirfd, rel, target, sizeof(target) - 1);
	const char *b;
	size_t len;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	len = strlen(b);
	if (len == 0 || len >= size || rd_text_check(b, len) < 0)
		return -EINVAL;
	memcpy(name, b, len + 1);
	return 0;
}
