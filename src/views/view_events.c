// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events: what happened before anyone looked. The kernel's own lines
 * about the RDMA devices (the snapshot's kernel log, classified by
 * data/kmsg.tsv), newest first, the NIC's devlink health reporters, and
 * the link-down counts since boot. The selected device's only, or all
 * with 'a'.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "diag/data.h"
#include "views/ui.h"

static struct w_page page;
static bool all_devices;

static enum w_style severity_style(const struct rd_kmsg_class *c)
{
	if (!c)
		return W_NORMAL;
	switch (c->severity) {
	case RD_KMSG_FATAL:
	case RD_KMSG_ERROR:
		return W_BAD;
	case RD_KMSG_WARN:
		return W_WARN;
	default:
		return W_NORMAL;
	}
}

static void when(const struct rd_kmsg_rec *k, char *buf, size_t size)
{
	time_t t;
	struct tm tm;

	if (k->wall_time.ok) {
		t = (time_t)k->wall_time.v;
		if (gmtime_r(&t, &tm) &&
		    strftime(buf, size, "%d %H:%M:%S", &tm))
			return;
	}
	if (k->ts_usec.ok)
		snprintf(buf, size, "[%10.3f s]", (double)k->ts_usec.v / 1e6);
	else
		snprintf(buf, size, "?");
}

static bool wanted(const char *dev, const struct rd_device *sel)
{
	return all_devices || !sel || (dev && sel->name && !strcmp(dev, sel->name));
}

static void kernel_log(struct ui *ui, const struct rd_device *sel, int width)
{
	const struct rd_kmsg *log = &ui->st.snap.kmsg;
	const struct rd_kmsg_table *tab = rd_data_kmsg();
	size_t shown = 0;

	w_lines_add(&page.lines, W_HEAD, "Kernel log (UTC: day of month, time)%s",
		    all_devices ? "  all devices" : "");
	if (!log->readable.ok) {
		w_lines_add(&page.lines, W_DIM, "  not read");
		return;
	}
	if (!log->readable.v) {
		w_lines_add(&page.lines, W_WARN, "  not readable: %s",
			    ui_str(log->error));
		return;
	}
	w_lines_add(&page.lines, W_DIM,
		    "  %" PRIu64 " records read from %s, %zu about RDMA "
		    "devices%s",
		    log->records_read.ok ? log->records_read.v : 0,
		    ui_str(log->source), log->n_records,
		    log->gaps.ok && log->gaps.v ?
			    "; some were overwritten before they were read" : "");
	for (size_t i = log->n_records; i-- > 0;) {
		const struct rd_kmsg_rec *k = &log->records[i];
		const struct rd_kmsg_class *c =
			k->message && tab ? rd_kmsg_classify(tab, k->message) :
					    NULL;
		char t[32], target[64];

		if (!wanted(k->rdma_device, sel))
			continue;
		when(k, t, sizeof(t));
		if (k->port.ok && k->port.v)
			snprintf(target, sizeof(target), "%s/%" PRIu64,
				 ui_str(k->rdma_device), k->port.v);
		else
			snprintf(target, sizeof(target), "%s",
				 ui_str(k->rdma_device));
		{
			/* The message is what matters: wrapped, never cut. */
			char lines[8][256];
			int indent = 2 + 14 + 1 + 10 + 1 + 9 + 1;
			size_t nl = w_wrap(ui_str(k->message),
					   width - indent > 24 ? width - indent : 24,
					   lines, 8);

			for (size_t j = 0; j < nl; j++)
				w_lines_add(&page.lines, severity_style(c),
					    "  %-14s %-10s %-9s %s",
					    j ? "" : t, j ? "" : target,
					    j ? "" : c ? rd_kmsg_kind_name(c->kind) :
							 "other",
					    lines[j]);
		}
		shown++;
	}
	if (!shown)
		w_lines_add(&page.lines, W_DIM,
			    "  no kernel messages about %s since boot",
			    all_devices || !sel ? "the RDMA devices" :
						  ui_str(sel->name));
}

