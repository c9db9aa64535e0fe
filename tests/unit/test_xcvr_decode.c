// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module memory decoders on the dumps of tests/fixtures/modules (real
 * ones compared with what their source says they decode to; synthetic ones
 * for the cases no public dump shows) and on hand-set bytes.
 */
#include "config.h"
#include "unit.h"

#include <math.h>

#include "core/escape.h"
#include "core/xcvr_decode.h"

#define MOD "modules/"

static size_t slurp(const char *name, uint8_t **out)
{
	char path[PATH_MAX];
	FILE *f = fopen(unit_fixture(name, path, sizeof(path)), "rb");
	uint8_t *buf = malloc(1 << 16);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	*out = buf;
	return n;
}

static void load(const char *name, struct rd_xcvr_mem *m)
{
	uint8_t *buf;
	size_t n = slurp(name, &buf);

	assert_int_equal(rd_xcvr_mem_from_dump(buf, n, m), 0);
	free(buf);
}

static void decode(const char *name, struct rd_xcvr_mem *m, struct rd_xcvr *x)
{
	load(name, m);
	memset(x, 0, sizeof(*x));
	assert_int_equal(rd_xcvr_decode(m, x), 0);
}

static void done(struct rd_xcvr *x)
{
	rd_model_free(rd_xcvr_fields, x);
}

#define near(o, want, eps)                                                     \
	do {                                                                   \
		assert_true((o).ok);                                           \
		if (fabs((o).v - (want)) > (eps))                              \
			fail_msg("%s = %.6f, want %.6f", #o, (o).v,            \
				 (double)(want));                              \
	} while (0)

static uint8_t *half_rw(struct rd_xcvr_mem *m, unsigned i2c, unsigned bank,
			unsigned page, unsigned off)
{
	uint8_t *p = (uint8_t *)rd_xcvr_mem_get(m, i2c, bank, page, off);

	assert_non_null(p);
	return p;
}

/* ---- real dumps ---- */

/*
 * SFP-10G-SR whose fibre has no light. Source: danos/vyatta-dataplane
 * tests/whole_dp/src/dp_test_sfp.c (eeprom_dummy, 512 bytes as the ioctl
 * gives them), whose expected JSON is the oracle: identifier SFP, connector
 * LC, vendor "OEMOEMOEMOEMOEMO", PN "SFP-10G-SR-IT", SN "WQ160412A115",
 * OUI 00.8b.21, date "2015-16-10", temperature 44.3477 C, voltage 3.3034 V,
 * rx 0.0001 mW, tx 0.597 mW, Rx power high alarm threshold 1 mW.
 */
static void test_real_sfp_no_light(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_lane *l;
	struct rd_xcvr_req req[8];
	double dbm;

	(void)state;
	decode(MOD "real-sfp-10g-sr-oem-no-light.bin", &m, &x);
	assert_int_equal(m.n, 4);
	assert_string_equal(x.spec, "SFF-8472");
	assert_string_equal(x.type, "SFP");
	assert_int_equal(x.connector.v, 0x07);
	assert_string_equal(x.connector_name, "LC");
	assert_string_equal(x.vendor, "OEMOEMOEMOEMOEMO");
	assert_string_equal(x.part_number, "SFP-10G-SR-IT");
	assert_string_equal(x.serial, "WQ160412A115");
	assert_string_equal(x.vendor_oui, "00:8b:21");
	/* the module's date code is "151610": kept as written */
	assert_string_equal(x.date_code, "2015-16-10");
	near(x.temperature_c, 44.3477, 0.0001);
	near(x.vcc_v, 3.3034, 0.00005);
	assert_int_equal(x.n_lanes, 1);
	l = &x.lanes[0];
	near(l->rx_power_mw, 0.0001, 1e-9);
	near(l->tx_power_mw, 0.597, 1e-9);
	near(x.rx_power_limits.high_alarm, 1.0, 1e-9);
	/* checked by hand against the bytes (A2h 100, 110, 113, 117) */
	near(l->tx_bias_ma, 10.126, 1e-9);
	assert_true(l->rx_los.ok && l->rx_los.v);
	assert_true(l->tx_fault.ok && !l->tx_fault.v);
	assert_int_equal(l->rx_power_flags.v,
			 RD_XCVR_F_LOW_ALARM | RD_XCVR_F_LOW_WARN);
	assert_int_equal(l->tx_power_flags.v, 0);
	assert_true(rd_mw_to_dbm(l->rx_power_mw.v, &dbm));
	assert_true(fabs(dbm + 40.0) < 1e-9);
	assert_string_equal(x.media, "optical");
	assert_string_equal(x.media_detail, "10GBASE-SR");
	near(x.length_m, 300, 0);
	near(x.wavelength_nm, 850, 0);
	assert_int_equal(x.nominal_mbps.v, 10300);
	assert_true(x.dom.v && !x.ext_calibrated.v && !x.rx_power_is_oma.v);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 8),
			 0);
	done(&x);
}

/*
 * Finisar FTLX8571D3BCL. Source: sonic-net/sonic-utilities
 * tests/sfputil_test.py test_show_eeprom_hexdump_sff8472_page (A0h, A2h
 * lower and upper); the oracle is that test's expected hexdump text, whose
 * ASCII column reads "FINISAR CORP.", "FTLX8571D3BCL", "A", "AUJ0RCJ",
 * "151029". Monitors and thresholds checked by hand (SFF-8472 units).
 */
static void test_real_sfp_finisar(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_lane *l;

	(void)state;
	decode(MOD "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex", &m, &x);
	assert_int_equal(m.n, 4);
	assert_string_equal(x.vendor, "FINISAR CORP.");
	assert_string_equal(x.part_number, "FTLX8571D3BCL");
	assert_string_equal(x.revision, "A");
	assert_string_equal(x.serial, "AUJ0RCJ");
	assert_string_equal(x.date_code, "2015-10-29");
	assert_string_equal(x.vendor_oui, "00:90:65");
	near(x.temperature_c, 0x1402 / 256.0, 1e-9);
	near(x.vcc_v, 3.3201, 1e-9);
	l = &x.lanes[0];
	near(l->tx_bias_ma, 6.836, 1e-9);
	near(l->tx_power_mw, 0.6053, 1e-9);
	near(l->rx_power_mw, 0.5511, 1e-9);
	near(x.temperature_limits.high_alarm, 78, 0);
	near(x.temperature_limits.low_alarm, -13, 0);
	near(x.temperature_limits.high_warn, 73, 0);
	near(x.temperature_limits.low_warn, -8, 0);
	near(x.vcc_limits.high_alarm, 3.7, 1e-9);
	assert_true(l->rx_los.ok && !l->rx_los.v);
	assert_int_equal(x.temperature_flags.v, 0);
	done(&x);
}

/*
 * Molex 1110401054 QSFP+ passive DAC. Source: sonic-net/sonic-utilities
 * tests/sfputil_test.py test_show_eeprom_hexdump_sff8636_page (lower and
 * upper page 00h); oracle: that test's hexdump ASCII column "Molex Inc.",
 * "1110401054", "611030929", "160419". Its temperature bytes read 0x0181
 * but a passive cable has no diagnostics: none may be shown.
 */
