# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# No Soft-RoCE: nothing RDMA loaded, then the core without rdma_rxe, then
# rdma_rxe loaded, used and unloaded again.  rdmadiag must still print a
# valid snapshot with an empty device list.

lab_net_up
[ ! -e /sys/module/ib_core ] || lab_fail "ib_core is loaded before the scenario loaded anything"
lab_snapshot bare
assert_snap devices.# 0 "no devices without ib_core"

modprobe ib_uverbs
lab_oracles core
lab_snapshot core
assert_eq "0" "${ORA[rdma-link:#]}" "rdma link lists nothing without rdma_rxe"
assert_snap devices.# 0 "no devices with ib_core but without rdma_rxe"

lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_snapshot loaded
assert_snap devices.# 1 "rxe0 appears once rdma_rxe is loaded"

rdma link delete rxe0
modprobe -r rdma_rxe
[ ! -e /sys/module/rdma_rxe ] || lab_fail "rdma_rxe did not unload"
lab_oracles unloaded
lab_snapshot unloaded
assert_eq "0" "${ORA[rdma-link:#]}" "rdma link lists nothing after unloading rdma_rxe"
assert_snap devices.# 0 "no devices after unloading rdma_rxe"
