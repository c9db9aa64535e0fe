// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cable and PHY: the module in the cage (what it is, whether it is ready
 * and can carry the port's speed), its optics against the module's own
 * limits, FEC, and the link modes of both ends. Also the physical causes
 * the port-DOWN decision tree asks for first (diag_phy_down_cause).
 *
 * Values come from the snapshot only: the module memory decoded by the
 * transceiver probe, ethtool's FEC and link modes, and the history for
 * rising FEC counters.
 */
#include "config.h"
#include "core/escape.h"
#include "core/xcvr_decode.h"
#include "diag/data.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EEPROM "module EEPROM"

static const struct rd_xcvr *module_of(const struct diag_target *t)
{
	return t->n ? &t->n->xcvr : NULL;
}

/* A module whose memory was read and decoded. */
static bool module_read(const struct rd_xcvr *m)
{
	return m && m->present.ok && m->present.v && m->identifier.ok;
}

static bool port_down(const struct diag_target *t)
{
	return t->p->state_num.ok && !rd_port_active(t->p);
}

/* "A2h bytes 104-105", or the decoder's name for where the value sits. */
static const char *where(const struct rd_xcvr *m, const char *field,
			 unsigned lane, char *buf, size_t size)
{
	char tmp[96];
	const char *w = rd_xcvr_where(m, field, lane, tmp, sizeof(tmp));

	snprintf(buf, size, "%s%s%s", EEPROM, w ? " " : "", w ? w : "");
	return buf;
}

static void fmt_mw(char *buf, size_t size, double mw)
{
	double dbm;

	if (rd_mw_to_dbm(mw, &dbm))
		snprintf(buf, size, "%.2f dBm (%.4f mW)", dbm, mw);
	else
		snprintf(buf, size, "no light (0 mW)");
}

static void fmt_limit_mw(char *buf, size_t size, double mw)
{
	double dbm;

	if (rd_mw_to_dbm(mw, &dbm))
		snprintf(buf, size, "%.2f dBm", dbm);
	else
		snprintf(buf, size, "0 mW");
}

/* One line naming the module: "QSFP28 active optical Mellanox MFA1A00-C003 SN
 * ..." */
static void module_line(const struct rd_xcvr *m, char *buf, size_t size)
{
	char len[32];

	rd_xcvr_length_text(m, " ", len, sizeof(len));
	snprintf(buf, size, "%s %s%s, %s %s, SN %s", m->type ? m->type : "?",
		 m->media ? m->media : "media unknown", len,
		 m->vendor ? rd_esc_tmp(m->vendor) : "vendor ?",
		 m->part_number ? rd_esc_tmp(m->part_number) : "?",
		 m->serial ? rd_esc_tmp(m->serial) : "?");
}

/* ---- the module ---- */

/* UNKNOWN or FAIL for a module that was not read; false when it was. */
static bool module_missing(struct diag_ctx *x, struct rd_result *r,
			   const struct diag_target *t)
{
	const struct rd_xcvr *m = module_of(t);

	if (!diag_have(x, r, t->n != NULL, "%s: netdev %s not read", t->name,
		       t->netdev ? t->netdev : "behind the port"))
		return true;
	if (m->present.ok && !m->present.v) {
		diag_ev(x, r, "module", "ethtool netlink LINKSTATE ext_state",
			"%s", m->error ? m->error : "no module");
		diag_verdict(x, r, RD_FAIL, "no_module",
			     "%s: no module in the cage of %s", t->name,
			     t->netdev);
		diag_next(x, r,
			  "insert a module or cable; if one is in, reseat it "
			  "firmly (it is not detected)");
		return true;
	}
	if (module_read(m))
		return false;
	if (m->error_errno.ok &&
	    (m->error_errno.v == EIO || m->error_errno.v == EREMOTEIO)) {
		diag_ev(x, r, "module memory", "ethtool MODULE_EEPROM_GET",
			"I/O error (errno %" PRIu64 ")", m->error_errno.v);
		diag_verdict(x, r, port_down(t) ? RD_FAIL : RD_WARN,
			     "module_unreadable",
			     "%s: the module in %s does not answer (EEPROM I/O "
			     "error): the cage is empty or the module is dead",
			     t->name, t->netdev);
		diag_next(
			x, r,
			"reseat the module; if it still does not answer, "
			"replace it (dmesg shows the driver's module events)");
		return true;
	}
	diag_verdict(x, r, RD_UNKNOWN, "no_data", "%s: %s", t->name,
		     m->error ? m->error : "module memory not read");
	if (m->error_errno.ok &&
	    (m->error_errno.v == EPERM || m->error_errno.v == EACCES))
		diag_next(x, r,
			  "run rdmadiag as root to read the module "
			  "(the link modes and FEC below need no privilege)");
	return true;
}