static void test_real_qsfp_dac(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[8];

	(void)state;
	decode(MOD "real-qsfp-dac-molex-1110401054.hex", &m, &x);
	assert_int_equal(m.n, 2);
	assert_string_equal(x.spec, "SFF-8636");
	assert_string_equal(x.type, "QSFP+");
	assert_string_equal(x.vendor, "Molex Inc.");
	assert_string_equal(x.part_number, "1110401054");
	assert_string_equal(x.serial, "611030929");
	assert_string_equal(x.date_code, "2016-04-19");
	assert_string_equal(x.vendor_oui, "00:09:3a");
	assert_null(x.revision);
	assert_string_equal(x.connector_name, "No separable connector");
	assert_string_equal(x.media, "passive copper");
	assert_string_equal(x.media_detail, "40GBASE-CR4");
	near(x.length_m, 1, 0);
	assert_false(x.wavelength_nm.ok);
	assert_true(x.dom.ok && !x.dom.v);
	assert_string_equal(x.no_dom, "passive copper has no diagnostics");
	assert_false(x.temperature_c.ok);
	assert_false(x.vcc_v.ok);
	assert_int_equal(x.n_lanes, 4);
	assert_false(x.lanes[0].rx_power_mw.ok);
	assert_false(x.lanes[0].rx_los.ok);
	assert_int_equal(x.power_class.v, 1);
	near(x.max_power_w, 1.5, 0);
	assert_int_equal(x.media_lanes.v, 4);
	/* flat memory (lower byte 2 bit 2): no page 03h to ask for */
	assert_true(x.flat_memory.ok && x.flat_memory.v);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 8),
			 0);
	done(&x);
}

/*
 * Hisense DEF8504-2C02 QSFP+ CMIS active optical cable. Source:
 * Hisense-Ligent/SONiC-CICT testcode_112224/test_sfputil.py, docstring of
 * test_check_sfputil_transceiver_eeprom_hexdump (lower page, page 00h
 * upper, page 11h); oracle: what that test checks of it: CMIS rev 5.2,
 * vendor "Hisense", date 2023-11-20, data path state 4 (activated) on the
 * host lanes in use. The rest checked by hand against CMIS 5.
 */
static void test_real_cmis_aoc(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[8];

	(void)state;
	decode(MOD "real-cmis-aoc-hisense-def8504.hex", &m, &x);
	assert_int_equal(m.n, 3);
	assert_string_equal(x.spec, "CMIS 5.2");
	assert_string_equal(x.vendor, "Hisense");
	assert_string_equal(x.date_code, "2023-11-20");
	assert_string_equal(x.part_number, "DEF8504-2C02-MB3");
	assert_string_equal(x.revision, "02");
	assert_string_equal(x.serial, "VEMDBT0200A-A");
	assert_string_equal(x.vendor_oui, "ac:4a:fe");
	assert_string_equal(x.type, "QSFP+ (CMIS)");
	assert_string_equal(x.module_state, "ModuleReady");
	assert_null(x.fault_cause);
	assert_string_equal(x.firmware, "0.5");
	assert_string_equal(x.media, "active optical");
	assert_string_equal(x.media_detail, "850 nm VCSEL");
	near(x.length_m, 2, 0);
	assert_int_equal(x.power_class.v, 2);
	near(x.max_power_w, 2.5, 0);
	assert_int_equal(x.media_lanes.v, 4);
	near(x.temperature_c, 0x1a33 / 256.0, 1e-9);
	near(x.vcc_v, 3.2484, 1e-9);
	assert_int_equal(x.n_lanes, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(x.lanes[i].datapath_state, "DPActivated");
	near(x.lanes[0].tx_power_mw, 1.0308, 1e-9);
	near(x.lanes[3].tx_power_mw, 1.0296, 1e-9);
	near(x.lanes[0].rx_power_mw, 0.7977, 1e-9);
	near(x.lanes[2].rx_power_mw, 0.8190, 1e-9);
	/* page 01h not in the dump: the bias multiplier is unknown */
	assert_false(x.lanes[0].tx_bias_ma.ok);
	assert_true(x.lanes[0].rx_los.ok && !x.lanes[0].rx_los.v);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 8),
			 2);
	assert_int_equal(req[0].page, 1);
	assert_int_equal(req[1].page, 2);
	done(&x);
}

/*
 * Ubiquiti DAC-SFP28-1M, an SFP28 passive DAC. Source: jaredmauch/sfppi
 * data_samples/sfp-25g-dac-ubnt (A0h and A2h as a Juniper router dumps
 * them); oracle: the router's decode in the same file: ID 0x03, extended
 * ID 0x04, "No Separable Connector", vendor "Ubiquiti Inc.", PN
 * "DAC-SFP28-1M", rev "A1", SN "AH22091000096", date code "221013",
 * "SFF-8472 compliance: none -- no DDM".
 */
static void test_real_sfp28_dac(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[4];

	(void)state;
	decode(MOD "real-sfp28-dac-ubiquiti-dac-sfp28-1m.hex", &m, &x);
	assert_int_equal(x.identifier.v, 0x03);
	assert_string_equal(x.connector_name, "No separable connector");
	assert_string_equal(x.vendor, "Ubiquiti Inc.");
	assert_string_equal(x.part_number, "DAC-SFP28-1M");
	assert_string_equal(x.revision, "A1");
	assert_string_equal(x.serial, "AH22091000096");
	assert_string_equal(x.date_code, "2022-10-13");
	assert_true(x.dom.ok && !x.dom.v);
	assert_string_equal(x.no_dom, "passive copper has no diagnostics");
	assert_false(x.temperature_c.ok);
	assert_false(x.lanes[0].rx_power_mw.ok);
	/* checked by hand: byte 8 bit 2 passive, byte 18 1 m, 12 = 0xff */
	assert_string_equal(x.media, "passive copper");
	near(x.length_m, 1, 0);
	assert_false(x.wavelength_nm.ok);
	assert_int_equal(x.nominal_mbps.v, 0x67 * 250);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 4),
			 0);
	done(&x);
}

/*
 * Eoptolink EOLD-168HG-10-1, a QSFP-DD CMIS 5.0 single-mode optic with all
 * its pages (00h-03h, 10h, 11h). Source: jaredmauch/sfppi
 * data_samples/DR4R030015 (a Juniper router's dump). The source has no
 * decoded text: its oracle is the file name, the module's serial; every
 * other value below was checked by hand against CMIS 5.0.
 */
