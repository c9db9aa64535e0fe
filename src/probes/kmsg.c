// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log as /dev/kmsg gives it (Documentation/ABI/testing/dev-kmsg):
 * each read() returns one record, "<prio>,<seq>,<ts_usec>,<flags>;<text>"
 * and its dictionary lines (" SUBSYSTEM=pci", " DEVICE=+pci:0000:3b:00.0",
 * " DEVICE=n5"). The device is opened once and kept: later refreshes read
 * only the records logged since. It is never written to.
 *
 * Under a redirected root, DIR/dev/kmsg is a file of such records, one per
 * line plus continuation lines starting with a space; it has no clock in
 * common with this host, so its records carry no wall time.
 */
#include "config.h"
#include "probes/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/json.h"

#define SRC "kmsg"
/* A file of records larger than this is refused, not cut. */
#define KMSG_FILE_MAX (64u << 20)
/* Records one refresh reads at most, so a read that never ends stops. */
#define KMSG_READS_MAX 4000000u
/* The longest message and dictionary line kept, in bytes. */
#define KMSG_TEXT_MAX 8192

/* Printable ASCII stays; anything else becomes '?'. */
static char *text_dup(const char *s, size_t len)
{
	char *t;

	if (len > KMSG_TEXT_MAX)
		len = KMSG_TEXT_MAX;
	t = malloc(len + 1);
	if (!t)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		t[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	t[len] = '\0';
	return t;
}

/* A decimal field of the header, [s, e): digits only. */
static int header_u64(const char *s, const char *e, uint64_t *out)
{
	char num[24];
	size_t n = (size_t)(e - s);

	if (n == 0 || n >= sizeof(num) || strspn(s, "0123456789") < n)
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	return rd_parse_u64(num, 10, out);
}

static int dict_add(struct rd_kmsg_rec *rec, const char *l, size_t n)
{
	char **slot = NULL;
	char *v;

	if (n > 10 && strncmp(l, "SUBSYSTEM=", 10) == 0 && !rec->subsystem) {
		slot = &rec->subsystem;
		l += 10;
		n -= 10;
	} else if (n > 7 && strncmp(l, "DEVICE=", 7) == 0 && !rec->device) {
		slot = &rec->device;
		l += 7;
		n -= 7;
	}
	v = text_dup(l, n);
	if (!v)
		return -ENOMEM;
	if (slot) {
		*slot = v;
		return 0;
	}
	if (rec->dict) {
		size_t a = strlen(rec->dict), b = strlen(v);
		char *j = a + b + 2 <= KMSG_TEXT_MAX ? malloc(a + b + 2) : NULL;

		if (j) {
			memcpy(j, rec->dict, a);
			j[a] = ' ';
			memcpy(j + a + 1, v, b + 1);
		}
		free(v);
		if (!j)
			return a + b + 2 <= KMSG_TEXT_MAX ? -ENOMEM : 0;
		free(rec->dict);
		rec->dict = j;
		return 0;
	}
	rec->dict = v;
	return 0;
}

int rd_kmsg_parse(const char *buf, size_t len, struct rd_kmsg_rec *rec)
{
	const char *end = buf + len, *semi, *nl, *f[4], *p;
	uint64_t prio, ts;
	size_t nf = 0;
	int r = -EINVAL;

	memset(rec, 0, sizeof(*rec));
	nl = memchr(buf, '\n', len);
	if (!nl)
		nl = end;
	semi = memchr(buf, ';', (size_t)(nl - buf));
	if (!semi)
		return -EINVAL;
	/* prio, seq, ts_usec, flags; further fields may follow: ignored. */
	for (p = buf; nf < 4 && p <= semi;) {
		const char *c = memchr(p, ',', (size_t)(semi - p));

		f[nf++] = p;
		if (!c) {
			p = semi + 1;
			break;
		}
		p = c + 1;
	}
	if (nf < 4)
		return -EINVAL;
	if (header_u64(f[0], f[1] - 1, &prio) < 0 || prio > 0xffffffu ||
	    header_u64(f[1], f[2] - 1, &rec->seq) < 0 ||
	    header_u64(f[2], f[3] - 1, &ts) < 0)
		return -EINVAL;
	{
		const char *fe = memchr(f[3], ',', (size_t)(semi - f[3]));
		size_t fl = (size_t)((fe ? fe : semi) - f[3]);

		if (fl == 0 || fl > 8)
			return -EINVAL;
		rec->flags = text_dup(f[3], fl);
	}
	rec->level = rd_u64(prio & 7);
	rec->facility = rd_u64(prio >> 3);
	rec->ts_usec = rd_u64(ts);
	rec->message = text_dup(semi + 1, (size_t)(nl - semi - 1));
	if (!rec->flags || !rec->message)
		goto nomem;
	/* Dictionary: the lines after the first that start with a space. */
	for (p = nl < end ? nl + 1 : end; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (!e)
			e = end;
		if (*p == ' ' && e - p > 1 &&
		    dict_add(rec, p + 1, (size_t)(e - p - 1)) < 0)
			goto nomem;
		p = e + 1;
	}
	return 0;
nomem:
	r = -ENOMEM;
	rd_model_free(rd_kmsg_rec_fields, rec);
	memset(rec, 0, sizeof(*rec));
	return r;
}

/* ---- tying a record to a device ---------------------------------------- */

/* Word characters of names: a '.' or '-' is one only between two of them. */
static bool word_char(const char *s, size_t i, size_t len)
{
	char c;

	if (i >= len)
		return false;
	c = s[i];
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_')
		return true;
	return (c == '.' || c == '-') && i + 1 < len &&
	       word_char(s, i + 1, len) && s[i + 1] != '.' && s[i + 1] != '-';
}

/* Does text hold name as a whole word? */
static bool has_word(const char *text, const char *name)
{
	size_t tl, nl = name ? strlen(name) : 0;

	if (nl < 2 || !text)
		return false;
	tl = strlen(text);
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		size_t at = (size_t)(p - text);

		if ((at == 0 || !word_char(text, at - 1, tl)) &&
		    !word_char(text, at + nl, tl))
			return true;
	}
	return false;
}

