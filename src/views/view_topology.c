// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Topology: on a GPU host, the GPU x NIC matrix of NCCL's distances
 * (PIX, PXB, PHB, SYS), the NIC NCCL uses for each GPU marked, and the
 * selected pair's path hop by hop: every function between them with its
 * link and ACS control, whether GPUDirect RDMA works on it and why.
 * Up/Down choose the GPU, Left/Right the NIC; i goes back to the NIC the
 * GPU uses. Paths come from core/topo.h, as the gpu.* checks see them.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "core/topo.h"
#include "views/ui.h"

static struct w_page page;
static size_t sel_gpu, sel_nic;
static bool nic_chosen; /* the NIC was picked by hand for this GPU */

#define LABEL_W 6 /* "GPU7 " */
#define CELL_W 9

static enum w_style dist_style(enum rd_topo_dist d)
{
	if (d <= RD_DIST_GDR_DEFAULT)
		return W_GOOD;
	if (d == RD_DIST_PHB)
		return W_WARN;
	if (d == RD_DIST_SYS)
		return W_BAD;
	return W_DIM;
}

/* A node's PCI address; a loaded file may lack it. */
static const char *bdf_of(const struct rd_topo_node *n)
{
	return n->bdf ? n->bdf : "?";
}

/* A NIC by its RDMA device, else its address without the domain. */
static const char *nic_label(const struct rd_topo_node *n)
{
	if (n->rdma_device)
		return rd_esc_tmp(n->rdma_device);
	return n->bdf && strlen(n->bdf) > 5 ? n->bdf + 5 : bdf_of(n);
}

static void hop_line(const struct rd_snapshot *s, size_t i, const char *dir,
		     bool common)
{
	const struct rd_topo *t = &s->topo;
	const struct rd_topo_node *n = &t->nodes[i];
	char link[48] = "", acs[80] = "";
	enum w_style st = W_NORMAL;
	const char *what = rd_topo_is_gpu(n)   ? rd_topo_gpu_vendor(n)
			   : rd_topo_is_nic(n) ? "NIC"
			   : !n->parent	       ? "root port"
			   : common	       ? "switch"
					       : "switch port";

	/* The link above a function of odd depth is its own. */
	if (n->depth.ok && n->depth.v % 2 && n->width.ok && n->speed_gts.ok)
		snprintf(link, sizeof(link), "%.1f GT/s x%" PRIu64 "%s",
			 n->speed_gts.v, n->width.v,
			 n->max_width.ok && n->width.v < n->max_width.v
				 ? " (narrow)"
				 : "");
	if (!rd_topo_is_gpu(n) && !rd_topo_is_nic(n)) {
		if (!n->acs)
			snprintf(acs, sizeof(acs), "ACS not read");
		else if (strcmp(n->acs, "read") == 0)
			snprintf(acs, sizeof(acs), "ACSCtl 0x%04" PRIx64 "%s",
				 n->acs_ctl.v,
				 rd_topo_acs_redirects(n)   ? " redirects"
				 : n->acs_ctl.v & RD_ACS_DT ? " DirectTrans"
							    : "");
		else
			snprintf(acs, sizeof(acs), "ACS %s",
				 rd_esc_tmp(n->acs));
		if (rd_topo_acs_redirects(n))
			st = W_BAD;
		else if (n->acs && !strcmp(n->acs, "unreadable"))
			st = W_WARN;
	}
	if (strstr(link, "narrow"))
		st = W_BAD;
	w_lines_add(&page.lines, st, "  %s %s %-11s %-20s %s", dir, bdf_of(n),
		    what, link, rd_topo_is_nic(n) ? ui_str(nic_label(n)) : acs);
}

