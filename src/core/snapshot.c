// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/snapshot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "core/attr.h"

static const struct rd_field error_fields[] = {
	RD_FLD_STR(struct rd_error, source, "source"),
	RD_FLD_STR(struct rd_error, where, "where"),
	RD_FLD_S64(struct rd_error, err, "errno"),
	RD_FLD_STR(struct rd_error, message, "message"),
	RD_FLD_END
};

const struct rd_field rd_snapshot_fields[] = {
	RD_FLD_DBL(struct rd_snapshot, time, "time"),
	RD_FLD_U64(struct rd_snapshot, monotonic_ns, "monotonic_ns"),
	RD_FLD_STR(struct rd_snapshot, source, "source"),
	RD_FLD_STRUCT(struct rd_snapshot, host, rd_host_fields, "host"),
	RD_FLD_ARRAY(struct rd_snapshot, devices, n_devices, struct rd_device,
		     rd_device_fields, "devices"),
	RD_FLD_ARRAY(struct rd_snapshot, netdevs, n_netdevs, struct rd_netdev,
		     rd_netdev_fields, "netdevs"),
	RD_FLD_ARRAY(struct rd_snapshot, pci, n_pci, struct rd_pci,
		     rd_pci_fields, "pci"),
	RD_FLD_ARRAY(struct rd_snapshot, devlinks, n_devlinks,
		     struct rd_devlink, rd_devlink_fields, "devlink"),
	RD_FLD_ARRAY(struct rd_snapshot, modules, n_modules, struct rd_module,
		     rd_module_fields, "modules"),
	RD_FLD_STRUCT(struct rd_snapshot, kmsg, rd_kmsg_fields, "kernel_log"),
	RD_FLD_STRUCT(struct rd_snapshot, topo, rd_topo_fields, "topology"),
	RD_FLD_ARRAY(struct rd_snapshot, sriov, n_sriov, struct rd_sriov,
		     rd_sriov_fields, "sriov"),
	RD_FLD_ARRAY(struct rd_snapshot, bonds, n_bonds, struct rd_bond,
		     rd_bond_fields, "bonds"),
	RD_FLD_ARRAY(struct rd_snapshot, errors, n_errors, struct rd_error,
		     error_fields, "errors"),
	RD_FLD_END
};

void rd_snapshot_init(struct rd_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->schema_version = RD_SCHEMA_VERSION;
}

void rd_snapshot_free(struct rd_snapshot *s)
{
	rd_model_free(rd_snapshot_fields, s);
	rd_snapshot_init(s);
}

/*
 * Error text quotes what was read (file names, values cut with "%.64s"),
 * which may be raw bytes or half a UTF-8 character. Such text would make
 * the snapshot unloadable (the loader takes only text) and could reach the
 * terminal: each byte that does not start a valid character becomes '?'.
 */
static size_t utf8_len(unsigned char lead)
{
	if (lead < 0x80)
		return 1;
	if ((lead & 0xe0) == 0xc0)
		return 2;
	if ((lead & 0xf0) == 0xe0)
		return 3;
	if ((lead & 0xf8) == 0xf0)
		return 4;
	return 0;
}

static void make_text(char *t)
{
	size_t len = t ? strlen(t) : 0;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_len((unsigned char)t[i]);

		if (n && n <= len - i && rd_text_check(t + i, n) == 0) {
			i += n;
			continue;
		}
		t[i++] = '?';
	}
}

void rd_snapshot_error(struct rd_snapshot *s, const char *source,
		       const char *where, int err, const char *fmt, ...)
{
	struct rd_error *e = RD_PUSH(s->errors, s->n_errors);
	char msg[512];
	va_list ap;

	if (!e)
		return;
	if (err < 0)
		err = -err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	} else {
		snprintf(msg, sizeof(msg), "%s", err ? strerror(err) : "error");
	}
	e->source = rd_strdup(source);
	e->where = rd_strdup(where);
	if (err)
		e->err = rd_s64(err);
	e->message = rd_strdup(msg);
	make_text(e->where);
	make_text(e->message);
}

/* The first of n size-byte items whose string at name_off is name. */
static void *find_named(const void *items, size_t n, size_t size,
			size_t name_off, const char *name)
{
	for (size_t i = 0; name && i < n; i++) {
		const char *it = (const char *)items + i * size;
		const char *nm = *(char *const *)(const void *)(it + name_off);

		if (nm && strcmp(nm, name) == 0)
			return (void *)it;
	}
	return NULL;
}

#define FIND_NAMED(arr, n, member, name)                       \
	find_named(arr, n, sizeof(*(arr)),                    \
		   offsetof(__typeof__(*(arr)), member), name)

struct rd_device *rd_snapshot_device(const struct rd_snapshot *s,
				     const char *name)
{
	return FIND_NAMED(s->devices, s->n_devices, name, name);
}

struct rd_port *rd_device_port(const struct rd_device *d, uint64_t port)
{
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].port == port)
			return &d->ports[i];
	return NULL;
}

struct rd_netdev *rd_snapshot_netdev(const struct rd_snapshot *s,
				     const char *name)
{
	return FIND_NAMED(s->netdevs, s->n_netdevs, name, name);
}

const char *rd_port_netdev_name(const struct rd_snapshot *s,
				const struct rd_device *d,
				const struct rd_port *p)
{
	if (p->netdev && *p->netdev)
		return p->netdev;
	for (size_t i = 0; i < p->n_gids; i++)
		if (p->gids[i].netdev && *p->gids[i].netdev)
			return p->gids[i].netdev;
	for (size_t i = 0; i < s->n_netdevs && d->name; i++) {
		const struct rd_netdev *n = &s->netdevs[i];

		if (n->name && n->rdma_device &&
		    strcmp(n->rdma_device, d->name) == 0 && !n->lower &&
		    (!n->rdma_port.ok || n->rdma_port.v == p->port))
			return n->name;
	}
	return NULL;
}

struct rd_pci *rd_snapshot_pci(const struct rd_snapshot *s, const char *bdf)
{
	return FIND_NAMED(s->pci, s->n_pci, bdf, bdf);
}

struct rd_devlink *rd_snapshot_devlink(const struct rd_snapshot *s,
				       const char *bdf)
{
	for (size_t i = 0; bdf && i < s->n_devlinks; i++)
		if (s->devlinks[i].bus && !strcmp(s->devlinks[i].bus, "pci") &&
		    s->devlinks[i].dev && !strcmp(s->devlinks[i].dev, bdf))
			return &s->devlinks[i];
	return NULL;
}

struct rd_module *rd_snapshot_module(const struct rd_snapshot *s,
				     const char *name)
{
	return FIND_NAMED(s->modules, s->n_modules, name, name);
}
