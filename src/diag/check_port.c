// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port checks: the port-DOWN decision tree (CHECKS.md A) and what makes an
 * ACTIVE port unusable (GID, MTU, rate, P_Key).
 */
#include "config.h"
#include "core/escape.h"
#include "diag/diag_int.h"

#include "core/virt.h"
#include "diag/data.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

#define SYS_IB "/sys/class/infiniband"

static void ev_state(struct diag_ctx *x, struct rd_result *r,
		     const struct rd_device *d, const struct rd_port *p)
{
	char path[512];

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%" PRIu64 "/state",
		 d->name, p->port);
	if (p->state_num.ok)
		diag_ev(x, r, "port state", path, "%" PRIu64 ": %s",
			p->state_num.v, rd_port_state_name(p->state_num.v));
	else
		diag_ev(x, r, "port state", path, "not read");
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%" PRIu64 "/phys_state",
		 d->name, p->port);
	if (p->phys_state_num.ok)
		diag_ev(x, r, "physical state", path, "%" PRIu64 ": %s",
			p->phys_state_num.v,
			rd_port_phys_state_label(p->phys_state_num.v));
}

static const struct rd_netdev *pick_rxe_netdev(const struct rd_snapshot *s)
{
	const struct rd_netdev *best = NULL;

	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *n = &s->netdevs[i];
		bool v4 = false;

		if (!n->name || strcmp(n->name, "lo") == 0 ||
		    (n->kind && strcmp(n->kind, "loopback") == 0))
			continue;
		if (!n->admin_up.ok || !n->admin_up.v)
			continue;
		for (size_t j = 0; j < n->n_addrs; j++)
			if (n->addrs[j].family &&
			    strcmp(n->addrs[j].family, "inet") == 0)
				v4 = true;
		if (v4)
			return n;
		if (!best)
			best = n;
	}
	return best;
}

/*
 * RDMA netns mode exclusive: a device lives only in the namespace it was
 * moved to. When other namespaces were read and hold RDMA devices, that
 * is the answer; otherwise the mode is said and the tree goes on.
 */
static bool no_device_netns(struct diag_ctx *x, struct rd_result *r)
{
	const struct rd_host *h = &x->s->host;
	const struct rd_netns_dev *first = NULL;
	char first_where[256];
	size_t n = 0;

	if (!h->rdma_netns_mode || strcmp(h->rdma_netns_mode, "exclusive"))
		return false;
	diag_ev(x, r, "netns mode", "RDMA netlink RDMA_NLDEV_CMD_SYS_GET",
		"exclusive: a device is seen only in its own network "
		"namespace");
	for (size_t i = 0; i < h->n_netns_devs; i++) {
		const struct rd_netns_dev *d = &h->netns_devs[i];
		char where[256];

		if (!d->rdma_device)
			continue;
		rd_netns_where(d, where, sizeof(where));
		diag_ev(x, r, "in netns", "RDMA netlink inside the namespace",
			"%s: %s", where, d->rdma_device);
		if (!first)
			first = d;
		n++;
	}
	if (!first) {
		if (h->netns_scan && strcmp(h->netns_scan, "read"))
			diag_ev(x, r, "other namespaces",
				"RDMA netlink inside each namespace",
				"not read: %s", h->netns_scan);
		return false;
	}
	rd_netns_where(first, first_where, sizeof(first_where));
	diag_step(x, r, RD_FAIL,
		  "RDMA devices live in other network namespaces: %zu", n);
	diag_verdict(x, r, RD_FAIL, "no_device",
		     "no RDMA device in this network namespace: netns mode "
		     "exclusive, and %s is in the namespace of %s",
		     first->rdma_device, first_where);
	diag_next(x, r,
		  "Run where the device is (ip netns exec NAME, or nsenter "
		  "--net=/proc/PID/ns/net), or move it here: rdma dev set %s "
		  "netns NAME (its driver must support moving; Soft-RoCE "
		  "does not). The mode is the host's: rdma system show.",
		  rd_shquote_tmp(first->rdma_device));
	r->no_fix = "moving a device between namespaces takes it from "
		    "whatever uses it there";
	return true;
}