/*
 * The speed the port runs at; when down, the slowest speed it advertises
 * (the module is too slow only when it carries none of them); 0 unknown.
 */
static uint64_t port_speed_mbps(const struct rd_netdev *n)
{
	uint64_t best = 0;
	const char *p;

	if (n->ethtool.speed_mbps.ok)
		return n->ethtool.speed_mbps.v;
	for (p = n->ethtool.modes_advertised; p && *p;) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end != p && strncmp(end, "base", 4) == 0 &&
		    (best == 0 || v < best))
			best = v;
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return best;
}

void check_phy_module(struct diag_ctx *x, const struct diag_target *t,
		      struct rd_result *r)
{
	const struct rd_xcvr *m = module_of(t);
	char line[320], src[128];
	uint64_t speed;

	if (module_missing(x, r, t))
		return;
	module_line(m, line, sizeof(line));
	diag_ev(x, r, "module", where(m, "identifier", 0, src, sizeof(src)),
		"%s", line);
	if (m->module_state) {
		diag_ev(x, r, "module state",
			where(m, "module_state", 0, src, sizeof(src)), "%s%s%s",
			rd_esc_tmp(m->module_state), m->fault_cause ? ": " : "",
			m->fault_cause ? rd_esc_tmp(m->fault_cause) : "");
		if (!strcmp(m->module_state, "ModuleFault")) {
			diag_verdict(x, r, RD_FAIL, "module_fault",
				     "%s: module in ModuleFault%s%s", t->name,
				     m->fault_cause ? ": " : "",
				     m->fault_cause ? m->fault_cause : "");
			diag_next(x, r,
				  "reseat the module; a fault that "
				  "returns means the module must be replaced");
			return;
		}
		if (!strcmp(m->module_state, "ModuleLowPwr")) {
			diag_verdict(x, r, RD_FAIL, "module_low_power",
				     "%s: module held in low power "
				     "(ModuleLowPwr%s): "
				     "its lasers and data path are off",
				     t->name,
				     m->power_class.ok ? ", power class " : "");
			diag_next(x, r,
				  "let the host power it up: ethtool "
				  "--set-module "
				  "%s power-mode-policy high; if it stays low, "
				  "the "
				  "cage cannot supply its %s",
				  rd_shquote_tmp(t->netdev),
				  m->max_power_w.ok ? "power" : "power class");
			return;
		}
		if (strcmp(m->module_state, "ModuleReady") != 0) {
			diag_verdict(x, r, RD_WARN, "module_not_ready",
				     "%s: module in %s (powering up or down)",
				     t->name, m->module_state);
			diag_next(x, r,
				  "look again in a few seconds; a module "
				  "that stays there is faulty");
			return;
		}
	}
	speed = port_speed_mbps(t->n);
	if (speed && m->nominal_mbps.ok && m->media_lanes.ok &&
	    m->nominal_mbps.v && m->media_lanes.v) {
		uint64_t carry = m->nominal_mbps.v * m->media_lanes.v;

		diag_ev(x, r, "module rate",
			where(m, "nominal_mbps", 0, src, sizeof(src)),
			"%" PRIu64 " lanes x %" PRIu64 " Mb/s nominal",
			m->media_lanes.v, m->nominal_mbps.v);
		/* Nominal signalling includes line coding: 5 % of slack. */
		if ((double)carry < (double)speed * 0.95) {
			diag_verdict(x, r, RD_FAIL, "module_too_slow",
				     "%s: the module carries %" PRIu64
				     " Mb/s (%" PRIu64 " x %" PRIu64
				     " Mb/s), the port runs %" PRIu64 " Mb/s",
				     t->name, carry, m->media_lanes.v,
				     m->nominal_mbps.v, speed);
			diag_next(x, r,
				  "use a module or cable rated for %" PRIu64
				  " Gb/s, or set the port to a speed the "
				  "module carries",
				  speed / 1000);
			return;
		}
	}
	diag_verdict(x, r, RD_PASS, "ok", "%s: %s", t->name, line);
}

/* ---- optics ---- */

