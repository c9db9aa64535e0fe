// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a NIC shares out: SR-IOV virtual functions (enabled at all, each
 * with its RDMA device, an InfiniBand VF with a node GUID) and bonds of
 * its ports (a RoCE LAG: offloaded by the NIC in active-backup, balance-xor
 * or 802.3ad mode, each member up). Hosts without either get no result.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <string.h>

#include "core/virt.h"

#define SRC_SRIOV "sysfs sriov_totalvfs, sriov_numvfs, virtfnN"
#define SRC_VFINFO "rtnetlink IFLA_VFINFO_LIST of the PF (ip link show)"
#define SRC_ESW "devlink eswitch"
#define SRC_NETNS "RDMA and route netlink inside each network namespace"
#define SRC_BOND "sysfs /sys/class/net/<bond>/bonding"

static const char *pf_name(const struct rd_sriov *sv)
{
	return sv->pf_rdma_device ? sv->pf_rdma_device : sv->pf_bdf;
}

/* An InfiniBand VF whose node GUID was read as zero, or NULL. */
static const struct rd_device *ib_vf_zero_guid(const struct rd_snapshot *s,
					       const struct rd_vf *v)
{
	const struct rd_device *d =
		v->rdma_device ? rd_snapshot_device(s, v->rdma_device) : NULL;

	if (!d || !d->node_guid.ok || d->node_guid.v != 0)
		return NULL;
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].link_layer &&
		    !strcmp(d->ports[i].link_layer, "InfiniBand"))
			return d;
	return NULL;
}

/*
 * The VF's own RDMA port on this host: 1 ACTIVE, 0 read and not active,
 * -1 not seen (no RDMA device here: passed to a VM, or no driver), -2
 * its device here but its port state not read.
 */
static int vf_port_up(const struct rd_snapshot *s, const struct rd_vf *v)
{
	const struct rd_device *d =
		v->rdma_device ? rd_snapshot_device(s, v->rdma_device) : NULL;
	int up = d ? -2 : -1;

	for (size_t i = 0; d && i < d->n_ports; i++) {
		if (rd_port_active(&d->ports[i]))
			return 1;
		if (d->ports[i].state_num.ok)
			up = 0;
	}
	return up;
}

static void eswitch_evidence(struct diag_ctx *x, struct rd_result *r,
			     const struct rd_sriov *sv)
{
	const struct rd_devlink *dl =
		sv->pf_bdf ? rd_snapshot_devlink(x->s, sv->pf_bdf) : NULL;

	if (dl && dl->eswitch_mode)
		diag_ev(x, r, "eswitch mode", SRC_ESW, "%s%s", dl->eswitch_mode,
			strcmp(dl->eswitch_mode, "switchdev")
				? ""
				: " (VF traffic goes through representors; "
				  "ip link vf settings do not apply)");
	else if (dl && dl->eswitch_error)
		diag_ev(x, r, "eswitch mode", SRC_ESW, "not read: %s",
			dl->eswitch_error);
}

/* How an InfiniBand VF gets its GUIDs. */
static void guid_next(struct diag_ctx *x, struct rd_result *r,
		      const struct rd_sriov *sv, const struct rd_vf *v)
{
	diag_next(x, r,
		  "On the host: ip link set %s vf %" PRIu64
		  " node_guid <GUID> port_guid <GUID> (unique per VF), then "
		  "unbind and bind the VF's driver; or let the subnet "
		  "manager's virtualization assign them.",
		  rd_shquote_tmp(sv->pf_netdev ? sv->pf_netdev : "<PF netdev>"),
		  v->index.v);
}