/* Step 1: no RDMA device at all. */
static void tree_no_device(struct diag_ctx *x)
{
	const struct rd_snapshot *s = x->s;
	struct rd_result *r = diag_new(x, NULL, 0, NULL);
	enum diag_mod core = diag_module(s, "ib_core");
	enum diag_mod uverbs = diag_module(s, "ib_uverbs");
	const struct rd_pci *nic = NULL;
	const struct rd_netdev *n;

	diag_step(x, r, RD_FAIL, "RDMA devices in %s: none", SYS_IB);
	diag_ev(x, r, "RDMA devices", SYS_IB, "none");
	diag_why(x, r,
		 "Without an RDMA device no verbs program can run: ibv_devinfo "
		 "says \"No IB devices found\".");
	/*
	 * Inside a container the modules and NICs are the host's: the first
	 * question is what the container was given, and see host.container.
	 */
	if (diag_in_container(s)) {
		diag_ev(x, r, "container", "/proc/1/cgroup, /.dockerenv",
			"%s", s->host.container);
		diag_step(x, r, RD_FAIL,
			  "inside a %s container: no RDMA device passed in",
			  s->host.container);
		diag_verdict(x, r, RD_FAIL, "no_device",
			     "no RDMA device inside this %s container",
			     s->host.container);
		diag_next(x, r,
			  "pass /dev/infiniband and the netdev into the "
			  "container; check on the host (see host.container)");
		r->no_fix = "inside a container: modules, sysctls and links "
			    "are the host's; fix them on the host";
		return;
	}
	if (no_device_netns(x, r))
		return;
	/* A NIC whose RDMA half is not loaded (mlx5_core without mlx5_ib). */
	for (size_t i = 0; i < s->n_pci; i++) {
		const struct rd_pci *p = &s->pci[i];
		const char *ib = diag_rdma_module_of(p->driver);

		if (!ib)
			continue;
		diag_ev(x, r, "PCI function", "libpci", "%s driver %s",
			p->bdf ? p->bdf : "?", p->driver);
		if (diag_module(s, ib) != DIAG_MOD_ABSENT) {
			if (!nic)
				nic = p;
			continue;
		}
		diag_ev(x, r, "module", "/sys/module", "%s not loaded", ib);
		diag_step(x, r, RD_FAIL, "%s drives %s but %s is not loaded",
			  p->driver, p->bdf ? p->bdf : "a NIC", ib);
		diag_verdict(x, r, RD_FAIL, "module_missing",
			     "no RDMA device: %s is bound to %s but %s is not loaded",
			     p->driver, p->bdf ? p->bdf : "a NIC", ib);
		diag_next(x, r,
			  "load %s, then check dmesg for \"mlx5_ib\"/firmware errors",
			  ib);
		diag_fix(x, r, RD_FIX_MODPROBE, ib, false, false,
			 "loads the RDMA driver; nothing stops", "modprobe %s",
			 rd_shquote_tmp(ib));
		return;
	}
	if (core == DIAG_MOD_ABSENT || uverbs == DIAG_MOD_ABSENT) {
		const char *m = uverbs == DIAG_MOD_ABSENT ? "ib_uverbs" :
							    "ib_core";

		diag_ev(x, r, "module", "/sys/module/", "%s not loaded", m);
		diag_step(x, r, RD_FAIL, "%s is not loaded", m);
		diag_verdict(x, r, RD_FAIL, "module_missing",
			     "no RDMA device: %s is not loaded", m);
		diag_next(x, r, "load ib_uverbs (it pulls in ib_core)");
		diag_fix(x, r, RD_FIX_MODPROBE, "ib_uverbs", false, false,
			 "loads the RDMA core", "modprobe ib_uverbs");
		return;
	}
	/* An RDMA NIC on the bus with its RDMA driver there (or not
	 * known): the NIC made no device; Soft-RoCE is not the answer. */
	if (nic) {
		const char *ib = diag_rdma_module_of(nic->driver);
		bool loaded = diag_module(s, ib) == DIAG_MOD_LOADED;

		diag_step(x, r, RD_FAIL, "%s (%s) made no RDMA device",
			  nic->bdf ? nic->bdf : "an RDMA NIC", nic->driver);
		diag_verdict(x, r, RD_FAIL, "no_device",
			     "no RDMA device: NIC %s (%s) is on the bus and "
			     "%s %s, but it made no RDMA device",
			     nic->bdf ? nic->bdf : "?", nic->driver, ib,
			     loaded ? "is loaded"
				    : "was not read as loaded or not");
		diag_next(x, r,
			  "read dmesg for %s's errors while probing %s "
			  "(firmware, a failed reset, RoCE disabled in the "
			  "NIC's firmware)%s",
			  ib, nic->bdf ? nic->bdf : "the NIC",
			  loaded ? "" : "; check that it is loaded (lsmod)");
		return;
	}
	n = pick_rxe_netdev(s);
	if (diag_module(s, "rdma_rxe") != DIAG_MOD_ABSENT && n) {
		diag_step(x, r, RD_FAIL,
			  "no hardware RDMA NIC found; Soft-RoCE can run on %s",
			  n->name);
		diag_verdict(x, r, RD_FAIL, "no_device",
			     "no RDMA device: no RDMA NIC and no Soft-RoCE link");
		diag_next(x, r,
			  "for hardware, check lspci and the vendor module; for "
			  "testing, add a Soft-RoCE link on %s",
			  n->name);
		struct rd_fixup *f = diag_fix(
			x, r, RD_FIX_RXE_ADD, "rxe0", false, true,
			"creates a Soft-RoCE device; existing traffic is not touched",
			"rdma link add rxe0 type rxe netdev %s",
			rd_shquote_tmp(n->name));
		if (f && !(f->arg2 = strdup(n->name)))
			x->err = -ENOMEM;
		return;
	}
	if (diag_module(s, "rdma_rxe") == DIAG_MOD_LOADED && !n) {
		/* Without netdev data the interface to name is not known. */
		diag_step(x, r, RD_UNKNOWN,
			  "rdma_rxe loaded, but no netdev data to pick an interface");
		diag_verdict(x, r, RD_FAIL, "no_device",
			     "no RDMA device: rdma_rxe is loaded but no Soft-RoCE link exists");
		diag_next(x, r,
			  "add a link on the interface to use: rdma link add rxe0 type rxe netdev IFACE");
		return;
	}
	if (core == DIAG_MOD_UNKNOWN)
		diag_step(x, r, RD_UNKNOWN, "module state not read");
	diag_verdict(x, r, RD_FAIL, "no_device",
		     "no RDMA device found");
	diag_next(x, r,
		  "check that an RDMA NIC is present (lspci) and its RDMA "
		  "module is loaded; dmesg shows probe errors");
}


/*
 * The NIC's own link-down reason (ethtool LINKSTATE ext_state/substate)
 * through data/link_ext_state.tsv: its summary and the next step that
 * fits it. False when the NIC gave no reason or the table lacks it.
 */