static void test_real_cmis_optic(void **state)
{
	static const unsigned txp[8] = { 0x3a12, 0x3d5e, 0x433c, 0x3c09,
					 0x3ab6, 0x3a48, 0x3ec5, 0x3b34 };
	static const unsigned bias[8] = { 0xd73c, 0xd5f9, 0xbd7d, 0xc5bb,
					  0xd087, 0xd6d8, 0xd70a, 0xd76e };
	static const unsigned rxp[8] = { 0x6005, 0x5935, 0x656c, 0x61f3,
					 0x46f8, 0x60df, 0x6733, 0x5b78 };
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[8];

	(void)state;
	decode(MOD "real-cmis-qsfpdd-eoptolink-eold-168hg.hex", &m, &x);
	assert_int_equal(m.n, 7);
	assert_string_equal(x.serial, "DR4R030015");
	assert_string_equal(x.spec, "CMIS 5.0");
	assert_string_equal(x.type, "QSFP-DD");
	assert_string_equal(x.vendor, "Eoptolink");
	assert_string_equal(x.vendor_oui, "70:ee:a3");
	assert_string_equal(x.part_number, "EOLD-168HG-10-1");
	assert_string_equal(x.revision, "01");
	assert_string_equal(x.date_code, "2025-04-28");
	assert_string_equal(x.module_state, "ModuleReady");
	assert_string_equal(x.firmware, "3.2");
	assert_string_equal(x.media, "optical");
	assert_string_equal(x.media_detail, "1310 nm EML");
	assert_string_equal(x.connector_name, "LC");
	assert_int_equal(x.power_class.v, 8);
	near(x.max_power_w, 16, 0);
	near(x.length_m, 10000, 0);
	near(x.wavelength_nm, 0x65a4 * 0.05, 1e-9);
	assert_int_equal(x.media_lanes.v, 8);
	near(x.temperature_c, 0x31be / 256.0, 1e-9);
	near(x.vcc_v, 3.3173, 1e-9);
	near(x.temperature_limits.high_alarm, 78, 0);
	near(x.temperature_limits.low_alarm, -8, 0);
	near(x.vcc_limits.low_warn, 3.135, 1e-9);
	near(x.tx_power_limits.high_alarm, 5.1286, 1e-9);
	near(x.tx_bias_limits.high_alarm, 130, 1e-9);
	near(x.rx_power_limits.low_alarm, 0.0708, 1e-9);
	assert_false(x.rx_power_is_oma.v);
	assert_int_equal(x.n_lanes, 8);
	for (int i = 0; i < 8; i++) {
		struct rd_xcvr_lane *l = &x.lanes[i];

		assert_string_equal(l->datapath_state, "DPActivated");
		near(l->tx_power_mw, txp[i] * 1e-4, 1e-9);
		near(l->tx_bias_ma, bias[i] * 0.002, 1e-9);
		near(l->rx_power_mw, rxp[i] * 1e-4, 1e-9);
		assert_true(l->rx_los.ok && !l->rx_los.v);
		assert_true(l->tx_fault.ok && !l->tx_fault.v);
		assert_int_equal(l->rx_power_flags.v, 0);
	}
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 8),
			 0);
	/* decoded again into the same struct: the same lanes, not twice */
	assert_int_equal(rd_xcvr_decode(&m, &x), 0);
	assert_int_equal(x.n_lanes, 8);
	assert_string_equal(x.lanes[7].datapath_state, "DPActivated");
	done(&x);
}

/* ---- synthetic pages ---- */

static void test_sfp_ext_cal(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	decode(MOD "synthetic-sfp-ext-cal.hex", &m, &x);
	assert_true(x.ext_calibrated.v);
	near(x.temperature_c, 26.0, 1e-9); /* 25 C raw, offset +256 */
	near(x.vcc_v, 3.2768, 1e-9);
	near(x.lanes[0].tx_bias_ma, 4.2, 1e-9);	   /* 1000 x 2.0 + 100 */
	near(x.lanes[0].tx_power_mw, 0.299, 1e-9); /* 6000 x 0.5 - 10 */
	/* 5 + 2 x 1000 + 0.001 x 1000^2: the polynomial, not ethtool's sum */
	near(x.lanes[0].rx_power_mw, 0.3005, 1e-6);
	near(x.temperature_limits.high_alarm, 81.0, 1e-9);
	near(x.rx_power_limits.high_alarm, 12.0005, 1e-3);
	done(&x);
}

static void test_sfp_dac_no_dom(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[4];

	(void)state;
	decode(MOD "synthetic-sfp-dac.hex", &m, &x);
	assert_string_equal(x.media, "passive copper");
	assert_string_equal(x.media_detail, "SFP+ passive cable");
	near(x.length_m, 3, 0);
	assert_false(x.dom.v);
	assert_string_equal(x.no_dom, "passive copper has no diagnostics");
	assert_false(x.temperature_c.ok);
	assert_false(x.lanes[0].rx_power_mw.ok);
	/* DDM bit off: A2h is never asked for */
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 4),
			 0);
	done(&x);
}

static void test_qsfp_sr4(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	decode(MOD "synthetic-qsfp28-sr4.hex", &m, &x);
	assert_string_equal(x.type, "QSFP28");
	assert_string_equal(x.media, "optical");
	assert_string_equal(x.media_detail, "100GBASE-SR4 or 25GBASE-SR");
	assert_string_equal(x.connector_name, "MPO 1x12");
	assert_int_equal(x.nominal_mbps.v, 25750);
	assert_int_equal(x.power_class.v, 3);
	near(x.length_m, 70, 0);
	near(x.wavelength_nm, 850, 1e-9);
	assert_false(x.flat_memory.v);
	near(x.temperature_c, 30, 0);
	near(x.vcc_v, 3.3, 1e-9);
	for (int i = 0; i < 4; i++) {
		struct rd_xcvr_lane *l = &x.lanes[i];

		assert_int_equal(l->lane, i + 1);
		near(l->rx_power_mw, 0.5 + 0.1 * i, 1e-9);
		near(l->tx_bias_ma, 6.0 + 0.2 * i, 1e-9);
		near(l->tx_power_mw, 0.7 + 0.05 * i, 1e-9);
		/* Rx LOS on lanes 2 and 4 */
		assert_true(l->rx_los.ok);
		assert_int_equal(l->rx_los.v, i == 1 || i == 3);
		assert_true(l->tx_los.ok && !l->tx_los.v);
		assert_true(l->rx_lol.ok && !l->rx_lol.v);
		assert_true(l->tx_fault.ok && !l->tx_fault.v);
		assert_int_equal(l->rx_power_flags.v, 0);
	}
	near(x.temperature_limits.high_alarm, 75, 0);
	near(x.temperature_limits.low_alarm, -5, 0);
	near(x.vcc_limits.high_alarm, 3.63, 1e-9);
	near(x.rx_power_limits.high_alarm, 3.4674, 1e-9);
	near(x.tx_bias_limits.high_alarm, 15, 1e-9);
	near(x.tx_power_limits.low_warn, 0.2, 1e-9);
	done(&x);
}

static void test_qsfp_temp_ffff(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	decode(MOD "synthetic-qsfp28-temp-ffff.hex", &m, &x);
	assert_true(x.dom.ok && !x.dom.v);
	assert_non_null(strstr(x.no_dom, "0xffff"));
	assert_false(x.temperature_c.ok);
	assert_false(x.vcc_v.ok);
	assert_false(x.lanes[0].rx_power_mw.ok);
	assert_false(x.temperature_limits.high_alarm.ok);
	done(&x);
}

static void test_qsfp_flat(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[4];

	(void)state;
	decode(MOD "synthetic-qsfp28-aoc-flat.hex", &m, &x);
	assert_int_equal(m.n, 2);
	assert_true(x.flat_memory.v);
	assert_string_equal(x.media, "active optical");
	assert_string_equal(x.media_detail, "100G AOC (BER 1e-12)");
	near(x.length_m, 10, 0);
	assert_true(x.dom.v);
	/* flat: no page 03h, so no flags and no thresholds */
	assert_false(x.temperature_flags.ok);
	assert_false(x.lanes[0].rx_power_flags.ok);
	assert_false(x.rx_power_limits.high_alarm.ok);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, req, 4),
			 0);
	done(&x);
}

