// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checklist: every verdict grouped by layer (hardware up to the host),
 * worst first; the selected one's evidence, reasoning and fix-up below.
 * f applies a fix-up after a confirmation that shows the exact command
 * and its impact, then re-probes; u undoes the last one from the journal.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/fixup.h"
#include "views/ui.h"

static struct {
	struct w_table tbl; /* tbl.sel: the selected result */
	size_t top;	    /* first display row shown */
	struct con_result_key sel;
	bool full; /* Enter: the detail takes the whole screen */
	size_t detail_top;
	struct w_lines detail;
	struct con_fix_request req; /* the fix-up being confirmed */
} ck;

static void target(const struct rd_result *r, char *buf, size_t size)
{
	if (r->device && r->port)
		snprintf(buf, size, "%s/%" PRIu64, r->device, r->port);
	else if (r->device)
		snprintf(buf, size, "%s", r->device);
	else if (r->netdev)
		snprintf(buf, size, "%s", r->netdev);
	else
		snprintf(buf, size, "host");
}

static const struct rd_result *selected(const struct ui *ui)
{
	if (!ui->st.have_results || ck.tbl.sel >= ui->st.results.n)
		return NULL;
	return &ui->st.results.v[ck.tbl.sel];
}

/* Why a fix-up cannot be applied here, or NULL when it can. */
static const char *fix_blocked(const struct ui *ui)
{
	if (ui->st.source != CON_LIVE)
		return "this is a recording, not this host";
	if (ui->o.roots->redirected)
		return "the console reads a fixture tree, not this host";
	if (!ui->root)
		return "read-only: fix-ups need root (run rdmadiag with sudo)";
	return NULL;
}

static void add_wrapped(const char *text, int width, enum w_style st)
{
	char lines[24][256];
	size_t n = w_wrap(text, width, lines, 24);

	for (size_t i = 0; i < n; i++)
		w_lines_add(&ck.detail, st, "  %s", lines[i]);
}

/*
 * The selected result, in the order the person on call reads it: the
 * verdict, what to do (fix-up and next step), the evidence behind it,
 * why it matters and the path the check took.
 */
static void build_detail(struct ui *ui, const struct rd_result *r, int width)
{
	char tgt[96];

	w_lines_reset(&ck.detail);
	if (!r)
		return;
	target(r, tgt, sizeof(tgt));
	w_lines_add(&ck.detail, ui_verdict_style(r->verdict), "%s  %s  %s",
		    rd_verdict_name(r->verdict), ui_str(r->title), tgt);
	{
		char lines[24][256];
		size_t n = w_wrap(ui_str(r->summary), width, lines, 24);

		for (size_t i = 0; i < n; i++)
			w_lines_add(&ck.detail, W_NORMAL, "%s", lines[i]);
	}
	if (r->fix) {
		const char *why = fix_blocked(ui);

		w_lines_add(&ck.detail, W_HEAD, "Fix-up%s",
			    why ? " (not applied here)" : " (press f to apply)");
		w_lines_add(&ck.detail, W_WARN, "  # %s",
			    ui_str(r->fix->command));
		char line[512];

		/* Wrapped, never cut: the impact and how to undo it. */
		snprintf(line, sizeof(line), "impact: %s%s%s",
			 ui_str(r->fix->impact),
			 r->fix->disruptive ? "  [disruptive]" : "",
			 r->fix->undoable ? "  [undo with u]" : "");
		add_wrapped(line, width - 2, W_NORMAL);
		if (why) {
			snprintf(line, sizeof(line), "not applied: %s", why);
			add_wrapped(line, width - 2, W_DIM);
		}
	} else if (r->verdict != RD_PASS) {
		char line[256];

		snprintf(line, sizeof(line), "no fix-up: %s", rd_result_no_fix_reason(r));
		w_lines_add(&ck.detail, W_HEAD, "Fix-up");
		add_wrapped(line, width - 2, W_NORMAL);
	}
	if (r->next_step) {
		w_lines_add(&ck.detail, W_HEAD, "Next step");
		add_wrapped(r->next_step, width - 2, W_NORMAL);
	}
	if (r->n_evidence)
		w_lines_add(&ck.detail, W_HEAD, "Evidence");
	for (size_t i = 0; i < r->n_evidence; i++) {
		const struct rd_evidence *e = &r->evidence[i];

		w_lines_add(&ck.detail, W_NORMAL, "  %-26s %s", ui_str(e->what),
			    ui_str(e->value));
		if (e->source && e->source[0])
			w_lines_add(&ck.detail, W_DIM, "  %-26s from %s", "",
				    e->source);
	}
	if (r->why) {
		w_lines_add(&ck.detail, W_HEAD, "Why it matters");
		add_wrapped(r->why, width - 2, W_NORMAL);
	}
	if (r->n_path)
		w_lines_add(&ck.detail, W_HEAD, "Decision path");
	for (size_t i = 0; i < r->n_path; i++)
		w_lines_add(&ck.detail, ui_verdict_style(r->path[i].verdict),
			    "  %zu. %-4s %s", i + 1,
			    rd_verdict_name(r->path[i].verdict),
			    ui_str(r->path[i].text));
}

