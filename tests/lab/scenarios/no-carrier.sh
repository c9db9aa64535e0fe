# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The netdev is up but has no carrier (its veth peer is down): DOWN / POLLING.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

ip link set veth1 down
lab_wait_port rxe0 DOWN
lab_oracles nocarrier
lab_snapshot nocarrier
p=devices.rxe0.ports.1
assert_eq POLLING "${ORA[rdma-link:rxe0/1.physical_state]}" "rdma link: physical state without carrier"
assert_same $p.state rdma-link:rxe0/1.state
assert_snap $p.state DOWN
assert_same $p.physical_state rdma-link:rxe0/1.physical_state
assert_snap $p.physical_state POLLING
assert_snap netdevs.veth0.admin_up true
assert_snap netdevs.veth0.carrier false
assert_snap netdevs.veth0.operstate "${ORA[ip-link:veth0.operstate],,}" "veth0 operstate (ip link, in lower case)"
