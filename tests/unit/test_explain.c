// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain: every row of data/wc_status.tsv and data/mlx5_syndromes.tsv
 * checked against rdma-core's own headers and strings, real error lines
 * from public threads recognised, garbage survived, and causes ranked by
 * counters that rise and checks that fail.
 */
#include "config.h"

#include "diag_snap.h"

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "core/history.h"
#include "diag/data.h"
#include "diag/explain.h"

static const struct rd_wc_status_table *wc(void)
{
	const struct rd_wc_status_table *t = rd_data_wc_status();

	if (!t)
		fail_msg("%s", rd_data_error());
	return t;
}

static const struct rd_mlx5_table *mx(void)
{
	const struct rd_mlx5_table *t = rd_data_mlx5();

	if (!t)
		fail_msg("%s", rd_data_error());
	return t;
}

static void cause_ids_known(const char *ids)
{
	char tmp[256];

	snprintf(tmp, sizeof(tmp), "%s", ids);
	for (char *sv = NULL, *id = strtok_r(tmp, ",", &sv); id;
	     id = strtok_r(NULL, ",", &sv))
		if (!rd_explain_cause_find(id))
			fail_msg("cause \"%s\" is not in the cause table", id);
}

/* The enum as the installed libibverbs header has it. */
#define E(x) { #x, x }
static const struct {
	const char *name;
	int value;
} wc_enum[] = {
	E(IBV_WC_SUCCESS), E(IBV_WC_LOC_LEN_ERR), E(IBV_WC_LOC_QP_OP_ERR),
	E(IBV_WC_LOC_EEC_OP_ERR), E(IBV_WC_LOC_PROT_ERR),
	E(IBV_WC_WR_FLUSH_ERR), E(IBV_WC_MW_BIND_ERR), E(IBV_WC_BAD_RESP_ERR),
	E(IBV_WC_LOC_ACCESS_ERR), E(IBV_WC_REM_INV_REQ_ERR),
	E(IBV_WC_REM_ACCESS_ERR), E(IBV_WC_REM_OP_ERR),
	E(IBV_WC_RETRY_EXC_ERR), E(IBV_WC_RNR_RETRY_EXC_ERR),
	E(IBV_WC_LOC_RDD_VIOL_ERR), E(IBV_WC_REM_INV_RD_REQ_ERR),
	E(IBV_WC_REM_ABORT_ERR), E(IBV_WC_INV_EECN_ERR),
	E(IBV_WC_INV_EEC_STATE_ERR), E(IBV_WC_FATAL_ERR),
	E(IBV_WC_RESP_TIMEOUT_ERR), E(IBV_WC_GENERAL_ERR), E(IBV_WC_TM_ERR),
	E(IBV_WC_TM_RNDV_INCOMPLETE),
};

static const struct {
	const char *name;
	int value;
} mlx5_enum[] = {
	E(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR),
	E(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR),
	E(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR), E(MLX5_CQE_SYNDROME_WR_FLUSH_ERR),
	E(MLX5_CQE_SYNDROME_MW_BIND_ERR), E(MLX5_CQE_SYNDROME_BAD_RESP_ERR),
	E(MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR),
	E(MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR),
	E(MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR),
	E(MLX5_CQE_SYNDROME_REMOTE_OP_ERR),
	E(MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR),
	E(MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR),
	E(MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR),
	E(MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT),
};

static void test_wc_status_table(void **state)
{
	const struct rd_wc_status_table *t = wc();
	struct rd_explain_input in;
	char line[256];

	(void)state;
	/* Every value of the enum, once, in order. */
	assert_int_equal(t->n, sizeof(wc_enum) / sizeof(wc_enum[0]));
	for (size_t i = 0; i < t->n; i++) {
		const struct rd_wc_status *r = &t->v[i];

		assert_string_equal(r->name, wc_enum[i].name);
		assert_int_equal(r->value, wc_enum[i].value);
		/* The exact text libibverbs prints for it. */
		assert_string_equal(r->str,
				    ibv_wc_status_str((enum ibv_wc_status)r->value));
		cause_ids_known(r->causes);
		if (r->value)
			assert_true(r->causes[0] != '\0');

		/* Recognised by name, by short name, by number and by text. */
		assert_int_equal(rd_explain_parse(r->name, t, mx(), &in), 1);
		assert_int_equal(in.status, (int)r->value);
		assert_int_equal(rd_explain_parse(r->name + 7, t, mx(), &in), 1);
		assert_int_equal(in.status, (int)r->value);
		snprintf(line, sizeof(line), "status %u", r->value);
		assert_int_equal(rd_explain_parse(line, t, mx(), &in), 1);
		assert_int_equal(in.status, (int)r->value);
		snprintf(line, sizeof(line), "%u", r->value);
		assert_int_equal(rd_explain_parse(line, t, mx(), &in), 1);
		assert_int_equal(in.status, (int)r->value);
		if (strcmp(r->str, "unknown") != 0) {
			snprintf(line, sizeof(line), "ibv_poll_cq: %s", r->str);
			assert_int_equal(rd_explain_parse(line, t, mx(), &in), 1);
			assert_int_equal(in.status, (int)r->value);
		}
	}
}

