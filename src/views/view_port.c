// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port detail: every attribute of the port, its device and its netdev
 * (walked through the model's field tables, so a new field shows up here
 * by itself), the GID table, the port-down decision path and the verdicts.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/rate.h"
#include "core/virt.h"
#include "views/ui.h"

static struct w_page page;

/* The port's link layer, as read ("InfiniBand", "Ethernet"), or not. */
enum link { LINK_UNKNOWN, LINK_IB, LINK_ETH };

/* IB port_attr active_width codes (1X, 4X, 8X, 12X, 2X) in lanes. */
static unsigned width_lanes(uint64_t v)
{
	switch (v) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

/* IB port_attr active_speed codes: the lane's name ("EDR"), NULL. */
static const char *speed_name(uint64_t v)
{
	static const struct {
		uint64_t code;
		const char *name;
	} s[] = { { 1, "SDR" },	  { 2, "DDR" },	  { 4, "QDR" },
		  { 8, "FDR10" }, { 16, "FDR" },  { 32, "EDR" },
		  { 64, "HDR" },  { 128, "NDR" }, { 256, "XDR" } };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].code == v)
			return s[i].name;
	return NULL;
}

/*
 * A number the kernel gives as a code, as a person reads it (appended to
 * val): widths and speeds by InfiniBand names on an IB port, in lanes and
 * Gb/s per lane on Ethernet; DCBX mode bits; PFC capability.
 */
static void decode(const char *key, uint64_t v, enum link ll, char *val,
		   size_t size)
{
	bool ib = ll == LINK_IB;
	size_t len = strlen(val);
	char *out = val + len;

	size -= len;
	if (!strcmp(key, "verbs.active_width") && width_lanes(v) &&
	    ll != LINK_UNKNOWN) {
		if (ib)
			snprintf(out, size, " (%uX)", width_lanes(v));
		else
			snprintf(out, size, " (%u lane%s)", width_lanes(v),
				 width_lanes(v) == 1 ? "" : "s");
	} else if (!strcmp(key, "verbs.active_speed") && speed_name(v) &&
		   ll != LINK_UNKNOWN) {
		const struct rd_rate_lane *l = rd_rate_ib_lane(speed_name(v));

		if (ib)
			snprintf(out, size, " (%s)", speed_name(v));
		else if (l)
			snprintf(out, size, " (%.5g Gb/s per lane)",
				 l->signal_gbps);
	} else if (!strcmp(key, "dcb.dcbx_mode")) {
		/* DCB_CAP_DCBX_* of linux/dcbnl.h */
		static const char *const bit[] = {
			"host LLDP agent",
			"negotiated by the NIC (LLD managed)", "CEE", "IEEE",
			"static"
		};
		size_t n = 0;

		for (unsigned i = 0; i < 5; i++)
			if (v & (1u << i) && n < size)
				n += (size_t)snprintf(out + n, size - n, "%s%s",
						      n ? ", " : " (", bit[i]);
		if (n && n < size)
			snprintf(out + n, size - n, ")");
		else if (!n)
			snprintf(out, size, " (no DCBX)");
	} else if (!strcmp(key, "dcb.pfc_cap")) {
		snprintf(out, size,
			 " (PFC on up to %" PRIu64 " traffic class%s)", v,
			 v == 1 ? "" : "es");
	}
}

/* Fields a port of the other link layer never has: left out when N/A. */
static bool foreign(const char *key, enum link ll)
{
	static const char *const ib_only[] = { "lid", "sm_lid", "sm_sl",
					       "lid_mask_count", NULL };
	static const char *const eth_only[] = { "netdev", "netdev_index",
						NULL };
	const char *const *k = ll == LINK_IB ? eth_only : ib_only;

	if (ll == LINK_UNKNOWN)
		return false;
	for (; *k; k++)
		if (!strcmp(key, *k))
			return true;
	return false;
}

static const struct rd_field *sub_table(const struct rd_field *f,
					const char *key)
{
	for (; f->kind != RD_F_END; f++)
		if (strcmp(f->key, key) == 0)
			return f->sub;
	return NULL;
}