struct lane_scan {
	unsigned n;	  /* lanes with diagnostics */
	unsigned rx_dark; /* LOS, or Rx below its low alarm */
	unsigned rx_low_warn;
	unsigned tx_bad; /* Tx fault, or Tx power/bias past an alarm */
	char dark[64], low[64], txbad[64];
	int worst_lane; /* the weakest Rx lane (index in lanes) */
	double worst_mw;
};

static void lane_list_add(char *buf, size_t size, uint64_t lane)
{
	size_t l = strlen(buf);

	snprintf(buf + l, size - l, "%s%" PRIu64, l ? "," : "", lane);
}

static bool below(struct rd_odbl v, struct rd_odbl lim)
{
	return v.ok && lim.ok && v.v < lim.v;
}

static bool above(struct rd_odbl v, struct rd_odbl lim)
{
	return v.ok && lim.ok && v.v > lim.v;
}

/* Above a temperature limit by the reading, or by the module's own flag. */
static bool hotter(const struct rd_xcvr *m, struct rd_odbl limit, uint64_t flag)
{
	return m->temperature_c.ok &&
	       (above(m->temperature_c, limit) ||
		(m->temperature_flags.ok && (m->temperature_flags.v & flag)));
}

static void scan_lanes(const struct rd_xcvr *m, struct lane_scan *s)
{
	struct rd_xcvr_rx rx;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < m->n_lanes; i++) {
		const struct rd_xcvr_lane *l = &m->lanes[i];
		enum rd_xcvr_rx_class cls = rd_xcvr_lane_rx(m, l);
		bool dark = cls == RD_XCVR_RX_DARK;
		bool low = cls == RD_XCVR_RX_LOW;
		bool txbad =
			(l->tx_fault.ok && l->tx_fault.v) ||
			below(l->tx_power_mw, m->tx_power_limits.low_alarm) ||
			above(l->tx_bias_ma, m->tx_bias_limits.high_alarm) ||
			(l->tx_power_flags.ok &&
			 (l->tx_power_flags.v & RD_XCVR_F_LOW_ALARM));

		if (l->rx_power_mw.ok || l->rx_los.ok || l->tx_power_mw.ok)
			s->n++;
		if (dark) {
			s->rx_dark++;
			lane_list_add(s->dark, sizeof(s->dark), l->lane);
		}
		if (low) {
			s->rx_low_warn++;
			lane_list_add(s->low, sizeof(s->low), l->lane);
		}
		if (txbad) {
			s->tx_bad++;
			lane_list_add(s->txbad, sizeof(s->txbad), l->lane);
		}
	}
	rd_xcvr_rx_scan(m, &rx);
	s->worst_lane = rx.weakest;
	s->worst_mw = rx.weakest_mw;
}

static void ev_lanes(struct diag_ctx *x, struct rd_result *r,
		     const struct rd_xcvr *m)
{
	char src[128], val[160], lim[48] = "";

	if (m->rx_power_limits.low_alarm.ok) {
		char a[24];

		fmt_limit_mw(a, sizeof(a), m->rx_power_limits.low_alarm.v);
		snprintf(lim, sizeof(lim), ", low alarm %s", a);
	}
	for (size_t i = 0; i < m->n_lanes; i++) {
		const struct rd_xcvr_lane *l = &m->lanes[i];
		char what[48];

		if (!l->rx_power_mw.ok && !l->rx_los.ok)
			continue;
		snprintf(what, sizeof(what), "Rx power lane %" PRIu64, l->lane);
		if (l->rx_power_mw.ok)
			fmt_mw(val, sizeof(val), l->rx_power_mw.v);
		else
			snprintf(val, sizeof(val), "not measured");
		diag_ev(x, r, what,
			where(m, "rx_power_mw", (unsigned)l->lane, src,
			      sizeof(src)),
			"%s%s%s", val, lim,
			l->rx_los.ok && l->rx_los.v ? ", LOS" : "");
	}
}

/* Limits whose high alarm is not above the low one: no range, not a module's.
 */
/* The optics' verdict for a port: FAIL when light is missing or Tx failed. */
void check_phy_optics(struct diag_ctx *x, const struct diag_target *t,
		      struct rd_result *r)
{
	const struct rd_xcvr *m = module_of(t);
	struct lane_scan s;
	char src[128];

