// SPDX-License-Identifier: GPL-2.0-or-later
/* The data/ tables: the real files and bad input. */
#include "config.h"

#include "unit.h"

#include <linux/ethtool.h>
#include <pthread.h>
#include <stdio.h>

#include "diag/data.h"
#include "diag/diag_int.h"

#define CH "name\tsource\tunit\tmeaning\tbad_when_rising\twarn_rate\tfail_rate\thint\n"
#define FH "pci_id\tfamily\tmin_fw\twhy\n"

static void test_real_files(void **state)
{
	const struct rd_counter_table *c;
	const struct rd_fw_table *f;
	const struct rd_counter_info *ci;
	const struct rd_fw_min *m;

	(void)state;
	c = rd_data_counters();
	if (!c)
		fail_msg("%s", rd_data_error());
	f = rd_data_firmware();
	if (!f)
		fail_msg("%s", rd_data_error());
	/* Every counter CHECKS.md D names is described. */
	static const struct {
		enum rd_counter_group src;
		const char *name;
		bool bad;
	} want[] = {
		{ RD_CTR_PORT, "link_downed", true },
		{ RD_CTR_PORT, "symbol_error", true },
		{ RD_CTR_PORT, "port_rcv_errors", true },
		{ RD_CTR_PORT, "port_xmit_discards", true },
		{ RD_CTR_PORT, "port_xmit_wait", false },
		{ RD_CTR_HW, "out_of_buffer", true },
		{ RD_CTR_HW, "out_of_sequence", true },
		{ RD_CTR_HW, "packet_seq_err", true },
		{ RD_CTR_HW, "implied_nak_seq_err", true },
		{ RD_CTR_HW, "local_ack_timeout_err", true },
		{ RD_CTR_HW, "rnr_nak_retry_err", true },
		{ RD_CTR_HW, "duplicate_request", true },
		{ RD_CTR_HW, "np_cnp_sent", false },
		{ RD_CTR_HW, "rp_cnp_handled", false },
		{ RD_CTR_ETHTOOL, "rx_discards_phy", true },
		{ RD_CTR_ETHTOOL, "rx_out_of_buffer", true },
		{ RD_CTR_ETHTOOL, "rx_prio3_pause", false },
		{ RD_CTR_ETHTOOL, "tx_prio7_pause", false },
		{ RD_CTR_ETHTOOL, "tx_pause_storm_error_events", true },
		{ RD_CTR_ETHTOOL, "link_down_events_phy", true },
		{ RD_CTR_ETHTOOL, "rx_crc_errors_phy", true },
		{ RD_CTR_ETHTOOL, "rx_symbol_err_phy", true },
		{ RD_CTR_ETHTOOL, "rx_vport_rdma_unicast_bytes", false },
		{ RD_CTR_HW, "sent_pkts", false },
		{ RD_CTR_HW, "rcvd_pkts", false },
		{ RD_CTR_HW, "retry_exceeded_err", true },
		{ RD_CTR_HW, "completer_retry_err", true },
		{ RD_CTR_HW, "rcvd_seq_err", true },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ci = rd_counter_info_find(c, want[i].src, want[i].name);
		if (!ci)
			fail_msg("%s/%s missing", rd_counter_group_name(want[i].src),
				 want[i].name);
		assert_int_equal(ci->bad_when_rising, want[i].bad);
	}
	assert_null(rd_counter_info_find(c, RD_CTR_ETHTOOL, "rx_prio8_pause"));
	/* A group's name finds the group; others find none. */
	for (int g = 0; g < RD_CTR_GROUPS; g++)
		assert_int_equal(rd_counter_group_find(
					 rd_counter_group_name((enum rd_counter_group)g)),
				 g);
	assert_int_equal(rd_counter_group_find("Counters"), -1);
	assert_int_equal(rd_counter_group_find(NULL), -1);
	/* Every ConnectX id the brief lists has a minimum. */
	static const uint64_t ids[] = { 0x1013, 0x1015, 0x1017, 0x1019,
					0x101b, 0x101d, 0x101f, 0x1021 };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		assert_non_null(rd_fw_min_find(f, 0x15b3, ids[i]));
	m = rd_fw_min_find(f, 0x15b3, 0x1017);
	assert_int_equal(strncmp(m->min_fw, "16.23.", 6), 0);
	assert_null(rd_fw_min_find(f, 0x8086, 0x1017));
}