/* One line per scalar field; arrays and counters have their own screens. */
static void fields(struct w_lines *l, const struct rd_field *f, const void *obj,
		   const char *prefix, enum link ll)
{
	for (; f->kind != RD_F_END; f++) {
		const char *p = (const char *)obj + f->off;
		char key[96], val[200] = "";
		bool ok = true; /* false: not read, shown dim as N/A */

		snprintf(key, sizeof(key), "%s%s", prefix, f->key);
		switch (f->kind) {
		case RD_F_STR: {
			const char *s = *(char *const *)p;

			ok = s != NULL;
			snprintf(val, sizeof(val), "%s", ok ? s : "");
			break;
		}
		case RD_F_PU64:
			snprintf(val, sizeof(val), "%" PRIu64,
				 *(const uint64_t *)p);
			break;
		case RD_F_U64:
		case RD_F_HEX:
		case RD_F_GUID: {
			const struct rd_ou64 *u = (const void *)p;

			ok = u->ok;
			if (f->kind == RD_F_HEX)
				snprintf(val, sizeof(val), "0x%" PRIx64, u->v);
			else if (f->kind == RD_F_GUID)
				rd_format_guid(u->v, val, sizeof(val));
			else
				snprintf(val, sizeof(val), "%" PRIu64, u->v);
			if (ok)
				decode(key, u->v, ll, val, sizeof(val));
			break;
		}
		case RD_F_S64: {
			const struct rd_os64 *v = (const void *)p;

			ok = v->ok;
			snprintf(val, sizeof(val), "%" PRId64, v->v);
			break;
		}
		case RD_F_DBL: {
			const struct rd_odbl *d = (const void *)p;

			ok = d->ok;
			snprintf(val, sizeof(val), "%g", d->v);
			break;
		}
		case RD_F_BOOL: {
			const struct rd_obool *b = (const void *)p;

			ok = b->ok;
			snprintf(val, sizeof(val), "%s", b->v ? "yes" : "no");
			break;
		}
		case RD_F_STRUCT: {
			char sub[96];

			/* The module has its own section, Cable and optics. */
			if (!strcmp(f->key, "transceiver"))
				continue;
			snprintf(sub, sizeof(sub), "%s.", key);
			fields(l, f->sub, p, sub, ll);
			continue;
		}
		default:
			continue;
		}
		/* IB addressing on Ethernet means nothing; an IB port's
		 * netdev (IPoIB) is shown when it has one. */
		if (foreign(key, ll) && (ll == LINK_ETH || !ok))
			continue;
		w_lines_add(l, ok ? W_NORMAL : W_DIM, "  %-28s %s", key,
			    ok ? val : "N/A");
	}
}

static void gid_table(struct w_lines *l, const struct rd_port *p)
{
	static const uint8_t v4map[12] = { 0, 0, 0, 0, 0,    0,
					   0, 0, 0, 0, 0xff, 0xff };

	w_lines_add(l, W_HEAD, "GID table (%zu entries)", p->n_gids);
	w_lines_add(l, W_HEAD, "  %-5s %-39s %-15s %-10s %s", "INDEX", "GID",
		    "IPv4", "TYPE", "NETDEV");
	if (!p->n_gids)
		/* Every port has one (IB: prefix and GUID; RoCE: its
		 * link-local address): none is a table not read. */
		w_lines_add(l, W_DIM, "  GID table not read");
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct rd_gid *g = &p->gids[i];
		char gid[48] = "N/A", ip[20] = "";

		if (g->raw_ok) {
			rd_format_gid(g->raw, gid, sizeof(gid));
			if (memcmp(g->raw, v4map, 12) == 0)
				snprintf(ip, sizeof(ip), "%u.%u.%u.%u",
					 g->raw[12], g->raw[13], g->raw[14],
					 g->raw[15]);
		}
		w_lines_add(l,
			    g->type && strstr(g->type, "v2") && ip[0]
				    ? W_GOOD
				    : W_NORMAL,
			    "  %-5" PRIu64 " %-39s %-15s %-10s %s", g->index,
			    gid, ip, ui_str(g->type), ui_str(g->netdev));
	}
}

static const char *mark(enum rd_verdict v)
{
	static const char *const marks[] = { "ok  ", " ?  ", "WARN", "FAIL" };

	return rd_verdict_pick(v, marks);
}

