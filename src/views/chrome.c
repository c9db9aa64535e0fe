// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Around every screen: the title (source tag, host, screen tabs, selected
 * port), the banner (a message, or the most important finding) and the
 * key bar, all read from the screen registry.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "views/ui.h"

static const char *source_tag(const struct ui *ui)
{
	switch (ui->st.source) {
	case CON_DEMO:
		return "DEMO";
	case CON_REPLAY:
		return "REPLAY";
	default:
		return NULL;
	}
}

void chrome_title(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_TITLE);
	const char *tag = source_tag(ui);
	double busy = ui->worker ? con_worker_busy_since(ui->worker) : 0;
	int x = 0, right = r->w;
	char side[128] = "";
	int len = 0;

	w_fill_row(r, 0, W_TITLE);
	/* A probe that takes long is named, so a slow driver is visible. */
	if (busy > 0 && ui_now() - busy >= 1.0)
		len = snprintf(side, sizeof(side), " probing %.0f s ",
			       ui_now() - busy);
	if (ui->st.n_ports && len >= 0 && (size_t)len < sizeof(side))
		snprintf(side + len, sizeof(side) - (size_t)len,
			 ui->st.sel_port ? "%s/%llu " : "%s ", ui->st.sel_dev,
			 (unsigned long long)ui->st.sel_port);
	x += w_print(r, 0, x, W_TITLE, " rdmadiag ");
	if (tag) {
		x += w_printf(r, 0, x, W_TAG, " %s %zu/%zu%s ", tag,
			      ui->st.frame + 1, ui->st.n_frames,
			      ui->st.paused ? " PAUSED" : "");
		x++;
	} else if (ui->o.roots && ui->o.roots->redirected) {
		/* A tree of files standing in for /sys and /proc. */
		x += w_print(r, 0, x, W_TAG, " ROOT DIR ");
		x++;
	} else if (!ui->root) {
		x += w_print(r, 0, x, W_TAG, " READ-ONLY ");
		x++;
	}
	x += w_printf(r, 0, x, W_TITLE, "%s ",
		      ui_str(ui->st.snap.host.hostname));
	len = (int)strlen(side);
	if (len && r->w - x > len + 8)
		right = r->w - len;
	for (size_t v = 0; v < ui_n_screens && x < right; v++) {
		const struct ui_screen *sc = ui_screens[v];
		struct rd_rect clip = { r->y, r->x, 1, right };

		/*
		 * A tab is shown whole, with a blank before what follows, or
		 * the row ends with an ellipsis and a blank: a tab that is
		 * not the last keeps room for them.
		 */
		int need = (int)strlen(sc->name) + 3 +
			   (v + 1 < ui_n_screens ? 3 : 0);

		if (x + need > right) {
			w_print(&clip, 0, x, W_TITLE, w_utf8() ? " \u2026" : " ...");
			break;
		}
		x += w_printf(&clip, 0, x, sc == ui->view ? W_SEL : W_TITLE,
			      " %s ", sc->name);
	}
	if (len && right < r->w)
		w_print(r, 0, right, busy > 0 ? W_TAG : W_TITLE, side);
}

