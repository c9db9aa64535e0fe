// SPDX-License-Identifier: GPL-2.0-or-later
/* The evidence commands judge (see evidence.h). */
#include "config.h"
#include "cmd/evidence.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/record_diff.h"
#include "console/store.h"
#include "core/clock.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/recording.h"
#include "probes/probe.h"

static void sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec =
				       (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Probe now, then every second until the window ends; keep the last. */
/*
 * Readings over *window seconds into h, the last one in s. *window becomes
 * the span the readings really cover: on a loaded host a reading can take
 * longer than planned, and a counter compared over the planned span only
 * would find no second reading to compare with.
 */
int cli_evidence_collect(struct rd_cli *cli, double *window,
			 struct rd_snapshot *s, struct rd_history *h)
{
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct timespec t0, t;
	uint64_t tick = 0, first_ns = 0;
	bool have_first = false;
	double span = 0;
	int r;

	if (!cache)
		return -ENOMEM;
	for (;;) {
		double left;

		r = rd_snapshot_take(&cli->roots, cache, tick, 0, s);
		if (r < 0)
			break;
		r = rd_history_add(h, s);
		if (r < 0)
			break;
		if (s->monotonic_ns.ok && !have_first) {
			first_ns = s->monotonic_ns.v;
			have_first = true;
		} else if (s->monotonic_ns.ok && s->monotonic_ns.v > first_ns) {
			span = (double)(s->monotonic_ns.v - first_ns) / 1e9;
		}
		/*
		 * The window starts when the first reading is in: a first
		 * snapshot slower than the window (a loaded or emulated host)
		 * must still be followed by a second one to compare with.
		 */
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (tick == 0)
			t0 = t;
		left = *window - ((double)(t.tv_sec - t0.tv_sec) +
				  (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
		if (left <= 0.01)
			break;
		rd_snapshot_free(s);
		sleep_seconds(left < 1.0 ? left : 1.0);
		tick++;
	}
	if (r < 0)
		rd_snapshot_free(s);
	else if (span > *window)
		*window = span; /* after the loop: it must not move its end */
	rd_probe_cache_free(cache);
	return r;
}

/* ---- --load: a snapshot or a recording as evidence ---- */

static void taken_at(const struct rd_snapshot *s, char *buf, size_t len)
{
	if (!s->time.ok || !rd_clock_fmt(s->time.v, RD_CLOCK_UTC,
					 RD_CLOCK_UTC_LINE, NULL, buf, len))
		snprintf(buf, len, "at an unrecorded time");
}

/* Read frame i's line (for the unknown-key report). */
static char *frame_text(struct rd_recording *rec, size_t i)
{
	char *t;

	if (rec->len[i] > RD_RECORDING_LINE_MAX ||
	    fseeko(rec->f, rec->off[i], SEEK_SET) != 0)
		return NULL;
	t = malloc(rec->len[i] + 1);
	if (t && fread(t, 1, rec->len[i], rec->f) != rec->len[i]) {
		free(t);
		return NULL;
	}
	if (t)
		t[rec->len[i]] = '\0';
	return t;
}

/*
 * Frames 1..frame of a recording: the last is the snapshot judged, and up
 * to RD_HISTORY_DEPTH of them feed the counter history: the newest half of
 * that depth one by one, so that a rate over the newest seconds sees the
 * same samples the console saw, and the older frames spread evenly.
 */
static int load_recording(struct rd_cli *cli, const char *file,
			  struct rd_recording *rec, uint64_t frame,
			  struct rd_snapshot *s, struct rd_history *h,
			  struct cli_loaded *ld)
{
	size_t last = frame ? (size_t)frame - 1 : rec->n - 1;
	size_t tail = RD_HISTORY_DEPTH / 2 - 1; /* frames just before last */
	size_t head = last > tail ? last - tail : 0; /* first of the tail */
	size_t stride = head / (RD_HISTORY_DEPTH / 2) + 1;
	struct rd_snapshot first = { 0 };
	char err[512], at[64];
	int r = 0;

	if (frame > rec->n) {
		cli_error(cli,
			  "%s has %zu frames: --frame %" PRIu64
			  " is out of range",
			  file, rec->n, frame);
		return -ERANGE;
	}
	/* Every stride-th frame before the tail, then each one to the last. */
	for (size_t i = 0;; i = i + stride < head ? i + stride
				: i < head	  ? head
						  : i + 1) {
		struct rd_snapshot f;

		r = rd_recording_frame(rec, i, &f, err, sizeof(err));
		if (r == 0)
			r = rd_history_add(h, &f);
		if (r < 0) {
			if (r == -ENOMEM)
				rd_snapshot_free(&f);
			break;
		}
		if (i == last)
			*s = f;
		else if (i == 0)
			first = f;
		else
			rd_snapshot_free(&f);
		if (i == last)
			break;
	}
	if (r < 0) {
		cli_error(cli, "%s: %s", file,
			  r == -ENOMEM ? "out of memory" : err);
		rd_snapshot_free(&first);
		return r;
	}
	if (first.monotonic_ns.ok && s->monotonic_ns.ok &&
	    s->monotonic_ns.v > first.monotonic_ns.v)
		ld->window =
			(double)(s->monotonic_ns.v - first.monotonic_ns.v) /
			1e9;
	rd_snapshot_free(&first);
	taken_at(s, at, sizeof(at));
	snprintf(ld->label, sizeof(ld->label),
		 "from %s, frame %zu of %zu, taken %s", rd_esc_tmp(file),
		 last + 1, rec->n, at);
	ld->text = frame_text(rec, last);
	return 0;
}

/* --load FILE: a snapshot, or a recording (several JSON lines). */
int cli_evidence_load(struct rd_cli *cli, const char *file, uint64_t frame,
		      struct rd_snapshot *s, struct rd_history *h,
		      struct cli_loaded *ld)
{
	struct rd_recording rec = { 0 };
	char err[512], rerr[512], at[64];
	size_t len;
	int r, rr;

	r = rr = rd_recording_open(file, &rec, rerr, sizeof(rerr));
	if (r == 0 && (rec.n > 1 || frame)) {
		r = load_recording(cli, file, &rec, frame, s, h, ld);
		rd_recording_close(&rec);
		return r;
	}
	if (r == 0)
		rd_recording_close(&rec);
	if (frame) {
		cli_error(cli,
			  "--frame needs a recording (rdmadiag capture): %s",
			  rerr);
		return -EINVAL;
	}
	r = rd_snapshot_load_file(file, s, err, sizeof(err));
	if (r < 0) {
		char msg[1024];

		rd_load_failure(msg, sizeof(msg), r, err, rr, rerr);
		cli_error(cli, "%s", msg);
		return r;
	}
	taken_at(s, at, sizeof(at));
	snprintf(ld->label, sizeof(ld->label), "from %s, taken %s",
		 rd_esc_tmp(file), at);
	if (rd_read_file(file, RD_RECORDING_LINE_MAX, &ld->text, &len) < 0)
		ld->text = NULL;
	return 0;
}

/*
 * The evidence check judges, for other commands (explain): a file (its
 * last frame, the counters over the recording) or this host sampled for
 * *window seconds. *window becomes the span the history covers.
 */
int cli_check_evidence(struct rd_cli *cli, const char *load, double *window,
		       struct rd_snapshot *s, struct rd_history *h, char *label,
		       size_t len)
{
	struct cli_loaded ld = { .label = "" };
	int r;

	if (!load) {
		snprintf(label, len, "of this host");
		return cli_evidence_collect(cli, window, s, h);
	}
	r = cli_evidence_load(cli, load, 0, s, h, &ld);
	free(ld.text);
	*window = ld.window;
	snprintf(label, len, "%s", ld.label);
	return r;
}

int cli_explain_tables(struct rd_cli *cli, const struct rd_wc_status_table **wc,
		       const struct rd_mlx5_table **m)
{
	*wc = rd_data_wc_status();
	*m = rd_data_mlx5();
	if (!*wc || !*m) {
		cli_error(cli, "explain: %s",
			  rd_data_error() ? rd_data_error()
					  : "tables not loaded");
		return -ENOENT;
	}
	return 0;
}

void cli_explain_job_free(struct cli_explain_job *j)
{
	rd_results_free(&j->res);
	if (j->have)
		rd_snapshot_free(&j->s);
	rd_history_free(&j->h);
}

void cli_explain_gather(struct rd_cli *cli, const char *load, double window,
			struct cli_past *past, struct cli_explain_job *j)
{
	struct rd_diag_opts o;
	int r;

	r = cli_check_evidence(cli, load, &window, &j->s, &j->h, j->label,
			       sizeof(j->label));
	j->have = r >= 0;
	if (r < 0) {
		snprintf(j->label, sizeof(j->label),
			 "no snapshot could be taken: %s", strerror(-r));
		j->ev = (struct rd_explain_evidence){ 0 };
		return;
	}
	rd_diag_opts_init(&o);
	o.counter_window = window > 0 ? window + 1.0 : 0;
	/* This host: all that was watched; a recording: the console's. */
	o.rate_window = load ? RD_RATE_WINDOW : o.counter_window;
	if (past)
		cli_past_load(past, &j->s, &o);
	if (rd_diag_run(&j->s, window > 0 ? &j->h : NULL, &o, &j->res) < 0)
		rd_results_free(&j->res);
	j->ev.s = &j->s;
	j->ev.h = window > 0 ? &j->h : NULL;
	j->ev.window = window > 0 ? o.rate_window : 0;
	j->ev.shown = load && window > RD_RATE_WINDOW ? RD_RATE_WINDOW : window;
	j->ev.results = &j->res;
}

void cli_explain_completion(struct rd_cli *cli, FILE *f, const char *err,
			    const char *device, unsigned port,
			    const struct rd_snapshot *s0,
			    const struct rd_snapshot *s1)
{
	struct cli_explain_job j = { 0 };
	struct rd_diag_opts o;

	if (!err || cli_explain_tables(cli, &j.wc, &j.m) < 0 ||
	    rd_explain_parse(err, j.wc, j.m, &j.in) != 1)
		return;
	/* Vendor codes are mlx5's; another provider's mean something else. */
	if (!device || strncmp(device, "mlx5_", 5) != 0)
		j.in.vendor_err = -1;
	rd_history_init(&j.h);
	if (s0 && s1 && s0->monotonic_ns.ok && s1->monotonic_ns.ok &&
	    s1->monotonic_ns.v > s0->monotonic_ns.v &&
	    rd_history_add(&j.h, s0) == 0 && rd_history_add(&j.h, s1) == 0) {
		/* The counters before and after the test: what rose during it.
		 */
		double span =
			(double)(s1->monotonic_ns.v - s0->monotonic_ns.v) / 1e9;

		rd_diag_opts_init(&o);
		o.counter_window = span + 0.001;
		if (rd_diag_run(s1, &j.h, &o, &j.res) < 0)
			rd_results_free(&j.res);
		j.ev = (struct rd_explain_evidence){ .s = s1,
						     .h = &j.h,
						     .window = span + 0.001,
						     .shown = span,
						     .results = &j.res };
		snprintf(j.label, sizeof(j.label),
			 "of this host during the test");
	} else {
		cli_explain_gather(cli, NULL, 0, NULL, &j);
	}
	j.ev.device = device;
	j.ev.port = port;
	fputc('\n', f);
	if (rd_explain_write(f, &j.in, j.wc, j.m, &j.ev, j.label) < 0)
		fprintf(f, "(out of memory while ranking the causes)\n");
	cli_explain_job_free(&j);
}

int cli_parse_duration(struct rd_cli *cli, const char *arg, void *dst)
{
	if (rd_rec_parse_duration(arg, dst) < 0) {
		cli_error(cli,
			  "--since: \"%s\" is not a duration (90s, 30m, 2h, "
			  "7d)",
			  arg);
		return -1;
	}
	return 0;
}

void cli_past_load(struct cli_past *p, const struct rd_snapshot *s,
		   struct rd_diag_opts *o)
{
	const char *dir = p->store ? p->store : RD_STORE_DEFAULT;
	double now = s->time.ok ? s->time.v : (double)time(NULL);
	int r;

	if (!p->store && !p->since)
		return;
	r = rd_store_read_events(dir, now - (p->since ? p->since : 3600),
				 &p->ev, p->err, sizeof(p->err));
	if (r == -ENOENT && !p->store)
		snprintf(p->err, sizeof(p->err),
			 "no flight recorder store at %s (rdmadiag record "
			 "keeps one there when it runs)",
			 dir);
	if (r < 0) {
		rd_events_free(&p->ev);
		o->past_error = p->err;
		return;
	}
	o->past = &p->ev;
}

void cli_past_free(struct cli_past *p)
{
	rd_events_free(&p->ev);
}