/* "    next step: ..." wrapped to the page, continued under its text. */
static void labelled(struct w_lines *l, enum w_style st, const char *label,
		     const char *text, int width)
{
	char lines[16][256];
	int indent = (int)strlen(label) + 2;
	size_t n =
		w_wrap(text, width - 4 - indent > 20 ? width - 4 - indent : 20,
		       lines, 16);

	for (size_t i = 0; i < n; i++)
		w_lines_add(l, st, "    %s%s%*s%s", i ? "" : label,
			    i ? "" : ": ", i ? indent : 0, "", lines[i]);
}

static void verdicts(struct ui *ui, struct w_lines *l,
		     const struct rd_device *d, const struct rd_port *p,
		     int width)
{
	bool any_path = false;

	w_lines_add(l, W_HEAD, "Port-down decision path");
	for (size_t i = 0; ui->st.have_results && i < ui->st.results.n; i++) {
		const struct rd_result *r = &ui->st.results.v[i];

		if (!r->n_path || !r->device || !d->name ||
		    strcmp(r->device, d->name) ||
		    (p && r->port && r->port != p->port))
			continue;
		any_path = true;
		w_lines_add(l, W_NORMAL, "  %s", ui_str(r->title));
		for (size_t k = 0; k < r->n_path; k++)
			w_lines_add(l, ui_verdict_style(r->path[k].verdict),
				    "    %zu. [%s] %s", k + 1,
				    mark(r->path[k].verdict),
				    ui_str(r->path[k].text));
		if (r->verdict == RD_PASS)
			continue;
		/* Where the path ends, what to do about it. */
		if (r->next_step)
			labelled(l, W_NORMAL, "next step", r->next_step, width);
		if (r->fix)
			w_lines_add(l, W_WARN, "    fix-up: # %s",
				    ui_str(r->fix->command));
		else
			labelled(l, W_NORMAL, "no fix-up",
				 rd_result_no_fix_reason(r), width);
	}
	if (!any_path)
		w_lines_add(l, W_DIM,
			    ui->st.have_results
				    ? "  no decision path for this port"
				    : "  checks not run");
	w_lines_add(l, W_NORMAL, " ");
	w_lines_add(l, W_HEAD, "Verdicts for this port");
	for (size_t i = 0; ui->st.have_results && i < ui->st.results.n; i++) {
		const struct rd_result *r = &ui->st.results.v[i];

		if (!r->device || !d->name || strcmp(r->device, d->name) ||
		    (p && r->port && r->port != p->port))
			continue;
		w_lines_add(l, ui_verdict_style(r->verdict), "  %-7s %-24s %s",
			    rd_verdict_name(r->verdict), ui_str(r->check_id),
			    ui_str(r->summary));
	}
}

static const char *flag(struct rd_obool b, const char *set)
{
	return !b.ok ? "-" : b.v ? set : ".";
}

/* A lane's colour against the module's own limits and flags. */
static enum w_style lane_style(const struct rd_xcvr *m,
			       const struct rd_xcvr_lane *l)
{
	const struct rd_xcvr_limits *rx = &m->rx_power_limits;

	if ((l->rx_los.ok && l->rx_los.v) ||
	    (l->tx_fault.ok && l->tx_fault.v) ||
	    (l->rx_power_mw.ok && rx->low_alarm.ok &&
	     l->rx_power_mw.v < rx->low_alarm.v) ||
	    (l->rx_power_flags.ok &&
	     (l->rx_power_flags.v & RD_XCVR_F_LOW_ALARM)))
		return W_BAD;
	if ((l->rx_power_mw.ok && rx->low_warn.ok &&
	     l->rx_power_mw.v < rx->low_warn.v) ||
	    (l->rx_power_flags.ok &&
	     (l->rx_power_flags.v & RD_XCVR_F_LOW_WARN)))
		return W_WARN;
	return W_NORMAL;
}

