// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix-ups from the console, journalled like `rdmadiag fix` and `undo`. */
#include "config.h"
#include "console/fixup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/escape.h"
#include "fix/journal.h"

static unsigned confirm_within = CON_FIXUP_CONFIRM_DEFAULT;

void con_fixup_set_confirm_within(unsigned s)
{
	confirm_within = s;
}

unsigned con_fixup_confirm_within(enum rd_fix_kind kind)
{
	return rd_fix_kind_cuts_session(kind) ? confirm_within : 0;
}

int con_fixup_apply(struct rd_fixup *f, const struct rd_snapshot *s,
		    const struct rd_roots *roots, bool from_recording,
		    struct rd_fix_done *done, char *msg, size_t msglen)
{
	struct rd_fix_opts fo = { .roots = roots,
				  .from_recording = from_recording,
				  .confirm_within =
					  con_fixup_confirm_within(f->kind) };
	int r;

	msg[0] = '\0';
	rd_fix_bind(f, s);
	r = rd_fixup_apply(f, &fo, done, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s",
			 r < 0 ? strerror(-r) : "fix-up applied");
	return r;
}

int con_fixup_undo(const struct rd_roots *roots, bool from_recording,
		   const char *entry, char *msg, size_t msglen)
{
	struct rd_fix_opts fo = { .roots = roots,
				  .from_recording = from_recording };
	int r;

	msg[0] = '\0';
	r = rd_fixup_undo(&fo, entry && entry[0] ? entry : NULL, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s", r < 0 ? strerror(-r) : "undone");
	return r;
}

int con_fixup_confirm(const char *id, char *msg, size_t msglen)
{
	int r;

	msg[0] = '\0';
	r = rd_fix_confirm(NULL, id, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s", r < 0 ? strerror(-r) : "kept");
	return r;
}

double con_fixup_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool con_fixup_countdown(double confirm_by, double now, char *buf,
			 size_t len)
{
	double left = confirm_by - now;

	if (!(left > CON_FIXUP_CONFIRM_MARGIN)) {
		snprintf(buf, len,
			 "The time ran out: the rollback timer reverts the "
			 "change.");
		return false;
	}
	snprintf(buf, len,
		 "Keep this change? It is reverted in %.0f s unless you "
		 "press y.",
		 ceil(left - CON_FIXUP_CONFIRM_MARGIN));
	return true;
}

int con_fixup_rollback_state(const char *id, char *why, size_t len)
{
	const struct rd_journal_entry *t;
	struct rd_journal_file jf;
	struct rd_journal j;
	char err[256];
	int st = 0;

	why[0] = '\0';
	if (rd_journal_open(rd_journal_default_path(), RD_JOURNAL_READ, &jf,
			    err, sizeof(err)) < 0)
		return 0;
	if (rd_journal_load(&jf, &j, err, sizeof(err)) == 0) {
		t = rd_journal_find(&j, id);
		if (t && t->undone) {
			st = 1;
		} else if (t && t->rollback_failed && !t->confirmed) {
			snprintf(why, len, "%s", rd_esc_tmp(t->rollback_failed));
			st = -1;
		}
		rd_journal_free(&j);
	}
	rd_journal_close(&jf);
	return st;
}

const char *con_fixup_journal(void)
{
	return rd_journal_default_path();
}
