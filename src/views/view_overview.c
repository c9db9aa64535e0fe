// SPDX-License-Identifier: GPL-2.0-or-later
/* Overview: one row per device port, the selected one summarised below. */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/rate.h"
#include "core/virt.h"
#include "views/ui.h"

enum ocol {
	OC_PORT,
	OC_NETDEV,
	OC_STATE,
	OC_PHYS,
	OC_RATE,
	OC_LL,
	OC_MTU,
	OC_CARRIER,
	OC_MODULE,
	OC_PCIE,
	OC_NUMA,
	OC_FW,
	OC_VERDICT,
	OC_N,
};

/* Display order, and the order columns are dropped on narrow screens. */
static const struct {
	struct w_column c;
	int prio; /* lower is kept longer */
} ocols[OC_N] = {
	[OC_PORT] = { { "PORT", 10, false }, 0 },
	[OC_NETDEV] = { { "NETDEV", 9, false }, 3 },
	[OC_STATE] = { { "STATE", 7, false }, 1 },
	[OC_PHYS] = { { "PHYS", 9, false }, 4 },
	[OC_RATE] = { { "RATE", 6, true }, 5 },
	[OC_LL] = { { "LL", 3, false }, 9 },
	[OC_MTU] = { { "MTU nd/act", 10, false }, 6 },
	[OC_CARRIER] = { { "CARR", 4, false }, 7 },
	[OC_MODULE] = { { "MODULE", 9, false }, 8 },
	[OC_PCIE] = { { "PCIe now/cap", 14, false }, 10 },
	[OC_NUMA] = { { "NUMA", 4, true }, 11 },
	[OC_FW] = { { "FIRMWARE", 12, false }, 12 },
	[OC_VERDICT] = { { "CHECKS", 7, false }, 2 },
};

static const char *ll_short(const char *ll)
{
	if (!ll)
		return "-";
	if (strcmp(ll, "Ethernet") == 0)
		return "Eth";
	if (strcmp(ll, "InfiniBand") == 0)
		return "IB";
	return ll;
}

static void pcie_text(const struct rd_pci *pci, char *buf, size_t size)
{
	char now[24] = "?", cap[24] = "?";

	if (!pci) {
		snprintf(buf, size, "-");
		return;
	}
	if (pci->link_speed_gts.ok && pci->link_width.ok)
		snprintf(now, sizeof(now), "%gGTx%" PRIu64,
			 pci->link_speed_gts.v, pci->link_width.v);
	if (pci->cap_speed_gts.ok && pci->cap_width.ok)
		snprintf(cap, sizeof(cap), "%gGTx%" PRIu64,
			 pci->cap_speed_gts.v, pci->cap_width.v);
	if (strcmp(now, cap) == 0)
		snprintf(buf, size, "%s", now);
	else
		snprintf(buf, size, "%s/%s", now, cap);
}

static bool pcie_degraded(const struct rd_pci *pci)
{
	return pci && pci->link_speed_gts.ok && pci->cap_speed_gts.ok &&
	       pci->link_width.ok && pci->cap_width.ok &&
	       (pci->link_speed_gts.v < pci->cap_speed_gts.v ||
		pci->link_width.v < pci->cap_width.v);
}

static void mtu_text(const struct rd_port *p, const struct rd_netdev *nd,
		     char *buf, size_t size)
{
	char a[24] = "-", b[24] = "-";

	if (nd && nd->mtu.ok)
		snprintf(a, sizeof(a), "%" PRIu64, nd->mtu.v);
	if (p->verbs.active_mtu.ok)
		snprintf(b, sizeof(b), "%" PRIu64, p->verbs.active_mtu.v);
	snprintf(buf, size, "%s/%s", a, b);
}

static size_t pick_columns(int width, enum ocol *out)
{
	bool keep[OC_N];
	int used = 0;
	size_t n = 0;

	/* Take columns by priority while they fit, then lay out in order. */
	for (int i = 0; i < OC_N; i++)
		keep[i] = false;
	for (int prio = 0; prio < OC_N; prio++)
		for (int i = 0; i < OC_N; i++)
			if (ocols[i].prio == prio &&
			    used + ocols[i].c.width + 1 <= width) {
				keep[i] = true;
				used += ocols[i].c.width + 1;
			}
	for (int i = 0; i < OC_N; i++)
		if (keep[i])
			out[n++] = (enum ocol)i;
	return n;
}

static struct w_table tbl;

