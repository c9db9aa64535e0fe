// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fix kind sysctl: write one of the few /proc/sys files a check names,
 * never any other path, with a value bounded by what the host has.
 */
#include "config.h"
#include "fix/fix_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/escape.h"
#include "core/json.h"

static const char *const checks[] = { "host.hugepages", NULL };

/* Every sysctl a check can produce: exactly these. */
static const struct {
	const char *path;
	const char *name;	/* for sysctl -w */
} allowed[] = {
	{ "/proc/sys/vm/nr_hugepages", "vm.nr_hugepages" },
};

static int find(const char *path)
{
	for (size_t i = 0; path && i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (strcmp(path, allowed[i].path) == 0)
			return (int)i;
	return -1;
}

static int sysctl_check(const struct rd_fix_target *t, const char *value,
			char *why, size_t len)
{
	uint64_t v;

	if (find(t->arg) < 0) {
		snprintf(why, len, "%s is not a setting any check changes",
			 rd_esc_tmp(t->arg));
		return -EINVAL;
	}
	if (rd_fix_parse_dec(value, &v) < 0) {
		snprintf(why, len, "\"%s\" is not a count", rd_esc_tmp(value));
		return -EINVAL;
	}
	return 0;
}

static void sysctl_command(const struct rd_fix_target *t, const char *value,
			   char *buf, size_t len)
{
	int i = find(t->arg);
	char word[128];

	snprintf(word, sizeof(word), "%s=%s", i >= 0 ? allowed[i].name : "?",
		 value);
	snprintf(buf, len, "sysctl -w %s", rd_shquote_tmp(word));
}

static int sysctl_read(const struct rd_fix_target *t, char *val, size_t len,
		       char *msg, size_t ml)
{
	ssize_t n = rd_attr_read(t->arg, val, len);

	if (n < 0) {
		snprintf(msg, ml, "%s: %s", t->arg, strerror((int)-n));
		return (int)n;
	}
	return 0;
}

/* A /proc/meminfo line's kB value. */
static int meminfo_kb(const char *text, const char *key, uint64_t *kb)
{
	const char *p = strstr(text, key);

	if (!p || (p != text && p[-1] != '\n'))
		return -ENOENT;
	p += strlen(key);
	*kb = strtoull(p, NULL, 10);
	return *kb ? 0 : -EINVAL;
}

static int sysctl_validate(const struct rd_fix_target *t, const char *value,
			   char *msg, size_t ml)
{
	uint64_t v = 0, total = 0, page = 0;
	char *text = NULL;
	size_t len;
	int r;

	(void)t;
	rd_fix_parse_dec(value, &v);
	r = rd_read_file("/proc/meminfo", 1 << 20, &text, &len);
	if (r == 0 && (meminfo_kb(text, "MemTotal:", &total) < 0 ||
		       meminfo_kb(text, "Hugepagesize:", &page) < 0))
		r = -EINVAL;
	free(text);
	if (r < 0) {
		snprintf(msg, ml, "/proc/meminfo: MemTotal or Hugepagesize not read");
		return r;
	}
	/* Huge pages are taken from memory: never more than there is. */
	if (v > total / page) {
		snprintf(msg, ml,
			 "%" PRIu64 " huge pages of %" PRIu64 " kB are more than the %" PRIu64 " kB of memory",
			 v, page, total);
		return -ERANGE;
	}
	return 0;
}

static int sysctl_apply(const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml)
{
	char buf[RD_FIX_VALUE_MAX + 2];
	int fd, r = 0, n;

	errno = 0;
	n = snprintf(buf, sizeof(buf), "%s\n", value);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		snprintf(msg, ml, "value too long for %s", t->arg);
		return -EINVAL;
	}
	fd = open(t->arg, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		r = -errno;
	else if (write(fd, buf, (size_t)n) != n)
		r = errno ? -errno : -EIO;
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		snprintf(msg, ml, "%s: %s", t->arg, strerror(-r));
	return r;
}

const struct rd_fix_ops rd_fix_sysctl_ops = {
	RD_FIX_KIND(sysctl, "sysctl", RD_FIX_SYSCTL, true),
	.target_value = rd_fix_target_decimal,
	.validate = sysctl_validate,
};