static void test_cmis_dr4(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	decode(MOD "synthetic-cmis-dr4.hex", &m, &x);
	assert_string_equal(x.spec, "CMIS 5.0");
	assert_string_equal(x.type, "QSFP-DD");
	assert_string_equal(x.module_state, "ModuleReady");
	assert_int_equal(x.module_state_num.v, 3);
	assert_string_equal(x.firmware, "3.12");
	assert_string_equal(x.media, "optical");
	assert_string_equal(x.media_detail, "1310 nm EML");
	assert_string_equal(x.connector_name, "MPO 1x12");
	near(x.length_m, 2000, 0);
	near(x.wavelength_nm, 1311, 1e-9);
	assert_int_equal(x.power_class.v, 7);
	near(x.max_power_w, 12, 0);
	assert_int_equal(x.media_lanes.v, 4);
	/* a QSFP-DD has 8 host lanes whatever its first application uses */
	assert_int_equal(x.n_lanes, 8);
	assert_string_equal(x.lanes[4].datapath_state, "DPDeactivated");
	near(x.temperature_c, 36.5, 0);
	near(x.lanes[0].tx_bias_ma, 8.0, 1e-9); /* 2000 x 2 uA x 2 */
	near(x.lanes[1].tx_power_mw, 1.01, 1e-9);
	near(x.lanes[3].rx_power_mw, 0.83, 1e-9);
	near(x.tx_bias_limits.high_alarm, 30, 1e-9);
	near(x.rx_power_limits.low_alarm, 0.04, 1e-9);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(x.lanes[i].datapath_state, "DPActivated");
		assert_int_equal(x.lanes[i].rx_los.v, i == 2);
		assert_true(x.lanes[i].tx_lol.ok);
	}
	assert_false(x.rx_power_is_oma.v);
	done(&x);
}

static void test_cmis_states(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	decode(MOD "synthetic-cmis-lowpwr.hex", &m, &x);
	assert_string_equal(x.module_state, "ModuleLowPwr");
	assert_int_equal(x.module_state_num.v, 1);
	assert_null(x.fault_cause);
	done(&x);
	decode(MOD "synthetic-cmis-fault.hex", &m, &x);
	assert_string_equal(x.module_state, "ModuleFault");
	assert_string_equal(x.fault_cause, "TEC runaway");
	done(&x);
	/* other causes */
	half_rw(&m, 0x50, 0, 0, 0)[0x29] = 3;
	memset(&x, 0, sizeof(x));
	assert_int_equal(rd_xcvr_decode(&m, &x), 0);
	assert_string_equal(x.fault_cause, "program memory corrupted");
	done(&x);
	half_rw(&m, 0x50, 0, 0, 0)[0x29] = 0x42;
	half_rw(&m, 0x50, 0, 0, 0)[3] = 4 << 1;
	memset(&x, 0, sizeof(x));
	assert_int_equal(rd_xcvr_decode(&m, &x), 0);
	assert_string_equal(x.module_state, "ModulePwrDn");
	assert_null(x.fault_cause);
	done(&x);
	half_rw(&m, 0x50, 0, 0, 0)[3] = 5 << 1;
	memset(&x, 0, sizeof(x));
	assert_int_equal(rd_xcvr_decode(&m, &x), 0);
	assert_string_equal(x.fault_cause, "fault code 0x42");
	done(&x);
}

static void test_cmis_two_banks(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	struct rd_xcvr_req req[8];
	char w[64];

	(void)state;
	decode(MOD "synthetic-cmis-osfp-2banks.hex", &m, &x);
	assert_string_equal(x.type, "OSFP");
	assert_int_equal(x.n_lanes, 16);
	for (int i = 0; i < 16; i++) {
		struct rd_xcvr_lane *l = &x.lanes[i];
		unsigned j = i % 8, b = i / 8;

		assert_int_equal(l->lane, i + 1);
		near(l->tx_power_mw, (10000 + 100 * j + 1000 * b) * 1e-4, 1e-9);
		near(l->rx_power_mw, (8000 + 100 * j + 1000 * b) * 1e-4, 1e-9);
		assert_int_equal(l->rx_los.v, i == 2 || i == 15);
		assert_string_equal(l->datapath_state,
				    b	    ? "DPInit"
				    : j < 4 ? "DPActivated"
					    : "DPDeactivated");
	}
	assert_string_equal(rd_xcvr_where(&x, "rx_power_mw", 9, w, sizeof(w)),
			    "bank 1 page 11h bytes 186-187");
	assert_string_equal(rd_xcvr_where(&x, "rx_los", 16, w, sizeof(w)),
			    "bank 1 page 11h byte 147 bit 7");
	/* bank 1's page 11h dropped: DIAG asks for exactly it */
	for (size_t i = 0; i < m.n; i++)
		if (m.half[i].page == 0x11 && m.half[i].bank == 1)
			m.half[i] = m.half[--m.n];
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, req, 8), 1);
	assert_int_equal(req[0].bank, 1);
	assert_int_equal(req[0].page, 0x11);
	assert_int_equal(req[0].offset, 128);
	done(&x);
	/* decoded without it: lanes 9-16 there, empty */
	memset(&x, 0, sizeof(x));
	assert_int_equal(rd_xcvr_decode(&m, &x), 0);
	assert_int_equal(x.n_lanes, 16);
	assert_false(x.lanes[8].rx_power_mw.ok);
	assert_null(x.lanes[8].datapath_state);
	done(&x);
}

/* ---- every flag bit ---- */

struct flagcase {
	unsigned i2c, bank, page, off, byte, bit;
	const char *what; /* "temp", "vcc", "bias", "txp", "rxp" */
	unsigned lane;	  /* from 1; 0 for module-level */
	uint64_t flag;
};

static uint64_t flag_of(const struct rd_xcvr *x, const struct flagcase *c)
{
	const struct rd_xcvr_lane *l = c->lane ? &x->lanes[c->lane - 1] : NULL;
	const struct rd_ou64 *f;

	if (!strcmp(c->what, "temp"))
		f = &x->temperature_flags;
	else if (!strcmp(c->what, "vcc"))
		f = &x->vcc_flags;
	else if (!strcmp(c->what, "bias"))
		f = &l->tx_bias_flags;
	else if (!strcmp(c->what, "txp"))
		f = &l->tx_power_flags;
	else
		f = &l->rx_power_flags;
	assert_true(f->ok);
	return f->v;
}

static void flag_cases(const char *fixture, const struct flagcase *c, size_t n)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	for (size_t i = 0; i < n; i++) {
		uint8_t *p;

		load(fixture, &m);
		p = half_rw(&m, c[i].i2c, c[i].bank, c[i].page, c[i].off);
		p[c[i].byte - c[i].off] |= (uint8_t)(1u << c[i].bit);
		memset(&x, 0, sizeof(x));
		assert_int_equal(rd_xcvr_decode(&m, &x), 0);
		if (flag_of(&x, &c[i]) != c[i].flag)
			fail_msg("%s byte %u bit %u: %s lane %u flags %llu",
				 fixture, c[i].byte, c[i].bit, c[i].what,
				 c[i].lane,
				 (unsigned long long)flag_of(&x, &c[i]));
		done(&x);
	}
}

enum {
	HA = RD_XCVR_F_HIGH_ALARM,
	LA = RD_XCVR_F_LOW_ALARM,
	HW = RD_XCVR_F_HIGH_WARN,
	LW = RD_XCVR_F_LOW_WARN
};

