# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A peer whose rdma_cm default RoCE mode is v1, as far as Soft-RoCE lets
# one be made: rxe has RoCE v2 GIDs only, and the kernel refuses RoCE v1
# as rdma_cm's default for it (EINVAL). Side b records that refusal, takes
# its snapshot (rdma_cm defaults included) and serves an -R test that
# works because both defaults are v2; a.sh compares, and compares the
# snapshot as a v1 host's would read.

lab_pair_setup
lab_require_rdmadiag
modprobe rdma_ucm
# Soft-RoCE under TCG on a busy host can take seconds per message.
T=20000
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
cm=/sys/kernel/config/rdma_cm/$LAB_RXE
mkdir -p "$cm"
if echo "IB/RoCE v1" 2> /dev/null > "$cm/ports/1/default_roce_mode"; then
	lab_fail "the kernel took RoCE v1 as rdma_cm's default on $LAB_RXE, which has no RoCE v1 GID"
fi
assert_eq "RoCE v2" "$(cat "$cm/ports/1/default_roce_mode")" "default_roce_mode after the refused write"
lab_log "ok: the kernel refuses RoCE v1 as rdma_cm's default on Soft-RoCE (v2 GIDs only)"
lab_snapshot rocev1
assert_json "$SNAP" ".host.rdma_cm[] | select(.device == \"$LAB_RXE\" and .port == 1) | .default_roce_mode" \
	"RoCE v2" "default_roce_mode in the snapshot"
lab_barrier snapshots

LAB_PAIR_CM=1
lab_pair_serve cm-v2 "$RDMADIAG" bw --timeout $T -R -d "$LAB_RXE" -n 100
lab_barrier finished
rmdir "$cm"
