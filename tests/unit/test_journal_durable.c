// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal is on disk before the change it announces. This program is
 * linked with -Wl,--wrap= for fsync, fdatasync, write, openat, mkdirat,
 * rename(at) and unlink(at) (tests/unit/local.mk), so every such call the
 * journal and the fix engine make lands in a log: what the descriptor is
 * (a directory or not, its path from /proc/self/fd) and whether the call
 * failed. The engine runs against the in-memory host, whose changes are
 * logged too, so the order "record written, record synced, host changed"
 * is read from what really happened. A wrapped fsync can also fail with
 * EIO, and then nothing may change. Runs as root or not.
 */
#include "config.h"

#include "unit.h"

#include <stdarg.h>

#include "fix/journal.h"
#include "test_fix_mock.h"

enum ev_kind {
	EV_MKDIR,	/* a directory made (parent: where its name is) */
	EV_CREATE,	/* a file made by openat(O_CREAT) */
	EV_WRITE,	/* bytes written to a file */
	EV_SYNC,	/* fsync or fdatasync */
	EV_RENAME,	/* parent: the directory of the new name */
	EV_UNLINK,
	EV_CHANGE,	/* the host changed (the mock host's apply) */
};

struct ev {
	enum ev_kind kind;
	bool dir;	/* EV_SYNC: of a directory */
	bool failed;	/* the call returned -1 */
	char path[PATH_MAX];
	char parent[PATH_MAX];
};

#define MAX_EV 256
static struct ev evs[MAX_EV];
static size_t n_ev;
static bool recording;

/* Fail the next fsync of this path (a file or a directory) with EIO. */
static char fail_path[PATH_MAX];
/* ... and only while the file has unsynced writes (a record's fsync). */
static bool fail_dirty_only;
static bool dirty;

static char root[PATH_MAX];	/* the scratch directory */
static char sub[PATH_MAX];	/* the journal's directory, made by it */
static char path[PATH_MAX];	/* the journal */
static struct mock_host mh;
static struct rd_fix_host logged_host;

static void path_of(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	if (fd == AT_FDCWD) {
		if (!getcwd(buf, len))
			snprintf(buf, len, "?");
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n < 0 ? 0 : n] = '\0';
}

static void name_at(int at, const char *name, char *p, size_t pl,
		    char *parent, size_t dl)
{
	char d[PATH_MAX];
	const char *slash;

	if (name[0] == '/') {
		snprintf(p, pl, "%s", name);
		slash = strrchr(name, '/');
		snprintf(parent, dl, "%.*s", (int)(slash - name), name);
		if (!parent[0])
			snprintf(parent, dl, "/");
		return;
	}
	path_of(at, d, sizeof(d));
	snprintf(parent, dl, "%s", d);
	snprintf(p, pl, "%s/%s", strcmp(d, "/") ? d : "", name);
}

static struct ev *log_ev(enum ev_kind kind)
{
	struct ev *e;

