// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cable and PHY checks (src/diag/check_phy.c) and the port-down tree that
 * asks them first. Modules come from the public dumps and synthetic pages
 * of tests/fixtures/modules (decoded as the probe decodes them), or are
 * written field by field.
 */
#include "config.h"

#include "diag_snap.h"

#include "core/history.h"
#include "core/json.h"
#include "core/xcvr_decode.h"

/* mlx5_0/1 on eth2, a ConnectX port; up or down as asked. */
static struct rd_netdev *host(struct rd_snapshot *s, bool up)
{
	struct rd_device *d;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = snap_dev(s, "mlx5_0", "0000:3b:00.0");
	d->driver = rd_strdup("mlx5_core");
	snap_port(d, 1, up ? 4 : 1, up ? 5 : 3, "Ethernet", "eth2");
	n = snap_netdev(s, "eth2", true, up, 9000);
	n->rdma_device = rd_strdup("mlx5_0");
	n->rdma_port = rd_u64(1);
	n->driver = rd_strdup("mlx5_core");
	n->ethtool.autoneg = rd_bool(true);
	n->ethtool.modes_advertised = rd_strdup("25000baseSR/Full Autoneg");
	n->ethtool.modes_partner = rd_strdup(up ? "25000baseSR/Full" : "");
	if (up) {
		n->ethtool.speed_mbps = rd_u64(25000);
		n->ethtool.lanes = rd_u64(1);
		n->ethtool.fec_active = rd_strdup("RS");
	}
	n->ethtool.fec_configured = rd_strdup("Auto");
	return n;
}

/* The module of a fixture dump, as the probe leaves it. */
static void module_from(struct rd_netdev *n, const char *file)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	snprintf(path, sizeof(path), "%s/modules/%s", RD_FIXTURES, file);
	assert_int_equal(rd_read_file(path, 1 << 16, &buf, &len), 0);
	assert_int_equal(rd_xcvr_mem_from_dump((const uint8_t *)buf, len, m), 0);
	assert_int_equal(rd_xcvr_decode(m, &n->xcvr), 0);
	assert_int_equal(rd_xcvr_pages_save(m, &n->xcvr), 0);
	n->xcvr.present = rd_bool(true);
	free(buf);
	free(m);
}

static const struct rd_result *run(const struct rd_snapshot *s,
				   struct rd_results *res, const char *check)
{
	rd_results_free(res);
	run_only(s, NULL, check, res);
	return find_result(res, check, "mlx5_0", 1);
}

static bool has_evidence(const struct rd_result *r, const char *what,
			 const char *source_part)
{
	for (size_t i = 0; i < r->n_evidence; i++)
		if (strstr(r->evidence[i].what, what) &&
		    (!source_part || (r->evidence[i].source &&
				      strstr(r->evidence[i].source, source_part))))
			return true;
	return false;
}

/* A dark fibre (a real SFP-10G-SR with RX_LOS set) on a port that is down. */
static void test_no_light(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, false);
	module_from(n, "real-sfp-10g-sr-oem-no-light.bin");
	free(n->ethtool.modes_advertised);
	n->ethtool.modes_advertised = rd_strdup("10000baseSR/Full 25000baseSR/Full");
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_light");
	/* The lane, the value and the byte it came from. */
	assert_true(has_evidence(r, "Rx power lane 1", "A2h"));
	r = run(&s, &res, "port.state");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_light");
	assert_non_null(strstr(r->summary, "mlx5_0/1 DOWN: no light from the far end"));
	assert_non_null(strstr(r->next_step, "far end"));
	assert_true(has_evidence(r, "Rx power lane 1", "A2h"));
	/* A dark fibre is no claim about autonegotiation. */
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "no_light");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * An SFP whose diagnostics page reads back as zeros (a driver that hides a
 * failed read of A2h, as mlx4 does on ConnectX-2): supply 0 V, every limit
 * 0. No light and no Tx at 0 mW would be a claim about the fibre; the
 * values are not the module's, so the optics are not judged.
 */