static void test_flags_sff8472(void **state)
{
	/* A2h 112-113 alarms, 116-117 warnings */
	static const struct flagcase c[] = {
		{ 0x51, 0, 0, 0, 112, 7, "temp", 0, HA },
		{ 0x51, 0, 0, 0, 112, 6, "temp", 0, LA },
		{ 0x51, 0, 0, 0, 116, 7, "temp", 0, HW },
		{ 0x51, 0, 0, 0, 116, 6, "temp", 0, LW },
		{ 0x51, 0, 0, 0, 112, 5, "vcc", 0, HA },
		{ 0x51, 0, 0, 0, 112, 4, "vcc", 0, LA },
		{ 0x51, 0, 0, 0, 116, 5, "vcc", 0, HW },
		{ 0x51, 0, 0, 0, 116, 4, "vcc", 0, LW },
		{ 0x51, 0, 0, 0, 112, 3, "bias", 1, HA },
		{ 0x51, 0, 0, 0, 112, 2, "bias", 1, LA },
		{ 0x51, 0, 0, 0, 116, 3, "bias", 1, HW },
		{ 0x51, 0, 0, 0, 116, 2, "bias", 1, LW },
		{ 0x51, 0, 0, 0, 112, 1, "txp", 1, HA },
		{ 0x51, 0, 0, 0, 112, 0, "txp", 1, LA },
		{ 0x51, 0, 0, 0, 116, 1, "txp", 1, HW },
		{ 0x51, 0, 0, 0, 116, 0, "txp", 1, LW },
		{ 0x51, 0, 0, 0, 113, 7, "rxp", 1, HA },
		{ 0x51, 0, 0, 0, 113, 6, "rxp", 1, LA },
		{ 0x51, 0, 0, 0, 117, 7, "rxp", 1, HW },
		{ 0x51, 0, 0, 0, 117, 6, "rxp", 1, LW },
	};

	(void)state;
	flag_cases(MOD "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex", c,
		   sizeof(c) / sizeof(c[0]));
}

static void test_flags_sff8636(void **state)
{
	/* bytes 6 (temp) and 7 (Vcc) high nibble; per lane pairs 9-14 */
	static const struct flagcase c[] = {
		{ 0x50, 0, 0, 0, 6, 7, "temp", 0, HA },
		{ 0x50, 0, 0, 0, 6, 6, "temp", 0, LA },
		{ 0x50, 0, 0, 0, 6, 5, "temp", 0, HW },
		{ 0x50, 0, 0, 0, 6, 4, "temp", 0, LW },
		{ 0x50, 0, 0, 0, 7, 7, "vcc", 0, HA },
		{ 0x50, 0, 0, 0, 7, 4, "vcc", 0, LW },
		{ 0x50, 0, 0, 0, 9, 7, "rxp", 1, HA },
		{ 0x50, 0, 0, 0, 9, 2, "rxp", 2, LA },
		{ 0x50, 0, 0, 0, 10, 5, "rxp", 3, HW },
		{ 0x50, 0, 0, 0, 10, 0, "rxp", 4, LW },
		{ 0x50, 0, 0, 0, 11, 6, "bias", 1, LA },
		{ 0x50, 0, 0, 0, 11, 3, "bias", 2, HA },
		{ 0x50, 0, 0, 0, 12, 4, "bias", 3, LW },
		{ 0x50, 0, 0, 0, 12, 1, "bias", 4, HW },
		{ 0x50, 0, 0, 0, 13, 5, "txp", 1, HW },
		{ 0x50, 0, 0, 0, 13, 0, "txp", 2, LW },
		{ 0x50, 0, 0, 0, 14, 7, "txp", 3, HA },
		{ 0x50, 0, 0, 0, 14, 2, "txp", 4, LA },
	};

	(void)state;
	flag_cases(MOD "synthetic-qsfp28-sr4.hex", c, sizeof(c) / sizeof(c[0]));
}

static void test_flags_cmis(void **state)
{
	/* lower byte 9; page 11h 0x8B-0x8E Tx power, 0x8F-0x92 bias,
	 * 0x95-0x98 Rx power, bit n = lane n + 1 */
	static const struct flagcase c[] = {
		{ 0x50, 0, 0, 0, 9, 0, "temp", 0, HA },
		{ 0x50, 0, 0, 0, 9, 1, "temp", 0, LA },
		{ 0x50, 0, 0, 0, 9, 2, "temp", 0, HW },
		{ 0x50, 0, 0, 0, 9, 3, "temp", 0, LW },
		{ 0x50, 0, 0, 0, 9, 4, "vcc", 0, HA },
		{ 0x50, 0, 0, 0, 9, 5, "vcc", 0, LA },
		{ 0x50, 0, 0, 0, 9, 6, "vcc", 0, HW },
		{ 0x50, 0, 0, 0, 9, 7, "vcc", 0, LW },
		{ 0x50, 0, 0x11, 128, 0x8b, 0, "txp", 1, HA },
		{ 0x50, 0, 0x11, 128, 0x8c, 1, "txp", 2, LA },
		{ 0x50, 0, 0x11, 128, 0x8d, 2, "txp", 3, HW },
		{ 0x50, 0, 0x11, 128, 0x8e, 3, "txp", 4, LW },
		{ 0x50, 0, 0x11, 128, 0x8f, 3, "bias", 4, HA },
		{ 0x50, 0, 0x11, 128, 0x90, 2, "bias", 3, LA },
		{ 0x50, 0, 0x11, 128, 0x91, 1, "bias", 2, HW },
		{ 0x50, 0, 0x11, 128, 0x92, 0, "bias", 1, LW },
		{ 0x50, 0, 0x11, 128, 0x95, 1, "rxp", 2, HA },
		{ 0x50, 0, 0x11, 128, 0x96, 0, "rxp", 1, LA },
		{ 0x50, 0, 0x11, 128, 0x97, 3, "rxp", 4, HW },
		{ 0x50, 0, 0x11, 128, 0x98, 2, "rxp", 3, LW },
	};

	(void)state;
	flag_cases(MOD "synthetic-cmis-dr4.hex", c, sizeof(c) / sizeof(c[0]));
}

/* Per-lane signals: each bit lands on its lane and nowhere else. */
static void test_signals_per_lane(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;

	(void)state;
	for (unsigned lane = 1; lane <= 4; lane++) {
		load(MOD "synthetic-qsfp28-sr4.hex", &m);
		uint8_t *lo = half_rw(&m, 0x50, 0, 0, 0);

		lo[3] = (uint8_t)(0x10u << (lane - 1)); /* Tx LOS */
		lo[4] = (uint8_t)(1u << (lane - 1));	/* Tx fault */
		lo[5] = (uint8_t)(0x11u << (lane - 1)); /* Tx and Rx LOL */
		memset(&x, 0, sizeof(x));
		assert_int_equal(rd_xcvr_decode(&m, &x), 0);
		for (unsigned i = 0; i < 4; i++) {
			bool me = i + 1 == lane;

			assert_false(x.lanes[i].rx_los.v);
			assert_int_equal(x.lanes[i].tx_los.v, me);
			assert_int_equal(x.lanes[i].tx_fault.v, me);
			assert_int_equal(x.lanes[i].rx_lol.v, me);
			assert_int_equal(x.lanes[i].tx_lol.v, me);
		}
		done(&x);
	}
	for (unsigned lane = 1; lane <= 4; lane++) {
		load(MOD "synthetic-cmis-dr4.hex", &m);
		uint8_t *p = half_rw(&m, 0x50, 0, 0x11, 128);

		p[0x93 - 128] = (uint8_t)(1u << (lane - 1)); /* Rx LOS */
		p[0x87 - 128] = (uint8_t)(1u << (lane - 1)); /* Tx fault */
		memset(&x, 0, sizeof(x));
		assert_int_equal(rd_xcvr_decode(&m, &x), 0);
		for (unsigned i = 0; i < 4; i++) {
			assert_int_equal(x.lanes[i].rx_los.v, i + 1 == lane);
			assert_int_equal(x.lanes[i].tx_fault.v, i + 1 == lane);
		}
		done(&x);
	}
}