	if (!recording || n_ev >= MAX_EV)
		return NULL;
	e = &evs[n_ev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

/* ---- the wrapped calls ---- */

int __real_fsync(int fd);
int __real_fdatasync(int fd);
ssize_t __real_write(int fd, const void *buf, size_t len);
int __real_openat(int at, const char *name, int flags, ...);
int __real_mkdirat(int at, const char *name, mode_t mode);
int __real_rename(const char *from, const char *to);
int __real_renameat(int fa, const char *from, int ta, const char *to);
int __real_unlink(const char *name);
int __real_unlinkat(int at, const char *name, int flags);

int __wrap_fsync(int fd);
int __wrap_fdatasync(int fd);
ssize_t __wrap_write(int fd, const void *buf, size_t len);
int __wrap_openat(int at, const char *name, int flags, ...);
int __wrap_mkdirat(int at, const char *name, mode_t mode);
int __wrap_rename(const char *from, const char *to);
int __wrap_renameat(int fa, const char *from, int ta, const char *to);
int __wrap_unlink(const char *name);
int __wrap_unlinkat(int at, const char *name, int flags);

static int synced(int fd, int (*real)(int))
{
	char p[PATH_MAX];
	struct stat st;
	struct ev *e;
	int r, saved;

	path_of(fd, p, sizeof(p));
	if (fail_path[0] && strcmp(p, fail_path) == 0 &&
	    (!fail_dirty_only || dirty)) {
		fail_path[0] = '\0';
		r = -1;
		errno = EIO;
	} else {
		r = real(fd);
	}
	saved = errno;
	e = log_ev(EV_SYNC);
	if (e) {
		snprintf(e->path, sizeof(e->path), "%s", p);
		e->dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
		e->failed = r < 0;
	}
	if (r == 0 && strcmp(p, path) == 0)
		dirty = false;
	errno = saved;
	return r;
}

int __wrap_fsync(int fd)
{
	return synced(fd, __real_fsync);
}

int __wrap_fdatasync(int fd)
{
	return synced(fd, __real_fdatasync);
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	ssize_t n = __real_write(fd, buf, len);
	int saved = errno;
	struct ev *e;
	char p[PATH_MAX];

	path_of(fd, p, sizeof(p));
	if (n > 0 && strcmp(p, path) == 0)
		dirty = true;
	if (strncmp(p, root, strlen(root)) == 0 && (e = log_ev(EV_WRITE))) {
		snprintf(e->path, sizeof(e->path), "%s", p);
		e->failed = n < 0;
	}
	errno = saved;
	return n;
}

int __wrap_openat(int at, const char *name, int flags, ...)
{
	mode_t mode = 0;
	struct ev *e;
	int fd, saved;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = __real_openat(at, name, flags, mode);
	saved = errno;
	/* O_EXCL: a success is a new name. */
	if (fd >= 0 && (flags & O_CREAT) && (flags & O_EXCL) &&
	    (e = log_ev(EV_CREATE))) {
		name_at(at, name, e->path, sizeof(e->path), e->parent,
			sizeof(e->parent));
	}
	errno = saved;
	return fd;
}

int __wrap_mkdirat(int at, const char *name, mode_t mode)
{
	int r = __real_mkdirat(at, name, mode), saved = errno;
	struct ev *e;

	if (r == 0 && (e = log_ev(EV_MKDIR)))
		name_at(at, name, e->path, sizeof(e->path), e->parent,
			sizeof(e->parent));
	errno = saved;
	return r;
}

static void log_name(enum ev_kind kind, int at, const char *name, int r)
{
	struct ev *e = log_ev(kind);

	if (e) {
		name_at(at, name, e->path, sizeof(e->path), e->parent,
			sizeof(e->parent));
		e->failed = r < 0;
	}
}

int __wrap_rename(const char *from, const char *to)
{
	int r = __real_rename(from, to), saved = errno;

	/* The old name goes as by unlink: its directory changes too. */
	log_name(EV_UNLINK, AT_FDCWD, from, r);
	log_name(EV_RENAME, AT_FDCWD, to, r);
	errno = saved;
	return r;
}

int __wrap_renameat(int fa, const char *from, int ta, const char *to)
{
	int r = __real_renameat(fa, from, ta, to), saved = errno;

	log_name(EV_UNLINK, fa, from, r);
	log_name(EV_RENAME, ta, to, r);
	errno = saved;
	return r;
}

int __wrap_unlink(const char *name)
{
	int r = __real_unlink(name), saved = errno;

	log_name(EV_UNLINK, AT_FDCWD, name, r);
	errno = saved;
	return r;
}

int __wrap_unlinkat(int at, const char *name, int flags)
{
	int r = __real_unlinkat(at, name, flags), saved = errno;

	log_name(EV_UNLINK, at, name, r);
	errno = saved;
	return r;
}

/* ---- reading the log ---- */

/* First successful sync of p (a directory or not) in [from, to), or -1. */
static long find_sync(const char *p, bool dir, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < n_ev; i++)
		if (evs[i].kind == EV_SYNC && !evs[i].failed &&
		    evs[i].dir == dir && strcmp(evs[i].path, p) == 0)
			return (long)i;
	return -1;
}

static long find_ev(enum ev_kind kind, const char *p, size_t from,
		    size_t to)
{
	for (size_t i = from; i < to && i < n_ev; i++)
		if (evs[i].kind == kind && (!p || strcmp(evs[i].path, p) == 0))
			return (long)i;
	return -1;
}

/*
 * The first event in [from, to) left unsynced at to: a write not
 * followed by a sync of its file; a name made, replaced or removed not
 * followed by a sync of its directory (a made file: by a sync of the file
 * and then of its directory). -1 when everything reached the disk.
 */
static long first_unsynced(size_t from, size_t to)
{
	for (size_t i = from; i < to && i < n_ev; i++) {
		const struct ev *e = &evs[i];
		long f;

		switch (e->kind) {
		case EV_WRITE:
			if (find_sync(e->path, false, i + 1, to) < 0)
				return (long)i;
			break;
		case EV_CREATE:
			f = find_sync(e->path, false, i + 1, to);
			if (f < 0 ||
			    find_sync(e->parent, true, (size_t)f + 1, to) < 0)
				return (long)i;
			break;
		case EV_MKDIR:
		case EV_RENAME:
		case EV_UNLINK:
			if (!e->failed &&
			    find_sync(e->parent, true, i + 1, to) < 0)
				return (long)i;
			break;
		default:
			break;
		}
	}
	return -1;
}

static void log_start(void)
{
	n_ev = 0;
	recording = true;
}

static size_t log_stop(void)
{
	recording = false;
	assert_true(n_ev < MAX_EV);
	return n_ev;
}

static void fail_next_sync(const char *p, bool dirty_only)
{
	snprintf(fail_path, sizeof(fail_path), "%s", p);
	fail_dirty_only = dirty_only;
}

static int logged_apply(const struct rd_fix_host *h,
			const struct rd_fix_ops *k,
			const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml)
{
	struct ev *e = log_ev(EV_CHANGE);

	if (e)
		snprintf(e->path, sizeof(e->path), "%s=%s", t->arg, value);
	return mh.host.apply(h, k, t, value, msg, ml);
}

static int setup(void **state)
{
	char real[PATH_MAX];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/rd-journal-durable-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	/* /proc/self/fd names the resolved path. */
	if (!realpath(root, real))
		return -1;
	snprintf(root, sizeof(root), "%s", real);
	snprintf(sub, sizeof(sub), "%s/state", root);
	snprintf(path, sizeof(path), "%s/journal.jsonl", sub);
	rd_journal_lock_wait_ms = 200;
	mock_init(&mh);
	logged_host = mh.host;
	logged_host.apply = logged_apply;
	fail_path[0] = '\0';
	dirty = false;
	n_ev = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	recording = false;
	unit_rmtree(root);
	return 0;
}

/* A change of veth0's MTU, or (undo_of) the undo of one. */
static struct rd_journal_entry mtu_entry(char *id, const char *undo_of)
{
	rd_journal_new_id(id, RD_JOURNAL_ID_MAX);
	return (struct rd_journal_entry){
		.id = id, .check = "port.mtu", .kind = "link_mtu",
		.arg = "veth0", .command = "ip link set dev veth0 mtu 9000",
		.before = undo_of ? "9000" : "1500",
		.after = undo_of ? "1500" : "9000",
		.undoable = !undo_of, .undo_of = (char *)undo_of,
	};
}

static struct rd_fixup mtu_fix(void)
{
	return (struct rd_fixup){
		.id = "port.mtu", .command = "ip link set dev veth0 mtu 9000",
		.impact = "test", .undoable = true, .kind = RD_FIX_LINK_MTU,
		.arg = "veth0", .value = 9000, .device = "rxe0", .port = 1,
		.ifindex = MOCK_RDMA_IFINDEX,
	};
}

/* ---- the checker itself can fail ---- */

/*
 * Logs written by hand, one event a word: W (write), S (sync of a file),
 * D (sync of a directory), C (create), R (rename), U (unlink), then the
 * path and for C, R, U the directory; and the first event left unsynced.
 */
static const struct {
	const char *log;
	long want;
} checker_cases[] = {
	{ "R:/d/f:/d S:/d/f", 0 },
	{ "R:/d/f:/d S:/d/f D:/d", -1 },
	/* A file's sync after its directory's is not enough. */
	{ "C:/d/f:/d D:/d S:/d/f", 0 },
	{ "C:/d/f:/d D:/d S:/d/f D:/d", -1 },
	{ "W:/d/f S:/d/g U:/d/g:/d", 0 },
	{ "W:/d/f S:/d/g U:/d/g:/d S:/d/f", 2 },
	{ "W:/d/f D:/d/f", 0 },
};

static void test_checker(void **state)
{
	static const char kinds[] = "WSDCRU";
	static const enum ev_kind kind_of[] = { EV_WRITE,  EV_SYNC,
						EV_SYNC,   EV_CREATE,
						EV_RENAME, EV_UNLINK };

	(void)state;
	for (size_t c = 0; c < sizeof(checker_cases) / sizeof(*checker_cases);
	     c++) {
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", checker_cases[c].log);
		log_start();
		for (char *w = strtok_r(buf, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			char *p = w + 2, *parent = strchr(p, ':');
			struct ev *e = log_ev(EV_WRITE);

			assert_non_null(e);
			e->kind = kind_of[strchr(kinds, w[0]) - kinds];
			e->dir = w[0] == 'D';
			if (parent)
				*parent++ = '\0';
			snprintf(e->path, sizeof(e->path), "%s", p);
			snprintf(e->parent, sizeof(e->parent), "%s",
				 parent ? parent : "");
		}
		log_stop();
		assert_int_equal(first_unsynced(0, n_ev), checker_cases[c].want);
	}
}

/* The wrappers see names change where they change. */
static void test_wrappers(void **state)
{
	char x[PATH_MAX], d[PATH_MAX], y[PATH_MAX];
	int rfd, dfd;

	(void)state;
	snprintf(x, sizeof(x), "%s/x", root);
	snprintf(d, sizeof(d), "%s/d", root);
	snprintf(y, sizeof(y), "%s/y", d);
	unit_put(root, "x", "x");
	assert_int_equal(mkdir(d, 0700), 0);
	rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rfd >= 0 && dfd >= 0);

	log_start();
	assert_int_equal(rename(x, y), 0);
	assert_int_equal(first_unsynced(0, n_ev), 0);	/* x left root */
	assert_int_equal(fsync(rfd), 0);
	assert_int_equal(first_unsynced(0, n_ev), 1);	/* y came to d */
	assert_int_equal(fsync(dfd), 0);
	assert_int_equal(first_unsynced(0, n_ev), -1);
	assert_int_equal(unlinkat(dfd, "y", 0), 0);
	assert_string_equal(evs[n_ev - 1].path, y);
	assert_int_equal(first_unsynced(0, n_ev), 4);
	assert_int_equal(fdatasync(dfd), 0);
	assert_int_equal(first_unsynced(0, n_ev), -1);
	log_stop();
	close(rfd);
	close(dfd);
}

/* ---- the journal's own calls ---- */

static void test_create(void **state)
{
	struct rd_journal_file jf;
	char err[512] = "";
	long mk, cr, fs, ds;
	size_t n;

	(void)state;
	log_start();
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	n = log_stop();
	/* The directory is made and its name synced in the scratch dir. */
	mk = find_ev(EV_MKDIR, sub, 0, n);
	assert_true(mk >= 0);
	assert_string_equal(evs[mk].parent, root);
	assert_true(find_sync(root, true, (size_t)mk + 1, n) > mk);
	/* The file is made, synced, then its directory. */
	cr = find_ev(EV_CREATE, path, 0, n);
	assert_true(cr > mk);
	assert_string_equal(evs[cr].parent, sub);
	fs = find_sync(path, false, (size_t)cr + 1, n);
	assert_true(fs > cr);
	ds = find_sync(sub, true, (size_t)fs + 1, n);
	assert_true(ds > fs);
	assert_int_equal(first_unsynced(0, n), -1);
	assert_int_equal(find_ev(EV_WRITE, NULL, 0, n), -1);
	rd_journal_close(&jf);

	/*
	 * Open again: the names are synced again, since a writer that made
	 * them and died before its own sync left names that may not be on
	 * disk; the next writer cannot tell.
	 */
	log_start();
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	n = log_stop();
	assert_int_equal(find_ev(EV_CREATE, NULL, 0, n), -1);
	assert_int_equal(find_ev(EV_MKDIR, NULL, 0, n), -1);
	fs = find_sync(path, false, 0, n);
	assert_true(fs >= 0);
	assert_true(find_sync(sub, true, (size_t)fs + 1, n) > fs);
	assert_true(find_sync(root, true, 0, n) >= 0);
	rd_journal_close(&jf);

	/* Reading syncs and writes nothing. */
	{
		struct rd_journal j;

		log_start();
		assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)),
				 0);
		n = log_stop();
		assert_int_equal(n, 0);
		rd_journal_free(&j);
	}
}

