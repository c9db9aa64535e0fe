# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdma_cm's default RoCE mode on both hosts: both v2 here (b.sh shows the
# kernel refuses v1 on Soft-RoCE), so `rdmadiag diff` names no mode
# mismatch and an -R test runs on the IPv4 RoCE v2 GID rdma_cm chose.
# b's snapshot as a host with hardware RoCE set to v1 would read (the one
# value changed) must be named by `diff`, in text and in JSON, with what
# it breaks. An -R client where nothing listens gets one clear line.

lab_pair_setup
lab_require_rdmadiag
modprobe rdma_ucm
# Soft-RoCE under TCG on a busy host can take seconds per message.
T=20000
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
cm=/sys/kernel/config/rdma_cm/$LAB_RXE
mkdir -p "$cm"
lab_snapshot rocev1
lab_barrier snapshots
peer=$(lab_pair_peer_out rocev1.json)

rc=0
"$RDMADIAG" diff "$SNAP" "$peer" > "$LAB_OUT/diff-v2.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || lab_fail "rdmadiag diff exited $rc: $(cat "$LAB_OUT/diff-v2.txt")"
! grep -q "RoCE mode differs" "$LAB_OUT/diff-v2.txt" ||
	lab_fail "diff names a RoCE mode mismatch between two v2 hosts: $(cat "$LAB_OUT/diff-v2.txt")"
lab_log "ok: both rdma_cm defaults RoCE v2, diff names no mode mismatch"

sed -E 's/("default_roce_mode": *)"RoCE v2"/\1"IB\/RoCE v1"/' "$peer" > "$LAB_OUT/peer-v1.json"
grep -q 'IB/RoCE v1' "$LAB_OUT/peer-v1.json" || lab_fail "could not make the v1 snapshot from $peer"
rc=0
"$RDMADIAG" diff "$SNAP" "$LAB_OUT/peer-v1.json" > "$LAB_OUT/diff-v1.txt" 2>&1 || rc=$?
assert_eq 1 "$rc" "rdmadiag diff exit status against the v1 peer"
want="rdma_cm default RoCE mode differs: A RoCE v2, B IB/RoCE v1"
grep -qF "$want" "$LAB_OUT/diff-v1.txt" || lab_fail "diff does not say '$want': $(cat "$LAB_OUT/diff-v1.txt")"
grep -q "perftest -R" "$LAB_OUT/diff-v1.txt" || lab_fail "diff does not say what the mode mismatch breaks"
"$RDMADIAG" diff --json "$SNAP" "$LAB_OUT/peer-v1.json" > "$LAB_OUT/diff-v1.json" 2>&1 || true
jq -e 'any(.mismatches[]; .what == "rdma_cm default RoCE mode" and .a == "RoCE v2" and .b == "IB/RoCE v1")' \
	"$LAB_OUT/diff-v1.json" > /dev/null || lab_fail "diff --json does not name the mode: $(cat "$LAB_OUT/diff-v1.json")"
lab_log "ok: diff names the v1 peer: $want"

lab_pair_connect cm-v2 "$RDMADIAG" bw --timeout $T -R -d "$LAB_RXE" -n 100 "$LAB_PEER_ADDR"
grep -q "GID index $LAB_GID (RoCE v2) chosen by rdma_cm" "$LAB_OUT/cm-v2.client" ||
	lab_fail "the -R header does not name rdma_cm's RoCE v2 GID $LAB_GID: $(grep -i gid "$LAB_OUT/cm-v2.client")"

# -R where nothing listens through rdma_cm: refused, retried for the
# timeout, then one clear line and exit 1.
t0=$SECONDS rc=0
"$RDMADIAG" bw -R -d "$LAB_RXE" -p 18999 --timeout 3000 "$LAB_PEER_ADDR" > "$LAB_OUT/cm-nobody.out" 2>&1 || rc=$?
assert_eq 1 "$rc" "-R against a port with no rdma_cm listener: exit status"
grep -q "nothing listens there through rdma_cm.*-R" "$LAB_OUT/cm-nobody.out" ||
	lab_fail "-R against no listener: $(tail -n 3 "$LAB_OUT/cm-nobody.out")"
[ $((SECONDS - t0)) -le 20 ] || lab_fail "-R against no listener took $((SECONDS - t0)) s"
lab_log "ok: -R against no listener: $(grep -m1 'rdma_cm' "$LAB_OUT/cm-nobody.out")"
lab_barrier finished
rmdir "$cm"