void check_sriov_vfs(struct diag_ctx *x)
{
	const struct rd_snapshot *s = x->s;

	for (size_t i = 0; i < s->n_sriov; i++) {
		const struct rd_sriov *sv = &s->sriov[i];
		const struct rd_vf *zero = NULL, *nodev = NULL;
		const struct rd_vf *unset = NULL, *disabled = NULL;
		const struct rd_device *zd = NULL;
		struct rd_result *r;
		size_t vm = 0;

		if (!diag_wants(x, pf_name(sv), 0))
			continue;
		r = diag_new(x, pf_name(sv), 0, NULL);
		diag_why(x, r, "%s", x->c->why);
		if (!diag_have(x, r, sv->totalvfs.ok && sv->numvfs.ok,
			       "%s: SR-IOV counts not read", pf_name(sv)))
			continue;
		diag_ev(x, r, "VFs", SRC_SRIOV,
			"%" PRIu64 " enabled of %" PRIu64 " (PF %s)",
			sv->numvfs.v, sv->totalvfs.v, sv->pf_bdf);
		eswitch_evidence(x, r, sv);
		if (sv->numvfs.v && !sv->vfinfo_read.ok)
			diag_ev(x, r, "VF settings", SRC_VFINFO, "not read%s",
				sv->pf_netdev ? "" : ": the PF has no netdev");
		for (size_t k = 0; k < sv->n_vfs; k++) {
			const struct rd_vf *v = &sv->vfs[k];
			const struct rd_device *d = ib_vf_zero_guid(s, v);
			const struct rd_netns_dev *away =
				rd_netns_of_function(s, v->bdf);
			/* Exclusive mode, other namespaces not read: a VF
			 * with nothing here may be a pod's. */
			bool hidden = !away && !v->netdev && !v->rdma_device &&
				      v->driver &&
				      strcmp(v->driver, "vfio-pci") != 0 &&
				      rd_netns_unread(s);
			char set[256];

			rd_vf_settings(v, ", ", set, sizeof(set));
			diag_ev(x, r, "VF",
				*set ? SRC_SRIOV "; " SRC_VFINFO : SRC_SRIOV,
				"%" PRIu64 ": %s driver %s, netdev %s, RDMA %s"
				"%s%s",
				v->index.v,
				v->bdf ? v->bdf : "(no virtfn link)",
				v->driver ? v->driver : "none",
				v->netdev ? v->netdev : "none",
				v->rdma_device ? v->rdma_device : "none",
				*set ? "; " : "", set);
			if (d && !zero) {
				zero = v;
				zd = d;
			}
			if (!unset && rd_vf_guid_unset(v) &&
			    vf_port_up(s, v) != 1)
				unset = v;
			if (!disabled && v->link_state &&
			    !strcmp(v->link_state, "disable"))
				disabled = v;
			if (away) {
				char where[256];

				rd_netns_where(away, where, sizeof(where));
				diag_ev(x, r, "VF in netns", SRC_NETNS,
					"%" PRIu64 ": %s: %s%s%s%s", v->index.v,
					where, away->rdma_device ? "RDMA " : "",
					away->rdma_device ? away->rdma_device
							  : "",
					away->netdev ? " netdev " : "",
					away->netdev ? away->netdev : "");
			} else if (hidden) {
				diag_ev(x, r, "VF", SRC_NETNS,
					"%" PRIu64 ": neither netdev nor RDMA "
					"device in this network namespace; in "
					"exclusive mode it may be a pod's "
					"(%s)",
					v->index.v,
					s->host.netns_scan ? s->host.netns_scan
							   : "not done");
			}
			if (v->driver && !strcmp(v->driver, "vfio-pci"))
				vm++;
			else if (v->bdf && !v->rdma_device && !nodev &&
				 !(away && away->rdma_device) && !hidden)
				/* Without its function (no virtfn link) its
				 * RDMA device was not looked for. */
				nodev = v;
		}
		if (sv->totalvfs.v == 0) {
			diag_verdict(x, r, RD_PASS, "sriov_off",
				     "%s: SR-IOV off in the NIC's firmware "
				     "(sriov_totalvfs 0): no VF can be made",
				     pf_name(sv));
			diag_next(x, r,
				  "Only if VFs are wanted: enable "
				  "SR-IOV and the number of VFs in the "
				  "NIC's firmware (mlxconfig SRIOV_EN, "
				  "NUM_OF_VFS for ConnectX), then reset "
				  "the NIC.");
			continue;
		}
		if (zero) {
			diag_verdict(x, r, RD_FAIL, "vf_guid_zero",
				     "%s: VF %" PRIu64 " (%s, %s) has node "
				     "GUID 0: an InfiniBand VF's port stays "
				     "down until the PF gives it a GUID",
				     pf_name(sv), zero->index.v,
				     zero->bdf ? zero->bdf : "no virtfn link",
				     zd->name);
			guid_next(x, r, sv, zero);
			continue;
		}
		if (unset) {
			/* Zero is "no GUID set by the PF": the subnet
			 * manager may still give the VF one. */
			int up = vf_port_up(s, unset);
			bool down = up == 0, seen_unread = up == -2;

			diag_verdict(
				x, r, down ? RD_FAIL : RD_WARN, "vf_guid_unset",
				"%s: VF %" PRIu64 "%s%s%s has %s GUID 0 "
				"on the PF%s",
				pf_name(sv), unset->index.v,
				unset->bdf ? " (" : "",
				unset->bdf ? unset->bdf : "",
				unset->bdf ? ")" : "",
				unset->port_guid.ok && unset->port_guid.v == 0
					? "port"
					: "node",
				down ? " and its port is not ACTIVE: an "
				       "InfiniBand VF's port stays down "
				       "until it has a GUID"
				: seen_unread
					? ": its port stays down unless the "
					  "subnet manager assigns one (its "
					  "port state was not read)"
					: ": its port stays down unless the "
					  "subnet manager assigns one (this "
					  "host does not see the VF's port)");
			guid_next(x, r, sv, unset);
			continue;
		}
		if (disabled) {
			diag_verdict(x, r, RD_WARN, "vf_link_disabled",
				     "%s: VF %" PRIu64 "%s%s%s has link-state "
				     "disable: the PF holds its link down "
				     "whatever the wire does",
				     pf_name(sv), disabled->index.v,
				     disabled->bdf ? " (" : "",
				     disabled->bdf ? disabled->bdf : "",
				     disabled->bdf ? ")" : "");
			diag_next(x, r,
				  "If the VF should pass traffic: ip link set "
				  "%s vf %" PRIu64 " state auto",
				  rd_shquote_tmp(sv->pf_netdev ? sv->pf_netdev
							       : "<PF netdev>"),
				  disabled->index.v);
			continue;
		}
		if (nodev) {
			diag_verdict(x, r, RD_WARN, "vf_no_rdma",
				     "%s: VF %" PRIu64 " (%s) has no RDMA "
				     "device (driver %s): a job given this VF "
				     "cannot use RDMA",
				     pf_name(sv), nodev->index.v, nodev->bdf,
				     nodev->driver ? nodev->driver : "none");
			diag_next(x, r,
				  "Bind the VF to its NIC driver with the "
				  "RDMA module loaded (mlx5_core and "
				  "mlx5_ib), or pass it to a VM.");
			continue;
		}
		if (!diag_have(x, r, sv->n_vfs >= sv->numvfs.v,
			       "%s: %" PRIu64 " VFs enabled, %zu of them read "
			       "(a virtfn link unreadable)",
			       pf_name(sv), sv->numvfs.v, sv->n_vfs))
			continue;
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s: %" PRIu64 " of %" PRIu64 " VFs enabled%s",
			     pf_name(sv), sv->numvfs.v, sv->totalvfs.v,
			     vm ? ", some passed to VMs (vfio-pci)" : "");
	}
}