/* The worst verdict of the checks about a port (0: the whole device). */
static void overview_verdict(struct ui *ui, const struct rd_device *d,
			     uint64_t port, const char **all,
			     enum w_style *allst)
{
	enum rd_verdict v;

	if (ui_port_worst(ui, d->name, port, &v)) {
		all[OC_VERDICT] = rd_verdict_name(v);
		allst[OC_VERDICT] = ui_verdict_style(v);
	} else {
		all[OC_VERDICT] = "-";
		allst[OC_VERDICT] = W_DIM;
	}
}

/*
 * "reachable 98.04 Gb/s, limited by link (link 100.00 Gb/s, ...)"; a port
 * that is not ACTIVE reaches nothing, whatever its link could carry.
 */
enum w_style view_overview_reach(const struct rd_snapshot *s,
				 const struct rd_device *d,
				 const struct rd_port *p, char *buf, size_t len)
{
	struct rd_rate m;
	char mtu[64] = "", pcie[96] = "";
	uint64_t st = p->state_num.v;

	if (!p->state_num.ok) {
		snprintf(buf, len,
			 "reachable: not known (port state not read)");
		return W_DIM;
	}
	if (!rd_port_active(p)) {
		snprintf(buf, len, "not reachable: port %s",
			 rd_port_state_name(st));
		return W_BAD;
	}
	if (rd_rate_port(s, d->name, p->port, &m) < 0 || !m.ok) {
		snprintf(buf, len, "reachable: not known (%s)",
			 d->pci_bdf ? "link speed or PCIe link not read"
				    : "software RDMA: bounded by the CPU");
		return W_DIM;
	}
	if (m.mtu_ok)
		snprintf(mtu, sizeof(mtu),
			 ", %.2f Gb/s after headers at MTU %" PRIu64,
			 m.link_payload_gbps, m.mtu);
	if (m.pcie_ok)
		snprintf(pcie, sizeof(pcie), "; PCIe %.2f Gb/s%s%s%s",
			 rd_rate_pcie_bound(&m),
			 m.pcie_upper_bound ? " at most" : "",
			 rd_rate_pcie_bound(&m) < m.pcie_gbps
				 ? " above the card at "
				 : "",
			 rd_rate_pcie_bound(&m) < m.pcie_gbps ? m.uplink_bdf
							      : "");
	/* A card's PCIe not read: the link gives a bound, not the rate. */
	if (d->pci_bdf && !m.pcie_ok) {
		snprintf(buf, len,
			 "reachable: at most %.2f Gb/s (link %.2f Gb/s%s; "
			 "PCIe link not read)",
			 m.reachable_gbps, m.link_gbps, mtu);
		return W_DIM;
	}
	snprintf(buf, len,
		 "reachable %.2f Gb/s, limited by %s (link %.2f Gb/s%s%s)",
		 m.reachable_gbps, rd_rate_limit_name(m.limit), m.link_gbps,
		 mtu, pcie);
	return m.limit == RD_RATE_LIMIT_LINK ? W_NORMAL : W_WARN;
}

static void reach_line(struct ui *ui, const struct rd_rect *in, int row,
		       const struct rd_device *d, const struct rd_port *p)
{
	char line[256];
	enum w_style st;

	if (!ui->st.have_snap) {
		w_printf(in, row, 0, W_DIM,
			 "reachable: not known (no reading)");
		return;
	}
	st = view_overview_reach(&ui->st.snap, d, p, line, sizeof(line));
	w_printf(in, row, 0, st, "%s", line);
}

/*
 * One line for a device that shares out VFs, is a VF, or serves a bond
 * (the Port screen has each function and member); returns the next row.
 */
