// SPDX-License-Identifier: GPL-2.0-or-later
/* Help: every key, and what each screen shows. */
#include "config.h"

#include <curses.h>
#include <stdio.h>

#include "views/ui.h"

static struct w_lines page;
static size_t top;

static void help_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	const char *names[64], *helps[64];
	size_t n = ui_global_keys(names, helps, 64);
	char wrapped[16][256];

	w_lines_reset(&page);
	w_lines_add(&page, W_HEAD, "Keys on every screen");
	for (size_t i = 0; i < n; i++)
		w_lines_add(&page, W_NORMAL, "  %-8s %s", names[i], helps[i]);
	w_lines_add(&page, W_NORMAL, " ");
	for (int v = 0; v < UI_NVIEWS; v++) {
		const struct ui_screen *sc = ui_screen_of((enum ui_view)v);
		size_t nl;

		w_lines_add(&page, W_HEAD, "F%d %c  %s", sc->fkey, sc->letter,
			    sc->name);
		if (sc->bar)
			w_lines_add(&page, W_WARN, "  keys: %s", sc->bar);
		nl = w_wrap(sc->help, r->w - 4 > 20 ? r->w - 4 : 20, wrapped,
			    16);
		for (size_t i = 0; i < nl; i++)
			w_lines_add(&page, W_NORMAL, "  %s", wrapped[i]);
		w_lines_add(&page, W_NORMAL, " ");
	}
	w_lines_add(&page, W_HEAD, "Colours");
	w_lines_add(&page, W_GOOD, "  green: ACTIVE, PASS");
	w_lines_add(&page, W_WARN, "  yellow/bold: INIT, WARN");
	w_lines_add(&page, W_BAD,
		    "  red/underlined: DOWN, FAIL, a rising error counter");
	w_lines_add(&page, W_DIM, "  dim: not available (N/A), UNKNOWN");
	w_lines_add(&page, W_NORMAL,
		    "  NO_COLOR or a monochrome terminal switch to bold, "
		    "underline and reverse.");
	w_lines_draw(&page, r, &top);
}

static int help_key(struct ui *ui, int ch)
{
	if (w_lines_key(ch, &top, ui_pane(ui, RD_PANE_MAIN)->h))
		return UI_REDO_DRAW;
	if (ch == UI_KEY_ESC)
		return ui->view = ui->back, UI_REDO_LAYOUT | UI_REDO_DRAW;
	return UI_UNHANDLED;
}

const struct ui_screen view_help_screen = {
	.name = "Help",
	.fkey = 1,
	.letter = '?',
	.layout = RD_LAYOUT_FULL,
	.bar = "Up/Down scroll  Esc back",
	.draw = help_draw,
	.key = help_key,
	.help = "This page. The console refreshes every -d seconds "
		"(default 1); --replay FILE plays a capture made with "
		"'rdmadiag capture', --demo plays the recorded demo host. "
		"Without root the console is read-only: fix-ups are shown "
		"with the command to run and the reason they are disabled.",
};
