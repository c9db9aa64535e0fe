#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Functions and bonds, on the bonded dual-port NIC with SR-IOV. The Port
# screen: a VF's device names the function it belongs to; the RoCE LAG
# device lists its physical function's VFs (one passed to a VM) and its
# bond with the member that is down. The Overview at 80x24: one line each.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

tui_start fn 100 60 --root "$RDMADIAG_SRCDIR/tests/fixtures/cx6dx-sriov-lag"
wait_for fn "Overview"
keys fn p
wait_for fn "mlx5_2 port 1"
wait_for fn "Functions and bonds"
wait_for fn "a virtual function of 0000:3b:00.0 (RDMA mlx5_bond_0, netdev ens1f0np0)"
absent fn "SR-IOV on"
keys fn '>'
wait_for fn "mlx5_bond_0 port 1"
wait_for fn "SR-IOV on 0000:3b:00.0: 2 of 8 VFs enabled"
wait_for fn "vf0   0000:3b:00.2  mlx5_core  netdev ens1f0v0     RDMA mlx5_2"
wait_for fn "vf1   0000:3b:00.3  vfio-pci (passed to a VM)"
wait_for fn "bond bond0: 802.3ad, hash layer3+4, 1 of 2 members up, RoCE LAG device mlx5_bond_0"
wait_for fn "member ens1f1np1      down  carrier off"
absent fn "a virtual function of"
keys fn q
wait_exit fn 0

tui_start ov 80 24 --root "$RDMADIAG_SRCDIR/tests/fixtures/cx6dx-sriov-lag"
wait_for ov "mlx5_2 port 1"
wait_for ov "virtual function of 0000:3b:00.0"
keys ov Down
wait_for ov "mlx5_bond_0 port 1"
wait_for ov "SR-IOV 2 of 8 VFs  bond bond0 802.3ad: 1 of 2 members up"
keys ov q
wait_exit ov 0

tui_summary
