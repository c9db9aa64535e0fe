/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder's store: a directory holding record.db, the SQLite
 * database rdmadiag record writes and rdmadiag timeline, check --since,
 * explain and the console read. Opening it refuses a symlinked or foreign
 * directory or database (see DESIGN.md, "The flight recorder").
 */
#ifndef RD_CONSOLE_STORE_H
#define RD_CONSOLE_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

#include "core/events.h"

/* Where rdmadiag record keeps its store when not told (--store). */
#define RD_STORE_DEFAULT "/var/lib/rdmadiag/record"
#define RD_STORE_DB "record.db"

/*
 * Open the store at dir: for writing (made 0700 when missing, tables
 * created) or for reading (it must exist). 0, -ENOENT (no store there),
 * or -errno; err says why, raw text.
 */
int rd_store_open(const char *dir, bool write, sqlite3 **db, char *err,
		  size_t errlen);

/*
 * The events of the store at dir from since (seconds since the epoch)
 * on, the newest RD_EVENTS_MAX of them, oldest first, with link_downed and carrier_down_count rises as
 * events of kind "counter" ("link_downed +3"), so a down the recorder
 * saw only as a counter still shows. out->from is dir. 0, -ENOENT when
 * there is no store, or -errno with err set.
 */
int rd_store_read_events(const char *dir, double since, struct rd_events *out,
			 char *err, size_t errlen);

#endif
