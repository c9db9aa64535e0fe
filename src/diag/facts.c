// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lookups checks share: software devices, PCI ids, modules, the
 * container, CPU lists and versions. A leaf under the check files.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

static bool is(const char *s, const char *w)
{
	return s && strcmp(s, w) == 0;
}

const char *diag_soft_module(const struct rd_device *d)
{
	if (d->pci_bdf)
		return NULL;
	if (is(d->driver, "rxe") || is(d->driver, "rdma_rxe"))
		return "rdma_rxe";
	if (is(d->driver, "siw"))
		return "siw";
	/* Without a driver name, the conventional names still tell. */
	if (d->name && strncmp(d->name, "rxe", 3) == 0)
		return "rdma_rxe";
	if (d->name && strncmp(d->name, "siw", 3) == 0)
		return "siw";
	return NULL;
}

bool diag_device_is_soft(const struct rd_device *d)
{
	return diag_soft_module(d) != NULL;
}

/* RDMA drivers per PCI network driver (mlx5_core alone gives no RDMA device).
 */
static const struct {
	const char *net;
	const char *ib;
} rdma_of_net[] = {
	{ "mlx5_core", "mlx5_ib" }, { "mlx4_core", "mlx4_ib" },
	{ "bnxt_en", "bnxt_re" },   { "qede", "qedr" },
	{ "ice", "irdma" },	    { "i40e", "irdma" },
	{ "cxgb4", "iw_cxgb4" },    { "hns3", "hns_roce_hw_v2" },
};

const char *diag_rdma_module_of(const char *net_driver)
{
	for (size_t k = 0;
	     net_driver && k < sizeof(rdma_of_net) / sizeof(rdma_of_net[0]);
	     k++)
		if (strcmp(net_driver, rdma_of_net[k].net) == 0)
			return rdma_of_net[k].ib;
	return NULL;
}

bool diag_is_rdma_nic_module(const char *module)
{
	for (size_t k = 0;
	     module && k < sizeof(rdma_of_net) / sizeof(rdma_of_net[0]); k++)
		if (strcmp(module, rdma_of_net[k].ib) == 0)
			return true;
	return false;
}

#define MLX_OUI 0x02c9
#define MLX_PCI_VENDOR 0x15b3

enum diag_id_src diag_device_pci_id(const struct rd_snapshot *s,
				    const struct rd_device *d, uint64_t *ven,
				    uint64_t *dev)
{
	const struct rd_pci *p =
		d->pci_bdf ? rd_snapshot_pci(s, d->pci_bdf) : NULL;
	const struct rd_verbs_dev *v = &d->verbs;
	const char *h = d->hca_type;
	bool mt = h && strncmp(h, "MT", 2) == 0;

	if (p && p->vendor_id.ok && p->device_id.ok) {
		*ven = p->vendor_id.v;
		*dev = p->device_id.v;
		return DIAG_ID_PCI;
	}
	if (v->vendor_part_id.ok &&
	    (v->vendor_id.ok ? v->vendor_id.v == MLX_OUI ||
				       v->vendor_id.v == MLX_PCI_VENDOR
			     : mt)) {
		*ven = MLX_PCI_VENDOR;
		*dev = v->vendor_part_id.v;
		return DIAG_ID_VERBS;
	}
	if (mt && h[2] >= '0' && h[2] <= '9') {
		char *end;
		unsigned long n = strtoul(h + 2, &end, 10);

		if (*end == '\0' && n > 0 && n <= 0xffff) {
			*ven = MLX_PCI_VENDOR;
			*dev = n;
			return DIAG_ID_HCA_TYPE;
		}
	}
	return DIAG_ID_NONE;
}

bool diag_device_is_vf(const struct rd_snapshot *s, const struct rd_device *d)
{
	/* ConnectX-2 to ConnectX-6 VFs, Connect-IB's, mlx5Gen VF (CX-6 Dx on).
	 */
	static const uint16_t vfs[] = { 0x1002, 0x1004, 0x1012, 0x1014, 0x1016,
					0x1018, 0x101a, 0x101c, 0x101e };
	uint64_t ven, dev;

	if (diag_device_pci_id(s, d, &ven, &dev) == DIAG_ID_NONE ||
	    ven != MLX_PCI_VENDOR)
		return false;
	for (size_t i = 0; i < sizeof(vfs) / sizeof(vfs[0]); i++)
		if (dev == vfs[i])
			return true;
	return false;
}

bool rd_diag_in_container(const struct rd_snapshot *s)
{
	return s->host.container && strcmp(s->host.container, "none") != 0 &&
	       strcmp(s->host.container, "overlay-root") != 0;
}

bool diag_in_container(const struct rd_snapshot *s)
{
	return rd_diag_in_container(s);
}

enum diag_mod diag_module(const struct rd_snapshot *s, const char *name)
{
	const struct rd_module *m;

	if (s->n_modules == 0)
		return DIAG_MOD_UNKNOWN;
	m = rd_snapshot_module(s, name);
	/* The module probe looks for each of its modules: one it looked for
	 * and did not list is not loaded; of any other nothing is known. */
	if (!m) {
		for (size_t i = 0; rd_rdma_modules[i]; i++)
			if (!strcmp(rd_rdma_modules[i], name))
				return DIAG_MOD_ABSENT;
		return DIAG_MOD_UNKNOWN;
	}
	if (!m->loaded.ok)
		return DIAG_MOD_UNKNOWN;
	return m->loaded.v ? DIAG_MOD_LOADED : DIAG_MOD_ABSENT;
}

int diag_cpulist_parse(const char *s, uint64_t set[16])
{
	const char *p = s;

	memset(set, 0, 16 * sizeof(uint64_t));
	if (!s)
		return -EINVAL;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= 1024)
			return -EINVAL;
		for (unsigned long i = a; i <= b; i++)
			set[i / 64] |= 1ull << (i % 64);
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == ' ' || *p == '\n')
			p++;
		return *p ? -EINVAL : 0;
	}
}

int diag_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		uint64_t x = 0, y = 0;

		while (*a >= '0' && *a <= '9')
			x = x * 10 + (uint64_t)(*a++ - '0');
		while (*b >= '0' && *b <= '9')
			y = y * 10 + (uint64_t)(*b++ - '0');
		if (x != y)
			return x < y ? -1 : 1;
		/* Skip one separator; stop at anything that is not a number. */
		if (*a == '.')
			a++;
		else if (*a)
			a = "";
		if (*b == '.')
			b++;
		else if (*b)
			b = "";
	}
	return 0;
}

bool diag_counter_rate(const struct diag_ctx *x, const struct rd_series *ser,
		       uint64_t *delta, double *span, double *rate)
{
	double window = x->o->rate_window > 0 ? x->o->rate_window :
						 RD_RATE_WINDOW;

	if (!x->h || !rd_series_rise(ser, window, delta, span))
		return false;
	*rate = (double)*delta / *span;
	return true;
}