	if (m && m->present.ok && !m->present.v) {
		diag_verdict(x, r, RD_UNKNOWN, "no_module",
			     "%s: no module in the cage: no light to measure "
			     "(see phy.module)",
			     t->name);
		return;
	}
	if (module_missing(x, r, t))
		return;
	if (m->dom.ok && !m->dom.v) {
		diag_verdict(x, r, RD_UNKNOWN, "no_diagnostics",
			     "%s: no optics to measure: %s", t->name,
			     m->no_dom ? m->no_dom
				       : "the module reports no diagnostics");
		return;
	}
	scan_lanes(m, &s);
	if (!diag_have(x, r, s.n > 0 || m->temperature_c.ok,
		       "%s: the module's diagnostics were not read", t->name))
		return;
	ev_lanes(x, r, m);
	if (!rd_xcvr_dom_real(m)) {
		diag_ev(x, r, "module supply",
			where(m, "vcc_v", 0, src, sizeof(src)), "%.4f V",
			m->vcc_v.ok ? m->vcc_v.v : 0.0);
		diag_verdict(
			x, r, RD_UNKNOWN, "diagnostics_invalid",
			"%s: the module's diagnostics read as zeros (supply "
			"0 V, or limits with no range): the driver returned "
			"no real values, so the optics cannot be judged",
			t->name);
		diag_next(x, r,
			  "read the module with another driver or NIC, "
			  "or with the vendor's tool; dmesg may show the "
			  "driver's failed module reads");
		return;
	}
	if (m->temperature_c.ok)
		diag_ev(x, r, "module temperature",
			where(m, "temperature_c", 0, src, sizeof(src)),
			"%.1f C%s", m->temperature_c.v,
			m->temperature_limits.high_alarm.ok
				? ""
				: " (no limit stated)");
	if (s.tx_bad) {
		diag_verdict(x, r, RD_FAIL, "tx_fault",
			     "%s: this module's transmitter fails on lane %s",
			     t->name, s.txbad);
		diag_next(x, r,
			  "replace this module: its laser or driver "
			  "has failed (Tx fault, Tx power or bias past "
			  "the module's alarm)");
		return;
	}
	if (s.n && s.rx_dark == s.n) {
		diag_verdict(x, r, RD_FAIL, "no_light",
			     "%s: no light from the far end on any lane "
			     "(Tx here is fine)",
			     t->name);
		diag_next(x, r,
			  "check the far end: its port up and its "
			  "module transmitting; then the fibre (swap it, "
			  "or test it with a light source)");
		return;
	}
	if (s.rx_dark) {
		diag_verdict(
			x, r, RD_FAIL, "rx_lane_dark",
			"%s: lane %s receives no usable light; the others do",
			t->name, s.dark);
		diag_next(x, r,
			  "clean the connector on both ends and swap "
			  "the fibre; if the same lane stays dark, the "
			  "far-end transceiver channel is bad");
		return;
	}
	if (hotter(m, m->temperature_limits.high_alarm, RD_XCVR_F_HIGH_ALARM)) {
		diag_verdict(x, r, RD_FAIL, "module_hot",
			     "%s: module at %.1f C, above its high alarm",
			     t->name, m->temperature_c.v);
		diag_next(x, r,
			  "check the airflow and fans at the cage; a "
			  "module past its alarm shuts its laser down");
		return;
	}
	if (s.rx_low_warn) {
		diag_verdict(x, r, RD_WARN, "rx_power_low",
			     "%s: Rx power low on lane %s (below the module's "
			     "warning)",
			     t->name, s.low);
		diag_next(x, r,
			  "clean the connectors and check the fibre's "
			  "bends and patch panels before errors start");
		return;
	}
	if (hotter(m, m->temperature_limits.high_warn, RD_XCVR_F_HIGH_WARN)) {
		diag_verdict(x, r, RD_WARN, "module_warm",
			     "%s: module at %.1f C, above its high warning",
			     t->name, m->temperature_c.v);
		diag_next(x, r, "check the airflow at the cage");
		return;
	}
	if (m->vcc_v.ok && (above(m->vcc_v, m->vcc_limits.high_alarm) ||
			    below(m->vcc_v, m->vcc_limits.low_alarm))) {
		diag_verdict(
			x, r, RD_WARN, "module_vcc",
			"%s: module supply %.3f V outside its alarm limits",
			t->name, m->vcc_v.v);
		diag_next(x, r, "reseat the module; then try another cage");
		return;
	}
	/* Temperature alone (a page of lane monitors unread) is no light. */
	if (!diag_have(x, r, s.n > 0,
		       "%s: the module's lane monitors (Tx bias, Tx and Rx "
		       "power) were not read: its light is not known",
		       t->name))
		return;
	if (!m->rx_power_limits.low_alarm.ok &&
	    !m->rx_power_limits.low_warn.ok && s.rx_dark == 0 &&
	    s.rx_low_warn == 0) {
		bool any_flag = false;

		for (size_t i = 0; i < m->n_lanes; i++)
			any_flag |= m->lanes[i].rx_los.ok ||
				    m->lanes[i].rx_power_flags.ok;
		if (!any_flag) {
			diag_verdict(
				x, r, RD_UNKNOWN, "no_limits",
				"%s: optics read, but the module states no "
				"limits or flags to judge them by",
				t->name);
			return;
		}
	}
	if (s.worst_lane >= 0) {
		char v[64];

		fmt_mw(v, sizeof(v), s.worst_mw);
		diag_verdict(
			x, r, RD_PASS, "ok",
			"%s: optics within the module's limits on %u lanes "
			"(weakest Rx %s)",
			t->name, s.n, v);
	} else {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: optics within the module's limits", t->name);
	}
}