static bool link_down_reason(struct diag_ctx *x, struct rd_result *r,
			     const char *tgt, const char *ndname,
			     const struct rd_netdev *n)
{
	const struct rd_link_ext *e;
	char next[512];
	size_t off = 0;

	if (!n || !n->ethtool.ext_state_num.ok)
		return false;
	e = rd_link_ext_find(rd_data_link_ext(),
			     (unsigned)n->ethtool.ext_state_num.v,
			     n->ethtool.ext_substate_num.ok ?
				     (unsigned)n->ethtool.ext_substate_num.v : 0);
	if (!e)
		return false;
	diag_verdict(x, r, RD_FAIL, "no_carrier", "%s DOWN: %s has no carrier: %s",
		     tgt, ndname, e->summary);
	/* DEV in the table stands for the netdev, quoted for a shell. */
	for (const char *p = e->next_step; *p && off < sizeof(next) - 1;) {
		if (strncmp(p, "DEV", 3) == 0) {
			off += (size_t)snprintf(next + off, sizeof(next) - off,
						"%s", rd_shquote_tmp(ndname));
			p += 3;
		} else {
			next[off++] = *p++;
		}
	}
	next[off < sizeof(next) ? off : sizeof(next) - 1] = '\0';
	diag_next(x, r, "%s", next);
	return true;
}

static void tree_eth(struct diag_ctx *x, struct rd_result *r,
		     const struct diag_target *t)
{
	const struct rd_port *p = t->p;
	const char *tgt = t->name;
	const char *ndname = t->netdev;
	const struct rd_netdev *n = t->n;
	bool have_ph = p->phys_state_num.ok;
	uint64_t ph = p->phys_state_num.v;
	bool admin_known = n && n->admin_up.ok;
	bool carrier_known = n && n->carrier.ok;

	if (!ndname) {
		/*
		 * The port's state was read and it is not ACTIVE: a FAIL.
		 * Only the cause waits for the netdev's admin state and
		 * carrier, which need its name.
		 */
		diag_step(x, r, RD_UNKNOWN,
			  "RoCE port: netdev behind the port not read (no gid_attrs/ndevs, no netlink); "
			  "its admin state and carrier would settle the cause");
		diag_verdict(x, r, RD_FAIL, "port_down",
			     "%s %s%s%s: cause not known: netdev behind the port not read",
			     tgt, rd_port_state_name(p->state_num.v),
			     have_ph ? "/" : "",
			     have_ph ? rd_port_phys_state_label(ph) : "");
		diag_next(x, r,
			  "find the port's netdev (rdma link show %s), then "
			  "whether it is up with carrier (ip link show DEV)",
			  rd_shquote_tmp(tgt));
		return;
	}
	if (!r->netdev && !(r->netdev = strdup(ndname)))
		x->err = -ENOMEM;
	diag_step(x, r, RD_PASS, "RoCE port: netdev %s", ndname);
	if (admin_known)
		diag_ev(x, r, "netdev admin state", "rtnetlink IFF_UP", "%s %s",
			ndname, n->admin_up.v ? "up" : "down");
	if ((admin_known && !n->admin_up.v) ||
	    (!admin_known && have_ph && ph == RD_PHYS_DISABLED)) {
		if (!admin_known) {
			/*
			 * The netdev's flags were not read, and RoCE drivers
			 * (mlx5, bnxt_re) report Disabled for an up netdev
			 * without carrier too: say both, change nothing on a
			 * guess.
			 */
			diag_step(x, r, RD_FAIL,
				  "phys_state Disabled: %s is administratively "
				  "down, or up without carrier; its state was "
				  "not read",
				  ndname);
			diag_verdict(x, r, RD_FAIL, "admin_down",
				     "%s DOWN/Disabled: %s is administratively "
				     "down, or up without carrier (mlx5 reports "
				     "both as Disabled); its state was not read",
				     tgt, ndname);
			diag_why(x, r,
				 "A RoCE port follows its netdev: the port is "
				 "DOWN/Disabled when the netdev is down, and "
				 "on mlx5 also when it is up with no carrier.");
			diag_next(x, r,
				  "check whether %s is up (ip link show %s); "
				  "if it is down, bring it up, else check the carrier",
				  ndname, rd_shquote_tmp(ndname));
			return;
		}
		diag_step(x, r, RD_FAIL, "%s is administratively down", ndname);
		diag_verdict(x, r, RD_FAIL, "admin_down",
			     "%s DOWN: %s is administratively down", tgt,
			     ndname);
		diag_why(x, r,
			 "A RoCE port follows its netdev: with the netdev down "
			 "the port is DOWN/Disabled.");
		diag_next(x, r, "bring %s up, then recheck the carrier", ndname);
		diag_fix(x, r, RD_FIX_LINK_UP, ndname, false, true,
			 "brings the interface up; addresses and routes on it become active",
			 "ip link set dev %s up", rd_shquote_tmp(ndname));
		return;
	}
	if (admin_known)
		diag_step(x, r, RD_PASS, "%s is administratively up", ndname);
	if (carrier_known)
		diag_ev(x, r, "carrier", "/sys/class/net/<netdev>/carrier (rtnetlink)",
			"%s %s", ndname, n->carrier.v ? "yes" : "no");
	if (n && n->operstate)
		diag_ev(x, r, "operstate", "rtnetlink IFLA_OPERSTATE", "%s",
			n->operstate);
	if ((carrier_known && !n->carrier.v) ||
	    (!carrier_known && have_ph && ph == RD_PHYS_POLLING)) {
		const char *reason = n ? n->ethtool.ext_state : NULL;

		if (n && n->ethtool.link_detected.ok)
			diag_ev(x, r, "link detected", "ethtool netlink LINKSTATE",
				"%s", n->ethtool.link_detected.v ? "yes" : "no");
		if (reason)
			diag_ev(x, r, "link down reason",
				"ethtool netlink LINKSTATE ext_state", "%s%s%s",
				reason, n->ethtool.ext_substate ? " / " : "",
				n->ethtool.ext_substate ?
					n->ethtool.ext_substate : "");
		if (n && n->ethtool.link_down_events.ok)
			diag_ev(x, r, "link_down_events_phy",
				"ethtool netlink LINKSTATE", "%" PRIu64,
				n->ethtool.link_down_events.v);
		diag_step(x, r, RD_FAIL, "%s is up but has no carrier", ndname);
		diag_why(x, r,
			 "The netdev is up but sees no link partner, so the "
			 "port stays DOWN/Polling.");
		/* The module, its light and FEC say more than the reason. */
		if (diag_phy_down_cause(x, r, t))
			return;
		if (link_down_reason(x, r, tgt, ndname, n))
			return;
		diag_verdict(x, r, RD_FAIL, "no_carrier",
			     "%s DOWN: %s has no carrier%s%s (cable, module or switch port)",
			     tgt, ndname, reason ? ": " : "",
			     reason ? reason : "");
		diag_next(x, r,
			  "check the cable and transceiver (ethtool -m %s), the "
			  "peer or switch port state, and autonegotiation/speed "
			  "on both ends",
			  rd_shquote_tmp(ndname));
		return;
	}
	/* Up with carrier is the claim below: both must have been read. */
	if (!carrier_known) {
		const char *what =
			admin_known ? "carrier" : "admin state and carrier";

		diag_step(x, r, RD_UNKNOWN,
			  "%s %s not read; they would settle the cause", ndname,
			  what);
		diag_verdict(x, r, RD_FAIL, "port_down",
			     "%s %s%s%s: cause not known: %s of %s not read",
			     tgt, rd_port_state_name(p->state_num.v),
			     have_ph ? "/" : "",
			     have_ph ? rd_port_phys_state_label(ph) : "", what,
			     ndname);
		diag_next(x, r, "check whether %s is up with carrier (ip link show %s)",
			  ndname, rd_shquote_tmp(ndname));
		return;
	}
	diag_step(x, r, RD_FAIL, "%s is up with carrier, port still %s", ndname,
		  rd_port_state_name(p->state_num.v));
	diag_verdict(x, r, RD_FAIL, "port_not_active",
		     "%s %s although %s is up with carrier", tgt,
		     rd_port_state_name(p->state_num.v), ndname);
	diag_next(x, r,
		  "check dmesg for the RDMA driver, and whether the port was "
		  "just reset (state changes within seconds)");
}

