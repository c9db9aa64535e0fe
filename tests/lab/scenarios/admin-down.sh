# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The port's netdev administratively down: DOWN / DISABLED.  Then up again:
# back to ACTIVE / LINK_UP.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

ip link set veth0 down
lab_wait_port rxe0 DOWN
lab_oracles down
lab_snapshot down
p=devices.rxe0.ports.1
assert_eq DISABLED "${ORA[rdma-link:rxe0/1.physical_state]}" "rdma link: physical state of a down netdev"
assert_same $p.state rdma-link:rxe0/1.state
assert_snap $p.state DOWN
assert_same $p.physical_state rdma-link:rxe0/1.physical_state
assert_snap $p.physical_state DISABLED
assert_snap netdevs.veth0.admin_up false
assert_snap netdevs.veth0.operstate "${ORA[ip-link:veth0.operstate],,}" "veth0 operstate (ip link, in lower case)"

ip link set veth0 up
lab_wait_port rxe0 ACTIVE
lab_oracles up
lab_snapshot up
assert_same $p.state rdma-link:rxe0/1.state
assert_snap $p.state ACTIVE
assert_snap $p.physical_state LINK_UP
assert_snap netdevs.veth0.admin_up true