/* Append with f and check its lines were synced before it returned. */
#define APPEND_SYNCED(call)                                                    \
	do {                                                                   \
		size_t n_;                                                     \
		long w_;                                                       \
		log_start();                                                   \
		assert_int_equal((call), 0);                                   \
		n_ = log_stop();                                               \
		w_ = find_ev(EV_WRITE, path, 0, n_);                           \
		assert_true(w_ >= 0);                                          \
		assert_true(find_sync(path, false, (size_t)w_ + 1, n_) > w_);  \
		assert_int_equal(first_unsynced(0, n_), -1);                   \
	} while (0)

static void test_append(void **state)
{
	struct rd_journal_entry e, u;
	struct rd_journal_file jf;
	struct rd_journal j;
	char id[RD_JOURNAL_ID_MAX], uid[RD_JOURNAL_ID_MAX], err[512] = "";

	(void)state;
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	e = mtu_entry(id, NULL);
	e.confirm_by = 1700000030.0;
	APPEND_SYNCED(rd_journal_append_apply(&jf, &e, err, sizeof(err)));
	APPEND_SYNCED(rd_journal_append_result(&jf, id, "ok", "9000", err,
					       sizeof(err)));
	APPEND_SYNCED(rd_journal_append_confirm(&jf, id, err, sizeof(err)));
	/* The undo's entry and the "ok" that marks the change undone. */
	u = mtu_entry(uid, id);
	APPEND_SYNCED(rd_journal_append_apply(&jf, &u, err, sizeof(err)));
	APPEND_SYNCED(rd_journal_append_result(&jf, uid, "ok", "1500", err,
					       sizeof(err)));
	rd_journal_close(&jf);

	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_true(j.v[0].undone);
	assert_true(j.v[0].confirmed);
	rd_journal_free(&j);
}