/* Modes mlx5 offloads as a RoCE LAG (bonding's numbers). */
static bool lag_mode(uint64_t m)
{
	return m == 1 || m == 2 || m == 4; /* active-backup, xor, 802.3ad */
}

void check_lag_state(struct diag_ctx *x)
{
	const struct rd_snapshot *s = x->s;

	for (size_t i = 0; i < s->n_bonds; i++) {
		const struct rd_bond *b = &s->bonds[i];
		const char *tgt = b->rdma_device ? b->rdma_device : b->name;
		const struct rd_bond_member *down = NULL, *up = NULL,
					    *unread = NULL;
		size_t rdma_members = 0, n_down = 0;
		struct rd_result *r;

		for (size_t k = 0; k < b->n_members; k++)
			rdma_members += b->members[k].rdma_device != NULL;
		/* A bond of NICs without RDMA is no RoCE matter. */
		if (!b->rdma_device && !rdma_members)
			continue;
		if (!diag_wants(x, tgt, 0))
			continue;
		r = diag_new(x, tgt, 0, b->name);
		diag_why(x, r, "%s", x->c->why);
		diag_ev(x, r, "bond", SRC_BOND, "%s: mode %s, hash %s%s%s",
			b->name, b->mode ? b->mode : "not read",
			b->hash_policy ? b->hash_policy : "not read",
			b->rdma_device ? ", RDMA device " : "",
			b->rdma_device ? b->rdma_device : "");
		for (size_t k = 0; k < b->n_members; k++) {
			const struct rd_bond_member *m = &b->members[k];

			diag_ev(x, r, "member", SRC_BOND, "%s %s%s", m->name,
				m->operstate ? m->operstate : "state not read",
				m->carrier.ok && !m->carrier.v ? ", no carrier"
							       : "");
			if (!m->operstate) {
				if (!unread)
					unread = m;
				continue;
			}
			if (rd_bond_member_up(m)) {
				if (!up)
					up = m;
			} else {
				n_down++;
				if (!down)
					down = m;
			}
		}
		if (b->lag_state)
			diag_ev(x, r, "mlx5 LAG",
				"debugfs mlx5/<bdf>/lag/state", "%s",
				b->lag_state);
		if (!diag_have(x, r, b->mode_num.ok && b->n_members > 0,
			       "%s: bond mode or members not read", b->name))
			continue;
		if (!lag_mode(b->mode_num.v)) {
			diag_verdict(x, r, RD_WARN, "lag_mode",
				     "%s: bond mode %s: no RoCE LAG offload, "
				     "RoCE runs on each port's own device, "
				     "not over the bond",
				     b->name, b->mode);
			diag_next(x, r,
				  "Use 802.3ad (with the switch's LACP), "
				  "active-backup or balance-xor for a "
				  "RoCE LAG.");
			continue;
		}
		if (!b->rdma_device) {
			diag_verdict(x, r, RD_WARN, "lag_inactive",
				     "%s (%s): no RDMA device on the bond: the "
				     "NIC's RoCE LAG is not active, RoCE runs "
				     "on each member's own device",
				     b->name, b->mode);
			diag_next(x, r,
				  "The LAG needs both ports of one NIC "
				  "(same firmware, no VFs in switchdev "
				  "conflict) in the bond before it is up; "
				  "the kernel log says why mlx5 did not "
				  "activate it.");
			continue;
		}
		if (n_down && (up || unread)) {
			if (up)
				diag_verdict(x, r, RD_WARN, "lag_degraded",
					     "LAG degraded: %s down, all RoCE "
					     "traffic of %s on %s",
					     down->name, b->rdma_device,
					     up->name);
			else
				diag_verdict(x, r, RD_WARN, "lag_degraded",
					     "LAG degraded: %s down; whether "
					     "%s carries the RoCE traffic of "
					     "%s was not read",
					     down->name, unread->name,
					     b->rdma_device);
			diag_next(x, r,
				  "Bring %s back (cable, module, switch "
				  "port); the LAG uses it again by itself.",
				  down->name);
			continue;
		}
		if (n_down) {
			diag_verdict(x, r, RD_FAIL, "lag_down",
				     "%s: every member of %s is down",
				     b->rdma_device, b->name);
			diag_next(x, r,
				  "See port.state of the members' ports.");
			continue;
		}
		if (!diag_have(x, r, !unread,
			       "%s: the state of member %s not read", b->name,
			       unread ? unread->name : ""))
			continue;
		diag_verdict(
			x, r, RD_PASS, "ok",
			"%s over %s (%s%s%s): %zu members up", b->rdma_device,
			b->name, b->mode, b->hash_policy ? ", " : "",
			b->hash_policy ? b->hash_policy : "", b->n_members);
	}
}

