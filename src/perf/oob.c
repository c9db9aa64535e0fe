// SPDX-License-Identifier: GPL-2.0-or-later
/* perftest's out-of-band protocol: pure codecs and a socket with timeouts. */
#include "config.h"
#include "perf/oob.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/escape.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EPROTO;
}

int perf_oob_keys_encode(const struct perf_oob_keys *k, bool with_gid,
			 char *buf, size_t len)
{
	size_t want = with_gid ? PERF_OOB_KEYS_GID_LEN : PERF_OOB_KEYS_LEN;
	const uint8_t *g = k->gid;
	int n;

	if (len < want)
		return -ENOSPC;
	/* Wider values would shift every later field for the peer. */
	if (k->lid > 0xffff || k->out_reads > 0xffff || k->qpn > 0xffffff ||
	    k->psn > 0xffffff)
		return -ERANGE;
	if (!with_gid)
		n = snprintf(buf, len, "%04x:%04x:%06x:%06x:%08x:%016llx:%08x",
			     k->lid, k->out_reads, k->qpn, k->psn, k->rkey,
			     (unsigned long long)k->vaddr, k->srqn);
	else
		n = snprintf(buf, len,
			     "%04x:%04x:%06x:%06x:%08x:%016llx:"
			     "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:"
			     "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%08x:",
			     k->lid, k->out_reads, k->qpn, k->psn, k->rkey,
			     (unsigned long long)k->vaddr, g[0], g[1], g[2],
			     g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10],
			     g[11], g[12], g[13], g[14], g[15], k->srqn);
	if (n < 0 || (size_t)n != want - 1)
		return -ERANGE;
	return (int)want;
}

static const char *const key_names[] = {
	"LID", "outstanding reads", "QPN", "PSN", "rkey", "address",
};

int perf_oob_keys_decode(const char *buf, size_t len, bool with_gid,
			 struct perf_oob_keys *k, char *err, size_t errlen)
{
	static const int widths[6] = { 4, 4, 6, 6, 8, 16 };
	size_t want = with_gid ? PERF_OOB_KEYS_GID_LEN : PERF_OOB_KEYS_LEN;
	uint64_t v[6 + 16 + 1];
	int nfields = with_gid ? 6 + 16 + 1 : 6 + 1;
	size_t pos = 0;

	if (len != want)
		return fail(err, errlen,
			    "QP keys message is %zu bytes, expected %zu (%s)",
			    len, want,
			    with_gid ? "with a GID" : "without a GID");
	for (int f = 0; f < nfields; f++) {
		int w;
		char sep;
		const char *name;

		if (f < 6) {
			w = widths[f];
			name = key_names[f];
		} else if (f == nfields - 1) {
			w = 8;
			name = "SRQ number";
		} else {
			w = 2;
			name = "GID byte";
		}
		v[f] = 0;
		for (int i = 0; i < w; i++) {
			int h = rd_hex_digit(buf[pos + i]);

			if (h < 0)
				return fail(err, errlen,
					    "QP keys: %s is not hexadecimal at "
					    "byte %zu",
					    name, pos + (size_t)i);
			v[f] = v[f] << 4 | (uint64_t)h;
		}
		pos += (size_t)w;
		/* The last field ends with NUL (no GID) or ':' then NUL. */
		sep = (f == nfields - 1 && !with_gid) ? '\0' : ':';
		if (buf[pos] != sep)
			return fail(
				err, errlen,
				"QP keys: expected '%s' after %s at byte %zu",
				sep ? ":" : "\\0", name, pos);
		pos++;
	}
	if (with_gid && buf[pos] != '\0')
		return fail(err, errlen, "QP keys: missing final NUL");
	if (v[2] < 2)
		return fail(err, errlen,
			    "QP keys: QPN %llu is a special QP, not an RC QP",
			    (unsigned long long)v[2]);
	if (v[1] > 0xff)
		return fail(err, errlen,
			    "QP keys: %llu outstanding reads is out of range "
			    "(0..255)",
			    (unsigned long long)v[1]);
	k->lid = (uint32_t)v[0];
	k->out_reads = (uint32_t)v[1];
	k->qpn = (uint32_t)v[2];
	k->psn = (uint32_t)v[3];
	k->rkey = (uint32_t)v[4];
	k->vaddr = v[5];
	memset(k->gid, 0, sizeof(k->gid));
	if (with_gid)
		for (int i = 0; i < 16; i++)
			k->gid[i] = (uint8_t)v[6 + i];
	k->srqn = (uint32_t)v[nfields - 1];
	return 0;
}

