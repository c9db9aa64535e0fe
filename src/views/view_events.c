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

#include "core/clock.h"
#include "core/escape.h"
#include "diag/data.h"
#include "views/ui.h"

static struct w_page page;
static bool all_devices;
/* The story: only the selected port's; the event under the cursor (an
 * index into what is shown, newest first) and the page line it is on. */
static bool one_port;
static size_t cursor;
static size_t cursor_line = (size_t)-1;
/* At most this many of the story's events are listed. */
#define STORY_SHOWN 200

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

static bool wanted(const char *dev, const struct rd_device *sel)
{
	return all_devices || !sel ||
	       (dev && sel->name && !strcmp(dev, sel->name));
}

/* Is the story's event shown under the filters? */
static bool story_wanted(struct ui *ui, const struct rd_event *e,
			 const struct rd_device *sel)
{
	const struct rd_port *p = con_sel_port(&ui->st);

	if (one_port)
		return sel && p && e->device && sel->name &&
		       !strcmp(e->device, sel->name) &&
		       (!e->port || e->port == p->port);
	return wanted(e->device, sel);
}

static enum w_style story_style(const struct rd_event *e)
{
	if (rd_event_down(e) || (e->kind && !strcmp(e->kind, "verbs") &&
				 e->text && strstr(e->text, "fatal")))
		return W_BAD;
	if (rd_event_up(e))
		return W_GOOD;
	return W_NORMAL;
}

/* The n-th event shown (newest first), or NULL. */
static const struct rd_event *story_at(struct ui *ui, size_t n)
{
	const struct rd_events *ev = &ui->st.past;
	const struct rd_device *sel = ui_sel_device(ui);

	for (size_t i = ev->n; i-- > 0;) {
		if (!story_wanted(ui, &ev->v[i], sel))
			continue;
		if (n-- == 0)
			return &ev->v[i];
	}
	return NULL;
}

/*
 * What happened: the flight recorder's store (rdmadiag record) and what
 * the console's live watch caught, newest first; the cursor marks the
 * event Enter goes to.
 */
static void story(struct ui *ui, const struct rd_device *sel)
{
	const struct rd_events *ev = &ui->st.past;
	size_t shown = 0;

	cursor_line = (size_t)-1;
	w_lines_add(&page.lines, W_HEAD, "What happened (UTC: day, time)  %s%s",
		    ev->from ? "flight recorder and live watch" : "live watch",
		    one_port	  ? "  this port"
		    : all_devices ? "  all devices"
				  : "");
	if (!ui->st.have_past) {
		w_lines_add(&page.lines, W_DIM, "  %s",
			    ui->st.source == CON_LIVE
				    ? "not read yet"
				    : "a recording has no flight recorder "
				      "store and no live watch");
		return;
	}
	if (ui->st.store_err[0])
		w_lines_add(&page.lines, W_WARN, "  store not read: %s",
			    ui->st.store_err);
	else if (!ev->from)
		w_lines_add(&page.lines, W_DIM,
			    "  no flight recorder store (rdmadiag record keeps "
			    "one; --store DIR names it)");
	if (ui->st.watch_err[0])
		w_lines_add(&page.lines, W_DIM, "  not watched: %s",
			    ui->st.watch_err);
	for (size_t i = ev->n; i-- > 0 && shown < STORY_SHOWN;) {
		const struct rd_event *e = &ev->v[i];
		char t[32], target[64];

		if (!story_wanted(ui, e, sel))
			continue;
		rd_clock_fmt(e->time, RD_CLOCK_UTC, "%d %H:%M:%S", "?", t,
			     sizeof(t));
		if (e->port)
			snprintf(target, sizeof(target), "%s/%" PRIu64,
				 rd_esc_tmp(e->device ? e->device : "-"),
				 e->port);
		else
			snprintf(target, sizeof(target), "%s",
				 rd_esc_tmp(e->device	? e->device
					    : e->netdev ? e->netdev
							: "host"));
		if (shown == cursor)
			cursor_line = page.lines.n;
		w_lines_add(&page.lines,
			    shown == cursor ? W_SEL : story_style(e),
			    "%s %-14s %-10s %-8s %s%s%s",
			    shown == cursor ? ">" : " ", t, target,
			    rd_esc_tmp(e->kind ? e->kind : "?"),
			    e->netdev ? rd_esc_tmp(e->netdev) : "",
			    e->netdev ? ": " : "",
			    rd_esc_tmp(e->text ? e->text : ""));
		shown++;
	}
	if (!shown)
		w_lines_add(&page.lines, W_DIM,
			    "  nothing recorded in the "
			    "last 24 h%s",
			    one_port || !all_devices ? " for the selection"
						     : "");
	else if (cursor >= shown)
		cursor = shown - 1;
}