struct tie {
	const struct rd_device *d;
	const struct rd_port *p;
	const char *netdev;
	const char *bdf;
};

/* The port of d behind netdev name (or the only port), or NULL. */
static const struct rd_port *port_of(const struct rd_device *d,
				     const char *netdev)
{
	for (size_t i = 0; netdev && i < d->n_ports; i++)
		if (d->ports[i].netdev &&
		    strcmp(d->ports[i].netdev, netdev) == 0)
			return &d->ports[i];
	return d->n_ports == 1 ? &d->ports[0] : NULL;
}

/* A netdev of the snapshot tied to an RDMA device of it. */
static bool netdev_tie(const struct rd_snapshot *s, const struct rd_netdev *n,
		       struct tie *t)
{
	const struct rd_device *d = NULL;

	if (n->rdma_device)
		d = rd_snapshot_device(s, n->rdma_device);
	for (size_t i = 0; !d && i < s->n_devices; i++) {
		const struct rd_device *c = &s->devices[i];

		for (size_t j = 0; j < c->n_ports; j++)
			if (c->ports[j].netdev &&
			    strcmp(c->ports[j].netdev, n->name) == 0)
				d = c;
		if (!d && n->pci_bdf && c->pci_bdf &&
		    strcmp(n->pci_bdf, c->pci_bdf) == 0)
			d = c;
	}
	if (!d)
		return false;
	t->d = d;
	t->netdev = n->name;
	t->p = n->rdma_port.ok ? rd_device_port(d, n->rdma_port.v) : NULL;
	if (!t->p)
		t->p = port_of(d, n->name);
	t->bdf = d->pci_bdf;
	return true;
}

/* A port's netdev, whether or not the netdev table has it. */
static bool port_netdev_tie(const struct rd_snapshot *s, const char *name,
			    uint64_t ifindex, bool by_index, struct tie *t)
{
	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		if (!n->name)
			continue;
		if (by_index ? n->ifindex.ok && n->ifindex.v == ifindex
			     : strcmp(n->name, name) == 0)
			if (netdev_tie(s, n, t))
				return true;
	}
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t j = 0; j < d->n_ports; j++) {
			const struct rd_port *p = &d->ports[j];

			if (!p->netdev)
				continue;
			if (by_index ? p->netdev_ifindex.ok &&
					       p->netdev_ifindex.v == ifindex
				     : strcmp(p->netdev, name) == 0) {
				*t = (struct tie){ d, p, p->netdev,
						   d->pci_bdf };
				return true;
			}
		}
	}
	return false;
}

