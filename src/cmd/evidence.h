/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence commands judge, shared so that no command calls another:
 * this host sampled over a window, or a loaded snapshot or recording
 * (check, explain, env), and a completion error explained from it
 * (explain, bw/lat).
 */
#ifndef RD_CMD_EVIDENCE_H
#define RD_CMD_EVIDENCE_H

#include <stdint.h>
#include <stdio.h>

#include "cmd/cli.h"
#include "core/history.h"
#include "core/snapshot.h"
#include "diag/data.h"
#include "diag/diag.h"
#include "diag/explain.h"

/* A loaded file: where its evidence comes from, for the person. */
struct cli_loaded {
	char label[768]; /* "from FILE, frame N of M, taken AT" */
	double window;	 /* seconds the history spans; 0 = none */
	char *text;	 /* the judged frame's JSON, for -v */
};

/*
 * Readings over *window seconds into h, the last one in s. *window becomes
 * the span the readings really cover. 0 or -errno.
 */
int cli_evidence_collect(struct rd_cli *cli, double *window,
			 struct rd_snapshot *s, struct rd_history *h);
/*
 * --load FILE: a snapshot, or a recording (frame 0: its last) with its
 * history; 0, or -errno with the error printed.
 */
int cli_evidence_load(struct rd_cli *cli, const char *file, uint64_t frame,
		      struct rd_snapshot *s, struct rd_history *h,
		      struct cli_loaded *ld);
/* A loaded file's frame and history, or this host sampled. */
int cli_check_evidence(struct rd_cli *cli, const char *load, double *window,
		       struct rd_snapshot *s, struct rd_history *h, char *label,
		       size_t len);

/* What an explanation is made of: the tables, the parsed text, and this
 * host's evidence (a snapshot, its history, the checks' results). */
struct cli_explain_job {
	const struct rd_wc_status_table *wc;
	const struct rd_mlx5_table *m;
	struct rd_explain_input in;
	struct rd_explain_evidence ev;
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res;
	char label[1024];
	bool have; /* s holds a snapshot */
};
/* The completion-status and mlx5 tables; -ENOENT with the error printed. */
int cli_explain_tables(struct rd_cli *cli, const struct rd_wc_status_table **wc,
		       const struct rd_mlx5_table **m);
void cli_explain_job_free(struct cli_explain_job *j);
/*
 * --since DURATION and --store DIR (check, explain): the past from the
 * flight recorder's store (rdmadiag record) as evidence. CLI_PAST's
 * options fill a struct cli_past; cli_past_load reads the store when
 * either was given and points o at what it read (o->past) or why not
 * (o->past_error).
 */
struct cli_past {
	const char *store; /* NULL: RD_STORE_DEFAULT */
	double since;	   /* seconds back; 0: not given */
	struct rd_events ev;
	char err[768];
};
int cli_parse_duration(struct rd_cli *cli, const char *arg, void *dst);
#define CLI_PAST(p)                                                            \
	CLI_CALL("since", 0, &(p)->since, cli_parse_duration),                 \
		CLI_TEXT("store", 0, &(p)->store)
void cli_past_load(struct cli_past *p, const struct rd_snapshot *s,
		   struct rd_diag_opts *o);
void cli_past_free(struct cli_past *p);

/* Take the evidence into j and run the checks (with the store's past when
 * past is not NULL); j->have false, no evidence and the reason in
 * j->label when it cannot. */
void cli_explain_gather(struct rd_cli *cli, const char *load, double window,
			struct cli_past *past, struct cli_explain_job *j);
/*
 * bw/lat, after a completion error: explain err, its message ("...
 * (status 12, vendor error 0x81) ..."), read as `rdmadiag explain` reads
 * one, ranked by the counters between s0 and s1 (the test's start and
 * end) or, without them, by a snapshot taken now.
 */
void cli_explain_completion(struct rd_cli *cli, FILE *f, const char *err,
			    const char *device, unsigned port,
			    const struct rd_snapshot *s0,
			    const struct rd_snapshot *s1);

#endif
