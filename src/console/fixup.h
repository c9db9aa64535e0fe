/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console's one door to the fix-up engine (src/fix): applying a
 * check's fix-up and undoing the last one go through these two calls,
 * from the worker thread only. msg gets what to tell the person (always
 * set).
 */
#ifndef RD_CONSOLE_FIXUP_H
#define RD_CONSOLE_FIXUP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/roots.h"
#include "core/snapshot.h"
#include "diag/diag.h"

/* f as found in the results of reading s from roots (bound to what s
 * says of its target before it is applied). */
int con_fixup_apply(struct rd_fixup *f, const struct rd_snapshot *s,
		    const struct rd_roots *roots, bool from_recording,
		    char *msg, size_t msglen);
int con_fixup_undo(const struct rd_roots *roots, bool from_recording, char *msg,
		   size_t msglen);
/* Where the journal the undo reads is, to show. */
const char *con_fixup_journal(void);

#endif
