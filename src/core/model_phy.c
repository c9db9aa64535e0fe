// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/model_phy.h"

static const struct rd_field limit_fields[] = {
	RD_FLD_DBL(struct rd_xcvr_limits, high_alarm, "high_alarm"),
	RD_FLD_DBL(struct rd_xcvr_limits, low_alarm, "low_alarm"),
	RD_FLD_DBL(struct rd_xcvr_limits, high_warn, "high_warning"),
	RD_FLD_DBL(struct rd_xcvr_limits, low_warn, "low_warning"), RD_FLD_END
};

static const struct rd_field lane_fields[] = {
	RD_FLD_PU64(struct rd_xcvr_lane, lane, "lane"),
	RD_FLD_DBL(struct rd_xcvr_lane, tx_bias_ma, "tx_bias_ma"),
	RD_FLD_DBL(struct rd_xcvr_lane, tx_power_mw, "tx_power_mw"),
	RD_FLD_DBL(struct rd_xcvr_lane, rx_power_mw, "rx_power_mw"),
	RD_FLD_BOOL(struct rd_xcvr_lane, rx_los, "rx_los"),
	RD_FLD_BOOL(struct rd_xcvr_lane, tx_los, "tx_los"),
	RD_FLD_BOOL(struct rd_xcvr_lane, rx_lol, "rx_lol"),
	RD_FLD_BOOL(struct rd_xcvr_lane, tx_lol, "tx_lol"),
	RD_FLD_BOOL(struct rd_xcvr_lane, tx_fault, "tx_fault"),
	RD_FLD_U64(struct rd_xcvr_lane, tx_bias_flags, "tx_bias_flags"),
	RD_FLD_U64(struct rd_xcvr_lane, tx_power_flags, "tx_power_flags"),
	RD_FLD_U64(struct rd_xcvr_lane, rx_power_flags, "rx_power_flags"),
	RD_FLD_STR(struct rd_xcvr_lane, datapath_state, "datapath_state"),
	RD_FLD_END
};

static const struct rd_field page_fields[] = {
	RD_FLD_PU64(struct rd_xcvr_page, i2c, "i2c_address"),
	RD_FLD_PU64(struct rd_xcvr_page, bank, "bank"),
	RD_FLD_PU64(struct rd_xcvr_page, page, "page"),
	RD_FLD_PU64(struct rd_xcvr_page, offset, "offset"),
	RD_FLD_STR(struct rd_xcvr_page, hex, "hex"),
	RD_FLD_END
};