/* The list's display rows: a layer's heading (-1 - layer) or a result's
 * index. Results come sorted by layer. */
static size_t display_rows(const struct rd_results *rs, long *rows)
{
	size_t n = 0;
	long layer = -1;

	for (size_t i = 0; i < rs->n; i++) {
		if ((long)rs->v[i].layer != layer) {
			layer = (long)rs->v[i].layer;
			rows[n++] = -1 - layer;
		}
		rows[n++] = (long)i;
	}
	return n;
}

static size_t row_of(const long *rows, size_t n, size_t sel)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i] == (long)sel)
			return i;
	return 0;
}

/* Keep the selection in view and the page full: no blank rows at the
 * bottom while rows above are hidden. A result first in its layer
 * brings its heading along. */
static void scroll_to(const long *rows, size_t n, size_t sel_row, int h)
{
	size_t page = h > 0 ? (size_t)h : 1;

	if (sel_row > 0 && rows[sel_row - 1] < 0 && ck.top >= sel_row)
		ck.top = sel_row - 1;
	if (ck.top > sel_row)
		ck.top = sel_row;
	if (sel_row >= ck.top + page)
		ck.top = sel_row - page + 1;
	if (ck.top + page > n)
		ck.top = n > page ? n - page : 0;
}

/* The whole body of the screen, list and detail pane together. */
static void checklist_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const struct rd_rect *side = ui_pane(ui, RD_PANE_SIDE);
	/* Target and check grow to their longest text when there is room. */
	struct w_column cols[] = {
		{ "VERDICT", 7, false, 0 },
		{ "TARGET", 12, false, 0 },
		{ "CHECK", 28, false, 0 },
		{ "SUMMARY", 30, false, 0 },
	};
	const struct rd_results *rs = &ui->st.results;
	int h = r->h - 1, counts[4] = { 0 };
	long *rows;
	size_t nrows;

	if (!ui->st.have_results) {
		w_print(r, 1, 2, W_DIM, "The checks have not run yet.");
		return;
	}
	/* Find the selection again: results are rebuilt every refresh. */
	for (size_t i = 0; i < rs->n; i++) {
		struct con_result_key k;

		con_result_key_of(&rs->v[i], &k);
		if (con_result_key_eq(&k, &ck.sel)) {
			ck.tbl.sel = i;
			break;
		}
	}
	if (ck.tbl.sel >= rs->n)
		ck.tbl.sel = rs->n ? rs->n - 1 : 0;
	for (size_t i = 0; i < rs->n; i++)
		counts[rs->v[i].verdict & 3]++;
	w_printf(ui_pane(ui, RD_PANE_HEAD), 0, 1, W_DIM,
		 "%zu checks: %d FAIL  %d WARN  %d UNKNOWN  %d PASS",
		 rs->n, counts[RD_FAIL], counts[RD_WARN],
		 counts[RD_UNKNOWN], counts[RD_PASS]);
	if (ck.full) {
		struct rd_rect body = rd_layout_body(&ui->lay);

		build_detail(ui, selected(ui), body.w - 2);
		w_lines_draw(&ck.detail, &body, &ck.detail_top);
		return;
	}
	for (size_t i = 0; i < ui->st.results.n; i++) {
		char tgt[96];
		int tl, cl;

		target(&ui->st.results.v[i], tgt, sizeof(tgt));
		tl = (int)strlen(tgt);
		cl = (int)strlen(ui_str(ui->st.results.v[i].title));
		cols[1].want = tl > cols[1].want ? tl : cols[1].want;
		cols[2].want = cl > cols[2].want ? cl : cols[2].want;
	}
	w_columns_fit(cols, 4, r->w);
	w_table_header(r, 0, cols, 4);
	if (!rs->n) {
		w_print(r, 1, 2, W_DIM, "No checks apply.");
		return;
	}
	rows = calloc(rs->n + RD_LAYER_COUNT + 1, sizeof(*rows));
	if (!rows)
		return;
	nrows = display_rows(rs, rows);
	scroll_to(rows, nrows, row_of(rows, nrows, ck.tbl.sel), h);
	for (int row = 0; row < h && ck.top + (size_t)row < nrows; row++) {
		long k = rows[ck.top + (size_t)row];
		const struct rd_result *res;
		char tgt[96];
		const char *text[4];
		enum w_style st[4] = { W_NORMAL, W_NORMAL, W_NORMAL, W_NORMAL };

		if (k < 0) {
			w_printf(r, row + 1, 0, W_HEAD, "-- %s --",
				 rd_layer_title((enum rd_layer)(-1 - k)));
			continue;
		}
		res = &rs->v[k];
		st[0] = ui_verdict_style(res->verdict);
		target(res, tgt, sizeof(tgt));
		text[0] = rd_verdict_name(res->verdict);
		text[1] = tgt;
		text[2] = ui_str(res->title);
		text[3] = ui_str(res->summary);
		w_table_row(r, row + 1, cols, 4, text, st,
			    (size_t)k == ck.tbl.sel);
	}
	free(rows);
	build_detail(ui, selected(ui), side->w - 4);
	w_box(side, "details (Enter: full screen)");
	{
		struct rd_rect in = { side->y + 1, side->x + 2, side->h - 2,
				      side->w - 4 };
		size_t t = 0;

		w_lines_draw(&ck.detail, &in, &t);
	}
}