/*
 * Every link-down reason the kernel UAPI defines has its row, named after
 * its enumerator: the values come from <linux/ethtool.h>, not from us.
 */
#define LX(state, sub, name) { (state), (sub), #name }
static const struct {
	unsigned state, sub;
	const char *name;
} uapi_link_ext[] = {
#define S(x) LX(ETHTOOL_LINK_EXT_STATE_##x, 0, ETHTOOL_LINK_EXT_STATE_##x)
	S(AUTONEG), S(LINK_TRAINING_FAILURE), S(LINK_LOGICAL_MISMATCH),
	S(BAD_SIGNAL_INTEGRITY), S(NO_CABLE), S(CABLE_ISSUE), S(EEPROM_ISSUE),
	S(CALIBRATION_FAILURE), S(POWER_BUDGET_EXCEEDED), S(OVERHEAT),
	S(MODULE),
#undef S
	/* Added to the UAPI in 2026: older installed headers lack them. */
	LX(11, 0, ETHTOOL_LINK_EXT_STATE_OTP_SPEED_VIOLATION),
	LX(12, 0, ETHTOOL_LINK_EXT_STATE_BMC_REQUEST_DOWN),
#define U(st, x) LX(ETHTOOL_LINK_EXT_STATE_##st, \
		    ETHTOOL_LINK_EXT_SUBSTATE_##x, ETHTOOL_LINK_EXT_SUBSTATE_##x)
	U(AUTONEG, AN_NO_PARTNER_DETECTED), U(AUTONEG, AN_ACK_NOT_RECEIVED),
	U(AUTONEG, AN_NEXT_PAGE_EXCHANGE_FAILED),
	U(AUTONEG, AN_NO_PARTNER_DETECTED_FORCE_MODE),
	U(AUTONEG, AN_FEC_MISMATCH_DURING_OVERRIDE), U(AUTONEG, AN_NO_HCD),
	U(LINK_TRAINING_FAILURE, LT_KR_FRAME_LOCK_NOT_ACQUIRED),
	U(LINK_TRAINING_FAILURE, LT_KR_LINK_INHIBIT_TIMEOUT),
	U(LINK_TRAINING_FAILURE, LT_KR_LINK_PARTNER_DID_NOT_SET_RECEIVER_READY),
	U(LINK_TRAINING_FAILURE, LT_REMOTE_FAULT),
	U(LINK_LOGICAL_MISMATCH, LLM_PCS_DID_NOT_ACQUIRE_BLOCK_LOCK),
	U(LINK_LOGICAL_MISMATCH, LLM_PCS_DID_NOT_ACQUIRE_AM_LOCK),
	U(LINK_LOGICAL_MISMATCH, LLM_PCS_DID_NOT_GET_ALIGN_STATUS),
	U(LINK_LOGICAL_MISMATCH, LLM_FC_FEC_IS_NOT_LOCKED),
	U(LINK_LOGICAL_MISMATCH, LLM_RS_FEC_IS_NOT_LOCKED),
	U(BAD_SIGNAL_INTEGRITY, BSI_LARGE_NUMBER_OF_PHYSICAL_ERRORS),
	U(BAD_SIGNAL_INTEGRITY, BSI_UNSUPPORTED_RATE),
	U(BAD_SIGNAL_INTEGRITY, BSI_SERDES_REFERENCE_CLOCK_LOST),
	U(BAD_SIGNAL_INTEGRITY, BSI_SERDES_ALOS),
	U(CABLE_ISSUE, CI_UNSUPPORTED_CABLE),
	U(CABLE_ISSUE, CI_CABLE_TEST_FAILURE),
	U(MODULE, MODULE_CMIS_NOT_READY),
#undef U
};

