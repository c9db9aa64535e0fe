// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag's own messages on a bw/lat test's port: see inband.h. */
#include "config.h"
#include "peer/inband.h"

#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "diag/compare.h"
#include "peer/matrix.h"
#include "peer/session.h"
#include "peer/summary.h"
#include "peer/wire.h"

FILE *rd_peer_inband_out(const struct perf_opts *o)
{
	return o->json || o->quiet ? stderr : stdout;
}

/* The test's choices as the peer check carries them. */
static void test_choice(const struct perf_choice *ch, struct rd_test_choice *t)
{
	memset(t, 0, sizeof(*t));
	t->set = true;
	t->by_cm = ch->by_cm;
	t->gid_index = ch->gid_index;
	t->mtu = ch->mtu;
	if (ch->gid_index < 0)
		return;
	memcpy(t->gid, ch->gid, 16);
	t->type = !ch->roce				 ? RD_TEST_GID_IB
		  : ch->gid_type == IBV_GID_TYPE_ROCE_V2 ? RD_TEST_GID_ROCE_V2
							 : RD_TEST_GID_ROCE_V1;
}

static int inband_exchange(struct perf_oob *oob, bool client,
			   const struct perf_choice *ch, void *ctx)
{
	struct rd_peer_inband *ib = ctx;
	const struct perf_opts *o = ib->o;
	struct rd_test_choice t;
	char who[300];

	if (client)
		snprintf(who, sizeof(who), "%s:%u", rd_esc_tmp(o->host),
			 (unsigned)o->port);
	else
		snprintf(who, sizeof(who), "the client%s%s",
			 oob->peer[0] ? " " : "", oob->peer);
	ib->done = true;
	test_choice(ch, &t);
	return rd_peer_precheck_inband(
		ib->pc, ib->snap, o->dev, o->ib_port,
		ch->gid_type < 0 && ch->gid_index >= 0 ? NULL : &t, oob, client,
		who, o->timeout_ms, rd_peer_inband_out(o));
}

static bool inband_claims(const char *first, size_t len, void *ctx)
{
	(void)ctx;
	return rd_peer_greeting_claims(first, len);
}

/* `rdmadiag peer HOST` on the test's port: answered, and the server
 * waits on for the test's client. */
static void inband_serve(struct perf_oob *oob, void *ctx)
{
	struct rd_peer_inband *ib = ctx;
	const struct perf_opts *o = ib->o;
	struct rd_peer_summary mine, theirs;
	struct rd_cmp_side side;
	const char *why_not = NULL;
	char why[512], err[512];
	FILE *out = rd_peer_inband_out(o);
	int r;

	if (!ib->snap) {
		why_not = "this host's ports could not be read";
	} else if (rd_cmp_pick(ib->snap, o->dev, o->ib_port, &side, why,
			       sizeof(why)) < 0) {
		why_not = why;
	} else if (rd_peer_summary_make(&side, &mine) < 0) {
		why_not = "out of memory";
	}
	r = rd_peer_serve(oob, o->timeout_ms, why_not ? NULL : &mine, why_not,
			  &theirs, err, sizeof(err));
	if (r == 0) {
		if (rd_peer_matrix_serve(oob, why_not ? NULL : o->dev,
					 o->ib_port, why_not, o->timeout_ms,
					 err, sizeof(err)) < 0)
			fprintf(out, "peer check from %s: reachability: %s\n",
				oob->peer, err);
		else
			fprintf(out,
				"peer check from %s answered; still "
				"waiting for the test's client\n",
				oob->peer);
		rd_peer_summary_free(&theirs);
	} else {
		fprintf(out,
			"peer check from %s: %s; still waiting for the "
			"test's client\n",
			oob->peer, err);
	}
	fflush(out);
	if (!why_not)
		rd_peer_summary_free(&mine);
}

/* The header's line on the peer check: its outcome, or why none. */
void rd_peer_inband_note(const struct perf_opts *o,
			 const struct rd_peer_precheck *pc, bool tried,
			 char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->role == PERF_LOOPBACK)
		return;
	if (tried && pc->ran && pc->c.n + pc->nt)
		snprintf(buf, len,
			 "%zu mismatch%s with the peer, "
			 "listed above",
			 pc->c.n + pc->nt, pc->c.n + pc->nt == 1 ? "" : "es");
	else if (tried && pc->ran)
		snprintf(buf, len, "no mismatch with the peer's port");
	else if (tried || pc->err[0])
		snprintf(buf, len, "not made: %s", pc->err);
}

void rd_peer_inband_init(struct rd_peer_inband *ib, const struct perf_opts *o,
			 const struct rd_snapshot *snap,
			 struct rd_peer_precheck *pc)
{
	*ib = (struct rd_peer_inband){
		.o = o,
		.snap = snap,
		.pc = pc,
		.hooks = { .exchange = inband_exchange,
			   .ctx = ib,
			   .aside = { .claims = inband_claims,
				      .serve = inband_serve,
				      .ctx = ib } },
	};
}