int perf_oob_version_encode(const char *version, char *buf, size_t len)
{
	if (len < PERF_OOB_VERSION_LEN ||
	    strlen(version) >= PERF_OOB_VERSION_LEN)
		return -ENOSPC;
	memset(buf, 0, PERF_OOB_VERSION_LEN);
	memcpy(buf, version, strlen(version));
	return PERF_OOB_VERSION_LEN;
}

int perf_oob_version_mark(char *buf, size_t len, unsigned proto)
{
	const size_t pl = sizeof(PERF_OOB_MARK_PREFIX) - 1;
	char *nul = memchr(buf, '\0', len < PERF_OOB_VERSION_LEN ?
					  len : PERF_OOB_VERSION_LEN);
	char mark[24];
	size_t at, ml;

	if (!nul || len < PERF_OOB_VERSION_LEN || proto == 0 || proto > 9)
		return -ENOSPC;
	at = (size_t)(nul - buf) + 1;
	ml = (size_t)snprintf(mark, sizeof(mark), "%s%u", PERF_OOB_MARK_PREFIX,
			      proto);
	/* the mark and a NUL after it */
	if (ml != pl + 1 || at + ml + 1 > PERF_OOB_VERSION_LEN)
		return -ENOSPC;
	memset(buf + at, 0, PERF_OOB_VERSION_LEN - at);
	memcpy(buf + at, mark, ml);
	return 0;
}

unsigned perf_oob_version_marked(const char *buf, size_t len)
{
	const size_t pl = sizeof(PERF_OOB_MARK_PREFIX) - 1;
	const char *nul;
	size_t at;
	unsigned proto;

	if (len != PERF_OOB_VERSION_LEN)
		return 0;
	nul = memchr(buf, '\0', len);
	if (!nul)
		return 0;
	at = (size_t)(nul - buf) + 1;
	if (at + pl + 2 > len || memcmp(buf + at, PERF_OOB_MARK_PREFIX, pl))
		return 0;
	if (buf[at + pl] < '1' || buf[at + pl] > '9')
		return 0;
	proto = (unsigned)(buf[at + pl] - '0');
	for (size_t i = at + pl + 1; i < len; i++)
		if (buf[i])
			return 0;
	return proto;
}

/*
 * The peer's bytes up to the first NUL, fit for a terminal: anything but
 * printable ASCII becomes \xHH, so a hostile peer cannot send escape
 * sequences or broken UTF-8 through our error message.
 */
static const char *shown(const char *buf, size_t len, char *out, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i < len && buf[i] && k + 5 <= size; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
			out[k++] = (char)c;
		else
			k += (size_t)snprintf(out + k, size - k, "\\x%02x", c);
	}
	out[k] = '\0';
	return out;
}

int perf_oob_version_decode(const char *buf, size_t len, unsigned *hundredths,
			    char *err, size_t errlen)
{
	char text[PERF_OOB_VERSION_LEN * 4 + 1];
	unsigned major = 0, minor = 0;
	size_t i = 0, nd;

	if (len != PERF_OOB_VERSION_LEN)
		return fail(err, errlen,
			    "version message is %zu bytes, "
			    "expected %d",
			    len, PERF_OOB_VERSION_LEN);
	if (!memchr(buf, '\0', len))
		return fail(err, errlen,
			    "version string is not NUL-terminated: not a "
			    "perftest peer?");
	for (nd = 0; buf[i] >= '0' && buf[i] <= '9' && nd < 4; i++, nd++)
		major = major * 10 + (unsigned)(buf[i] - '0');
	if (nd == 0 || buf[i] != '.')
		goto bad;
	i++;
	/* atof semantics: "5.7" is 5.70, "6.06" is 6.06 */
	for (nd = 0; buf[i] >= '0' && buf[i] <= '9'; i++, nd++) {
		if (nd < 2)
			minor = minor * 10 + (unsigned)(buf[i] - '0');
		if (nd > 6)
			goto bad;
	}
	if (nd == 0 || buf[i] != '\0')
		goto bad;
	if (nd == 1)
		minor *= 10;
	*hundredths = major * 100 + minor;
	return 0;
bad:
	return fail(err, errlen, "version \"%s\" is not a perftest version",
		    shown(buf, len, text, sizeof(text)));
}

