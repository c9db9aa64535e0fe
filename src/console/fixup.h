/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console's one door to the fix-up engine: applying a check's fix-up
 * and undoing the last one go through these two calls, from the worker
 * thread only. msg gets what to tell the person (always set).
 */
#ifndef RD_CONSOLE_FIXUP_H
#define RD_CONSOLE_FIXUP_H

#include <stddef.h>

#include "diag/diag.h"

int con_fixup_apply(const struct rd_fixup *f, char *msg, size_t msglen);
int con_fixup_undo(char *msg, size_t msglen);

#endif
