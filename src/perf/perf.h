/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bandwidth and latency tests: options, a connected session (verbs
 * resources plus the perftest out-of-band channel, or a loopback pair), and
 * the two engines.
 */
#ifndef RD_PERF_PERF_H
#define RD_PERF_PERF_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/rate.h"
#include "perf/cm.h"
#include "perf/fail.h"
#include "perf/oob.h"
#include "perf/stats.h"
#include "perf/verbs.h"

enum perf_op { PERF_OP_SEND, PERF_OP_WRITE, PERF_OP_READ };
enum perf_role { PERF_SERVER, PERF_CLIENT, PERF_LOOPBACK };

#define PERF_MAX_SIZE (8u << 20) /* -a goes 2 B .. 8 MiB */

/* What this side's test chose before its QPs connect. */
struct perf_choice {
	int gid_index;	/* -1: none (InfiniBand without -x, or rdma_cm's) */
	int gid_type;	/* IBV_GID_TYPE_*; -1 with no GID */
	bool roce;	/* Ethernet link layer */
	bool by_cm;	/* -R: rdma_cm picks the GID when it connects */
	uint8_t gid[16];
	unsigned mtu;	/* bytes asked for */
};

/*
 * rdmadiag's own messages inside the test's TCP channel, which a stock
 * perftest peer never sees: the client marks its version message
 * (perf_oob_version_mark), a server with an exchange answers with the
 * same mark, and only when both are marked does exchange() run on both
 * sides right after the versions. aside serves the server's port to
 * clients that are not the test's (perf_oob_accept_aside). exchange gets
 * this side's choices, to carry to the peer.
 */
struct perf_inband {
	/* < 0 ends the test: the channel is then out of step */
	int (*exchange)(struct perf_oob *o, bool client,
			const struct perf_choice *choice, void *ctx);
	void *ctx;
	struct perf_oob_aside aside; /* claims NULL: none */
};

struct perf_opts {
	bool lat; /* latency test, else bandwidth */
	enum perf_op op;
	enum perf_role role;
	const char *host;
	const char *bind_addr;	/* server: NULL = every IPv4 address */
	const char *bind_addr2;	/* server: a second address (loopback) */
	uint16_t port;
	const char *dev; /* -d, or dev_first */
	/* The first RDMA device read, when -d names none: dev points here. */
	char dev_first[IBV_SYSFS_NAME_MAX];
	unsigned ib_port;
	int gid_index; /* -1: choose */
	unsigned nqp;
	uint64_t size;
	bool all_sizes;
	uint64_t iters;
	unsigned duration; /* seconds; 0: iterations */
	unsigned tx_depth;
	unsigned rx_depth;
	unsigned cq_mod;
	int inline_size; /* -1: default */
	unsigned mtu;	 /* bytes; 0: the port's active MTU */
	bool gbits;
	bool bidir;
	uint8_t qp_timeout;
	int timeout_ms; /* per out-of-band message */
	bool json;
	int progress_fd; /* -1: none */
	unsigned interval_ms;
	bool histogram; /* -H: every sample, sorted, as perftest */
	bool hist_bins; /* --histogram: counts per bin */
	/* --samples FILE: every sample in the order measured, after the run */
	const char *samples_path;
	bool quiet;    /* no perftest-style text */
	bool counters; /* show the port's counter changes */
	unsigned expect_percent; /* bw: below this % of reachable: exit 1 */
	bool rdma_cm;	  /* -R: connect the QPs through librdmacm */
	int tos;	  /* -T: rdma_cm's ToS for the QPs, -1: its default */
	unsigned tclass;  /* --tclass: GRH traffic class */
	unsigned sl;	  /* -S: service level */
	bool report_both; /* --report-both: -b's two directions apart */
	const struct perf_inband *inband; /* NULL: none */
};

struct perf_session {
	const struct perf_opts *o;
	struct perf_dev dev;
	struct perf_end a; /* this side (the client in loopback) */
	struct perf_end b; /* loopback only: the server side */
	bool loopback;
	bool have_a, have_b;
	struct perf_oob oob;
	struct perf_cm cm; /* -R */
	bool with_gid;
	enum ibv_mtu mtu;
	uint32_t cycle_buffer, cache_line;
	unsigned peer_version; /* hundredths, 0 in loopback */
	unsigned peer_mark;    /* the peer's extension mark, 0: none */
	char gid_why[256];
	/* What this path can reach (perf_reach_set); ok false: not known. */
	struct rd_rate reach;
	char reach_why[160];	/* why there is no figure */
	volatile sig_atomic_t *stop;
	char err[512];
	/* The kind of the session's first failure, set where it happened;
	 * err is its message. */
	struct perf_fail fail;
};

/* Open the device, agree with the peer (or the other loopback end) and
 * bring every QP to RTR/RTS. On failure s->err says why and what to try. */
int perf_session_open(struct perf_session *s, const struct perf_opts *o,
		      volatile sig_atomic_t *stop);
/* One key message per barrier, as perftest's handshake. timeout_ms < 0:
 * wait until the peer answers, closes or *stop. */
int perf_session_barrier(struct perf_session *s, int timeout_ms);
/* The goodbye perftest expects: a barrier, then "done". */
int perf_session_goodbye(struct perf_session *s);
void perf_session_close(struct perf_session *s);

/* Result of one message size. */
struct perf_bw_result {
	uint64_t size;
	uint64_t iters; /* messages counted, all QPs */
	double seconds;
	double bytes;
	double peak_bps, avg_bps; /* bytes per second */
	double msg_rate_mpps;
	bool remote; /* figures from the peer's report */
	/* -b against a peer: this side's and the peer's figures, which
	 * the ones above add up. */
	bool has_parts;
	struct perf_bw_part {
		double peak_bps, avg_bps, msg_rate_mpps;
	} mine, theirs;
};