static void kernel_log(struct ui *ui, const struct rd_device *sel, int width)
{
	const struct rd_kmsg *log = &ui->st.snap.kmsg;
	const struct rd_kmsg_table *tab = rd_data_kmsg();
	size_t shown = 0;

	w_lines_add(&page.lines, W_HEAD,
		    "Kernel log (UTC: day of month, time)%s",
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
	char nread[32];

	w_fmt_ou64(log->records_read, nread, sizeof(nread));
	w_lines_add(&page.lines, W_DIM,
		    "  %s records read from %s, %zu about RDMA "
		    "devices%s",
		    nread, ui_str(log->source), log->n_records,
		    log->gaps.ok && log->gaps.v
			    ? "; some were overwritten before they were read"
			    : "");
	for (size_t i = log->n_records; i-- > 0;) {
		const struct rd_kmsg_rec *k = &log->records[i];
		const struct rd_kmsg_class *c =
			k->message && tab ? rd_kmsg_classify(tab, k->message)
					  : NULL;
		char t[32], target[64];

		if (!wanted(k->rdma_device, sel))
			continue;
		rd_kmsg_rec_when(k, RD_CLOCK_UTC, "%d %H:%M:%S", t, sizeof(t));
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
					   width - indent > 24 ? width - indent
							       : 24,
					   lines, 8);

			for (size_t j = 0; j < nl; j++)
				w_lines_add(&page.lines, severity_style(c),
					    "  %-14s %-10s %-9s %s", j ? "" : t,
					    j ? "" : target,
					    j	? ""
					    : c ? rd_kmsg_kind_name(c->kind)
						: "other",
					    lines[j]);
		}
		shown++;
	}
	/* The ring may have wrapped: its oldest record is not boot's. */
	if (!shown)
		w_lines_add(&page.lines, W_DIM,
			    "  no kernel messages about %s %s",
			    all_devices || !sel ? "the RDMA devices"
						: ui_str(sel->name),
			    log->first_seq.ok && log->first_seq.v == 0
				    ? "since boot"
				    : "in the records the kernel still holds");
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
		w_lines_add(
			&page.lines, W_NORMAL,
			"  %-8s %s  firmware %s (stored %s)  PSID %s",
			ui_str(d->name), ui_str(dl->dev),
			ui_str(rd_devlink_version(dl, "running", "fw.version")),
			ui_str(rd_devlink_version(dl, "stored", "fw.version")),
			ui_str(rd_devlink_version(dl, "fixed", "fw.psid")));
		for (size_t j = 0; j < dl->n_reporters; j++) {
			const struct rd_devlink_reporter *p = &dl->reporters[j];
			char errs[24], recs[24];
			bool bad = rd_devlink_reporter_failed(p);
			bool moved =
				(p->error_count.ok && p->error_count.v) ||
				(p->recover_count.ok && p->recover_count.v);

			w_fmt_ou64(p->error_count, errs, sizeof(errs));
			w_fmt_ou64(p->recover_count, recs, sizeof(recs));

			w_lines_add(&page.lines,
				    bad	    ? W_BAD
				    : moved ? W_WARN
					    : W_NORMAL,
				    "    %-10s %-8s %6s errors %6s recovered",
				    ui_str(p->name), ui_str(p->state), errs,
				    recs);
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
		w_lines_add(
			&page.lines, W_NORMAL,
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
	story(ui, sel);
	w_lines_add(&page.lines, W_NORMAL, " ");
	kernel_log(ui, sel, r->w);
	w_lines_add(&page.lines, W_NORMAL, " ");
	health(ui, sel);
	w_lines_add(&page.lines, W_NORMAL, " ");
	downs(ui, sel);
	/* keep the cursor's event in view */
	if (cursor_line != (size_t)-1 && page.h > 0 &&
	    (cursor_line < page.top ||
	     cursor_line >= page.top + (size_t)page.h - 1))
		page.top = cursor_line > 2 ? cursor_line - 2 : 0;
	w_page_draw(&page, r);
}

static int events_move(struct ui *ui, int ch)
{
	(void)ui;
	if (ch == '[' && cursor > 0)
		cursor--;
	else if (ch == ']')
		cursor++; /* held to the last event when drawn */
	return UI_REDO_DRAW;
}

static int events_port(struct ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	one_port = !one_port;
	cursor = 0;
	page.top = 0;
	return UI_REDO_DRAW;
}

/* Enter: the port the event under the cursor is about. */
static int events_jump(struct ui *ui, int ch)
{
	const struct rd_event *e = story_at(ui, cursor);
	struct rd_result r = { 0 };

	(void)ch;
	if (!e || !e->device) {
		ui_msg(ui, W_DIM, "no event about a port under the cursor");
		return UI_REDO_DRAW;
	}
	r.device = e->device;
	r.port = e->port;
	if (!con_select_for(&ui->st, &r)) {
		ui_msg(ui, W_WARN, "%s is not on this host now",
		       rd_esc_tmp(e->device));
		return UI_REDO_DRAW;
	}
	return ui_go(ui, &view_port_screen);
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
	{ "f", events_port, "f this port",
	  "what happened to the selected port only, or to more" },
	{ "[ ]", events_move, NULL,
	  "move the cursor to a newer or older event of what happened" },
	{ "Enter", events_jump, "Enter go to port",
	  "select the port of the event under the cursor and show it" },
	{ NULL, NULL, NULL, NULL },
};

static const char events_help[] =
	"What happened before anyone looked: first the story the flight "
	"recorder kept (rdmadiag record: port states, carrier, modules, "
	"health, kernel lines, verdicts; the last 24 h) merged with what the "
	"console saw live (rtnetlink carrier changes, mlx5 and mlx4 verbs "
	"port events, the "
	"RDMA netlink monitor), newest first; f keeps the selected port's, "
	"[ and ] move the cursor and Enter goes to the port of the event "
	"under it. Then the kernel's own lines about "
	"the RDMA devices (module plugged or refused, link down, firmware "
	"health, PCIe errors, transmit timeouts), newest first and coloured "
	"by severity, the NIC's devlink health reporters (errors and the "
	"resets the driver recovered from), and the link-down counts since "
	"boot (the firmware's count survives driver reloads). The selected "
	"device's only; a shows every device's.";
UI_PAGE_SCREEN(view_events_screen, "Events", "Evts", 11, 'v', RD_LAYOUT_FULL,
	       events_draw, events_actions, events_help, &page);
