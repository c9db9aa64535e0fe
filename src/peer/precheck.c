// SPDX-License-Identifier: GPL-2.0-or-later
/* The peer check before a test: see precheck.h. */
#include "config.h"

#include "peer/precheck.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core/escape.h"
#include "peer/failure.h"
#include "peer/session.h"

/* At most this many mismatches are named in a failure's explanation. */
#define EXPLAIN_MAX 4

/* This host's port as a summary; pc->err says why there is none. */
static int make_mine(struct rd_peer_precheck *pc, const struct rd_snapshot *s,
		     const char *dev, unsigned ib_port,
		     struct rd_peer_summary *mine)
{
	struct rd_cmp_side side;
	char err[512];
	int r;

	if (!s) {
		snprintf(pc->err, sizeof(pc->err),
			 "this host's ports could not be read");
		return -ENODEV;
	}
	r = rd_cmp_pick(s, dev, ib_port, &side, err, sizeof(err));
	if (r < 0) {
		snprintf(pc->err, sizeof(pc->err), "%s", err);
		return r;
	}
	r = rd_peer_summary_make(&side, mine);
	if (r < 0)
		snprintf(pc->err, sizeof(pc->err), "out of memory");
	return r;
}

/* The two tests' choices, or why they cannot be compared. */
static void compare_tests(struct rd_peer_precheck *pc,
			  const struct rd_peer_summary *mine,
			  const struct rd_peer_summary *theirs)
{
	pc->mine_t = mine->test;
	pc->peer_t = theirs->test;
	if (!mine->test.set)
		snprintf(pc->test_note, sizeof(pc->test_note),
			 "not compared: rdmadiag peer --listen runs no test");
	else if (theirs->test_err[0])
		snprintf(pc->test_note, sizeof(pc->test_note), "not compared: %s",
			 theirs->test_err);
	else if (!theirs->test.set)
		snprintf(pc->test_note, sizeof(pc->test_note),
			 "not compared: the peer's rdmadiag does not send them "
			 "(an older release)");
	else
		pc->nt = rd_test_choice_compare(&mine->test, &theirs->test,
						mine->side.port,
						theirs->side.port, pc->titems);
}

static int compare(struct rd_peer_precheck *pc, struct rd_peer_summary *mine,
		   struct rd_peer_summary *theirs)
{
	int r = rd_compare(&mine->side, &theirs->side, &pc->c);

	if (r == 0)
		compare_tests(pc, mine, theirs);
	rd_peer_summary_free(theirs);
	if (r < 0) {
		snprintf(pc->err, sizeof(pc->err), "out of memory");
		return r;
	}
	pc->ran = true;
	return 0;
}

/* The list, or why there is none, on out (NULL: nothing). */
static void print(const struct rd_peer_precheck *pc, const char *with,
		  FILE *out)
{
	if (!out)
		return;
	if (!pc->ran) {
		fprintf(out, "peer check: %s: %s; the test runs without it\n",
			with, pc->err);
		fflush(out);
		return;
	}
	fprintf(out, "peer check with %s: ", with);
	if (!pc->c.n && !pc->nt)
		fprintf(out, "no mismatch found\n");
	else
		fprintf(out, "%zu mismatch%s\n", pc->c.n + pc->nt,
			pc->c.n + pc->nt == 1 ? "" : "es");
	for (size_t i = 0; i < pc->nt; i++)
		fprintf(out, "  %s: here %s, peer %s\n    breaks: %s\n",
			pc->titems[i].what, pc->titems[i].a, pc->titems[i].b,
			pc->titems[i].breaks);
	for (size_t i = 0; i < pc->c.n; i++)
		fprintf(out, "  %s: here %s, peer %s\n    breaks: %s\n",
			pc->c.items[i].what, pc->c.items[i].a, pc->c.items[i].b,
			pc->c.items[i].breaks);
	if (pc->test_note[0]) {
		fprintf(out, "  the tests' GIDs and MTUs: %s\n", pc->test_note);
	} else if ((pc->mine_t.by_cm && pc->mine_t.gid_index < 0) ||
		   (pc->peer_t.by_cm && pc->peer_t.gid_index < 0)) {
		fprintf(out, "  the tests' GIDs: rdma_cm picks them when it "
			     "connects\n");
	} else if (!pc->nt) {
		char a[160], b[160];

		rd_test_choice_text(&pc->mine_t, a, sizeof(a));
		rd_test_choice_text(&pc->peer_t, b, sizeof(b));
		fprintf(out, "  the tests' GIDs agree: here %s, peer %s\n", a, b);
	}
	if (pc->c.gid_a >= 0 && pc->c.gid_b >= 0)
		fprintf(out, "  GID: -x %" PRId64 " here (%s), -x %" PRId64
			     " on the peer (%s)\n",
			pc->c.gid_a, pc->c.addr_a, pc->c.gid_b, pc->c.addr_b);
	else
		fprintf(out, "  GID: no IPv4 RoCE v2 GID %s\n",
			pc->c.gid_a < 0 && pc->c.gid_b < 0 ? "on either host" :
			pc->c.gid_a < 0 ? "here" : "on the peer");
	fflush(out);
}