static void test_zero_diagnostics(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m));
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	static const uint8_t zero[128];

	(void)state;
	assert_non_null(m);
	n = host(&s, true);
	snprintf(path, sizeof(path), "%s/modules/%s", RD_FIXTURES,
		 "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex");
	assert_int_equal(rd_read_file(path, 1 << 16, &buf, &len), 0);
	assert_int_equal(rd_xcvr_mem_from_dump((const uint8_t *)buf, len, m), 0);
	assert_int_equal(rd_xcvr_mem_put(m, 0x51, 0, 0, 0, zero), 0);
	assert_int_equal(rd_xcvr_decode(m, &n->xcvr), 0);
	n->xcvr.present = rd_bool(true);
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "diagnostics_invalid");
	rd_results_free(&res);

	/* Supply 0 V alone is enough: a module that answers is powered. */
	n->xcvr.temperature_limits.high_alarm = rd_dbl(78);
	n->xcvr.vcc_limits.high_alarm = rd_dbl(3.6);
	r = run(&s, &res, "phy.optics");
	assert_string_equal(r->cause, "diagnostics_invalid");
	rd_results_free(&res);

	/* The real page again: judged as before. */
	rd_snapshot_free(&s);
	n = host(&s, true);
	module_from(n, "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex");
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_PASS);
	rd_results_free(&res);
	rd_snapshot_free(&s);
	free(buf);
	free(m);
}

static void same_limits(const struct rd_xcvr_limits *a,
			const struct rd_xcvr_limits *b)
{
	const struct rd_odbl *x[] = { &a->high_alarm, &a->low_alarm,
				      &a->high_warn, &a->low_warn };
	const struct rd_odbl *y[] = { &b->high_alarm, &b->low_alarm,
				      &b->high_warn, &b->low_warn };

	for (size_t i = 0; i < 4; i++) {
		assert_true(x[i]->ok && y[i]->ok);
		assert_float_equal(x[i]->v, y[i]->v, 1e-4);
	}
}

/*
 * The real-cx3pro-sfp-no-light fixture is transcribed from the decoded
 * `ethtool -m eth2` text of its source; the same message prints the
 * module's A2h page as hex (tests/fixtures/modules/real-sfp-a2h-cx3pro-
 * no-light.hex, read a moment apart). Decoded here, the page must give
 * the module's limits and flags the fixture holds, and no light.
 */