/* ---- the engine: synced before the host changes ---- */

/* The change at c follows a write to the journal that was synced. */
static void assert_announced(long c)
{
	long w = -1;

	assert_true(c >= 0);
	for (long i = 0; i < c; i++)
		if (evs[i].kind == EV_WRITE && strcmp(evs[i].path, path) == 0)
			w = i;
	assert_true(w >= 0);
	assert_true(find_sync(path, false, (size_t)w + 1, (size_t)c) > w);
}

static void test_engine(void **state)
{
	struct rd_fixup f = mtu_fix();
	struct rd_fix_done d;
	struct rd_journal j;
	char msg[1024] = "", err[512] = "";
	long c;
	size_t n;

	(void)state;
	log_start();
	assert_int_equal(rd_fix_engine_apply(&logged_host, &f, path, 0, &d,
					     msg, sizeof(msg)),
			 0);
	n = log_stop();
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "9000");
	c = find_ev(EV_CHANGE, "veth0=9000", 0, n);
	assert_announced(c);
	/* The journal's names were synced before the change too. */
	assert_int_equal(first_unsynced(0, (size_t)c), -1);
	/* The result line was synced before apply returned. */
	assert_true(find_ev(EV_WRITE, path, (size_t)c + 1, n) > c);
	assert_int_equal(first_unsynced(0, n), -1);

	log_start();
	assert_int_equal(rd_fix_engine_undo(&logged_host, path, NULL, false,
					    msg, sizeof(msg)),
			 0);
	n = log_stop();
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	c = find_ev(EV_CHANGE, "veth0=1500", 0, n);
	assert_announced(c);
	/* The "ok" that marks the change undone reached the disk. */
	assert_true(find_ev(EV_WRITE, path, (size_t)c + 1, n) > c);
	assert_int_equal(first_unsynced(0, n), -1);
	assert_int_equal(mh.n_log, 2);

	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 2);
	assert_true(j.v[0].undone);
	rd_journal_free(&j);
}

