/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process the console runs beside the keyboard (a bw/lat test, a peer
 * exchange), as the loop sees it: a file descriptor to poll while it
 * runs, what to do when it is readable, and how to stop it. The loop
 * polls an array of these; it knows no kind of child.
 */
#ifndef RD_CONSOLE_CHILD_H
#define RD_CONSOLE_CHILD_H

#include <stdbool.h>

struct con_child {
	void *ctx;
	/* Its output to poll, or -1 when nothing runs. */
	int (*fd)(const void *ctx);
	/* Running: the loop wakes at least every 250 ms for it. */
	bool (*running)(const void *ctx);
	/* Read what is there (and reap the child when it has ended). */
	void (*readable)(void *ctx);
	/* Every turn of the loop (a test's abort escalation); NULL: none. */
	void (*tick)(void *ctx);
	/* End it now (the console is leaving). */
	void (*stop)(void *ctx);
	/* Redraw on every turn while it runs (a live elapsed time). */
	bool redraw_while_running;
};

#endif