static void path_lines(const struct rd_snapshot *s, size_t g, size_t n)
{
	const struct rd_topo *t = &s->topo;
	struct rd_topo_path p;
	struct rd_topo_choice c;
	enum rd_nic_use u;
	const char *state;

	if (rd_topo_path(t, g, n, &p) < 0)
		return;
	rd_topo_choose(s, g, &c);
	u = rd_topo_nic_use(s, &t->nodes[n], &state);
	w_lines_add(&page.lines, W_HEAD,
		    "GPU%ld %s to %s: %s (nvidia-smi %s)%s",
		    rd_topo_gpu_index(t, g), bdf_of(&t->nodes[g]),
		    ui_str(nic_label(&t->nodes[n])), rd_topo_dist_name(p.dist),
		    p.smi,
		    (long)n == c.usable && c.n_unknown
			    ? ", the nearest NIC read as usable"
		    : (long)n == c.usable  ? ", the NIC NCCL uses"
		    : (long)n == c.nearest ? ", the nearest NIC"
					   : "");
	if (p.flattened)
		w_lines_add(
			&page.lines, W_DIM,
			"  NCCL counts the two-level Broadcom PEX switch on "
			"this path as one (its halves carry full "
			"bandwidth)");
	if (u != RD_NIC_USABLE)
		w_lines_add(&page.lines,
			    rd_topo_nic_use_unknown(u) ? W_WARN : W_BAD,
			    "  %s: %s", ui_str(nic_label(&t->nodes[n])),
			    state ? rd_esc_tmp(state)
				  : rd_topo_nic_use_text(u));
	if (p.dist == RD_DIST_UNKNOWN)
		w_lines_add(&page.lines, W_WARN,
			    "GPUDirect RDMA: unknown (a NUMA node not read)");
	else if (p.dist > RD_DIST_GDR_DEFAULT)
		w_lines_add(&page.lines, W_WARN,
			    "GPUDirect RDMA: off at NCCL's default level (%s "
			    "is beyond %s)",
			    rd_topo_dist_name(p.dist),
			    rd_topo_dist_name(RD_DIST_GDR_DEFAULT));
	else if (p.n_redirect)
		w_lines_add(&page.lines, W_BAD,
			    "GPUDirect RDMA: ACS at %s sends it to the root "
			    "complex",
			    bdf_of(&t->nodes[p.redirect[0]]));
	else if (p.n_unread)
		w_lines_add(&page.lines, W_WARN,
			    "GPUDirect RDMA: ACS of %s not read (needs root)",
			    bdf_of(&t->nodes[p.unread[0]]));
	else
		w_lines_add(&page.lines, W_GOOD,
			    "GPUDirect RDMA: the path allows it (%s, no ACS "
			    "redirection); peer memory below",
			    rd_topo_dist_name(p.dist));
	w_lines_add(&page.lines, W_NORMAL, "Peer memory: %s%s",
		    t->nvidia_peermem.ok && t->nvidia_peermem.v
			    ? "nvidia_peermem "
		    : t->nv_peer_mem.ok && t->nv_peer_mem.v ? "nv_peer_mem "
		    : !t->nvidia_peermem.ok || !t->nv_peer_mem.ok
			    ? "module not read"
			    : "no module loaded",
		    t->nvidia_peermem.ok && t->nvidia_peermem.v
			    ? ui_str(rd_esc_tmp(t->nvidia_peermem_version))
			    : "");
	for (size_t i = 0; i < p.n_up; i++)
		hop_line(s, p.up[i], "up  ", false);
	if (p.has_lca)
		hop_line(s, p.lca, "top ", true);
	else {
		const struct rd_topo_node *a = &t->nodes[p.up[p.n_up - 1]];
		const struct rd_topo_node *b = &t->nodes[p.down[p.n_down - 1]];

		if (a->host_bridge && b->host_bridge &&
		    !strcmp(a->host_bridge, b->host_bridge))
			w_lines_add(&page.lines, W_DIM, "  via  host bridge %s",
				    rd_esc_tmp(a->host_bridge));
		else
			w_lines_add(&page.lines, W_DIM, "  via  %s > %s > %s",
				    ui_str(rd_esc_tmp(a->host_bridge)),
				    p.dist == RD_DIST_SYS ? "CPU interconnect"
							  : "CPU",
				    ui_str(rd_esc_tmp(b->host_bridge)));
	}
	for (size_t i = p.n_down; i-- > 0;)
		hop_line(s, p.down[i], "down", false);
}

