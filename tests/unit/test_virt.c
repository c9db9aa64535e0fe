// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SR-IOV virtual functions and bonds: bonding's sysfs values, the probe on
 * the hand-made fixture, and the sriov.vfs and lag.state verdicts.
 */
#include "config.h"
#include "probe_unit.h"

#include "core/virt.h"
#include "diag/diag.h"
#include "probes/netns.h"
#include "probes/virt.h"

static void test_parse_mode(void **state)
{
	char name[32];
	uint64_t n;

	(void)state;
	assert_int_equal(
		rd_bond_parse_mode("802.3ad 4", name, sizeof(name), &n), 0);
	assert_string_equal(name, "802.3ad");
	assert_int_equal(n, 4);
	assert_int_equal(
		rd_bond_parse_mode("active-backup 1", name, sizeof(name), &n),
		0);
	assert_string_equal(name, "active-backup");
	assert_int_equal(
		rd_bond_parse_mode("layer3+4 1", name, sizeof(name), &n), 0);
	assert_int_equal(rd_bond_parse_mode("802.3ad", name, sizeof(name), &n),
			 -EINVAL);
	assert_int_equal(
		rd_bond_parse_mode("802.3ad x", name, sizeof(name), &n),
		-EINVAL);
	assert_int_equal(rd_bond_parse_mode("weird 9", name, sizeof(name), &n),
			 -EINVAL);
}

static void take(struct rd_snapshot *s)
{
	char dir[PATH_MAX];
	struct rd_roots roots;

	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, unit_fixture("cx6dx-sriov-lag",
							     dir, sizeof(dir))),
			 0);
	assert_int_equal(rd_snapshot_take(&roots, NULL, 0, 0, s), 0);
}

static const struct rd_result *one(struct rd_results *res,
				   const struct rd_snapshot *s,
				   const char *check, const char *target)
{
	struct rd_diag_opts o;

	rd_diag_opts_init(&o);
	o.only_area = check;
	rd_results_free(res);
	assert_int_equal(rd_diag_run(s, NULL, &o, res), 0);
	for (size_t i = 0; i < res->n; i++)
		if (res->v[i].device && !strcmp(res->v[i].device, target))
			return &res->v[i];
	fail_msg("no %s result for %s", check, target);
	return NULL;
}