/* Hand the confirmed request to the worker; its progress fills a dialog. */
static int send_fix(struct ui *ui, void *arg)
{
	const char *what =
		ck.req.undo ? "Undoing the last fix-up" : "Applying the fix-up";

	if (con_worker_fix(ui->worker, &ck.req) < 0) {
		ui_msg(ui, W_WARN, "a fix-up is already running");
		return UI_REDO_DRAW;
	}
	ui_dialog_open(ui, what, "Esc: hide (the result shows in the banner)",
		       NULL, NULL);
	if (!ck.req.undo)
		ui_dialog_line(ui, "%s", ck.req.command);
	ui->fix_dialog = true;
	return UI_REDO_DRAW;
}

static int ask_fix(struct ui *ui)
{
	const struct rd_result *r = selected(ui);
	const char *why = fix_blocked(ui);

	if (!r || !r->fix) {
		ui_msg(ui, W_WARN, "no fix-up for this check");
		return UI_REDO_DRAW;
	}
	memset(&ck.req, 0, sizeof(ck.req));
	con_result_key_of(r, &ck.req.key);
	snprintf(ck.req.command, sizeof(ck.req.command), "%s",
		 ui_str(r->fix->command));
	if (why) {
		ui_dialog_open(ui, "Fix-up not available", NULL, NULL, NULL);
		ui_dialog_line(ui, "Not applied: %s.", why);
		ui_dialog_line(ui, " ");
		ui_dialog_line(ui, "The command, to run yourself:");
		ui_dialog_line(ui, "  %s", ck.req.command);
		ui_dialog_line(ui, "Impact: %s", ui_str(r->fix->impact));
		return UI_REDO_DRAW;
	}
	ui_dialog_open(ui, "Apply this fix-up?", "y: apply   n/Esc: cancel",
		       send_fix, NULL);
	ui_dialog_line(ui, "%s", ui_str(r->summary));
	ui_dialog_line(ui, " ");
	ui_dialog_line(ui, "Command:  %s", ck.req.command);
	ui_dialog_line(ui, "Impact:   %s", ui_str(r->fix->impact));
	if (r->fix->disruptive)
		ui_dialog_line(ui, "This is disruptive: traffic on the port "
				   "is interrupted.");
	ui_dialog_line(ui,
		       r->fix->undoable
			       ? "It is recorded in the journal; u undoes it."
			       : "It cannot be undone from the console.");
	if (r->fix->undoable && con_fixup_confirm_within(r->fix->kind) > 0)
		ui_dialog_line(ui,
			       "Afterwards press y within %u s to keep it, or "
			       "it is reverted by itself.",
			       con_fixup_confirm_within(r->fix->kind));
	return UI_REDO_DRAW;
}