const struct rd_field rd_xcvr_fields[] = {
	RD_FLD_BOOL(struct rd_xcvr, present, "present"),
	RD_FLD_STR(struct rd_xcvr, error, "error"),
	RD_FLD_U64(struct rd_xcvr, error_errno, "errno"),
	RD_FLD_STR(struct rd_xcvr, source, "source"),
	RD_FLD_STR(struct rd_xcvr, spec, "spec"),
	RD_FLD_HEX(struct rd_xcvr, identifier, "identifier"),
	RD_FLD_STR(struct rd_xcvr, type, "type"),
	RD_FLD_HEX(struct rd_xcvr, connector, "connector"),
	RD_FLD_STR(struct rd_xcvr, connector_name, "connector_name"),
	RD_FLD_STR(struct rd_xcvr, media, "media"),
	RD_FLD_STR(struct rd_xcvr, media_detail, "media_detail"),
	RD_FLD_STR(struct rd_xcvr, vendor, "vendor"),
	RD_FLD_STR(struct rd_xcvr, vendor_oui, "vendor_oui"),
	RD_FLD_STR(struct rd_xcvr, part_number, "part_number"),
	RD_FLD_STR(struct rd_xcvr, revision, "revision"),
	RD_FLD_STR(struct rd_xcvr, serial, "serial"),
	RD_FLD_STR(struct rd_xcvr, date_code, "date_code"),
	RD_FLD_DBL(struct rd_xcvr, length_m, "length_m"),
	RD_FLD_DBL(struct rd_xcvr, wavelength_nm, "wavelength_nm"),
	RD_FLD_U64(struct rd_xcvr, nominal_mbps, "nominal_mbps"),
	RD_FLD_U64(struct rd_xcvr, media_lanes, "media_lanes"),
	RD_FLD_U64(struct rd_xcvr, power_class, "power_class"),
	RD_FLD_DBL(struct rd_xcvr, max_power_w, "max_power_w"),
	RD_FLD_STR(struct rd_xcvr, firmware, "firmware"),
	RD_FLD_BOOL(struct rd_xcvr, flat_memory, "flat_memory"),
	RD_FLD_STR(struct rd_xcvr, module_state, "module_state"),
	RD_FLD_U64(struct rd_xcvr, module_state_num, "module_state_num"),
	RD_FLD_STR(struct rd_xcvr, fault_cause, "fault_cause"),
	RD_FLD_BOOL(struct rd_xcvr, dom, "diagnostics"),
	RD_FLD_STR(struct rd_xcvr, no_dom, "no_diagnostics"),
	RD_FLD_BOOL(struct rd_xcvr, rx_power_is_oma, "rx_power_is_oma"),
	RD_FLD_BOOL(struct rd_xcvr, ext_calibrated, "externally_calibrated"),
	RD_FLD_DBL(struct rd_xcvr, temperature_c, "temperature_c"),
	RD_FLD_DBL(struct rd_xcvr, vcc_v, "vcc_v"),
	RD_FLD_U64(struct rd_xcvr, temperature_flags, "temperature_flags"),
	RD_FLD_U64(struct rd_xcvr, vcc_flags, "vcc_flags"),
	RD_FLD_STRUCT(struct rd_xcvr, temperature_limits, limit_fields,
		      "temperature_limits_c"),
	RD_FLD_STRUCT(struct rd_xcvr, vcc_limits, limit_fields, "vcc_limits_v"),
	RD_FLD_STRUCT(struct rd_xcvr, tx_bias_limits, limit_fields,
		      "tx_bias_limits_ma"),
	RD_FLD_STRUCT(struct rd_xcvr, tx_power_limits, limit_fields,
		      "tx_power_limits_mw"),
	RD_FLD_STRUCT(struct rd_xcvr, rx_power_limits, limit_fields,
		      "rx_power_limits_mw"),
	RD_FLD_ARRAY(struct rd_xcvr, lanes, n_lanes, struct rd_xcvr_lane,
		     lane_fields, "lanes"),
	RD_FLD_ARRAY(struct rd_xcvr, pages, n_pages, struct rd_xcvr_page,
		     page_fields, "pages"),
	RD_FLD_DBL(struct rd_xcvr, read_at, "read_at"),
	RD_FLD_END
};

void rd_xcvr_fmt_dbm(char *buf, size_t size, struct rd_odbl mw,
		     const char *dark)
{
	double dbm;

	if (!mw.ok)
		snprintf(buf, size, "-");
	else if (rd_mw_to_dbm(mw.v, &dbm))
		snprintf(buf, size, "%.2f", dbm);
	else
		snprintf(buf, size, "%s", dark);
}

void rd_xcvr_length_text(const struct rd_xcvr *m, const char *lead, char *buf,
			 size_t size)
{
	if (!m->length_m.ok)
		snprintf(buf, size, "%s", "");
	else if (m->length_m.v >= 1000)
		snprintf(buf, size, "%s%.4g km", lead, m->length_m.v / 1000);
	else
		snprintf(buf, size, "%s%.4g m", lead, m->length_m.v);
}

void rd_xcvr_rx_scan(const struct rd_xcvr *m, struct rd_xcvr_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
	rx->weakest = -1;
	for (size_t i = 0; i < m->n_lanes; i++) {
		const struct rd_xcvr_lane *l = &m->lanes[i];

		rx->tx_fault |= l->tx_fault.ok && l->tx_fault.v;
		if (!l->rx_power_mw.ok && !l->rx_los.ok)
			continue;
		rx->lanes++;
		if (l->rx_los.ok && l->rx_los.v)
			rx->los++;
		if (l->rx_power_mw.ok &&
		    (rx->weakest < 0 || l->rx_power_mw.v < rx->weakest_mw)) {
			rx->weakest = (int)i;
			rx->weakest_mw = l->rx_power_mw.v;
		}
	}
}

static bool under(struct rd_odbl v, struct rd_odbl lim)
{
	return v.ok && lim.ok && v.v < lim.v;
}

static bool limits_empty(const struct rd_xcvr_limits *l)
{
	return l->high_alarm.ok && l->low_alarm.ok &&
	       l->high_alarm.v <= l->low_alarm.v;
}

bool rd_xcvr_dom_real(const struct rd_xcvr *m)
{
	return !((m->vcc_v.ok && m->vcc_v.v <= 0.0) ||
		 (limits_empty(&m->temperature_limits) &&
		  limits_empty(&m->vcc_limits)));
}