static void test_mlx5_table(void **state)
{
	const struct rd_mlx5_table *t = mx();
	struct rd_explain_input in;
	size_t syndromes = 0;
	char line[256];

	(void)state;
	for (size_t i = 0; i < t->n; i++) {
		const struct rd_mlx5_code *c = &t->v[i];

		cause_ids_known(c->causes);
		assert_true(c->wc_status < 0 ||
			    rd_wc_status_find(wc(), (unsigned)c->wc_status));
		/* Names from mlx5dv.h carry mlx5dv.h's value. */
		for (size_t k = 0; k < sizeof(mlx5_enum) / sizeof(mlx5_enum[0]); k++)
			if (strcmp(c->name, mlx5_enum[k].name) == 0) {
				assert_int_equal(c->value, mlx5_enum[k].value);
				syndromes += !c->vendor;
			}
		if (!c->vendor) {
			/* As UCX prints it; the syndrome gives the status. */
			snprintf(line, sizeof(line),
				 "Error on mlx5_2:1 (synd 0x%x vend 0x0 hw_synd 0/0)",
				 c->value);
			assert_int_equal(rd_explain_parse(line, wc(), t, &in), 1);
			assert_int_equal(in.syndrome, (int)c->value);
			assert_int_equal(in.vendor_err, 0);
			assert_int_equal(in.status, c->wc_status);
			assert_string_equal(in.device, "mlx5_2");
			assert_int_equal(in.port, 1);
			assert_int_equal(rd_explain_parse(c->name, wc(), t, &in), 1);
			assert_int_equal(in.syndrome, (int)c->value);
		} else {
			/* NCCL prints it in decimal, perftest in hex. */
			snprintf(line, sizeof(line), "vendor err %u", c->value);
			assert_int_equal(rd_explain_parse(line, wc(), t, &in), 1);
			assert_int_equal(in.vendor_err, (int)c->value);
			assert_int_equal(in.status, c->wc_status);
			snprintf(line, sizeof(line), "wr_id 0 syndrom 0x%x", c->value);
			rd_explain_parse(line, wc(), t, &in);
			assert_int_equal(in.vendor_err, (int)c->value);
			assert_int_equal(in.syndrome, -1);
		}
	}
	/* Every syndrome mlx5dv.h defines is in the table. */
	assert_int_equal(syndromes, 13);
}

