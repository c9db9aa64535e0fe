// SPDX-License-Identifier: GPL-2.0-or-later
/* Output files that follow no symlink: create, or replace by rename. */
#include "config.h"
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"

/* A temporary ".name.XXXXXX" created in dirfd; its fd, or -errno. */
static int tmp_create(int dirfd, const char *name, unsigned mode, char *tmp,
		      size_t tmplen)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char rnd[6];
		char suffix[7];
		int fd;

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -EIO;
		for (size_t i = 0; i < sizeof(rnd); i++)
			suffix[i] = abc[rnd[i] % (sizeof(abc) - 1)];
		suffix[6] = '\0';
		if ((size_t)snprintf(tmp, tmplen, ".%.40s.%s", name, suffix) >=
		    tmplen)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    (mode_t)mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* path split into its directory (opened) and last name. */
static int split(const char *path, int *dirfd, char *name, size_t namelen)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash) {
		dir = strdup(".");
		slash = path - 1;
	} else {
		dir = strndup(path, (size_t)(slash - path) + (slash == path));
	}
	if (!dir)
		return -ENOMEM;
	if (!slash[1] || strcmp(slash + 1, ".") == 0 ||
	    strcmp(slash + 1, "..") == 0 || strlen(slash + 1) >= namelen) {
		free(dir);
		return -EINVAL;
	}
	snprintf(name, namelen, "%s", slash + 1);
	*dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return *dirfd < 0 ? -errno : 0;
}

int rd_outfile_open(struct rd_outfile *o, const char *path, bool replace,
		    unsigned mode, char *err, size_t errlen)
{
	int fd, r;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	r = split(path, &o->dirfd, o->name, sizeof(o->name));
	if (r < 0) {
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(path),
				 r == -EINVAL ? "not a file name"
					      : strerror(-r));
		return r;
	}
	if (replace) {
		fd = tmp_create(o->dirfd, o->name, mode, o->tmp,
				sizeof(o->tmp));
	} else {
		fd = openat(o->dirfd, o->name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    (mode_t)mode);
		if (fd < 0)
			fd = -errno;
	}
	if (fd >= 0 && !(o->f = fdopen(fd, "w"))) {
		r = -errno;
		close(fd);
		fd = r;
	}
	if (fd < 0) {
		rd_snprintf_text(err, errlen, "%s: %s%s", rd_esc_tmp(path),
				 strerror(-fd),
				 fd == -EEXIST && !replace
					 ? " (a file, or a symlink, is there: "
					   "--force replaces it)"
					 : "");
		o->tmp[0] = '\0';
		close(o->dirfd);
		o->dirfd = -1;
		return fd;
	}
	return 0;
}

int rd_outfile_close(struct rd_outfile *o, bool keep, char *err, size_t errlen)
{
	int r = 0;

	if (!o->f)
		return 0;
	if (fflush(o->f) != 0 || fsync(fileno(o->f)) < 0)
		r = -errno;
	if (fclose(o->f) != 0 && r == 0)
		r = -errno;
	o->f = NULL;
	if (o->tmp[0]) {
		if (r == 0 && keep &&
		    renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0)
			r = -errno;
		if (r < 0 || !keep)
			unlinkat(o->dirfd, o->tmp, 0);
	}
	if (r == 0 && fsync(o->dirfd) < 0 && errno != EINVAL)
		r = -errno;
	if (r < 0)
		rd_snprintf_text(err, errlen, "cannot write %s: %s",
				 rd_esc_tmp(o->name), strerror(-r));
	close(o->dirfd);
	o->dirfd = -1;
	return r;
}

int rd_outdir_open(const char *dir, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		int e = errno;

		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(dir),
				 e == ELOOP || e == ENOTDIR
					 ? "a symlink or not a directory; "
					   "refused"
					 : strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(dir),
				 strerror(e));
		return -e;
	}
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		close(fd);
		rd_snprintf_text(err, errlen,
				 "%s: others can write to it and it is not "
				 "sticky; refused",
				 rd_esc_tmp(dir));
		return -EPERM;
	}
	return fd;
}

int rd_outdir_replace(int dirfd, const char *name, const char *text, size_t len,
		      unsigned mode, char *err, size_t errlen)
{
	char tmp[64];
	int fd = tmp_create(dirfd, name, mode, tmp, sizeof(tmp)), r = 0;

	if (fd < 0) {
		rd_snprintf_text(err, errlen,
				 "cannot create a file beside %s: %s",
				 rd_esc_tmp(name), strerror(-fd));
		return fd;
	}
	while (len && r == 0) {
		ssize_t w = write(fd, text, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			r = w < 0 ? -errno : -EIO;
		else {
			text += w;
			len -= (size_t)w;
		}
	}
	/* The mode asked for, whatever the umask. */
	if (r == 0 && fchmod(fd, (mode_t)mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dirfd, tmp, 0);
		rd_snprintf_text(err, errlen, "cannot write %s: %s",
				 rd_esc_tmp(name), strerror(-r));
	}
	return r;
}