void chrome_banner(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_BANNER);
	const struct rd_result *f;

	if (ui->msg[0] && ui_now() < ui->msg_until) {
		w_fill_row(r, 0, ui->msg_style);
		w_printf(r, 0, 1, ui->msg_style, "%s", ui->msg);
		return;
	}
	ui->msg[0] = '\0';
	if (ui->st.source_err[0] && !ui->st.have_snap) {
		w_fill_row(r, 0, W_BANNER_BAD);
		w_printf(r, 0, 1, W_BANNER_BAD, "%s", ui->st.source_err);
		return;
	}
	if (!ui->st.have_snap) {
		w_print(r, 0, 1, W_DIM, "reading this host...");
		return;
	}
	if (ui->st.snap.n_devices == 0) {
		w_fill_row(r, 0, W_BANNER_BAD);
		w_print(r, 0, 1, W_BANNER_BAD,
			ui->o.roots && ui->o.roots->redirected
				? "No RDMA devices in this tree (--root) - D: "
				  "play the demo (rdmadiag --demo)"
			: ui->st.source == CON_LIVE
				? "No RDMA devices on this host - k: checklist "
				  "explains why, D: play the demo (rdmadiag "
				  "--demo)"
				: "No RDMA devices in this recording");
		return;
	}
	f = con_top_finding(&ui->st);
	if (f) {
		enum w_style st = f->verdict == RD_FAIL ? W_BANNER_BAD : W_TAG;
		const char *what = ui_str(f->summary ? f->summary : f->title);
		const char *key = " k: checklist ";
		int need = 1 + (int)strlen(rd_verdict_name(f->verdict)) + 1 +
			   (int)strlen(what);
		int kw;

		/* The finding's words come before the key's: on a narrow
		 * terminal the key shrinks to " k " (the bar and the help
		 * name it) before the text is cut. */
		if (need > r->w - (int)strlen(key) - 1)
			key = " k ";
		kw = (int)strlen(key);
		/* The key that explains it stays visible however long the text.
		 */
		struct rd_rect text = { r->y, r->x, 1, r->w - kw - 1 };

		w_fill_row(r, 0, st);
		w_printf(&text, 0, 1, st, "%s %s", rd_verdict_name(f->verdict),
			 what);
		w_print(r, 0, r->w - kw, W_BARKEY, key);
		return;
	}
	if (ui->st.have_results) {
		size_t unknown = 0;

		for (size_t i = 0; i < ui->st.results.n; i++)
			unknown += ui->st.results.v[i].verdict == RD_UNKNOWN;
		/* UNKNOWN is not a pass: the data was not there to judge. */
		if (unknown)
			w_printf(r, 0, 1, W_DIM,
				 "No FAIL or WARN; %zu check%s UNKNOWN (data not "
				 "read) - k: checklist",
				 unknown, unknown == 1 ? "" : "s");
		else
			w_print(r, 0, 1, W_BANNER_OK, "All checks pass");
	}
}

void chrome_bar(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_BAR);
	bool narrow = r->w < 100;
	char key[8];
	int x = 0;

	w_fill_row(r, 0, W_BAR);
	for (size_t i = 0; i < 12 * ui_n_screens; i++) {
		const struct ui_screen *sc = ui_screens[i % ui_n_screens];

		/* In F-key order, F10 (quit) in its place: on 80 columns
		 * what is cut is the last screen's, not how to quit. */
		if (i == 9 * ui_n_screens) {
			x += w_print(r, 0, x, W_BARKEY, "F10");
			x += w_print(r, 0, x, W_BAR, "Quit ");
		}
		if (sc->fkey != (int)(i / ui_n_screens) + 1)
			continue;
		snprintf(key, sizeof(key), "F%d", sc->fkey);
		/* Narrow terminals get the short form; whole items only. */
		if (x + (int)(strlen(key) + strlen(narrow ? sc->brief :
							     sc->name)) >= r->w)
			continue;
		x += w_print(r, 0, x, W_BARKEY, key);
		x += w_printf(r, 0, x, W_BAR, "%s ",
			      narrow ? sc->brief : sc->name);
	}
	if (!ui->view->actions || x + 4 >= r->w)
		return;
	x += w_print(r, 0, x + 1, W_BAR, "|") + 1;
	/* Whole labels only: one that does not fit is left out. */
	for (const struct ui_action *a = ui->view->actions; a->keys; a++)
		if (a->label && (!a->offered || a->offered(ui)) &&
		    x + (int)strlen(a->label) + 1 <= r->w)
			x += w_printf(r, 0, x, W_BAR, " %s ", a->label);
}

void chrome_too_small(struct ui *ui)
{
	struct rd_rect all = { 0, 0, ui->rows, ui->cols };
	char size[48], need[48];
	const char *lines[4];
	int n = 0, y;

	/* One line when it fits, else one fact per line (each cut with an
	 * ellipsis only on a terminal narrower than the fact). */
	snprintf(size, sizeof(size), "terminal too small: %dx%d", ui->cols,
		 ui->rows);
	snprintf(need, sizeof(need), "need %dx%d", RD_LAYOUT_MIN_COLS,
		 RD_LAYOUT_MIN_ROWS);
	if ((int)(strlen(size) + strlen(need) + 2) <= ui->cols) {
		strncat(size, ", ", sizeof(size) - strlen(size) - 1);
		strncat(size, need, sizeof(size) - strlen(size) - 1);
		lines[n++] = size;
	} else {
		lines[n++] = size;
		lines[n++] = need;
	}
	lines[n++] = "q: quit";
	y = ui->rows > n ? (ui->rows - n) / 2 : 0;
	for (int i = 0; i < n; i++) {
		int len = (int)strlen(lines[i]);

		w_print(&all, y + i, ui->cols > len ? (ui->cols - len) / 2 : 0,
			i + 1 == n ? W_DIM : W_WARN, lines[i]);
	}
}