static int functions_line(const struct ui *ui, const struct rd_rect *in,
			  int row, const struct rd_device *d,
			  const struct rd_netdev *nd)
{
	const struct rd_snapshot *s = &ui->st.snap;
	const struct rd_sriov *sr = rd_sriov_of_pf(s, d->name), *pf;
	const struct rd_vf *vf = rd_vf_of_device(s, d->name, &pf);
	const struct rd_bond *b = rd_bond_of(s, d->name, nd ? nd->name : NULL);
	char fn[96] = "", bond[160] = "";
	size_t up = 0, unread = 0;

	if (vf)
		snprintf(fn, sizeof(fn), "virtual function of %s  ",
			 ui_str(pf->pf_bdf));
	else if (sr && sr->totalvfs.ok && sr->totalvfs.v == 0)
		snprintf(fn, sizeof(fn), "SR-IOV off in firmware  ");
	else if (sr && sr->totalvfs.ok && sr->numvfs.ok)
		snprintf(fn, sizeof(fn),
			 "SR-IOV %" PRIu64 " of %" PRIu64 " VFs  ",
			 sr->numvfs.v, sr->totalvfs.v);
	if (b) {
		up = rd_bond_members_up(b, &unread);
		snprintf(bond, sizeof(bond),
			 "bond %s %s: %zu of %zu members up%s", ui_str(b->name),
			 ui_str(b->mode), up, b->n_members,
			 unread ? " (the others not read)" : "");
	}
	if (!fn[0] && !bond[0])
		return row;
	w_printf(in, row, 0,
		 b && up + unread < b->n_members ? W_WARN : W_NORMAL, "%s%s",
		 fn, bond);
	return row + 1;
}

/* The worst verdict of the host-wide checks a container depends on. */
static enum rd_verdict container_verdict(const struct ui *ui,
					 const struct rd_result **worst)
{
	static const char *const ids[] = { "host.container", "host.memlock",
					   "host.rdma_netns", "user.uverbs" };
	enum rd_verdict v = RD_UNKNOWN;
	bool judged = false;

	*worst = NULL;
	/* In the order of ids: of two equally bad, the first says more;
	 * nothing judged (all UNKNOWN, or no results yet) is UNKNOWN. */
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
		for (size_t i = 0; ui->st.have_results && i < ui->st.results.n;
		     i++) {
			const struct rd_result *res = &ui->st.results.v[i];

			if (!res->check_id || strcmp(res->check_id, ids[k]) ||
			    res->verdict == RD_UNKNOWN)
				continue;
			if (!judged || res->verdict > v) {
				v = res->verdict;
				*worst = res;
			}
			judged = true;
		}
	return v;
}

/*
 * Inside a container, or with RDMA devices kept per network namespace:
 * what this process can reach, in one line (the container, the netns
 * mode, the /dev/infiniband nodes, memlock and CAP_IPC_LOCK). False on a
 * plain host.
 */
bool view_overview_container_text(const struct rd_snapshot *s, char *buf,
				  size_t len)
{
	const struct rd_host *h = &s->host;
	bool container = rd_diag_in_container(s);
	bool exclusive =
		h->rdma_netns_mode && !strcmp(h->rdma_netns_mode, "exclusive");
	char here[96] = "", gone[96] = "", lock[48];
	size_t nh = 0, ng = 0;

	if (!container && !exclusive)
		return false;
	for (size_t i = 0; i < h->n_devnodes; i++) {
		const struct rd_devnode *n = &h->devnodes[i];
		const char *base = n->path ? strrchr(n->path, '/') : NULL;
		bool ok = n->exists.ok && n->exists.v && !rd_devnode_denied(n);

		if (!base)
			continue;
		base++;
		/* Listed, but whether it exists could not be checked. */
		if (!n->exists.ok) {
			if (ng < sizeof(gone))
				ng += (size_t)snprintf(gone + ng,
						       sizeof(gone) - ng,
						       "%s%s (not checked)",
						       ng ? " " : "", base);
			continue;
		}
		if (ok && nh < sizeof(here))
			nh += (size_t)snprintf(here + nh, sizeof(here) - nh,
					       "%s%s", nh ? " " : "", base);
		else if (!ok && ng < sizeof(gone))
			ng += (size_t)snprintf(gone + ng, sizeof(gone) - ng,
					       "%s%s%s", ng ? " " : "", base,
					       n->exists.v ? " (no access)"
							   : "");
	}
	if (h->memlock_unlimited.ok && h->memlock_unlimited.v)
		snprintf(lock, sizeof(lock), "memlock unlimited");
	else if (h->memlock_soft.ok)
		snprintf(lock, sizeof(lock), "memlock %" PRIu64 " KiB",
			 h->memlock_soft.v / 1024);
	else
		snprintf(lock, sizeof(lock), "memlock ?");
	snprintf(buf, len, "%s%s  netns %s  /dev/infiniband: %s%s%s  %s, %s",
		 container ? "container " : "host",
		 container ? ui_str(h->container) : "",
		 ui_str(h->rdma_netns_mode),
		 nh ? here : (h->n_devnodes ? "none" : "not read"),
		 ng ? ", not usable " : "", ng ? gone : "", lock,
		 h->cap_ipc_lock.ok ? (h->cap_ipc_lock.v ? "CAP_IPC_LOCK"
							 : "no CAP_IPC_LOCK")
				    : "CAP_IPC_LOCK ?");
	return true;
}