/* Cable and optics: what ethtool -m, --show-fec and mlxlink would show. */
static void optics(struct ui *ui, struct w_lines *l, const struct rd_netdev *nd,
		   int width)
{
	const struct rd_xcvr *m = &nd->xcvr;
	const struct rd_ethtool *e = &nd->ethtool;
	const struct rd_counter *unc =
		rd_counters_find(&e->fec_stats, "uncorrectable_blocks");
	const struct rd_counter *cor =
		rd_counters_find(&e->fec_stats, "corrected_blocks");

	w_lines_add(l, W_HEAD, "Cable and optics (%s)", ui_str(nd->name));
	if (!m->identifier.ok) {
		w_lines_add(l, m->present.ok && !m->present.v ? W_BAD : W_DIM,
			    "  %s",
			    m->error ? m->error
			    : m->present.ok && !m->present.v
				    ? "no module in the cage"
				    : "module memory not read");
	} else {
		char len[24], wl[24] = "";

		rd_xcvr_length_text(m, " ", len, sizeof(len));
		if (m->wavelength_nm.ok)
			snprintf(wl, sizeof(wl), " %.0f nm",
				 m->wavelength_nm.v);
		w_lines_add(l, W_NORMAL, "  %s %s%s%s  %s  %s %s rev %s SN %s",
			    ui_str(m->type), ui_str(m->media), len, wl,
			    ui_str(m->media_detail), ui_str(m->vendor),
			    ui_str(m->part_number), ui_str(m->revision),
			    ui_str(m->serial));
		if (m->module_state)
			w_lines_add(l,
				    strcmp(m->module_state, "ModuleReady")
					    ? W_BAD
					    : W_NORMAL,
				    "  module state %s%s%s", m->module_state,
				    m->fault_cause ? ": " : "",
				    m->fault_cause ? m->fault_cause : "");
		if (m->dom.ok && !m->dom.v)
			w_lines_add(l, W_DIM, "  no diagnostics: %s",
				    ui_str(m->no_dom));
		if (m->temperature_c.ok || m->vcc_v.ok) {
			const struct rd_xcvr_limits *t = &m->temperature_limits;
			bool hot = m->temperature_c.ok &&
				   ((t->high_alarm.ok &&
				     m->temperature_c.v > t->high_alarm.v) ||
				    (t->high_warn.ok &&
				     m->temperature_c.v > t->high_warn.v));
			char tc[32] = "-", vc[32] = "-", lim[48] = "";

			if (m->temperature_c.ok)
				snprintf(tc, sizeof(tc), "%.1f C",
					 m->temperature_c.v);
			if (m->vcc_v.ok)
				snprintf(vc, sizeof(vc), "%.3f V", m->vcc_v.v);
			if (t->high_warn.ok)
				snprintf(lim, sizeof(lim),
					 " (high warning %.1f C)",
					 t->high_warn.v);
			w_lines_add(l, hot ? W_BAD : W_NORMAL,
				    "  temperature %s%s  supply %s", tc, lim,
				    vc);
		}
		if (m->n_lanes) {
			char lo[24] = "-";
			double dbm;
			int sw = width - 62 > 8 ? width - 62 : 8;

			if (sw > 40)
				sw = 40;
			if (m->rx_power_limits.low_alarm.ok &&
			    rd_mw_to_dbm(m->rx_power_limits.low_alarm.v, &dbm))
				snprintf(lo, sizeof(lo), "%.1f dBm", dbm);
			w_lines_add(l, W_HEAD,
				    "  %-4s %9s %8s %8s %3s %3s %5s  Rx last "
				    "minute (low alarm %s)",
				    "LANE", "BIAS mA", "TX dBm", "RX dBm",
				    "LOS", "LOL", "FAULT", lo);
			for (size_t i = 0; i < m->n_lanes; i++) {
				const struct rd_xcvr_lane *ln = &m->lanes[i];
				char bias[16] = "-", tx[16], rx[16], key[160];
				char spark[256] = "";
				double v[RD_HISTORY_DEPTH];
				size_t n = 0;
				const struct rd_series *ser;

				if (ln->tx_bias_ma.ok)
					snprintf(bias, sizeof(bias), "%.2f",
						 ln->tx_bias_ma.v);
				rd_xcvr_fmt_dbm(tx, sizeof(tx), ln->tx_power_mw,
						"dark");
				rd_xcvr_fmt_dbm(rx, sizeof(rx), ln->rx_power_mw,
						"dark");
				snprintf(key, sizeof(key),
					 "netdev/%s/xcvr/rx_power_lane%" PRIu64,
					 ui_str(nd->name), ln->lane);
				ser = rd_history_get(&ui->st.hist, key);
				for (size_t k = ser ? ser->len : 0; k-- > 0;) {
					const struct rd_sample *s =
						rd_series_at(ser, k);

					if (s && n < 60)
						v[n++] = s->ok ? (double)s->v
							       : NAN;
				}
				w_spark(v, n, sw, w_utf8(), spark,
					sizeof(spark));
				w_lines_add(l, lane_style(m, ln),
					    "  %-4" PRIu64
					    " %9s %8s %8s %3s %3s %5s  %s",
					    ln->lane, bias, tx, rx,
					    flag(ln->rx_los, "LOS"),
					    flag(ln->rx_lol, "LOL"),
					    flag(ln->tx_fault, "FAULT"), spark);
			}
		}
	}
	if (e->fec_active || e->fec_configured || e->fec_stats.n) {
		char c[32] = "-", u[32] = "-";

		if (cor && cor->value.ok)
			snprintf(c, sizeof(c), "%" PRIu64, cor->value.v);
		if (unc && unc->value.ok)
			snprintf(u, sizeof(u), "%" PRIu64, unc->value.v);
		w_lines_add(l,
			    unc && unc->value.ok && unc->value.v ? W_WARN
								 : W_NORMAL,
			    "  FEC %s (configured %s)  blocks corrected %s, "
			    "uncorrectable %s (rates: Counters screen)",
			    ui_str(e->fec_active), ui_str(e->fec_configured), c,
			    u);
	}
	if (e->modes_advertised)
		w_lines_add(l, W_NORMAL, "  autoneg %s  advertised %s",
			    e->autoneg.ok ? (e->autoneg.v ? "on" : "off") : "?",
			    ui_str(e->modes_advertised));
	if (e->modes_partner)
		w_lines_add(l, *e->modes_partner ? W_NORMAL : W_DIM,
			    "  partner advertised %s",
			    *e->modes_partner ? e->modes_partner : "nothing");
}

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* What the PF's driver holds for a VF, under its line; nothing if unread. */
static void vf_settings_line(struct w_lines *l, const struct rd_vf *vf)
{
	char buf[192];

	rd_vf_settings(vf, "  ", buf, sizeof(buf));
	if (*buf)
		w_lines_add(l, rd_vf_held_down(vf) ? W_WARN : W_DIM,
			    "           %s", buf);
}

