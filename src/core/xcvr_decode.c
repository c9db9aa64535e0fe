// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module memory decoders: SFF-8472, SFF-8636 and CMIS 4/5 bytes into
 * struct rd_xcvr. Offsets and rules as in the specifications and as
 * ethtool reads them (sfpid.c, sfpdiag.c, qsfp.c/h, cmis.c/h,
 * module-common.c/h); where this decoder departs from ethtool it says so.
 *
 * Units: temperature s16/256 degC; Vcc u16 x 100 uV; Tx bias u16 x 2 uA
 * (CMIS: times the multiplier of page 01h 0xA0 bits 4:3); optical power
 * u16 x 0.1 uW, stored in mW. A value the module does not implement, or
 * whose page was not read, stays absent.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/attr.h"
#include "core/xcvr_decode.h"

#define I2C_A0 0x50
#define I2C_A2 0x51
#define HALF 128

/* A byte of an upper half by its offset in the 0-255 address space. */
#define U(p, off) ((p)[(off)-HALF])

/* ---- memory ---- */

const uint8_t *rd_xcvr_mem_get(const struct rd_xcvr_mem *m, unsigned i2c,
			       unsigned bank, unsigned page, unsigned offset)
{
	if (!m)
		return NULL;
	if (offset == 0)
		bank = page = 0;
	for (size_t i = 0; i < m->n && i < RD_XCVR_MAX_HALVES; i++) {
		const struct rd_xcvr_half *h = &m->half[i];

		if (h->i2c == i2c && h->bank == bank && h->page == page &&
		    h->offset == offset)
			return h->data;
	}
	return NULL;
}

int rd_xcvr_mem_put(struct rd_xcvr_mem *m, unsigned i2c, unsigned bank,
		    unsigned page, unsigned offset, const uint8_t *data128)
{
	struct rd_xcvr_half *h;
	uint8_t *have;

	if ((offset != 0 && offset != HALF) || i2c > 0x7f || bank > 255 ||
	    page > 255)
		return -EINVAL;
	if (offset == 0)
		bank = page = 0;
	have = (uint8_t *)rd_xcvr_mem_get(m, i2c, bank, page, offset);
	if (have) {
		memcpy(have, data128, HALF);
		return 0;
	}
	if (m->n >= RD_XCVR_MAX_HALVES)
		return -ENOSPC;
	h = &m->half[m->n++];
	h->i2c = (uint8_t)i2c;
	h->bank = (uint8_t)bank;
	h->page = (uint8_t)page;
	h->offset = (uint8_t)offset;
	memcpy(h->data, data128, HALF);
	return 0;
}

/* ---- identifiers and names (SFF-8024) ---- */

enum fam { FAM_NONE, FAM_SFP, FAM_QSFP, FAM_CMIS };

static enum fam family(uint8_t id)
{
	switch (id) {
	case 0x01: /* GBIC */
	case 0x02: /* soldered */
	case 0x03: /* SFP */
		return FAM_SFP;
	case 0x0c: /* QSFP */
	case 0x0d: /* QSFP+ */
	case 0x11: /* QSFP28 */
		return FAM_QSFP;
	case 0x18: /* QSFP-DD */
	case 0x19: /* OSFP */
	case 0x1b: /* DSFP */
	case 0x1e: /* QSFP+ or later with CMIS (QSFP112) */
	case 0x1f: /* SFP-DD */
	case 0x20: /* SFP+ with CMIS */
		return FAM_CMIS;
	}
	return FAM_NONE;
}

struct code_name {
	unsigned code;
	const char *name;
};

static const char *code_find(const struct code_name *t, unsigned code)
{
	for (; t->name; t++)
		if (t->code == code)
			return t->name;
	return NULL;
}

static const struct code_name ident_names[] = {
	{ 0x01, "GBIC" },    { 0x02, "soldered" },
	{ 0x03, "SFP" },     { 0x0c, "QSFP" },
	{ 0x0d, "QSFP+" },   { 0x11, "QSFP28" },
	{ 0x18, "QSFP-DD" }, { 0x19, "OSFP" },
	{ 0x1b, "DSFP" },    { 0x1e, "QSFP+ (CMIS)" },
	{ 0x1f, "SFP-DD" },  { 0x20, "SFP+ (CMIS)" },
	{ 0, NULL },
};

static const struct code_name connector_names[] = {
	{ 0x01, "SC" },
	{ 0x07, "LC" },
	{ 0x0b, "Optical pigtail" },
	{ 0x0c, "MPO 1x12" },
	{ 0x0d, "MPO 2x16" },
	{ 0x21, "Copper pigtail" },
	{ 0x22, "RJ45" },
	{ 0x23, "No separable connector" },
	{ 0x24, "MXC 2x16" },
	{ 0x25, "CS optical connector" },
	{ 0x26, "SN optical connector" },
	{ 0x27, "MPO 2x12" },
	{ 0x28, "MPO 1x16" },
	{ 0x6f, "No separable connector" },
	{ 0, NULL },
};

/* SFF-8024 extended compliance codes (SFF-8472 byte 36, SFF-8636 byte 192) */
static const struct code_name ext_compliance[] = {
	{ 0x01, "100G AOC (BER 5e-5)" },
	{ 0x02, "100GBASE-SR4 or 25GBASE-SR" },
	{ 0x03, "100GBASE-LR4 or 25GBASE-LR" },
	{ 0x04, "100GBASE-ER4 or 25GBASE-ER" },
	{ 0x05, "100GBASE-SR10" },
	{ 0x06, "100G CWDM4" },
	{ 0x07, "100G PSM4" },
	{ 0x08, "100G ACC (BER 5e-5)" },
	{ 0x09, "100G CWDM4 (no FEC)" },
	{ 0x0b, "100GBASE-CR4 or 25GBASE-CR CA-L" },
	{ 0x0c, "25GBASE-CR CA-S" },
	{ 0x0d, "25GBASE-CR CA-N" },
	{ 0x10, "40GBASE-ER4" },
	{ 0x11, "4 x 10GBASE-SR" },
	{ 0x12, "40G PSM4" },
	{ 0x16, "10GBASE-T with SFI" },
	{ 0x17, "100G CLR4" },
	{ 0x18, "100G AOC (BER 1e-12)" },
	{ 0x19, "100G ACC (BER 1e-12)" },
	{ 0x1a, "100GE-DWDM2" },
	{ 0x1c, "10GBASE-T short reach" },
	{ 0x1d, "5GBASE-T" },
	{ 0x1e, "2.5GBASE-T" },
	{ 0x1f, "40G SWDM4" },
	{ 0x20, "100G SWDM4" },
	{ 0x21, "100G PAM4 BiDi" },
	{ 0x25, "100GBASE-DR" },
	{ 0x26, "100G-FR" },
	{ 0x27, "100G-LR" },
	{ 0x30, "200G ACC (BER 1e-6)" },
	{ 0x31, "200G AOC (BER 1e-6)" },
	{ 0x32, "200G ACC (BER 2.6e-4)" },
	{ 0x33, "200G AOC (BER 2.6e-4)" },
	{ 0x40, "50GBASE-CR, 100GBASE-CR2 or 200GBASE-CR4" },
	{ 0x41, "50GBASE-SR, 100GBASE-SR2 or 200GBASE-SR4" },
	{ 0x42, "50GBASE-FR or 200GBASE-DR4" },
	{ 0x43, "200GBASE-FR4" },
	{ 0x44, "200G 1550 nm PSM4" },
	{ 0x45, "50GBASE-LR" },
	{ 0x46, "200GBASE-LR4" },
	{ 0, NULL },
};

/* What an extended compliance code says of the medium, NULL when nothing. */
static const char *ext_media(unsigned code)
{
	switch (code) {
	case 0x01:
	case 0x18:
	case 0x31:
	case 0x33:
		return "active optical";
	case 0x08:
	case 0x19:
	case 0x30:
	case 0x32:
		return "active copper";
	case 0x16:
	case 0x1c:
	case 0x1d:
	case 0x1e:
		return "BASE-T";
	}
	return NULL;
}

/*
 * Transmitter / media interface technology: SFF-8636 byte 147 bits 7:4
 * and CMIS page 00h 0xD4 share these codes (0x0A-0x0F are copper).
 */
