// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI functions behind RDMA devices, and RDMA-capable NIC functions that
 * have no RDMA device (a missing mlx5_ib, an unbound function).
 *
 * Identity, driver, NUMA and the sysfs link files are read directly and
 * strictly. libpci is used for what only it does well: walking the config
 * space capability list to the PCI Express capability (LnkCap vs LnkSta)
 * and naming ids from pci.ids. libpci's default error handler exits, and
 * its sysfs back-end calls it on unexpected input, so every file libpci
 * will open is checked first and the handler jumps back as a last resort.
 */
#include "config.h"
#include "probes/pci.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pci/pci.h>

#include "core/attr.h"
#include "probes/read.h"

#define SRC "pci"
#define MAX_DIR_ENTRIES 65536
#define VPD_MAX 32768
/* libpci builds "<sysfs.path>/devices/BDF/config" in a 1024-byte buffer. */
#define LIBPCI_PATH_MAX 1000

struct vpd_entry {
	char *bdf;
	char *pn;
	char *sn;
};

/* What a kept VPD entry owns, so the model's free releases it. */
static const struct rd_field vpd_fields[] = {
	RD_FLD_STR(struct vpd_entry, bdf, "bdf"),
	RD_FLD_STR(struct vpd_entry, pn, "pn"),
	RD_FLD_STR(struct vpd_entry, sn, "sn"),
	RD_FLD_END,
};

/* Kept across refreshes: the parsed name list and VPD (slow to read). */
struct pci_cache {
	/* The last reading, served again for RD_PROBE_STATIC_EVERY refreshes. */
	struct rd_pci *kept;
	size_t n_kept;
	uint64_t kept_tick;
	bool kept_ok;
	struct pci_access *pacc;
	char sysfs_path[PATH_MAX];
	bool pacc_broken;
	struct vpd_entry *vpd;
	size_t n_vpd;
};

/* ---- libpci error handling ---- */

static _Thread_local jmp_buf *pci_jmp;
static _Thread_local char pci_msg[256];

static void PCI_NONRET pci_on_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	if (pci_jmp)
		longjmp(*pci_jmp, 1);
	abort();
}

static void pci_on_warning(char *msg, ...)
{
	va_list ap;

	/* Kept for an error line if the fallback fails too; never printed. */
	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
}

static void pci_on_debug(char *msg, ...)
{
	(void)msg;
}

/* ---- cache ---- */

static void kept_clear(struct pci_cache *c)
{
	rd_model_free_array(rd_pci_fields, (void **)&c->kept, &c->n_kept,
			    sizeof(*c->kept));
	c->kept_ok = false;
}

/* Append copies of n functions to dst's list; false when out of memory. */
static bool copy_pci(struct rd_pci **dst, size_t *dn, const struct rd_pci *src,
		     size_t n)
{
	return rd_model_dup_array(rd_pci_fields, (void **)dst, dn, src, n,
				  sizeof(*src)) == 0;
}

static void pci_state_clear(void *state)
{
	struct pci_cache *c = state;

	kept_clear(c);
	if (c->pacc)
		pci_cleanup(c->pacc);
	c->pacc = NULL;
	rd_model_free_array(vpd_fields, (void **)&c->vpd, &c->n_vpd,
			    sizeof(*c->vpd));
}

static struct pci_access *pacc_get(struct pci_cache *c, const char *sysfs,
				   struct rd_snapshot *s)
{
	char path[PATH_MAX];
	jmp_buf jb;
	struct pci_access *volatile a = NULL;

	if (c->pacc_broken)
		return NULL;
	if (rd_path(path, sizeof(path), sysfs, "/bus/pci") < 0 ||
	    strlen(path) > LIBPCI_PATH_MAX) {
		rd_snapshot_error(s, SRC, path, ENAMETOOLONG,
				  "sysfs path too long for libpci");
		c->pacc_broken = true;
		return NULL;
	}
	if (c->pacc && strcmp(c->sysfs_path, path) == 0)
		return c->pacc;
	if (c->pacc) {
		pci_cleanup(c->pacc);
		c->pacc = NULL;
	}
	pci_jmp = &jb;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		rd_snapshot_error(s, SRC, path, 0, "libpci: %s", pci_msg);
		c->pacc_broken = true;
		/* State after an error is unknown: leak rather than free. */
		return NULL;
	}
	a = pci_alloc();
	a->error = pci_on_error;
	a->warning = pci_on_warning;
	a->debug = pci_on_debug;
	a->method = PCI_ACCESS_SYS_BUS_PCI;
	/* pci.ids only: no udev hwdb, no DNS, no cache file in $HOME. */
	a->id_lookup_mode = PCI_LOOKUP_NO_HWDB;
	if (pci_set_param(a, "sysfs.path", path) < 0)
		pci_on_error("no sysfs.path parameter");
	pci_init(a);
	pci_jmp = NULL;
	c->pacc = a;
	snprintf(c->sysfs_path, sizeof(c->sysfs_path), "%s", path);
	return a;
}