static void test_link_ext_table(void **state)
{
	const struct rd_link_ext_table *t = rd_data_link_ext();
	struct rd_link_ext_table bad;
	char err[256];

	(void)state;
	if (!t)
		fail_msg("%s", rd_data_error());
	for (size_t i = 0; i < sizeof(uapi_link_ext) / sizeof(uapi_link_ext[0]);
	     i++) {
		const struct rd_link_ext *e = rd_link_ext_find(
			t, uapi_link_ext[i].state, uapi_link_ext[i].sub);

		if (!e || e->substate != (uapi_link_ext[i].sub ?
						  (int)uapi_link_ext[i].sub : -1) ||
		    strcmp(e->uapi_name, uapi_link_ext[i].name) != 0)
			fail_msg("data/link_ext_state.tsv lacks %s (%u/%u)",
				 uapi_link_ext[i].name, uapi_link_ext[i].state,
				 uapi_link_ext[i].sub);
	}
	/* Nothing the UAPI does not define. */
	assert_int_equal(t->n, sizeof(uapi_link_ext) / sizeof(uapi_link_ext[0]));
	/* An unknown substate falls back to its state's row. */
	assert_int_equal(rd_link_ext_find(t, ETHTOOL_LINK_EXT_STATE_AUTONEG, 99)
				 ->substate,
			 -1);
	assert_null(rd_link_ext_find(t, 200, 0));
	assert_null(rd_link_ext_find(NULL, 0, 0));

	assert_int_equal(rd_link_ext_tsv_parse(
				 "x.tsv",
				 "state\tsubstate\tuapi_name\tsummary\tnext_step\n"
				 "0\t-\tA\ts\tn\n0\t-\tA\ts\tn\n",
				 &bad, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "x.tsv:3: state 0 substate - listed twice"));
	assert_int_equal(rd_link_ext_tsv_parse(
				 "x.tsv",
				 "state\tsubstate\tuapi_name\tsummary\tnext_step\n"
				 "0\t0\tA\ts\tn\n",
				 &bad, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "substate \"0\""));
	assert_int_equal(rd_link_ext_tsv_parse(
				 "x.tsv",
				 "state\tsubstate\tuapi_name\tsummary\tnext_step\n"
				 "x1\t-\tA\ts\tn\n",
				 &bad, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(rd_link_ext_tsv_parse(
				 "x.tsv",
				 "state\tsubstate\tuapi_name\tsummary\tnext_step\n"
				 "1\t2\tA\t\tn\n",
				 &bad, err, sizeof(err)),
			 -EINVAL);
}

/* One answer to "is rising bad": the table's, for screen and check. */
static void test_bad_when_rising(void **state)
{
	const struct rd_counter_table *c = rd_data_counters();

	(void)state;
	assert_non_null(c);
	assert_true(rd_counter_bad_when_rising(c, RD_CTR_PORT, "symbol_error"));
	assert_true(rd_counter_bad_when_rising(c, RD_CTR_ETHTOOL,
					       "rx_prio3_discards"));
	assert_false(rd_counter_bad_when_rising(c, RD_CTR_ETHTOOL,
						"rx_prio3_pause"));
	assert_false(rd_counter_bad_when_rising(c, RD_CTR_HW,
						"np_cnp_sent"));
	/* A name that merely looks like an error is not judged. */
	assert_false(rd_counter_bad_when_rising(c, RD_CTR_ETHTOOL,
						"rx_xsk_err_made_up"));
	assert_false(rd_counter_bad_when_rising(NULL, RD_CTR_PORT,
						"symbol_error"));
}

/* The shipped table says what a count is: the screen shows it so. */
static void test_counter_units(void **state)
{
	static const struct {
		enum rd_counter_group g;
		const char *name;
		enum rd_counter_unit want;
	} cases[] = {
		{ RD_CTR_PORT, "port_xmit_data", RD_UNIT_WORDS },
		{ RD_CTR_PORT, "port_rcv_data", RD_UNIT_WORDS },
		{ RD_CTR_ETHTOOL, "tx_bytes_phy", RD_UNIT_BYTES },
		{ RD_CTR_HW, "rdma_rx_bytes", RD_UNIT_BYTES },
		{ RD_CTR_ETHTOOL, "rx_65_to_127_bytes_phy", RD_UNIT_PACKETS },
		{ RD_CTR_PORT, "port_xmit_packets", RD_UNIT_PACKETS },
		{ RD_CTR_ETHTOOL, "rx_prio3_pause_duration", RD_UNIT_US },
		{ RD_CTR_PORT, "symbol_error", RD_UNIT_EVENTS },
		/* Not in the table: a plain count, never a guessed unit. */
		{ RD_CTR_HW, "made_up_bytes", RD_UNIT_EVENTS },
	};
	const struct rd_counter_table *c = rd_data_counters();

	(void)state;
	assert_non_null(c);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (rd_counter_unit_of(c, cases[i].g, cases[i].name) !=
		    cases[i].want)
			fail_msg("%s: unit %s, expected %s", cases[i].name,
				 rd_counter_unit_name(rd_counter_unit_of(
					 c, cases[i].g, cases[i].name)),
				 rd_counter_unit_name(cases[i].want));
	assert_int_equal(rd_counter_unit_of(NULL, RD_CTR_PORT, "port_xmit_data"),
			 RD_UNIT_EVENTS);
}

/* The remembered answers are the scan's: first row wins, per group. */
static const char lookup_text[] =
	CH "rx_prio[0-7]_pause\tethtool\tpackets\tpattern first\tno\t-\t-\t\n"
	   "rx_prio3_pause\tethtool\tpackets\tliteral after\tno\t-\t-\t\n"
	   "rx_*\tethtool\tevents\tcatch-all\tno\t-\t-\t\n"
	   "rx_prio3_pause\thw_counters\tevents\tother group\tno\t-\t-\t\n";

static const char *lookup_meaning(const struct rd_counter_table *t,
				  enum rd_counter_group g, const char *name)
{
	const struct rd_counter_info *ci = rd_counter_info_find(t, g, name);

	return ci ? ci->meaning : "(none)";
}

static void check_lookups(const struct rd_counter_table *t)
{
	assert_string_equal(lookup_meaning(t, RD_CTR_ETHTOOL, "rx_prio3_pause"),
			    "pattern first");
	assert_string_equal(lookup_meaning(t, RD_CTR_ETHTOOL, "rx_other"),
			    "catch-all");
	assert_string_equal(lookup_meaning(t, RD_CTR_HW, "rx_prio3_pause"),
			    "other group");
	assert_string_equal(lookup_meaning(t, RD_CTR_HW, "rx_other"), "(none)");
	assert_string_equal(lookup_meaning(t, RD_CTR_PORT, "rx_prio3_pause"),
			    "(none)");
}

static void test_counter_lookup(void **state)
{
	struct rd_counter_table t, bare;
	const struct rd_counter_info *a;
	char err[256], name[32];

	(void)state;
	assert_int_equal(rd_counters_tsv_parse("x.tsv", lookup_text, &t, err,
					       sizeof(err)),
			 0);
	assert_non_null(t.lookup);
	check_lookups(&t);	/* scans and remembers */
	check_lookups(&t);	/* answers from memory */
	/* The same rows without the memory: the plain scan agrees. */
	bare = t;
	bare.lookup = NULL;
	check_lookups(&bare);
	a = rd_counter_info_find(&t, RD_CTR_ETHTOOL, "rx_prio5_pause");
	assert_ptr_equal(a, rd_counter_info_find(&t, RD_CTR_ETHTOOL,
						 "rx_prio5_pause"));
	assert_ptr_equal(a, &t.v[0]);
	/* Far more names than it remembers: answers stay right. */
	for (unsigned i = 0; i < 70000; i++) {
		snprintf(name, sizeof(name), "rx_q%u", i);
		assert_ptr_equal(rd_counter_info_find(&t, RD_CTR_ETHTOOL, name),
				 &t.v[2]);
	}
	check_lookups(&t);
	assert_null(rd_counter_info_find(&t, RD_CTR_ETHTOOL, NULL));
	assert_null(rd_counter_info_find(NULL, RD_CTR_ETHTOOL, "rx_x"));
	rd_counter_table_free(&t);
	assert_null(t.lookup);
}

struct lookup_worker {
	const struct rd_counter_table *t;
	unsigned wrong;
};

static void *lookup_thread(void *arg)
{
	struct lookup_worker *w = arg;
	char name[32];

	for (unsigned i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "rx_prio%u_pause", i % 12);
		if (rd_counter_info_find(w->t, RD_CTR_ETHTOOL, name) !=
		    &w->t->v[i % 12 < 8 ? 0 : 2])
			w->wrong++;
	}
	return NULL;
}

/* Two threads (the console's loop and its worker) ask at once. */
static void test_counter_lookup_threads(void **state)
{
	struct rd_counter_table t;
	struct lookup_worker w[2] = { { &t, 0 }, { &t, 0 } };
	pthread_t th[2];
	char err[256];

	(void)state;
	assert_int_equal(rd_counters_tsv_parse("x.tsv", lookup_text, &t, err,
					       sizeof(err)),
			 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, lookup_thread,
						&w[i]),
				 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].wrong, 0);
	}
	rd_counter_table_free(&t);
}