/* ---- a failing fsync stops everything ---- */

static off_t file_size(void)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void assert_eio(int r, const char *err, const char *shown)
{
	assert_int_equal(r, -EIO);
	assert_non_null(strstr(err, shown));
	assert_non_null(strstr(err, "fsync"));
	assert_non_null(strstr(err, strerror(EIO)));
}

static void test_open_sync_fails(void **state)
{
	const char *const where[] = { root, sub, path };
	struct rd_journal_file jf;
	char err[512];

	(void)state;
	/* Each sync the open makes, failing in turn, fails the open. */
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		err[0] = '\0';
		fail_next_sync(where[i], false);
		assert_eio(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					   sizeof(err)),
			   err, where[i] == root ? sub : where[i]);
		assert_false(fail_path[0]);	/* the failure was met */
		assert_int_equal(jf.fd, -1);
		assert_int_equal(jf.dirfd, -1);
	}
	/* With the disk back, the same journal opens. */
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	rd_journal_close(&jf);
}

static void test_append_sync_fails(void **state)
{
	struct rd_journal_entry e;
	struct rd_journal_file jf;
	struct rd_journal j;
	char id[RD_JOURNAL_ID_MAX], err[512] = "";
	off_t size;

	(void)state;
	assert_int_equal(rd_journal_open(path, RD_JOURNAL_WRITE, &jf, err,
					 sizeof(err)),
			 0);
	e = mtu_entry(id, NULL);
	fail_next_sync(path, true);
	assert_eio(rd_journal_append_apply(&jf, &e, err, sizeof(err)), err,
		   path);
	assert_false(fail_path[0]);
	/* The line that did not reach the disk was taken back. */
	assert_int_equal(file_size(), 0);

	assert_int_equal(rd_journal_append_apply(&jf, &e, err, sizeof(err)),
			 0);
	size = file_size();
	assert_true(size > 0);
	fail_next_sync(path, true);
	err[0] = '\0';
	assert_eio(rd_journal_append_result(&jf, id, "ok", NULL, err,
					    sizeof(err)),
		   err, path);
	assert_int_equal(file_size(), size);
	fail_next_sync(path, true);
	err[0] = '\0';
	assert_eio(rd_journal_append_confirm(&jf, id, err, sizeof(err)), err,
		   path);
	assert_int_equal(file_size(), size);
	rd_journal_close(&jf);

	/* What is left reads back: the change, with no result line. */
	assert_int_equal(rd_journal_read(path, &j, err, sizeof(err)), 0);
	assert_int_equal(j.n, 1);
	assert_null(j.v[0].result);
	assert_false(j.v[0].confirmed);
	rd_journal_free(&j);
}

