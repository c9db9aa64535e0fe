/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fix-ups: the only part of rdmadiag that changes the host. A fix-up is
 * applied only as root, only from a live reading of this host, only to a
 * target and value a check could have produced, validated against the
 * kernel right before the change, and journalled first. docs/SECURITY.md
 * states the rules.
 */
#ifndef RD_FIX_FIX_H
#define RD_FIX_FIX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/roots.h"
#include "diag/diag.h"
#include "fix/journal.h"

struct rd_snapshot;

/* How and from what reading a fix-up is asked for. */
struct rd_fix_opts {
	const char *journal;		/* NULL: rd_journal_default_path() */
	const struct rd_roots *roots;	/* the roots the reading came from */
	/* The reading is not live: --load, --replay, --demo. */
	bool from_recording;
	/*
	 * Rollback timer: revert by itself after this many seconds unless
	 * rd_fix_confirm() is called. 0 = no timer.
	 */
	unsigned confirm_within;
};

/* What apply did, for the caller's confirm dialog. */
struct rd_fix_done {
	char id[RD_JOURNAL_ID_MAX];	/* journal entry; "" = nothing changed */
	double confirm_by;		/* CLOCK_REALTIME deadline; 0 = none */
};

/*
 * Refusal reasons that do not depend on the fix-up: not root, a root
 * override or a recording. NULL when a change may be made.
 */
const char *rd_fix_refusal(const struct rd_fix_opts *o);

/*
 * Record in f what the reading s says about its target (the netdev's
 * ifindex), so apply can tell the same interface from a new one with the
 * same name. Call with the snapshot the check ran on.
 */
void rd_fix_bind(struct rd_fixup *f, const struct rd_snapshot *s);
/* The kind's change can cut the session that made it (its ops say so). */
bool rd_fix_kind_cuts_session(enum rd_fix_kind kind);

/*
 * Apply f: refuse (rd_fix_refusal), check target and value, read the
 * current value, journal it, change, read back, journal the result, and
 * with o->confirm_within start the rollback timer (a detached child).
 * msg receives a line for people (outside text escaped). done may be
 * NULL. 0, or -errno (-EPERM refused, -EINVAL not a value a check could
 * produce, -ESTALE the target changed since the reading, -EBADMSG
 * corrupt journal, ...).
 */
int rd_fixup_apply(const struct rd_fixup *f, const struct rd_fix_opts *o,
		   struct rd_fix_done *done, char *msg, size_t msglen);

/*
 * Revert the last change still in place (entry NULL) or the named one,
 * after validating the entry as a new fix-up and checking that the live
 * value is the one the entry left. Refused with nothing changed otherwise.
 */
int rd_fixup_undo(const struct rd_fix_opts *o, const char *entry, char *msg,
		  size_t msglen);

/* Keep change id: the rollback timer stands down. */
int rd_fix_confirm(const char *journal, const char *id, char *msg,
		   size_t msglen);

/*
 * A rollback timer whose revert fails for want of the journal's lock or
 * of disk space tries again, RD_FIX_TIMER_TRIES times RD_FIX_TIMER_RETRY_S
 * apart, before it gives up and says so (journal, syslog, kernel log).
 */
#define RD_FIX_TIMER_TRIES 6
#define RD_FIX_TIMER_RETRY_S 10.0

#endif
