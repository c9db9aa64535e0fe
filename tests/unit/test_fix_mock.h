/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An in-memory host for the fix engine (unit tests and the journal
 * fuzzer): a few values, the kernel's rules for them (interface identity,
 * loopback, MTU range, memory bound) and a log of every change asked for.
 * Nothing here touches the machine.
 */
#ifndef RD_TESTS_FIX_MOCK_H
#define RD_TESTS_FIX_MOCK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/fix_int.h"

#define MOCK_RDMA_NETDEV "veth0"
#define MOCK_RDMA_IFINDEX 5
#define MOCK_HUGE_MAX 1000
#define MOCK_MTU_MAX 9000

struct mock_value {
	const char *kind;
	const char *arg;
	char value[RD_FIX_VALUE_MAX];
};

struct mock_change {
	char kind[16];
	char arg[128];
	char arg2[32];
	char value[RD_FIX_VALUE_MAX];
};

struct mock_host {
	struct rd_fix_host host;
	struct mock_value v[8];
	size_t n;
	struct mock_change log[64];
	size_t n_log;
	bool fail_apply;	/* the kernel refuses the next change */
};

static struct mock_value *mock_find(struct mock_host *m, const char *kind,
				    const char *arg)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->v[i].kind, kind) == 0 && arg &&
		    strcmp(m->v[i].arg, arg) == 0)
			return &m->v[i];
	return NULL;
}

static int mock_read(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		     const struct rd_fix_target *t, char *val, size_t len,
		     char *msg, size_t ml)
{
	struct mock_value *v = mock_find(h->priv, k->name, t->arg);

	if (!v) {
		snprintf(msg, ml, "no such target");
		return -ENODEV;
	}
	snprintf(val, len, "%s", v->value);
	return 0;
}

/* A kind whose change is on a netdev named by arg (its ops say so). */
static bool mock_is_netdev_kind(const struct rd_fix_ops *k)
{
	return k->netdev_arg == RD_FIX_NETDEV_ARG;
}

static int mock_validate(const struct rd_fix_host *h,
			 const struct rd_fix_ops *k,
			 const struct rd_fix_target *t, const char *value,
			 char *msg, size_t ml)
{
	uint64_t n = 0;

	(void)h;
	if (mock_is_netdev_kind(k) || k->kind == RD_FIX_RXE_ADD) {
		const char *nd = k->kind == RD_FIX_RXE_ADD ? t->arg2 : t->arg;

		if (!nd || strcmp(nd, MOCK_RDMA_NETDEV) != 0) {
			snprintf(msg, ml, "not a RoCE netdev");
			return -EINVAL;
		}
		if (t->ifindex != MOCK_RDMA_IFINDEX) {
			snprintf(msg, ml, "not the same interface");
			return -ESTALE;
		}
	}
	if (k->kind == RD_FIX_LINK_MTU &&
	    (rd_fix_parse_dec(value, &n) < 0 || n < 68 || n > MOCK_MTU_MAX)) {
		snprintf(msg, ml, "MTU out of range");
		return -ERANGE;
	}
	if (k->kind == RD_FIX_SYSCTL &&
	    (rd_fix_parse_dec(value, &n) < 0 || n > MOCK_HUGE_MAX)) {
		snprintf(msg, ml, "more huge pages than memory");
		return -ERANGE;
	}
	return 0;
}

static int mock_apply(const struct rd_fix_host *h, const struct rd_fix_ops *k,
		      const struct rd_fix_target *t, const char *value,
		      char *msg, size_t ml)
{
	struct mock_host *m = h->priv;
	struct mock_value *v = mock_find(m, k->name, t->arg);
	struct mock_change *c;

	if (m->n_log < sizeof(m->log) / sizeof(m->log[0])) {
		c = &m->log[m->n_log++];
		snprintf(c->kind, sizeof(c->kind), "%s", k->name);
		snprintf(c->arg, sizeof(c->arg), "%s", t->arg ? t->arg : "");
		snprintf(c->arg2, sizeof(c->arg2), "%s", t->arg2 ? t->arg2 : "");
		snprintf(c->value, sizeof(c->value), "%s", value);
	}
	if (m->fail_apply || !v) {
		m->fail_apply = false;
		snprintf(msg, ml, "refused by the kernel");
		return -EIO;
	}
	snprintf(v->value, sizeof(v->value), "%s", value);
	return 0;
}

/* veth0 (RoCE, #5) down at MTU 1500, lo up, no huge pages, PFC off. */
static inline void mock_init(struct mock_host *m)
{
	static const struct mock_value init[] = {
		{ "link_up", "veth0", "down" },
		{ "link_mtu", "veth0", "1500" },
		{ "link_up", "lo", "up" },
		{ "link_mtu", "lo", "65536" },
		{ "sysctl", "/proc/sys/vm/nr_hugepages", "0" },
		{ "sysctl", "/proc/sys/kernel/core_pattern", "core" },
		{ "pfc", "veth0", "0x00" },
		{ "rxe_add", "rxe0", "absent" },
	};

	memset(m, 0, sizeof(*m));
	m->host = (struct rd_fix_host){ mock_read, mock_validate, mock_apply,
					m };
	memcpy(m->v, init, sizeof(init));
	m->n = sizeof(init) / sizeof(init[0]);
}

static inline const char *mock_get(struct mock_host *m, const char *kind,
				   const char *arg)
{
	struct mock_value *v = mock_find(m, kind, arg);

	return v ? v->value : NULL;
}

static inline void mock_set(struct mock_host *m, const char *kind,
			    const char *arg, const char *value)
{
	struct mock_value *v = mock_find(m, kind, arg);

	if (v)
		snprintf(v->value, sizeof(v->value), "%s", value);
}

#endif