static void vf_lines(struct w_lines *l, const struct rd_snapshot *s,
		     const struct rd_sriov *sr)
{
	const struct rd_devlink *dl =
		sr->pf_bdf ? rd_snapshot_devlink(s, sr->pf_bdf) : NULL;

	if (!sr->totalvfs.ok)
		w_lines_add(l, W_DIM, "  SR-IOV on %s: VF count not read",
			    ui_str(sr->pf_bdf));
	else if (sr->totalvfs.v == 0)
		w_lines_add(l, W_NORMAL,
			    "  SR-IOV on %s: off in the NIC's firmware "
			    "(sriov_totalvfs 0)",
			    ui_str(sr->pf_bdf));
	else if (sr->numvfs.ok)
		w_lines_add(l, W_NORMAL,
			    "  SR-IOV on %s: %" PRIu64 " of %" PRIu64
			    " VFs enabled",
			    ui_str(sr->pf_bdf), sr->numvfs.v, sr->totalvfs.v);
	else
		w_lines_add(l, W_DIM,
			    "  SR-IOV on %s: up to %" PRIu64
			    " VFs, how many are enabled not read",
			    ui_str(sr->pf_bdf), sr->totalvfs.v);
	if (dl && dl->eswitch_mode)
		w_lines_add(l, W_NORMAL, "  eswitch mode %s%s",
			    ui_str(dl->eswitch_mode),
			    same(dl->eswitch_mode, "switchdev")
				    ? " (VF traffic through representors)"
				    : "");
	for (size_t i = 0; i < sr->n_vfs; i++) {
		const struct rd_vf *vf = &sr->vfs[i];
		const struct rd_netns_dev *away =
			rd_netns_of_function(s, vf->bdf);
		char idx[24] = "vf?";

		if (vf->index.ok)
			snprintf(idx, sizeof(idx), "vf%" PRIu64, vf->index.v);
		if (same(vf->driver, "vfio-pci")) {
			w_lines_add(l, W_NORMAL,
				    "    %-5s %-13s vfio-pci (passed to a VM)",
				    idx, ui_str(vf->bdf));
		} else if (away && !vf->rdma_device && !vf->netdev) {
			char where[256];

			rd_netns_where(away, where, sizeof(where));
			w_lines_add(
				l, W_NORMAL,
				"    %-5s %-13s %-10s in netns %s: netdev %s  "
				"RDMA %s",
				idx, ui_str(vf->bdf), ui_str(vf->driver), where,
				ui_str(away->netdev),
				ui_str(away->rdma_device));
		} else {
			w_lines_add(l, vf->driver ? W_NORMAL : W_DIM,
				    "    %-5s %-13s %-10s netdev %-12s RDMA %s",
				    idx, ui_str(vf->bdf),
				    vf->driver ? vf->driver : "no driver",
				    ui_str(vf->netdev),
				    ui_str(vf->rdma_device));
		}
		vf_settings_line(l, vf);
	}
}