static void test_fixture(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	const struct rd_bond *b;

	(void)state;
	take(&s);
	assert_int_equal(s.n_sriov, 2);
	assert_string_equal(s.sriov[0].pf_bdf, "0000:3b:00.0");
	assert_int_equal(s.sriov[0].totalvfs.v, 8);
	assert_int_equal(s.sriov[0].n_vfs, 2);
	assert_string_equal(s.sriov[0].vfs[0].rdma_device, "mlx5_2");
	assert_string_equal(s.sriov[0].vfs[0].netdev, "ens1f0v0");
	assert_string_equal(s.sriov[0].vfs[1].driver, "vfio-pci");
	assert_null(s.sriov[0].vfs[1].rdma_device);
	assert_int_equal(s.sriov[1].totalvfs.v, 0);
	assert_int_equal(s.n_bonds, 1);
	b = &s.bonds[0];
	assert_string_equal(b->mode, "802.3ad");
	assert_string_equal(b->hash_policy, "layer3+4");
	assert_string_equal(b->rdma_device, "mlx5_bond_0");
	assert_int_equal(b->n_members, 2);
	assert_string_equal(b->members[1].operstate, "down");

	r = one(&res, &s, "lag.state", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "lag_degraded");
	assert_string_equal(r->summary, "LAG degraded: ens1f1np1 down, all "
					"RoCE traffic of mlx5_bond_0 on "
					"ens1f0np0");
	r = one(&res, &s, "sriov.vfs", "0000:3b:00.1");
	assert_int_equal(r->verdict, RD_PASS);
	assert_string_equal(r->cause, "sriov_off");

	/* The other member's state not read: down is still judged, the
	 * rest is not claimed; with no member down, UNKNOWN, not a PASS. */
	(void)rd_str_set(&s.bonds[0].members[0].operstate, NULL);
	r = one(&res, &s, "lag.state", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "lag_degraded");
	assert_string_equal(r->summary, "LAG degraded: ens1f1np1 down; whether "
					"ens1f0np0 carries the RoCE traffic "
					"of mlx5_bond_0 was not read");
	(void)rd_str_set(&s.bonds[0].members[1].operstate, "up");
	s.bonds[0].members[1].carrier = rd_bool(true);
	r = one(&res, &s, "lag.state", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(strstr(r->summary, "member ens1f0np0 not read"));
	(void)rd_str_set(&s.bonds[0].members[0].operstate, "up");

	/* Both members up; then a mode mlx5 does not offload. */
	(void)rd_str_set(&s.bonds[0].members[1].operstate, "up");
	s.bonds[0].members[1].carrier = rd_bool(true);
	assert_int_equal(one(&res, &s, "lag.state", "mlx5_bond_0")->verdict,
			 RD_PASS);
	s.bonds[0].mode_num = rd_u64(0);
	(void)rd_str_set(&s.bonds[0].mode, "balance-rr");
	r = one(&res, &s, "lag.state", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_WARN);
	assert_non_null(strstr(r->summary, "bond mode balance-rr: no RoCE LAG "
					   "offload"));
	/* 802.3ad again but no RDMA device on the bond: LAG not active. */
	s.bonds[0].mode_num = rd_u64(4);
	(void)rd_str_set(&s.bonds[0].rdma_device, NULL);
	(void)rd_str_set(&s.bonds[0].members[0].rdma_device, "mlx5_0");
	r = one(&res, &s, "lag.state", "bond0");
	assert_string_equal(r->cause, "lag_inactive");
	/* Every member down. */
	(void)rd_str_set(&s.bonds[0].rdma_device, "mlx5_bond_0");
	(void)rd_str_set(&s.bonds[0].members[0].operstate, "down");
	(void)rd_str_set(&s.bonds[0].members[1].operstate, "lowerlayerdown");
	assert_int_equal(one(&res, &s, "lag.state", "mlx5_bond_0")->verdict,
			 RD_FAIL);

	/* An InfiniBand VF with node GUID 0: its port stays down. */
	{
		struct rd_device *d = rd_snapshot_device(&s, "mlx5_2");

		assert_non_null(d);
		d->node_guid = rd_u64(0);
		(void)rd_str_set(&d->ports[0].link_layer, "InfiniBand");
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_int_equal(r->verdict, RD_FAIL);
		assert_string_equal(r->cause, "vf_guid_zero");
		assert_non_null(strstr(r->next_step,
				       "ip link set ens1f0np0 vf 0 node_guid"));
		/* A VF bound to its driver without an RDMA device. */
		d->node_guid = rd_u64(1);
		(void)rd_str_set(&s.sriov[0].vfs[0].rdma_device, NULL);
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_string_equal(r->cause, "vf_no_rdma");
		/* Counts not read: UNKNOWN. */
		s.sriov[0].numvfs.ok = false;
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_int_equal(r->verdict, RD_UNKNOWN);
	}
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static bool has_evidence(const struct rd_result *r, const char *what,
			 const char *part)
{
	for (size_t i = 0; i < r->n_evidence; i++)
		if (!strcmp(r->evidence[i].what, what) &&
		    strstr(r->evidence[i].value, part))
			return true;
	return false;
}

/* What the PF's driver holds for each VF, and the eswitch mode. */
static void test_vf_settings(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_sriov *sv;
	struct rd_devlink *dl;

	(void)state;
	take(&s);
	sv = &s.sriov[0];
	/* Read from files only: the VF lists were not read. */
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_PASS);
	assert_true(has_evidence(r, "VF settings", "not read"));

	/* VF 1 (vfio-pci) VLAN 100, trust on; eswitch legacy. */
	sv->vfinfo_read = rd_bool(true);
	sv->vfs[1].vlan = rd_u64(100);
	sv->vfs[1].qos = rd_u64(0);
	sv->vfs[1].trust = rd_bool(true);
	sv->vfs[1].spoofchk = rd_bool(true);
	(void)rd_str_set(&sv->vfs[1].link_state, "auto");
	(void)rd_str_set(&sv->vfs[1].mac, "02:00:00:00:00:01");
	dl = RD_PUSH(s.devlinks, s.n_devlinks);
	assert_non_null(dl);
	(void)rd_str_set(&dl->bus, "pci");
	(void)rd_str_set(&dl->dev, "0000:3b:00.0");
	(void)rd_str_set(&dl->eswitch_mode, "legacy");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_PASS);
	assert_true(has_evidence(r, "VF",
				 "MAC 02:00:00:00:00:01, VLAN 100, "
				 "spoof check on, trust on, "
				 "link-state auto"));
	assert_true(has_evidence(r, "eswitch mode", "legacy"));

	/* switchdev: said, not judged. */
	(void)rd_str_set(&dl->eswitch_mode, "switchdev");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_PASS);
	assert_true(has_evidence(r, "eswitch mode", "representors"));
	(void)rd_str_set(&dl->eswitch_mode, NULL);
	(void)rd_str_set(&dl->eswitch_error,
			 "reading the eswitch mode needs CAP_NET_ADMIN");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_true(has_evidence(r, "eswitch mode", "not read: reading"));

	/* link-state disable: the PF holds the VF's link down. */
	(void)rd_str_set(&sv->vfs[1].link_state, "disable");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "vf_link_disabled");
	assert_non_null(
		strstr(r->next_step, "ip link set ens1f0np0 vf 1 state auto"));

	/* An IB VF passed to a VM with port GUID 0 on the PF: the host
	 * cannot see its port, so a warning, not a failure. */
	sv->vfs[1].node_guid = rd_u64(0);
	sv->vfs[1].port_guid = rd_u64(0);
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_WARN);
	assert_string_equal(r->cause, "vf_guid_unset");
	assert_non_null(strstr(r->summary, "port GUID 0 on the PF"));
	assert_non_null(strstr(r->summary, "subnet manager"));

	/* The same on VF 0, whose own port this host reads: DOWN is a
	 * failure; ACTIVE means the subnet manager gave it one. */
	sv->vfs[1].node_guid = rd_u64(0x2244330033110033ull);
	sv->vfs[1].port_guid = rd_u64(0x1021331200112210ull);
	(void)rd_str_set(&sv->vfs[1].link_state, "auto");
	sv->vfs[0].node_guid = rd_u64(0);
	sv->vfs[0].port_guid = rd_u64(0);
	{
		struct rd_device *d = rd_snapshot_device(&s, "mlx5_2");

		assert_non_null(d);
		d->ports[0].state_num = rd_u64(RD_PORT_DOWN);
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_int_equal(r->verdict, RD_FAIL);
		assert_string_equal(r->cause, "vf_guid_unset");
		assert_non_null(strstr(r->next_step,
				       "ip link set ens1f0np0 vf 0 node_guid"));
		d->ports[0].state_num = rd_u64(RD_PORT_ACTIVE);
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_int_equal(r->verdict, RD_PASS);
		assert_true(
			has_evidence(r, "VF", "node GUID 0x0000000000000000"));
	}
	/* More VFs enabled than were read: not a PASS. */
	sv->numvfs = rd_u64(3);
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_UNKNOWN);
	assert_non_null(strstr(r->summary, "3 VFs enabled, 2 of them read"));
	/* A VF in the PF's VF list with no virtfn link: its function, and so
	 * its RDMA device, were not read; not a VF without RDMA. */
	{
		struct rd_vf *v = RD_PUSH(sv->vfs, sv->n_vfs);

		assert_non_null(v);
		v->index = rd_u64(2);
		(void)rd_str_set(&v->mac, "02:00:00:00:00:03");
		r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
		assert_int_equal(r->verdict, RD_PASS);
		assert_true(has_evidence(r, "VF", "2: (no virtfn link)"));
	}
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/*
 * RDMA netns mode exclusive: a VF given to a pod has neither netdev nor
 * RDMA device here. Not read (no root): said, not called broken. Read:
 * where it is, and host.rdma_netns counts the devices elsewhere.
 */
