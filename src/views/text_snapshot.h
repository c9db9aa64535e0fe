/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one-shot, human-readable snapshot summary (rdmadiag snapshot). */
#ifndef RD_VIEWS_TEXT_SNAPSHOT_H
#define RD_VIEWS_TEXT_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/snapshot.h"
#include "diag/diag.h"

void view_text_snapshot(FILE *f, const struct rd_snapshot *s, bool color,
			bool verbose);

#endif