/* ---- the read plan ---- */

/* Lengths as people write them: a 10 km optic is not "1e+04 m". */
static void test_length_text(void **state)
{
	static const struct {
		double m;
		const char *text;
	} rows[] = {
		{ 1.5, "1.5 m" }, { 300, "300 m" }, { 2000, "2 km" },
		{ 10000, "10 km" },
	};
	struct rd_xcvr x = { 0 };
	char buf[32];

	(void)state;
	rd_xcvr_length_text(&x, " ", buf, sizeof(buf));
	assert_string_equal(buf, ""); /* not known: no lead either */
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		x.length_m = rd_dbl(rows[i].m);
		rd_xcvr_length_text(&x, "", buf, sizeof(buf));
		assert_string_equal(buf, rows[i].text);
	}
	rd_xcvr_length_text(&x, ", ", buf, sizeof(buf));
	assert_string_equal(buf, ", 10 km");
}

/*
 * The lanes summed up once for the Overview, the phy checks and the
 * comparison of two ends: lanes without receive diagnostics do not count,
 * the weakest power names its lane, a Tx fault on any lane is seen.
 */
static void test_rx_scan(void **state)
{
	struct rd_xcvr_lane lanes[4] = { 0 };
	struct rd_xcvr x = { .lanes = lanes, .n_lanes = 4 };
	struct rd_xcvr_rx rx;
	char buf[16];

	(void)state;
	rd_xcvr_rx_scan(&x, &rx);
	assert_int_equal(rx.lanes, 0);
	assert_int_equal(rx.weakest, -1);
	assert_false(rx.tx_fault);

	lanes[0].rx_power_mw = rd_dbl(0.5);
	lanes[1].rx_power_mw = rd_dbl(0.25);
	lanes[1].rx_los = rd_bool(false);
	lanes[2].rx_los = rd_bool(true);
	lanes[3].tx_fault = rd_bool(false);
	rd_xcvr_rx_scan(&x, &rx);
	assert_int_equal(rx.lanes, 3);
	assert_int_equal(rx.los, 1);
	assert_int_equal(rx.weakest, 1);
	assert_true(rx.weakest_mw == 0.25);
	assert_false(rx.tx_fault);

	x.identifier = rd_u64(0x11);
	assert_int_equal(rd_xcvr_brief(&x, buf, sizeof(buf)), RD_XCVR_G_OK);
	assert_string_equal(buf, "-6.0dBm");
	lanes[0].rx_los = lanes[1].rx_los = rd_bool(true);
	lanes[0].rx_power_mw = lanes[1].rx_power_mw = rd_dbl(0);
	assert_int_equal(rd_xcvr_brief(&x, buf, sizeof(buf)), RD_XCVR_G_BAD);
	assert_string_equal(buf, "no light");
	lanes[3].tx_fault = rd_bool(true);
	rd_xcvr_rx_scan(&x, &rx);
	assert_true(rx.tx_fault);
	assert_int_equal(rd_xcvr_brief(&x, buf, sizeof(buf)), RD_XCVR_G_BAD);
	assert_string_equal(buf, "TX FAULT");
}

/* The halves a diagnostics read takes again: those with live values only. */
static void test_live(void **state)
{
	static const struct {
		const char *file;
		size_t n;
		struct rd_xcvr_req want[4];
	} rows[] = {
		/* SFF-8472: A2h's lower half; A0h is identification. */
		{ MOD "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex", 1,
		  { { 0x51, 0, 0, 0 } } },
		/* no DDM: nothing live at all */
		{ MOD "synthetic-sfp-dac.hex", 0, { { 0 } } },
		/* SFF-8636: the lower half; page 00h and 03h upper are static */
		{ MOD "synthetic-qsfp28-sr4.hex", 1, { { 0x50, 0, 0, 0 } } },
		{ MOD "real-qsfp-dac-molex-1110401054.hex", 1, { { 0x50, 0, 0, 0 } } },
		/* CMIS: the lower half and page 11h of each bank */
		{ MOD "synthetic-cmis-dr4.hex", 2,
		  { { 0x50, 0, 0, 0 }, { 0x50, 0, 0x11, 128 } } },
		{ MOD "synthetic-cmis-osfp-2banks.hex", 3,
		  { { 0x50, 0, 0, 0 }, { 0x50, 0, 0x11, 128 },
		    { 0x50, 1, 0x11, 128 } } },
	};
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m));
	struct rd_xcvr_req q[8];

	(void)state;
	assert_non_null(m);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t n;

		load(rows[i].file, m);
		n = rd_xcvr_live(m, q, 8);
		assert_int_equal(n, rows[i].n);
		for (size_t k = 0; k < n; k++) {
			assert_int_equal(q[k].i2c, rows[i].want[k].i2c);
			assert_int_equal(q[k].bank, rows[i].want[k].bank);
			assert_int_equal(q[k].page, rows[i].want[k].page);
			assert_int_equal(q[k].offset, rows[i].want[k].offset);
		}
	}
	/* Bounded by max; nothing without the lower half. */
	assert_int_equal(rd_xcvr_live(m, q, 1), 1);
	memset(m, 0, sizeof(*m));
	assert_int_equal(rd_xcvr_live(m, q, 8), 0);
	free(m);
}

static void test_plan(void **state)
{
	struct rd_xcvr_mem m = { .n = 0 };
	struct rd_xcvr_req r[8];
	uint8_t lo[128] = { 0 }, up[128] = { 0 };

	(void)state;
	/* nothing read: exactly the lower half at 0x50 */
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT, r, 8), 1);
	assert_true(r[0].i2c == 0x50 && r[0].bank == 0 && r[0].page == 0 &&
		    r[0].offset == 0);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 0), 0);

	/* SFP with DDM: A2h lower */
	lo[0] = 0x03;
	lo[92] = 0x40;
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 0, 0, 0, lo), 0);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 8), 1);
	assert_true(r[0].i2c == 0x51 && r[0].offset == 0);

	/* SFF-8636, paged: page 00h upper then 03h; DIAG: 00h upper only */
	m.n = 0;
	memset(lo, 0, sizeof(lo));
	lo[0] = 0x11;
	rd_xcvr_mem_put(&m, 0x50, 0, 0, 0, lo);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT, r, 8), 2);
	assert_true(r[0].page == 0 && r[0].offset == 128);
	assert_true(r[1].page == 3 && r[1].offset == 128);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 8), 1);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT, r, 1), 1);
	/* flat: no page 03h */
	lo[2] = 0x04;
	rd_xcvr_mem_put(&m, 0x50, 0, 0, 0, lo);
	assert_int_equal(m.n, 1);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT, r, 8), 1);

	/* CMIS, paged: 00h, 01h, 02h, then 11h of bank 0 */
	m.n = 0;
	memset(lo, 0, sizeof(lo));
	lo[0] = 0x18;
	rd_xcvr_mem_put(&m, 0x50, 0, 0, 0, lo);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, r, 8),
			 4);
	assert_true(r[0].page == 0 && r[0].offset == 128);
	assert_int_equal(r[1].page, 1);
	assert_int_equal(r[2].page, 2);
	assert_true(r[3].page == 0x11 && r[3].bank == 0);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 8), 2);
	assert_int_equal(r[0].page, 1);
	assert_int_equal(r[1].page, 0x11);
	/* page 01h says 4 banks: 11h of banks 0-3 */
	up[0x8e - 128] = 0x02;
	rd_xcvr_mem_put(&m, 0x50, 0, 1, 128, up);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 8), 4);
	for (int b = 0; b < 4; b++)
		assert_true(r[b].page == 0x11 && r[b].bank == b &&
			    r[b].offset == 128);
	/* flat CMIS: page 00h upper only */
	lo[2] = 0x80;
	rd_xcvr_mem_put(&m, 0x50, 0, 0, 0, lo);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_IDENT | RD_XCVR_DIAG, r, 8),
			 1);
	assert_int_equal(rd_xcvr_plan(&m, RD_XCVR_DIAG, r, 8), 0);
}