static void test_cx3pro_fixture_matches_its_page(void **state)
{
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m)), *a2 = calloc(1, sizeof(*a2));
	char path[PATH_MAX], err[256], *buf = NULL;
	struct rd_snapshot fx, s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	const struct rd_xcvr *want;
	const uint8_t *h;
	uint8_t a0[128] = { 0 };
	struct rd_netdev *n;
	size_t len = 0;

	(void)state;
	assert_non_null(m);
	assert_non_null(a2);
	snprintf(path, sizeof(path), "%s/modules/%s", RD_FIXTURES,
		 "real-sfp-a2h-cx3pro-no-light.hex");
	assert_int_equal(rd_read_file(path, 1 << 16, &buf, &len), 0);
	assert_int_equal(rd_xcvr_mem_from_dump((const uint8_t *)buf, len, a2), 0);
	/*
	 * The dump starts at offset 256 of an SFP's linear layout (A2h);
	 * without A0h the reader cannot tell the layout and files it as the
	 * paged one's page 01h. Put it where it belongs, beside the A0h
	 * bytes the source states: identifier 0x03, byte 92 0x68, and byte
	 * 93 bit 7 ("Alarm/warning flags implemented: Yes").
	 */
	h = rd_xcvr_mem_get(a2, 0x50, 0, 1, 128);
	assert_non_null(h);
	a0[0] = 0x03;
	a0[92] = 0x68;
	a0[93] = 0x80;
	assert_int_equal(rd_xcvr_mem_put(m, 0x50, 0, 0, 0, a0), 0);
	assert_int_equal(rd_xcvr_mem_put(m, 0x51, 0, 0, 0, h), 0);

	snprintf(path, sizeof(path), "%s/%s", RD_FIXTURES,
		 "real-cx3pro-sfp-no-light/snapshot.json");
	assert_int_equal(rd_snapshot_load_file(path, &fx, err, sizeof(err)), 0);
	want = &fx.netdevs[0].xcvr;

	n = host(&s, false);
	assert_int_equal(rd_xcvr_decode(m, &n->xcvr), 0);
	n->xcvr.present = rd_bool(true);
	same_limits(&n->xcvr.temperature_limits, &want->temperature_limits);
	same_limits(&n->xcvr.vcc_limits, &want->vcc_limits);
	same_limits(&n->xcvr.tx_bias_limits, &want->tx_bias_limits);
	same_limits(&n->xcvr.tx_power_limits, &want->tx_power_limits);
	same_limits(&n->xcvr.rx_power_limits, &want->rx_power_limits);
	assert_int_equal(n->xcvr.n_lanes, 1);
	assert_int_equal(want->n_lanes, 1);
	assert_true(n->xcvr.lanes[0].rx_power_flags.ok);
	assert_int_equal(n->xcvr.lanes[0].rx_power_flags.v,
			 want->lanes[0].rx_power_flags.v);
	assert_float_equal(n->xcvr.lanes[0].rx_power_mw.v,
			   want->lanes[0].rx_power_mw.v, 1e-9);
	assert_false(n->xcvr.ext_calibrated.v);
	assert_false(n->xcvr.rx_power_is_oma.v);
	/*
	 * Byte 110 bit 1 (Rx LOS) is set on the page, but counts only where
	 * A0h byte 65 says RX_LOS is implemented; the source cut those lines.
	 */
	assert_false(n->xcvr.lanes[0].rx_los.ok);
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_light");
	rd_results_free(&res);
	rd_snapshot_free(&s);
	rd_snapshot_free(&fx);
	free(buf);
	free(a2);
	free(m);
}

/* The same dark module on a port that is up would be odd; no tree there. */
static void test_module_kinds(void **state)
{
	static const struct {
		const char *file;
		const char *check;
		enum rd_verdict v;
		const char *cause;
		const char *text;
	} rows[] = {
		{ "synthetic-cmis-lowpwr.hex", "phy.module", RD_FAIL,
		  "module_low_power", "power-mode-policy high" },
		{ "synthetic-cmis-fault.hex", "phy.module", RD_FAIL,
		  "module_fault", "ModuleFault" },
		{ "real-qsfp-dac-molex-1110401054.hex", "phy.optics", RD_UNKNOWN,
		  "no_diagnostics", "passive copper" },
		{ "real-qsfp-dac-molex-1110401054.hex", "phy.module", RD_PASS,
		  "ok", "Molex" },
		{ "synthetic-qsfp28-sr4.hex", "phy.optics", RD_FAIL,
		  "rx_lane_dark", "lane 2,4" },
		{ "real-cmis-aoc-hisense-def8504.hex", "phy.module", RD_PASS,
		  "ok", "Hisense" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		const struct rd_result *r;
		struct rd_netdev *n = host(&s, true);

		/* A speed every one of these modules carries. */
		n->ethtool.speed_mbps = rd_u64(10000);
		module_from(n, rows[i].file);
		r = run(&s, &res, rows[i].check);
		if (r->verdict != rows[i].v || strcmp(r->cause, rows[i].cause) ||
		    (!strstr(r->summary, rows[i].text) &&
		     !(r->next_step && strstr(r->next_step, rows[i].text))))
			fail_msg("%s %s: got %s %s \"%s\" / \"%s\"", rows[i].file,
				 rows[i].check, rd_verdict_name(r->verdict),
				 r->cause, r->summary,
				 r->next_step ? r->next_step : "");
		rd_results_free(&res);
		rd_snapshot_free(&s);
	}
}

/* A 10G SFP+ optic in a port running 25G cannot carry it. */
static void test_module_too_slow(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, true);
	module_from(n, "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex");
	assert_true(n->xcvr.nominal_mbps.ok);
	r = run(&s, &res, "phy.module");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "module_too_slow");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* Not read: never a PASS or a FAIL, and the reason says what is missing. */