/* 0 and 0xffff are no LID: the SM has not assigned one. */
static bool lid_unassigned(const struct rd_port *p)
{
	return p->lid.ok && (p->lid.v == 0 || p->lid.v == 0xffff);
}

static bool sm_answers(const struct rd_port *p)
{
	return p->sm_lid.ok && p->sm_lid.v != 0 && p->sm_lid.v != 0xffff;
}

/*
 * A virtual function: by its device id (PCI, vendor_part_id, hca_type),
 * or, with no id read, because its node GUID is not of its system image
 * (the PF's) at all: another OUI in the top 24 bits. A second PF of a
 * dual-port card differs from the system image GUID in its low bits only.
 */
static bool ib_port_vf(struct diag_ctx *x, struct rd_result *r,
		       const struct rd_device *d)
{
	uint64_t ven, dev;
	bool by_id = diag_device_is_vf(x->s, d);
	bool id_known = diag_device_pci_id(x->s, d, &ven, &dev) != DIAG_ID_NONE;
	bool differ = d->node_guid.ok && d->sys_image_guid.ok &&
		      d->node_guid.v != d->sys_image_guid.v;
	bool by_guid = differ && !id_known &&
		       (d->node_guid.v >> 40) != (d->sys_image_guid.v >> 40);

	if (d->node_guid.ok)
		diag_ev(x, r, "node GUID", SYS_IB "/<dev>/node_guid",
			"0x%016" PRIx64, d->node_guid.v);
	if (d->sys_image_guid.ok)
		diag_ev(x, r, "system image GUID", SYS_IB "/<dev>/sys_image_guid",
			"0x%016" PRIx64 "%s", d->sys_image_guid.v,
			differ ? " (not the node GUID)" : "");
	if (by_id)
		diag_step(x, r, RD_PASS,
			  "virtual function (device 0x%04" PRIx64 "%s)", dev,
			  differ ? "; its system image GUID is the PF's" : "");
	else if (by_guid)
		diag_step(x, r, RD_PASS,
			  "virtual function (its node GUID is not of its system "
			  "image: another OUI; device id not read)");
	return by_id || by_guid;
}

/*
 * A VF's port that the SM sees but does not configure: its GUIDs are set
 * on the PF, and the SM must manage virtual ports.
 */
static void ib_vf_unconfigured(struct diag_ctx *x, struct rd_result *r,
			       const struct rd_port *p, const char *tgt,
			       uint64_t st)
{
	diag_step(x, r, RD_FAIL,
		  "the SM (LID 0x%" PRIx64 ") answers but assigned no LID "
		  "(0x%" PRIx64 ") to this virtual function",
		  p->sm_lid.v, p->lid.v);
	diag_verdict(x, r, RD_FAIL, "vf_not_configured",
		     "%s %s: a virtual function with its link up; the subnet "
		     "manager (LID 0x%" PRIx64 ") answers but assigned it no LID",
		     tgt, rd_port_state_name(st), p->sm_lid.v);
	diag_why(x, r,
		 "An InfiniBand VF's port comes up only when its PF gives it "
		 "a node and port GUID and the subnet manager manages "
		 "virtual ports; without either the SM leaves it without a "
		 "LID and DOWN.");
	diag_next(x, r,
		  "on the host, give the VF unique GUIDs through its PF: ip "
		  "link set dev PF vf N node_guid GUID port_guid GUID, set its "
		  "policy to Follow or Up (echo Follow > "
		  "/sys/class/infiniband/PFDEV/device/sriov/N/policy) and "
		  "rebind the VF's driver; run the SM with virtualization "
		  "enabled (opensm: virt_enabled 2, or UFM)");
}