static int container_line(const struct ui *ui, const struct rd_rect *in,
			  int row)
{
	const struct rd_result *worst;
	char line[320];

	if (!ui->st.have_snap ||
	    !view_overview_container_text(&ui->st.snap, line, sizeof(line)))
		return row;
	w_printf(in, row, 0, ui_verdict_style(container_verdict(ui, &worst)),
		 "%s", line);
	return row + 1;
}

static void draw_detail(struct ui *ui, const struct rd_rect *r)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	const struct rd_netdev *nd;
	const struct rd_pci *pci;
	char pcie[64], guid[32] = "-", numa[24] = "-";
	int row;

	struct rd_rect in = { r->y + 1, r->x + 2, r->h - 2, r->w - 4 };

	w_box(r, p ? "selected port" : "selected device");
	if (!d)
		return;

	nd = p ? ui_port_netdev(ui, p) : NULL;
	pci = ui_device_pci(ui, d);
	pcie_text(pci, pcie, sizeof(pcie));
	if (d->node_guid.ok) {
		unsigned long long g = d->node_guid.v;

		snprintf(guid, sizeof(guid), "%04llx:%04llx:%04llx:%04llx",
			 g >> 48, (g >> 32) & 0xffff, (g >> 16) & 0xffff,
			 g & 0xffff);
	}
	row = 0;
	if (p)
		w_printf(&in, row++, 0, W_NORMAL,
			 "%s port %" PRIu64 "  %s  fw %s  board %s  driver %s",
			 ui_str(d->name), p->port, ui_str(d->hca_type),
			 ui_str(d->fw_ver), ui_str(d->board_id),
			 ui_str(d->driver));
	else
		w_printf(&in, row++, 0, W_WARN,
			 "%s  no port could be read  %s  fw %s  driver %s",
			 ui_str(d->name), ui_str(d->hca_type),
			 ui_str(d->fw_ver), ui_str(d->driver));
	if (pci && pci->numa_node.ok)
		snprintf(numa, sizeof(numa), "%" PRId64, pci->numa_node.v);
	w_printf(&in, row++, 0, pcie_degraded(pci) ? W_WARN : W_NORMAL,
		 "PCI %s  PCIe %s  NUMA %s  node GUID %s", ui_str(d->pci_bdf),
		 pcie, numa, guid);
	if (p)
		reach_line(ui, &in, row++, d, p);
	if (nd) {
		/* "?": the addresses were not read (a tree of files), "-":
		 * none. */
		const char *ip =
			nd->addrs_read.ok && nd->addrs_read.v ? "-" : "?";

		for (size_t i = 0; i < nd->n_addrs; i++)
			if (nd->addrs[i].family &&
			    strcmp(nd->addrs[i].family, "inet") == 0) {
				ip = ui_str(nd->addrs[i].address);
				break;
			}
		w_printf(&in, row++, 0, W_NORMAL,
			 "netdev %s  %s  carrier %s  IPv4 %s  mac %s",
			 ui_str(nd->name),
			 nd->admin_up.ok
				 ? (nd->admin_up.v ? "admin up" : "admin DOWN")
				 : "admin ?",
			 nd->carrier.ok ? (nd->carrier.v ? "yes" : "NO") : "?",
			 ip, ui_str(nd->mac));
		if (nd->xcvr.identifier.ok) {
			const struct rd_xcvr *m = &nd->xcvr;
			char len[24], t[24] = "";

			rd_xcvr_length_text(m, " ", len, sizeof(len));
			if (m->temperature_c.ok)
				snprintf(t, sizeof(t), "  %.1f C",
					 m->temperature_c.v);
			w_printf(&in, row++, 0, W_NORMAL,
				 "module %s %s%s  %s %s  SN %s%s",
				 ui_str(m->type), ui_str(m->media), len,
				 ui_str(m->vendor), ui_str(m->part_number),
				 ui_str(m->serial), t);
		}
	}
	row = functions_line(ui, &in, row, d, nd);
	row = container_line(ui, &in, row);
	/* The port's findings worst first, so a FAIL is never below the fold.
	 */
	for (int v = RD_FAIL; ui->st.have_results && v > RD_PASS; v--) {
		for (size_t i = 0; i < ui->st.results.n && row < in.h; i++) {
			const struct rd_result *res = &ui->st.results.v[i];

			if (!res->device || !d->name ||
			    strcmp(res->device, d->name) ||
			    (p && res->port && res->port != p->port) ||
			    (int)res->verdict != v)
				continue;
			w_printf(&in, row, 0, ui_verdict_style(res->verdict),
				 "%-7s", rd_verdict_name(res->verdict));
			w_print(&in, row++, 8, W_NORMAL,
				ui_str(res->summary ? res->summary
						    : res->title));
		}
	}
}

