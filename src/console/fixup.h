/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console's one door to the fix-up engine (src/fix): applying a
 * check's fix-up, keeping a change under its rollback timer and undoing
 * go through these calls, from the worker thread only (confirm may run
 * on the loop: it is one journal append). msg gets what to tell the
 * person (always set).
 */
#ifndef RD_CONSOLE_FIXUP_H
#define RD_CONSOLE_FIXUP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/roots.h"
#include "core/snapshot.h"
#include "diag/diag.h"
#include "fix/fix.h"

/* Seconds a change that can cut the session off waits to be kept. */
#define CON_FIXUP_CONFIRM_DEFAULT 30

/*
 * The rollback timer for changes to link state, MTU and PFC: revert
 * after s seconds unless kept (0: no timer). Set before the worker
 * starts; CON_FIXUP_CONFIRM_DEFAULT until then.
 */
void con_fixup_set_confirm_within(unsigned s);
/* The timer a fix-up of this kind gets: changes that can cut a session
 * (link up, MTU, PFC) get the set one, the others none. */
unsigned con_fixup_confirm_within(enum rd_fix_kind kind);

/* f as found in the results of reading s from roots (bound to what s
 * says of its target before it is applied). done (may be NULL) gets the
 * journal entry and the rollback deadline, if any. */
int con_fixup_apply(struct rd_fixup *f, const struct rd_snapshot *s,
		    const struct rd_roots *roots, bool from_recording,
		    struct rd_fix_done *done, char *msg, size_t msglen);
/* Undo the named entry, or the last change (entry NULL or ""). */
int con_fixup_undo(const struct rd_roots *roots, bool from_recording,
		   const char *entry, char *msg, size_t msglen);
/* Keep the change id: its rollback timer stands down. */
int con_fixup_confirm(const char *id, char *msg, size_t msglen);
/* CLOCK_REALTIME seconds, the clock rollback deadlines are on. */
double con_fixup_clock(void);
/*
 * The rollback dialog's countdown line for deadline confirm_by at time
 * now (CLOCK_REALTIME seconds). true while the change can still be kept
 * (more than CON_FIXUP_CONFIRM_MARGIN s left), false when the time ran
 * out and the timer reverts it.
 */
#define CON_FIXUP_CONFIRM_MARGIN 0.5
bool con_fixup_countdown(double confirm_by, double now, char *buf,
			 size_t len);
/* Where the journal the undo reads is, to show. */
/*
 * What the journal says of entry id after its rollback timer ran out: 1
 * reverted, -1 the timer gave up (why says why, escaped), 0 not yet (or
 * the journal cannot be read).
 */
int con_fixup_rollback_state(const char *id, char *why, size_t len);
const char *con_fixup_journal(void);

#endif