static void tree_ib(struct diag_ctx *x, struct rd_result *r,
		    const struct diag_target *t)
{
	const struct rd_port *p = t->p;
	const char *tgt = t->name;
	uint64_t st = p->state_num.v, ph = p->phys_state_num.v;
	bool vf;

	if (!p->phys_state_num.ok) {
		diag_step(x, r, RD_UNKNOWN, "physical state not read");
		diag_verdict(x, r, RD_FAIL, "port_down", "%s %s (physical state not read)",
			     tgt, rd_port_state_name(st));
		return;
	}
	if (p->sm_lid.ok)
		diag_ev(x, r, "SM LID", SYS_IB "/<dev>/ports/<n>/sm_lid",
			"0x%" PRIx64 "%s", p->sm_lid.v,
			sm_answers(p) ? "" : " (none)");
	if (p->lid.ok)
		diag_ev(x, r, "LID", SYS_IB "/<dev>/ports/<n>/lid",
			"0x%" PRIx64 "%s", p->lid.v,
			lid_unassigned(p) ? " (none assigned)" : "");
	vf = ib_port_vf(x, r, t->d);
	if (ph == RD_PHYS_LINK_UP && sm_answers(p) && lid_unassigned(p) && vf) {
		ib_vf_unconfigured(x, r, p, tgt, st);
		return;
	}
	if ((st == RD_PORT_INIT || st == RD_PORT_ARMED) &&
	    ph == RD_PHYS_LINK_UP) {
		bool no_sm = st == RD_PORT_INIT && !sm_answers(p);

		if (!p->sm_lid.ok) {
			diag_verdict(x, r, RD_FAIL, "not_activated",
				     "%s %s: link is up but the port is not "
				     "ACTIVE; its SM LID was not read, so "
				     "whether a subnet manager answers is not "
				     "known",
				     tgt, rd_port_state_name(st));
			diag_next(x, r,
				  "run sminfo on this host: no answer means "
				  "no subnet manager reaches the port (start "
				  "opensm or the switch's SM)");
			return;
		}
		diag_step(x, r, RD_FAIL, "%s with LinkUp: %s",
			  rd_port_state_name(st),
			  no_sm ? "no subnet manager configured the port" :
				  "the subnet manager has not activated the port");
		if (no_sm) {
			diag_verdict(x, r, RD_FAIL, "no_sm",
				     "%s %s: link is up but no subnet manager has configured it%s",
				     tgt, rd_port_state_name(st),
				     p->sm_lid.ok ? " (SM LID 0)" : "");
			diag_next(x, r,
				  "start or reach an SM (opensm on a host or the switch's "
				  "SM), then watch the port go ACTIVE");
		} else {
			diag_verdict(x, r, RD_FAIL, "sm_not_activating",
				     "%s %s: link is up and the subnet manager (LID 0x%" PRIx64
				     ") is reachable but has not activated it",
				     tgt, rd_port_state_name(st), p->sm_lid.v);
			diag_next(x, r,
				  "the SM knows this port but does not configure it: read "
				  "the SM's log for this port's GUID (a sweep error, a "
				  "partition or a topology it refuses); sminfo and "
				  "ibportstate show what it answers");
		}
		diag_why(x, r,
			 "An InfiniBand port needs a subnet manager to assign "
			 "its LID and move it to ACTIVE.");
		return;
	}
	static const struct {
		uint64_t ph;
		const char *cause, *text, *next;
	} rules[] = {
		{ RD_PHYS_POLLING, "no_carrier", "no cable or the peer is down",
		  "check the cable and that the switch or peer port is "
		  "enabled" },
		{ RD_PHYS_DISABLED, "port_disabled",
		  "the port is administratively disabled",
		  "enable it (ibportstate PORT enable, or the switch side)" },
		{ RD_PHYS_SLEEP, "port_sleep", "the port is asleep",
		  "check the driver and firmware (dmesg), then reset the "
		  "port" },
		{ RD_PHYS_ERROR_RECOVERY, "link_error_recovery",
		  "the link keeps failing training (cable or signal integrity)",
		  "replace or reseat the cable; check symbol_error and "
		  "link_downed" },
		{ RD_PHYS_TRAINING, "link_training",
		  "the link is still training",
		  "wait a few seconds; if it persists, check speed settings on "
		  "both ends" },
		{ RD_PHYS_PHY_TEST, "phy_test", "the port is in PHY test mode",
		  "reset the port" },
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rules[i].ph != ph)
			continue;
		diag_step(x, r, RD_FAIL, "%s/%s: %s", rd_port_state_name(st),
			  rd_port_phys_state_label(ph), rules[i].text);
		diag_verdict(x, r, RD_FAIL, rules[i].cause, "%s %s: %s", tgt,
			     rd_port_state_name(st), rules[i].text);
		diag_next(x, r, "%s", rules[i].next);
		return;
	}
	diag_step(x, r, RD_FAIL, "%s/%s", rd_port_state_name(st),
		  rd_port_phys_state_label(ph));
	diag_verdict(x, r, RD_FAIL, "port_down", "%s %s (physical %s)", tgt,
		     rd_port_state_name(st), rd_port_phys_state_label(ph));
	diag_next(x, r, "check dmesg for the driver and the peer port");
}

enum rd_verdict rd_diag_port_state(const struct rd_port *p)
{
	if (!p->state_num.ok)
		return RD_UNKNOWN;
	return rd_port_active(p) ? RD_PASS : RD_FAIL;
}

void check_port_state_one(struct diag_ctx *x, const struct diag_target *t,
			  struct rd_result *r)
{
	const struct rd_device *d = t->d;
	const struct rd_port *p = t->p;
	enum rd_verdict v = rd_diag_port_state(p);