static void test_bad_counters(void **state)
{
	static const struct {
		const char *text, *where;
	} bad[] = {
		{ CH "a\tcounters\tevents\tm\tyes\t0\n", "x.tsv:2" },
		{ CH "a\tsomewhere\tevents\tm\tyes\t0\t1\th\n", "x.tsv:2" },
		{ CH "# c\n\na\tcounters\tevents\tm\tmaybe\t0\t1\th\n", "x.tsv:4" },
		{ CH "a\tcounters\tevents\tm\tyes\tfast\t1\th\n", "x.tsv:2" },
		{ CH "a\tcounters\tevents\tm\tyes\t5\t1\th\n", "x.tsv:2" },
		{ CH "a\tcounters\tevents\tm\tyes\t-\t1\th\n", "x.tsv:2" },
		{ CH "a\tcounters\tgallons\tm\tno\t-\t-\th\n", "x.tsv:2" },
		{ CH "a\tcounters\t\tm\tno\t-\t-\th\n", "x.tsv:2" },
		{ "name\tsource\n", "x.tsv:1" },
		{ "", "no header" },
		{ CH "a\tcounters\tevents\tm\tyes\t0\t1\th\textra\n", "x.tsv:2" },
	};
	struct rd_counter_table t;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rd_counters_tsv_parse("x.tsv", bad[i].text, &t,
						       err, sizeof(err)),
				 -EINVAL);
		if (!strstr(err, bad[i].where))
			fail_msg("case %zu: \"%s\" lacks %s", i, err,
				 bad[i].where);
		assert_null(t.v);
	}
	assert_int_equal(rd_counters_tsv_parse(
				 "x.tsv", CH "a\tcounters\tevents\tm\tno\t-\t-\t\r\n", &t,
				 err, sizeof(err)),
			 0);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.v[0].hint, "");
	assert_int_equal(t.v[0].unit, RD_UNIT_EVENTS);
	rd_counter_table_free(&t);
	/* Every unit the column may name reads back as itself. */
	for (int u = 0; u < RD_UNIT_COUNT; u++) {
		char text[256];

		snprintf(text, sizeof(text), CH "a\thw_counters\t%s\tm\tno\t-\t-\th\n",
			 rd_counter_unit_name((enum rd_counter_unit)u));
		assert_int_equal(rd_counters_tsv_parse("x.tsv", text, &t, err,
						       sizeof(err)),
				 0);
		assert_int_equal(t.v[0].unit, u);
		rd_counter_table_free(&t);
	}
	assert_int_equal(rd_counter_unit_find("Bytes"), -1);
	assert_int_equal(rd_counter_unit_find(NULL), -1);
	assert_string_equal(rd_counter_unit_name(RD_UNIT_COUNT), "unknown");
}