static const char *const tech_names[] = {
	"850 nm VCSEL",
	"1310 nm VCSEL",
	"1550 nm VCSEL",
	"1310 nm FP",
	"1310 nm DFB",
	"1550 nm DFB",
	"1310 nm EML",
	"1550 nm EML",
	"other",
	"1490 nm DFB",
	"copper cable, unequalized",
	"copper cable, passive equalized",
	"copper cable, near and far end limiting active equalizers",
	"copper cable, far end limiting active equalizers",
	"copper cable, near end limiting active equalizers",
	"copper cable, linear active equalizers",
	"C-band tunable laser",
	"L-band tunable laser",
};

static bool tech_copper(unsigned t)
{
	return t >= 0x0a && t <= 0x0f;
}

static bool tech_passive(unsigned t)
{
	return t == 0x0a || t == 0x0b;
}

static const char *const module_states[] = {
	NULL,	       "ModuleLowPwr", "ModulePwrUp",
	"ModuleReady", "ModulePwrDn",  "ModuleFault",
};

static const char *const fault_causes[] = {
	"no fault",
	"TEC runaway",
	"data memory corrupted",
	"program memory corrupted",
};

static const char *const dp_states[] = {
	NULL,	       "DPDeactivated", "DPInit",      "DPDeinit",
	"DPActivated", "DPTxTurnOn",	"DPTxTurnOff", "DPInitialized",
};

/* ---- decoding helpers ---- */

struct dec {
	const struct rd_xcvr_mem *m;
	struct rd_xcvr *x;
	int err;
};

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static struct rd_odbl odbl(double v)
{
	return isfinite(v) ? rd_dbl(v) : (struct rd_odbl){ 0 };
}

static void d_str(struct dec *d, char **dst, const char *s)
{
	if (rd_str_set(dst, s) < 0)
		d->err = -ENOMEM;
}

/*
 * A space-padded ASCII field: printable ASCII kept, any other byte '?',
 * leading and trailing spaces (and trailing NULs) dropped. Empty: absent.
 */
static void d_ascii(struct dec *d, char **dst, const uint8_t *p, size_t n)
{
	char s[32];
	size_t a = 0, b = n < sizeof(s) ? n : sizeof(s) - 1;

	while (b > 0 && (p[b - 1] == ' ' || p[b - 1] == 0))
		b--;
	while (a < b && p[a] == ' ')
		a++;
	for (size_t i = a; i < b; i++)
		s[i - a] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	s[b - a] = '\0';
	d_str(d, dst, b > a ? s : NULL);
}

/* Date code "YYMMDD" (then a lot code, dropped) as "20YY-MM-DD". */
static void d_date(struct dec *d, const uint8_t *p)
{
	char s[16];

	for (int i = 0; i < 6; i++)
		if (p[i] < '0' || p[i] > '9')
			return;
	snprintf(s, sizeof(s), "20%c%c-%c%c-%c%c", p[0], p[1], p[2], p[3], p[4],
		 p[5]);
	d_str(d, &d->x->date_code, s);
}

static void d_oui(struct dec *d, const uint8_t *p)
{
	char s[16];

	snprintf(s, sizeof(s), "%02x:%02x:%02x", p[0], p[1], p[2]);
	d_str(d, &d->x->vendor_oui, s);
}

static void d_connector(struct dec *d, uint8_t c)
{
	d->x->connector = rd_u64(c);
	d_str(d, &d->x->connector_name, code_find(connector_names, c));
}

static void d_no_dom(struct dec *d, const char *why)
{
	d->x->dom = rd_bool(false);
	d_str(d, &d->x->no_dom, why);
}

/* Quantities and their units. */
enum q { Q_TEMP, Q_VCC, Q_BIAS, Q_TXP, Q_RXP };

static double rawval(enum q q, const uint8_t *p)
{
	return q == Q_TEMP ? (double)(int16_t)be16(p) : (double)be16(p);
}

static double scale(enum q q, double raw)
{
	switch (q) {
	case Q_TEMP:
		return raw / 256.0;
	case Q_VCC:
		return raw * 1e-4;
	case Q_BIAS:
		return raw * 0.002;
	default:
		return raw * 1e-4;
	}
}