	diag_step(x, r, RD_PASS, "RDMA device %s present", d->name);
	ev_state(x, r, d, p);
	if (p->link_layer)
		diag_ev(x, r, "link layer", NULL, "%s", p->link_layer);
	if (v == RD_UNKNOWN) {
		diag_step(x, r, RD_UNKNOWN, "port state not read");
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: port state not readable", t->name);
	} else if (v == RD_PASS) {
		diag_step(x, r, RD_PASS, "port %s",
			  rd_port_state_name(p->state_num.v));
		diag_step(x, r, RD_PASS,
			  "usable? see port.rocev2_gid, port.mtu, port.rate, "
			  "hw.pcie_link");
		diag_verdict(x, r, RD_PASS, "ok", "%s %s%s%s", t->name,
			     rd_port_state_name(p->state_num.v),
			     p->rate_text ? ", " : "",
			     p->rate_text ? p->rate_text : "");
	} else {
		diag_step(x, r, RD_FAIL, "port %s",
			  rd_port_state_name(p->state_num.v));
		/* A netdev makes it RoCE when the link layer was not read. */
		if (rd_port_is_eth(p) || (!p->link_layer && t->netdev))
			tree_eth(x, r, t);
		else if (p->link_layer)
			tree_ib(x, r, t);
		else
			diag_verdict(x, r, RD_FAIL, "port_down",
				     "%s %s: cause not known: its link layer "
				     "and netdev were not read",
				     t->name,
				     rd_port_state_name(p->state_num.v));
		diag_kmsg_port_evidence(x, r, t);
	}
}

/* With no RDMA device at all, the tree starts one step earlier. */
void check_port_state(struct diag_ctx *x)
{
	if (x->s->n_devices > 0)
		diag_walk(x);
	else if (!x->o->device)
		tree_no_device(x);
}

static bool gid_is_v4(const struct rd_gid *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					 0xff, 0xff };

	return g->raw_ok && memcmp(g->raw, pfx, 12) == 0;
}

static bool gid_is_v6_global(const struct rd_gid *g)
{
	static const uint8_t zero[16];

	return g->raw_ok && !gid_is_v4(g) && memcmp(g->raw, zero, 16) != 0 &&
	       !(g->raw[0] == 0xfe && (g->raw[1] & 0xc0) == 0x80);
}

static bool gid_usable(const struct rd_gid *g)
{
	static const uint8_t zero[16];

	return g->raw_ok && memcmp(g->raw, zero, 16) != 0;
}

static bool gid_is_v2(const struct rd_gid *g)
{
	return g->type && strstr(g->type, "v2") != NULL;
}

void check_port_rocev2_gid(struct diag_ctx *x, const struct diag_target *t,
			   struct rd_result *r)
{
	const struct rd_port *p = t->p;
	const char *tgt = t->name;
	const struct rd_netdev *n = t->n;
	bool v4addr = false, typed = false, v6 = false;
	const struct rd_gid *found = NULL;
	size_t usable = 0, zeros = 0;
	char gbuf[64];

	for (size_t k = 0; k < p->n_gids; k++) {
		const struct rd_gid *g = &p->gids[k];

		/* An all-zero entry is an empty slot (a saved table keeps them). */
		if (!gid_usable(g)) {
			zeros += g->raw_ok;
			continue;
		}
		usable++;
		if (g->type)
			typed = true;
		if (gid_is_v4(g) && gid_is_v2(g) && !found)
			found = g;
		if (gid_is_v6_global(g) && gid_is_v2(g))
			v6 = true;
	}
	for (size_t k = 0; n && k < n->n_addrs; k++)
		if (n->addrs[k].family &&
		    strcmp(n->addrs[k].family, "inet") == 0) {
			v4addr = true;
			diag_ev(x, r, "IPv4 address", "rtnetlink RTM_GETADDR",
				"%s/%" PRIu64,
				n->addrs[k].address ? n->addrs[k].address : "?",
				n->addrs[k].prefixlen.v);
		}
	if (zeros)
		diag_ev(x, r, "GID entries", SYS_IB "/<dev>/ports/<n>/gids",
			"%zu, %zu of them all-zero (empty slots)", p->n_gids,
			zeros);
	else
		diag_ev(x, r, "GID entries", SYS_IB "/<dev>/ports/<n>/gids",
			"%zu", p->n_gids);
	if (found) {
		rd_format_gid(found->raw, gbuf, sizeof(gbuf));
		diag_ev(x, r, "RoCE v2 IPv4 GID",
			SYS_IB "/<dev>/ports/<n>/gids + gid_attrs/types",
			"index %" PRIu64 " %s", found->index, gbuf);
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s has a RoCE v2 IPv4 GID at index %" PRIu64, tgt,
			     found->index);
		diag_next(x, r, "use -x %" PRIu64 " with perftest on this host",
			  found->index);
		return;
	}
	/* Without the port's state only a GID found settles it. */
	if (!diag_have(x, r, p->state_num.ok,
		       "%s: port state not read and no RoCE v2 IPv4 GID in its "
		       "table: see port.state", tgt))
		return;
	if (!diag_have(x, r, p->n_gids > 0, "%s: GID table not read", tgt))
		return;
	if (!diag_have(x, r, usable > 0 || zeros == p->n_gids,
		       "%s: GID values not read", tgt))
		return;
	if (usable == 0) {
		bool pod = diag_in_container(x->s);

		diag_verdict(x, r, RD_FAIL, "no_usable_gid",
			     "%s: no usable GID%s (all %zu GID entries are zero)",
			     tgt,
			     pod ? ": the pod's network namespace holds no "
				   "netdev of this device (macvlan/SR-IOV CNI, "
				   "not the default CNI)" : "",
			     p->n_gids);
		if (pod)
			diag_next(x, r,
				  "attach the pod to this device's network "
				  "with a macvlan or SR-IOV CNI (a secondary "
				  "network on the NIC), not only the default "
				  "CNI; then its address makes the GID");
		else
			diag_next(x, r,
				  "give %s an address (GIDs follow the "
				  "netdev's addresses), and check that it is "
				  "up",
				  r->netdev ? r->netdev : "the port's netdev");
		return;
	}
	if (!diag_have(x, r, typed, "%s: GID types not readable", tgt))
		return;
	if (n && n->n_addrs == 0 && !n->admin_up.ok) {
		diag_verdict(x, r, RD_UNKNOWN, "no_data",
			     "%s: no RoCE v2 IPv4 GID; no netlink data for %s",
			     tgt, r->netdev);
		return;
	}
	if (!n) {
		diag_verdict(x, r, v6 ? RD_WARN : RD_FAIL, "no_ipv4_rocev2_gid",
			     "%s has no RoCE v2 IPv4 GID (netdev not read)",
			     tgt);
		return;
	}
	if (v4addr) {
		diag_verdict(x, r, v6 ? RD_WARN : RD_FAIL, "no_ipv4_rocev2_gid",
			     "%s: %s has IPv4 but no RoCE v2 IPv4 GID", tgt,
			     r->netdev);
		diag_next(x, r,
			  "check gid_attrs/types and that the address is on %s itself (not a bond/VLAN above it)",
			  r->netdev);
	} else if (n->addrs_read.ok && n->addrs_read.v) {
		diag_ev(x, r, "IPv4 addresses", "rtnetlink RTM_GETADDR",
			"none on %s", r->netdev);
		diag_verdict(x, r, v6 ? RD_WARN : RD_FAIL, "no_ipv4_rocev2_gid",
			     "%s: %s has no IPv4 address, so no RoCE v2 IPv4 GID",
			     tgt, r->netdev);
		diag_next(x, r,
			  "add an IPv4 address to %s (ip addr add ADDR/LEN dev %s)",
			  r->netdev, rd_shquote_tmp(r->netdev));
	} else {
		/* Files alone, or a list cut short: no claim on addresses. */
		bool cut = n->addrs_read.ok;

		diag_ev(x, r, "IPv4 addresses", "rtnetlink RTM_GETADDR", "%s",
			cut ? "not all read" : "not read");
		diag_verdict(x, r, v6 ? RD_WARN : RD_FAIL, "no_ipv4_rocev2_gid",
			     "%s: no RoCE v2 IPv4 GID in the GID table (%s of %s %s read)",
			     tgt, cut ? "not every address" : "the addresses",
			     r->netdev, cut ? "was" : "were not");
		diag_next(x, r,
			  "look at the IPv4 addresses of %s on the host (ip -4 addr show dev %s): "
			  "with none, add one; with one, check gid_attrs/types",
			  r->netdev, rd_shquote_tmp(r->netdev));
	}
}

