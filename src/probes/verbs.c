// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libibverbs' view of each RDMA device sysfs shows: the device limits an
 * application will meet (max_cqe, max_mr_size...) and each port's MTU,
 * speed and table sizes. A device that sysfs has but libibverbs does not
 * list has no user-space provider; one it lists that cannot be opened
 * has a /dev/infiniband problem or went away, told apart by the errno.
 * Devices are opened, queried and closed at once: holding a context
 * would pin the driver and count against the device.
 */
#include "config.h"
#include "probes/verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "core/escape.h"

#define SRC "verbs"
/*
 * The console re-opens devices only this often: opening a context costs
 * a provider's setup (mmaps, doorbell pages) that a 1 s refresh should
 * not pay. MTU and speed changes show within that many refreshes.
 */
#define RD_VERBS_EVERY 5

/* What the last query found, per device, copied into later snapshots. */
struct verbs_cache {
	struct rd_device *devs;	/* name, verbs and ports[].verbs only */
	size_t n_devs;
	uint64_t tick;
	bool valid;
};


uint64_t rd_ibv_mtu_bytes(unsigned mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128ULL << mtu : 0;
}

static void __attribute__((format(printf, 2, 3)))
set_error(struct rd_device *d, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd_utf8_trim_cut(msg);	/* it may quote a sysfs name */
	d->verbs.opened = rd_bool(false);
	(void)rd_str_set(&d->verbs.open_error, msg);
}

static void fill_device(struct rd_verbs_dev *v, const struct ibv_device_attr *a)
{
	v->max_cqe = rd_u64((uint64_t)a->max_cqe);
	v->max_cq = rd_u64((uint64_t)a->max_cq);
	v->max_qp = rd_u64((uint64_t)a->max_qp);
	v->max_qp_wr = rd_u64((uint64_t)a->max_qp_wr);
	v->max_mr_size = rd_u64(a->max_mr_size);
	v->max_mr = rd_u64((uint64_t)a->max_mr);
	v->max_pd = rd_u64((uint64_t)a->max_pd);
	v->max_sge = rd_u64((uint64_t)a->max_sge);
	v->atomic_cap = rd_u64((uint64_t)a->atomic_cap);
	v->phys_port_cnt = rd_u64(a->phys_port_cnt);
	v->vendor_id = rd_u64(a->vendor_id);
	v->vendor_part_id = rd_u64(a->vendor_part_id);
	v->hw_ver = rd_u64(a->hw_ver);
}

/*
 * Can the device register dma-buf memory (GPUDirect RDMA without a
 * peer-memory module)? NCCL's test: no buffer at all (fd -1); a kernel
 * and provider that support it reject the descriptor (EBADF).
 */
static void probe_dmabuf(struct rd_verbs_dev *v, struct ibv_context *c)
{
	struct ibv_pd *pd = ibv_alloc_pd(c);
	struct ibv_mr *mr;
	int e;

	if (!pd)
		return;
	errno = 0;
	mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
	e = errno;
	if (mr) {
		ibv_dereg_mr(mr);
		v->dmabuf = rd_bool(true);
	} else if (e == EBADF) {
		v->dmabuf = rd_bool(true);
	} else if (e == EOPNOTSUPP || e == EPROTONOSUPPORT) {
		v->dmabuf = rd_bool(false);
	}
	if (!mr)
		v->dmabuf_errno = rd_u64((uint64_t)e);
	ibv_dealloc_pd(pd);
}

static void query(struct rd_snapshot *s, struct rd_device *d,
		  struct ibv_device *dev)
{
	struct ibv_context *c;
	struct ibv_device_attr_ex ax;
	struct ibv_device_attr a;
	int r;

	d->verbs.listed = rd_bool(true);
	c = ibv_open_device(dev);
	if (!c) {
		int e = errno ? errno : EIO;

		/*
		 * libibverbs tries other paths after /dev/infiniband and
		 * leaves the last errno (ENOENT): ask the node directly.
		 */
		if (d->uverbs_dev && faccessat(AT_FDCWD, d->uverbs_dev,
					       R_OK | W_OK, AT_EACCESS) < 0) {
			e = errno;
			set_error(d, "ibv_open_device: %s: %s", d->uverbs_dev,
				  strerror(e));
		} else {
			set_error(d, "ibv_open_device: %s", strerror(e));
		}
		d->verbs.open_errno = rd_u64((uint64_t)e);
		return;
	}
	memset(&ax, 0, sizeof(ax));
	r = ibv_query_device_ex(c, NULL, &ax);
	if (r == 0) {
		a = ax.orig_attr;
	} else {
		/* Old providers lack the extended call. */
		memset(&a, 0, sizeof(a));
		r = ibv_query_device(c, &a);
	}
	if (r != 0) {
		set_error(d, "ibv_query_device: %s", strerror(r > 0 ? r : EIO));
		ibv_close_device(c);
		return;
	}
	d->verbs.opened = rd_bool(true);
	fill_device(&d->verbs, &a);
	probe_dmabuf(&d->verbs, c);
	for (unsigned p = 1; p <= a.phys_port_cnt; p++) {
		struct rd_port *rp = rd_device_port(d, p);
		struct ibv_port_attr pa;
		uint64_t mtu;

		if (!rp)
			continue; /* sysfs did not show it; nowhere to put it */
		memset(&pa, 0, sizeof(pa));
		r = ibv_query_port(c, (uint8_t)p, &pa);
		if (r != 0) {
			char w[128];

			snprintf(w, sizeof(w), "%s port %u", d->name, p);
			rd_snapshot_error(s, SRC, w, r > 0 ? r : EIO,
					  "ibv_query_port failed");
			continue;
		}
		if ((mtu = rd_ibv_mtu_bytes(pa.active_mtu)))
			rp->verbs.active_mtu = rd_u64(mtu);
		if ((mtu = rd_ibv_mtu_bytes(pa.max_mtu)))
			rp->verbs.max_mtu = rd_u64(mtu);
		rp->verbs.active_speed = rd_u64(pa.active_speed);
		rp->verbs.active_width = rd_u64(pa.active_width);
		rp->verbs.gid_tbl_len = rd_u64((uint64_t)pa.gid_tbl_len);
		rp->verbs.pkey_tbl_len = rd_u64(pa.pkey_tbl_len);
		rp->verbs.max_msg_sz = rd_u64(pa.max_msg_sz);
	}
	ibv_close_device(c);
}