struct perf_lat_result {
	uint64_t size;
	uint64_t iters;
	struct perf_lat_stats st;
	double *samples; /* sorted usec, owned */
	size_t nsamples;
	/* --samples: the same in the order measured (owned, else NULL) */
	double *in_order;
	bool capped; /* -D stopped at PERF_LAT_MAX_SAMPLES samples */
};

/* Progress lines on o->progress_fd, one JSON object per line. */
void perf_progress_bw(const struct perf_opts *o, double t, uint64_t size,
		      double bytes, uint64_t msgs, double interval_bytes,
		      double interval_s);
void perf_progress_lat(const struct perf_opts *o, double t, uint64_t size,
		       uint64_t n, double *interval_usec, size_t ni);

struct rd_snapshot;

/*
 * The result as one line of JSON on f (`--json`, and the console's
 * progress fd): escaped names, warning and error; null for a number that
 * is not finite. s0/s1 (both or neither) add the counters that moved.
 */
void perf_result_json(FILE *f, const struct perf_session *s,
		      const struct perf_bw_result *bw, size_t nbw,
		      const struct perf_lat_result *lat, size_t nlat,
		      const char *warn, const struct rd_snapshot *s0,
		      const struct rd_snapshot *s1, const char *error);
/*
 * The perftest-looking text of rdmadiag bw|lat, as ib_write_bw and
 * ib_write_lat print it (so scripts that read perftest read it): the
 * header with both ends' keys and the column heads, one line per size,
 * -b's two directions apart (--report-both), -H's sorted samples, and
 * after the last line what perftest's columns leave out (--histogram).
 */
#define PERF_RESULT_LINE                                                       \
	"---------------------------------------------------------------"      \
	"------------------------\n"
void perf_text_header(FILE *f, const struct perf_session *s, const char *warn,
		      const char *peer_note);
void perf_text_bw_line(FILE *f, const struct perf_opts *o,
		       const struct perf_bw_result *r);
void perf_text_bw_parts(FILE *f, const struct perf_opts *o,
			const struct perf_bw_result *r);
void perf_text_lat_line(FILE *f, const struct perf_lat_result *r);
void perf_text_sorted_samples(FILE *f, const struct perf_lat_result *r);
/*
 * --samples FILE: every size's samples in the order they were measured,
 * one "size iteration usec" line each, written after the timed loops.
 * 0 or -errno.
 */
int perf_write_samples(FILE *f, const struct perf_lat_result *lat, size_t n);
void perf_text_every_sample(FILE *f, const struct perf_opts *o,
			    const struct perf_lat_result *lat, size_t nlat);
/*
 * The result where it goes besides the text: one JSON line on stdout
 * with --json, and on the console's progress fd when there is one.
 */
void perf_result_emit(const struct perf_session *s,
		      const struct perf_bw_result *bw, size_t nbw,
		      const struct perf_lat_result *lat, size_t nlat,
		      const char *warn, const struct rd_snapshot *s0,
		      const struct rd_snapshot *s1, const char *error);
/* The port's counters that moved between s0 and s1, as text. */
void perf_counters_text(FILE *f, const struct rd_snapshot *s0,
			const struct rd_snapshot *s1, const char *dev,
			unsigned port);

/*
 * The rate this session's path can reach, from the snapshot taken before
 * it, at the session's MTU; both directions' sum for -b. Sets s->reach, or
 * leaves s->reach.ok false with s->reach_why saying why.
 */
void perf_reach_set(struct perf_session *s, const struct rd_snapshot *snap);
/* A bandwidth (bytes per second) as a share of it, in %; < 0 unknown. */
double perf_reach_percent(const struct perf_session *s, double bps);
/* "  92.31 % of the 98.04 Gb/s this path can reach, limited by link". */
void perf_reach_text(FILE *f, const struct perf_session *s, double bps);

/* Run one size. Returns 0 or -errno with s->err set. */
int perf_bw_run(struct perf_session *s, uint64_t size,
		struct perf_bw_result *r);
int perf_lat_run(struct perf_session *s, uint64_t size,
		 struct perf_lat_result *r);
/* Server of a one-way WRITE/READ test: wait for the client's report. */
int perf_bw_server_wait(struct perf_session *s, struct perf_bw_result *r);
/* End of a bw test: the client's report (WRITE/READ), then goodbye. */
int perf_bw_finish(struct perf_session *s, const struct perf_bw_result *last);

/*
 * A failure: its message into s->err and its kind (errno -r) into
 * s->fail, unless an earlier failure of the session holds them (the
 * first is the cause); returns r.
 */
int perf_err(struct perf_session *s, int r, enum perf_fail_kind kind,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same with the whole record: a completion's status, an event. */
int perf_err_why(struct perf_session *s, int r, const struct perf_fail *why,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The kind of a failure whose message is already in s->err; returns r. */
int perf_failed(struct perf_session *s, int r, enum perf_fail_kind kind);
/* The out-of-band channel's failure r: its message and kind; returns r. */
int perf_err_oob(struct perf_session *s, int r);
/* Monotonic seconds. */
double perf_now(void);
/* The peer vanished (OOB closed) or the user pressed Ctrl-C. */
bool perf_should_stop(struct perf_session *s, const char *during);

/* Names as perftest prints them: "Send", "RDMA_Write", "RDMA_Read". */
const char *perf_op_title(enum perf_op op);
const char *perf_op_name(enum perf_op op);

#endif
