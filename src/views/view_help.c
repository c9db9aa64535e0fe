// SPDX-License-Identifier: GPL-2.0-or-later
/* Help: every key and what each screen shows, read from the registry. */
#include "config.h"

#include <curses.h>
#include <stdio.h>

#include "views/ui.h"

static struct w_page page;

/* Lines as wide as the page, within what a page line holds. */
static int wrap_width(int w)
{
	int most = (int)sizeof(page.lines.text[0]) - 40;

	return w < 20 ? 20 : w > most ? most : w;
}

/* Keys in a column of 28, what they do wrapped beside them. */
static void add_actions(const struct ui_action *acts, int width)
{
	char wrapped[8][256];
	int w = wrap_width(width - 31);

	for (const struct ui_action *a = acts; a && a->keys; a++) {
		size_t nl = w_wrap(a->help, w, wrapped, 8);

		for (size_t i = 0; i < nl; i++)
			w_lines_add(&page.lines, W_NORMAL, "  %-28s %s",
				    i ? "" : a->keys, wrapped[i]);
	}
}

static void help_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	char wrapped[16][256];

	w_lines_reset(&page.lines);
	w_lines_add(&page.lines, W_HEAD, "Keys on every screen");
	for (size_t v = 0; v < ui->n_screens; v++) {
		const struct ui_screen *sc = ui->screens[v];

		w_lines_add(&page.lines, W_NORMAL, "  F%-2d %-24c %s", sc->fkey,
			    sc->letter, sc->name);
	}
	for (size_t v = 0; v < ui->n_screens; v++)
		add_actions(ui->screens[v]->anywhere, r->w);
	add_actions(ui->global_actions, r->w);
	w_lines_add(&page.lines, W_NORMAL, " ");
	for (size_t v = 0; v < ui->n_screens; v++) {
		const struct ui_screen *sc = ui->screens[v];
		size_t nl;

		w_lines_add(&page.lines, W_HEAD, "F%d %c  %s", sc->fkey,
			    sc->letter, sc->name);
		nl = w_wrap(sc->help, wrap_width(r->w - 4), wrapped, 16);
		for (size_t i = 0; i < nl; i++)
			w_lines_add(&page.lines, W_NORMAL, "  %s", wrapped[i]);
		add_actions(sc->actions, r->w);
		w_lines_add(&page.lines, W_NORMAL, " ");
	}
	w_lines_add(&page.lines, W_HEAD, "Colours");
	w_lines_add(&page.lines, W_GOOD, "  green: ACTIVE, PASS");
	w_lines_add(&page.lines, W_WARN, "  yellow/bold: WARN");
	w_lines_add(&page.lines, W_BAD,
		    "  red/underlined: a port not ACTIVE (DOWN, INIT, ARMED), "
		    "FAIL, a rising error counter");
	w_lines_add(&page.lines, W_DIM, "  dim: not available (N/A), UNKNOWN");
	w_lines_add(&page.lines, W_NORMAL,
		    "  NO_COLOR or a monochrome terminal switch to bold, "
		    "underline and reverse.");
	w_page_draw(&page, r);
}

static const struct ui_action help_actions[] = {
	UI_ACTION_SCROLL("Up/Down scroll", "scroll this page"),
	UI_ACTION_BACK,
	{ NULL, NULL, NULL, NULL },
};

static const char help_page_help[] =
	"This page. The console refreshes every -d seconds "
	"(default 1); --replay FILE plays a capture made with "
	"'rdmadiag capture', --demo plays the recorded demo host. "
	"Without root the console is read-only: fix-ups are shown "
	"with the command to run and the reason they are disabled.";
/* F1, ? and h open help, and from help go back. */
static int help_toggle(struct ui *ui, int ch)
{
	return ui_go(ui, ui->view == &view_help_screen ? ui->back
						       : &view_help_screen);
}

static const struct ui_action help_anywhere[] = {
	{ "h", help_toggle, NULL, "help, as F1 and ?" },
	{ NULL, NULL, NULL, NULL },
};

UI_SCREEN_FULL(view_help_screen, "Help", "Help", 1, '?', RD_LAYOUT_FULL,
	       help_draw, help_actions, help_page_help, &page, help_toggle,
	       help_anywhere);