static void test_vf_in_pod(void **state)
{
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	const struct rd_result *r;
	struct rd_netns_dev *d;

	(void)state;
	take(&s);
	(void)rd_str_set(&s.host.rdma_netns_mode, "exclusive");
	(void)rd_str_set(&s.sriov[0].vfs[0].netdev, NULL);
	(void)rd_str_set(&s.sriov[0].vfs[0].rdma_device, NULL);
	(void)rd_str_set(&s.host.netns_scan,
			 "reading other network namespaces needs "
			 "CAP_SYS_ADMIN");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_PASS);
	assert_true(has_evidence(r, "VF",
				 "may be a pod's (reading other "
				 "network namespaces needs "
				 "CAP_SYS_ADMIN)"));
	/* Shared mode: nothing is hidden, so no RDMA device is a finding. */
	(void)rd_str_set(&s.host.rdma_netns_mode, "shared");
	assert_string_equal(one(&res, &s, "sriov.vfs", "mlx5_bond_0")->cause,
			    "vf_no_rdma");

	(void)rd_str_set(&s.host.rdma_netns_mode, "exclusive");
	(void)rd_str_set(&s.host.netns_scan, "read");
	d = RD_PUSH(s.host.netns_devs, s.host.n_netns_devs);
	assert_non_null(d);
	(void)rd_str_set(&d->netns, "pid 4242");
	(void)rd_str_set(&d->owner,
			 "pause, pod 0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b");
	(void)rd_str_set(&d->rdma_device, "mlx5_7");
	(void)rd_str_set(&d->netdev, "net1");
	(void)rd_str_set(&d->pci_bdf, "0000:3b:00.2");
	r = one(&res, &s, "sriov.vfs", "mlx5_bond_0");
	assert_int_equal(r->verdict, RD_PASS);
	assert_true(
		has_evidence(r, "VF in netns",
			     "0: pid 4242 (pause, pod 0b9a8f1e-5c3d-4e2f-"
			     "9a1b-2c3d4e5f6a7b): RDMA mlx5_7 netdev net1"));
	{
		struct rd_diag_opts o;

		rd_diag_opts_init(&o);
		o.only_area = "host.rdma_netns";
		rd_results_free(&res);
		assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
		assert_int_equal(res.n, 1);
		r = &res.v[0];
	}
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "in other network namespaces"));
	assert_non_null(strstr(r->summary, ", 1 in other"));
	assert_true(has_evidence(r, "in netns",
				 "RDMA mlx5_7 on netdev net1, function "
				 "0000:3b:00.2"));
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* Both cgroup drivers' spellings of a pod's UID (kubelet: cgroupfs uses
 * "pod<uid>", systemd "-pod<uid with _>.slice"). */
