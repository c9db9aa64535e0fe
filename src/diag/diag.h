/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnosis engine: a fixed table of checks that read only a snapshot and
 * the counter history, and give each target a verdict with evidence, the
 * decision path taken and, where one exists, a fix-up.
 *
 * A check never guesses: a field the probes could not fill gives UNKNOWN
 * with the reason in the summary, never PASS or FAIL.
 */
#ifndef RD_DIAG_DIAG_H
#define RD_DIAG_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/events.h"
#include "core/history.h"
#include "core/snapshot.h"

struct json_object;
struct rd_printer;

/* Ordered by severity so results sort worst first. */
enum rd_verdict { RD_PASS = 0, RD_UNKNOWN = 1, RD_WARN = 2, RD_FAIL = 3 };

/*
 * Layers in the order a person walks them: the hardware, the driver (and
 * the user-space library on top of it), the port, the network
 * configuration the port's traffic needs, then the host, and last the
 * GPUs' paths to the NICs on a GPU host.
 */
enum rd_layer {
	RD_LAYER_HW,
	RD_LAYER_PHY,
	RD_LAYER_DRIVER,
	RD_LAYER_USER,
	RD_LAYER_PORT,
	RD_LAYER_NETCFG,
	RD_LAYER_HOST,
	RD_LAYER_GPU,
};
#define RD_LAYER_COUNT 8

/* "port state", "1: DOWN", "/sys/class/infiniband/mlx5_1/ports/1/state" */
struct rd_evidence {
	char *what;
	char *value;
	char *source;
};

/* One step of a decision path, with what it concluded. */
struct rd_step {
	char *text;
	enum rd_verdict verdict;
};

/* How a fix-up is carried out in-process (never through a shell). */
enum rd_fix_kind {
	RD_FIX_LINK_UP,		/* netlink: set IFF_UP on arg */
	RD_FIX_LINK_MTU,	/* netlink: set MTU of arg to value */
	RD_FIX_RXE_ADD,		/* RDMA netlink: new rxe link name on netdev arg */
	RD_FIX_MODPROBE,	/* libkmod: load module arg */
	RD_FIX_SYSCTL,		/* write value to the /proc/sys file arg */
	RD_FIX_PFC,		/* DCB netlink: enable PFC on priority value */
};

struct rd_fixup {
	char *id;		/* the check id it belongs to */
	char *command;		/* the equivalent shell command, to show */
	char *impact;		/* what it disturbs, one line */
	bool disruptive;
	bool undoable;
	/* private: how to apply it */
	enum rd_fix_kind kind;
	char *arg;		/* ifname, module, /proc/sys path, rxe name */
	char *arg2;		/* netdev for RD_FIX_RXE_ADD */
	uint64_t value;		/* MTU, priority, sysctl value */
	char *device;		/* target as shown in the journal */
	uint64_t port;
	uint64_t ifindex;	/* of the netdev named, from the reading (rd_fix_bind) */
};

struct rd_result {
	const char *check_id;
	const char *title;
	enum rd_layer layer;
	char *device;		/* target; NULL = host-wide */
	uint64_t port;		/* 0 = none */
	char *netdev;
	enum rd_verdict verdict;
	/*
	 * Machine code: "admin_down", "no_carrier", "no_sm",
	 * "module_missing", "no_device", "no_ipv4_rocev2_gid", "mtu_low",
	 * "memlock_low", "pfc_off", "fw_below_min", "pcie_degraded",
	 * "provider_missing", "error_counter_rising", "no_data", "ok", ...
	 */
	char *cause;
	/* "mlx5_1/1 DOWN: eth3 has no carrier - cable, module or switch port" */
	char *summary;
	char *why;
	char *next_step;
	struct rd_evidence *evidence;
	size_t n_evidence;
	struct rd_step *path;
	size_t n_path;
	struct rd_fixup *fix;	/* NULL when none */
	/* Why no fix-up is offered when the cause alone does not say. */
	const char *no_fix;	/* static text; NULL = from the cause */
};

struct rd_results {
	struct rd_result *v;
	size_t n;
};

struct rd_diag_opts {
	const char *device;	/* NULL = all */
	uint64_t port;		/* 0 = all */
	const char *only_area;	/* --only: rd_diag_only_selects; NULL = all */
	uint64_t hugepages_wanted;	/* 0 = only report */
	int numa_node_wanted;	/* -1 = none */
	double counter_window;	/* seconds of history to judge; 0 = 10 */
	/*
	 * Seconds a counter's rate is taken over, the newest of the history
	 * (counters.errors, phy.fec); 0 = RD_RATE_WINDOW.
	 */
	double rate_window;
	/*
	 * The snapshot was loaded from a file (--load, a recording): what
	 * it lacks is the file's, not a privilege this process needs.
	 */
	bool from_file;
	/*
	 * What happened before this snapshot: the flight recorder's store
	 * read back (check --since, the console) and what the console saw
	 * live, oldest first; NULL when neither was read. past_error: why
	 * the store could not be read (raw text), NULL when it was or was
	 * not asked for.
	 */
	const struct rd_events *past;
	const char *past_error;
};

struct diag_ctx;
struct diag_target;

/* What a check walks; the framework starts one result per target kept. */
enum rd_walk {
	RD_WALK_HOST,	/* one host-wide result */
	RD_WALK_DEVICE,	/* each RDMA device */
	RD_WALK_PORT,	/* each port of each device */
};