static bool device_by_bdf(const struct rd_snapshot *s, const char *bdf,
			  struct tie *t)
{
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		if (d->pci_bdf && strcmp(d->pci_bdf, bdf) == 0) {
			const struct rd_port *p = port_of(d, NULL);

			*t = (struct tie){ d, p, p ? p->netdev : NULL, bdf };
			return true;
		}
	}
	return false;
}

static bool tie_dict(const struct rd_snapshot *s, const char *dev,
		     struct tie *t)
{
	uint64_t ifindex;

	if (!dev)
		return false;
	if (strncmp(dev, "+pci:", 5) == 0)
		return device_by_bdf(s, dev + 5, t);
	if (dev[0] == 'n' && rd_parse_u64(dev + 1, 10, &ifindex) == 0)
		return port_netdev_tie(s, NULL, ifindex, true, t);
	return false;
}

/*
 * A record printed on a netdev this host has that is not ours: its text
 * may still name one of our netdevs (the name it had before udev renamed
 * it, now another's), so it is not tied by its text. A record printed on
 * a PCI function that is not ours still is: an AER line of the root port
 * names our function in its text.
 */
static bool foreign_netdev(const struct rd_snapshot *s, const char *dev)
{
	uint64_t ifindex;

	if (!dev || dev[0] != 'n' || rd_parse_u64(dev + 1, 10, &ifindex) < 0)
		return false;
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (s->netdevs[i].ifindex.ok &&
		    s->netdevs[i].ifindex.v == ifindex)
			return true;
	return false;
}

static bool tie_text(const struct rd_snapshot *s, const char *msg,
		     struct tie *t)
{
	/* The netdev first: it names the port too. */
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (has_word(msg, s->netdevs[i].name) &&
		    netdev_tie(s, &s->netdevs[i], t))
			return true;
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t j = 0; j < d->n_ports; j++)
			if (has_word(msg, d->ports[j].netdev))
				return port_netdev_tie(s, d->ports[j].netdev, 0,
						       false, t);
	}
	for (size_t i = 0; i < s->n_devices; i++)
		if (has_word(msg, s->devices[i].pci_bdf))
			return device_by_bdf(s, s->devices[i].pci_bdf, t);
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		if (has_word(msg, d->name)) {
			const struct rd_port *p = port_of(d, NULL);

			*t = (struct tie){ d, p, p ? p->netdev : NULL,
					   d->pci_bdf };
			return true;
		}
	}
	return false;
}

bool rd_kmsg_tie(const struct rd_snapshot *s, struct rd_kmsg_rec *rec, int *err)
{
	struct tie t = { 0 };
	const char *by;

	if (tie_dict(s, rec->device, &t))
		by = "dictionary";
	else if (foreign_netdev(s, rec->device))
		return false;
	else if (tie_text(s, rec->message, &t))
		by = "text";
	else
		return false;
	if (rd_str_set(&rec->rdma_device, t.d->name) < 0 ||
	    rd_str_set(&rec->netdev, t.netdev) < 0 ||
	    rd_str_set(&rec->pci_bdf, t.bdf) < 0 ||
	    rd_str_set(&rec->tied_by, by) < 0) {
		*err = -ENOMEM;
		return false;
	}
	rec->port = t.p ? rd_u64(t.p->port) : (struct rd_ou64){ 0 };
	return true;
}

/* ---- reading ------------------------------------------------------------ */

