# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The RoCE active MTU follows the netdev MTU: 1500 gives 1024, 9000 gives
# 4096 (the largest IB MTU that fits).  Changed live on an ACTIVE port.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
p=devices.rxe0.ports.1

for step in 9000:4096 1500:1024; do
	mtu=${step%:*} ib_mtu=${step#*:}
	ip link set veth1 mtu "$mtu"
	ip link set veth0 mtu "$mtu"
	lab_wait_port rxe0 ACTIVE
	lab_oracles "mtu$mtu"
	lab_snapshot "mtu$mtu"
	assert_eq "$ib_mtu" "${ORA[ibv_devinfo:active_mtu]}" "ibv_devinfo active_mtu at netdev mtu $mtu"
	assert_same $p.verbs.active_mtu ibv_devinfo:active_mtu "rdmadiag active_mtu at netdev mtu $mtu"
	assert_same netdevs.veth0.mtu ip-link:veth0.mtu "rdmadiag netdev mtu"
	assert_snap netdevs.veth0.mtu "$mtu"
done