static int ask_undo(struct ui *ui)
{
	const char *why = fix_blocked(ui);

	if (why) {
		ui_dialog_open(ui, "Undo not available", NULL, NULL, NULL);
		ui_dialog_line(ui, "Not possible: %s.", why);
		return UI_REDO_DRAW;
	}
	memset(&ck.req, 0, sizeof(ck.req));
	ck.req.undo = true;
	ui_dialog_open(ui, "Undo the last fix-up?", "y: undo   n/Esc: cancel",
		       send_fix, NULL);
	ui_dialog_line(ui, "Restores the value recorded in the journal");
	ui_dialog_line(ui, "  %s", con_fixup_journal());
	return UI_REDO_DRAW;
}

/* The first result at or after display row i (before it, at the end). */
static size_t result_near(const long *rows, size_t n, size_t i)
{
	for (size_t k = i; k < n; k++)
		if (rows[k] >= 0)
			return (size_t)rows[k];
	for (size_t k = i < n ? i + 1 : n; k-- > 0;)
		if (rows[k] >= 0)
			return (size_t)rows[k];
	return 0;
}

static int checklist_move(struct ui *ui, int ch)
{
	const struct rd_results *rs = &ui->st.results;
	size_t n = ui->st.have_results ? rs->n : 0, nrows, at;
	int h = ui_pane(ui, RD_PANE_MAIN)->h - 1;
	size_t step = h > 2 ? (size_t)h - 1 : 1;
	long *rows;

	if (ck.full) {
		w_lines_key(ch, &ck.detail_top, rd_layout_body(&ui->lay).h);
		return UI_REDO_DRAW;
	}
	if (!n)
		return UI_REDO_DRAW;
	rows = calloc(n + RD_LAYER_COUNT + 1, sizeof(*rows));
	if (!rows)
		return UI_REDO_DRAW;
	nrows = display_rows(rs, rows);
	at = row_of(rows, nrows, ck.tbl.sel < n ? ck.tbl.sel : n - 1);
	switch (ch) {
	case KEY_UP:
		if (ck.tbl.sel)
			ck.tbl.sel--;
		break;
	case KEY_DOWN:
		if (ck.tbl.sel + 1 < n)
			ck.tbl.sel++;
		break;
	case KEY_PPAGE:
		/* A page of rows up; a heading there means its first result. */
		ck.tbl.sel = result_near(rows, nrows, at > step ? at - step : 0);
		break;
	case KEY_NPAGE:
		ck.tbl.sel = at + step < nrows
				     ? result_near(rows, nrows, at + step)
				     : n - 1;
		break;
	case KEY_HOME:
		ck.tbl.sel = 0;
		break;
	case KEY_END:
		ck.tbl.sel = n - 1;
		break;
	default:
		break;
	}
	free(rows);
	con_result_key_of(&rs->v[ck.tbl.sel], &ck.sel);
	return UI_REDO_DRAW;
}

