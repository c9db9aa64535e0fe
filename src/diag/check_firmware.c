// SPDX-License-Identifier: GPL-2.0-or-later
/* Hardware layer: firmware minimums and the PCIe link. */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diag/data.h"

/* Which device a firmware minimum is looked up for, and from where. */
struct fw_ident {
	uint64_t ven, dev;
	bool ok;
};

static struct fw_ident fw_identity(struct diag_ctx *x, struct rd_result *r,
				   const struct rd_device *d)
{
	struct fw_ident id = { 0 };
	const struct rd_pci *p;

	switch (diag_device_pci_id(x->s, d, &id.ven, &id.dev)) {
	case DIAG_ID_PCI:
		p = rd_snapshot_pci(x->s, d->pci_bdf);
		diag_ev(x, r, "PCI id", "libpci",
			"%04" PRIx64 ":%04" PRIx64 " %s", id.ven, id.dev,
			p && p->device_name ? p->device_name : "");
		break;
	case DIAG_ID_VERBS:
		diag_ev(x, r, "vendor_part_id", "ibv_query_device",
			"%" PRIu64 " (PCI device 0x%04" PRIx64 ")", id.dev,
			id.dev);
		break;
	case DIAG_ID_HCA_TYPE:
		diag_ev(x, r, "hca_type",
			"/sys/class/infiniband/<dev>/hca_type",
			"%s (PCI device 0x%04" PRIx64 ")", d->hca_type, id.dev);
		break;
	case DIAG_ID_NONE:
		return id;
	}
	id.ok = true;
	return id;
}

void check_fw_version(struct diag_ctx *x, const struct diag_target *t,
		      struct rd_result *r)
{
	const struct rd_fw_table *tab = rd_data_firmware();
	const struct rd_device *d = t->d;
	const struct rd_fw_min *m;
	struct fw_ident id;
	char idtext[16];

	const struct rd_devlink *dl =
		d->pci_bdf ? rd_snapshot_devlink(x->s, d->pci_bdf) : NULL;
	const char *psid = rd_devlink_version(dl, "fixed", "fw.psid");

	if (d->fw_ver)
		diag_ev(x, r, "fw_ver", "/sys/class/infiniband/<dev>/fw_ver",
			"%s", d->fw_ver);
	/*
	 * The board's PSID: an OEM one (not MT_...) explains firmware that
	 * the vendor's own updater refuses to replace.
	 */
	if (psid)
		diag_ev(x, r, "PSID", "devlink dev info (fw.psid)", "%s%s", psid,
			strncmp(psid, "MT_", 3) ?
				" (an OEM board: its maker's firmware, not the "
				"vendor's generic image)" : "");
	if (diag_device_is_soft(d)) {
		diag_verdict(x, r, RD_PASS, "not_applicable",
			     "%s: software device, no firmware", d->name);
		return;
	}
	id = fw_identity(x, r, d);
	if (!diag_have(x, r, id.ok,
		       "%s: device not identified: %s, no vendor_part_id, no "
		       "hca_type",
		       d->name,
		       d->pci_bdf ? "PCI ids not read"
				  : "no PCI function known"))
		return;
	snprintf(idtext, sizeof(idtext), "%04" PRIx64 ":%04" PRIx64, id.ven,
		 id.dev);
	if (!diag_have(x, r, d->fw_ver && *d->fw_ver, "%s: fw_ver not read",
		       d->name))
		return;
	if (!diag_have(x, r, tab != NULL, "%s: firmware table not loaded: %s",
		       d->name, rd_data_error() ? rd_data_error() : "?"))
		return;
	m = rd_fw_min_find(tab, id.ven, id.dev);
	if (!diag_have(x, r, m != NULL,
		       "%s: no firmware minimum known for %s%s", d->name,
		       idtext,
		       id.ven == 0x15b3 ? "" : " (not a Mellanox/NVIDIA NIC)"))
		return;
	diag_ev(x, r, "minimum", "data/firmware.tsv", "%s (%s): %s", m->min_fw,
		m->family, m->why);
	if (diag_version_cmp(d->fw_ver, m->min_fw) >= 0) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: %s firmware %s (minimum %s)", d->name,
			     m->family, d->fw_ver, m->min_fw);
	} else {
		diag_verdict(x, r, RD_FAIL, "fw_below_min",
			     "%s: %s firmware %s is below %s", d->name,
			     m->family, d->fw_ver, m->min_fw);
		diag_next(x, r,
			  "update with mlxfwmanager/mstflint from the vendor's "
			  "package for this board (%s); plan a reboot",
			  d->board_id ? d->board_id : "board id in sysfs");
	}
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

/*
 * It walks the RDMA NICs' PCI functions, not the RDMA devices; a device
 * whose function libpci did not list is UNKNOWN rather than left out.
 */
#define SRC_LNK "libpci (PCIe capability)"

static const char *fmt_gts(struct rd_odbl v, char *buf, size_t len)
{
	if (v.ok)
		snprintf(buf, len, "%.1f GT/s", v.v);
	else
		snprintf(buf, len, "? GT/s");
	return buf;
}