/* The largest IB MTU that fits the netdev MTU minus the RoCE headers. */
uint64_t diag_roce_mtu(uint64_t netdev_mtu)
{
	/* GRH/IPv4+UDP+BTH+largest extension+ICRC, as the kernel reserves. */
	const uint64_t overhead = 40 + 8 + 12 + 28 + 4 + 4;
	uint64_t m = netdev_mtu > overhead ? netdev_mtu - overhead : 0;

	for (uint64_t ib = 4096; ib >= 256; ib /= 2)
		if (m >= ib)
			return ib;
	return 0;
}

/* The evidence both MTU checks start from. */
static void ev_mtu(struct diag_ctx *x, struct rd_result *r,
		   const struct rd_verbs_port *v)
{
	if (v->active_mtu.ok)
		diag_ev(x, r, "active_mtu", "ibv_query_port", "%" PRIu64,
			v->active_mtu.v);
	if (v->max_mtu.ok)
		diag_ev(x, r, "max_mtu", "ibv_query_port", "%" PRIu64,
			v->max_mtu.v);
}

void check_port_ib_mtu(struct diag_ctx *x, const struct diag_target *t,
		       struct rd_result *r)
{
	const struct rd_verbs_port *v = &t->p->verbs;
	uint64_t cap = v->max_mtu.ok ? v->max_mtu.v : 4096;

	ev_mtu(x, r, v);
	if (!diag_have(x, r, v->active_mtu.ok,
		       "%s: active MTU not read (no verbs data)", t->name))
		return;
	if (v->active_mtu.v < cap) {
		diag_verdict(x, r, RD_WARN, "mtu_low",
			     "%s: active MTU %" PRIu64 " below the port's %" PRIu64,
			     t->name, v->active_mtu.v, cap);
		diag_next(x, r,
			  "the subnet manager or partition limits the MTU; check opensm's partition mtu");
	} else {
		diag_verdict(x, r, RD_PASS, "ok", "%s: MTU %" PRIu64, t->name,
			     v->active_mtu.v);
	}
}

void check_port_mtu(struct diag_ctx *x, const struct diag_target *t,
		    struct rd_result *r)
{
	const char *tgt = t->name;
	const struct rd_netdev *n = t->n;
	const struct rd_verbs_port *v = &t->p->verbs;
	uint64_t cap = v->max_mtu.ok ? v->max_mtu.v : 4096;
	uint64_t act, fit = 0;

