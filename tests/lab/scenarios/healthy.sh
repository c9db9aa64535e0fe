# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# A healthy Soft-RoCE port: rxe0 on veth0 (up, carrier, IPv4), ACTIVE.
# rdmadiag must agree with rdma, ibv_devinfo, sysfs and ip.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_oracles healthy
lab_snapshot healthy

p=devices.rxe0.ports.1
assert_snap devices.# 1 "one RDMA device"
assert_snap $p.port 1
assert_same $p.state rdma-link:rxe0/1.state
assert_snap $p.state ACTIVE
assert_same $p.physical_state rdma-link:rxe0/1.physical_state
assert_snap $p.physical_state LINK_UP
assert_same $p.netdev rdma-link:rxe0/1.netdev
assert_same $p.link_layer ibv_devinfo:link_layer
assert_same devices.rxe0.node_guid ibv_devinfo:node_guid
assert_same devices.rxe0.sys_image_guid ibv_devinfo:sys_image_guid
assert_snap devices.rxe0.fw_ver "$(cat /sys/class/infiniband/rxe0/fw_ver)" "fw_ver as sysfs has it"
rate=$(lab_sysfs_port rate)
assert_snap $p.rate_gbps "${rate%% *}" "rate_gbps (sysfs rate: $rate)"
assert_snap errors.# "${S[errors.#]-<absent>}" "errors[] present"

# GIDs: exactly the entries ibv_devinfo lists, spelt as sysfs spells them.
assert_snap $p.gids.# 2 "GIDs: link-local and IPv4"
for i in 0 1; do
	[ -n "${ORA[ibv_devinfo:GID.$i]+set}" ] || lab_fail "ibv_devinfo lists no GID $i"
	assert_snap $p.gids.$i.gid "$(lab_sysfs_port "gids/$i")" "GID $i"
	assert_snap $p.gids.$i.type "$(lab_sysfs_port "gid_attrs/types/$i")" "GID $i type"
	assert_snap $p.gids.$i.netdev "$(lab_sysfs_port "gid_attrs/ndevs/$i")" "GID $i netdev"
done
assert_snap $p.gids.1.gid 0000:0000:0000:0000:0000:ffff:c000:0201 "RoCE v2 GID of 192.0.2.1"
assert_snap $p.gids.1.type "RoCE v2"

# Counters on the idle port: the same names and values as rdma statistic.
assert_counters_agree rxe0 1

# The netdev as ip sees it, and the verbs view of the port.
assert_same netdevs.veth0.mtu ip-link:veth0.mtu
assert_snap netdevs.veth0.operstate "${ORA[ip-link:veth0.operstate],,}" "veth0 operstate (ip link, in lower case)"
assert_snap netdevs.veth0.admin_up true
assert_snap netdevs.veth0.carrier true
assert_same $p.verbs.active_mtu ibv_devinfo:active_mtu