/* ---- FEC ---- */

static const char *fec_word(const char *s, const char *w)
{
	size_t l = strlen(w);

	for (const char *p = s; p && (p = strstr(p, w)); p += l)
		if ((p == s || p[-1] == ' ') && (p[l] == ' ' || !p[l]))
			return p;
	return NULL;
}

/* What the lane rate needs: RS on 50G+ PAM4 lanes and on 100G over 4x25G. */
static const char *fec_needed(uint64_t speed, uint64_t lanes)
{
	uint64_t per_lane;

	if (!speed || !lanes)
		return NULL;
	per_lane = speed / lanes;
	if (per_lane >= 50000)
		return "RS"; /* RS(544,514) on PAM4 lanes */
	if (per_lane >= 25000 && lanes >= 4)
		return "RS"; /* 100GBASE-CR4/SR4: RS(528,514) */
	return NULL;
}

static bool fec_ext_mismatch(const struct rd_netdev *n)
{
	const struct rd_ethtool *e = &n->ethtool;

	if (!e->ext_state_num.ok || !e->ext_substate_num.ok)
		return false;
	return (e->ext_state_num.v == RD_EXT_AUTONEG &&
		e->ext_substate_num.v ==
			RD_SUB_AN_FEC_MISMATCH_DURING_OVERRIDE) ||
	       (e->ext_state_num.v == RD_EXT_LINK_LOGICAL_MISMATCH &&
		(e->ext_substate_num.v == RD_SUB_LLM_RS_FEC_NOT_LOCKED ||
		 e->ext_substate_num.v == RD_SUB_LLM_FC_FEC_NOT_LOCKED));
}

static void next_set_fec(struct diag_ctx *x, struct rd_result *r,
			 const char *netdev)
{
	diag_next(x, r,
		  "use the same FEC on both ends: compare the switch port's "
		  "FEC with this one (ethtool --show-fec %s), then set one to "
		  "match, e.g. ethtool --set-fec %s encoding rs",
		  rd_shquote_tmp(netdev), rd_shquote_tmp(netdev));
}

/* Rising rate of a FEC counter over the rate window; false without two
 * samples in it. */
static bool fec_rate(struct diag_ctx *x, const struct diag_target *t,
		     const char *name, double *rate)
{
	uint64_t delta;
	double span;

	return x->h && diag_counter_rate(
			       x,
			       rd_history_counter(x->h, t->d->name, t->p->port,
						  t->netdev, RD_CTR_FEC, name),
			       &delta, &span, rate);
}

void check_phy_fec(struct diag_ctx *x, const struct diag_target *t,
		   struct rd_result *r)
{
	const struct rd_netdev *n = t->n;
	const struct rd_ethtool *e;
	const char *need;
	uint64_t speed;
	double rate;
	bool unc_read;

