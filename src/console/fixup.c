// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix-ups from the console, journalled like `rdmadiag fix` and `undo`. */
#include "config.h"
#include "console/fixup.h"

#include <stdio.h>
#include <string.h>

int con_fixup_apply(const struct rd_fixup *f, char *msg, size_t msglen)
{
	int r;

	msg[0] = '\0';
	r = rd_fixup_apply(f, rd_journal_default_path(), msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s",
			 r < 0 ? strerror(-r) : "fix-up applied");
	return r;
}

int con_fixup_undo(char *msg, size_t msglen)
{
	int r;

	msg[0] = '\0';
	r = rd_fixup_undo(rd_journal_default_path(), NULL, msg, msglen);
	if (!msg[0])
		snprintf(msg, msglen, "%s", r < 0 ? strerror(-r) : "undone");
	return r;
}
