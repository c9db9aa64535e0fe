// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keep-this-change dialog. A change to link state, MTU or PFC can cut
 * the session that made it, so it runs under a rollback timer (a detached
 * child started by src/fix): unless the person presses y before the
 * deadline, the change is reverted by itself. The dialog counts down
 * live; y keeps the change (one journal append, done here so the key is
 * answered at once), n or Esc reverts it now through the worker.
 */
#include "config.h"
#include "views/ui.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "console/fixup.h"

static int rollback_key(struct ui *ui, int ch);
static int tick(struct ui *ui);

/* The countdown is read four times a second. */
static const struct ui_dialog_kind rollback_kind = {
	.key = rollback_key,
	.tick = tick,
	.wake_ms = 250,
};

/* A dialog about the change under the timer: its title, then the change. */
static void open_about(struct ui *ui, const char *title, const char *keys)
{
	ui_dialog_open(ui, title, keys, NULL, NULL);
	ui_dialog_line(ui, "%s", ui->rollback.what);
}

/* (Re)build the dialog from ui->rollback; the countdown is its last
 * text line. */
static void show(struct ui *ui, const char *countdown)
{
	struct ui_rollback *rb = &ui->rollback;

	open_about(ui, "Keep this change?", "y: keep   n/Esc: revert now");
	ui->dialog.kind = &rollback_kind;
	if (rb->after[0])
		ui_dialog_line(ui, "%s", rb->after);
	ui_dialog_line(ui, " ");
	ui_dialog_line(ui, "%s", countdown);
}

static void timed_out(struct ui *ui)
{
	struct ui_rollback *rb = &ui->rollback;

	rb->on = false;
	open_about(ui, "Change not kept", NULL);
	ui_dialog_line(ui,
		       "Nobody pressed y in time: the rollback timer "
		       "reverts the change (journal entry %s).",
		       rb->id);
	ui_dialog_line(ui, "The next reading shows the old value.");
	ui_msg(ui, W_WARN, "not kept in time: the rollback timer reverts %s",
	       rb->what);
	/* Until the journal says whether it did: tries and waits included. */
	rb->watch = true;
	rb->next_look = con_fixup_clock() + 1;
	rb->watch_until = con_fixup_clock() + 60 +
			  RD_FIX_TIMER_TRIES * (RD_FIX_TIMER_RETRY_S + 10);
}

/* The journal after the time ran out: reverted, or the timer gave up. */
static int watch(struct ui *ui)
{
	struct ui_rollback *rb = &ui->rollback;
	double now = con_fixup_clock();
	char why[512];
	int st;

	if (now < rb->next_look)
		return UI_REDO_NOTHING;
	rb->next_look = now + 2;
	st = con_fixup_rollback_state(rb->id, why, sizeof(why));
	if (st == 0) {
		rb->watch = now < rb->watch_until;
		return UI_REDO_NOTHING;
	}
	rb->watch = false;
	if (st > 0) {
		ui_msg(ui, W_BANNER_OK, "the rollback timer reverted %s",
		       rb->what);
		return UI_REDO_DRAW;
	}
	open_about(ui, "Rollback failed", NULL);
	ui_dialog_line(ui,
		       "The rollback timer could not revert it (journal "
		       "entry %s):",
		       rb->id);
	ui_dialog_line(ui, "  %s", why);
	ui_dialog_line(ui, "The change is still in place: press u to undo it, "
			   "or run rdmadiag undo.");
	ui_msg(ui, W_BANNER_BAD, "the rollback timer could not revert %s: %s",
	       rb->what, why);
	return UI_REDO_DRAW;
}

void ui_rollback_open(struct ui *ui, const struct con_update *u,
		      const char *after)
{
	struct ui_rollback *rb = &ui->rollback;
	char line[160];

	memset(rb, 0, sizeof(*rb));
	rb->on = true;
	ui->live_dialog = &rollback_kind;
	snprintf(rb->id, sizeof(rb->id), "%s", u->fix_id);
	rb->confirm_by = u->confirm_by;
	snprintf(rb->what, sizeof(rb->what), "%s", u->text);
	snprintf(rb->after, sizeof(rb->after), "%s", after ? after : "");
	if (con_fixup_countdown(rb->confirm_by, con_fixup_clock(), line,
				sizeof(line)))
		show(ui, line);
	else
		timed_out(ui);
}

/* The countdown live, then the journal watched; the kind's life ends
 * when neither is left. */
static int tick(struct ui *ui)
{
	struct ui_rollback *rb = &ui->rollback;
	struct ui_dialog *d = &ui->dialog;
	char line[160];
	int redo;

	if (!rb->on) {
		redo = rb->watch ? watch(ui) : UI_REDO_NOTHING;
		if (!rb->watch && ui->live_dialog == &rollback_kind)
			ui->live_dialog = NULL;
		return redo;
	}
	if (!con_fixup_countdown(rb->confirm_by, con_fixup_clock(), line,
				 sizeof(line))) {
		timed_out(ui);
		return UI_REDO_DRAW;
	}
	/* Another dialog took its place: the pending change comes first. */
	if (!d->open || d->kind != &rollback_kind || d->n == 0) {
		show(ui, line);
		return UI_REDO_DRAW;
	}
	if (strcmp(d->lines[d->n - 1], line) == 0)
		return UI_REDO_NOTHING;
	snprintf(d->lines[d->n - 1], sizeof(d->lines[0]), "%s", line);
	return UI_REDO_DRAW;
}

/* y: append the confirmation to the journal; the timer stands down. */
static int keep(struct ui *ui)
{
	struct ui_rollback *rb = &ui->rollback;
	char msg[512];
	int r;

	if (tick(ui) && !rb->on)
		return UI_REDO_DRAW; /* too late: the timer reverts it */
	rb->on = false;
	r = con_fixup_confirm(rb->id, msg, sizeof(msg));
	ui_dialog_open(ui, r < 0 ? "Not kept" : "Change kept", NULL, NULL,
		       NULL);
	ui_dialog_line(ui, "%s", msg);
	if (r < 0)
		ui_dialog_line(ui, "The next reading shows what is in place.");
	ui_msg(ui, r < 0 ? W_BANNER_BAD : W_BANNER_OK, "%s", msg);
	return UI_REDO_DRAW;
}

/* n/Esc: undo this entry now, through the worker like u does. */
static int revert(struct ui *ui)
{
	struct ui_rollback *rb = &ui->rollback;
	struct con_fix_request req = { .undo = true };

	snprintf(req.entry, sizeof(req.entry), "%s", rb->id);
	snprintf(req.command, sizeof(req.command), "%s", rb->what);
	if (con_worker_fix(ui->worker, &req) < 0) {
		ui_msg(ui, W_WARN,
		       "a fix-up is still running; press n again to revert");
		return UI_REDO_DRAW;
	}
	rb->on = false;
	ui_dialog_open(ui, "Reverting the change",
		       "Esc: hide (the result shows in the banner)", NULL,
		       NULL);
	ui_dialog_line(ui, "Undoing journal entry %s:", rb->id);
	ui_dialog_line(ui, "  %s", rb->what);
	ui->fix_dialog = true;
	return UI_REDO_DRAW;
}

static int rollback_key(struct ui *ui, int ch)
{
	if (!ui->rollback.on)
		return UI_REDO_NOTHING;
	if (ch == 'y' || ch == 'Y')
		return keep(ui);
	if (ch == 'n' || ch == 'N' || ch == UI_KEY_ESC)
		return revert(ui);
	return UI_REDO_NOTHING;
}
