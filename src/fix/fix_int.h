/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside src/fix: one ops struct per fix kind (fix_link_up.c,
 * fix_link_mtu.c, fix_rxe.c, fix_module.c, fix_sysctl.c, fix_pfc.c), and
 * the engine (fix.c) that runs them through a host layer: the live host,
 * or an in-memory one in tests and the fuzzer, so the rules are tested
 * without changing the machine.
 */
#ifndef RD_FIX_FIX_INT_H
#define RD_FIX_FIX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fix/fix.h"

#define RD_FIX_VALUE_MAX 64

/* What a fix-up or journal entry names. */
struct rd_fix_target {
	const char *arg;	/* ifname, module, sysctl path, rxe name */
	const char *arg2;	/* netdev of an rxe link */
	uint64_t ifindex;	/* the netdev's index in the reading; 0 unknown */
};

struct rd_fix_ops {
	const char *name;		/* journal "kind" */
	enum rd_fix_kind kind;
	const char *const *checks;	/* the check ids that produce it */
	/* Undo may set the before-value again (modules are not unloaded). */
	bool revertible;
	/*
	 * Which argument names the netdev the change is on (its ifindex is
	 * bound from the reading and validated before the change); none for
	 * a module or a sysctl.
	 */
	enum {
		RD_FIX_NETDEV_NONE,
		RD_FIX_NETDEV_ARG,
		RD_FIX_NETDEV_ARG2
	} netdev_arg;
	/*
	 * The change can cut the session that made it (link state, MTU,
	 * flow control): the console runs it under a rollback timer.
	 */
	bool cuts_session;
	/*
	 * A kind whose values are words: all of them, NULL-terminated, the
	 * one the fix-up sets first, and what they name ("link state").
	 */
	const char *const *words;
	const char *words_name;
	/*
	 * No kernel: is this a target and value a check could produce?
	 * 0, or -EINVAL with the reason in why.
	 */
	int (*check)(const struct rd_fix_target *t, const char *value,
		     char *why, size_t len);
	/* The value the fix-up sets, given the current one (NULL: words[0]). */
	int (*target_value)(const struct rd_fixup *f, const char *before,
			    char *after, size_t len);
	/* The shell command that sets value (words shell-quoted). */
	void (*command)(const struct rd_fix_target *t, const char *value,
			char *buf, size_t len);
	/*
	 * The shell command for the change from one value to another, where
	 * it names only what changes (PFC: the priorities turned on or off);
	 * NULL: command(t, to).
	 */
	void (*change_command)(const struct rd_fix_target *t, const char *from,
			       const char *to, char *buf, size_t len);
	/* Live: the current value. */
	int (*read)(const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml);
	/*
	 * Live, right before the change: the target is the one named (same
	 * ifindex and name) and value is in the range the kernel reports.
	 * NULL: the check is the whole rule.
	 */
	int (*validate)(const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml);
	int (*apply)(const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml);
};

/*
 * The fields every kind sets: its journal name, kind, whether undo may
 * set the before-value again, the file's checks[] and the functions named
 * <pfx>_check, <pfx>_command, <pfx>_read and <pfx>_apply.
 */
#define RD_FIX_KIND(pfx, name_, kind_, revertible_)                          \
	.name = (name_), .kind = (kind_), .revertible = (revertible_),      \
	.checks = checks, .check = pfx##_check, .command = pfx##_command,   \
	.read = pfx##_read, .apply = pfx##_apply

const struct rd_fix_ops *rd_fix_ops_by_kind(enum rd_fix_kind k);
/*
 * The command shown and journalled for a change of k's target from one
 * value to another: what a check shows, what apply and undo record.
 */
void rd_fix_change_command(const struct rd_fix_ops *k,
			   const struct rd_fix_target *t, const char *from,
			   const char *to, char *buf, size_t len);
const struct rd_fix_ops *rd_fix_ops_by_name(const char *name);

/*
 * The layer that touches the host. The live host calls the ops; a test
 * host keeps values in memory. Every call has passed ops->check first.
 */
struct rd_fix_host {
	int (*read)(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		    const struct rd_fix_target *t, char *val, size_t len,
		    char *msg, size_t ml);
	int (*validate)(const struct rd_fix_host *h,
			const struct rd_fix_ops *k,
			const struct rd_fix_target *t, const char *value,
			char *msg, size_t ml);
	int (*apply)(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		     const struct rd_fix_target *t, const char *value,
		     char *msg, size_t ml);
	void *priv;
};

extern const struct rd_fix_host rd_fix_live_host;

/* The engine, with the trust rules that do not depend on who asks. */
int rd_fix_engine_apply(const struct rd_fix_host *h, const struct rd_fixup *f,
			const char *journal, unsigned confirm_within,
			struct rd_fix_done *done, char *msg, size_t ml);
/*
 * Undo entry (NULL: the last change still in place). With
 * timer_only, only an unconfirmed entry whose timer ran out is reverted.
 */