void rd_kmsg_reader_init(struct rd_kmsg_reader *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

void rd_kmsg_reader_clear(struct rd_kmsg_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	rd_model_free(rd_kmsg_fields, &r->log);
	free(r->buf);
	rd_kmsg_reader_init(r);
}

static void count(struct rd_ou64 *c, uint64_t by)
{
	*c = rd_u64((c->ok ? c->v : 0) + by);
}

/* Keep a tied record (moved in), the oldest going when RD_KMSG_KEEP are. */
static int keep(struct rd_kmsg *log, struct rd_kmsg_rec *rec)
{
	struct rd_kmsg_rec *slot;

	if (log->n_records == RD_KMSG_KEEP) {
		rd_model_free(rd_kmsg_rec_fields, &log->records[0]);
		memmove(log->records, log->records + 1,
			(log->n_records - 1) * sizeof(*log->records));
		log->n_records--;
		count(&log->dropped, 1);
	}
	slot = RD_PUSH(log->records, log->n_records);
	if (!slot)
		return -ENOMEM;
	*slot = *rec;
	memset(rec, 0, sizeof(*rec));
	return 0;
}

/*
 * One record's bytes: parse, skip what was seen, tie, keep. now_rt and
 * mono: the clocks of the reading (mono 0: none). A jump in sequence
 * numbers is not counted as a loss: a file may be an excerpt, and the
 * live device says EPIPE when it overwrote what we did not read.
 */
static int take(struct rd_kmsg_reader *r, const char *buf, size_t len,
		const struct rd_snapshot *s, double now_rt, uint64_t mono)
{
	struct rd_kmsg_rec rec;
	int err = 0, ret;

	ret = rd_kmsg_parse(buf, len, &rec);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		count(&r->log.bad, 1);
		return 0;
	}
	if (r->have_seq && rec.seq <= r->last_seq) {
		rd_model_free(rd_kmsg_rec_fields, &rec);
		return 0;
	}
	if (!r->log.first_seq.ok)
		r->log.first_seq = rd_u64(rec.seq);
	r->have_seq = true;
	r->last_seq = rec.seq;
	r->log.last_seq = rd_u64(rec.seq);
	count(&r->log.records_read, 1);
	if (mono && rec.ts_usec.v <= mono)
		rec.wall_time =
			rd_dbl(now_rt - (double)(mono - rec.ts_usec.v) / 1e6);
	if (rd_kmsg_tie(s, &rec, &err))
		ret = keep(&r->log, &rec);
	else
		ret = err;
	rd_model_free(rd_kmsg_rec_fields, &rec);
	return ret;
}

static void log_opened(struct rd_kmsg *log, const char *source, bool clock)
{
	log->readable = rd_bool(true);
	log->wall_clock = rd_bool(clock);
	if (!log->records_read.ok)
		log->records_read = rd_u64(0);
	if (!log->gaps.ok)
		log->gaps = rd_u64(0);
	if (!log->source)
		log->source = rd_strdup(source);
	free(log->error);
	log->error = NULL;
	log->error_errno = (struct rd_ou64){ 0 };
}

