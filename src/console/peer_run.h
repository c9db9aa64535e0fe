/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `rdmadiag peer HOST --json` run as a child of the console, so a slow or
 * silent peer never blocks the keyboard: the loop polls con_peer_fd(),
 * feeds what is readable, and once the child has exited its JSON becomes
 * the result (peer/child.h). A child source beside the test runner.
 */
#ifndef RD_CONSOLE_PEER_RUN_H
#define RD_CONSOLE_PEER_RUN_H

#include "console/child.h"
#include "peer/child.h"

void con_peer_init(struct rd_peer_child *c);
/*
 * Ask HOST[:PORT] (target as typed) with self_exe (NULL: /proc/self/exe),
 * comparing dev/port of this host (dev NULL: the default) as read through
 * roots (NULL or not redirected: the real ones), each message waiting at
 * most timeout_s; matrix: run the reachability matrix too (RDMA messages
 * between the two ports). 0, or -errno with c->err set.
 */
int con_peer_start(struct rd_peer_child *c, const char *self_exe,
		   const struct rd_roots *roots, const char *target,
		   const char *dev, unsigned port, unsigned timeout_s,
		   bool matrix);
bool con_peer_running(const struct rd_peer_child *c);
int con_peer_fd(const struct rd_peer_child *c);
/* Read what is there; when the child has closed its output, reap it and
 * fill done/ok/err/res. */
void con_peer_readable(struct rd_peer_child *c);
void con_peer_stop(struct rd_peer_child *c);
/* The child source the loop polls. */
struct con_child con_peer_child(struct rd_peer_child *c);

#endif
