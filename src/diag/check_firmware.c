// SPDX-License-Identifier: GPL-2.0-or-later
/* Hardware layer: firmware minimums and the PCIe link. */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diag/data.h"

DIAG_CHECK(check_fw_version)
{
	DIAG_CTX(x);
	const struct rd_fw_table *t = rd_data_firmware();

	for (struct diag_target tg = { 0 }; diag_next_device(&x, &tg);) {
		const struct rd_device *d = tg.d;
		const struct rd_pci *p;
		const struct rd_fw_min *m;
		struct rd_result *r;
		char id[16];

		r = diag_new_target(&x, &tg, NULL);
		diag_why(&x, r,
			 "Old firmware lacks features the driver expects "
			 "(ConnectX-5 needs 16.23 or later for full DCB/PFC). "
			 "The firmware's major number names the family: 16.x is "
			 "ConnectX-5, 20.x ConnectX-6, 22.x ConnectX-6 Dx, so a "
			 "ConnectX-5 minimum never applies to a ConnectX-6.");
		if (d->fw_ver)
			diag_ev(&x, r, "fw_ver", "/sys/class/infiniband/<dev>/fw_ver",
				"%s", d->fw_ver);
		if (diag_device_is_soft(d)) {
			diag_verdict(&x, r, RD_PASS, "not_applicable",
				     "%s: software device, no firmware", d->name);
			continue;
		}
		if (!d->pci_bdf) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: no PCI function known", d->name);
			continue;
		}
		p = rd_snapshot_pci(s, d->pci_bdf);
		if (!p || !p->vendor_id.ok || !p->device_id.ok) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: PCI ids of %s not read", d->name,
				     d->pci_bdf);
			continue;
		}
		snprintf(id, sizeof(id), "%04" PRIx64 ":%04" PRIx64,
			 p->vendor_id.v, p->device_id.v);
		diag_ev(&x, r, "PCI id", "libpci", "%s %s", id,
			p->device_name ? p->device_name : "");
		if (!d->fw_ver || !*d->fw_ver) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: fw_ver not read", d->name);
			continue;
		}
		if (!t) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: firmware table not loaded: %s", d->name,
				     rd_data_error() ? rd_data_error() : "?");
			continue;
		}
		m = rd_fw_min_find(t, p->vendor_id.v, p->device_id.v);
		if (!m) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: no firmware minimum known for %s%s",
				     d->name, id,
				     p->vendor_id.v == 0x15b3 ? "" :
								" (not an mlx5 NIC)");
			continue;
		}
		diag_ev(&x, r, "minimum", "data/firmware.tsv", "%s (%s): %s",
			m->min_fw, m->family, m->why);
		if (diag_version_cmp(d->fw_ver, m->min_fw) >= 0) {
			diag_verdict(&x, r, RD_PASS, "ok",
				     "%s: %s firmware %s (minimum %s)", d->name,
				     m->family, d->fw_ver, m->min_fw);
		} else {
			diag_verdict(&x, r, RD_FAIL, "fw_below_min",
				     "%s: %s firmware %s is below %s", d->name,
				     m->family, d->fw_ver, m->min_fw);
			diag_next(&x, r,
				  "update with mlxfwmanager/mstflint from the vendor's "
				  "package for this board (%s); plan a reboot",
				  d->board_id ? d->board_id : "board id in sysfs");
		}
	}
	return diag_done(&x);
}

static bool pci_is_rdma(const struct rd_snapshot *s, const struct rd_pci *p)
{
	if (p->rdma_device)
		return true;
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].pci_bdf && p->bdf &&
		    strcmp(s->devices[i].pci_bdf, p->bdf) == 0)
			return true;
	return false;
}

static const char *pci_rdma_name(const struct rd_snapshot *s,
				 const struct rd_pci *p)
{
	if (p->rdma_device)
		return p->rdma_device;
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].pci_bdf && p->bdf &&
		    strcmp(s->devices[i].pci_bdf, p->bdf) == 0)
			return s->devices[i].name;
	return NULL;
}

DIAG_CHECK(check_hw_pcie_link)
{
	DIAG_CTX(x);

	for (size_t i = 0; i < s->n_pci; i++) {
		const struct rd_pci *p = &s->pci[i];
		const char *dev;
		struct rd_result *r;
		bool slow, narrow;

		if (!pci_is_rdma(s, p))
			continue;
		dev = pci_rdma_name(s, p);
		if (!diag_wants(&x, dev, 0))
			continue;
		r = diag_new(&x, dev, 0, NULL);
		diag_why(&x, r,
			 "A NIC trained below its PCIe capability cannot reach "
			 "line rate: a Gen4 x16 card at Gen3 x8 has a quarter of "
			 "the bus bandwidth.");
		if (!p->link_speed_gts.ok || !p->link_width.ok ||
		    !p->cap_speed_gts.ok || !p->cap_width.ok) {
			diag_verdict(&x, r, RD_UNKNOWN, "no_data",
				     "%s: PCIe link state not read (needs root for the capability)",
				     p->bdf ? p->bdf : "?");
			continue;
		}
		diag_ev(&x, r, "LnkSta", "libpci (PCIe capability)",
			"%.1f GT/s x%" PRIu64, p->link_speed_gts.v,
			p->link_width.v);
		diag_ev(&x, r, "LnkCap", "libpci (PCIe capability)",
			"%.1f GT/s x%" PRIu64, p->cap_speed_gts.v,
			p->cap_width.v);
		slow = p->link_speed_gts.v + 0.05 < p->cap_speed_gts.v;
		narrow = p->link_width.v < p->cap_width.v;
		if (!slow && !narrow) {
			diag_verdict(&x, r, RD_PASS, "ok",
				     "%s: PCIe %.1f GT/s x%" PRIu64 " (full)",
				     p->bdf ? p->bdf : "?", p->link_speed_gts.v,
				     p->link_width.v);
			continue;
		}
		diag_verdict(&x, r, RD_WARN, "pcie_degraded",
			     "%s: PCIe %.1f GT/s x%" PRIu64 ", capable of %.1f GT/s x%" PRIu64,
			     p->bdf ? p->bdf : "?", p->link_speed_gts.v,
			     p->link_width.v, p->cap_speed_gts.v, p->cap_width.v);
		diag_next(&x, r,
			  "check the slot (electrical width), riser and BIOS "
			  "PCIe settings; reseat the card");
	}
	return diag_done(&x);
}
