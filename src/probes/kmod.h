/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA kernel modules: loaded (/sys/module) and available (libkmod). */
#ifndef RD_PROBES_KMOD_H
#define RD_PROBES_KMOD_H

#include "probes/probe.h"

extern const struct rd_probe probe_kmod;

/*
 * Set modules[].available from the module index of moddir (NULL: the
 * running kernel's /lib/modules/RELEASE). Leaves it absent, with one error
 * line, when there is no index to ask.
 */
int probe_kmod_available(const char *moddir, struct rd_snapshot *s);

#endif