int rd_fix_engine_undo(const struct rd_fix_host *h, const char *journal,
		       const char *entry, bool timer_only, char *msg,
		       size_t ml);

/*
 * The rollback timer's clocks and last resort, replaced by tests: the
 * wall clock (confirm_by is journalled on it), CLOCK_BOOTTIME (what it
 * waits on, which no clock step moves), a sleep until a boot-time
 * instant, and where a revert that failed is told beyond the journal
 * (syslog and the kernel log).
 */
struct rd_fix_timer_env {
	double (*real_now)(void);
	double (*boot_now)(void);
	void (*boot_sleep_until)(double t);
	void (*alert)(const char *line);
	unsigned tries;
	double retry_s;
};
extern struct rd_fix_timer_env rd_fix_timer_env;

/*
 * The timer's body: wait until confirm_by (the time left read once on the
 * wall clock, then waited on CLOCK_BOOTTIME), then revert entry id as
 * undo would, unless it was confirmed. A revert that fails for a reason
 * another try may get past (the journal's lock, a full disk) is tried
 * again, tries times retry_s apart; one that still fails leaves a
 * "rollback_failed" line in the journal (when it can be written) and a
 * line in syslog and the kernel log. 0, or -errno with msg set.
 */
int rd_fix_timer_run(const struct rd_fix_host *h, const char *journal,
		     const char *id, double confirm_by, char *msg, size_t ml);

/* Shared by the ops files. */
/* A netdev name the kernel could have: 1-15 bytes, no '/', ':' or blank. */
bool rd_fix_ifname_ok(const char *s);
/* The same, as a check: 0, or -EINVAL with the reason in why. */
int rd_fix_need_ifname(const char *s, char *why, size_t len);
/* ok, or -EINVAL with why: "\"arg\" is not <what>". */
int rd_fix_need(bool ok, const char *arg, const char *what, char *why,
		size_t len);
/* A decimal number without sign or blanks, at most 20 digits. */
int rd_fix_parse_dec(const char *s, uint64_t *out);
/* value is one of k->words: 0, or -EINVAL with the reason in why. */
int rd_fix_need_word(const struct rd_fix_ops *k, const char *value,
		     char *why, size_t len);
/* target_value of the kinds that set the fix-up's number as it is. */
int rd_fix_target_decimal(const struct rd_fixup *f, const char *before,
			  char *after, size_t len);

/*
 * Load module name (and what it depends on) through ctx, never running a
 * command: a module that modprobe.d gives an install command, or one it
 * brings in that has one, is refused (-EPERM) with the reason in msg.
 */
struct kmod_ctx;
int rd_fix_module_load(struct kmod_ctx *ctx, const char *name, char *msg,
		       size_t ml);

/*
 * Every RDMA device, by index only (ports empty, for
 * rd_rdma_nl_parse_ports), and the index of the one called name when
 * name is not NULL (-ENODEV when none is). Unlike the probes' device
 * parser it takes any name, so one device whose name holds control
 * bytes does not stop a fix-up of another.
 */
struct nl_sock;
struct rd_device;
int rd_fix_rdma_devices(struct nl_sock *sk, const char *name,
			struct rd_device **devs, size_t *n, uint32_t *named);
/* The same from the bytes of an RDMA_NLDEV_CMD_GET dump. */
int rd_fix_rdma_parse_devices(const void *bytes, size_t len,
			      const char *name, struct rd_device **devs,
			      size_t *n, uint32_t *named);

/* Live rtnetlink facts about one netdev. */
struct rd_fix_link {
	uint32_t ifindex;
	char name[16];
	unsigned flags;		/* IFF_* */
	uint32_t mtu;
	uint32_t min_mtu, max_mtu;	/* 0 when the kernel does not say */
};
/* RTM_GETLINK by name. */
int rd_fix_link_get(const char *name, struct rd_fix_link *l, char *msg,
		    size_t ml);
/*
 * The interface named is still the one the reading saw (ifindex), is not
 * a loopback, and carries an RDMA device (hardware function or Soft-RoCE
 * parent): only such a netdev is named by a check.
 */
int rd_fix_link_same(const struct rd_fix_target *t, const char *name,
		     struct rd_fix_link *l, char *msg, size_t ml);
/* RTM_NEWLINK on ifindex: mtu (0 = keep) and/or up (-1 = keep). */
int rd_fix_link_set(uint32_t ifindex, uint32_t mtu, int up, char *msg,
		    size_t ml);
/*
 * The link fix kinds' shared steps on the netdev t->arg. attr "mtu" is
 * the MTU in bytes, NULL the state "up"/"down": the command a person would
 * type, the value now, and the change (on the ifindex the reading saw).
 */
void rd_fix_link_command(const struct rd_fix_target *t, const char *attr,
			 const char *value, char *buf, size_t len);
int rd_fix_link_read(const struct rd_fix_target *t, const char *attr,
		     char *val, size_t len, char *msg, size_t ml);
int rd_fix_link_apply(const struct rd_fix_target *t, const char *attr,
		      const char *value, char *msg, size_t ml);

#endif