/* Lines people pasted into public threads. */
static const struct {
	const char *line;
	int status, vendor, syndrome;
	const char *tool, *device;
	unsigned port;
} real_lines[] = {
	/* zrlio/softiwarp issue 27 */
	{ "Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0",
	  12, 0x81, -1, "perftest", "", 0 },
	/* linux-rdma/perftest issue 173 */
	{ "Completion with error at client\n  Failed status 4: wr_id 0 syndrom 0x51\nscnt=828, ccnt=700\n  Failed to complete run_iter_bw function successfully",
	  4, 0x51, -1, "perftest", "", 0 },
	/* openucx/ucx issue 5199 */
	{ "[master:19546:0:19546] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)",
	  12, 0x81, 0x15, "UCX", "mlx5_0", 1 },
	/* openucx/ucx issue 2973 */
	{ "[ast1815:6807 :0:6807] ib_mlx5_log.c:115  FATAL: Error on mlx5_3:1 QP 0xe6d7 wqe[7821]: Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND",
	  12, 0x81, 0x15, "UCX", "mlx5_3", 1 },
	/* openucx/ucx issue 6000 */
	{ "[compute001:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
	  12, 0x81, 0x15, "UCX", "mlx5_0", 1 },
	/* NVIDIA/nccl issue 1405 */
	{ "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f",
	  12, 0x81, -1, "NCCL", "", 0 },
	/* NVIDIA/nccl issue 1814 */
	{ "hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 172.36.143.59<44206> with status=5 opcode=32656 len=32659 vendor err 249 (Recv) localGid ::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221",
	  5, 0xf9, -1, "NCCL", "", 0 },
	/* NVIDIA/nccl issue 928 */
	{ "H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)",
	  4, 0x51, -1, "NCCL", "", 0 },
	/* NVIDIA/nccl issue 1698 */
	{ "mycl-g2:353236:353423 [6] transport/net_ib.cc:2244 NCCL WARN NET/IB: Got completion from peer 192.168.3.5<53908> with status=12 opcode=129 len=1048576 vendor err 129 (Recv) localGid ::ffff:192.168.6.3 remoteGids::ffff:192.168.6.5 hca mlx5_10",
	  12, 0x81, -1, "NCCL", "mlx5_10", 0 },
	/* pytorch/pytorch issue 81628 */
	{ "NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129",
	  12, 0x81, -1, "NCCL", "", 0 },
	/* This project's own bw/lat message (src/perf), explained after it. */
	{ "RDMA_Write completion error on QP 0x11 after 2048 messages: transport retry counter exceeded (status 12, vendor error 0x81): the peer did not answer",
	  12, 0x81, -1, NULL, "", 0 },
	{ "Send completion error on QP 0x2a after 3 round trips: Work Request Flushed Error (status 5, vendor error 0): an earlier error",
	  5, 0, -1, NULL, "", 0 },
	/* ruihong123/dLSM issue 7 */
	{ "number 0 got bad completion with status: 0xc, vendor syndrome: 0x81",
	  12, 0x81, -1, NULL, "", 0 },
};

static void test_real_lines(void **state)
{
	struct rd_explain_input in;

	(void)state;
	for (size_t i = 0; i < sizeof(real_lines) / sizeof(real_lines[0]); i++) {
		int r = rd_explain_parse(real_lines[i].line, wc(), mx(), &in);

		if (r != 1 || in.status != real_lines[i].status ||
		    in.vendor_err != real_lines[i].vendor ||
		    in.syndrome != real_lines[i].syndrome ||
		    strcmp(in.device, real_lines[i].device) != 0 ||
		    in.port != real_lines[i].port ||
		    (real_lines[i].tool ? !in.tool || strcmp(in.tool, real_lines[i].tool) :
					  in.tool != NULL))
			fail_msg("line %zu: got status %d vendor %d synd %d tool %s dev \"%s\":%u (%s)",
				 i, in.status, in.vendor_err, in.syndrome,
				 in.tool ? in.tool : "-", in.device, in.port,
				 in.recognised);
		assert_string_equal(in.conflict, "");
	}
}

/* Short forms people type. */
static void test_short_forms(void **state)
{
	static const struct {
		const char *text;
		int status, vendor;
	} cases[] = {
		{ "RNR retry", 13, -1 },
		{ "Receive-no-ready retry count exceeded", 13, -1 },
		{ "WR flushed", 5, -1 },
		{ "local protection error", 4, -1 },
		{ "Remote side aborted", 16, -1 },
		{ "vendor_err 0x81", 12, 0x81 },
		{ "vendor err 129", 12, 0x81 },
		{ "IBV_WC_RETRY_EXC_ERR", 12, -1 },
		{ "retry_exc_err", 12, -1 },
		{ "status 0xc", 12, -1 },
		{ "  12\n", 12, -1 },
	};
	struct rd_explain_input in;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (rd_explain_parse(cases[i].text, wc(), mx(), &in) != 1 ||
		    in.status != cases[i].status || in.vendor_err != cases[i].vendor)
			fail_msg("\"%s\": status %d vendor %d (%s)", cases[i].text,
				 in.status, in.vendor_err, in.recognised);
	}
	/* "RNR retry" is not the transport retry it contains. */
	rd_explain_parse("IBV_WC_RNR_RETRY_EXC_ERR", wc(), mx(), &in);
	assert_int_equal(in.status, 13);
}