	ev_mtu(x, r, v);
	if (n && n->mtu.ok) {
		fit = diag_roce_mtu(n->mtu.v);
		diag_ev(x, r, "netdev MTU", "rtnetlink IFLA_MTU", "%s %" PRIu64,
			r->netdev, n->mtu.v);
	}
	if (!diag_have(x, r, fit || v->active_mtu.ok,
		       "%s: neither active MTU nor netdev MTU read", tgt))
		return;
	act = v->active_mtu.ok ? v->active_mtu.v : fit;
	if (!v->active_mtu.ok)
		diag_ev(x, r, "RoCE MTU", "computed from the netdev MTU",
			"%" PRIu64, fit);
	if (act >= cap || act >= 4096) {
		diag_verdict(x, r, RD_PASS, "ok", "%s: RoCE MTU %" PRIu64, tgt,
			     act);
		return;
	}
	if (fit && fit > act) {
		diag_verdict(x, r, RD_WARN, "mtu_mismatch",
			     "%s: active MTU %" PRIu64 " below the %" PRIu64 " the netdev allows",
			     tgt, act, fit);
		diag_next(x, r,
			  "the port has not picked up the netdev MTU; "
			  "bounce the netdev or reload the driver");
		return;
	}
	diag_verdict(x, r, RD_WARN, "mtu_low",
		     "%s: RoCE MTU %" PRIu64 " (%s MTU %s); 4096 needs a netdev MTU of 4200 or more",
		     tgt, act, r->netdev ? r->netdev : "netdev",
		     n && n->mtu.ok ? "too low" : "unknown");
	if (!n || !n->mtu.ok)
		return;
	uint64_t want = 9000;

	if (n->max_mtu.ok && n->max_mtu.v < want)
		want = n->max_mtu.v;
	if (diag_roce_mtu(want) < 4096) {
		diag_next(x, r,
			  "%s cannot carry 4096-byte RoCE frames (max MTU %" PRIu64 ")",
			  r->netdev, n->max_mtu.v);
		return;
	}
	diag_next(x, r,
		  "raise the MTU of %s and of every switch port and peer on "
		  "the path to %" PRIu64,
		  r->netdev, want);
	struct rd_fixup *f = diag_fix(
		x, r, RD_FIX_LINK_MTU, r->netdev, true, true,
		"peers and switch ports must carry the same MTU; some NICs flap the link",
		"ip link set dev %s mtu %" PRIu64, rd_shquote_tmp(r->netdev),
		want);

	if (f)
		f->value = want;
}

/* ibv_query_port's active_width as the sysfs rate names it. */
static const char *ib_width_name(const struct rd_verbs_port *v)
{
	switch (v->active_width.ok ? v->active_width.v : 0) {
	case 1: return "1X";
	case 2: return "4X";
	case 4: return "8X";
	case 8: return "12X";
	case 16: return "2X";
	default: return NULL;
	}
}

void check_port_rate(struct diag_ctx *x, const struct diag_target *t,
		     struct rd_result *r)
{
	const struct rd_port *p = t->p;
	const char *tgt = t->name;
	const struct rd_netdev *n = t->n;

	if (!diag_have(x, r, p->rate_gbps.ok, "%s: rate not read", tgt))
		return;
	if (p->rate_text && *p->rate_text)
		diag_ev(x, r, "port rate", SYS_IB "/<dev>/ports/<n>/rate",
			"%s", p->rate_text);
	else
		diag_ev(x, r, "port rate", SYS_IB "/<dev>/ports/<n>/rate",
			"%.0f Gb/s", p->rate_gbps.v);
	if (!rd_port_is_eth(p)) {
		const char *width = p->width && *p->width ? p->width :
				    ib_width_name(&p->verbs);

		/* The width is what is judged: a rate alone cannot tell 1X. */
		if (!diag_have(x, r, width != NULL,
			       "%s: rate %.0f Gb/s; link width not read, so a "
			       "link trained narrow cannot be told",
			       tgt, p->rate_gbps.v))
			return;
		if (strcmp(width, "1X") == 0) {
			diag_verdict(x, r, RD_WARN, "width_degraded",
				     "%s trained at 1X width (%.0f Gb/s)", tgt,
				     p->rate_gbps.v);
			diag_next(x, r,
				  "a 4X cable trained at 1X: reseat or replace it");
		} else {
			diag_verdict(x, r, RD_PASS, "ok",
				     "%s %.0f Gb/s at %s width", tgt,
				     p->rate_gbps.v, width);
		}
		return;
	}
	if (!diag_have(x, r, n && n->ethtool.speed_mbps.ok,
		       "%s: link speed of %s not read (ethtool)", tgt,
		       r->netdev ? r->netdev : "netdev"))
		return;
	diag_ev(x, r, "link speed", "ethtool netlink LINKMODES", "%" PRIu64 " Mb/s",
		n->ethtool.speed_mbps.v);
	if (p->rate_gbps.v * 1000.0 * 2 < (double)n->ethtool.speed_mbps.v) {
		diag_verdict(x, r, RD_WARN, "rate_low",
			     "%s rate %.0f Gb/s is far below the %" PRIu64 " Mb/s link",
			     tgt, p->rate_gbps.v, n->ethtool.speed_mbps.v);
		diag_next(x, r,
			  "the RDMA port did not pick up the link speed; check the driver");
	} else {
		diag_verdict(x, r, RD_PASS, "ok", "%s rate %.0f Gb/s", tgt,
			     p->rate_gbps.v);
	}
}

void check_port_pkey(struct diag_ctx *x, const struct diag_target *t,
		     struct rd_result *r)
{
	const struct rd_port *p = t->p;
	const char *tgt = t->name;

	if (!diag_have(x, r, p->pkey0.ok, "%s: P_Key table not read", tgt))
		return;
	diag_ev(x, r, "pkeys/0", SYS_IB "/<dev>/ports/<n>/pkeys/0",
		"0x%04" PRIx64, p->pkey0.v);
	if (p->pkey0.v == 0xffff)
		diag_verdict(x, r, RD_PASS, "ok",
			     "%s P_Key 0xffff (default, full member)", tgt);
	else if (p->pkey0.v == 0x7fff)
		diag_verdict(x, r, RD_WARN, "pkey_limited",
			     "%s P_Key 0x7fff: limited member of the default partition",
			     tgt);
	else
		diag_verdict(x, r, RD_WARN, "pkey_nondefault",
			     "%s P_Key[0] 0x%04" PRIx64 " is not the default 0xffff",
			     tgt, p->pkey0.v);
}