	if (!diag_have(x, r, n != NULL, "%s: netdev %s not read", t->name,
		       t->netdev ? t->netdev : "behind the port"))
		return;
	e = &n->ethtool;
	if (fec_ext_mismatch(n)) {
		const struct rd_link_ext *le = rd_link_ext_find(
			rd_data_link_ext(), (unsigned)e->ext_state_num.v,
			(unsigned)e->ext_substate_num.v);

		diag_ev(x, r, "link down reason",
			"ethtool netlink LINKSTATE ext_state",
			"%" PRIu64 "/%" PRIu64 "%s%s", e->ext_state_num.v,
			e->ext_substate_num.v, le ? ": " : "",
			le ? le->summary : "");
		diag_verdict(x, r, RD_FAIL, "fec_mismatch",
			     "%s: FEC mismatch with the link partner%s%s%s",
			     t->name, le ? " (" : "", le ? le->summary : "",
			     le ? ")" : "");
		next_set_fec(x, r, t->netdev);
		return;
	}
	if (!diag_have(x, r,
		       e->fec_active || e->fec_configured || e->fec_stats.n,
		       "%s: %s", t->name,
		       e->unsupported && strstr(e->unsupported, "fec")
			       ? "the driver reports no FEC (not supported)"
			       : "FEC not read"))
		return;
	if (e->fec_configured)
		diag_ev(x, r, "FEC configured", "ethtool netlink FEC_GET", "%s",
			e->fec_configured);
	if (e->fec_active)
		diag_ev(x, r, "FEC active", "ethtool netlink FEC_GET", "%s",
			e->fec_active);
	if (port_down(t)) {
		diag_verdict(x, r, RD_UNKNOWN, "port_not_active",
			     "%s: link down: no FEC is active until it is up "
			     "(configured %s), and the driver names no FEC "
			     "mismatch",
			     t->name,
			     e->fec_configured ? e->fec_configured : "?");
		return;
	}
	unc_read = fec_rate(x, t, "uncorrectable_blocks", &rate);
	if (unc_read && rate > 0) {
		diag_ev(x, r, "uncorrectable FEC blocks",
			"ethtool netlink FEC_GET statistics", "%.3g/s", rate);
		diag_verdict(x, r, rate >= 1 ? RD_FAIL : RD_WARN,
			     "fec_uncorrectable",
			     "%s: uncorrectable FEC blocks rising at %.3g/s: "
			     "frames are lost and RoCE retransmits",
			     t->name, rate);
		diag_next(x, r,
			  "clean or replace the cable or optics (see "
			  "phy.optics for the lane), and check that both "
			  "ends use the same FEC");
		return;
	}
	speed = e->speed_mbps.ok ? e->speed_mbps.v : 0;
	need = fec_needed(speed, e->lanes.ok ? e->lanes.v : 0);
	if (need && e->fec_active && !fec_word(e->fec_active, need)) {
		diag_verdict(x, r, RD_WARN, "fec_weak",
			     "%s: FEC %s at %" PRIu64 " Mb/s over %" PRIu64
			     " lanes, where %s FEC is the standard's",
			     t->name, e->fec_active, speed, e->lanes.v, need);
		next_set_fec(x, r, t->netdev);
		return;
	}
	{
		/* One lane's corrected blocks far above the others. */
		double lane_rate[8], sum = 0, top = 0;
		int nl = 0, top_lane = -1;

		for (int i = 0; i < 8; i++) {
			char name[48];

			snprintf(name, sizeof(name), "corrected_blocks_lane%d",
				 i);
			if (!fec_rate(x, t, name, &lane_rate[i]))
				break;
			sum += lane_rate[i];
			if (lane_rate[i] > top) {
				top = lane_rate[i];
				top_lane = i;
			}
			nl++;
		}
		if (nl >= 2 && top_lane >= 0 && top > 100 &&
		    top > 10 * ((sum - top) / (nl - 1))) {
			diag_verdict(
				x, r, RD_WARN, "fec_lane_errors",
				"%s: lane %d corrects %.3g FEC blocks/s, over "
				"10 times the other lanes",
				t->name, top_lane, top);
			diag_next(
				x, r,
				"clean the connector and swap the cable; "
				"one lane far above the others is a bad lane");
			return;
		}
	}
	if (fec_rate(x, t, "corrected_bits", &rate) && speed)
		diag_ev(x, r, "pre-FEC bit error ratio",
			"corrected bits per second / link rate", "%.2g",
			rate / ((double)speed * 1e6));
	diag_verdict(x, r, RD_PASS, "ok", "%s: FEC %s%s", t->name,
		     e->fec_active	 ? e->fec_active
		     : e->fec_configured ? e->fec_configured
					 : "read",
		     unc_read ? ", no uncorrectable blocks rising"
		     : x->h   ? " (uncorrectable blocks not known: no FEC "
				"counters, or no window of them yet)"
			    : " (one snapshot: rising counters need a window)");
}

/* ---- link modes ---- */

/* A speed mode ("100000baseCR4/Full"), not Autoneg, Pause or a FEC bit. */
static bool speed_mode(const char *w, size_t l)
{
	size_t i = 0;

	while (i < l && w[i] >= '0' && w[i] <= '9')
		i++;
	return i > 0 && i + 4 <= l && !strncmp(w + i, "base", 4);
}