/* ---- pure helpers ---- */

int rd_pci_parse_bdf(const char *s, unsigned *domain, unsigned *bus,
		     unsigned *dev, unsigned *func)
{
	const char *colon = strchr(s, ':');
	size_t dl;
	uint64_t v;
	char tmp[16];

	if (!colon)
		return -EINVAL;
	dl = (size_t)(colon - s);
	if (dl < 4 || dl > 8)
		return -EINVAL;
	/* After the domain: exactly "bb:dd.f". */
	if (strlen(colon + 1) != 7 || colon[3] != ':' || colon[6] != '.')
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (p != colon && p != colon + 3 && p != colon + 6 &&
		    !((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return -EINVAL;
	memcpy(tmp, s, dl);
	tmp[dl] = '\0';
	if (rd_parse_u64(tmp, 16, &v) < 0 || v > 0x7fffffff)
		return -EINVAL;
	*domain = (unsigned)v;
	memcpy(tmp, colon + 1, 2);
	tmp[2] = '\0';
	*bus = (unsigned)strtoul(tmp, NULL, 16);
	memcpy(tmp, colon + 4, 2);
	*dev = (unsigned)strtoul(tmp, NULL, 16);
	*func = (unsigned)(colon[7] - '0');
	if (*dev > 0x1f || *func > 7)
		return -EINVAL;
	return 0;
}

double rd_pcie_speed_gts(unsigned code)
{
	static const double gts[] = { 0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };

	return code < sizeof(gts) / sizeof(gts[0]) ? gts[code] : 0;
}

int rd_pci_parse_link_speed(const char *text, double *gts)
{
	const char *p;

	if (rd_probe_lead_number(text, gts, &p) < 0 || *gts <= 0 || *gts > 128)
		return -EINVAL;
	if (strncmp(p, " GT/s", 5) != 0)
		return -EINVAL;
	p += 5;
	/* Newer kernels add " PCIe"; anything else is not a speed. */
	if (*p && strcmp(p, " PCIe") != 0)
		return -EINVAL;
	return 0;
}

int rd_pci_parse_devctl(uint16_t devctl, uint64_t *max_payload,
			uint64_t *max_read_req)
{
	unsigned mps = (devctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5;
	unsigned mrrs = (devctl & PCI_EXP_DEVCTL_READRQ) >> 12;

	if (mps > 5 || mrrs > 5)
		return -EINVAL;
	*max_payload = 128u << mps;
	*max_read_req = 128u << mrrs;
	return 0;
}

static bool width_valid(uint64_t w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 12 || w == 16 ||
	       w == 32;
}

/* Copy a VPD field as text: printable ASCII only, trailing blanks dropped. */
static int vpd_text(const uint8_t *p, size_t n, char *out, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\0')
			break;
		if (p[i] < 0x20 || p[i] > 0x7e)
			return -EINVAL;
		if (k + 1 < size)
			out[k++] = (char)p[i];
	}
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	return 0;
}

int rd_pci_parse_vpd(const uint8_t *vpd, size_t len, char *pn, size_t pnlen,
		     char *sn, size_t snlen)
{
	size_t off = 0;
	bool ended = false;

	if (pnlen)
		pn[0] = '\0';
	if (snlen)
		sn[0] = '\0';
	while (off < len && !ended) {
		uint8_t tag = vpd[off];
		size_t n;

		if (tag & 0x80) {
			/* Large resource: tag, 16-bit little-endian length. */
			if (off + 3 > len)
				return -EINVAL;
			n = (size_t)vpd[off + 1] | (size_t)vpd[off + 2] << 8;
			off += 3;
			if (n > len - off)
				return -EINVAL;
			if (tag == 0x90 || tag == 0x91) {
				size_t k = off;

				/* Keyword list: 2 bytes name, 1 byte length. */
				while (k + 3 <= off + n) {
					size_t kl = vpd[k + 2];
					const uint8_t *kv = vpd + k + 3;

					if (kl > off + n - (k + 3))
						return -EINVAL;
					if (tag == 0x90 && vpd[k] == 'P' &&
					    vpd[k + 1] == 'N' &&
					    vpd_text(kv, kl, pn, pnlen) < 0)
						return -EINVAL;
					if (tag == 0x90 && vpd[k] == 'S' &&
					    vpd[k + 1] == 'N' &&
					    vpd_text(kv, kl, sn, snlen) < 0)
						return -EINVAL;
					/* RV closes the read-only section. */
					if (vpd[k] == 'R' && vpd[k + 1] == 'V')
						break;
					k += 3 + kl;
				}
			} else if (tag != 0x82) {
				return -EINVAL;
			}
			off += n;
		} else {
			/* Small resource: the end tag (0x78) ends the image. */
			n = tag & 7;
			if (((tag >> 3) & 0xf) == 0xf) {
				ended = true;
				break;
			}
			if (n > len - off - 1)
				return -EINVAL;
			off += 1 + n;
		}
	}
	/* An image of 0xff or 0x00 bytes (no VPD programmed) is no VPD. */
	return ended || (pnlen && pn[0]) || (snlen && sn[0]) ? 0 : -EINVAL;
}

struct id_range {
	uint16_t lo, hi;
};

static bool in_ranges(unsigned id, const struct id_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (id >= r[i].lo && id <= r[i].hi)
			return true;
	return false;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

bool rd_pci_is_rdma_nic(unsigned vendor, unsigned device, unsigned class_id,
			const char *driver)
{
	/* NetXtreme-C/E (bnxt_en); the rest of 0x14e4 is tg3/bnx2. */
	static const struct id_range bnxt[] = {
		{ 0x1604, 0x1614 }, { 0x16c0, 0x16ef }, { 0x1750, 0x1760 },
		{ 0x1800, 0x1809 }, { 0xd800, 0xd804 },
	};
	/* E810/E82x/E830 (ice, irdma) and X722 (i40e with iWARP). */
	static const struct id_range intel[] = {
		{ 0x124c, 0x124f }, { 0x151d, 0x151d }, { 0x1591, 0x159b },
		{ 0x188a, 0x188e }, { 0x1890, 0x1899 }, { 0x37ce, 0x37d3 },
		{ 0x579c, 0x579f },
	};
	static const struct id_range hns[] = { { 0xa220, 0xa22f } };
	static const struct id_range qlogic[] = {
		{ 0x1634, 0x1666 },
		{ 0x8070, 0x8090 },
	};
	static const struct id_range efa[] = { { 0xefa0, 0xefaf } };
	static const struct id_range mana[] = { { 0x00b9, 0x00ba } };
	static const struct id_range erdma[] = { { 0x107f, 0x107f } };
	/* Vendors with RDMA on some NICs: by driver, else by device id. */
	static const struct {
		unsigned vendor;
		const char *driver;	/* NULL: by device id only */
		const struct id_range *ids;
		size_t n_ids;
	} some[] = {
		{ 0x14e4, "bnxt_en", bnxt, N(bnxt) },
		{ 0x8086, "ice", intel, N(intel) },
		{ 0x19e5, "hns3", hns, N(hns) },
		{ 0x1077, "qede", qlogic, N(qlogic) },
		{ 0x1414, "mana", mana, N(mana) },
		{ 0x1ded, NULL, erdma, N(erdma) },
	};
	bool net = (class_id >> 16) == 0x02;
	bool ib = (class_id >> 8) == 0x0c06;
	const char *drv = driver ? driver : "";

	switch (vendor) {
	case 0x15b3: /* Mellanox / NVIDIA networking */
		return net || ib;
	case 0x1425: /* Chelsio: iWARP on every T4-T6 NIC function */
		return net;
	case 0x1d0f: /* Amazon: EFA, not ENA */
		return in_ranges(device, efa, N(efa));
	}
	for (size_t i = 0; i < N(some); i++)
		if (some[i].vendor == vendor)
			return net && ((some[i].driver &&
					strcmp(drv, some[i].driver) == 0) ||
				       in_ranges(device, some[i].ids,
						 some[i].n_ids));
	return false;
}

/* ---- reading one function ---- */

/* "0-17,36-53": digits, commas and dashes only. */
static bool cpulist_valid(const char *s)
{
	if (!*s)
		return true; /* a node without CPUs */
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || *p == ',' || *p == '-'))
			return false;
	return true;
}

static void read_numa(struct rd_snapshot *s, int dirfd, const char *base,
		      struct rd_pci *p)
{
	char buf[4096], w[PATH_MAX];
	int64_t v;
	ssize_t r;

	r = rd_attr_read_at(dirfd, "numa_node", buf, sizeof(buf));
	if (r >= 0) {
		if (rd_parse_s64(buf, 10, &v) == 0 && v >= -1 && v < 65536) {
			p->numa_node = rd_s64(v);
		} else {
			rd_probe_bad_value(s, SRC, base, "numa_node", EINVAL,
					   buf);
		}
	}
	r = rd_attr_read_at(dirfd, "local_cpulist", buf, sizeof(buf));
	if (r >= 0) {
		if (cpulist_valid(buf)) {
			(void)rd_str_set(&p->local_cpulist, buf);
		} else {
			rd_probe_bad_value(s, SRC, base, "local_cpulist",
					   EINVAL, buf);
		}
	} else if (r != -ENOENT) {
		snprintf(w, sizeof(w), "%s/local_cpulist", base);
		rd_snapshot_error(s, SRC, w, (int)r, NULL);
	}
}

static bool link_from_sysfs(int dirfd, struct rd_pci *p)
{
	char buf[64];
	double cur = 0, max = 0;
	uint64_t cw = 0, mw = 0;
	bool any = false;

	if (rd_attr_read_at(dirfd, "current_link_speed", buf, sizeof(buf)) >=
		    0 &&
	    rd_pci_parse_link_speed(buf, &cur) == 0) {
		p->link_speed_gts = rd_dbl(cur);
		any = true;
	}
	if (rd_attr_read_at(dirfd, "max_link_speed", buf, sizeof(buf)) >= 0 &&
	    rd_pci_parse_link_speed(buf, &max) == 0) {
		p->cap_speed_gts = rd_dbl(max);
		any = true;
	}
	if (rd_attr_read_at(dirfd, "current_link_width", buf, sizeof(buf)) >=
		    0 &&
	    rd_parse_u64(buf, 10, &cw) == 0 && width_valid(cw)) {
		p->link_width = rd_u64(cw);
		any = true;
	}
	if (rd_attr_read_at(dirfd, "max_link_width", buf, sizeof(buf)) >= 0 &&
	    rd_parse_u64(buf, 10, &mw) == 0 && width_valid(mw)) {
		p->cap_width = rd_u64(mw);
		any = true;
	}
	return any;
}

/*
 * LnkCap and LnkSta from the PCI Express capability. Fails when config
 * space is not readable that far (non-root sees only the first 64 bytes)
 * or holds values no device reports.
 */
static int link_from_config(struct pci_access *a, int dirfd,
			    const unsigned bdf[4], struct rd_pci *p)
{
	struct stat st;
	jmp_buf jb;
	struct pci_dev *volatile d = NULL;
	struct pci_cap *cap;
	uint8_t cap4[4], sta2[2], ctl2[2];
	uint32_t lnkcap;
	uint16_t lnksta;
	uint64_t mps, mrrs;
	int ok, ctl_ok;

	/* libpci would block on a FIFO and follow anything: check first. */
	if (fstatat(dirfd, "config", &st, 0) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	pci_jmp = &jb;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		if (d)
			pci_free_dev(d);
		return -EIO;
	}
	d = pci_get_dev(a, (int)bdf[0], (int)bdf[1], (int)bdf[2], (int)bdf[3]);
	cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	ok = cap &&
	     pci_read_block(d, (int)cap->addr + PCI_EXP_LNKCAP, cap4, 4) &&
	     pci_read_block(d, (int)cap->addr + PCI_EXP_LNKSTA, sta2, 2);
	ctl_ok = ok &&
		 pci_read_block(d, (int)cap->addr + PCI_EXP_DEVCTL, ctl2, 2);
	pci_free_dev(d);
	pci_jmp = NULL;
	if (!ok)
		return -ENODATA;
	lnkcap = (uint32_t)cap4[0] | (uint32_t)cap4[1] << 8 |
		 (uint32_t)cap4[2] << 16 | (uint32_t)cap4[3] << 24;
	lnksta = (uint16_t)(sta2[0] | sta2[1] << 8);
	double cs = rd_pcie_speed_gts(lnkcap & PCI_EXP_LNKCAP_SPEED);
	unsigned cw = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;
	double ls = rd_pcie_speed_gts(lnksta & PCI_EXP_LNKSTA_SPEED);
	unsigned lw = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;

	/* Truncated reads and absent devices come back as all ones. */
	if (cs == 0 || !width_valid(cw) || lnkcap == 0xffffffff)
		return -EINVAL;
	p->cap_speed_gts = rd_dbl(cs);
	p->cap_width = rd_u64(cw);
	if (ls > 0 && width_valid(lw) && lnksta != 0xffff) {
		p->link_speed_gts = rd_dbl(ls);
		p->link_width = rd_u64(lw);
	}
	/* All ones: a read cut short; the reserved codes: not a real value. */
	if (ctl_ok && !(ctl2[0] == 0xff && ctl2[1] == 0xff) &&
	    rd_pci_parse_devctl((uint16_t)(ctl2[0] | ctl2[1] << 8), &mps,
				&mrrs) == 0) {
		p->max_payload = rd_u64(mps);
		p->max_read_req = rd_u64(mrrs);
	}
	return 0;
}

static void lookup_names(struct pci_access *a, struct rd_pci *p)
{
	char buf[256];
	jmp_buf jb;
	const char *n;

	pci_jmp = &jb;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		return;
	}
	n = pci_lookup_name(a, buf, sizeof(buf),
			    PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS,
			    (int)p->vendor_id.v);
	if (n && rd_text_check(n, strlen(n)) == 0)
		(void)rd_str_set(&p->vendor_name, n);
	n = pci_lookup_name(a, buf, sizeof(buf),
			    PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS,
			    (int)p->vendor_id.v, (int)p->device_id.v);
	if (n && rd_text_check(n, strlen(n)) == 0)
		(void)rd_str_set(&p->device_name, n);
	pci_jmp = NULL;
}

static void read_vpd(struct pci_cache *c, int dirfd, struct rd_pci *p)
{
	struct vpd_entry *e = NULL;
	uint8_t *buf;
	char pn[128], sn[128];
	ssize_t len;

	for (size_t i = 0; i < c->n_vpd; i++)
		if (strcmp(c->vpd[i].bdf, p->bdf) == 0)
			e = &c->vpd[i];
	if (!e) {
		/* VPD reads are slow on hardware: once per function. */
		e = RD_PUSH(c->vpd, c->n_vpd);
		if (!e)
			return;
		e->bdf = rd_strdup(p->bdf);
		buf = malloc(VPD_MAX);
		/* Absent, or readable by root only: no VPD, no error. */
		len = buf ? rd_attr_read_bytes_at(dirfd, "vpd", buf, VPD_MAX)
			  : -ENOMEM;
		if (len > 0 &&
		    rd_pci_parse_vpd(buf, (size_t)len, pn, sizeof(pn), sn,
				     sizeof(sn)) == 0) {
			e->pn = pn[0] ? rd_strdup(pn) : NULL;
			e->sn = sn[0] ? rd_strdup(sn) : NULL;
		}
		free(buf);
	}
	(void)rd_str_set(&p->vpd_part_number, e->pn);
	(void)rd_str_set(&p->vpd_serial, e->sn);
}

static const char *rdma_device_of(const struct rd_snapshot *s, const char *bdf)
{
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].pci_bdf &&
		    strcmp(s->devices[i].pci_bdf, bdf) == 0)
			return s->devices[i].name;
	return NULL;
}