/* Which targets of the walk a check judges, and what its results name. */
enum {
	RD_ONLY_ROCE = 1 << 0,	/* Ethernet (RoCE) ports; devices with one */
	RD_ONLY_IB = 1 << 1,	/* InfiniBand ports */
	RD_ONLY_HW = 1 << 2,	/* not software devices (rxe, siw) */
	/* A port not ACTIVE gets UNKNOWN "port_not_active": see port.state. */
	RD_ONLY_ACTIVE = 1 << 3,
	RD_NAME_NETDEV = 1 << 4,	/* the result names the port's netdev */
	/*
	 * With RD_ONLY_ACTIVE: a port whose state was not read is still
	 * judged; the check says what its own data settles without it.
	 */
	RD_STATE_UNREAD_OK = 1 << 5,
};

/* A check: one row of the const table in checks.c. */
struct rd_check {
	const char *id;		/* stable: "port.state" */
	const char *title;
	const char *area;	/* the part before the dot, for --only */
	enum rd_layer layer;
	enum rd_walk walk;
	unsigned only;		/* RD_ONLY_* and RD_NAME_NETDEV */
	/* Why it matters, given to every result; NULL where it depends on
	 * the finding (the check sets it). */
	const char *why;
	/* Judge one target into its result, started by the walk. */
	void (*each)(struct diag_ctx *x, const struct diag_target *t,
		     struct rd_result *r);
	/* A check whose walk is its own: called instead of the walk (it may
	 * still call diag_walk() for the row's walk). */
	void (*run)(struct diag_ctx *x);
};

extern const struct rd_check rd_checks[];
extern const size_t rd_n_checks;
const struct rd_check *rd_check_find(const char *id);

void rd_diag_opts_init(struct rd_diag_opts *o);
/*
 * Does the --device/--port filter name a target the snapshot has? 0, or
 * -ENODEV with why set ("no RDMA device mlx5_9", "mlx5_0 has no port 2"),
 * raw text for the caller to escape. A port filter on a host without any
 * RDMA device is left to port.state, which says there is none.
 */
int rd_diag_filter_check(const struct rd_snapshot *s,
			 const struct rd_diag_opts *o, char *why, size_t len);

/*
 * The one rule for --only: a name keeps the checks of an area ("port",
 * also written "port."), of a layer ("netcfg") or one check id
 * ("port.mtu"), in any letter case; a name both an area and a layer keeps
 * both. NULL keeps every check. rd_diag_only_known: does the name keep
 * any check at all (the command line refuses one that does not)?
 */
bool rd_diag_only_selects(const struct rd_check *c, const char *only);
bool rd_diag_only_known(const char *only);

/* Run every check (filtered by o). 0 or -errno; out is always valid. */
int rd_diag_run(const struct rd_snapshot *s, const struct rd_history *h,
		const struct rd_diag_opts *o, struct rd_results *out);
void rd_results_free(struct rd_results *r);
/* By layer, hardware first, worst first within a layer; stable. */
void rd_results_sort(struct rd_results *r);
/*
 * Inside a container: host.container read, and a runtime named (docker,
 * kubernetes, lxc, ...). An overlay root alone is no proof: live and
 * immutable systems boot that way, and their fix-ups stay offered.
 */
bool rd_diag_in_container(const struct rd_snapshot *s);
/*
 * The verdict port.state gives a port's own state: PASS when it carries
 * traffic (ACTIVE, ACTIVE_DEFER), FAIL for any other state read, UNKNOWN
 * when the state was not read. Whoever colours a port uses this.
 */
enum rd_verdict rd_diag_port_state(const struct rd_port *p);

/*
 * How far up a finding goes: the verdict first; among FAILs a container
 * that holds the host's devices back comes first (nothing else can be
 * fixed from inside it), then port.state, then the lower layer. The
 * console's first finding and check --nhc's line are the same one.
 */
int rd_finding_rank(const struct rd_result *r);
/* The finding of highest rank that is a FAIL or WARN; NULL: none. */
const struct rd_result *rd_results_top(const struct rd_results *r);
enum rd_verdict rd_results_worst(const struct rd_results *r);
const char *rd_verdict_name(enum rd_verdict v);
/* by[v] of four strings in verdict order (PASS, UNKNOWN, WARN, FAIL);
 * the UNKNOWN one for a value out of range. */
const char *rd_verdict_pick(enum rd_verdict v, const char *const by[4]);
/*
 * Why a result has no fix-up, in one line: what the person does instead
 * is its next step; this says why rdmadiag does not make the change.
 */
const char *rd_result_no_fix_reason(const struct rd_result *r);
/* The layer's id for --only and JSON ("netcfg"), and its title as the
 * checklist, `check` and the console head its group ("Network
 * configuration"). */
const char *rd_layer_name(enum rd_layer l);
const char *rd_layer_title(enum rd_layer l);
/*
 * The results through one writer (core/print.h): text as `rdmadiag check`
 * prints it, or a JSON array of objects. Outside text is escaped, and the
 * fix-up's command is printed with its shell quoting intact.
 */
void rd_results_print(struct rd_printer *p, const struct rd_results *r,
		      bool verbose);
void rd_result_print(struct rd_printer *p, const struct rd_result *r,
		     bool verbose);
/* The JSON form of the above, for callers that embed it. */
struct json_object *rd_results_to_json(const struct rd_results *r);
struct json_object *rd_result_to_json(const struct rd_result *r);

/* Applying and undoing fix-ups: src/fix/fix.h. */

#endif