static void test_pod_of_cgroup(void **state)
{
	char pod[40];

	(void)state;
	rd_netns_pod_of_cgroup("0::/kubepods/burstable/"
			       "pod0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b/"
			       "3f1c2d\n",
			       pod, sizeof(pod));
	assert_string_equal(pod, "0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b");
	rd_netns_pod_of_cgroup("0::/kubepods.slice/kubepods-besteffort.slice/"
			       "kubepods-besteffort-pod0b9a8f1e_5c3d_4e2f_9a1b_"
			       "2c3d4e5f6a7b.slice/cri-containerd-ab.scope\n",
			       pod, sizeof(pod));
	assert_string_equal(pod, "0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b");
	rd_netns_pod_of_cgroup("0::/user.slice/user-0.slice/session-1.scope\n",
			       pod, sizeof(pod));
	assert_string_equal(pod, "");
	/* "pod" followed by something that is not a UID. */
	rd_netns_pod_of_cgroup("0::/system.slice/podman.service\n", pod,
			       sizeof(pod));
	assert_string_equal(pod, "");
	rd_netns_pod_of_cgroup("0::/kubepods/pod0b9a", pod, 4);
	assert_string_equal(pod, "");
}

/* Which physical function, VF and bond a device or netdev belongs to. */
static void test_lookups(void **state)
{
	struct rd_snapshot s;
	const struct rd_sriov *pf = NULL;
	const struct rd_vf *vf;
	const struct rd_bond *b;
	struct rd_bond_member m = { 0 };

	(void)state;
	take(&s);
	assert_non_null(rd_sriov_of_pf(&s, "mlx5_bond_0"));
	assert_string_equal(rd_sriov_of_pf(&s, "mlx5_bond_0")->pf_bdf,
			    "0000:3b:00.0");
	assert_null(rd_sriov_of_pf(&s, "mlx5_2"));
	assert_null(rd_sriov_of_pf(&s, NULL));
	vf = rd_vf_of_device(&s, "mlx5_2", &pf);
	assert_non_null(vf);
	assert_string_equal(vf->bdf, "0000:3b:00.2");
	assert_string_equal(pf->pf_bdf, "0000:3b:00.0");
	assert_null(rd_vf_of_device(&s, "mlx5_bond_0", &pf));
	assert_null(pf);
	b = rd_bond_of(&s, "mlx5_bond_0", NULL);
	assert_non_null(b);
	assert_string_equal(b->name, "bond0");
	assert_ptr_equal(rd_bond_of(&s, NULL, "ens1f1np1"), b);
	assert_ptr_equal(rd_bond_of(&s, NULL, "bond0"), b);
	assert_null(rd_bond_of(&s, "mlx5_2", "ens1f0v0"));
	assert_null(rd_bond_of(&s, NULL, NULL));
	assert_true(rd_bond_member_up(&b->members[0]));
	assert_false(rd_bond_member_up(&b->members[1]));
	{
		size_t unread = 9;

		assert_int_equal(rd_bond_members_up(b, &unread), 1);
		assert_int_equal(unread, 0);
	}
	/* Up with its carrier not read: up; its state not read: not up. */
	m.operstate = (char *)"up";
	assert_true(rd_bond_member_up(&m));
	m.carrier = (struct rd_obool){ .ok = true, .v = false };
	assert_false(rd_bond_member_up(&m));
	m.operstate = NULL;
	m.carrier.ok = false;
	assert_false(rd_bond_member_up(&m));
	rd_snapshot_free(&s);
}

static void test_none(void **state)
{
	char dir[PATH_MAX];
	struct rd_roots roots;
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;

	(void)state;
	rd_roots_init(&roots);
	assert_int_equal(rd_roots_under(&roots, unit_fixture("rxe0-healthy",
							     dir, sizeof(dir))),
			 0);
	assert_int_equal(rd_snapshot_take(&roots, NULL, 0, 0, &s), 0);
	assert_int_equal(s.n_sriov, 0);
	assert_int_equal(s.n_bonds, 0);
	rd_diag_opts_init(&o);
	o.only_area = "lag";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	assert_int_equal(res.n, 0);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_mode),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_vf_settings),
		cmocka_unit_test(test_vf_in_pod),
		cmocka_unit_test(test_pod_of_cgroup),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