static void test_bad_firmware(void **state)
{
	static const char *const bad[] = {
		FH "15b3-1017\tCX5\t16.23.1020\tw\n",
		FH "15b3:10170\tCX5\t16.23.1020\tw\n",
		FH "15b3:1017\tCX5\t16.23\tw\n",
		FH "15b3:1017\tCX5\t16.x.1\tw\n",
		FH "15b3:1017\tCX5\t16..1\tw\n",
		FH "zzzz:1017\tCX5\t16.23.1020\tw\n",
		/* Four characters but not four hex digits (found by
		 * tests/fuzz/fuzz_tsv): each read as another device. */
		FH " 5b3:1014\tCX4\t12.23.1020\tw\n",
		FH "0x15:1017\tCX5\t16.23.1020\tw\n",
		FH "15b3:101 \tCX5\t16.23.1020\tw\n",
		FH "15b3:+101\tCX5\t16.23.1020\tw\n",
	};
	struct rd_fw_table t;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rd_firmware_tsv_parse("f.tsv", bad[i], &t, err,
						       sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "f.tsv:2"));
	}
	assert_int_equal(rd_firmware_tsv_parse("f.tsv",
					       FH "15B3:101d\tCX6Dx\t22.28.1002\tw\n",
					       &t, err, sizeof(err)),
			 0);
	assert_non_null(rd_fw_min_find(&t, 0x15b3, 0x101d));
	rd_fw_table_free(&t);
}