static void test_not_read(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, false);
	n->xcvr.error = rd_strdup("module data needs root (CAP_NET_ADMIN)");
	n->xcvr.error_errno = rd_u64(EPERM);
	r = run(&s, &res, "phy.module");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(strstr(r->summary, "needs root"));
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	/* The partner sends nothing, but whether light arrives is not known. */
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	/* The port is judged DOWN all the same, from the driver's words. */
	r = run(&s, &res, "port.state");
	assert_int_equal(r->verdict, RD_FAIL);

	/* An EEPROM that does not answer, on a port that is down. */
	free(n->xcvr.error);
	n->xcvr.error = rd_strdup("module memory did not answer");
	n->xcvr.error_errno = rd_u64(EIO);
	r = run(&s, &res, "phy.module");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "module_unreadable");
	r = run(&s, &res, "port.state");
	assert_string_equal(r->cause, "module_unreadable");

	/* No netdev data at all. */
	rd_model_free_array(rd_netdev_fields, (void **)&s.netdevs, &s.n_netdevs,
			    sizeof(*s.netdevs));
	r = run(&s, &res, "phy.fec");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_string_equal(r->cause, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* An empty cage read as empty is a FAIL of phy.module alone. */
static void test_empty_cage(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, false);
	n->xcvr.present = rd_bool(false);
	r = run(&s, &res, "phy.module");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_module");
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	r = run(&s, &res, "port.state");
	assert_string_equal(r->cause, "no_module");
	/* When only the driver's "no cable" says so, its table speaks. */
	n->ethtool.ext_state_num = rd_u64(4);
	r = run(&s, &res, "port.state");
	assert_string_equal(r->cause, "no_carrier");
	assert_non_null(strstr(r->summary, "no cable"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_fec(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_history h;
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	/* The driver's reason: FEC mismatch during override. */
	n = host(&s, false);
	n->ethtool.ext_state_num = rd_u64(0);
	n->ethtool.ext_substate_num = rd_u64(5);
	r = run(&s, &res, "phy.fec");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "fec_mismatch");
	assert_non_null(strstr(r->next_step, "ethtool --set-fec eth2 encoding rs"));
	r = run(&s, &res, "port.state");
	assert_string_equal(r->cause, "fec_mismatch");
	rd_snapshot_free(&s);

	/* 100G on four 25G lanes without RS-FEC. */
	n = host(&s, true);
	n->ethtool.speed_mbps = rd_u64(100000);
	n->ethtool.lanes = rd_u64(4);
	free(n->ethtool.fec_active);
	n->ethtool.fec_active = rd_strdup("BASER");
	r = run(&s, &res, "phy.fec");
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "fec_weak");

	/* A window, but no FEC counters: the mode only, nothing claimed
	 * of blocks that were never counted. */
	free(n->ethtool.fec_active);
	n->ethtool.fec_active = rd_strdup("RS");
	rd_history_init(&h);
	s.monotonic_ns = rd_u64(1000000000ull);
	assert_int_equal(rd_history_add(&h, &s), 0);
	rd_results_free(&res);
	run_only(&s, &h, "phy.fec", &res);
	r = find_result(&res, "phy.fec", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_PASS);
	assert_null(strstr(r->summary, "no uncorrectable blocks rising"));
	assert_non_null(strstr(r->summary, "uncorrectable blocks not known"));
	rd_history_free(&h);

	/* Uncorrectable blocks rising over the window. */
	rd_history_init(&h);
	assert_non_null(rd_counters_add(&n->ethtool.fec_stats,
					"uncorrectable_blocks", rd_u64(10)));
	s.monotonic_ns = rd_u64(1000000000ull);
	assert_int_equal(rd_history_add(&h, &s), 0);
	n->ethtool.fec_stats.v[0].value = rd_u64(40);
	s.monotonic_ns = rd_u64(3000000000ull);
	assert_int_equal(rd_history_add(&h, &s), 0);
	rd_results_free(&res);
	run_only(&s, &h, "phy.fec", &res);
	r = find_result(&res, "phy.fec", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "fec_uncorrectable");
	/* counters.errors sees the same rising counter of group "fec". */
	rd_results_free(&res);
	run_only(&s, &h, "counters.errors", &res);
	r = find_result(&res, "counters.errors", "mlx5_0", 1);
	assert_int_equal(r->verdict, RD_FAIL);
	assert_non_null(strstr(r->summary, "uncorrectable_blocks"));
	rd_history_free(&h);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * The module's temperature read but none of its lane monitors (a page
 * that failed): its light is not known, neither "within limits" nor a
 * reason to blame the switch for a missing negotiation.
 */
static void test_lanes_unread(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, false);
	module_from(n, "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex");
	assert_true(n->xcvr.temperature_c.ok && n->xcvr.dom.v);
	for (size_t i = 0; i < n->xcvr.n_lanes; i++)
		free(n->xcvr.lanes[i].datapath_state);
	free(n->xcvr.lanes);
	n->xcvr.lanes = NULL;
	n->xcvr.n_lanes = 0;
	r = run(&s, &res, "phy.optics");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(strstr(r->summary, "lane monitors"));
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(
		strstr(r->summary, "lane monitors, which were not read"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_linkmodes(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netdev *n;

	(void)state;
	n = host(&s, true);
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "25000baseSR/Full"));
	/* Nothing in common with what the partner advertises. */
	free(n->ethtool.modes_partner);
	n->ethtool.modes_partner = rd_strdup("100000baseSR4/Full");
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "no_common_mode");
	rd_snapshot_free(&s);

	/* Down, light arriving, and the partner sends no autonegotiation. */
	n = host(&s, false);
	module_from(n, "real-qsfp-dac-molex-1110401054.hex");
	r = run(&s, &res, "phy.linkmodes");
	assert_int_equal(r->verdict, RD_FAIL);
	assert_string_equal(r->cause, "partner_no_autoneg");
	assert_non_null(strstr(r->next_step, "ethtool -s eth2 autoneg off"));
	r = run(&s, &res, "port.state");
	assert_string_equal(r->cause, "partner_no_autoneg");
	/* A driver that never reports the partner is not judged so. */
	free(n->driver);
	n->driver = rd_strdup("ice");
	r = run(&s, &res, "phy.linkmodes");
	assert_int_not_equal(r->verdict, RD_FAIL);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A snapshot's module survives JSON and decodes again to the same values. */
static void test_json_round_trip(void **state)
{
	struct rd_snapshot s, back;
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m));
	struct rd_xcvr again = { 0 };
	struct json_object *j;
	char err[256];

	(void)state;
	assert_non_null(m);
	module_from(host(&s, true), "synthetic-qsfp28-sr4.hex");
	j = rd_snapshot_to_json(&s);
	assert_non_null(j);
	assert_int_equal(rd_snapshot_from_json(j, &back, err, sizeof(err)), 0);
	json_object_put(j);
	assert_int_equal(back.netdevs[0].xcvr.n_lanes, 4);
	assert_int_equal(rd_xcvr_pages_load(&back.netdevs[0].xcvr, m), 0);
	assert_int_equal(rd_xcvr_decode(m, &again), 0);
	assert_true(again.temperature_c.ok);
	assert_true(again.temperature_c.v == back.netdevs[0].xcvr.temperature_c.v);
	rd_model_free(rd_xcvr_fields, &again);
	free(m);
	rd_snapshot_free(&back);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_light),
		cmocka_unit_test(test_zero_diagnostics),
		cmocka_unit_test(test_cx3pro_fixture_matches_its_page),
		cmocka_unit_test(test_module_kinds),
		cmocka_unit_test(test_module_too_slow),
		cmocka_unit_test(test_not_read),
		cmocka_unit_test(test_empty_cage),
		cmocka_unit_test(test_fec),
		cmocka_unit_test(test_lanes_unread),
		cmocka_unit_test(test_linkmodes),
		cmocka_unit_test(test_json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