static void test_engine_sync_fails(void **state)
{
	struct rd_fixup f = mtu_fix();
	struct rd_fix_done d;
	char msg[1024] = "";

	(void)state;
	/* The journal's directory cannot be synced: nothing changes. */
	fail_next_sync(sub, false);
	log_start();
	assert_int_equal(rd_fix_engine_apply(&logged_host, &f, path, 0, &d,
					     msg, sizeof(msg)),
			 -EIO);
	log_stop();
	assert_false(fail_path[0]);
	assert_int_equal(find_ev(EV_CHANGE, NULL, 0, n_ev), -1);
	assert_int_equal(mh.n_log, 0);
	assert_non_null(strstr(msg, "not changed"));
	assert_non_null(strstr(msg, strerror(EIO)));

	/* The apply record cannot be synced: nothing changes. */
	fail_next_sync(path, true);
	msg[0] = '\0';
	assert_int_equal(rd_fix_engine_apply(&logged_host, &f, path, 0, &d,
					     msg, sizeof(msg)),
			 -EIO);
	assert_false(fail_path[0]);
	assert_int_equal(mh.n_log, 0);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "1500");
	assert_non_null(strstr(msg, "not changed"));
	assert_non_null(strstr(msg, path));
	assert_non_null(strstr(msg, strerror(EIO)));
	assert_int_equal(file_size(), 0);

	/* A change made, then its undo record cannot be synced: kept. */
	assert_int_equal(rd_fix_engine_apply(&logged_host, &f, path, 0, &d,
					     msg, sizeof(msg)),
			 0);
	assert_int_equal(mh.n_log, 1);
	fail_next_sync(path, true);
	msg[0] = '\0';
	assert_true(rd_fix_engine_undo(&logged_host, path, NULL, false, msg,
				       sizeof(msg)) < 0);
	assert_false(fail_path[0]);
	assert_int_equal(mh.n_log, 1);
	assert_string_equal(mock_get(&mh, "link_mtu", "veth0"), "9000");
	assert_non_null(strstr(msg, strerror(EIO)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_checker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrappers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append, setup, teardown),
		cmocka_unit_test_setup_teardown(test_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_sync_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_append_sync_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_engine_sync_fails, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
