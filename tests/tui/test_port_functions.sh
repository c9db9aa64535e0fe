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

# What the PF's driver holds for each VF (rtnetlink, not in a file tree)
# and the eswitch mode (devlink), added to the tree's snapshot: VF 1 with
# the settings of VF 3 of sriov-cni issue 291 (VLAN 3000, trust on), held
# down with link-state disable; VF 0 on InfiniBand with GUIDs as set in
# the iproute2 patch of 2019-11-18.
SNAP="$TUI_TMP/vfinfo.json"
"$RDMADIAG_BIN" snapshot --json \
	--root "$RDMADIAG_SRCDIR/tests/fixtures/cx6dx-sriov-lag" |
	jq '.sriov[0].vfinfo_read = true
	| .sriov[0].vfs[1] += {mac: "00:00:00:00:00:00", vlan: 3000, qos: 0,
		spoofchk: false, trust: true, link_state: "disable",
		min_tx_rate_mbps: 0, max_tx_rate_mbps: 0}
	| .sriov[0].vfs[0] += {vlan: 0, qos: 0, spoofchk: false, trust: false,
		link_state: "auto", node_guid: "2244:3300:3311:0033",
		port_guid: "1021:3312:0011:2210"}
	| .devlink = [{bus: "pci", dev: "0000:3b:00.0",
		eswitch_mode: "legacy"}]' > "$SNAP" || {
	echo "FAIL: could not build the snapshot with VF lists"; exit 1; }
tui_start vfi 100 60 --replay "$SNAP"
wait_for vfi "Overview"
keys vfi Down p
wait_for vfi "mlx5_bond_0 port 1"
wait_for vfi "eswitch mode legacy"
wait_for vfi "MAC 00:00:00:00:00:00  VLAN 3000  spoof check off  trust on  link-state disable"
wait_for vfi "node GUID 0x2244330033110033  port GUID 0x1021331200112210  trust off  link-state auto"
keys vfi q
wait_exit vfi 0

# RDMA netns mode exclusive: VF 0 given to a pod, read from inside its
# namespace; this host sees neither its netdev nor its RDMA device.
jq '.host.rdma_netns_mode = "exclusive" | .host.netns_scan = "read"
	| .sriov[0].vfs[0].netdev = null | .sriov[0].vfs[0].rdma_device = null
	| .devices |= map(select(.name != "mlx5_2"))
	| .host.netns_devices = [{netns: "pid 4242",
		owner: "pause, pod 0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b",
		rdma_device: "mlx5_7", netdev: "net1",
		pci_bdf: "0000:3b:00.2"}]' "$SNAP" > "$TUI_TMP/pod.json" || {
	echo "FAIL: could not build the snapshot with a VF in a pod"; exit 1; }
tui_start pod 140 60 --replay "$TUI_TMP/pod.json"
wait_for pod "Overview"
keys pod p
wait_for pod "mlx5_bond_0 port 1"
wait_for pod "vf0   0000:3b:00.2  mlx5_core  in netns pid 4242 (pause, pod 0b9a8f1e-5c3d-4e2f-9a1b-2c3d4e5f6a7b): netdev net1  RDMA mlx5_7"
keys pod q
wait_exit pod 0

tui_summary