static void overview_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	enum ocol pick[OC_N];
	struct w_column cols[OC_N];
	size_t nc = pick_columns(r->w, pick);
	int h = r->h - 1;

	for (size_t i = 0; i < nc; i++)
		cols[i] = ocols[pick[i]].c;
	w_table_header(r, 0, cols, nc);
	if (!ui->st.have_snap) {
		/* The banner says why nothing could be read; only that. */
		w_print(r, 2, 2, W_DIM,
			ui->st.source_err[0] ? "Nothing could be read."
					     : "Reading...");
		return;
	}
	if (!ui->st.n_ports) {
		const struct rd_result *worst;
		char line[320];

		w_print(r, 2, 2, W_DIM, "No RDMA devices found.");
		/* In a container or a namespace: what it was given, judged. */
		if (view_overview_container_text(&ui->st.snap, line,
						 sizeof(line))) {
			enum rd_verdict v = container_verdict(ui, &worst);

			w_printf(r, 3, 2, ui_verdict_style(v), "%s", line);
			if (worst && v > RD_PASS)
				w_printf(r, 4, 2, ui_verdict_style(v), "%s: %s",
					 ui_str(worst->check_id),
					 ui_str(worst->summary));
			w_print(r, 5, 2, W_DIM,
				"The checklist (k) has the evidence and what "
				"to do.");
			return;
		}
		if (ui->o.roots && ui->o.roots->redirected &&
		    ui->st.source == CON_LIVE) {
			w_printf(r, 3, 2, W_DIM, "The tree %s has none.",
				 ui->o.roots->sysfs);
			w_print(r, 4, 2, W_DIM,
				"To see the console at work: press D (or run "
				"rdmadiag --demo).");
		} else if (ui->st.source == CON_LIVE) {
			w_print(r, 3, 2, W_DIM,
				"Is the driver loaded (mlx5_ib, rdma_rxe)? The "
				"checklist (k) looks for the cause.");
			w_print(r, 4, 2, W_DIM,
				"To see the console at work: press D (or run "
				"rdmadiag --demo).");
		}
		return;
	}
	tbl.sel = ui->st.sel;
	w_table_scroll(&tbl, ui->st.n_ports, h);
	for (int row = 0; row < h && tbl.top + (size_t)row < ui->st.n_ports;
	     row++) {
		size_t i = tbl.top + (size_t)row;
		const struct rd_device *d =
			&ui->st.snap.devices[ui->st.ports[i].d];
		const struct rd_port *p =
			ui->st.ports[i].p == CON_NO_PORT
				? NULL
				: &d->ports[ui->st.ports[i].p];
		const struct rd_netdev *nd = p ? ui_port_netdev(ui, p) : NULL;
		const struct rd_pci *pci = ui_device_pci(ui, d);
		char port[64], rate[24], mtu[48], pcie[64], numa[16], mod[16];
		const char *text[OC_N];
		enum w_style st[OC_N];
		const char *all[OC_N];
		enum w_style allst[OC_N];

		if (!p) {
			/* A device whose ports could not be read keeps its
			 * row: its findings say why. */
			snprintf(port, sizeof(port), "%s", ui_str(d->name));
			for (int k = 0; k < OC_N; k++) {
				all[k] = "-";
				allst[k] = W_DIM;
			}
			all[OC_PORT] = port;
			allst[OC_PORT] = W_NORMAL;
			all[OC_STATE] = "no port";
			allst[OC_STATE] = W_WARN;
			all[OC_FW] = ui_str(d->fw_ver);
			overview_verdict(ui, d, 0, all, allst);
			for (size_t k = 0; k < nc; k++) {
				text[k] = all[pick[k]];
				st[k] = allst[pick[k]];
			}
			w_table_row(r, row + 1, cols, nc, text, st,
				    i == ui->st.sel);
			continue;
		}
		snprintf(port, sizeof(port), "%s/%" PRIu64, ui_str(d->name),
			 p->port);
		if (p->rate_gbps.ok)
			snprintf(rate, sizeof(rate), "%gG", p->rate_gbps.v);
		else
			snprintf(rate, sizeof(rate), "-");
		mtu_text(p, nd, mtu, sizeof(mtu));
		pcie_text(pci, pcie, sizeof(pcie));
		if (pci && pci->numa_node.ok)
			snprintf(numa, sizeof(numa), "%" PRId64,
				 pci->numa_node.v);
		else
			snprintf(numa, sizeof(numa), "-");
		for (int k = 0; k < OC_N; k++)
			allst[k] = W_NORMAL;
		all[OC_PORT] = port;
		all[OC_NETDEV] = ui_str(p->netdev);
		all[OC_STATE] = p->state ? p->state : "N/A";
		allst[OC_STATE] = ui_state_style(p);
		all[OC_PHYS] = p->phys_state ? p->phys_state : "N/A";
		allst[OC_PHYS] = ui_state_style(p);
		all[OC_RATE] = rate;
		all[OC_LL] = ll_short(p->link_layer);
		all[OC_MTU] = mtu;
		all[OC_CARRIER] = nd && nd->carrier.ok
					  ? (nd->carrier.v ? "yes" : "no")
					  : "-";
		if (nd && nd->carrier.ok && !nd->carrier.v)
			allst[OC_CARRIER] = W_BAD;
		all[OC_MODULE] = "-";
		if (nd) {
			enum rd_xcvr_glance g =
				rd_xcvr_brief(&nd->xcvr, mod, sizeof(mod));

			all[OC_MODULE] = mod;
			allst[OC_MODULE] = g == RD_XCVR_G_BAD	 ? W_BAD
					   : g == RD_XCVR_G_NONE ? W_WARN
					   : g == RD_XCVR_G_OK	 ? W_NORMAL
								 : W_DIM;
		}
		all[OC_PCIE] = pcie;
		if (pcie_degraded(pci))
			allst[OC_PCIE] = W_WARN;
		all[OC_NUMA] = numa;
		all[OC_FW] = ui_str(d->fw_ver);
		overview_verdict(ui, d, p->port, all, allst);
		for (size_t k = 0; k < nc; k++) {
			text[k] = all[pick[k]];
			st[k] = allst[pick[k]];
		}
		w_table_row(r, row + 1, cols, nc, text, st, i == ui->st.sel);
	}
	draw_detail(ui, ui_pane(ui, RD_PANE_SIDE));
}

