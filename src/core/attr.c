// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/attr.h"
#include "core/escape.h"
#include "core/model.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool utf8_valid(const unsigned char *p, size_t len)
{
	uint32_t cp;
	size_t n;

	for (size_t i = 0; i < len; i += n)
		if (p[i] < 0x80)
			n = 1;
		else if (!(n = rd_utf8_seq(p + i, len - i, &cp)))
			return false;
	return true;
}

/* C1 controls (U+0080..U+009F) are two bytes in UTF-8: 0xc2 0x80..0x9f. */
static bool has_c1(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			return true;
	return false;
}

static int text_check(const char *buf, size_t len, bool lines)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (lines && (c == '\t' || c == '\n'))
			continue;
		if (c < 0x20 || c == 0x7f)
			return -EILSEQ;
	}
	if (!utf8_valid((const unsigned char *)buf, len) ||
	    has_c1((const unsigned char *)buf, len))
		return -EILSEQ;
	return 0;
}

int rd_text_check(const char *buf, size_t len)
{
	return text_check(buf, len, false);
}

int rd_text_check_lines(const char *buf, size_t len)
{
	return text_check(buf, len, true);
}

/* Read everything from fd at offset 0 into buf; one spare byte detects overflow. */
static ssize_t read_whole(int fd, char *buf, size_t size, bool positioned,
			  bool lines)
{
	size_t len = 0;

	if (size < 2)
		return -EINVAL;
	for (;;) {
		ssize_t n;

		if (positioned)
			n = pread(fd, buf + len, size - len, (off_t)len);
		else
			n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len >= size)
			return -EFBIG;
		/*
		 * Only regular files and sysfs attributes get here, and
		 * both return short only at the end: skip the extra read
		 * that would return 0. This halves the syscalls of a refresh.
		 */
		if ((size_t)n < size - (len - (size_t)n))
			break;
	}
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (memchr(buf, '\0', len))
		return -EILSEQ;
	int r = text_check(buf, len, lines);
	if (r < 0)
		return r;
	return (ssize_t)len;
}