static void verbs_state_clear(void *state)
{
	struct verbs_cache *c = state;

	rd_model_free_array(rd_device_fields, (void **)&c->devs, &c->n_devs,
			    sizeof(*c->devs));
	c->valid = false;
}

static void copy_verbs(struct rd_device *dst, const struct rd_device *src)
{
	struct rd_verbs_dev v = src->verbs;

	v.open_error = rd_strdup(src->verbs.open_error);
	free(dst->verbs.open_error);
	dst->verbs = v;
	for (size_t j = 0; j < src->n_ports; j++) {
		struct rd_port *p = rd_device_port(dst, src->ports[j].port);

		if (p)
			p->verbs = src->ports[j].verbs;
	}
}

/* Keep this refresh's answers for the next RD_VERBS_EVERY - 1 ones. */
static void cache_store(struct verbs_cache *c, const struct rd_snapshot *s,
			uint64_t tick)
{
	verbs_state_clear(c);
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		struct rd_device *e = RD_PUSH(c->devs, c->n_devs);

		if (!e)
			return;
		e->name = rd_strdup(d->name);
		copy_verbs(e, d);
		for (size_t j = 0; j < d->n_ports; j++) {
			struct rd_port *p = RD_PUSH(e->ports, e->n_ports);

			if (!p)
				return;
			p->port = d->ports[j].port;
			p->verbs = d->ports[j].verbs;
		}
	}
	c->tick = tick;
	c->valid = true;
}

/* Serve every device from the cache, or say it cannot (a new device). */
static bool cache_serve(struct verbs_cache *c, struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_devices; i++) {
		bool found = false;

		for (size_t k = 0; k < c->n_devs && !found; k++)
			found = s->devices[i].name && c->devs[k].name &&
				strcmp(s->devices[i].name, c->devs[k].name) == 0;
		if (!found)
			return false;
	}
	for (size_t i = 0; i < s->n_devices; i++)
		for (size_t k = 0; k < c->n_devs; k++)
			if (strcmp(s->devices[i].name, c->devs[k].name) == 0)
				copy_verbs(&s->devices[i], &c->devs[k]);
	return true;
}

static int probe_verbs_collect(const struct rd_probe_ctx *ctx, void *state,
			       struct rd_snapshot *s)
{
	struct verbs_cache *c = state;
	struct ibv_device **list;
	int n = 0;

	if (rd_probe_cache_fresh(ctx, c->tick, c->valid, RD_VERBS_EVERY) &&
	    cache_serve(c, s))
		return 0;
	list = ibv_get_device_list(&n);
	if (!list) {
		int e = errno ? errno : EIO;

		rd_snapshot_error(s, SRC, "ibv_get_device_list", e, NULL);
		/*
		 * Nothing was asked of any device: whether it opens stays
		 * unknown, with the reason.
		 */
		for (size_t i = 0; i < s->n_devices; i++) {
			set_error(&s->devices[i], "ibv_get_device_list: %s",
				  strerror(e));
			s->devices[i].verbs.opened.ok = false;
		}
		return 0;
	}
	for (size_t i = 0; i < s->n_devices; i++) {
		struct rd_device *d = &s->devices[i];
		struct ibv_device *dev = NULL;

		if (!d->name)
			continue;
		for (int k = 0; k < n; k++)
			if (strcmp(ibv_get_device_name(list[k]), d->name) == 0)
				dev = list[k];
		if (dev) {
			query(s, d, dev);
			continue;
		}
		d->verbs.listed = rd_bool(false);
		if (!d->uverbs)
			set_error(d, "no uverbs interface for this device "
				     "(is ib_uverbs loaded?)");
		else
			set_error(d,
				  "libibverbs does not list this device: no "
				  "user-space provider for driver %s",
				  d->driver ? d->driver : "(unknown)");
	}
	ibv_free_device_list(list);
	if (ctx->cache)
		cache_store(c, s, ctx->tick);
	return 0;
}

const struct rd_probe probe_verbs = RD_PROBE_ROW(
	"verbs", RD_NEEDS_VERBS | RD_NEEDS_DEVICES, probe_verbs_collect,
	struct verbs_cache, NULL, verbs_state_clear);
