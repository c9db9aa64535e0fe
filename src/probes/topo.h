/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCIe tree above GPUs and RDMA NIC functions (sysfs links and
 * attributes, the ACS capability from config space), the IOMMU, and the
 * peer-memory files NCCL looks for.
 */
#ifndef RD_PROBES_TOPO_H
#define RD_PROBES_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"

extern const struct rd_probe probe_topo;

/*
 * Find the ACS extended capability in len bytes of config space: 0 with
 * its offset, capability and control registers; -ENOENT when the chain
 * has none; -ENODATA when the bytes end before the extended space (0x100)
 * or inside the chain; -EINVAL for a broken chain (a next pointer below
 * 0x100 or unaligned, or a loop).
 */
int rd_topo_parse_acs(const uint8_t *cfg, size_t len, unsigned *off,
		      unsigned *cap, unsigned *ctl);

/*
 * Split a sysfs device link's target ("../../../devices/pci0000:00/
 * 0000:00:01.0/0000:01:00.0") into the component before its last run of
 * PCI addresses (the host bridge, as NCCL stops there) and that run.
 * 0, or -EINVAL when the target does not end in a PCI address.
 */
int rd_topo_parse_link(const char *target, char *host, size_t hostlen,
		       char bdfs[][16], size_t max, size_t *n);

/* Is a function of this vendor and class a GPU (NVIDIA, AMD)? */
int rd_topo_gpu_class(unsigned vendor, unsigned class_id);

#endif