/* n / N: the next or previous result that is not PASS, round the end. */
static int checklist_next_finding(struct ui *ui, int ch)
{
	const struct rd_results *rs = &ui->st.results;
	size_t n = ui->st.have_results ? rs->n : 0;

	for (size_t k = 1; k < n; k++) {
		size_t i = ch == 'N' ? (ck.tbl.sel + n - k) % n
				     : (ck.tbl.sel + k) % n;

		if (rs->v[i].verdict != RD_PASS) {
			ck.tbl.sel = i;
			con_result_key_of(&rs->v[i], &ck.sel);
			ck.detail_top = 0;
			return UI_REDO_DRAW;
		}
	}
	ui_msg(ui, W_NORMAL, "no other result is not PASS");
	return UI_REDO_DRAW;
}

int view_checklist_open_finding(struct ui *ui)
{
	const struct rd_result *f = con_top_finding(&ui->st);

	ui_go(ui, &view_checklist_screen);
	ck.detail_top = 0;
	ck.full = false;
	if (!f) {
		/* No FAIL or WARN: the first result that is not PASS. */
		for (size_t i = 0; ui->st.have_results && i < ui->st.results.n;
		     i++)
			if (ui->st.results.v[i].verdict != RD_PASS) {
				ck.tbl.sel = i;
				con_result_key_of(&ui->st.results.v[i], &ck.sel);
				break;
			}
		return UI_REDO_DRAW;
	}
	/* The finding the banner names, its detail on the whole screen. */
	con_result_key_of(f, &ck.sel);
	con_select_for(&ui->st, f);
	ck.full = true;
	return UI_REDO_DRAW;
}

static int checklist_enter(struct ui *ui, int ch)
{
	ck.full = !ck.full;
	ck.detail_top = 0;
	return UI_REDO_DRAW;
}

static int checklist_esc(struct ui *ui, int ch)
{
	if (!ck.full)
		return UI_UNHANDLED;
	ck.full = false;
	return UI_REDO_DRAW;
}

static int checklist_fix(struct ui *ui, int ch)
{
	return ask_fix(ui);
}

static bool checklist_has_fix(struct ui *ui)
{
	const struct rd_result *r = selected(ui);

	return r && r->fix;
}

static int checklist_undo(struct ui *ui, int ch)
{
	return ask_undo(ui);
}

static const struct ui_action checklist_actions[] = {
	{ "Up Down PgUp PgDn Home End", checklist_move, NULL,
	  "select a check (scroll the full-screen detail)" },
	{ "Enter", checklist_enter, "Enter details",
	  "the selected check's detail on the whole screen, and back" },
	{ "Esc", checklist_esc, NULL, "leave the full-screen detail" },
	{ "n N", checklist_next_finding, "n next finding",
	  "the next / previous result that is not PASS" },
	{ "f", checklist_fix, "f fix-up",
	  "apply the selected check's fix-up, after a confirmation",
	  checklist_has_fix },
	{ "u", checklist_undo, "u undo",
	  "undo the last fix-up from the journal" },
	{ NULL, NULL, NULL, NULL },
};

static const char checklist_help[] =
	"Every check's verdict, grouped by layer in the order a person "
	"walks them (hardware and firmware, driver, user-space library, "
	"port, network configuration, host) and worst first: FAIL, WARN, "
	"UNKNOWN (the "
	"data needed is not available, with the reason), PASS. The "
	"pane below shows the selected check's evidence (values and "
	"where they were read), why it matters, the next step, the "
	"decision path, and its fix-up as the exact shell command. "
	"k from any screen opens the most important finding's detail; "
	"n and N jump to the next and previous result that is not PASS. "
	"f applies the fix-up after a confirmation showing command "
	"and impact (root only; otherwise the dialog says why not), "
	"then re-probes and shows the new verdict; u undoes the last "
	"fix-up from the journal.";
/* k opens the most important finding; F6 just goes to the list. */
static int checklist_go(struct ui *ui, int ch)
{
	return ch == view_checklist_screen.letter
		       ? view_checklist_open_finding(ui)
		       : ui_go(ui, &view_checklist_screen);
}

UI_SCREEN_FULL(view_checklist_screen, "Checks", "Chk", 6, 'k', RD_LAYOUT_LIST,
	       checklist_draw, checklist_actions, checklist_help, NULL,
	       checklist_go, NULL);