void perf_oob_sysdata_encode(uint32_t cycle_buffer, uint32_t cache_line,
			     uint8_t *buf)
{
	perf_oob_put_be32(buf, cycle_buffer);
	perf_oob_put_be32(buf + 4, cache_line);
}

static bool pow2_in(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int perf_oob_sysdata_decode(const uint8_t *buf, size_t len,
			    uint32_t *cycle_buffer, uint32_t *cache_line,
			    char *err, size_t errlen)
{
	uint32_t cb, cl;

	if (len != PERF_OOB_SYSDATA_LEN)
		return fail(err, errlen,
			    "system data is %zu bytes, expected %d", len,
			    PERF_OOB_SYSDATA_LEN);
	cb = perf_oob_get_be32(buf);
	cl = perf_oob_get_be32(buf + 4);
	/* Both sides size their buffers from the larger value. */
	if (!pow2_in(cb, 512, 1u << 24))
		return fail(err, errlen,
			    "peer's cycle buffer %u is not a power of two in "
			    "512..16777216",
			    cb);
	if (!pow2_in(cl, 8, 4096))
		return fail(err, errlen,
			    "peer's cache line size %u is not a power of two "
			    "in 8..4096",
			    cl);
	*cycle_buffer = cb;
	*cache_line = cl;
	return 0;
}

int perf_oob_mtu_encode(int mtu_enum, char *buf, size_t len)
{
	if (len < PERF_OOB_MTU_LEN)
		return -ENOSPC;
	if (mtu_enum < 1 || mtu_enum > 5)
		return -ERANGE;
	buf[0] = (char)('0' + mtu_enum);
	buf[1] = '\0';
	return PERF_OOB_MTU_LEN;
}

int perf_oob_mtu_decode(const char *buf, size_t len, int *mtu_enum, char *err,
			size_t errlen)
{
	if (len != PERF_OOB_MTU_LEN)
		return fail(err, errlen,
			    "MTU message is %zu bytes, expected %d", len,
			    PERF_OOB_MTU_LEN);
	if (buf[0] < '1' || buf[0] > '5' || buf[1] != '\0')
		return fail(err, errlen,
			    "peer's MTU \"%c%c\" is not an ibv_mtu value 1..5 "
			    "(256..4096 bytes)",
			    (buf[0] >= 0x20 && buf[0] < 0x7f) ? buf[0] : '?',
			    (buf[1] >= 0x20 && buf[1] < 0x7f) ? buf[1] : '?');
	*mtu_enum = buf[0] - '0';
	return 0;
}

/*
 * The bw report's fields in perftest's order: two integers, then three
 * rates (doubles). An integer a peer sends must lie in min..max; a rate
 * must be finite and in 0..1e9.
 */
static const struct report_field {
	const char *name;
	size_t off;
	bool rate;
	uint64_t min, max;
} report_fields[PERF_OOB_REPORT_FIELDS] = {
	{ .name = "message size",
	  .off = offsetof(struct perf_oob_report, size),
	  .min = 1,
	  .max = 1ull << 31 },
	{ .name = "iterations",
	  .off = offsetof(struct perf_oob_report, iters),
	  .max = 1ull << 48 },
	{ .name = "peak",
	  .off = offsetof(struct perf_oob_report, bw_peak),
	  .rate = true },
	{ .name = "average",
	  .off = offsetof(struct perf_oob_report, bw_avg),
	  .rate = true },
	{ .name = "message rate",
	  .off = offsetof(struct perf_oob_report, msg_rate),
	  .rate = true },
};

_Static_assert(sizeof(double) == sizeof(uint64_t),
	       "a report field is 8 bytes, integer or double");

void perf_oob_report_field_encode(const struct perf_oob_report *r, int i,
				  uint8_t *buf)
{
	uint64_t v = 0;

	/* A double travels as its bits, byte-swapped as an integer. */
	if (i >= 0 && i < PERF_OOB_REPORT_FIELDS)
		memcpy(&v, (const char *)r + report_fields[i].off, sizeof(v));
	v = htobe64(v);
	memcpy(buf, &v, 8);
}

int perf_oob_report_field_decode(const uint8_t *buf, int i,
				 struct perf_oob_report *r, char *err,
				 size_t errlen)
{
	const struct report_field *f;
	uint64_t v;
	double d;

	if (i < 0 || i >= PERF_OOB_REPORT_FIELDS)
		return fail(err, errlen, "report field %d does not exist", i);
	f = &report_fields[i];
	memcpy(&v, buf, 8);
	v = be64toh(v);
	if (!f->rate && (v < f->min || v > f->max))
		return fail(err, errlen,
			    "peer's report: %s %llu is out of range", f->name,
			    (unsigned long long)v);
	memcpy(&d, &v, sizeof(d));
	if (f->rate && (!isfinite(d) || d < 0 || d > 1e9))
		return fail(err, errlen, "peer's report: %s %g is not a rate",
			    f->name, d);
	memcpy((char *)r + f->off, &v, sizeof(v));
	return 0;
}

/* ---- the socket ---- */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool stopped(const struct perf_oob *o)
{
	return o->stop && *o->stop;
}

/* The kind of the failure o->err now tells; returns r. */
static int failed_as(struct perf_oob *o, int r, enum perf_fail_kind kind)
{
	o->fail = perf_fail_of(kind, r < 0 ? -r : 0);
	return r;
}

/* A carrier's failure r: its text, and its kind (or r's). */
static int carrier_failed(struct perf_oob *o, int r)
{
	const struct perf_fail *f =
		o->carrier->fail ? o->carrier->fail(o->carrier_ctx) : NULL;

	rd_snprintf_text(o->err, sizeof(o->err), "%s",
			 o->carrier->err(o->carrier_ctx));
	if (f && f->kind != PERF_FAIL_NONE) {
		o->fail = *f;
		return r;
	}
	return failed_as(o, r,
			 r == -ECONNRESET ? PERF_FAIL_OOB_CLOSED
			 : r == -ETIMEDOUT ? PERF_FAIL_OOB_SILENT
			 : r == -EINTR	  ? PERF_FAIL_STOPPED
					  : PERF_FAIL_OOB);
}

static void set_keepalive(int fd)
{
	int on = 1, idle = 5, intvl = 2, cnt = 3;

	/* A peer host that vanishes without a FIN is noticed in ~11 s. */
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

/* Non-blocking connect bounded by the time left; 0, or -errno. */
static int connect_once(const struct addrinfo *ai, int64_t deadline,
			const struct perf_oob *o, int *out)
{
	struct pollfd p;
	socklen_t sl = sizeof(int);
	int fd, r, soerr = 0;

	fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 &&
	    errno != EINPROGRESS) {
		r = -errno;
		goto out;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	for (;;) {
		int64_t left = deadline - now_ms();

		if (stopped(o)) {
			r = -EINTR;
			goto out;
		}
		if (left <= 0) {
			r = -ETIMEDOUT;
			goto out;
		}
		r = poll(&p, 1, left > 200 ? 200 : (int)left);
		if (r > 0)
			break;
		if (r < 0 && errno != EINTR) {
			r = -errno;
			goto out;
		}
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		soerr = errno;
	if (soerr) {
		r = -soerr;
		goto out;
	}
	/* Back to blocking; every wait below goes through poll(). */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*out = fd;
	return 0;
out:
	close(fd);
	return r;
}

int perf_oob_connect(struct perf_oob *o, const char *host, uint16_t port,
		     int timeout_ms)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	char svc[8];
	int64_t deadline = now_ms() + timeout_ms;
	int r, last = -ECONNREFUSED;
	bool refused = false;

	o->fd = -1;
	o->client = true;
	snprintf(svc, sizeof(svc), "%u", port);
	r = getaddrinfo(host, svc, &hints, &res);
	if (r != 0) {
		rd_snprintf_text(o->err, sizeof(o->err),
				 "cannot resolve %s: %s", host,
				 gai_strerror(r));
		return failed_as(o, -EHOSTUNREACH, PERF_FAIL_OOB);
	}
	/* A server started a moment after us is normal in scripts: retry
	 * refused connections until the deadline. */
	do {
		for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
			last = connect_once(ai, deadline, o, &o->fd);
			if (last == 0)
				break;
			if (last == -ECONNREFUSED)
				refused = true;
		}
		if (last == 0 || last == -EINTR || last == -ETIMEDOUT ||
		    (last != -ECONNREFUSED && last != -ENETUNREACH &&
		     last != -EHOSTUNREACH))
			break;
		usleep(100000);
	} while (now_ms() < deadline && !stopped(o));
	freeaddrinfo(res);
	if (last == 0) {
		set_keepalive(o->fd);
		return 0;
	}
	/* Refused until the deadline cut the last attempt short. */
	if (last == -ETIMEDOUT && refused)
		last = -ECONNREFUSED;
	if (last == -EINTR)
		rd_snprintf_text(o->err, sizeof(o->err),
				 "interrupted while connecting to %s:%u", host,
				 port);
	else if (last == -ECONNREFUSED)
		rd_snprintf_text(
			o->err, sizeof(o->err),
			"no server listening on %s:%u (connection refused for "
			"%d ms): start 'rdmadiag bw' or ib_write_bw there "
			"first",
			host, port, timeout_ms);
	else
		rd_snprintf_text(o->err, sizeof(o->err),
				 "cannot connect to %s:%u: %s", host, port,
				 strerror(-last));
	return failed_as(o, last,
			 last == -EINTR ? PERF_FAIL_STOPPED : PERF_FAIL_OOB);
}

/* A listening socket on addr:port (addr NULL: every IPv4 address). */
static int listen_on(struct perf_oob *o, const char *addr, uint16_t port,
		     int backlog)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int lfd, on = 1, r;

	if (addr && inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		rd_snprintf_text(o->err, sizeof(o->err),
				 "invalid IPv4 address \"%s\"",
				 rd_esc_tmp(addr));
		return failed_as(o, -EINVAL, PERF_FAIL_LOCAL);
	}
	if (!addr)
		sa.sin_addr.s_addr = htonl(INADDR_ANY);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		r = -errno;
		rd_snprintf_text(o->err, sizeof(o->err), "socket: %s",
				 strerror(errno));
		return failed_as(o, r, PERF_FAIL_LOCAL);
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, backlog) < 0) {
		r = -errno;
		rd_snprintf_text(
			o->err, sizeof(o->err),
			"cannot listen on %s TCP port %u: %s%s",
			addr ? rd_esc_tmp(addr) : "every IPv4 address", port,
			strerror(errno),
			errno == EADDRINUSE
				? " (another server is running: use -p)"
			: errno == EADDRNOTAVAIL
				? " (no interface has this address)"
				: "");
		close(lfd);
		return failed_as(o, r, PERF_FAIL_LOCAL);
	}
	return lfd;
}

