// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What screens call on the console: messages, dialogs, panes, styles and
 * going to a screen. A leaf under the screens: it names no screen and
 * runs no loop (ui.c does).
 */
#include "config.h"
#include "views/ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double ui_now(void)
{
	return con_now();
}

void ui_msg(struct ui *ui, enum w_style s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_style = s;
	ui->msg_until = ui_now() + 6.0;
}

const char *ui_str(const char *s)
{
	return s && *s ? s : "-";
}

enum w_style ui_verdict_style(enum rd_verdict v)
{
	static const enum w_style styles[] = { W_GOOD, W_DIM, W_WARN, W_BAD };

	return (unsigned)v < 4 ? styles[v] : W_DIM;
}

enum w_style ui_state_style(const struct rd_port *p)
{
	return ui_verdict_style(rd_diag_port_state(p));
}

void ui_dialog_open(struct ui *ui, const char *title, const char *choices,
		    ui_confirm_fn confirm, void *arg)
{
	struct ui_dialog *d = &ui->dialog;

	memset(d, 0, sizeof(*d));
	d->open = true;
	snprintf(d->title, sizeof(d->title), "%s", title);
	snprintf(d->choices, sizeof(d->choices), "%s",
		 choices ? choices : "Enter/Esc: close");
	d->confirm = confirm;
	d->arg = arg;
	ui->fix_dialog = false;
}

void ui_dialog_line(struct ui *ui, const char *fmt, ...)
{
	struct ui_dialog *d = &ui->dialog;
	va_list ap;

	if (d->n >= sizeof(d->lines) / sizeof(d->lines[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(d->lines[d->n++], sizeof(d->lines[0]), fmt, ap);
	va_end(ap);
}

struct rd_rect *ui_pane(struct ui *ui, enum rd_pane p)
{
	return &ui->lay.pane[p];
}

int ui_go(struct ui *ui, const struct ui_screen *sc)
{
	if (ui->view != sc)
		ui->back = ui->view;
	ui->view = sc;
	rd_layout_compute(ui->rows, ui->cols, sc->layout, &ui->lay);
	return UI_REDO_DRAW;
}

int ui_page_scroll(struct ui *ui, int ch)
{
	if (!ui->view->page)
		return UI_UNHANDLED;
	w_page_key(ui->view->page, ch);
	return UI_REDO_DRAW;
}

int ui_back(struct ui *ui, int ch)
{
	return ui_go(ui, ui->back);
}