/* The first speed mode in both lists, or none; false when a list has none. */
static bool common_mode(const char *a, const char *b, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *p = a; p && *p;) {
		size_t l = strcspn(p, " ");

		if (speed_mode(p, l)) {
			for (const char *q = b; q && *q;) {
				size_t m = strcspn(q, " ");

				if (m == l && !strncmp(p, q, l)) {
					snprintf(out, size, "%.*s", (int)l, p);
					return true;
				}
				q += m;
				q += strspn(q, " ");
			}
		}
		p += l;
		p += strspn(p, " ");
	}
	return false;
}

static bool has_speed_mode(const char *a)
{
	for (const char *p = a; p && *p;) {
		size_t l = strcspn(p, " ");

		if (speed_mode(p, l))
			return true;
		p += l;
		p += strspn(p, " ");
	}
	return false;
}

/* Drivers known to report the partner's advertisement (PTYS lp_advertise). */
static bool reports_partner(const struct rd_netdev *n)
{
	const char *drv = n->ethtool.driver ? n->ethtool.driver : n->driver;

	return drv && !strcmp(drv, "mlx5_core");
}

void check_phy_linkmodes(struct diag_ctx *x, const struct diag_target *t,
			 struct rd_result *r)
{
	const struct rd_netdev *n = t->n;
	const struct rd_ethtool *e;
	const struct rd_xcvr *m;
	char common[64] = "";

	if (!diag_have(x, r, n != NULL, "%s: netdev %s not read", t->name,
		       t->netdev ? t->netdev : "behind the port"))
		return;
	e = &n->ethtool;
	m = &n->xcvr;
	if (!diag_have(x, r, e->modes_advertised != NULL && e->autoneg.ok,
		       "%s: link modes not read%s", t->name,
		       e->unsupported && strstr(e->unsupported, "linkmodes")
			       ? " (not supported by the driver)"
			       : ""))
		return;
	diag_ev(x, r, "autonegotiation", "ethtool netlink LINKMODES_GET", "%s",
		e->autoneg.v ? "on" : "off");
	diag_ev(x, r, "advertised", "ethtool netlink LINKMODES_GET", "%s",
		*e->modes_advertised ? e->modes_advertised : "(none)");
	if (e->modes_partner)
		diag_ev(x, r, "partner advertised",
			"ethtool netlink LINKMODES_GET", "%s",
			*e->modes_partner ? e->modes_partner : "(none)");
	if (e->autoneg.v && e->modes_partner &&
	    has_speed_mode(e->modes_partner) &&
	    has_speed_mode(e->modes_advertised) &&
	    !common_mode(e->modes_advertised, e->modes_partner, common,
			 sizeof(common))) {
		diag_verdict(x, r, RD_FAIL, "no_common_mode",
			     "%s: no link mode in common with the partner",
			     t->name);
		diag_next(x, r,
			  "make a speed both ends support available on "
			  "both (ethtool -s %s advertise ...), or replace "
			  "the cable with one both ends accept",
			  rd_shquote_tmp(t->netdev));
		return;
	}
	if (port_down(t) && e->autoneg.v && e->modes_partner &&
	    !*e->modes_partner && reports_partner(n)) {
		/* Nothing negotiates without a signal: is one arriving? */
		struct lane_scan s;

		if (m->present.ok && !m->present.v) {
			diag_verdict(x, r, RD_UNKNOWN, "no_module",
				     "%s: no module in the cage: no partner to "
				     "negotiate with (see phy.module)",
				     t->name);
			return;
		}
		if (!module_read(m)) {
			diag_verdict(
				x, r, RD_UNKNOWN, "no_data",
				"%s: the partner sends no autonegotiation "
				"pages; whether any signal arrives needs the "
				"module's data (%s)",
				t->name, m->error ? m->error : "not read");
			return;
		}
		scan_lanes(m, &s);
		if (m->dom.ok && m->dom.v && s.n == 0) {
			diag_verdict(x, r, RD_UNKNOWN, "no_data",
				     "%s: the partner sends no "
				     "autonegotiation pages; whether any "
				     "light arrives needs the module's lane "
				     "monitors, which were not read",
				     t->name);
			return;
		}
		if (s.n && s.rx_dark == s.n) {
			diag_verdict(x, r, RD_UNKNOWN, "no_light",
				     "%s: no light arrives, so nothing can "
				     "negotiate (see phy.optics)",
				     t->name);
			return;
		}
		diag_verdict(x, r, RD_FAIL, "partner_no_autoneg",
			     "%s: autonegotiation is on here but the partner "
			     "sends no autonegotiation pages (autoneg off on "
			     "the switch port?)",
			     t->name);
		diag_next(x, r,
			  "turn autonegotiation on at the switch port, "
			  "or force this side to the switch's speed: "
			  "ethtool -s %s autoneg off speed SPEED",
			  rd_shquote_tmp(t->netdev));
		return;
	}
	if (!port_down(t) && e->lanes.ok && module_read(m) &&
	    m->media_lanes.ok && e->lanes.v < m->media_lanes.v) {
		diag_verdict(x, r, RD_WARN, "lanes_missing",
			     "%s: the link trained on %" PRIu64
			     " of the module's "
			     "%" PRIu64 " lanes",
			     t->name, e->lanes.v, m->media_lanes.v);
		diag_next(x, r,
			  "a breakout cable uses fewer lanes by design; "
			  "otherwise reseat the cable and check the "
			  "lanes' Rx power (phy.optics)");
		return;
	}
	diag_verdict(x, r, RD_PASS, "ok", "%s: %s%s%s", t->name,
		     e->autoneg.v ? "autonegotiation on" : "forced speed",
		     *common ? ", both ends support " : "", common);
}