static int open_regular_at(int dirfd, const char *name, int flags)
{
	struct stat st;
	int fd = openat(dirfd, name,
			O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static ssize_t attr_read_at(int dirfd, const char *name, char *buf,
			    size_t size, bool lines)
{
	int fd = open_regular_at(dirfd, name, 0);
	ssize_t r;

	if (fd < 0)
		return fd;
	if (size > RD_ATTR_MAX + 1)
		size = RD_ATTR_MAX + 1;
	r = read_whole(fd, buf, size, false, lines);
	close(fd);
	return r;
}

ssize_t rd_attr_read_at(int dirfd, const char *name, char *buf, size_t size)
{
	return attr_read_at(dirfd, name, buf, size, false);
}

ssize_t rd_attr_read(const char *path, char *buf, size_t size)
{
	return attr_read_at(AT_FDCWD, path, buf, size, false);
}

ssize_t rd_attr_read_lines(const char *path, char *buf, size_t size)
{
	return attr_read_at(AT_FDCWD, path, buf, size, true);
}

ssize_t rd_attr_read_bytes_at(int dirfd, const char *name, void *buf,
			      size_t size)
{
	int fd = open_regular_at(dirfd, name, O_NOFOLLOW);
	size_t len = 0;

	if (fd < 0)
		return fd;
	while (len < size) {
		ssize_t n = read(fd, (char *)buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return (ssize_t)len;
}

int rd_attr_open(const char *path)
{
	return open_regular_at(AT_FDCWD, path, 0);
}

ssize_t rd_attr_pread(int fd, char *buf, size_t size)
{
	return read_whole(fd, buf, size, true, false);
}

char *rd_strtrim(char *s)
{
	size_t len = strlen(s);
	char *p = s;

	while (len > 0 && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
	return s;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/* Parse digits only (no sign); stop at end. */
static int parse_digits(const char *s, int base, uint64_t *out,
			const char **end)
{
	uint64_t v = 0;
	const char *p = s;
	int any = 0;

	if (base == 0) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			base = 16;
			p += 2;
		} else {
			base = 10;
		}
	} else if (base == 16 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
	}
	for (;; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -ERANGE;
		v = v * (uint64_t)base + (uint64_t)d;
		any = 1;
	}
	if (!any)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

/*
 * Blanks, an optional sign (stored in *sign, or 0), digits in base, blanks;
 * *end is what follows. The value without its sign in *v. 0, -EINVAL or
 * -ERANGE.
 */
static int parse_lead(const char *s, int base, uint64_t *v, char *sign,
		      const char **end)
{
	int r;

	*sign = 0;
	if (!s)
		return -EINVAL;
	s = skip_blanks(s);
	if (*s == '-' || *s == '+')
		*sign = *s++;
	r = parse_digits(s, base, v, end);
	if (r < 0)
		return r;
	*end = skip_blanks(*end);
	return 0;
}

/* parse_lead() without a sign: "-" is out of range, "+" not a number. */
static int parse_unsigned(const char *s, int base, uint64_t *v,
			  const char **end)
{
	char sign;
	int r = parse_lead(s, base, v, &sign, end);

	if (sign)
		return sign == '-' ? -ERANGE : -EINVAL;
	return r;
}

int rd_parse_u64(const char *s, int base, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int r = parse_unsigned(s, base, &v, &end);

	if (r < 0)
		return r;
	if (*end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int rd_parse_u32(const char *s, int base, uint32_t *out)
{
	uint64_t v;
	int r = rd_parse_u64(s, base, &v);

	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

int rd_parse_s64(const char *s, int base, int64_t *out)
{
	const char *end;
	uint64_t v;
	char sign;
	int r = parse_lead(s, base, &v, &sign, &end);

	if (r < 0)
		return r;
	if (*end != '\0')
		return -EINVAL;
	if (sign == '-') {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return -ERANGE;
		*out = (int64_t)v;
	}
	return 0;
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_make(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

double rd_strtod_c(const char *s, char **end)
{
	/* The console follows the locale; numbers from outside never do. */
	pthread_once(&c_locale_once, c_locale_make);
	return c_locale ? strtod_l(s, end, c_locale) : strtod(s, end);
}

int rd_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	s = skip_blanks(s);
	if (*s == '\0')
		return -EINVAL;
	errno = 0;
	v = rd_strtod_c(s, &end);
	if (end == s || *skip_blanks(end) != '\0')
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int rd_parse_u64_prefix(const char *s, const char *stops, uint64_t *out,
			const char **rest)
{
	const char *end;
	uint64_t v;
	int r = parse_unsigned(s, 10, &v, &end);

	if (r < 0)
		return r;
	if (*end != '\0' && !strchr(stops, *end))
		return -EINVAL;
	*out = v;
	if (rest)
		*rest = *end ? skip_blanks(end + 1) : end;
	return 0;
}

int rd_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* n groups of exactly 4 hex digits separated by ':' */
static int parse_groups(const char *s, int n, uint16_t *g)
{
	for (int i = 0; i < n; i++) {
		unsigned v = 0;

		for (int k = 0; k < 4; k++, s++) {
			int h = rd_hex_digit(*s);

			if (h < 0)
				return -EINVAL;
			v = v * 16 + (unsigned)h;
		}
		g[i] = (uint16_t)v;
		if (i < n - 1) {
			if (*s != ':')
				return -EINVAL;
			s++;
		}
	}
	return *s == '\0' ? 0 : -EINVAL;
}

int rd_parse_gid(const char *s, uint8_t gid[16])
{
	uint16_t g[8];
	int r = parse_groups(s, 8, g);

	if (r < 0)
		return r;
	for (int i = 0; i < 8; i++) {
		gid[2 * i] = (uint8_t)(g[i] >> 8);
		gid[2 * i + 1] = (uint8_t)g[i];
	}
	return 0;
}

int rd_parse_guid(const char *s, uint64_t *out)
{
	uint16_t g[4];
	int r = parse_groups(s, 4, g);

	if (r < 0)
		return r;
	*out = ((uint64_t)g[0] << 48) | ((uint64_t)g[1] << 32) |
	       ((uint64_t)g[2] << 16) | g[3];
	return 0;
}

void rd_format_gid(const uint8_t gid[16], char *buf, size_t size)
{
	snprintf(buf, size,
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 gid[0], gid[1], gid[2], gid[3], gid[4], gid[5], gid[6], gid[7],
		 gid[8], gid[9], gid[10], gid[11], gid[12], gid[13], gid[14],
		 gid[15]);
}

void rd_format_guid(uint64_t guid, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%04x:%04x:%04x",
		 (unsigned)(guid >> 48) & 0xffff, (unsigned)(guid >> 32) & 0xffff,
		 (unsigned)(guid >> 16) & 0xffff, (unsigned)guid & 0xffff);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rd_dir_list(int dirfd, const char *rel, size_t max, char ***names,
		size_t *n)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *dir;

	*names = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		int e = -errno;

		close(fd);
		return e;
	}
	while ((de = readdir(dir)) && *n < max) {
		char *name, **slot;

		if (de->d_name[0] == '.')
			continue;
		name = strdup(de->d_name);
		if (!name)
			break;
		slot = RD_PUSH(*names, *n);
		if (!slot) {
			free(name);
			break;
		}
		*slot = name;
	}
	closedir(dir);
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), cmp_name);
	return 0;
}

void rd_dir_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