static void test_unknown_and_garbage(void **state)
{
	struct rd_explain_input in;
	char *big;
	unsigned seed = 12345;

	(void)state;
	assert_int_equal(rd_explain_parse("hello world", wc(), mx(), &in), 0);
	assert_string_equal(in.recognised, "");
	assert_int_equal(rd_explain_parse("", wc(), mx(), &in), 0);
	assert_int_equal(rd_explain_parse(NULL, wc(), mx(), &in), 0);
	/* A number that is no status: recognised, not known. */
	assert_int_equal(rd_explain_parse("status 99", wc(), mx(), &in), 0);
	assert_int_equal(in.status, 99);
	assert_non_null(strstr(in.recognised, "99"));
	/* A vendor code no source documents: recognised, status unknown. */
	assert_int_equal(rd_explain_parse("vendor err 0x42", wc(), mx(), &in), 0);
	assert_int_equal(in.vendor_err, 0x42);
	/* Numbers too large for a byte or a status. */
	assert_int_equal(rd_explain_parse("status 99999999999 vendor err 70000", wc(), mx(), &in), 0);
	assert_int_equal(in.vendor_err, -1);
	/* Disagreeing parts are said so. */
	assert_int_equal(rd_explain_parse("IBV_WC_WR_FLUSH_ERR status 12", wc(), mx(), &in), 1);
	assert_int_equal(in.status, 5);
	assert_true(in.conflict[0] != '\0');
	/* mlx5's codes say nothing of another provider's device. */
	assert_int_equal(rd_explain_parse("vendor err 129 on rxe0:1", wc(), mx(), &in), 0);
	assert_int_equal(in.vendor_err, 0x81);
	assert_string_equal(in.device, "rxe0");
	assert_int_equal(rd_explain_parse("status 4 vendor err 81 on bnxt_re0", wc(), mx(), &in), 1);
	{
		char ids[256];

		rd_explain_cause_ids(&in, wc(), mx(), ids, sizeof(ids));
		assert_string_equal(ids, "mr_access,gpu_memory,memlock");
	}
	/* Tables missing: nothing known, no crash. */
	assert_int_equal(rd_explain_parse("status 12", NULL, NULL, &in), 0);
	/* Random bytes and an over-long input. */
	big = malloc(RD_EXPLAIN_INPUT_MAX * 3);
	assert_non_null(big);
	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(rand_r(&seed) % (RD_EXPLAIN_INPUT_MAX * 3 - 1));

		for (size_t k = 0; k < n; k++)
			big[k] = (char)(rand_r(&seed) % 255 + 1);
		big[n] = '\0';
		rd_explain_parse(big, wc(), mx(), &in);
		assert_int_equal(in.truncated, n > RD_EXPLAIN_INPUT_MAX);
	}
	memset(big, '0', RD_EXPLAIN_INPUT_MAX * 3 - 1);
	big[RD_EXPLAIN_INPUT_MAX * 3 - 1] = '\0';
	rd_explain_parse(big, wc(), mx(), &in);
	assert_true(in.truncated);
	free(big);
}

static void test_cause_ids(void **state)
{
	struct rd_explain_input in;
	char ids[512];

	(void)state;
	/* The vendor code's own cause comes first, then the status's. */
	rd_explain_parse("status 4 vendor err 81", wc(), mx(), &in);
	assert_true(rd_explain_cause_ids(&in, wc(), mx(), ids, sizeof(ids)) >= 3);
	assert_string_equal(ids, "gpu_memory,mr_access,memlock");
	rd_explain_parse("IBV_WC_SUCCESS", wc(), mx(), &in);
	assert_int_equal(rd_explain_cause_ids(&in, wc(), mx(), ids, sizeof(ids)), 0);
	/* Every cause has a title and a next step. */
	for (size_t i = 0; i < rd_n_explain_causes; i++) {
		assert_true(rd_explain_causes[i].title[0] != '\0');
		assert_true(rd_explain_causes[i].next_step[0] != '\0');
	}
}

/* Two snapshots 2 s apart: mlx5_0/1 on eth0, counters from the caller. */
struct host {
	struct rd_snapshot s[2];
	struct rd_history h;
};