static float befloat(const uint8_t *p)
{
	uint32_t u = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		     (uint32_t)p[2] << 8 | p[3];
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/*
 * SFF-8472 external calibration (A2h 56-91) of a raw reading: slope
 * (unsigned 8.8 fixed point) and signed offset for temperature, Vcc, bias
 * and Tx power; Rx power is the polynomial Rx_PWR(4..0) of the reading
 * (big-endian IEEE-754 floats). ethtool multiplies Rx_PWR(2..4) by the
 * reading itself instead of its powers; this follows the specification.
 * With no constants (a2 NULL) the reading is returned as it is.
 */
static double sfp_calibrate(const uint8_t *a2, enum q q, double raw)
{
	static const uint8_t slope_at[] = {
		[Q_TEMP] = 84,
		[Q_VCC] = 88,
		[Q_BIAS] = 76,
		[Q_TXP] = 80,
	};
	unsigned o;

	if (!a2)
		return raw;
	if (q == Q_RXP) {
		double r4 = befloat(a2 + 56), r3 = befloat(a2 + 60),
		       r2 = befloat(a2 + 64), r1 = befloat(a2 + 68),
		       r0 = befloat(a2 + 72);

		return r0 + raw * (r1 + raw * (r2 + raw * (r3 + raw * r4)));
	}
	o = slope_at[q];
	return raw * (a2[o] + a2[o + 1] / 256.0) + (int16_t)be16(a2 + o + 2);
}

/* One reading at p: calibrated (cal, SFF-8472 only), scaled, times mul. */
static struct rd_odbl reading(const uint8_t *p, enum q q, const uint8_t *cal,
			      double mul)
{
	return odbl(scale(q, sfp_calibrate(cal, q, rawval(q, p))) * mul);
}

/* Four thresholds at p in the order high alarm, low alarm, high warning, low
 * warning. */
static void limits(struct rd_xcvr_limits *l, const uint8_t *p, enum q q,
		   const uint8_t *cal, double mul)
{
	l->high_alarm = reading(p, q, cal, mul);
	l->low_alarm = reading(p + 2, q, cal, mul);
	l->high_warn = reading(p + 4, q, cal, mul);
	l->low_warn = reading(p + 6, q, cal, mul);
}

static struct rd_ou64 flags4(bool ha, bool la, bool hw, bool lw)
{
	return rd_u64((ha ? RD_XCVR_F_HIGH_ALARM : 0) |
		      (la ? RD_XCVR_F_LOW_ALARM : 0) |
		      (hw ? RD_XCVR_F_HIGH_WARN : 0) |
		      (lw ? RD_XCVR_F_LOW_WARN : 0));
}

/* SFF-8636 nibble: bit 3 high alarm, 2 low alarm, 1 high warning, 0 low
 * warning. */
static struct rd_ou64 nib_flags(unsigned n)
{
	return flags4(n & 8, n & 4, n & 2, n & 1);
}

static int lanes_make(struct dec *d, unsigned n)
{
	for (unsigned i = 1; i <= n; i++) {
		struct rd_xcvr_lane *l = RD_PUSH(d->x->lanes, d->x->n_lanes);

		if (!l) {
			d->err = -ENOMEM;
			return -ENOMEM;
		}
		l->lane = i;
	}
	return 0;
}

static double max3(double a, double b, double c)
{
	double m = a > b ? a : b;

	return m > c ? m : c;
}

/* ---- SFF-8472 ---- */

static const char *sfp_detail(const uint8_t *a0)
{
	static const char *const b3[] = { "10GBASE-SR", "10GBASE-LR",
					  "10GBASE-LRM", "10GBASE-ER" };
	static const char *const b6[] = { "1000BASE-SX",  "1000BASE-LX",
					  "1000BASE-CX",  "1000BASE-T",
					  "100BASE-LX10", "100BASE-FX",
					  "BASE-BX10",	  "BASE-PX" };
	const char *s = code_find(ext_compliance, a0[36]);

	if (s)
		return s;
	for (int i = 3; i >= 0; i--)
		if (a0[3] & (0x10 << i))
			return b3[i];
	for (int i = 0; i < 8; i++)
		if (a0[6] & (1 << i))
			return b6[i];
	if (a0[8] & 0x04)
		return "SFP+ passive cable";
	if (a0[8] & 0x08)
		return "SFP+ active cable";
	return NULL;
}

static void sfp_media(struct dec *d, const uint8_t *a0, bool passive,
		      bool active)
{
	struct rd_xcvr *x = d->x;
	const char *media = ext_media(a0[36]);
	double len;

	if (!media) {
		if (passive)
			media = "passive copper";
		else if (active)
			media = "active copper";
		else if ((a0[6] & 0x08) || a0[2] == 0x22)
			media = "BASE-T";
		else
			media = "optical";
	}
	d_str(d, &x->media, media);
	d_str(d, &x->media_detail, sfp_detail(a0));
	/*
	 * length_m: a copper cable's own length (byte 18, m); for an optic
	 * the longest reach it states: SMF (byte 14 km, 15 x 100 m), OM2 (16),
	 * OM1 (17), OM4 (18) and OM3 (19), each x 10 m.
	 */
	if (passive || active) {
		len = a0[18];
	} else {
		len = max3(a0[14] * 1000.0, a0[15] * 100.0, a0[16] * 10.0);
		len = max3(len, a0[17] * 10.0, a0[18] * 10.0);
		len = max3(len, a0[19] * 10.0, 0);
		if (be16(a0 + 60))
			x->wavelength_nm = rd_dbl(be16(a0 + 60));
	}
	if (len > 0)
		x->length_m = rd_dbl(len);
}

static void dec_sfp(struct dec *d, const uint8_t *a0)
{
	struct rd_xcvr *x = d->x;
	bool passive = a0[8] & 0x04, active = a0[8] & 0x08;
	const uint8_t *a2, *cal;
	struct rd_xcvr_lane *l;

	d_str(d, &x->spec, "SFF-8472");
	d_connector(d, a0[2]);
	d_ascii(d, &x->vendor, a0 + 20, 16);
	d_oui(d, a0 + 37);
	d_ascii(d, &x->part_number, a0 + 40, 16);
	d_ascii(d, &x->revision, a0 + 56, 4);
	d_ascii(d, &x->serial, a0 + 68, 16);
	d_date(d, a0 + 84);
	if (a0[12] == 0xff && a0[66])
		x->nominal_mbps = rd_u64(a0[66] * 250u);
	else if (a0[12] && a0[12] != 0xff)
		x->nominal_mbps = rd_u64(a0[12] * 100u);
	x->media_lanes = rd_u64(1);
	sfp_media(d, a0, passive, active);
	if (lanes_make(d, 1) < 0)
		return;
	if (!(a0[92] & 0x40)) {
		d_no_dom(d, passive ? "passive copper has no diagnostics"
				    : "the module implements no diagnostics "
				      "(A0h byte 92 bit 6 clear)");
		return;
	}
	x->dom = rd_bool(true);
	x->rx_power_is_oma = rd_bool(!(a0[92] & 0x08));
	x->ext_calibrated = rd_bool(a0[92] & 0x10);
	a2 = rd_xcvr_mem_get(d->m, I2C_A2, 0, 0, 0);
	if (!a2)
		return;
	cal = (a0[92] & 0x10) ? a2 : NULL;
	l = &x->lanes[0];
	x->temperature_c = reading(a2 + 96, Q_TEMP, cal, 1);
	x->vcc_v = reading(a2 + 98, Q_VCC, cal, 1);
	l->tx_bias_ma = reading(a2 + 100, Q_BIAS, cal, 1);
	l->tx_power_mw = reading(a2 + 102, Q_TXP, cal, 1);
	l->rx_power_mw = reading(a2 + 104, Q_RXP, cal, 1);
	limits(&x->temperature_limits, a2 + 0, Q_TEMP, cal, 1);
	limits(&x->vcc_limits, a2 + 8, Q_VCC, cal, 1);
	limits(&x->tx_bias_limits, a2 + 16, Q_BIAS, cal, 1);
	limits(&x->tx_power_limits, a2 + 24, Q_TXP, cal, 1);
	limits(&x->rx_power_limits, a2 + 32, Q_RXP, cal, 1);
	if (a0[93] & 0x80) {
		/* alarms 112-113, warnings 116-117: high bit then low bit */
		const uint8_t *al = a2 + 112, *wa = a2 + 116;

		x->temperature_flags = flags4(al[0] & 0x80, al[0] & 0x40,
					      wa[0] & 0x80, wa[0] & 0x40);
		x->vcc_flags = flags4(al[0] & 0x20, al[0] & 0x10, wa[0] & 0x20,
				      wa[0] & 0x10);
		l->tx_bias_flags = flags4(al[0] & 0x08, al[0] & 0x04,
					  wa[0] & 0x08, wa[0] & 0x04);
		l->tx_power_flags = flags4(al[0] & 0x02, al[0] & 0x01,
					   wa[0] & 0x02, wa[0] & 0x01);
		l->rx_power_flags = flags4(al[1] & 0x80, al[1] & 0x40,
					   wa[1] & 0x80, wa[1] & 0x40);
	}
	/* A2h byte 110: the present state of the pins, not latched. */
	if (a0[65] & 0x02)
		l->rx_los = rd_bool(a2[110] & 0x02);
	if (a0[65] & 0x08)
		l->tx_fault = rd_bool(a2[110] & 0x04);
}

/* ---- SFF-8636 ---- */

static const char *qsfp_detail(const uint8_t *p0)
{
	static const char *const b131[] = {
		"40G active cable (XLPPI)",
		"40GBASE-LR4",
		"40GBASE-SR4",
		"40GBASE-CR4",
		"10GBASE-SR",
		"10GBASE-LR",
		"10GBASE-LRM",
	};
	unsigned c = U(p0, 131);

	if (c & 0x80) {
		const char *s = code_find(ext_compliance, U(p0, 192));

		if (s)
			return s;
	}
	for (int i = 6; i >= 0; i--)
		if (c & (1 << i))
			return b131[i];
	return NULL;
}

static void qsfp_page0(struct dec *d, const uint8_t *p0)
{
	static const double class_w[] = { 1.5, 2.0, 2.5, 3.5, 4.0, 4.5, 5.0 };
	struct rd_xcvr *x = d->x;
	unsigned tech = U(p0, 147) >> 4, pc = U(p0, 129);
	unsigned cls = (pc & 0x03) ? 4 + (pc & 0x03) : ((pc >> 6) & 3) + 1;
	const char *media = ext_media(U(p0, 131) & 0x80 ? U(p0, 192) : 0);
	bool cable = tech_copper(tech) || U(p0, 130) == 0x23;
	double len;

	d_connector(d, U(p0, 130));
	d_ascii(d, &x->vendor, &U(p0, 148), 16);
	d_oui(d, &U(p0, 165));
	d_ascii(d, &x->part_number, &U(p0, 168), 16);
	d_ascii(d, &x->revision, &U(p0, 184), 2);
	d_ascii(d, &x->serial, &U(p0, 196), 16);
	d_date(d, &U(p0, 212));
	x->power_class = rd_u64(cls);
	x->max_power_w = rd_dbl(class_w[cls - 1]);
	if (U(p0, 140) == 0xff && U(p0, 222))
		x->nominal_mbps = rd_u64(U(p0, 222) * 250u);
	else if (U(p0, 140) && U(p0, 140) != 0xff)
		x->nominal_mbps = rd_u64(U(p0, 140) * 100u);
	if (tech_copper(tech))
		media = tech_passive(tech) ? "passive copper" : "active copper";
	else if (!media)
		media = U(p0, 130) == 0x23 ? "active optical" : "optical";
	d_str(d, &x->media, media);
	d_str(d, &x->media_detail, qsfp_detail(p0));
	/*
	 * length_m: a cable assembly's own length (copper or AOC, byte 146,
	 * m); for an optic the longest reach it states: SMF (142, km), OM3
	 * (143, x 2 m), OM2 (144, m), OM1 (145, m), OM4 (146, x 2 m).
	 */
	if (cable) {
		len = U(p0, 146);
	} else {
		len = max3(U(p0, 142) * 1000.0, U(p0, 143) * 2.0, U(p0, 144));
		len = max3(len, U(p0, 145), U(p0, 146) * 2.0);
	}
	if (len > 0)
		x->length_m = rd_dbl(len);
	/* 186-187: wavelength x 0.05 nm, or copper attenuation for copper */
	if (!tech_copper(tech) && be16(&U(p0, 186)))
		x->wavelength_nm = rd_dbl(be16(&U(p0, 186)) * 0.05);
	x->rx_power_is_oma = rd_bool(!(U(p0, 220) & 0x08));
}

/* Which per-lane signals page 00h options say exist (ethtool's rules). */
static void qsfp_signals(struct dec *d, const uint8_t *lo, const uint8_t *p0)
{
	unsigned o3 = U(p0, 194), o4 = U(p0, 195);

	for (unsigned i = 0; i < 4 && i < d->x->n_lanes; i++) {
		struct rd_xcvr_lane *l = &d->x->lanes[i];

		/* no Rx LOS support bit: the Tx LOS one stands for both */
		if (o4 & 0x02) {
			l->rx_los = rd_bool(lo[3] & (1u << i));
			l->tx_los = rd_bool(lo[3] & (0x10u << i));
		}
		if (o3 & 0x10)
			l->rx_lol = rd_bool(lo[5] & (1u << i));
		if (o3 & 0x20)
			l->tx_lol = rd_bool(lo[5] & (0x10u << i));
		if (o4 & 0x08)
			l->tx_fault = rd_bool(lo[4] & (1u << i));
	}
}

static void qsfp_dom(struct dec *d, const uint8_t *lo, const uint8_t *p3,
		     bool flat)
{
	struct rd_xcvr *x = d->x;

	x->dom = rd_bool(true);
	x->temperature_c = reading(lo + 22, Q_TEMP, NULL, 1);
	x->vcc_v = reading(lo + 26, Q_VCC, NULL, 1);
	for (unsigned i = 0; i < 4 && i < x->n_lanes; i++) {
		struct rd_xcvr_lane *l = &x->lanes[i];
		unsigned shift = (i & 1) ? 0 : 4;

		l->rx_power_mw = reading(lo + 34 + 2 * i, Q_RXP, NULL, 1);
		l->tx_bias_ma = reading(lo + 42 + 2 * i, Q_BIAS, NULL, 1);
		l->tx_power_mw = reading(lo + 50 + 2 * i, Q_TXP, NULL, 1);
		/* flags exist when the memory is paged (ethtool's rule) */
		if (flat)
			continue;
		l->rx_power_flags = nib_flags(lo[9 + i / 2] >> shift);
		l->tx_bias_flags = nib_flags(lo[11 + i / 2] >> shift);
		l->tx_power_flags = nib_flags(lo[13 + i / 2] >> shift);
	}
	if (!flat) {
		x->temperature_flags = nib_flags(lo[6] >> 4);
		x->vcc_flags = nib_flags(lo[7] >> 4);
	}
	if (!p3)
		return;
	limits(&x->temperature_limits, &U(p3, 128), Q_TEMP, NULL, 1);
	limits(&x->vcc_limits, &U(p3, 144), Q_VCC, NULL, 1);
	limits(&x->rx_power_limits, &U(p3, 176), Q_RXP, NULL, 1);
	limits(&x->tx_bias_limits, &U(p3, 184), Q_BIAS, NULL, 1);
	limits(&x->tx_power_limits, &U(p3, 192), Q_TXP, NULL, 1);
}

static void dec_qsfp(struct dec *d, const uint8_t *lo)
{
	struct rd_xcvr *x = d->x;
	bool flat = lo[2] & 0x04;
	const uint8_t *p0 = rd_xcvr_mem_get(d->m, I2C_A0, 0, 0, HALF);
	const uint8_t *p3 =
		flat ? NULL : rd_xcvr_mem_get(d->m, I2C_A0, 0, 3, HALF);
	unsigned traw = be16(lo + 22);
	char why[96];

	d_str(d, &x->spec, "SFF-8636");
	x->flat_memory = rd_bool(flat);
	x->media_lanes = rd_u64(4);
	if (lanes_make(d, 4) < 0)
		return;
	if (p0) {
		qsfp_page0(d, p0);
		qsfp_signals(d, lo, p0);
	}
	if (p0 && tech_passive(U(p0, 147) >> 4)) {
		d_no_dom(d, "passive copper has no diagnostics");
	} else if (traw == 0 || traw == 0xffff) {
		/* ethtool's rule: a temperature of 0 or 0xFFFF means no DOM */
		snprintf(why, sizeof(why),
			 "temperature reads 0x%04x: the module reports no "
			 "diagnostics",
			 traw);
		d_no_dom(d, why);
	} else {
		qsfp_dom(d, lo, p3, flat);
	}
}

/* ---- CMIS ---- */

static unsigned cmis_banks(const uint8_t *p1)
{
	switch (U(p1, 0x8e) & 0x03) {
	case 1:
		return 2;
	case 2:
		return 4;
	default:
		return 1;
	}
}

static void cmis_state(struct dec *d, const uint8_t *lo)
{
	struct rd_xcvr *x = d->x;
	unsigned st = (lo[3] >> 1) & 0x07, fc = lo[0x29];
	char s[32];

	x->module_state_num = rd_u64(st);
	if (st >= 1 && st <= 5) {
		d_str(d, &x->module_state, module_states[st]);
	} else {
		snprintf(s, sizeof(s), "reserved (%u)", st);
		d_str(d, &x->module_state, s);
	}
	if (st != 5)
		return;
	if (fc < sizeof(fault_causes) / sizeof(fault_causes[0])) {
		d_str(d, &x->fault_cause, fault_causes[fc]);
	} else {
		snprintf(s, sizeof(s), "fault code 0x%02x", fc);
		d_str(d, &x->fault_cause, s);
	}
}

static void cmis_media(struct dec *d, const uint8_t *lo, const uint8_t *p0,
		       const uint8_t *p1)
{
	struct rd_xcvr *x = d->x;
	unsigned tech = U(p0, 0xd4), mt = lo[0x55], cl = U(p0, 0xca);
	static const double mul[] = { 0.1, 1, 10, 100 };
	const char *media = NULL;
	bool cable = mt == 3 || mt == 4 || tech_copper(tech);
	double len = 0;

	if (mt == 1 || mt == 2)
		media = "optical";
	else if (mt == 5)
		media = "BASE-T";
	else if (tech_copper(tech))
		media = tech_passive(tech) ? "passive copper" : "active copper";
	else if (mt == 4)
		media = "active optical";
	else if (mt == 3)
		media = "passive copper";
	d_str(d, &x->media, media);
	if (tech < sizeof(tech_names) / sizeof(tech_names[0]))
		d_str(d, &x->media_detail, tech_names[tech]);
	/*
	 * length_m: a cable assembly's own length (0xCA: bits 5:0 times
	 * 0.1/1/10/100 m by bits 7:6; 0xFF is "more than 6.3 km", absent);
	 * for an optic the longest reach page 01h states: SMF (0x84, 0.1 or
	 * 1 km units), OM5/OM4/OM3 (0x85-0x87, x 2 m), OM2 (0x88, m).
	 */
	if ((cable || !p1) && cl != 0xff)
		len = (cl & 0x3f) * mul[cl >> 6];
	else if (p1)
		len = max3((U(p1, 0x84) & 0x3f) * 1000.0 *
				   ((U(p1, 0x84) & 0xc0) ? 1 : 0.1),
			   max3(U(p1, 0x85), U(p1, 0x86), U(p1, 0x87)) * 2.0,
			   U(p1, 0x88));
	if (len > 0)
		x->length_m = rd_dbl(len);
	if (p1 && !tech_copper(tech) && be16(&U(p1, 0x8a)))
		x->wavelength_nm = rd_dbl(be16(&U(p1, 0x8a)) * 0.05);
}

static void cmis_page0(struct dec *d, const uint8_t *lo, const uint8_t *p0,
		       const uint8_t *p1)
{
	struct rd_xcvr *x = d->x;

	d_connector(d, U(p0, 0xcb));
	d_ascii(d, &x->vendor, &U(p0, 0x81), 16);
	d_oui(d, &U(p0, 0x91));
	d_ascii(d, &x->part_number, &U(p0, 0x94), 16);
	d_ascii(d, &x->revision, &U(p0, 0xa4), 2);
	d_ascii(d, &x->serial, &U(p0, 0xa6), 16);
	d_date(d, &U(p0, 0xb6));
	x->power_class = rd_u64(((U(p0, 0xc8) >> 5) & 7) + 1);
	x->max_power_w = rd_dbl(U(p0, 0xc9) * 0.25);
	cmis_media(d, lo, p0, p1);
}

/* Per-lane monitors and flags in page 11h of the lane's bank. */
static void cmis_lane(struct dec *d, struct rd_xcvr_lane *l, unsigned idx,
		      const uint8_t *p1, bool dom)
{
	unsigned j = idx % 8, bit = 1u << j, dp, bm;
	/* without page 01h: powers and flags read, bias (scale unknown) not */
	unsigned mon = p1 ? U(p1, 0xa0) : 0x06;
	unsigned adv_tx = p1 ? U(p1, 0x9d) : 0xff;
	unsigned adv_rx = p1 ? U(p1, 0x9e) : 0xff;
	const uint8_t *p = rd_xcvr_mem_get(d->m, I2C_A0, idx / 8, 0x11, HALF);
	char s[32];

	if (!p)
		return;
	dp = (U(p, 0x80 + j / 2) >> ((j & 1) * 4)) & 0x0f;
	if (dp >= 1 && dp <= 7) {
		d_str(d, &l->datapath_state, dp_states[dp]);
	} else {
		snprintf(s, sizeof(s), "reserved (%u)", dp);
		d_str(d, &l->datapath_state, s);
	}
	if (adv_tx & 0x01)
		l->tx_fault = rd_bool(U(p, 0x87) & bit);
	if (adv_tx & 0x02)
		l->tx_los = rd_bool(U(p, 0x88) & bit);
	if (adv_tx & 0x04)
		l->tx_lol = rd_bool(U(p, 0x89) & bit);
	if (adv_rx & 0x02)
		l->rx_los = rd_bool(U(p, 0x93) & bit);
	if (adv_rx & 0x04)
		l->rx_lol = rd_bool(U(p, 0x94) & bit);
	if (!dom)
		return;
	bm = p1 ? (U(p1, 0xa0) >> 3) & 3 : 3;
	if ((mon & 0x01) && bm < 3) {
		l->tx_bias_ma =
			reading(&U(p, 0xaa + 2 * j), Q_BIAS, NULL, 1 << bm);
		l->tx_bias_flags = flags4(U(p, 0x8f) & bit, U(p, 0x90) & bit,
					  U(p, 0x91) & bit, U(p, 0x92) & bit);
	}
	if (mon & 0x02) {
		l->tx_power_mw = reading(&U(p, 0x9a + 2 * j), Q_TXP, NULL, 1);
		l->tx_power_flags = flags4(U(p, 0x8b) & bit, U(p, 0x8c) & bit,
					   U(p, 0x8d) & bit, U(p, 0x8e) & bit);
	}
	if (mon & 0x04) {
		l->rx_power_mw = reading(&U(p, 0xba + 2 * j), Q_RXP, NULL, 1);
		l->rx_power_flags = flags4(U(p, 0x95) & bit, U(p, 0x96) & bit,
					   U(p, 0x97) & bit, U(p, 0x98) & bit);
	}
}

static void cmis_dom(struct dec *d, const uint8_t *lo, const uint8_t *p1,
		     const uint8_t *p2)
{
	struct rd_xcvr *x = d->x;
	unsigned bm = p1 ? (U(p1, 0xa0) >> 3) & 3 : 3;

	x->dom = rd_bool(true);
	x->temperature_c = reading(lo + 0x0e, Q_TEMP, NULL, 1);
	x->vcc_v = reading(lo + 0x10, Q_VCC, NULL, 1);
	x->temperature_flags =
		flags4(lo[9] & 0x01, lo[9] & 0x02, lo[9] & 0x04, lo[9] & 0x08);
	x->vcc_flags =
		flags4(lo[9] & 0x10, lo[9] & 0x20, lo[9] & 0x40, lo[9] & 0x80);
	if (p1)
		x->rx_power_is_oma = rd_bool(!(U(p1, 0x97) & 0x10));
	if (!p2)
		return;
	limits(&x->temperature_limits, &U(p2, 0x80), Q_TEMP, NULL, 1);
	limits(&x->vcc_limits, &U(p2, 0x88), Q_VCC, NULL, 1);
	limits(&x->tx_power_limits, &U(p2, 0xb0), Q_TXP, NULL, 1);
	if (bm < 3)
		limits(&x->tx_bias_limits, &U(p2, 0xb8), Q_BIAS, NULL, 1 << bm);
	limits(&x->rx_power_limits, &U(p2, 0xc0), Q_RXP, NULL, 1);
}

/*
 * Host lanes by form factor: page 11h has 8 per bank, but a QSFP (0x1E)
 * has 4 electrical lanes, an SFP-DD or DSFP 2 and an SFP+ 1; QSFP-DD and
 * OSFP have 8 per bank (lanes 9-16 are bank 1's). The first application's
 * host lane count is one instance of it, not the module's width.
 */
static unsigned cmis_host_lanes(uint8_t id, unsigned banks)
{
	switch (id) {
	case 0x1e:
		return 4;
	case 0x1b:
	case 0x1f:
		return 2;
	case 0x20:
		return 1;
	default:
		return 8 * banks;
	}
}

static void dec_cmis(struct dec *d, const uint8_t *lo)
{
	struct rd_xcvr *x = d->x;
	bool flat = lo[2] & 0x80, passive;
	const uint8_t *p0 = rd_xcvr_mem_get(d->m, I2C_A0, 0, 0, HALF);
	const uint8_t *p1 =
		flat ? NULL : rd_xcvr_mem_get(d->m, I2C_A0, 0, 1, HALF);
	const uint8_t *p2 =
		flat ? NULL : rd_xcvr_mem_get(d->m, I2C_A0, 0, 2, HALF);
	unsigned banks = p1 ? cmis_banks(p1) : 1, media = 0, nl;
	char s[32];

	snprintf(s, sizeof(s), "CMIS %u.%u", lo[1] >> 4, lo[1] & 0x0f);
	d_str(d, &x->spec, s);
	x->flat_memory = rd_bool(flat);
	cmis_state(d, lo);
	snprintf(s, sizeof(s), "%u.%u", lo[0x27], lo[0x28]);
	d_str(d, &x->firmware, s);
	/*
	 * The first application advertised (lower page 86-89): its media
	 * lanes times the instances its host lane assignment allows (byte 89,
	 * one bit per host lane an instance may start on).
	 */
	if (lo[0x56] != 0 && lo[0x56] != 0xff)
		media = (lo[0x58] & 0x0f) *
			(unsigned)__builtin_popcount(lo[0x59] ? lo[0x59] : 1);
	if (media)
		x->media_lanes = rd_u64(media);
	else if (p1)
		x->media_lanes = rd_u64(8 * banks);
	if (p0)
		cmis_page0(d, lo, p0, p1);
	passive = lo[0x55] == 3 || (p0 && tech_passive(U(p0, 0xd4)));
	if (passive)
		d_no_dom(d, "passive copper has no diagnostics");
	else
		cmis_dom(d, lo, p1, p2);
	if (flat)
		return;
	nl = cmis_host_lanes(lo[0], banks);
	if (lanes_make(d, nl) < 0)
		return;
	for (unsigned i = 0; i < nl; i++)
		cmis_lane(d, &x->lanes[i], i, p1, !passive);
}

int rd_xcvr_decode(const struct rd_xcvr_mem *m, struct rd_xcvr *x)
{
	const uint8_t *lo = rd_xcvr_mem_get(m, I2C_A0, 0, 0, 0);
	struct dec d = { .m = m, .x = x };
	const char *type;
	char s[32];

	if (!lo || !x)
		return -EINVAL;
	/* lanes are rebuilt: a second decode into x does not append */
	for (size_t i = 0; i < x->n_lanes; i++)
		free(x->lanes[i].datapath_state);
	free(x->lanes);
	x->lanes = NULL;
	x->n_lanes = 0;
	x->identifier = rd_u64(lo[0]);
	type = code_find(ident_names, lo[0]);
	if (!type) {
		snprintf(s, sizeof(s), "unknown (0x%02x)", lo[0]);
		type = s;
	}
	d_str(&d, &x->type, type);
	switch (family(lo[0])) {
	case FAM_SFP:
		dec_sfp(&d, lo);
		break;
	case FAM_QSFP:
		dec_qsfp(&d, lo);
		break;
	case FAM_CMIS:
		dec_cmis(&d, lo);
		break;
	default:
		break;
	}
	return d.err;
}

/* ---- what to read ---- */

struct plan {
	const struct rd_xcvr_mem *m;
	struct rd_xcvr_req *out;
	size_t max, n;
};

static void want(struct plan *p, unsigned i2c, unsigned bank, unsigned page,
		 unsigned offset)
{
	if (p->n >= p->max || rd_xcvr_mem_get(p->m, i2c, bank, page, offset))
		return;
	p->out[p->n++] = (struct rd_xcvr_req){ (uint8_t)i2c, (uint8_t)bank,
					       (uint8_t)page, (uint8_t)offset };
}

size_t rd_xcvr_plan(const struct rd_xcvr_mem *m, unsigned kinds,
		    struct rd_xcvr_req *out, size_t max)
{
	struct plan p = { .m = m, .out = out, .max = out ? max : 0 };
	const uint8_t *lo = rd_xcvr_mem_get(m, I2C_A0, 0, 0, 0), *p1;
	bool id = kinds & RD_XCVR_IDENT, dg = kinds & RD_XCVR_DIAG;
	unsigned banks;

	if (!lo) {
		want(&p, I2C_A0, 0, 0, 0);
		return p.n;
	}
	switch (family(lo[0])) {
	case FAM_SFP:
		if ((id || dg) && (lo[92] & 0x40))
			want(&p, I2C_A2, 0, 0, 0);
		break;
	case FAM_QSFP:
		if (id || dg)
			want(&p, I2C_A0, 0, 0, HALF);
		if (id && !(lo[2] & 0x04))
			want(&p, I2C_A0, 0, 3, HALF);
		break;
	case FAM_CMIS:
		if (id)
			want(&p, I2C_A0, 0, 0, HALF);
		if (lo[2] & 0x80)
			break;
		if (id || dg)
			want(&p, I2C_A0, 0, 1, HALF);
		if (id)
			want(&p, I2C_A0, 0, 2, HALF);
		if (!dg)
			break;
		p1 = rd_xcvr_mem_get(m, I2C_A0, 0, 1, HALF);
		banks = p1 ? cmis_banks(p1) : 1;
		for (unsigned b = 0; b < banks; b++)
			want(&p, I2C_A0, b, 0x11, HALF);
		break;
	default:
		break;
	}
	return p.n;
}

static void live(struct rd_xcvr_req *out, size_t max, size_t *n, unsigned i2c,
		 unsigned bank, unsigned page, unsigned offset)
{
	if (*n < max)
		out[(*n)++] = (struct rd_xcvr_req){ (uint8_t)i2c, (uint8_t)bank,
						    (uint8_t)page,
						    (uint8_t)offset };
}

size_t rd_xcvr_live(const struct rd_xcvr_mem *m, struct rd_xcvr_req *out,
		    size_t max)
{
	const uint8_t *lo = rd_xcvr_mem_get(m, I2C_A0, 0, 0, 0), *p1;
	size_t n = 0;
	unsigned banks;

	if (!lo)
		return 0;
	switch (family(lo[0])) {
	case FAM_SFP:
		if (lo[92] & 0x40)
			live(out, max, &n, I2C_A2, 0, 0, 0);
		break;
	case FAM_QSFP:
		live(out, max, &n, I2C_A0, 0, 0, 0);
		break;
	case FAM_CMIS:
		live(out, max, &n, I2C_A0, 0, 0, 0);
		if (lo[2] & 0x80)
			break;
		p1 = rd_xcvr_mem_get(m, I2C_A0, 0, 1, HALF);
		banks = p1 ? cmis_banks(p1) : 1;
		for (unsigned b = 0; b < banks; b++)
			live(out, max, &n, I2C_A0, b, 0x11, HALF);
		break;
	default:
		break;
	}
	return n;
}

/* ---- raw pages in the model ---- */

static void pages_free(struct rd_xcvr *x)
{
	for (size_t i = 0; i < x->n_pages; i++)
		free(x->pages[i].hex);
	free(x->pages);
	x->pages = NULL;
	x->n_pages = 0;
}

int rd_xcvr_pages_save(const struct rd_xcvr_mem *m, struct rd_xcvr *x)
{
	static const char hexd[] = "0123456789abcdef";

	pages_free(x);
	for (size_t i = 0; i < m->n && i < RD_XCVR_MAX_HALVES; i++) {
		const struct rd_xcvr_half *h = &m->half[i];
		struct rd_xcvr_page *p = RD_PUSH(x->pages, x->n_pages);
		char *s = malloc(2 * HALF + 1);

		if (!p || !s) {
			free(s);
			return -ENOMEM;
		}
		for (int k = 0; k < HALF; k++) {
			s[2 * k] = hexd[h->data[k] >> 4];
			s[2 * k + 1] = hexd[h->data[k] & 0x0f];
		}
		s[2 * HALF] = '\0';
		p->i2c = h->i2c;
		p->bank = h->bank;
		p->page = h->page;
		p->offset = h->offset;
		p->hex = s;
	}
	return 0;
}

int rd_xcvr_pages_load(const struct rd_xcvr *x, struct rd_xcvr_mem *m)
{
	uint8_t data[HALF];
	int ret;

	m->n = 0;
	for (size_t i = 0; i < x->n_pages; i++) {
		const struct rd_xcvr_page *p = &x->pages[i];

		if (!p->hex || strlen(p->hex) != 2 * HALF || p->i2c > 0x7f ||
		    p->bank > 255 || p->page > 255)
			goto bad;
		for (int k = 0; k < HALF; k++) {
			int hi = rd_hex_digit(p->hex[2 * k]),
			    lo = rd_hex_digit(p->hex[2 * k + 1]);

			if (hi < 0 || lo < 0)
				goto bad;
			data[k] = (uint8_t)(hi << 4 | lo);
		}
		ret = rd_xcvr_mem_put(m, (unsigned)p->i2c, (unsigned)p->bank,
				      (unsigned)p->page, (unsigned)p->offset,
				      data);
		if (ret < 0) {
			m->n = 0;
			return ret;
		}
	}
	return 0;
bad:
	m->n = 0;
	return -EINVAL;
}

/* ---- dumps ---- */

/* Linear space kept from a dump: the lower half and pages 00h-12h. */
#define LIN_MAX (HALF * 20)

/*
 * The complete halves of a linear ioctl blob into m (seen: which bytes
 * the dump had, NULL for all). SFP: A0h 0-255, A2h at 256-511; else the
 * lower half, then upper page N at 128 * (N + 1).
 */
static void linear_put(struct rd_xcvr_mem *m, const uint8_t *buf,
		       const uint8_t *seen, size_t len)
{
	bool sfp = false;

	for (size_t k = 0; (k + 1) * HALF <= len; k++) {
		const uint8_t *s = seen ? seen + k * HALF : NULL;
		bool whole = true;

		for (size_t i = 0; s && i < HALF; i++)
			whole = whole && s[i];
		if (!whole)
			continue;
		if (k == 0)
			sfp = family(buf[0]) == FAM_SFP;
		if (sfp && k < 4)
			rd_xcvr_mem_put(m, k < 2 ? I2C_A0 : I2C_A2, 0, 0,
					(k & 1) * HALF, buf + k * HALF);
		else if (!sfp)
			rd_xcvr_mem_put(m, I2C_A0, 0, k ? (unsigned)k - 1 : 0,
					k ? HALF : 0, buf + k * HALF);
	}
}

int rd_xcvr_mem_from_raw(const uint8_t *buf, size_t len, struct rd_xcvr_mem *m)
{
	m->n = 0;
	if (!buf || len < HALF)
		return -EINVAL;
	linear_put(m, buf, NULL, len < LIN_MAX ? len : LIN_MAX);
	return m->n ? 0 : -EINVAL;
}

/* A block of hex text being read: where it goes and the bytes it had. */
struct hexblk {
	bool located; /* a page (bank, i2c) was named for it */
	unsigned i2c, bank, page;
	uint8_t buf[2 * HALF], seen[2 * HALF];
	bool any;
};

static void hexblk_flush(struct hexblk *b, struct rd_xcvr_mem *m)
{
	for (unsigned h = 0; b->located && b->any && h < 2; h++) {
		bool whole = true;

		for (unsigned i = 0; i < HALF; i++)
			whole = whole && b->seen[h * HALF + i];
		if (whole)
			rd_xcvr_mem_put(m, b->i2c, b->bank, h ? b->page : 0,
					h * HALF, b->buf + h * HALF);
	}
	memset(b, 0, sizeof(*b));
}

/* The number after a keyword: decimal, 0x-hex or hex with an 'h' suffix. */
static bool keyword_num(const char *s, const char *e, const char *kw,
			unsigned *v)
{
	size_t n = strlen(kw);

	for (const char *p = s; p + n <= e; p++) {
		const char *q = p + n;
		unsigned long x = 0;
		const char *r;
		int base = 10;

		if (strncasecmp(p, kw, n) != 0 ||
		    (p > s && ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z')))
			continue;
		while (q < e &&
		       (*q == ' ' || *q == '\t' || *q == '=' || *q == ':'))
			q++;
		if (q == e || rd_hex_digit(*q) < 0)
			continue;
		if (q + 1 < e && q[0] == '0' && (q[1] | 0x20) == 'x') {
			q += 2;
			base = 16;
		}
		for (r = q; r < e && rd_hex_digit(*r) >= 0; r++)
			;
		if (base == 10 && r < e && (*r | 0x20) == 'h')
			base = 16;
		for (const char *t = q; t < r && x <= 0xffff; t++) {
			if (rd_hex_digit(*t) >= base)
				return false;
			x = x * base + (unsigned long)rd_hex_digit(*t);
		}
		if (r == q || x > 0xffff)
			return false;
		*v = (unsigned)x;
		return true;
	}
	return false;
}

/* A data line "0xOOOO:" then bytes; false when the line is not one. */
static bool hex_line(const char *s, const char *e, struct hexblk *b,
		     uint8_t *lin, uint8_t *lseen)
{
	unsigned long off = 0;
	const char *p = s;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 4 || p[0] != '0' || (p[1] | 0x20) != 'x')
		return false;
	for (p += 2; p < e && rd_hex_digit(*p) >= 0 && off <= 0xffffff; p++)
		off = off * 16 + (unsigned long)rd_hex_digit(*p);
	if (p == e || *p != ':')
		return false;
	for (p++; p < e;) {
		int hi, lo;

		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (e - p < 2)
			break;
		hi = rd_hex_digit(p[0]);
		lo = rd_hex_digit(p[1]);
		if (hi < 0 || lo < 0 ||
		    (e - p > 2 && p[2] != ' ' && p[2] != '\t' && p[2] != '\r'))
			break;
		if (b->located && off < sizeof(b->buf)) {
			b->buf[off] = (uint8_t)(hi << 4 | lo);
			b->seen[off] = 1;
		} else if (!b->located && off < LIN_MAX) {
			lin[off] = (uint8_t)(hi << 4 | lo);
			lseen[off] = 1;
		}
		b->any = true;
		off++;
		p += 2;
	}
	return true;
}

int rd_xcvr_mem_from_hex(const char *text, size_t len, struct rd_xcvr_mem *m)
{
	uint8_t *lin = calloc(2, LIN_MAX), *lseen;
	struct hexblk *b = calloc(1, sizeof(*b));
	const char *s = text, *end = text + len;
	size_t lin_len = 0;

	m->n = 0;
	if (!lin || !b || !text) {
		free(lin);
		free(b);
		return text ? -ENOMEM : -EINVAL;
	}
	lseen = lin + LIN_MAX;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		unsigned page = 0, bank = 0, i2c = I2C_A0;
		bool hp, hb, hi;

		e = e ? e : end;
		if (!hex_line(s, e, b, lin, lseen)) {
			hp = keyword_num(s, e, "page", &page);
			hb = keyword_num(s, e, "bank", &bank);
			hi = keyword_num(s, e, "i2c", &i2c);
			if (hp || hb || hi ||
			    (e - s >= 6 && !strncmp(s, "Offset", 6))) {
				bool keep = b->located && !b->any;
				struct hexblk loc = *b;

				hexblk_flush(b, m);
				if (keep) /* an "Offset" header after a location
					   */
					*b = loc;
				if (hp || hb || hi) {
					b->located = page <= 255 &&
						     bank <= 255 && i2c <= 0x7f;
					b->page = page;
					b->bank = bank;
					b->i2c = i2c;
				}
			}
		}
		s = e + 1;
	}
	hexblk_flush(b, m);
	for (size_t i = 0; i < LIN_MAX; i++)
		if (lseen[i])
			lin_len = i + 1;
	linear_put(m, lin, lseen, lin_len);
	free(lin);
	free(b);
	return m->n ? 0 : -EINVAL;
}

int rd_xcvr_mem_from_dump(const uint8_t *buf, size_t len, struct rd_xcvr_mem *m)
{
	bool text = len > 0;

	for (size_t i = 0; buf && i < len && text; i++)
		text = (buf[i] >= 0x20 && buf[i] < 0x7f) || buf[i] == '\n' ||
		       buf[i] == '\t' || buf[i] == '\r';
	if (text && memmem(buf, len, "0x", 2))
		return rd_xcvr_mem_from_hex((const char *)buf, len, m);
	return rd_xcvr_mem_from_raw(buf, len, m);
}

/* ---- evidence ---- */

/*
 * Where a field is: page text, first and last byte, and for per-lane
 * fields the step between lanes (bytes) or the bit of lane 1 (bit >= 0,
 * one more per lane; pair: two lanes per byte, high nibble first).
 */
struct where {
	const char *field;
	const char *page;
	unsigned first, last, step;
	int bit;
	bool pair;
};

static const struct where where_sfp[] = {
	{ "identifier", "A0h", 0, 0, 0, -1, false },
	{ "connector", "A0h", 2, 2, 0, -1, false },
	{ "media", "A0h", 3, 10, 0, -1, false },
	{ "media_detail", "A0h", 3, 10, 0, -1, false },
	{ "nominal_mbps", "A0h", 12, 12, 0, -1, false },
	{ "length_m", "A0h", 14, 19, 0, -1, false },
	{ "vendor", "A0h", 20, 35, 0, -1, false },
	{ "vendor_oui", "A0h", 37, 39, 0, -1, false },
	{ "part_number", "A0h", 40, 55, 0, -1, false },
	{ "revision", "A0h", 56, 59, 0, -1, false },
	{ "wavelength_nm", "A0h", 60, 61, 0, -1, false },
	{ "serial", "A0h", 68, 83, 0, -1, false },
	{ "date_code", "A0h", 84, 91, 0, -1, false },
	{ "diagnostics", "A0h", 92, 92, 0, -1, false },
	{ "temperature_limits_c", "A2h", 0, 7, 0, -1, false },
	{ "vcc_limits_v", "A2h", 8, 15, 0, -1, false },
	{ "tx_bias_limits_ma", "A2h", 16, 23, 0, -1, false },
	{ "tx_power_limits_mw", "A2h", 24, 31, 0, -1, false },
	{ "rx_power_limits_mw", "A2h", 32, 39, 0, -1, false },
	{ "temperature_c", "A2h", 96, 97, 0, -1, false },
	{ "vcc_v", "A2h", 98, 99, 0, -1, false },
	{ "tx_bias_ma", "A2h", 100, 101, 0, -1, false },
	{ "tx_power_mw", "A2h", 102, 103, 0, -1, false },
	{ "rx_power_mw", "A2h", 104, 105, 0, -1, false },
	{ "rx_los", "A2h", 110, 110, 0, 1, false },
	{ "tx_fault", "A2h", 110, 110, 0, 2, false },
	{ "temperature_flags", "A2h", 112, 116, 0, -1, false },
	{ "vcc_flags", "A2h", 112, 116, 0, -1, false },
	{ "tx_bias_flags", "A2h", 112, 116, 0, -1, false },
	{ "tx_power_flags", "A2h", 112, 116, 0, -1, false },
	{ "rx_power_flags", "A2h", 113, 117, 0, -1, false },
	{ NULL, NULL, 0, 0, 0, -1, false },
};

static const struct where where_qsfp[] = {
	{ "identifier", "page 00h", 0, 0, 0, -1, false },
	{ "flat_memory", "page 00h", 2, 2, 0, 2, false },
	{ "rx_los", "page 00h", 3, 3, 0, 0, false },
	{ "tx_los", "page 00h", 3, 3, 0, 4, false },
	{ "tx_fault", "page 00h", 4, 4, 0, 0, false },
	{ "rx_lol", "page 00h", 5, 5, 0, 0, false },
	{ "tx_lol", "page 00h", 5, 5, 0, 4, false },
	{ "temperature_flags", "page 00h", 6, 6, 0, -1, false },
	{ "vcc_flags", "page 00h", 7, 7, 0, -1, false },
	{ "rx_power_flags", "page 00h", 9, 9, 0, -1, true },
	{ "tx_bias_flags", "page 00h", 11, 11, 0, -1, true },
	{ "tx_power_flags", "page 00h", 13, 13, 0, -1, true },
	{ "temperature_c", "page 00h", 22, 23, 0, -1, false },
	{ "vcc_v", "page 00h", 26, 27, 0, -1, false },
	{ "rx_power_mw", "page 00h", 34, 35, 2, -1, false },
	{ "tx_bias_ma", "page 00h", 42, 43, 2, -1, false },
	{ "tx_power_mw", "page 00h", 50, 51, 2, -1, false },
	{ "power_class", "page 00h", 129, 129, 0, -1, false },
	{ "connector", "page 00h", 130, 130, 0, -1, false },
	{ "media_detail", "page 00h", 131, 138, 0, -1, false },
	{ "nominal_mbps", "page 00h", 140, 140, 0, -1, false },
	{ "length_m", "page 00h", 142, 146, 0, -1, false },
	{ "media", "page 00h", 147, 147, 0, -1, false },
	{ "vendor", "page 00h", 148, 163, 0, -1, false },
	{ "vendor_oui", "page 00h", 165, 167, 0, -1, false },
	{ "part_number", "page 00h", 168, 183, 0, -1, false },
	{ "revision", "page 00h", 184, 185, 0, -1, false },
	{ "wavelength_nm", "page 00h", 186, 187, 0, -1, false },
	{ "serial", "page 00h", 196, 211, 0, -1, false },
	{ "date_code", "page 00h", 212, 219, 0, -1, false },
	{ "temperature_limits_c", "page 03h", 128, 135, 0, -1, false },
	{ "vcc_limits_v", "page 03h", 144, 151, 0, -1, false },
	{ "rx_power_limits_mw", "page 03h", 176, 183, 0, -1, false },
	{ "tx_bias_limits_ma", "page 03h", 184, 191, 0, -1, false },
	{ "tx_power_limits_mw", "page 03h", 192, 199, 0, -1, false },
	{ NULL, NULL, 0, 0, 0, -1, false },
};

static const struct where where_cmis[] = {
	{ "identifier", "page 00h", 0, 0, 0, -1, false },
	{ "spec", "page 00h", 1, 1, 0, -1, false },
	{ "flat_memory", "page 00h", 2, 2, 0, 7, false },
	{ "module_state", "page 00h", 3, 3, 0, -1, false },
	{ "temperature_flags", "page 00h", 9, 9, 0, -1, false },
	{ "vcc_flags", "page 00h", 9, 9, 0, -1, false },
	{ "temperature_c", "page 00h", 14, 15, 0, -1, false },
	{ "vcc_v", "page 00h", 16, 17, 0, -1, false },
	{ "firmware", "page 00h", 39, 40, 0, -1, false },
	{ "fault_cause", "page 00h", 41, 41, 0, -1, false },
	{ "media", "page 00h", 85, 85, 0, -1, false },
	{ "media_lanes", "page 00h", 86, 89, 0, -1, false },
	{ "vendor", "page 00h", 129, 144, 0, -1, false },
	{ "vendor_oui", "page 00h", 145, 147, 0, -1, false },
	{ "part_number", "page 00h", 148, 163, 0, -1, false },
	{ "revision", "page 00h", 164, 165, 0, -1, false },
	{ "serial", "page 00h", 166, 181, 0, -1, false },
	{ "date_code", "page 00h", 182, 189, 0, -1, false },
	{ "power_class", "page 00h", 200, 200, 0, -1, false },
	{ "max_power_w", "page 00h", 201, 201, 0, -1, false },
	{ "length_m", "page 00h", 202, 202, 0, -1, false },
	{ "connector", "page 00h", 203, 203, 0, -1, false },
	{ "media_detail", "page 00h", 212, 212, 0, -1, false },
	{ "wavelength_nm", "page 01h", 138, 139, 0, -1, false },
	{ "temperature_limits_c", "page 02h", 128, 135, 0, -1, false },
	{ "vcc_limits_v", "page 02h", 136, 143, 0, -1, false },
	{ "tx_power_limits_mw", "page 02h", 176, 183, 0, -1, false },
	{ "tx_bias_limits_ma", "page 02h", 184, 191, 0, -1, false },
	{ "rx_power_limits_mw", "page 02h", 192, 199, 0, -1, false },
	/* per lane, in page 11h of the lane's bank */
	{ "datapath_state", "page 11h", 128, 128, 0, -1, true },
	{ "tx_fault", "page 11h", 135, 135, 0, 0, false },
	{ "tx_los", "page 11h", 136, 136, 0, 0, false },
	{ "tx_lol", "page 11h", 137, 137, 0, 0, false },
	{ "tx_power_flags", "page 11h", 139, 142, 0, 0, false },
	{ "tx_bias_flags", "page 11h", 143, 146, 0, 0, false },
	{ "rx_los", "page 11h", 147, 147, 0, 0, false },
	{ "rx_lol", "page 11h", 148, 148, 0, 0, false },
	{ "rx_power_flags", "page 11h", 149, 152, 0, 0, false },
	{ "tx_power_mw", "page 11h", 154, 155, 2, -1, false },
	{ "tx_bias_ma", "page 11h", 170, 171, 2, -1, false },
	{ "rx_power_mw", "page 11h", 186, 187, 2, -1, false },
	{ NULL, NULL, 0, 0, 0, -1, false },
};

static bool lane_field(const char *field)
{
	static const char *const keys[] = {
		"tx_bias_ma",	  "tx_power_mw",    "rx_power_mw",
		"rx_los",	  "tx_los",	    "rx_lol",
		"tx_lol",	  "tx_fault",	    "tx_bias_flags",
		"tx_power_flags", "rx_power_flags", "datapath_state",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i], field))
			return true;
	return false;
}

