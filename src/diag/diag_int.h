/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the check files: building results, and the lookups
 * every check needs (netdev of a port, module state, filters).
 */
#ifndef RD_DIAG_DIAG_INT_H
#define RD_DIAG_DIAG_INT_H

#include "core/escape.h"
#include "diag/diag.h"

/* Everything a check gets, passed as one value. */
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
/*
 * Attach a fix-up of kind on arg (ifname, module, /proc/sys path, rxe
 * name); command is printf-formatted. NULL only when out of memory.
 */
struct rd_fixup *diag_fix(struct diag_ctx *x, struct rd_result *r,
			  enum rd_fix_kind kind, const char *arg,
			  bool disruptive, bool undoable, const char *impact,
			  const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
void diag_fix_free(struct rd_fixup *f);
/* Free what a result holds (its strings, evidence, fix-up). */
void diag_result_clear(struct rd_result *r);

/* Does the --device/--port filter keep this target? */
bool diag_wants(const struct diag_ctx *x, const char *device, uint64_t port);

/*
 * The devices or ports of the snapshot, in its order, as the
 * --device/--port filter keeps them:
 *	for (struct diag_target tg = { 0 }; diag_next_port(&x, &tg);)
 *		... tg.d, tg.p, tg.name ("mlx5_0/1"), tg.netdev ...
 * diag_next_device() gives devices (tg.p NULL, tg.name "mlx5_0").
 */
struct diag_target {
	const struct rd_device *d;	/* NULL for the host */
	const struct rd_port *p;
	char name[128];
	/* A port's netdev (rd_port_netdev_name) and its data, if read. */
	const char *netdev;
	const struct rd_netdev *n;
	size_t dev, port;	/* the walk's position: start at zero */
};
bool diag_next_port(const struct diag_ctx *x, struct diag_target *t);
bool diag_next_device(const struct diag_ctx *x, struct diag_target *t);
/*
 * The walk of the check's row (x->c): a result for each target it keeps,
 * with the row's why, passed to the row's each().
 */
void diag_walk(struct diag_ctx *x);
/*
 * The opening most judgements share: true when the data is there;
 * otherwise the result is UNKNOWN "no_data" with the reason (fmt).
 */
bool diag_have(struct diag_ctx *x, struct rd_result *r, bool ok,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A counter's rise and rate over the rate window (o->rate_window, else
 * RD_RATE_WINDOW): the one rate every check and screen gives. False
 * without history or two samples in the window.
 */
bool diag_counter_rate(const struct diag_ctx *x, const struct rd_series *ser,
		       uint64_t *delta, double *span, double *rate);

/* Software RDMA devices (rxe, siw) have no PCI function and no firmware. */
bool diag_device_is_soft(const struct rd_device *d);
/* A software device's kernel module ("rdma_rxe", "siw"); NULL: hardware. */
const char *diag_soft_module(const struct rd_device *d);

/*
 * Which device it is, from the first source that names it: the PCI ids
 * (libpci), the verbs vendor_part_id of a Mellanox vendor id, or the
 * sysfs hca_type ("MT4125": the PCI device id in decimal).
 */
enum diag_id_src { DIAG_ID_NONE, DIAG_ID_PCI, DIAG_ID_VERBS, DIAG_ID_HCA_TYPE };
enum diag_id_src diag_device_pci_id(const struct rd_snapshot *s,
				    const struct rd_device *d, uint64_t *ven,
				    uint64_t *dev);
/* An SR-IOV virtual function by its device id; false when not known. */
bool diag_device_is_vf(const struct rd_snapshot *s, const struct rd_device *d);

/*
 * Inside a container (rd_diag_in_container): the modules, sysctls and
 * links belong to the host's kernel, seen from a namespace.
 */
bool diag_in_container(const struct rd_snapshot *s);

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

/*
 * The newest kernel log records about the module and link of the target's
 * port (check_kernel.c), as evidence lines of r: the port-down path shows
 * what the kernel saw happen to it.
 */
void diag_kmsg_port_evidence(struct diag_ctx *x, struct rd_result *r,
			     const struct diag_target *t);

/* The checks of each area, named in rd_checks[] (checks.c). */
typedef void diag_each_fn(struct diag_ctx *x, const struct diag_target *t,
			  struct rd_result *r);
typedef void diag_run_fn(struct diag_ctx *x);

diag_run_fn check_port_state, check_hw_pcie_link;
/* GPU hosts (check_gpu.c): one result per GPU, none without a GPU. */
diag_run_fn check_gpu_nic_affinity, check_gpu_gdr_path, check_gpu_peermem,
	check_gpu_pcie;
/* SR-IOV and bonds (check_virt.c): none on a host without either. */
diag_run_fn check_sriov_vfs, check_lag_state;
diag_each_fn check_port_state_one, check_hw_pcie_bandwidth,
	check_port_rocev2_gid, check_port_mtu, check_port_ib_mtu,
	check_port_rate, check_port_pkey, check_qos_pfc, check_qos_ecn,
	check_net_udp4791, check_rdma_cm_roce_mode, check_host_memlock,
	check_host_hugepages, check_host_numa, check_host_container,
	check_host_rdma_netns,
	check_host_udp_buffers, check_driver_modules, check_driver_ofed,
	check_dev_cq_size, check_user_provider, check_user_uverbs,
	check_fw_version, check_counters_errors, check_phy_module,
	check_phy_optics, check_phy_fec, check_phy_linkmodes, check_hw_health,
	check_kernel_events, check_port_flaps;

/*
 * The physical cause of a DOWN RoCE port without carrier (check_phy.c):
 * the first decisive FAIL of the phy checks, as port.state's verdict.
 */
bool diag_phy_down_cause(struct diag_ctx *x, struct rd_result *r,
			 const struct diag_target *t);

#endif