static void collect_function(struct pci_cache *c, struct pci_access *a,
			     struct rd_snapshot *s, int devsfd,
			     const char *devsdir, const char *name)
{
	char base[PATH_MAX];
	unsigned bdf[4];
	uint64_t vendor, device, class_id, v;
	char *driver = NULL, link[256];
	const char *rdma;
	struct rd_pci *p;
	int dirfd, r;

	snprintf(base, sizeof(base), "%s/%s", devsdir, name);
	if (rd_pci_parse_bdf(name, &bdf[0], &bdf[1], &bdf[2], &bdf[3]) < 0) {
		rd_snapshot_error(s, SRC, base, EINVAL,
				  "not a PCI address: \"%.64s\"", name);
		return;
	}
	dirfd = openat(devsfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		if (errno != ENOENT)
			rd_snapshot_error(s, SRC, base, errno, NULL);
		return;
	}
	rdma = rdma_device_of(s, name);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "vendor", true, 0xffff,
			      &vendor, false) < 0 ||
	    rd_probe_read_u64(s, SRC, dirfd, base, "device", true, 0xffff,
			      &device, false) < 0 ||
	    rd_probe_read_u64(s, SRC, dirfd, base, "class", true, 0xffffff,
			      &class_id, false) < 0)
		goto out;
	if (rd_probe_link_name(dirfd, "driver", link, sizeof(link)) == 0)
		(void)rd_str_set(&driver, link);
	if (!rdma && !rd_pci_is_rdma_nic((unsigned)vendor, (unsigned)device,
					 (unsigned)class_id, driver))
		goto out;

	p = RD_PUSH(s->pci, s->n_pci);
	if (!p)
		goto out;
	p->bdf = rd_strdup(name);
	p->vendor_id = rd_u64(vendor);
	p->device_id = rd_u64(device);
	p->class_id = rd_u64(class_id);
	p->driver = driver;
	driver = NULL;
	(void)rd_str_set(&p->rdma_device, rdma);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "subsystem_vendor", true,
			      0xffff, &v, true) == 0)
		p->subsys_vendor_id = rd_u64(v);
	if (rd_probe_read_u64(s, SRC, dirfd, base, "subsystem_device", true,
			      0xffff, &v, true) == 0)
		p->subsys_device_id = rd_u64(v);
	read_numa(s, dirfd, base, p);

	r = a ? link_from_config(a, dirfd, bdf, p) : -ENODEV;
	if (r == 0) {
		(void)rd_str_set(&p->link_source, "config");
	} else if (link_from_sysfs(dirfd, p)) {
		(void)rd_str_set(&p->link_source, "sysfs");
	} else {
		/* Neither source: the check must say UNKNOWN, and why. */
		rd_snapshot_error(s, SRC, base, r,
				  "PCIe link state not readable (config space "
				  "and sysfs link files)");
	}
	if (a)
		lookup_names(a, p);
	read_vpd(c, dirfd, p);
