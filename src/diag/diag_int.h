/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the check files: building results, and the lookups
 * every check needs (netdev of a port, module state, filters).
 */
#ifndef RD_DIAG_DIAG_INT_H
#define RD_DIAG_DIAG_INT_H

#include "core/escape.h"
#include "diag/diag.h"

/* Everything an evaluate function gets, passed as one value. */
struct diag_ctx {
	const struct rd_check *c;
	const struct rd_snapshot *s;
	const struct rd_history *h;
	const struct rd_diag_opts *o;
	struct rd_results *out;
	int err;	/* first allocation failure, sticky */
	struct rd_result scratch;	/* target of writes after ENOMEM */
};

/*
 * Start a result for a target (device NULL = host-wide). Never NULL: on
 * allocation failure it returns a scratch result and sets ctx->err, so
 * checks can be written as straight lines. The pointer is valid only
 * until the next diag_new() (the array may move).
 */
struct rd_result *diag_new(struct diag_ctx *x, const char *device,
			   uint64_t port, const char *netdev);
void diag_verdict(struct diag_ctx *x, struct rd_result *r,
		  enum rd_verdict v, const char *cause, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_why(struct diag_ctx *x, struct rd_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_next(struct diag_ctx *x, struct rd_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_ev(struct diag_ctx *x, struct rd_result *r, const char *what,
	     const char *source, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_step(struct diag_ctx *x, struct rd_result *r, enum rd_verdict v,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Attach a fix-up; command is printf-formatted. */
struct rd_fixup *diag_fix(struct diag_ctx *x, struct rd_result *r,
			  enum rd_fix_kind kind, bool disruptive,
			  bool undoable, const char *impact,
			  const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void diag_fix_free(struct rd_fixup *f);

/* Does the --device/--port filter keep this target? */
bool diag_wants(const struct diag_ctx *x, const char *device, uint64_t port);

/*
 * The devices or ports a check walks, in snapshot order, as the
 * --device/--port filter keeps them:
 *	for (struct diag_target tg = { 0 }; diag_next_port(&x, &tg);)
 *		... tg.d, tg.p, tg.name ("mlx5_0/1") ...
 * diag_next_device() gives devices (tg.p NULL, tg.name "mlx5_0").
 */
struct diag_target {
	const struct rd_device *d;
	const struct rd_port *p;
	char name[128];
	size_t dev, port;	/* the walk's position: start at zero */
};
bool diag_next_port(const struct diag_ctx *x, struct diag_target *t);
bool diag_next_device(const struct diag_ctx *x, struct diag_target *t);
/* diag_new() for the target the walk is at. */
struct rd_result *diag_new_target(struct diag_ctx *x,
				  const struct diag_target *t,
				  const char *netdev);

/* The netdev behind a RoCE port: port field, GID attrs, then netdev table. */
const char *diag_port_netdev_name(const struct rd_snapshot *s,
				  const struct rd_device *d,
				  const struct rd_port *p);
bool diag_port_is_eth(const struct rd_port *p);
/* Software RDMA devices (rxe, siw) have no PCI function and no firmware. */
bool diag_device_is_soft(const struct rd_device *d);

enum diag_mod { DIAG_MOD_UNKNOWN, DIAG_MOD_LOADED, DIAG_MOD_ABSENT };
/* Module state; UNKNOWN when the snapshot has no module data at all. */
enum diag_mod diag_module(const struct rd_snapshot *s, const char *name);
/* The RDMA module paired with a PCI network driver (mlx5_core -> mlx5_ib). */
const char *diag_rdma_module_of(const char *net_driver);
/* Is module the RDMA half of one of those drivers (mlx5_ib, irdma, ...)? */
bool diag_is_rdma_nic_module(const char *module);

/* Parse "0-3,8,10-11" into a bit set of up to 1024 CPUs; -EINVAL. */
int diag_cpulist_parse(const char *s, uint64_t set[16]);

/* The largest IB MTU that fits a netdev MTU (RoCE headers removed). */
uint64_t diag_roce_mtu(uint64_t netdev_mtu);

/* Compare dotted version strings numerically: <0, 0, >0. */
int diag_version_cmp(const char *a, const char *b);

/* Per-area evaluate functions, listed in checks.c. */
#define DIAG_CHECK(name)                                                  \
	int name(const struct rd_check *c, const struct rd_snapshot *s,   \
		 const struct rd_history *h, const struct rd_diag_opts *o, \
		 struct rd_results *out)

DIAG_CHECK(check_port_state);
DIAG_CHECK(check_hw_pcie_bandwidth);
DIAG_CHECK(check_port_rocev2_gid);
DIAG_CHECK(check_port_mtu);
DIAG_CHECK(check_port_rate);
DIAG_CHECK(check_port_pkey);
DIAG_CHECK(check_qos_pfc);
DIAG_CHECK(check_qos_ecn);
DIAG_CHECK(check_net_udp4791);
DIAG_CHECK(check_rdma_cm_roce_mode);
DIAG_CHECK(check_host_memlock);
DIAG_CHECK(check_host_hugepages);
DIAG_CHECK(check_host_numa);
DIAG_CHECK(check_host_container);
DIAG_CHECK(check_host_udp_buffers);
DIAG_CHECK(check_driver_modules);
DIAG_CHECK(check_driver_ofed);
DIAG_CHECK(check_dev_cq_size);
DIAG_CHECK(check_user_provider);
DIAG_CHECK(check_user_uverbs);
DIAG_CHECK(check_fw_version);
DIAG_CHECK(check_hw_pcie_link);
DIAG_CHECK(check_counters_errors);

/* Wrap the evaluate arguments into a context; end with diag_done(). */
#define DIAG_CTX(x) \
	struct diag_ctx x = { .c = c, .s = s, .h = h, .o = o, .out = out }
/* Drop the scratch result; returns the sticky error (0 or -ENOMEM). */
int diag_done(struct diag_ctx *x);

#endif