enum rd_xcvr_rx_class rd_xcvr_lane_rx(const struct rd_xcvr *m,
				      const struct rd_xcvr_lane *l)
{
	bool flags = l->rx_power_flags.ok;

	if (!l->rx_power_mw.ok && !l->rx_los.ok && !flags)
		return RD_XCVR_RX_UNREAD;
	if ((l->rx_los.ok && l->rx_los.v) ||
	    under(l->rx_power_mw, m->rx_power_limits.low_alarm) ||
	    (flags && (l->rx_power_flags.v & RD_XCVR_F_LOW_ALARM)))
		return RD_XCVR_RX_DARK;
	if (under(l->rx_power_mw, m->rx_power_limits.low_warn) ||
	    (flags && (l->rx_power_flags.v & RD_XCVR_F_LOW_WARN)))
		return RD_XCVR_RX_LOW;
	return RD_XCVR_RX_OK;
}

const char *rd_xcvr_rx_class_name(enum rd_xcvr_rx_class c)
{
	switch (c) {
	case RD_XCVR_RX_DARK:
		return "dark";
	case RD_XCVR_RX_LOW:
		return "low";
	case RD_XCVR_RX_OK:
		return "ok";
	default:
		return "unread";
	}
}

static void cable(char *buf, size_t size, const char *kind,
		  const struct rd_xcvr *m)
{
	if (m->length_m.ok && m->length_m.v >= 0.5 && m->length_m.v < 1000)
		snprintf(buf, size, "%s %.0fm", kind, m->length_m.v);
	else
		snprintf(buf, size, "%s", kind);
}

enum rd_xcvr_glance rd_xcvr_brief(const struct rd_xcvr *m, char *buf,
				  size_t size)
{
	struct rd_xcvr_rx rx;
	double dbm;

	if (m->present.ok && !m->present.v) {
		snprintf(buf, size, "none");
		return RD_XCVR_G_NONE;
	}
	if (!m->identifier.ok) {
		bool na =
			m->error_errno.ok && (m->error_errno.v == EOPNOTSUPP ||
					      m->error_errno.v == ENODATA);

		snprintf(buf, size, "%s", na ? "-" : "?");
		return na ? RD_XCVR_G_NA : RD_XCVR_G_UNKNOWN;
	}
	if (m->module_state && strcmp(m->module_state, "ModuleReady") &&
	    (!strcmp(m->module_state, "ModuleFault") ||
	     !strcmp(m->module_state, "ModuleLowPwr"))) {
		snprintf(buf, size, "%s",
			 !strcmp(m->module_state, "ModuleFault") ? "FAULT"
								 : "LOWPWR");
		return RD_XCVR_G_BAD;
	}
	if (!rd_xcvr_dom_real(m)) {
		snprintf(buf, size, "?");
		return RD_XCVR_G_UNKNOWN;
	}
	rd_xcvr_rx_scan(m, &rx);
	if (rx.tx_fault) {
		snprintf(buf, size, "TX FAULT");
		return RD_XCVR_G_BAD;
	}
	if (rx.lanes && rx.los == rx.lanes) {
		snprintf(buf, size, "no light");
		return RD_XCVR_G_BAD;
	}
	if (m->media && !strcmp(m->media, "passive copper")) {
		cable(buf, size, "DAC", m);
		return RD_XCVR_G_OK;
	}
	if (m->media && !strcmp(m->media, "active copper")) {
		cable(buf, size, "AEC", m);
		return RD_XCVR_G_OK;
	}
	if (rx.weakest >= 0) {
		bool lit = rd_mw_to_dbm(rx.weakest_mw, &dbm);

		if (lit && dbm > -100)
			snprintf(buf, size, "%.1fdBm", dbm);
		else
			snprintf(buf, size, "no light");
		return lit ? RD_XCVR_G_OK : RD_XCVR_G_BAD;
	}
	if (m->media && !strcmp(m->media, "active optical")) {
		cable(buf, size, "AOC", m);
		return RD_XCVR_G_OK;
	}
	snprintf(buf, size, "%s", m->type ? m->type : "module");
	if (strlen(buf) > 9)
		buf[9] = '\0';
	return RD_XCVR_G_OK;
}

bool rd_mw_to_dbm(double mw, double *dbm)
{
	if (!(mw > 0) || !isfinite(mw))
		return false;
	*dbm = 10.0 * log10(mw);
	return true;
}