int rd_peer_precheck_run(struct rd_peer_precheck *pc,
			 const struct rd_snapshot *s, const char *dev,
			 unsigned ib_port, const char *host, uint16_t port,
			 int timeout_ms, FILE *out)
{
	struct perf_oob o = { .fd = -1 };
	struct rd_peer_summary mine, theirs;
	char err[512], with[320];
	int r;

	memset(pc, 0, sizeof(*pc));
	r = make_mine(pc, s, dev, ib_port, &mine);
	if (r == 0) {
		o.timeout_ms = timeout_ms;
		r = rd_peer_client(&o, host, port, timeout_ms, &mine, &theirs,
				   err, sizeof(err));
		perf_oob_close(&o);
		if (r < 0)
			snprintf(pc->err, sizeof(pc->err), "%s", err);
		else
			r = compare(pc, &mine, &theirs);
		rd_peer_summary_free(&mine);
	}
	if (pc->ran)
		snprintf(with, sizeof(with), "rdmadiag peer on %s:%u",
			 rd_esc_tmp(host), (unsigned)port);
	else
		snprintf(with, sizeof(with), "%s:%u", rd_esc_tmp(host),
			 (unsigned)port);
	print(pc, with, out);
	return pc->ran ? 0 : (r < 0 ? r : -EIO);
}

int rd_peer_precheck_inband(struct rd_peer_precheck *pc,
			    const struct rd_snapshot *s, const char *dev,
			    unsigned ib_port, const struct rd_test_choice *test,
			    struct perf_oob *o, bool client, const char *who,
			    int timeout_ms, FILE *out)
{
	struct rd_peer_summary mine, theirs;
	char err[512], with[320];
	bool have, broken;
	int r;

	memset(pc, 0, sizeof(*pc));
	o->fail = PERF_FAIL_INIT;
	have = make_mine(pc, s, dev, ib_port, &mine) == 0;
	if (have && test)
		mine.test = *test;
	r = (client ? rd_peer_swap_client : rd_peer_swap_server)(
		o, who, timeout_ms, have ? &mine : NULL, pc->err, &theirs,
		&broken, err, sizeof(err));
	if (r == 0 && have) {
		r = compare(pc, &mine, &theirs);
	} else if (r == 0) {
		/* The other side's summary came, but this side has none. */
		rd_peer_summary_free(&theirs);
		r = -ENODEV;
	} else {
		snprintf(pc->err, sizeof(pc->err), "%s", err);
	}
	if (have)
		rd_peer_summary_free(&mine);
	snprintf(with, sizeof(with), "rdmadiag at %s, in the test's channel",
		 who);
	print(pc, with, out);
	if (broken) {
		snprintf(o->err, sizeof(o->err), "the peer check: %s", err);
		/* The channel's own kind when it failed, else out of step. */
		if (o->fail.kind == PERF_FAIL_NONE)
			o->fail = perf_fail_of(PERF_FAIL_OOB, r < 0 ? -r : EIO);
		return r < 0 ? r : -EIO;
	}
	return 0;
}

/* "the X mismatch (here A, peer B)" and why, after a lead-in. */
static void name_item(FILE *out, const char *lead, const struct rd_cmp_item *it)
{
	fprintf(out, "%s%s%s mismatch (here %s, peer %s): %s\n", lead,
		strncmp(it->what, "the ", 4) ? "the " : "", it->what, it->a,
		it->b, it->breaks);
}

void rd_peer_precheck_explain(const struct rd_peer_precheck *pc, bool rdma,
			      const struct perf_fail *why, FILE *out)
{
	const struct rd_cmp_item *all[RD_TEST_ITEMS_MAX + 64];
	size_t can[RD_TEST_ITEMS_MAX + 64], slow[RD_TEST_ITEMS_MAX + 64];
	size_t n = 0, ncan, nslow;
	struct rd_failure f;

	if (!pc->ran) {
		if (pc->err[0])
			fprintf(out, "peer check: not made (%s), so no mismatch "
				     "of the two ports is known\n", pc->err);
		return;
	}
	rd_failure_classify(why, rdma, &f);
	if (f.kind == RD_FAIL_OOB) {
		fprintf(out, "peer check: the test failed before its RDMA "
			     "part, on the TCP exchange, so %s\n",
			pc->c.n + pc->nt ? "the mismatches listed before the "
					   "test do not explain it" :
					   "no port setting explains it");
		return;
	}
	for (size_t i = 0; i < pc->nt; i++)
		all[n++] = &pc->titems[i];
	for (size_t i = 0; i < pc->c.n && n < sizeof(all) / sizeof(all[0]); i++)
		all[n++] = &pc->c.items[i];
	rd_failure_rank(f.kind, all, n, can, &ncan, slow, &nslow);
	if (!ncan) {
		fprintf(out, "peer check: no mismatch between the two ports "
			     "%sexplains %s\n",
			pc->test_note[0] ? "" : "or the tests' choices ", f.label);
	} else {
		fprintf(out, "peer check: %s: most likely ", f.label);
		name_item(out, "", all[can[0]]);
		for (size_t i = 1; i < ncan && i < EXPLAIN_MAX; i++)
			name_item(out, "peer check: it can also be explained by ",
				  all[can[i]]);
		if (ncan > EXPLAIN_MAX)
			fprintf(out, "peer check: and %zu more mismatches, "
				     "listed before the test\n",
				ncan - EXPLAIN_MAX);
	}
	for (size_t i = 0; i < nslow && i < EXPLAIN_MAX; i++)
		name_item(out, "peer check: may slow the test, does not fail "
			       "it: ", all[slow[i]]);
	if (pc->test_note[0])
		fprintf(out, "peer check: the tests' GIDs and MTUs were %s\n",
			pc->test_note);
}

void rd_peer_precheck_free(struct rd_peer_precheck *pc)
{
	if (pc->ran)
		rd_compare_free(&pc->c);
	pc->ran = false;
}