/* ---- memory, snapshots and dumps ---- */

static void test_mem_put(void **state)
{
	struct rd_xcvr_mem m = { .n = 0 };
	uint8_t d[128] = { 1 };

	(void)state;
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 0, 0, 64, d), -EINVAL);
	assert_int_equal(rd_xcvr_mem_put(&m, 0x80, 0, 0, 0, d), -EINVAL);
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 0, 256, 128, d), -EINVAL);
	for (unsigned i = 0; i < RD_XCVR_MAX_HALVES; i++)
		assert_int_equal(rd_xcvr_mem_put(&m, 0x50, i / 8, i, 128, d),
				 0);
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 9, 9, 128, d), -ENOSPC);
	/* replacing needs no room */
	d[0] = 7;
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 0, 3, 128, d), 0);
	assert_int_equal(rd_xcvr_mem_get(&m, 0x50, 0, 3, 128)[0], 7);
	/* the lower half has no page or bank */
	m.n = 0;
	assert_int_equal(rd_xcvr_mem_put(&m, 0x50, 2, 5, 0, d), 0);
	assert_non_null(rd_xcvr_mem_get(&m, 0x50, 0, 0, 0));
	assert_non_null(rd_xcvr_mem_get(&m, 0x50, 3, 1, 0));
	assert_null(rd_xcvr_mem_get(&m, 0x51, 0, 0, 0));
}

static void test_pages_roundtrip(void **state)
{
	struct rd_xcvr_mem m, back;
	struct rd_xcvr x = { 0 }, y = { 0 };

	(void)state;
	load(MOD "synthetic-cmis-osfp-2banks.hex", &m);
	assert_int_equal(rd_xcvr_pages_save(&m, &x), 0);
	assert_int_equal(x.n_pages, m.n);
	assert_int_equal(strlen(x.pages[0].hex), 256);
	assert_int_equal(rd_xcvr_pages_load(&x, &back), 0);
	assert_int_equal(back.n, m.n);
	for (size_t i = 0; i < m.n; i++) {
		const struct rd_xcvr_half *h = &m.half[i];

		assert_memory_equal(rd_xcvr_mem_get(&back, h->i2c, h->bank,
						    h->page, h->offset),
				    h->data, 128);
	}
	assert_int_equal(rd_xcvr_decode(&back, &y), 0);
	assert_int_equal(y.n_lanes, 16);
	done(&y);
	/* saved twice: replaced, not appended */
	assert_int_equal(rd_xcvr_pages_save(&m, &x), 0);
	assert_int_equal(x.n_pages, m.n);
	/* bad hex */
	x.pages[1].hex[7] = 'g';
	assert_int_equal(rd_xcvr_pages_load(&x, &back), -EINVAL);
	assert_int_equal(back.n, 0);
	x.pages[1].hex[7] = '0';
	x.pages[1].hex[200] = '\0';
	assert_int_equal(rd_xcvr_pages_load(&x, &back), -EINVAL);
	x.pages[1].hex[200] = '0';
	x.pages[1].offset = 64;
	assert_int_equal(rd_xcvr_pages_load(&x, &back), -EINVAL);
	done(&x);
}

/* The text ethtool prints for len bytes from offset. */
static char *ethtool_text(const uint8_t *d, size_t len, unsigned offset)
{
	char *s = malloc(64 + len * 4), *p = s;

	p += sprintf(p, "Offset\t\tValues\n------\t\t------");
	for (size_t i = 0; i < len; i++) {
		if (i % 16 == 0)
			p += sprintf(p, "\n0x%04zx:\t\t", i + offset);
		p += sprintf(p, "%02x ", d[i]);
	}
	sprintf(p, "\n");
	return s;
}

