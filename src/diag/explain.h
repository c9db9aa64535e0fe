/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a completion error means and why it likely happened here: parse
 * what a person pastes (an ibv_wc_status name, number or text; perftest's,
 * NCCL's and UCX's error lines; an mlx5 syndrome or vendor error), then
 * rank the likely causes by the evidence of a snapshot, its counter
 * history and the diagnosis results. No I/O: the caller brings the tables,
 * the snapshot and the results.
 */
#ifndef RD_DIAG_EXPLAIN_H
#define RD_DIAG_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/history.h"
#include "core/snapshot.h"
#include "diag/data.h"
#include "diag/diag.h"

/* Longest input looked at; the rest is ignored (and said so). */
#define RD_EXPLAIN_INPUT_MAX 8192

/* What was found in the text. -1 = absent. */
struct rd_explain_input {
	int status;		/* enum ibv_wc_status */
	int vendor_err;		/* ibv_wc.vendor_err (mlx5: vendor_err_synd) */
	int syndrome;		/* mlx5 CQE syndrome */
	const char *tool;	/* "perftest", "NCCL", "UCX"; NULL */
	char device[64];	/* "mlx5_0" named in the line; "" */
	unsigned port;		/* its port; 0 = none */
	bool truncated;		/* longer than RD_EXPLAIN_INPUT_MAX */
	/* What was recognised, for people: "status 12 (from \"error 12\")". */
	char recognised[768];
	/* Disagreement between the parts ("status 5 but syndrome 0x15"). */
	char conflict[256];
};

/* A likely cause of a completion error: one row of the cause table. */
struct rd_explain_cause {
	const char *id;
	const char *title;
	/* fnmatch patterns of counters whose rise is evidence, '|'-separated */
	const char *counters;
	/* fnmatch patterns of check ids whose WARN/FAIL is evidence */
	const char *checks;
	/* Where the cause cannot be seen from this host, if anywhere. */
	const char *elsewhere;
	const char *next_step;
};

extern const struct rd_explain_cause rd_explain_causes[];
extern const size_t rd_n_explain_causes;
const struct rd_explain_cause *rd_explain_cause_find(const char *id);

/*
 * Parse text. Returns 1 when a completion status is known (given, or
 * implied by an mlx5 syndrome or vendor code: only when the text names an
 * mlx5 device or none), 0 when not (in->recognised says what was found,
 * possibly nothing), -ENOMEM.
 */
int rd_explain_parse(const char *text, const struct rd_wc_status_table *wc,
		     const struct rd_mlx5_table *m,
		     struct rd_explain_input *in);

/*
 * The cause ids for a parsed input, most likely first: those of the vendor
 * code, then of the syndrome, then of the status; no repeats. Written into
 * buf as a comma list; the count is returned.
 */
size_t rd_explain_cause_ids(const struct rd_explain_input *in,
			    const struct rd_wc_status_table *wc,
			    const struct rd_mlx5_table *m, char *buf,
			    size_t len);

struct rd_explain_ranked {
	const struct rd_explain_cause *cause;
	int score;		/* 0 = no evidence on this host */
	char **evidence;	/* "mlx5_0/1 hw_counters local_ack_timeout_err: +12 in 2.0 s" */
	size_t n_evidence;
	char *looked;		/* what was looked at and found quiet; NULL */
};

struct rd_explain_ranking {
	struct rd_explain_ranked *v;
	size_t n;
};

/* Where the evidence comes from. h may be NULL (one snapshot: totals only). */
struct rd_explain_evidence {
	const struct rd_snapshot *s;
	const struct rd_history *h;
	double window;		/* seconds of history to judge (with slack) */
	double shown;		/* the window as sampled, for people */
	const struct rd_results *results;	/* NULL = none */
	const char *device;	/* only this device; NULL = every device */
	unsigned port;		/* only this port; 0 = all */
};

/*
 * Rank the causes in ids (a comma list) by evidence: each counter that
 * rose scores 5, a FAIL check 4, a WARN check 1, a non-zero total (one
 * snapshot, no history) 1.
 * Ties keep the list's order. 0 or -ENOMEM (out is then empty).
 */
int rd_explain_rank(const char *ids, const struct rd_explain_evidence *ev,
		    struct rd_explain_ranking *out);
void rd_explain_ranking_free(struct rd_explain_ranking *r);

/* What the parsed codes mean, as lines of text on f. */
void rd_explain_write_meaning(FILE *f, const struct rd_explain_input *in,
			      const struct rd_wc_status_table *wc,
			      const struct rd_mlx5_table *m);
/*
 * The meaning, then the causes ranked by ev (ev->s NULL: unranked, most
 * common first); label says where the evidence comes from ("of this host").
 * The text for the CLI and the console alike. 0 or -ENOMEM.
 */
int rd_explain_write(FILE *f, const struct rd_explain_input *in,
		     const struct rd_wc_status_table *wc,
		     const struct rd_mlx5_table *m,
		     const struct rd_explain_evidence *ev, const char *label);

#endif