static void host_build(struct host *x, const char *group, const char *name,
		       uint64_t before, uint64_t after)
{
	rd_history_init(&x->h);
	for (int i = 0; i < 2; i++) {
		struct rd_snapshot *s = &x->s[i];
		struct rd_device *d;
		struct rd_port *p;
		struct rd_netdev *n;

		rd_snapshot_init(s);
		s->monotonic_ns = rd_u64((uint64_t)(i + 1) * 2000000000u);
		d = snap_dev(s, "mlx5_0", "0000:03:00.0");
		p = snap_port(d, 1, 4, 5, "Ethernet", "eth0");
		n = snap_netdev(s, "eth0", true, true, 9000);
		/* Quiet counters of every kind the causes look at. */
		assert_non_null(rd_counters_add(&p->hw_counters, "out_of_sequence", rd_u64(7)));
		assert_non_null(rd_counters_add(&p->hw_counters, "local_ack_timeout_err", rd_u64(3)));
		assert_non_null(rd_counters_add(&p->hw_counters, "rnr_nak_retry_err", rd_u64(0)));
		assert_non_null(rd_counters_add(&p->counters, "link_downed", rd_u64(1)));
		assert_non_null(rd_counters_add(&n->ethtool.stats, "rx_prio3_pause", rd_u64(10)));
		if (group) {
			struct rd_counters *c =
				strcmp(group, "ethtool") == 0 ? &n->ethtool.stats :
				strcmp(group, "counters") == 0 ? &p->counters :
								 &p->hw_counters;
			struct rd_counter *k = (struct rd_counter *)rd_counters_find(c, name);

			if (k)
				k->value = rd_u64(i ? after : before);
			else
				assert_non_null(rd_counters_add(c, name, rd_u64(i ? after : before)));
		}
		assert_int_equal(rd_history_add(&x->h, s), 0);
	}
}

static void host_free(struct host *x)
{
	rd_snapshot_free(&x->s[0]);
	rd_snapshot_free(&x->s[1]);
	rd_history_free(&x->h);
}

static const struct rd_explain_ranked *rank_first(const char *text,
						  struct host *x,
						  const struct rd_results *res,
						  struct rd_explain_ranking *rk)
{
	struct rd_explain_input in;
	struct rd_explain_evidence ev = { .s = &x->s[1], .h = &x->h,
					  .window = 3.0, .results = res };
	char ids[512];

	assert_int_equal(rd_explain_parse(text, wc(), mx(), &in), 1);
	assert_true(rd_explain_cause_ids(&in, wc(), mx(), ids, sizeof(ids)) > 0);
	assert_int_equal(rd_explain_rank(ids, &ev, rk), 0);
	assert_true(rk->n > 0);
	return &rk->v[0];
}