/*
 * Exclusive mode seen from here: each device lives in one namespace, and
 * those of the others were read from inside them (root).
 */
static void other_namespaces(struct diag_ctx *x, struct rd_result *r)
{
	const struct rd_host *h = &x->s->host;
	size_t rdma = 0;

	for (size_t i = 0; i < h->n_netns_devs; i++) {
		const struct rd_netns_dev *d = &h->netns_devs[i];
		char where[256];

		rdma += d->rdma_device != NULL;
		rd_netns_where(d, where, sizeof(where));
		diag_ev(x, r, "in netns", SRC_NETNS, "%s: %s%s%s%s%s%s%s",
			where, d->rdma_device ? "RDMA " : "",
			d->rdma_device ? d->rdma_device : "",
			d->rdma_device && d->netdev ? " on " : "",
			d->netdev ? "netdev " : "", d->netdev ? d->netdev : "",
			d->pci_bdf ? ", function " : "",
			d->pci_bdf ? d->pci_bdf : "");
	}
	if (!h->netns_scan || strcmp(h->netns_scan, "read")) {
		diag_ev(x, r, "other namespaces", SRC_NETNS, "not read: %s",
			h->netns_scan ? h->netns_scan : "no answer");
		diag_verdict(x, r, RD_PASS, "ok",
			     "netns exclusive: this namespace sees %zu RDMA "
			     "device%s; those moved to other namespaces (a "
			     "pod's) are not listed here",
			     x->s->n_devices, x->s->n_devices == 1 ? "" : "s");
		return;
	}
	diag_verdict(x, r, RD_PASS, "ok",
		     "netns exclusive: %zu RDMA device%s here, %zu in other "
		     "network namespaces",
		     x->s->n_devices, x->s->n_devices == 1 ? "" : "s", rdma);
}