int rd_kmsg_read_live(struct rd_kmsg_reader *r, rd_kmsg_read_fn *fn, void *arg,
		      const struct rd_snapshot *s, double now_realtime,
		      uint64_t now_mono_usec)
{
	for (unsigned reads = 0; reads < KMSG_READS_MAX; reads++) {
		ssize_t n;
		int ret;

		if (!r->buf || r->cap < RD_KMSG_BUF_FIRST) {
			char *b = realloc(r->buf, RD_KMSG_BUF_FIRST);

			if (!b)
				return -ENOMEM;
			r->buf = b;
			r->cap = RD_KMSG_BUF_FIRST;
		}
		n = fn(arg, r->buf, r->cap - 1);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			if (e == EAGAIN || e == EWOULDBLOCK)
				return 0;
			if (e == EPIPE) {
				/* Overwritten before read: count, go on. */
				count(&r->log.gaps, 1);
				continue;
			}
			if (e == EINVAL && r->cap < RD_KMSG_BUF_MAX) {
				/* The record does not fit: grow. */
				char *b = realloc(r->buf, r->cap * 2);

				if (!b)
					return -ENOMEM;
				r->buf = b;
				r->cap *= 2;
				continue;
			}
			return e ? -e : -EIO;
		}
		if (n == 0)
			return 0;
		r->buf[n] = '\0';
		ret = take(r, r->buf, (size_t)n, s, now_realtime,
			   now_mono_usec);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int rd_kmsg_read_text(struct rd_kmsg_reader *r, const char *text, size_t len,
		      const struct rd_snapshot *s)
{
	const char *end = text + len;

	for (const char *p = text; p < end;) {
		const char *e = p;
		int ret;

		/* The record's first line, then lines that start with a space.
		 */
		for (;;) {
			const char *nl = memchr(e, '\n', (size_t)(end - e));

			e = nl ? nl + 1 : end;
			if (e >= end || *e != ' ')
				break;
		}
		if (e - p > 1 || (e - p == 1 && *p != '\n')) {
			ret = take(r, p, (size_t)(e - p), s, 0, 0);
			if (ret < 0)
				return ret;
		}
		p = e;
	}
	return 0;
}

/* ---- the probe ------------------------------------------------------------
 */

static ssize_t fd_read(void *arg, char *buf, size_t size)
{
	return read(*(int *)arg, buf, size);
}

/*
 * Why the log was not read. Under a redirected root the file is a saved
 * log, and what is missing is that file, not a privilege of this host.
 */
static void not_readable(struct rd_kmsg *log, const char *path, int err,
			 bool tree)
{
	char why[512];

	if (tree && err == ENOENT)
		snprintf(why, sizeof(why),
			 "no dev/kmsg in the tree read (no kernel log was "
			 "saved with it)");
	else if (tree)
		snprintf(why, sizeof(why), "dev/kmsg in the tree read: %s",
			 strerror(err));
	else if (err == EPERM || err == EACCES)
		snprintf(why, sizeof(why), "%s", RD_KMSG_NO_PERMISSION);
	else if (err == ENOENT)
		snprintf(why, sizeof(why),
			 "no /dev/kmsg on this host (a container without the "
			 "kernel log?)");
	else
		snprintf(why, sizeof(why), "/dev/kmsg: %s", strerror(err));
	log->readable = rd_bool(false);
	rd_str_set(&log->error, why);
	log->error_errno = rd_u64((uint64_t)err);
	if (!log->source)
		log->source = rd_strdup(path);
}

static int read_file(struct rd_kmsg_reader *r, const char *path,
		     struct rd_snapshot *s)
{
	char *text = NULL;
	size_t len = 0;
	int ret = rd_read_file(path, KMSG_FILE_MAX, &text, &len);

	if (ret < 0) {
		not_readable(&r->log, path, -ret, true);
		if (ret != -ENOENT)
			rd_snapshot_error(s, SRC, path, ret, NULL);
		return 0;
	}
	log_opened(&r->log, path, false);
	ret = rd_kmsg_read_text(r, text, len, s);
	free(text);
	return ret;
}

static int probe_kmsg_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	struct rd_kmsg_reader *r = state;
	char path[PATH_MAX];
	struct timespec rt, mono;
	struct stat st;
	int ret;

	/* Nothing to tie a record to: the log is not read. */
	if (s->n_devices == 0)
		return 0;
	if (rd_path(path, sizeof(path), ctx->roots->dev, "/kmsg") < 0)
		return -ENAMETOOLONG;
	if (r->fd < 0) {
		/* A file under a fixture root is read whole, each time. */
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			ret = read_file(r, path, s);
			goto out;
		}
		r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->fd < 0) {
			int e = errno;

			not_readable(&r->log, path, e, ctx->roots->redirected);
			if (e == EPERM || e == EACCES)
				rd_snapshot_error(s, SRC, path, e, "%s",
						  RD_KMSG_NO_PERMISSION);
			else if (e != ENOENT)
				rd_snapshot_error(s, SRC, path, e, NULL);
			ret = 0;
			goto out;
		}
		if (fstat(r->fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
			close(r->fd);
			r->fd = -1;
			not_readable(&r->log, path, EINVAL,
				     ctx->roots->redirected);
			rd_snapshot_error(s, SRC, path, EINVAL,
					  "not the kernel log device");
			ret = 0;
			goto out;
		}
		/* From the oldest record the kernel still holds. */
		lseek(r->fd, 0, SEEK_SET);
		log_opened(&r->log, path, true);
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	ret = rd_kmsg_read_live(r, fd_read, &r->fd, s,
				(double)rt.tv_sec + (double)rt.tv_nsec / 1e9,
				(uint64_t)mono.tv_sec * 1000000u +
					(uint64_t)mono.tv_nsec / 1000u);
	if (ret < 0 && ret != -ENOMEM) {
		rd_snapshot_error(s, SRC, path, ret, NULL);
		ret = 0;
	}
out:
	rd_model_reset(rd_kmsg_fields, &s->kmsg, sizeof(s->kmsg));
	if (rd_model_dup(rd_kmsg_fields, &s->kmsg, &r->log, sizeof(r->log)) < 0)
		return -ENOMEM;
	return ret;
}

static void kmsg_state_init(void *state)
{
	rd_kmsg_reader_init(state);
}

static void kmsg_state_clear(void *state)
{
	rd_kmsg_reader_clear(state);
}

const struct rd_probe probe_kmsg =
	RD_PROBE_ROW("kmsg", 0, probe_kmsg_collect, struct rd_kmsg_reader,
		     kmsg_state_init, kmsg_state_clear);