static const char *fmt_width(struct rd_ou64 v, char *buf, size_t len)
{
	if (v.ok)
		snprintf(buf, len, "%" PRIu64, v.v);
	else
		snprintf(buf, len, "?");
	return buf;
}

/*
 * What was not read, and why: the capability needs root on a live host;
 * a file loaded holds what its host read, so name what it lacks.
 */
static void pcie_unread(struct diag_ctx *x, struct rd_result *r,
			const struct rd_pci *p)
{
	const struct rd_host *h = &x->s->host;
	const struct {
		bool ok;
		const char *name;
	} f[] = {
		{ p->link_speed_gts.ok, "trained speed" },
		{ p->cap_speed_gts.ok, "capable speed" },
		{ p->link_width.ok, "trained width" },
		{ p->cap_width.ok, "capable width" },
	};
	char lacks[160] = "";
	size_t off = 0;
	const char *why;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		int w;

		if (f[i].ok)
			continue;
		w = snprintf(lacks + off, sizeof(lacks) - off, "%s%s",
			     off ? ", " : "", f[i].name);
		if (w > 0 && (size_t)w < sizeof(lacks) - off)
			off += (size_t)w;
	}
	if (x->o && x->o->from_file)
		why = "the file holds no PCIe ";
	else if (h->is_root.ok && !h->is_root.v)
		why = "needs root for the capability; not read: ";
	else
		why = "not read: PCIe ";
	diag_have(x, r, false,
		  "%s: PCIe link state not known: %s%s; what was read shows no "
		  "degraded link",
		  p->bdf ? p->bdf : "?", why, lacks);
}

void check_hw_pcie_link(struct diag_ctx *x)
{
	const struct rd_snapshot *s = x->s;

	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		struct rd_result *r;

		if (!d->pci_bdf || rd_snapshot_pci(s, d->pci_bdf) ||
		    !diag_wants(x, d->name, 0))
			continue;
		r = diag_new(x, d->name, 0, NULL);
		diag_why(x, r, "%s", x->c->why);
		diag_have(x, r, false, "%s: PCI function %s not read (libpci)",
			  d->name, d->pci_bdf);
	}

	for (size_t i = 0; i < s->n_pci; i++) {
		const struct rd_pci *p = &s->pci[i];
		const char *dev;
		struct rd_result *r;
		bool slow, narrow, speed_ok, width_ok;
		char a[32], b[32];

		if (!pci_is_rdma(s, p))
			continue;
		dev = pci_rdma_name(s, p);
		if (!diag_wants(x, dev, 0))
			continue;
		r = diag_new(x, dev, 0, NULL);
		diag_why(x, r, "%s", x->c->why);
		speed_ok = p->link_speed_gts.ok && p->cap_speed_gts.ok;
		width_ok = p->link_width.ok && p->cap_width.ok;
		if (p->link_speed_gts.ok || p->link_width.ok)
			diag_ev(x, r, "LnkSta", SRC_LNK, "%s x%s",
				fmt_gts(p->link_speed_gts, a, sizeof(a)),
				fmt_width(p->link_width, b, sizeof(b)));
		if (p->cap_speed_gts.ok || p->cap_width.ok)
			diag_ev(x, r, "LnkCap", SRC_LNK, "%s x%s",
				fmt_gts(p->cap_speed_gts, a, sizeof(a)),
				fmt_width(p->cap_width, b, sizeof(b)));
		/* Either pair alone proves a link trained below its card. */
		slow = speed_ok &&
		       p->link_speed_gts.v + 0.05 < p->cap_speed_gts.v;
		narrow = width_ok && p->link_width.v < p->cap_width.v;
		if (!slow && !narrow && !(speed_ok && width_ok)) {
			pcie_unread(x, r, p);
			continue;
		}
		if (!slow && !narrow) {
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s: PCIe %.1f GT/s x%" PRIu64 " (full)",
				     p->bdf ? p->bdf : "?", p->link_speed_gts.v,
				     p->link_width.v);
			continue;
		}
		if (speed_ok && width_ok)
			diag_verdict(x, r, RD_WARN, "pcie_degraded",
				     "%s: PCIe %.1f GT/s x%" PRIu64
				     ", capable of %.1f GT/s x%" PRIu64,
				     p->bdf ? p->bdf : "?", p->link_speed_gts.v,
				     p->link_width.v, p->cap_speed_gts.v,
				     p->cap_width.v);
		else if (narrow)
			diag_verdict(x, r, RD_WARN, "pcie_degraded",
				     "%s: PCIe trained at x%" PRIu64
				     " of x%" PRIu64 " (speed not read)",
				     p->bdf ? p->bdf : "?", p->link_width.v,
				     p->cap_width.v);
		else
			diag_verdict(
				x, r, RD_WARN, "pcie_degraded",
				"%s: PCIe trained at %.1f GT/s of %.1f GT/s"
				" (width not read)",
				p->bdf ? p->bdf : "?", p->link_speed_gts.v,
				p->cap_speed_gts.v);
		diag_next(x, r,
			  "check the slot (electrical width), riser and BIOS "
			  "PCIe settings; reseat the card");
	}
}