/*
 * The RDMA subsystem's network namespace mode: in a container, shared
 * means every container on the host sees every RDMA device.
 */
void check_host_rdma_netns(struct diag_ctx *x, const struct diag_target *t,
			   struct rd_result *r)
{
	const struct rd_snapshot *s = x->s;
	const char *mode = s->host.rdma_netns_mode;
	bool shared;

	(void)t;
	if (!diag_have(x, r, mode != NULL,
		       "RDMA network namespace mode not read (RDMA netlink "
		       "system get)"))
		return;
	shared = strcmp(mode, "shared") == 0;
	diag_ev(x, r, "netns mode", "RDMA netlink RDMA_NLDEV_CMD_SYS_GET",
		"%s%s", mode,
		s->host.rdma_copy_on_fork.ok && s->host.rdma_copy_on_fork.v ?
			", copy-on-fork" :
			"");
	if (diag_in_container(s) && shared && s->n_devices > 1) {
		diag_verdict(x, r, RD_WARN, "netns_shared",
			     "netns shared: this %s container sees all %zu "
			     "RDMA devices of the host; isolation between "
			     "containers is off",
			     s->host.container, s->n_devices);
		diag_next(x, r, "On the host: rdma system set netns exclusive "
				"(while no other network namespace exists), "
				"and rdma-cni in the pod network to move each "
				"pod's device into it.");
		return;
	}
	if (diag_in_container(s)) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "netns %s: this %s container sees %zu RDMA "
			     "device%s",
			     mode, s->host.container, s->n_devices,
			     s->n_devices == 1 ? "" : "s");
		return;
	}
	if (shared) {
		diag_verdict(x, r, RD_PASS, "ok",
			     "netns shared: every RDMA device is visible in "
			     "every network namespace");
		return;
	}
	other_namespaces(x, r);
}
