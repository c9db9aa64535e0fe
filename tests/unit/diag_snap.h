/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building small snapshots in memory for the check tests. */
#ifndef RD_TESTS_DIAG_SNAP_H
#define RD_TESTS_DIAG_SNAP_H

#include "unit.h"

#include "core/snapshot.h"
#include "diag/diag.h"
#include "fix/fix_int.h"

static inline struct rd_device *snap_dev(struct rd_snapshot *s,
					 const char *name, const char *bdf)
{
	struct rd_device *d = RD_PUSH(s->devices, s->n_devices);

	assert_non_null(d);
	d->name = rd_strdup(name);
	d->pci_bdf = rd_strdup(bdf);
	return d;
}

/* A RoCE port in state st/phys with a netdev name (may be NULL). */
static inline struct rd_port *snap_port(struct rd_device *d, uint64_t num,
					uint64_t st, uint64_t phys,
					const char *ll, const char *netdev)
{
	struct rd_port *p = RD_PUSH(d->ports, d->n_ports);

	assert_non_null(p);
	p->port = num;
	p->state_num = rd_u64(st);
	p->state = rd_strdup(rd_port_state_name(st));
	p->phys_state_num = rd_u64(phys);
	p->link_layer = rd_strdup(ll);
	p->netdev = rd_strdup(netdev);
	return p;
}

static inline struct rd_netdev *snap_netdev(struct rd_snapshot *s,
					    const char *name, bool up,
					    bool carrier, uint64_t mtu)
{
	struct rd_netdev *n = RD_PUSH(s->netdevs, s->n_netdevs);

	assert_non_null(n);
	n->name = rd_strdup(name);
	n->admin_up = rd_bool(up);
	n->carrier = rd_bool(carrier);
	n->mtu = rd_u64(mtu);
	n->max_mtu = rd_u64(9216);
	n->addrs_read = rd_bool(true);	/* as the rtnetlink probe leaves it */
	return n;
}

static inline void snap_addr4(struct rd_netdev *n, const char *a)
{
	struct rd_addr *ad = RD_PUSH(n->addrs, n->n_addrs);

	assert_non_null(ad);
	ad->family = rd_strdup("inet");
	ad->address = rd_strdup(a);
	ad->prefixlen = rd_u64(24);
	ad->scope = rd_strdup("global");
}

static inline void snap_gid(struct rd_port *p, uint64_t idx, const char *type,
			    const uint8_t raw[16], const char *netdev)
{
	struct rd_gid *g = RD_PUSH(p->gids, p->n_gids);

	assert_non_null(g);
	g->index = idx;
	memcpy(g->raw, raw, 16);
	g->raw_ok = true;
	g->type = rd_strdup(type);
	g->netdev = rd_strdup(netdev);
}

/* A dcbnl APP table entry: IEEE selector, protocol, priority. */
static inline void snap_app(struct rd_netdev *n, uint64_t sel, uint64_t proto,
			    uint64_t prio)
{
	struct rd_dcb_app *a = RD_PUSH(n->dcb.apps, n->dcb.n_apps);

	assert_non_null(a);
	a->selector = rd_u64(sel);
	a->protocol = rd_u64(proto);
	a->priority = rd_u64(prio);
}

static inline void snap_module(struct rd_snapshot *s, const char *name)
{
	struct rd_module *m = RD_PUSH(s->modules, s->n_modules);

	assert_non_null(m);
	m->name = rd_strdup(name);
	m->loaded = rd_bool(true);
}

static inline struct rd_pci *snap_pci(struct rd_snapshot *s, const char *bdf,
				      uint64_t ven, uint64_t dev,
				      const char *driver)
{
	struct rd_pci *p = RD_PUSH(s->pci, s->n_pci);

	assert_non_null(p);
	p->bdf = rd_strdup(bdf);
	p->vendor_id = rd_u64(ven);
	p->device_id = rd_u64(dev);
	p->driver = rd_strdup(driver);
	return p;
}

/* Run only the checks of one id (or area) and return the results. */
static inline void run_only(const struct rd_snapshot *s,
			    const struct rd_history *h, const char *only,
			    struct rd_results *res)
{
	struct rd_diag_opts o;

	rd_diag_opts_init(&o);
	o.only_area = only;
	assert_int_equal(rd_diag_run(s, h, &o, res), 0);
}

static inline const struct rd_result *
find_result(const struct rd_results *res, const char *check,
	    const char *device, uint64_t port)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *r = &res->v[i];

		if (strcmp(r->check_id, check) != 0)
			continue;
		if (device ? !r->device || strcmp(r->device, device) != 0 :
			     r->device != NULL)
			continue;
		if (r->port != port)
			continue;
		return r;
	}
	fail_msg("no %s result for %s/%u", check, device ? device : "host",
		 (unsigned)port);
	return NULL;
}

/* Expect a verdict and a cause for one target of one check. */
#define expect_verdict(res, check, dev, port, v, cause_)                    \
	do {                                                                 \
		const struct rd_result *r_ =                                 \
			find_result((res), (check), (dev), (port));          \
		if (r_->verdict != (v) || strcmp(r_->cause, (cause_)) != 0) \
			fail_msg("%s: got %s/%s (%s), want %s/%s", (check),  \
				 rd_verdict_name(r_->verdict), r_->cause,    \
				 r_->summary, rd_verdict_name(v), (cause_)); \
	} while (0)

/*
 * A fix-up is wholly its kind: the command a check shows is the one the
 * journal records for the change (the kind's own command, on the value
 * it sets from a first setting: PFC all off), and it is undoable exactly
 * when the kind can revert.
 */
static inline void fix_is_its_kind(const char *name, const struct rd_result *r)
{
	const struct rd_fixup *f = r->fix;
	const struct rd_fix_ops *k = rd_fix_ops_by_kind(f->kind);
	struct rd_fix_target t = { f->arg, f->arg2, f->ifindex };
	char after[RD_FIX_VALUE_MAX], cmd[512], why[256];

	if (!k)
		fail_msg("%s %s: fix kind %d has no ops", name, r->check_id,
			 (int)f->kind);
	if (f->undoable != k->revertible)
		fail_msg("%s %s: undoable %d but %s reverts: %d", name,
			 r->check_id, f->undoable, k->name, k->revertible);
	snprintf(after, sizeof(after), "%s", k->words ? k->words[0] : "");
	if (k->target_value &&
	    k->target_value(f, "0x00", after, sizeof(after)) < 0)
		fail_msg("%s %s: no value to set", name, r->check_id);
	if (k->check(&t, after, why, sizeof(why)) < 0)
		fail_msg("%s %s: %s refuses its own fix-up: %s", name,
			 r->check_id, k->name, why);
	rd_fix_change_command(k, &t, "0x00", after, cmd, sizeof(cmd));
	if (strcmp(cmd, f->command) != 0)
		fail_msg("%s %s: shows \"%s\", the journal would record \"%s\"",
			 name, r->check_id, f->command, cmd);
}

#endif