static void test_rank_by_rising_counter(void **state)
{
	static const struct {
		const char *text, *group, *counter, *first;
	} cases[] = {
		{ "Failed status 12: wr_id 0 syndrom 0x81", "hw_counters",
		  "local_ack_timeout_err", "peer_unreachable" },
		{ "IBV_WC_RETRY_EXC_ERR", "hw_counters", "out_of_sequence",
		  "packet_loss" },
		{ "transport retry counter exceeded", "counters", "link_downed",
		  "link_errors" },
		{ "status 12", "ethtool", "rx_prio3_pause", "pause_storm" },
		{ "IBV_WC_RNR_RETRY_EXC_ERR", "hw_counters", "rnr_nak_retry_err",
		  "rnr" },
		{ "vendor err 249", "hw_counters", "req_cqe_flush_error",
		  "qp_error_before" },
		{ "status 10", "hw_counters", "resp_remote_access_errors",
		  "mr_access" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct host x;
		struct rd_explain_ranking rk;
		const struct rd_explain_ranked *r;

		host_build(&x, cases[i].group, cases[i].counter, 100, 160);
		r = rank_first(cases[i].text, &x, NULL, &rk);
		if (strcmp(r->cause->id, cases[i].first) != 0)
			fail_msg("%s with %s rising: first %s, expected %s",
				 cases[i].text, cases[i].counter, r->cause->id,
				 cases[i].first);
		assert_int_equal(r->n_evidence, 1);
		assert_non_null(strstr(r->evidence[0], cases[i].counter));
		assert_non_null(strstr(r->evidence[0], "rose by 60 in 2.0 s"));
		/* Causes without evidence say what was looked at, if anything. */
		for (size_t k = 1; k < rk.n; k++)
			assert_int_equal(rk.v[k].score, 0);
		rd_explain_ranking_free(&rk);
		host_free(&x);
	}
}

static void test_rank_quiet_host(void **state)
{
	struct host x;
	struct rd_explain_ranking rk;
	const struct rd_explain_ranked *r;

	(void)state;
	/* Nothing rising: the table's order, each saying what stayed quiet. */
	host_build(&x, NULL, NULL, 0, 0);
	r = rank_first("status 12", &x, NULL, &rk);
	assert_string_equal(r->cause->id, "peer_unreachable");
	assert_int_equal(r->score, 0);
	assert_int_equal(r->n_evidence, 0);
	assert_non_null(r->looked);
	assert_non_null(strstr(r->looked, "did not rise in 3.0 s"));
	rd_explain_ranking_free(&rk);

	/* One snapshot: non-zero totals are weak evidence, said as totals. */
	{
		struct rd_explain_input in;
		struct rd_explain_evidence ev = { .s = &x.s[1] };
		char ids[512];

		rd_explain_parse("status 12", wc(), mx(), &in);
		rd_explain_cause_ids(&in, wc(), mx(), ids, sizeof(ids));
		assert_int_equal(rd_explain_rank(ids, &ev, &rk), 0);
		assert_string_equal(rk.v[0].cause->id, "peer_unreachable");
		assert_int_equal(rk.v[0].score, 1);
		assert_non_null(strstr(rk.v[0].evidence[0], "local_ack_timeout_err is 3"));
		rd_explain_ranking_free(&rk);
	}
	/* A filter to another device sees nothing of mlx5_0. */
	{
		struct rd_explain_evidence ev = { .s = &x.s[1], .h = &x.h,
						  .window = 3, .device = "mlx5_9" };

		assert_int_equal(rd_explain_rank("packet_loss", &ev, &rk), 0);
		assert_int_equal(rk.n, 1);
		assert_int_equal(rk.v[0].n_evidence, 0);
		assert_null(rk.v[0].looked);
		rd_explain_ranking_free(&rk);
	}
	host_free(&x);
}

static void test_rank_by_check(void **state)
{
	struct host x;
	struct rd_explain_ranking rk;
	struct rd_result rv[2] = {
		{ .check_id = "qos.pfc", .device = "mlx5_0", .port = 1,
		  .verdict = RD_FAIL, .summary = "PFC off on priority 3" },
		{ .check_id = "port.mtu", .device = "mlx5_0", .port = 1,
		  .verdict = RD_PASS, .summary = "4096" },
	};
	struct rd_results res = { .v = rv, .n = 2 };
	const struct rd_explain_ranked *r;

	(void)state;
	host_build(&x, NULL, NULL, 0, 0);
	r = rank_first("status 12", &x, &res, &rk);
	assert_string_equal(r->cause->id, "packet_loss");
	assert_int_equal(r->score, 4);
	assert_string_equal(r->evidence[0], "check qos.pfc FAIL: PFC off on priority 3");
	/* PFC being off is no sign of a pause storm: the rest keep their order. */
	assert_string_equal(rk.v[1].cause->id, "peer_unreachable");
	for (size_t k = 1; k < rk.n; k++)
		assert_int_equal(rk.v[k].score, 0);
	/* The mtu cause says its check passed. */
	for (size_t k = 0; k < rk.n; k++)
		if (strcmp(rk.v[k].cause->id, "mtu") == 0)
			assert_non_null(strstr(rk.v[k].looked, "passed: port.mtu"));
	rd_explain_ranking_free(&rk);

	/* A WARN is weak evidence: after the FAIL, before no evidence. */
	rv[1].verdict = RD_WARN;
	r = rank_first("status 12", &x, &res, &rk);
	assert_string_equal(r->cause->id, "packet_loss");
	assert_string_equal(rk.v[1].cause->id, "mtu");
	assert_int_equal(rk.v[1].score, 1);
	assert_string_equal(rk.v[1].evidence[0], "check port.mtu WARN: 4096");
	rd_explain_ranking_free(&rk);
	host_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wc_status_table),
		cmocka_unit_test(test_mlx5_table),
		cmocka_unit_test(test_real_lines),
		cmocka_unit_test(test_short_forms),
		cmocka_unit_test(test_unknown_and_garbage),
		cmocka_unit_test(test_cause_ids),
		cmocka_unit_test(test_rank_by_rising_counter),
		cmocka_unit_test(test_rank_quiet_host),
		cmocka_unit_test(test_rank_by_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