static void topology_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const struct rd_snapshot *s = &ui->st.snap;
	const struct rd_topo *t = &s->topo;
	size_t ng = rd_topo_count(t, "gpu"), nn = rd_topo_count(t, "nic");
	size_t cols, first = 0;
	long g, n;
	struct rd_topo_choice c;
	int row = 0;

	w_lines_reset(&page.lines);
	if (!ui->st.have_snap) {
		w_print(r, 0, 1, W_DIM, "Nothing read yet.");
		return;
	}
	if (!t->read.ok || ng == 0 || nn == 0) {
		w_print(r, 0, 1, W_DIM,
			!t->read.ok ? "The PCIe tree was not read."
			: ng == 0   ? "No GPU on this host."
				    : "No RDMA NIC function on this host.");
		return;
	}
	if (sel_gpu >= ng)
		sel_gpu = ng - 1;
	g = rd_topo_nth(t, "gpu", sel_gpu);
	rd_topo_choose(s, (size_t)g, &c);
	if (!nic_chosen) {
		long want = c.usable >= 0 ? c.usable : c.nearest;

		for (size_t k = 0; k < nn; k++)
			if (rd_topo_nth(t, "nic", k) == want)
				sel_nic = k;
	}
	if (sel_nic >= nn)
		sel_nic = nn - 1;
	cols = r->w > LABEL_W + CELL_W ? (size_t)(r->w - LABEL_W) / CELL_W : 1;
	if (sel_nic >= cols)
		first = sel_nic - cols + 1;
	w_printf(r, row++, 0, W_HEAD, "%-*s", LABEL_W, "");
	for (size_t k = first; k < nn && k < first + cols; k++) {
		const struct rd_topo_node *nic =
			&t->nodes[rd_topo_nth(t, "nic", k)];

		w_printf(r, 0, LABEL_W + (int)(k - first) * CELL_W,
			 k == sel_nic ? W_SEL : W_HEAD, "%-*.*s", CELL_W - 1,
			 CELL_W - 1, nic_label(nic));
	}
	for (size_t i = 0; i < ng && row < r->h / 2; i++, row++) {
		long gi = rd_topo_nth(t, "gpu", i);
		struct rd_topo_choice ci;

		rd_topo_choose(s, (size_t)gi, &ci);
		w_printf(r, row, 0, i == sel_gpu ? W_SEL : W_HEAD, "GPU%-3zu",
			 i);
		for (size_t k = first; k < nn && k < first + cols; k++) {
			long ni = rd_topo_nth(t, "nic", k);
			struct rd_topo_path p;
			enum w_style st;
			enum rd_nic_use u =
				rd_topo_nic_use(s, &t->nodes[ni], NULL);
			bool unknown = rd_topo_nic_use_unknown(u);
			bool down = u != RD_NIC_USABLE && !unknown;

			if (rd_topo_path(t, (size_t)gi, (size_t)ni, &p) < 0)
				continue;
			st = i == sel_gpu && k == sel_nic ? W_SEL
			     : down || unknown		  ? W_DIM
							  : dist_style(p.dist);
			w_printf(r, row, LABEL_W + (int)(k - first) * CELL_W,
				 st, "%s%s%s", rd_topo_dist_name(p.dist),
				 ni == ci.usable ? "*" : "",
				 down		? "!"
				 : unknown	? "?"
				 : p.n_redirect ? "~"
						: "");
		}
	}
	w_printf(r, row++, 0, W_DIM,
		 "* NCCL's NIC  ! not usable  ? not known  ~ ACS redirects  "
		 "%zu GPU x %zu NIC",
		 ng, nn);
	n = rd_topo_nth(t, "nic", sel_nic);
	path_lines(s, (size_t)g, (size_t)n);
	{
		struct rd_rect below = *r;

		below.y += row;
		below.h -= row;
		if (below.h > 0)
			w_page_draw(&page, &below);
	}
}

static int topology_move(struct ui *ui, int ch)
{
	(void)ui;
	switch (ch) {
	case KEY_UP:
		if (sel_gpu > 0)
			sel_gpu--;
		nic_chosen = false;
		break;
	case KEY_DOWN:
		sel_gpu++;
		nic_chosen = false;
		break;
	case KEY_LEFT:
		if (sel_nic > 0)
			sel_nic--;
		nic_chosen = true;
		break;
	case KEY_RIGHT:
		sel_nic++;
		nic_chosen = true;
		break;
	default:
		return UI_REDO_NOTHING;
	}
	page.top = 0;
	return UI_REDO_DRAW;
}

static int topology_used(struct ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	nic_chosen = false;
	page.top = 0;
	return UI_REDO_DRAW;
}

static const struct ui_action topology_actions[] = {
	{ "Up Down", topology_move, "Up/Down GPU", "choose the GPU" },
	{ "Left Right", topology_move, "Left/Right NIC",
	  "choose the NIC of the pair shown" },
	{ "i", topology_used, "i its NIC",
	  "back to the NIC NCCL uses for the GPU" },
	{ "PgUp PgDn", ui_page_scroll, NULL, "scroll the path" },
	{ NULL, NULL, NULL, NULL },
};

static const char topology_help[] =
	"On a GPU host: the GPU x NIC matrix of PCIe distances as NCCL "
	"labels them (PIX and PXB green: NCCL uses GPUDirect RDMA there by "
	"default; PHB yellow: through the CPU; SYS red: across the CPU "
	"interconnect), * the NIC NCCL uses for each GPU, ! a NIC with no "
	"port ACTIVE, ~ a path whose ACS redirects peer traffic. Under it "
	"the selected pair's path hop by hop: each function with its link "
	"and ACS control, and whether GPUDirect RDMA works there and why. "
	"Up/Down choose the GPU, Left/Right the NIC, i the GPU's own NIC.";
UI_PAGE_SCREEN(view_topology_screen, "Topology", "Topo", 12, 'g',
	       RD_LAYOUT_FULL, topology_draw, topology_actions, topology_help,
	       &page);