static void test_dump_layouts(void **state)
{
	struct rd_xcvr_mem m, q;
	uint8_t blob[640], *buf;
	size_t n;
	char *t;

	(void)state;
	/* SFF-8472 raw, 512 bytes: A0h lower/upper, A2h lower/upper */
	n = slurp(MOD "real-sfp-10g-sr-oem-no-light.bin", &buf);
	assert_int_equal(rd_xcvr_mem_from_raw(buf, n, &m), 0);
	assert_int_equal(m.n, 4);
	assert_memory_equal(rd_xcvr_mem_get(&m, 0x51, 0, 0, 0), buf + 256, 128);
	assert_memory_equal(rd_xcvr_mem_get(&m, 0x51, 0, 0, 128), buf + 384,
			    128);
	/* SFF-8079, 256 bytes: A0h only */
	assert_int_equal(rd_xcvr_mem_from_raw(buf, 256, &m), 0);
	assert_int_equal(m.n, 2);
	/* the same as ethtool's hex text */
	t = ethtool_text(buf, n, 0);
	assert_int_equal(rd_xcvr_mem_from_hex(t, strlen(t), &m), 0);
	assert_int_equal(m.n, 4);
	assert_int_equal(rd_xcvr_mem_from_dump((uint8_t *)t, strlen(t), &q), 0);
	assert_int_equal(q.n, 4);
	/* truncated in the middle of A2h: the whole halves before it */
	assert_int_equal(rd_xcvr_mem_from_hex(t, strlen(t) * 5 / 8, &m), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(rd_xcvr_mem_from_raw(buf, 300, &m), 0);
	assert_int_equal(m.n, 2);
	free(t);
	free(buf);

	/* SFF-8636 raw, 640 bytes: lower, pages 00h-03h upper */
	load(MOD "synthetic-qsfp28-sr4.hex", &q);
	memset(blob, 0, sizeof(blob));
	memcpy(blob, rd_xcvr_mem_get(&q, 0x50, 0, 0, 0), 128);
	memcpy(blob + 128, rd_xcvr_mem_get(&q, 0x50, 0, 0, 128), 128);
	memcpy(blob + 512, rd_xcvr_mem_get(&q, 0x50, 0, 3, 128), 128);
	assert_int_equal(rd_xcvr_mem_from_raw(blob, 640, &m), 0);
	assert_int_equal(m.n, 5);
	assert_memory_equal(rd_xcvr_mem_get(&m, 0x50, 0, 3, 128), blob + 512,
			    128);
	assert_non_null(rd_xcvr_mem_get(&m, 0x50, 0, 1, 128));
	assert_int_equal(rd_xcvr_mem_from_raw(blob, 256, &m), 0);
	assert_int_equal(m.n, 2);
	/* one netlink half: the lower half */
	assert_int_equal(rd_xcvr_mem_from_raw(blob, 128, &m), 0);
	assert_int_equal(m.n, 1);
	assert_int_equal(rd_xcvr_mem_from_raw(blob, 127, &m), -EINVAL);
	assert_int_equal(rd_xcvr_mem_from_raw(NULL, 0, &m), -EINVAL);

	/* netlink hex of one upper page: alone, it is page 00h's offsets */
	t = ethtool_text(blob + 512, 128, 0x80);
	assert_int_equal(rd_xcvr_mem_from_hex(t, strlen(t), &m), 0);
	assert_int_equal(m.n, 1);
	assert_non_null(rd_xcvr_mem_get(&m, 0x50, 0, 0, 128));
	free(t);
	/* placed by the command line before it */
	buf = (uint8_t *)ethtool_text(blob + 512, 128, 0x80);
	{
		char text[4096];

		snprintf(text, sizeof(text),
			 "$ ethtool -m ens1 hex on page 3 bank 0\n%s", buf);
		assert_int_equal(rd_xcvr_mem_from_hex(text, strlen(text), &m),
				 0);
		assert_int_equal(m.n, 1);
		assert_memory_equal(rd_xcvr_mem_get(&m, 0x50, 0, 3, 128),
				    blob + 512, 128);
	}
	free(buf);
}

static void test_garbage(void **state)
{
	static const char *const texts[] = {
		"",
		"Offset\t\tValues\n------\t\t------\n",
		"0x0000:\t\tzz 11\n",
		"0x:\n0xffffffffffffff: 00 11\npage 999999999999\n",
		"Offset\t\tValues\n0x0000:\t\t03 04 07",
		"page\nbank 0x\ni2c 0x1ff\n0x0080: 00\n",
	};
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	uint32_t seed = 12345;
	char w[64];

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		assert_int_equal(
			rd_xcvr_mem_from_hex(texts[i], strlen(texts[i]), &m),
			-EINVAL);
	m.n = 0;
	memset(&x, 0, sizeof(x));
	assert_int_equal(rd_xcvr_decode(&m, &x), -EINVAL);
	/* random bytes behind every identifier: decoded, strings clean */
	for (unsigned id = 0; id < 0x24; id++) {
		uint8_t d[128];

		m.n = 0;
		for (unsigned k = 0; k < 12; k++) {
			static const uint8_t pages[] = { 0,    0,    1,
							 2,    3,    0x11,
							 0x11, 0x11, 0x11 };
			for (int b = 0; b < 128; b++) {
				seed = seed * 1103515245u + 12345u;
				d[b] = (uint8_t)(seed >> 16);
			}
			if (k == 0)
				d[0] = (uint8_t)id;
			if (k < 9)
				rd_xcvr_mem_put(&m, 0x50, k > 5 ? k - 5 : 0,
						pages[k], k ? 128 : 0, d);
			else
				rd_xcvr_mem_put(&m, 0x51, 0, 0,
						k == 9 ? 0 : 128, d);
		}
		memset(&x, 0, sizeof(x));
		assert_int_equal(rd_xcvr_decode(&m, &x), 0);
		for (const char *const *s =
			     (const char *const[]){
				     x.vendor, x.part_number, x.serial,
				     x.revision, x.date_code, x.module_state,
				     x.fault_cause, x.media_detail, x.type,
				     NULL };
		     s[0] || s == NULL; s++) {
			if (!*s)
				break;
			assert_true(rd_text_clean(*s, strlen(*s)));
		}
		rd_xcvr_where(&x, "rx_power_mw", 3, w, sizeof(w));
		done(&x);
	}
}

static void test_where(void **state)
{
	struct rd_xcvr_mem m;
	struct rd_xcvr x;
	char w[64];

	(void)state;
	decode(MOD "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex", &m, &x);
	assert_string_equal(rd_xcvr_where(&x, "rx_power_mw", 1, w, sizeof(w)),
			    "A2h bytes 104-105");
	assert_string_equal(rd_xcvr_where(&x, "temperature_c", 0, w, sizeof(w)),
			    "A2h bytes 96-97");
	assert_string_equal(rd_xcvr_where(&x, "rx_los", 1, w, sizeof(w)),
			    "A2h byte 110 bit 1");
	assert_string_equal(rd_xcvr_where(&x, "vendor", 0, w, sizeof(w)),
			    "A0h bytes 20-35");
	assert_null(rd_xcvr_where(&x, "rx_power_mw", 2, w, sizeof(w)));
	assert_null(rd_xcvr_where(&x, "no_such_field", 0, w, sizeof(w)));
	done(&x);
	decode(MOD "synthetic-qsfp28-sr4.hex", &m, &x);
	assert_string_equal(rd_xcvr_where(&x, "temperature_c", 0, w, sizeof(w)),
			    "page 00h bytes 22-23");
	assert_string_equal(rd_xcvr_where(&x, "tx_bias_ma", 3, w, sizeof(w)),
			    "page 00h bytes 46-47");
	assert_string_equal(rd_xcvr_where(&x, "tx_los", 2, w, sizeof(w)),
			    "page 00h byte 3 bit 5");
	assert_string_equal(
		rd_xcvr_where(&x, "rx_power_flags", 2, w, sizeof(w)),
		"page 00h byte 9 bits 3-0");
	assert_string_equal(
		rd_xcvr_where(&x, "rx_power_limits_mw", 0, w, sizeof(w)),
		"page 03h bytes 176-183");
	done(&x);
	decode(MOD "synthetic-cmis-dr4.hex", &m, &x);
	assert_string_equal(rd_xcvr_where(&x, "rx_power_mw", 1, w, sizeof(w)),
			    "bank 0 page 11h bytes 186-187");
	assert_string_equal(rd_xcvr_where(&x, "module_state", 0, w, sizeof(w)),
			    "page 00h byte 3");
	assert_string_equal(
		rd_xcvr_where(&x, "datapath_state", 3, w, sizeof(w)),
		"bank 0 page 11h byte 129 bits 3-0");
	assert_null(rd_xcvr_where(&x, "rx_los", 0, w, sizeof(w)));
	done(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_sfp_no_light),
		cmocka_unit_test(test_real_sfp_finisar),
		cmocka_unit_test(test_real_qsfp_dac),
		cmocka_unit_test(test_real_cmis_aoc),
		cmocka_unit_test(test_real_sfp28_dac),
		cmocka_unit_test(test_real_cmis_optic),
		cmocka_unit_test(test_sfp_ext_cal),
		cmocka_unit_test(test_sfp_dac_no_dom),
		cmocka_unit_test(test_qsfp_sr4),
		cmocka_unit_test(test_qsfp_temp_ffff),
		cmocka_unit_test(test_qsfp_flat),
		cmocka_unit_test(test_cmis_dr4),
		cmocka_unit_test(test_cmis_states),
		cmocka_unit_test(test_cmis_two_banks),
		cmocka_unit_test(test_flags_sff8472),
		cmocka_unit_test(test_flags_sff8636),
		cmocka_unit_test(test_flags_cmis),
		cmocka_unit_test(test_signals_per_lane),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_length_text),
		cmocka_unit_test(test_rx_scan),
		cmocka_unit_test(test_mem_put),
		cmocka_unit_test(test_pages_roundtrip),
		cmocka_unit_test(test_dump_layouts),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