static void bond_lines(struct w_lines *l, const struct rd_bond *b)
{
	size_t unread, up = rd_bond_members_up(b, &unread);
	char nr[32] = "";

	if (unread)
		snprintf(nr, sizeof(nr), ", %zu not read", unread);

	w_lines_add(l, up + unread < b->n_members ? W_WARN : W_NORMAL,
		    "  bond %s: %s, hash %s, %zu of %zu members up%s%s%s",
		    ui_str(b->name), ui_str(b->mode), ui_str(b->hash_policy),
		    up, b->n_members, nr,
		    b->rdma_device ? ", RoCE LAG device " : "",
		    b->rdma_device ? ui_str(b->rdma_device) : "");
	if (b->lag_state)
		w_lines_add(l, W_NORMAL, "    mlx5 LAG state: %s",
			    ui_str(b->lag_state));
	for (size_t i = 0; i < b->n_members; i++) {
		const struct rd_bond_member *m = &b->members[i];

		w_lines_add(l,
			    !m->operstate	   ? W_DIM
			    : rd_bond_member_up(m) ? W_NORMAL
						   : W_BAD,
			    "    member %-14s %-5s carrier %s%s%s",
			    ui_str(m->name),
			    m->operstate ? m->operstate : "state not read",
			    !m->carrier.ok ? "not read"
			    : m->carrier.v ? "on"
					   : "off",
			    m->rdma_device ? "  RDMA " : "",
			    m->rdma_device ? ui_str(m->rdma_device) : "");
	}
}

/*
 * What the device shares out or belongs to: the virtual functions of a
 * physical function, the function a VF belongs to, and the bond whose
 * RoCE LAG the device serves or whose member the port's netdev is.
 */
static void functions(const struct ui *ui, struct w_lines *l,
		      const struct rd_device *d, const struct rd_netdev *nd)
{
	const struct rd_snapshot *s = &ui->st.snap;
	const struct rd_sriov *sr = rd_sriov_of_pf(s, d->name), *pf;
	const struct rd_vf *vf = rd_vf_of_device(s, d->name, &pf);
	const struct rd_bond *b = rd_bond_of(s, d->name, nd ? nd->name : NULL);

	if (!sr && !vf && !b)
		return;
	w_lines_add(l, W_NORMAL, " ");
	w_lines_add(l, W_HEAD, "Functions and bonds");
	if (sr)
		vf_lines(l, s, sr);
	if (vf)
		w_lines_add(l, W_NORMAL,
			    "  a virtual function of %s (RDMA %s, netdev %s)",
			    ui_str(pf->pf_bdf), ui_str(pf->pf_rdma_device),
			    ui_str(pf->pf_netdev));
	if (b)
		bond_lines(l, b);
}