static int overview_move(struct ui *ui, int ch)
{
	struct w_table t = { 0, ui->st.sel };

	w_table_key(&t, ch, ui->st.n_ports, ui_pane(ui, RD_PANE_MAIN)->h - 1);
	ui_select(ui, t.sel);
	return UI_REDO_DRAW;
}

/* The port's page from its top: the decision path, whatever was read
 * of another port before. */
static int overview_enter(struct ui *ui, int ch)
{
	if (!ui->st.n_ports)
		return UI_REDO_NOTHING;
	if (view_port_screen.page)
		view_port_screen.page->top = 0;
	return ui_go(ui, &view_port_screen);
}

static const struct ui_action overview_actions[] = {
	{ "Up Down PgUp PgDn Home End", overview_move, "Up/Down select",
	  "select a port" },
	{ "Enter", overview_enter, "Enter port detail",
	  "the selected port's detail screen" },
	{ NULL, NULL, NULL, NULL },
};

static const char overview_help[] =
	"One row per RDMA device port: state and physical state in "
	"colour, rate, link layer, MTU of the netdev and the active "
	"RDMA MTU, carrier, the module (a cable's kind and length, an "
	"optic's weakest Rx power, none, or ? when not read), PCIe link "
	"now and capable, NUMA node, "
	"firmware and the worst verdict of the checks for that port. "
	"The pane below summarises the selected port, with the data rate "
	"it can reach (the lesser of the link after encoding and packet "
	"headers, and PCIe after TLP overhead) and what limits it, and "
	"lists its findings. The line under the title names the most important "
	"finding; k opens the checklist that explains it.";
UI_SCREEN(view_overview_screen, "Overview", "Ovw", 2, 'o', RD_LAYOUT_LIST,
	  overview_draw, overview_actions, overview_help);