/* A causes column that is not "-" or ids is refused with its text, in
 * both tables that have one; "-" is stored as no causes. */
static void test_bad_causes(void **state)
{
#define WC_HEAD "value\tname\tstr\tmeaning\tcauses\n"
#define MLX5_HEAD "kind\tvalue\tname\twc_status\tmeaning\tcauses\n"
	static const struct {
		bool mlx5;
		const char *text, *want;
	} bad[] = {
		{ false, WC_HEAD "5\tIBV_WC_X\tx\tmeaning\tMtu!\n",
		  "t.tsv:2: causes \"Mtu!\"" },
		{ false, WC_HEAD "5\tIBV_WC_X\tx\tmeaning\ta b\n",
		  "causes \"a b\"" },
		{ true, MLX5_HEAD "syndrome\t0x01\tX\t1\tmeaning\t\n",
		  "t.tsv:2: causes \"\"" },
	};
	struct rd_wc_status_table w;
	struct rd_mlx5_table m;
	char err[256];
	int r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = bad[i].mlx5 ? rd_mlx5_tsv_parse("t.tsv", bad[i].text, &m,
						    err, sizeof(err))
				: rd_wc_status_tsv_parse("t.tsv", bad[i].text,
							 &w, err, sizeof(err));
		assert_int_equal(r, -EINVAL);
		assert_non_null(strstr(err, bad[i].want));
	}
	assert_int_equal(rd_wc_status_tsv_parse(
				 "t.tsv", WC_HEAD "5\tIBV_WC_X\tx\tmeaning\t-\n",
				 &w, err, sizeof(err)),
			 0);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0].causes, "");
	rd_wc_status_table_free(&w);
#undef WC_HEAD
#undef MLX5_HEAD
}

static void test_missing_file(void **state)
{
	struct rd_counter_table t;
	char err[256];

	(void)state;
	assert_int_equal(rd_counters_tsv_load("/nonexistent/c.tsv", &t, err,
					      sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/c.tsv"));
}

static void test_helpers(void **state)
{
	uint64_t set[16];

	(void)state;
	assert_true(diag_version_cmp("16.23.1020", "16.23.1020") == 0);
	assert_true(diag_version_cmp("16.9.1", "16.23.0") < 0);
	assert_true(diag_version_cmp("16.35.2000", "16.23.1020") > 0);
	assert_true(diag_version_cmp("22.31.1014 (MT_0000000359)", "22.28.1002") > 0);
	assert_true(diag_version_cmp("", "1.0.0") < 0);
	assert_int_equal(diag_cpulist_parse("0-3,8,10-11", set), 0);
	assert_int_equal(set[0], 0xd0full);
	assert_int_equal(diag_cpulist_parse("1023", set), 0);
	assert_int_equal(set[15], 1ull << 63);
	assert_int_equal(diag_cpulist_parse("3-1", set), -EINVAL);
	assert_int_equal(diag_cpulist_parse("0-1024", set), -EINVAL);
	assert_int_equal(diag_cpulist_parse("a", set), -EINVAL);
	assert_int_equal(diag_cpulist_parse("1,", set), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_bad_when_rising),
		cmocka_unit_test(test_counter_lookup),
		cmocka_unit_test(test_counter_lookup_threads),
		cmocka_unit_test(test_link_ext_table),
		cmocka_unit_test(test_counter_units),
		cmocka_unit_test(test_bad_counters),
		cmocka_unit_test(test_bad_firmware),
		cmocka_unit_test(test_bad_causes),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