const char *rd_xcvr_where(const struct rd_xcvr *x, const char *field,
			  unsigned lane, char *buf, size_t size)
{
	const struct where *t, *w = NULL;
	unsigned lanes, per, first, last, j = 0;
	char pre[32];
	int bit, n;

	if (!x || !x->spec || !field || !buf || !size)
		return NULL;
	if (!strncmp(x->spec, "SFF-8472", 8)) {
		t = where_sfp;
		lanes = per = 1;
	} else if (!strncmp(x->spec, "SFF-8636", 8)) {
		t = where_qsfp;
		lanes = per = 4;
	} else if (!strncmp(x->spec, "CMIS", 4)) {
		t = where_cmis;
		lanes = 32; /* 4 banks of 8 */
		per = 8;
	} else {
		return NULL;
	}
	for (; t->field && !w; t++)
		if (!strcmp(t->field, field))
			w = t;
	if (!w)
		return NULL;
	first = w->first;
	last = w->last;
	bit = w->bit;
	snprintf(pre, sizeof(pre), "%s", w->page);
	if (lane_field(field)) {
		if (lane < 1 || lane > lanes)
			return NULL;
		j = (lane - 1) % per;
		if (lanes > per)
			snprintf(pre, sizeof(pre), "bank %u %s",
				 (lane - 1) / per, w->page);
		first += w->step * j;
		last += w->step * j;
		if (bit >= 0)
			bit += (int)j;
		if (w->pair)
			first = last = first + j / 2;
	}
	if (first == last)
		n = snprintf(buf, size, "%s byte %u", pre, first);
	else
		n = snprintf(buf, size, "%s bytes %u-%u", pre, first, last);
	if (n < 0 || (size_t)n >= size)
		return buf;
	if (bit >= 0) {
		snprintf(buf + n, size - (size_t)n, " bit %d", bit);
	} else if (w->pair && lane_field(field)) {
		/* SFF-8636: lane 1 in the high nibble; CMIS: in the low one */
		bool high = lanes > per ? (j & 1) : !(j & 1);

		snprintf(buf + n, size - (size_t)n, " bits %s",
			 high ? "7-4" : "3-0");
	}
	return buf;
}