static void port_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	const struct rd_netdev *nd;
	const struct rd_field *pf = sub_table(rd_device_fields, "ports");
	enum link ll;

	w_lines_reset(&page.lines);
	if (!d) {
		w_print(r, 0, 1, W_DIM, "No port selected: no RDMA devices.");
		return;
	}
	if (!p) {
		/* A device whose ports could not be read: what is known. */
		w_lines_add(&page.lines, W_HEAD,
			    "%s: no port could be read   (< > other port)",
			    ui_str(d->name));
		w_lines_add(&page.lines, W_NORMAL, " ");
		verdicts(ui, &page.lines, d, NULL, r->w);
		w_lines_add(&page.lines, W_NORMAL, " ");
		w_lines_add(&page.lines, W_HEAD, "Device %s", ui_str(d->name));
		fields(&page.lines, rd_device_fields, d, "", LINK_UNKNOWN);
		w_page_draw(&page, r);
		return;
	}
	ll = !p->link_layer			    ? LINK_UNKNOWN
	     : !strcmp(p->link_layer, "InfiniBand") ? LINK_IB
	     : !strcmp(p->link_layer, "Ethernet")   ? LINK_ETH
						    : LINK_UNKNOWN;
	w_lines_add(&page.lines, W_HEAD,
		    "%s port %" PRIu64 "   (< > other port)", ui_str(d->name),
		    p->port);
	w_lines_add(&page.lines, ui_state_style(p), "  state %s / %s",
		    p->state ? p->state : "N/A",
		    p->phys_state ? p->phys_state : "N/A");
	w_lines_add(&page.lines, W_NORMAL, " ");
	nd = ui_port_netdev(ui, p);
	/* A port that is not ACTIVE: why, and what to do, come first. */
	if (p->state_num.ok && !rd_port_active(p)) {
		verdicts(ui, &page.lines, d, p, r->w);
		w_lines_add(&page.lines, W_NORMAL, " ");
		if (nd) {
			optics(ui, &page.lines, nd, r->w);
			w_lines_add(&page.lines, W_NORMAL, " ");
		}
		gid_table(&page.lines, p);
	} else {
		gid_table(&page.lines, p);
		w_lines_add(&page.lines, W_NORMAL, " ");
		verdicts(ui, &page.lines, d, p, r->w);
		if (nd) {
			w_lines_add(&page.lines, W_NORMAL, " ");
			optics(ui, &page.lines, nd, r->w);
		}
	}
	functions(ui, &page.lines, d, nd);
	w_lines_add(&page.lines, W_NORMAL, " ");
	w_lines_add(&page.lines, W_HEAD, "Port attributes");
	if (pf)
		fields(&page.lines, pf, p, "", ll);
	w_lines_add(&page.lines, W_NORMAL, " ");
	w_lines_add(&page.lines, W_HEAD, "Device %s", ui_str(d->name));
	fields(&page.lines, rd_device_fields, d, "", ll);
	if (nd) {
		w_lines_add(&page.lines, W_NORMAL, " ");
		w_lines_add(&page.lines, W_HEAD, "Netdev %s", ui_str(nd->name));
		fields(&page.lines, rd_netdev_fields, nd, "", ll);
		for (size_t i = 0; i < nd->n_addrs; i++) {
			char len[24];

			w_fmt_ou64(nd->addrs[i].prefixlen, len, sizeof(len));
			w_lines_add(&page.lines, W_NORMAL, "  %-28s %s/%s %s",
				    ui_str(nd->addrs[i].family),
				    ui_str(nd->addrs[i].address), len,
				    ui_str(nd->addrs[i].scope));
		}
	}
	w_page_draw(&page, r);
}

static const struct ui_action port_actions[] = {
	UI_ACTION_SCROLL("Up/Down/PgUp/PgDn scroll  < > port",
			 "scroll the page"),
	{ NULL, NULL, NULL, NULL },
};

static const char port_help[] =
	"Every attribute of the selected port, its device and its "
	"netdev (N/A where the source could not be read), the GID "
	"table as show_gids prints it (index, GID, IPv4, RoCE "
	"version, netdev; RoCE v2 IPv4 GIDs in green), the decision "
	"path the port-down check walked with its next step and fix-up "
	"(first when the port is not ACTIVE), every verdict about "
	"the port, and the functions and bonds the device belongs to: "
	"a physical function's SR-IOV virtual functions, the function a "
	"VF belongs to, and the bond (RoCE LAG) with each member's state.";
UI_PAGE_SCREEN(view_port_screen, "Port", "Port", 3, 'p', RD_LAYOUT_FULL,
	       port_draw, port_actions, port_help, &page);