int perf_oob_accept(struct perf_oob *o, const char *bind_addr,
		    const char *bind_addr2, uint16_t port, int wait_ms)
{
	return perf_oob_accept_aside(o, bind_addr, bind_addr2, port, wait_ms,
				     NULL);
}

/*
 * The accepted client's first bytes, kept for perf_oob_read. 1: they go
 * to aside (served and closed here), 0: the test's client, < 0: it sent
 * too little in time, which the test's exchange would report the same
 * way, so it is left to report it.
 */
static int first_bytes(struct perf_oob *o, const struct perf_oob_aside *aside)
{
	int r;

	r = perf_oob_read(o, o->pre, sizeof(o->pre), o->timeout_ms,
			  "the version string");
	if (r < 0)
		return 0;
	o->npre = sizeof(o->pre);
	o->pre_off = 0;
	if (!aside->claims(o->pre, o->npre, aside->ctx))
		return 0;
	aside->serve(o, aside->ctx);
	perf_oob_close(o);
	o->npre = o->pre_off = 0;
	return 1;
}

int perf_oob_listen(struct perf_oob *o, const char *bind_addr,
		    const char *bind_addr2, uint16_t port, int backlog,
		    int fds[2], int *n)
{
	int r;

	*n = 0;
	r = listen_on(o, bind_addr, port, backlog);
	if (r < 0)
		return r;
	fds[(*n)++] = r;
	if (bind_addr && bind_addr2 && strcmp(bind_addr, bind_addr2) != 0) {
		r = listen_on(o, bind_addr2, port, backlog);
		if (r < 0) {
			close(fds[0]);
			*n = 0;
			return r;
		}
		fds[(*n)++] = r;
	}
	return 0;
}

