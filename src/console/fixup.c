// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix-ups from the console, journalled like `rdmadiag fix` and `undo`. */
#include "config.h"
#include "console/fixup.h"

#include <stdio.h>
#include <string.h>

#include "fix/fix.h"
#include "fix/journal.h"

int con_fixup_apply(struct rd_fixup *f, const struct rd_snapshot *s,
		    const struct rd_roots *roots, bool from_recording,
		    char *msg, size_t msglen)
{
	struct rd_fix_opts fo = { .roots = roots,
				  .from_recording = from_recording };
	int r;

	msg[0] = '\0';
	rd_fix_bind(f, s);
	r = rd_fixup_apply(f, &fo, NULL, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s",
			 r < 0 ? strerror(-r) : "fix-up applied");
	return r;
}

int con_fixup_undo(const struct rd_roots *roots, bool from_recording, char *msg,
		   size_t msglen)
{
	struct rd_fix_opts fo = { .roots = roots,
				  .from_recording = from_recording };
	int r;

	msg[0] = '\0';
	r = rd_fixup_undo(&fo, NULL, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s", r < 0 ? strerror(-r) : "undone");
	return r;
}

const char *con_fixup_journal(void)
{
	return rd_journal_default_path();
}
