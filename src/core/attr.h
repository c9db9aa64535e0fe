/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checked reading of sysfs/procfs attributes and strict number parsing.
 * Every function returns 0 (or a length) on success and -errno on failure.
 */
#ifndef RD_CORE_ATTR_H
#define RD_CORE_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Largest attribute accepted; a bigger file is refused, not truncated. */
#define RD_ATTR_MAX 65536

/*
 * Read a text attribute into buf (NUL-terminated, trailing newline removed).
 * Refuses non-regular files (a FIFO would block), files that do not fit in
 * buf (-EFBIG), and content that is not printable text (-EILSEQ).
 * Returns the length of the text, or -errno.
 */
ssize_t rd_attr_read(const char *path, char *buf, size_t size);
ssize_t rd_attr_read_at(int dirfd, const char *name, char *buf, size_t size);
/*
 * The same for a file of lines (/proc/meminfo, cgroup, mountinfo): newlines
 * and tabs are kept, every other control byte is refused. An attribute
 * holding one value is read with rd_attr_read, which refuses them too.
 */
ssize_t rd_attr_read_lines(const char *path, char *buf, size_t size);

/*
 * Read a binary attribute (PCI config space, VPD) of a regular file in
 * dirfd, not following a link: up to size bytes, stopping early at its
 * end or at a read error (sysfs ends config space where the caller may not
 * read further). Returns the bytes read, or -errno when it cannot be opened.
 */
ssize_t rd_attr_read_bytes_at(int dirfd, const char *name, void *buf,
			      size_t size);

/* Open an attribute for repeated rd_attr_pread() calls; -errno on failure. */
int rd_attr_open(const char *path);
ssize_t rd_attr_pread(int fd, char *buf, size_t size);

/*
 * Validate one value just read: valid UTF-8 with no control byte at all
 * (C0 including newline and tab, DEL, C1 U+0080..U+009F), so a value can
 * never start a new line or a terminal sequence. -EILSEQ otherwise.
 */
int rd_text_check(const char *buf, size_t len);
/* The same for lines of text: newline and tab are allowed. */
int rd_text_check_lines(const char *buf, size_t len);

/*
 * Strict parsers: the whole string must be the number (leading/trailing
 * blanks allowed), no sign for unsigned values, no overflow.
 * base 0 accepts 0x-prefixed hex as well as decimal.
 */
int rd_parse_u64(const char *s, int base, uint64_t *out);
int rd_parse_u32(const char *s, int base, uint32_t *out);
int rd_parse_s64(const char *s, int base, int64_t *out);
int rd_parse_double(const char *s, double *out);
/* strtod in the C locale, whatever the process's LC_NUMERIC says. */
double rd_strtod_c(const char *s, char **end);

/*
 * Parse a number at the start of s, stopping at the first character in
 * stops (e.g. "4: ACTIVE" with stops ":"); *rest points after it.
 */
int rd_parse_u64_prefix(const char *s, const char *stops, uint64_t *out,
			const char **rest);

/* The value of one hex digit, or -1. */
int rd_hex_digit(char c);
/* "fe80:0000:...:0001" (8 groups of 4 hex digits) into 16 bytes. */
int rd_parse_gid(const char *s, uint8_t gid[16]);
/* "0002:c903:0042:6a40" (4 groups of 4 hex digits) into a u64. */
int rd_parse_guid(const char *s, uint64_t *out);
void rd_format_gid(const uint8_t gid[16], char *buf, size_t size);
void rd_format_guid(uint64_t guid, char *buf, size_t size);

/*
 * The entries of directory rel under dirfd (AT_FDCWD: rel is a path),
 * dot files skipped, sorted by name, at most max of them (a hostile tree
 * cannot make the list unbounded). 0 or -errno; free with rd_dir_free().
 */
int rd_dir_list(int dirfd, const char *rel, size_t max, char ***names,
		size_t *n);
void rd_dir_free(char **names, size_t n);

/* Remove leading and trailing blanks in place; returns s. */
char *rd_strtrim(char *s);

#endif
