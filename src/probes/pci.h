/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI functions of RDMA NICs: ids, names, driver, PCIe link, NUMA, VPD. */
#ifndef RD_PROBES_PCI_H
#define RD_PROBES_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"

extern const struct rd_probe probe_pci;

/* "0000:3b:00.0" (domain of 4 to 8 hex digits); 0 or -EINVAL. */
int rd_pci_parse_bdf(const char *s, unsigned *domain, unsigned *bus,
		     unsigned *dev, unsigned *func);

/* PCIe speed code of LnkCap/LnkSta (1 = 2.5 GT/s ...) to GT/s; 0 unknown. */
double rd_pcie_speed_gts(unsigned code);

/*
 * MaxPayload and MaxReadReq in bytes from the PCIe Device Control
 * register (fields 7:5 and 14:12, 128 << code); -EINVAL for the reserved
 * codes 6 and 7.
 */
int rd_pci_parse_devctl(uint16_t devctl, uint64_t *max_payload,
			uint64_t *max_read_req);

/* sysfs "8.0 GT/s PCIe" / "2.5 GT/s" to GT/s; -EINVAL for "Unknown". */
int rd_pci_parse_link_speed(const char *text, double *gts);

/*
 * Part number ("PN") and serial number ("SN") from a VPD image (PCI Local
 * Bus spec, VPD large resources). Either output may stay empty.
 * Returns 0, or -EINVAL when the image is malformed.
 */
int rd_pci_parse_vpd(const uint8_t *vpd, size_t len, char *pn, size_t pnlen,
		     char *sn, size_t snlen);

/* Is this (vendor, device, class, driver) an RDMA-capable NIC function? */
bool rd_pci_is_rdma_nic(unsigned vendor, unsigned device, unsigned class_id,
			const char *driver);

#endif
