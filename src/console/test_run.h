/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bandwidth or latency test run as a child process of this same binary
 * (`rdmadiag bw|lat --progress-fd 3 --json`), so a crash or hang in a test
 * never takes the console down. The loop polls con_test_fd() with the
 * keyboard; progress lines feed a graph, the result line the results list.
 */
#ifndef RD_CONSOLE_TEST_RUN_H
#define RD_CONSOLE_TEST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "console/child.h"

enum con_test_mode {
	CON_TEST_LOOPBACK,
	CON_TEST_CLIENT,
	CON_TEST_SERVER,
	CON_TEST_MODES,
};
enum con_test_op { CON_TEST_WRITE, CON_TEST_READ, CON_TEST_SEND, CON_TEST_OPS };
extern const char *const con_test_mode_names[CON_TEST_MODES];
extern const char *const con_test_op_names[CON_TEST_OPS];

struct con_test_params {
	bool lat;
	enum con_test_mode mode;
	enum con_test_op op;
	char host[64];	  /* client mode: the server */
	char size[16];	  /* bytes, digits only */
	char duration[8]; /* seconds, digits only; "": iterations (-n) */
	bool all_sizes;	  /* -a: every size instead of size and duration */
	char gid[8];	  /* -x GID index, digits; "": chosen as perftest does */
	char qps[8];	  /* bw only: -q number of QPs, digits; "": one */
	bool bidir;	  /* bw only: -b both directions */
	char dev[64];
	uint64_t port;
};

#define CON_TEST_FIELDS_MAX 32
#define CON_TEST_FIGURES_MAX 12
#define CON_TEST_HIST_MAX 32
#define CON_TEST_GRAPH_MAX 600
#define CON_TEST_RESULTS_MAX 16
#define CON_TEST_PEER_MAX 24 /* lines of the peer check kept */

struct con_test_result {
	bool lat;
	char what[128];	 /* "bw write 65536 B 5s loopback mlx5_0/1" */
	char figure[48]; /* "92.31 Gb/s" or "1.84 us" */
	char status[24]; /* done / aborted / failed */
	char fields[CON_TEST_FIELDS_MAX][2][48];
	size_t n_fields;
	/* The figures as a person reads them, one per line, aligned:
	 * label (18 columns), number (right-aligned), unit. */
	char figures[CON_TEST_FIGURES_MAX][80];
	size_t n_figures;
	/* Latency: the result's histogram; bin b holds samples from
	 * hist_lo + b hist_width (usec), hist_over those above the last bin,
	 * up to hist_max. n_hist 0: none. */
	double hist_lo, hist_width, hist_max;
	uint64_t hist[CON_TEST_HIST_MAX], hist_over;
	size_t n_hist;
	/* The peer check the child printed before its figures (and, after a
	 * failure, what it explains), escaped; peer_more: lines left out. */
	char peer[CON_TEST_PEER_MAX][160];
	size_t n_peer, peer_more;
};

struct con_test_run {
	const char *self_exe;
	pid_t pid;
	int fd;
	char buf[8192];
	size_t len;
	bool lat;
	double started;
	double abort_at; /* SIGINT sent; SIGKILL after a grace time */
	bool aborted;
	double graph[CON_TEST_GRAPH_MAX]; /* Gb/s or microseconds */
	size_t n_graph;
	char last_err[256];
	bool in_peer; /* the last line was part of the peer check */
	struct con_test_result cur;
	struct con_test_result results[CON_TEST_RESULTS_MAX];
	size_t n_results;
	/* set when a run ends: what to tell the person */
	bool ended, ended_ok;
	char summary[384];
};

void con_test_init(struct con_test_run *t, const char *self_exe);
/* The child's argument vector (argv[0] included, NULL-terminated) into
 * argv[max]; port is scratch space for the port number. 0 or -EINVAL. */
int con_test_argv(const struct con_test_params *p, const char **argv,
		  size_t max, char *port, size_t portlen);
/* Fork and exec the test. 0, or -errno with err saying why. */
int con_test_start(struct con_test_run *t, const struct con_test_params *p,
		   char *err, size_t errlen);
bool con_test_running(const struct con_test_run *t);
int con_test_fd(const struct con_test_run *t);
/* Read what the child wrote (call when con_test_fd() is readable). */
void con_test_readable(struct con_test_run *t);
/* Every loop turn: escalate an abort, collect an exited child. */
void con_test_tick(struct con_test_run *t);
/* One line of the child's output (JSON progress/result, or its error). */
void con_test_feed_line(struct con_test_run *t, char *line);
/* Esc: SIGINT now, SIGKILL if it is still there 2 s later. */
void con_test_stop(struct con_test_run *t);
/* True once after a run ended; summary and ended_ok say how. */
bool con_test_take_ended(struct con_test_run *t);
/* Stop any child and wait for it (at most about a second). */
void con_test_cleanup(struct con_test_run *t);
/* Safe from a signal handler: kill the child, if any. */
void con_test_kill_now(void);
/* The child source the loop polls (the test's tick and cleanup too). */
struct con_child con_test_child(struct con_test_run *t);

#endif