/* ---- the port-DOWN tree ---- */

/*
 * The physical cause of a DOWN RoCE port with no carrier, when the
 * module, its optics or the link modes name one: evidence, verdict and
 * next step in r, true. False leaves r as it was but for evidence.
 */
bool diag_phy_down_cause(struct diag_ctx *x, struct rd_result *r,
			 const struct diag_target *t)
{
	static const char *const decisive[] = {
		"no_module",	    "module_unreadable",  "module_fault",
		"module_low_power", "tx_fault",		  "no_light",
		"rx_lane_dark",	    "module_hot",	  "module_too_slow",
		"fec_mismatch",	    "partner_no_autoneg", "no_common_mode",
	};
	static diag_each_fn *const order[] = {
		check_phy_module,
		check_phy_optics,
		check_phy_fec,
		check_phy_linkmodes,
	};
	bool found = false;

	if (!t->n)
		return false;
	/*
	 * A cage known empty only from the driver's "no cable" is said by the
	 * link-down reason table, with its own next step.
	 */
	if (t->n->ethtool.ext_state_num.ok &&
	    t->n->ethtool.ext_state_num.v == RD_EXT_NO_CABLE &&
	    !(t->n->xcvr.present.ok && t->n->xcvr.present.v))
		return false;
	/* Each phy check judges a scratch result; a decisive FAIL wins. */
	for (size_t i = 0; !found && i < sizeof(order) / sizeof(order[0]);
	     i++) {
		struct rd_results tmp = { .v = calloc(1, sizeof(*tmp.v)),
					  .n = 1 };
		struct rd_result *p = tmp.v;
		const char *sum;
		size_t nl = strlen(t->name);

		if (!p) {
			x->err = -ENOMEM;
			return false;
		}
		p->device = r->device ? strdup(r->device) : NULL;
		p->port = r->port;
		p->netdev = r->netdev ? strdup(r->netdev) : NULL;
		order[i](x, t, p);
		for (size_t k = 0;
		     p->cause && p->summary && p->verdict == RD_FAIL &&
		     k < sizeof(decisive) / sizeof(decisive[0]);
		     k++)
			if (!strcmp(p->cause, decisive[k]))
				found = true;
		if (found) {
			/* "mlx5_1/1: no light ..." is said as "mlx5_1/1 DOWN:
			 * no light ..." */
			sum = p->summary;
			if (!strncmp(sum, t->name, nl) && sum[nl] == ':')
				sum += nl + 1 + (sum[nl + 1] == ' ');
			for (size_t e = 0; e < p->n_evidence; e++)
				diag_ev(x, r, p->evidence[e].what,
					p->evidence[e].source, "%s",
					p->evidence[e].value
						? p->evidence[e].value
						: "");
			diag_step(x, r, RD_FAIL, "%s: %s",
				  p->check_id ? p->check_id : "cable and PHY",
				  sum);
			diag_verdict(x, r, RD_FAIL, p->cause, "%s DOWN: %s",
				     t->name, sum);
			if (p->next_step)
				diag_next(x, r, "%s", p->next_step);
		}
		rd_results_free(&tmp);
	}
	return found;
}
