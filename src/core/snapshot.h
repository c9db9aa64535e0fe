/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A snapshot: everything the probes learned about the host at one moment.
 * Plain data, no pointers into probe state; every field may be absent.
 */
#ifndef RD_CORE_SNAPSHOT_H
#define RD_CORE_SNAPSHOT_H

#include "core/model.h"
#include "core/model_ib.h"
#include "core/model_net.h"
#include "core/model_host.h"
#include "core/model_devlink.h"
#include "core/model_log.h"
#include "core/model_topo.h"
#include "core/model_virt.h"

#define RD_SCHEMA_VERSION 1

/* Something a probe could not read: which probe, where, and the errno. */
struct rd_error {
	char *source;	/* probe name: "ib_sysfs" */
	char *where;	/* path or short description */
	struct rd_os64 err;	/* errno, absent when not an errno */
	char *message;
};

struct rd_snapshot {
	uint64_t schema_version;
	struct rd_odbl time;		/* seconds since the epoch */
	struct rd_ou64 monotonic_ns;	/* CLOCK_MONOTONIC, for rates */
	char *source;			/* "live", a fixture root, a file */
	struct rd_device *devices;
	size_t n_devices;
	struct rd_netdev *netdevs;
	size_t n_netdevs;
	struct rd_pci *pci;
	size_t n_pci;
	struct rd_devlink *devlinks;	/* devlink instances of the NICs */
	size_t n_devlinks;
	struct rd_module *modules;
	size_t n_modules;
	struct rd_host host;
	struct rd_kmsg kmsg;		/* the kernel log about our devices */
	struct rd_topo topo;		/* PCIe tree of GPUs and NICs */
	struct rd_sriov *sriov;		/* NIC functions with SR-IOV */
	size_t n_sriov;
	struct rd_bond *bonds;		/* bonding masters */
	size_t n_bonds;
	struct rd_error *errors;
	size_t n_errors;
};

extern const struct rd_field rd_snapshot_fields[];

void rd_snapshot_init(struct rd_snapshot *s);
void rd_snapshot_free(struct rd_snapshot *s);

/* Record what could not be read; err is a positive or negative errno, or 0. */
void rd_snapshot_error(struct rd_snapshot *s, const char *source,
		       const char *where, int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

struct rd_device *rd_snapshot_device(const struct rd_snapshot *s,
				     const char *name);
struct rd_port *rd_device_port(const struct rd_device *d, uint64_t port);
struct rd_netdev *rd_snapshot_netdev(const struct rd_snapshot *s,
				     const char *name);
struct rd_pci *rd_snapshot_pci(const struct rd_snapshot *s, const char *bdf);
/* The devlink instance of a PCI function ("pci", bdf), or NULL. */
struct rd_devlink *rd_snapshot_devlink(const struct rd_snapshot *s,
				       const char *bdf);
/*
 * The netdev behind a RoCE port, from the first source that names it: the
 * port's own field, its GID attributes, then the netdev table (the upper
 * netdev of the device and port). NULL when none does.
 */
const char *rd_port_netdev_name(const struct rd_snapshot *s,
				const struct rd_device *d,
				const struct rd_port *p);
struct rd_module *rd_snapshot_module(const struct rd_snapshot *s,
				     const char *name);

#endif