out:
	free(driver);
	close(dirfd);
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int probe_pci_collect(const struct rd_probe_ctx *ctx, void *state,
			     struct rd_snapshot *s)
{
	struct pci_cache *c = state;
	struct pci_access *a;
	char devsdir[PATH_MAX];
	char **names = NULL;
	size_t nn = 0;
	struct dirent *de;
	size_t first;
	int r, devsfd;
	DIR *dir;

	if (ctx->cache &&
	    rd_probe_cache_fresh(ctx, c->kept_tick, c->kept_ok,
				 RD_PROBE_STATIC_EVERY) &&
	    copy_pci(&s->pci, &s->n_pci, c->kept, c->n_kept))
		return 0;
	first = s->n_pci;
	r = rd_path(devsdir, sizeof(devsdir), ctx->roots->sysfs,
		    "/bus/pci/devices");
	if (r < 0)
		goto out;
	/* Absent: no PCI bus (some VMs, fixtures without hardware). */
	devsfd = rd_probe_open_dir(s, SRC, devsdir);
	if (devsfd < 0)
		goto out;
	dir = fdopendir(dup(devsfd));
	if (!dir) {
		rd_snapshot_error(s, SRC, devsdir, errno, NULL);
		close(devsfd);
		goto out;
	}
	while ((de = readdir(dir)) && nn < MAX_DIR_ENTRIES) {
		char **slotp;

		if (de->d_name[0] == '.')
			continue;
		slotp = RD_PUSH(names, nn);
		if (!slotp)
			break;
		*slotp = strdup(de->d_name);
		if (!*slotp)
			nn--;
	}
	closedir(dir);
	if (nn > 1)
		qsort(names, nn, sizeof(*names), cmp_name);
	a = pacc_get(c, ctx->roots->sysfs, s);
	for (size_t i = 0; i < nn; i++) {
		collect_function(c, a, s, devsfd, devsdir, names[i]);
		free(names[i]);
	}
	free(names);
	close(devsfd);
	if (ctx->cache) {
		kept_clear(c);
		if (copy_pci(&c->kept, &c->n_kept, s->pci + first,
			     s->n_pci - first)) {
			c->kept_tick = ctx->tick;
			c->kept_ok = true;
		}
	}
out:
	return r;
}

const struct rd_probe probe_pci = RD_PROBE_ROW(
	"pci", 0, probe_pci_collect, struct pci_cache, NULL, pci_state_clear);