static void health(struct ui *ui, const struct rd_device *sel)
{
	const struct rd_snapshot *s = &ui->st.snap;
	bool any = false;

	w_lines_add(&page.lines, W_HEAD, "NIC health (devlink)");
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		const struct rd_devlink *dl =
			d->pci_bdf ? rd_snapshot_devlink(s, d->pci_bdf) : NULL;

		if (!dl || !wanted(d->name, sel))
			continue;
		any = true;
		w_lines_add(&page.lines, W_NORMAL,
			    "  %-8s %s  firmware %s (stored %s)  PSID %s",
			    ui_str(d->name), ui_str(dl->dev),
			    ui_str(rd_devlink_version(dl, "running", "fw.version")),
			    ui_str(rd_devlink_version(dl, "stored", "fw.version")),
			    ui_str(rd_devlink_version(dl, "fixed", "fw.psid")));
		for (size_t j = 0; j < dl->n_reporters; j++) {
			const struct rd_devlink_reporter *p = &dl->reporters[j];
			bool bad = rd_devlink_reporter_failed(p);
			bool moved = (p->error_count.ok && p->error_count.v) ||
				     (p->recover_count.ok && p->recover_count.v);

			w_lines_add(&page.lines, bad ? W_BAD : moved ? W_WARN : W_NORMAL,
				    "    %-10s %-8s %6" PRIu64 " errors %6" PRIu64
				    " recovered",
				    ui_str(p->name), ui_str(p->state),
				    p->error_count.ok ? p->error_count.v : 0,
				    p->recover_count.ok ? p->recover_count.v : 0);
		}
	}
	if (!any)
		w_lines_add(&page.lines, W_DIM, "  not read");
}

static void downs(struct ui *ui, const struct rd_device *sel)
{
	const struct rd_snapshot *s = &ui->st.snap;

	w_lines_add(&page.lines, W_HEAD, "Link downs since boot");
	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *n = &s->netdevs[i];
		char fw[32] = "-", host[32] = "-";

		if (!n->rdma_device || !wanted(n->rdma_device, sel))
			continue;
		if (n->ethtool.link_down_events.ok)
			snprintf(fw, sizeof(fw), "%" PRIu64,
				 n->ethtool.link_down_events.v);
		if (n->carrier_down_count.ok)
			snprintf(host, sizeof(host), "%" PRIu64,
				 n->carrier_down_count.v);
		w_lines_add(&page.lines, W_NORMAL,
			    "  %-10s %-14s carrier downs %-6s firmware's count %s",
			    ui_str(n->rdma_device), ui_str(n->name), host, fw);
	}
}

static void events_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const struct rd_device *sel = ui_sel_device(ui);

	w_lines_reset(&page.lines);
	if (!ui->st.have_snap) {
		w_print(r, 0, 1, W_DIM, "Nothing read yet.");
		return;
	}
	kernel_log(ui, sel, r->w);
	w_lines_add(&page.lines, W_NORMAL, " ");
	health(ui, sel);
	w_lines_add(&page.lines, W_NORMAL, " ");
	downs(ui, sel);
	w_page_draw(&page, r);
}

static int events_all(struct ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	all_devices = !all_devices;
	page.top = 0;
	return UI_REDO_DRAW;
}

static const struct ui_action events_actions[] = {
	UI_ACTION_SCROLL("Up/Down scroll", "scroll the page"),
	{ "a", events_all, "a all devices",
	  "the selected device's events, or every device's" },
	{ NULL, NULL, NULL, NULL },
};

static const char events_help[] =
	"What happened before anyone looked: the kernel's own lines about "
	"the RDMA devices (module plugged or refused, link down, firmware "
	"health, PCIe errors, transmit timeouts), newest first and coloured "
	"by severity, the NIC's devlink health reporters (errors and the "
	"resets the driver recovered from), and the link-down counts since "
	"boot (the firmware's count survives driver reloads). The selected "
	"device's only; a shows every device's.";
UI_PAGE_SCREEN(view_events_screen, "Events", "Evts", 11, 'v', RD_LAYOUT_FULL,
	       events_draw, events_actions, events_help, &page);
