#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The container line: inside a pod, what this process can reach (the
# container, the RDMA netns mode, the /dev/infiniband nodes, memlock and
# CAP_IPC_LOCK), coloured by the host checks that judge it. On the pod of
# k8s-rdma-shared-dev-plugin issue 72 (a device, the nodes not recorded);
# then the same pod given no device and a memlock of 64 KiB: the panel
# takes the empty Overview with the worst of those checks.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

POD="$RDMADIAG_SRCDIR/tests/fixtures/real-roce-pod-zero-gid/snapshot.json"
tui_start pod 100 30 --replay "$POD"
wait_for pod "mlx5_2/1"
wait_for pod "container kubernetes  netns -  /dev/infiniband: not read  memlock ?, CAP_IPC_LOCK ?"
keys pod q
wait_exit pod 0

# No device passed in; uverbs0 missing, rdma_cm there; 64 KiB, no
# CAP_IPC_LOCK; netns exclusive.
jq '.devices = [] | .netdevs = []
	| .host.rdma_netns_mode = "exclusive"
	| .host.memlock_soft = 65536 | .host.memlock_unlimited = false
	| .host.memlock_hard = 65536 | .host.memlock_hard_unlimited = false
	| .host.cap_ipc_lock = false
	| .host.devnodes = [
		{path: "/dev/infiniband/rdma_cm", exists: true, mode: 438,
		 readable: true, writable: true},
		{path: "/dev/infiniband/uverbs0", exists: false, mode: null,
		 readable: null, writable: null}]' "$POD" > "$TUI_TMP/empty.json" || {
	echo "FAIL: could not build the empty pod"; exit 1; }
tui_start empty 120 30 --replay "$TUI_TMP/empty.json"
wait_for empty "No RDMA devices found."
wait_for empty "container kubernetes  netns exclusive  /dev/infiniband: rdma_cm, not usable uverbs0  memlock 64 KiB, no CAP_IPC_LOCK"
wait_for empty "host.container: in a kubernetes container without usable /dev/infiniband"
wait_for empty "The checklist (k) has the evidence"
keys empty q
wait_exit empty 0

# A plain host has no such line.
tui_start plain 100 30 --root "$RDMADIAG_SRCDIR/tests/fixtures/rxe0-healthy"
wait_for plain "rxe0/1"
absent plain "/dev/infiniband:"
keys plain q
wait_exit plain 0

tui_summary
