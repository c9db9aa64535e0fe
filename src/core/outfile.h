/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files rdmadiag writes for a person (capture -o FILE) or a collector
 * (export --textfile DIR), as root, often in a directory others can write
 * to: never through a symlink another user planted. A new file is created
 * with O_CREAT|O_EXCL|O_NOFOLLOW; replacing one (--force, the textfile)
 * writes a temporary file beside it and renames it over the name, all
 * relative to one handle on the directory, so neither the name nor the
 * directory can be swapped for a link in between.
 */
#ifndef RD_CORE_OUTFILE_H
#define RD_CORE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rd_outfile {
	FILE *f;	/* write here */
	int dirfd;	/* the directory's handle, or -1 */
	char tmp[64];	/* the temporary name, "" when written in place */
	char name[256]; /* the final name in the directory */
};

/*
 * Open path for writing: a new file (refused with -EEXIST when the name
 * exists, a symlink included), or with replace through a temporary file
 * renamed over it by rd_outfile_close. mode is the file's. 0, or -errno
 * with err set.
 */
int rd_outfile_open(struct rd_outfile *o, const char *path, bool replace,
		    unsigned mode, char *err, size_t errlen);

/*
 * Flush, sync and close; a temporary file is renamed over the name (keep)
 * or removed. 0, or -errno with err set.
 */
int rd_outfile_close(struct rd_outfile *o, bool keep, char *err, size_t errlen);

/*
 * A directory to write into: opened with O_DIRECTORY|O_NOFOLLOW (a
 * symlink is refused), and refused when others may write to it and it is
 * not sticky (another user could rename a file of its own into place).
 * The handle, or -errno with err set.
 */
int rd_outdir_open(const char *dir, char *err, size_t errlen);

/*
 * Write text as name in the directory dirfd through a temporary file and
 * a rename (node_exporter reads only "*.prom", never the ".name.XXXXXX"
 * being written). 0, or -errno with err set.
 */
int rd_outdir_replace(int dirfd, const char *name, const char *text, size_t len,
		      unsigned mode, char *err, size_t errlen);

#endif