int perf_oob_accept_from(struct perf_oob *o, const int *fds, int n,
			 uint16_t port, int wait_ms, struct sockaddr_in *from)
{
	struct sockaddr_in peer = { 0 };
	socklen_t plen = sizeof(peer);
	char ip[INET_ADDRSTRLEN];
	int64_t deadline = now_ms() + wait_ms;
	struct pollfd p[2];
	int fd = -1, r;

	o->fd = -1;
	o->client = false;
	o->peer[0] = '\0';
	o->npre = o->pre_off = 0;
	for (int i = 0; i < n && i < 2; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	for (;;) {
		int slice = 200;

		if (stopped(o)) {
			rd_snprintf_text(
				o->err, sizeof(o->err),
				"interrupted while waiting for a client");
			return failed_as(o, -EINTR, PERF_FAIL_STOPPED);
		}
		if (wait_ms >= 0) {
			int64_t left = deadline - now_ms();

			if (left <= 0) {
				rd_snprintf_text(
					o->err, sizeof(o->err),
					"no client connected to port %u "
					"within %d ms",
					port, wait_ms);
				return failed_as(o, -ETIMEDOUT, PERF_FAIL_OOB);
			}
			if (left < slice)
				slice = (int)left;
		}
		r = poll(p, (nfds_t)(n < 2 ? n : 2), slice);
		if (r > 0)
			break;
		if (r < 0 && errno != EINTR) {
			r = -errno;
			rd_snprintf_text(o->err, sizeof(o->err), "poll: %s",
					 strerror(errno));
			return failed_as(o, r, PERF_FAIL_LOCAL);
		}
	}
	for (int i = 0; i < n && i < 2 && fd < 0; i++)
		if (p[i].revents & POLLIN)
			fd = accept4(p[i].fd, (struct sockaddr *)&peer, &plen,
				     SOCK_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		rd_snprintf_text(o->err, sizeof(o->err), "accept: %s",
				 strerror(errno));
		return failed_as(o, r, PERF_FAIL_LOCAL);
	}
	set_keepalive(fd);
	o->fd = fd;
	if (peer.sin_family == AF_INET &&
	    inet_ntop(AF_INET, &peer.sin_addr, ip, sizeof(ip)))
		snprintf(o->peer, sizeof(o->peer), "%s:%u", ip,
			 ntohs(peer.sin_port));
	if (from)
		*from = peer;
	return 0;
}

int perf_oob_accept_aside(struct perf_oob *o, const char *bind_addr,
			  const char *bind_addr2, uint16_t port, int wait_ms,
			  const struct perf_oob_aside *aside)
{
	int64_t deadline = now_ms() + wait_ms;
	int fds[2], n, r;

	r = perf_oob_listen(o, bind_addr, bind_addr2, port, 1, fds, &n);
	if (r < 0)
		return r;
	do {
		int left = wait_ms;

		if (wait_ms >= 0) {
			int64_t l = deadline - now_ms();

			left = l > 0 ? (int)l : 0;
		}
		r = perf_oob_accept_from(o, fds, n, port, left, NULL);
	} while (r == 0 && aside && first_bytes(o, aside) > 0);
	/*
	 * One peer per run: closing the listeners now refuses any other
	 * client (connection refused, or reset if it was queued) while the
	 * first one's test goes on.
	 */
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return r;
}

void perf_oob_close(struct perf_oob *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

int perf_oob_read(struct perf_oob *o, void *buf, size_t len, int timeout_ms,
		  const char *what)
{
	int64_t deadline = now_ms() + timeout_ms;
	size_t got = 0;

	if (o->pre_off < o->npre) {
		size_t k = o->npre - o->pre_off;

		if (k > len)
			k = len;
		memcpy(buf, o->pre + o->pre_off, k);
		o->pre_off += k;
		got = k;
	}
	if (got == len)
		return 0;
	if (o->carrier) {
		int r = o->carrier->read(o->carrier_ctx, buf, len, timeout_ms,
					 what);

		return r < 0 ? carrier_failed(o, r) : r;
	}
	while (got < len) {
		struct pollfd p = { .fd = o->fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;
		int r;

		if (stopped(o)) {
			rd_snprintf_text(o->err, sizeof(o->err),
					 "interrupted while reading %s", what);
			return failed_as(o, -EINTR, PERF_FAIL_STOPPED);
		}
		if (timeout_ms >= 0 && left <= 0) {
			rd_snprintf_text(
				o->err, sizeof(o->err),
				"peer sent %zu of %zu bytes of %s, then "
				"nothing "
				"for %d ms%s",
				got, len, what, timeout_ms,
				got ? " (do both sides use the same options, "
				      "e.g. -x / GID?)"
				    : " (peer silent or not a perftest peer)");
			return failed_as(o, -ETIMEDOUT, PERF_FAIL_OOB_SILENT);
		}
		r = poll(&p, 1,
			 (timeout_ms < 0 || left > 200) ? 200 : (int)left);
		if (r < 0 && errno != EINTR) {
			r = -errno;
			rd_snprintf_text(o->err, sizeof(o->err), "poll: %s",
					 strerror(-r));
			return failed_as(o, r, PERF_FAIL_LOCAL);
		}
		if (r <= 0)
			continue;
		n = recv(o->fd, (char *)buf + got, len - got, 0);
		if (n == 0 || (n < 0 && errno == ECONNRESET)) {
			/* A reset is a close that left our data unread. */
			rd_snprintf_text(
				o->err, sizeof(o->err),
				"peer closed the connection %s %s (%zu of "
				"%zu bytes%s)",
				got ? "in the middle of" : "before sending",
				what, got, len, n ? ", reset" : "");
			return failed_as(o, -ECONNRESET, PERF_FAIL_OOB_CLOSED);
		}
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			r = -errno;
			rd_snprintf_text(o->err, sizeof(o->err),
					 "reading %s: %s", what, strerror(-r));
			return failed_as(o, r, PERF_FAIL_OOB);
		}
		got += (size_t)n;
	}
	return 0;
}

int perf_oob_write(struct perf_oob *o, const void *buf, size_t len,
		   const char *what)
{
	size_t put = 0;

	if (o->carrier) {
		int r = o->carrier->write(o->carrier_ctx, buf, len, what);

		return r < 0 ? carrier_failed(o, r) : r;
	}
	/* perftest reads each message with one read(): send it whole. */
	while (put < len) {
		ssize_t n = send(o->fd, (const char *)buf + put, len - put,
				 MSG_NOSIGNAL);

		if (n < 0) {
			int e = errno;
			bool gone = e == EPIPE || e == ECONNRESET;

			if (e == EINTR)
				continue;
			rd_snprintf_text(o->err, sizeof(o->err),
					 "sending %s: %s%s", what, strerror(e),
					 gone ? " (peer went away)" : "");
			return failed_as(o, -e,
					 gone ? PERF_FAIL_OOB_CLOSED
					      : PERF_FAIL_OOB);
		}
		put += (size_t)n;
	}
	return 0;
}

int perf_oob_xchg(struct perf_oob *o, const void *out, void *in, size_t len,
		  int timeout_ms, const char *what)
{
	int r;

	if (o->client) {
		r = perf_oob_write(o, out, len, what);
		if (r == 0)
			r = perf_oob_read(o, in, len, timeout_ms, what);
	} else {
		r = perf_oob_read(o, in, len, timeout_ms, what);
		if (r == 0)
			r = perf_oob_write(o, out, len, what);
	}
	return r;
}

bool perf_oob_peer_gone(struct perf_oob *o)
{
	struct pollfd p = { .fd = o->fd, .events = POLLRDHUP };

	if (o->carrier)
		return o->carrier->peer_gone(o->carrier_ctx);
	if (o->fd < 0)
		return false;
	if (poll(&p, 1, 0) <= 0)
		return false;
	return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}
