# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts whose MTUs differ: side a at netdev MTU 1500 (RoCE active MTU
# 1024), side b at 9000 (4096).  Each side's snapshot says so, and a
# compares them.  What happens across the pair: perftest and rdmadiag
# both exchange the MTU out of band and take the smaller, so every test
# runs at 1024 on both ends (b's 4096-byte packets would otherwise meet
# a's 1500-byte netdev); each side checks the MTU its tools printed.

lab_pair_setup 1500
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
lab_pair_snapshot mtu 1500 1024
lab_barrier snapshots

# b's snapshot, taken in b's kernel, against this one.
declare -A P=()
lab_flatten P "" "$(lab_pair_peer_out mtu.json)" || lab_fail "b's snapshot is not JSON"
p=devices.rxe0.ports.1
assert_eq 4096 "${P[$p.verbs.active_mtu]-<absent>}" "b's active_mtu in b's snapshot"
assert_eq 9000 "${P[netdevs.${P[$p.netdev]-}.mtu]-<absent>}" "b's netdev MTU in b's snapshot"
[ "${S[$p.verbs.active_mtu]}" != "${P[$p.verbs.active_mtu]}" ] ||
	lab_fail "the two snapshots show the same active MTU"
lab_log "ok: active MTU differs: a ${S[$p.verbs.active_mtu]} bytes, b ${P[$p.verbs.active_mtu]} bytes"

peer_gid=
lab_pair_get gid peer_gid
# rdmadiag diff names both mismatches with both values, and the GID pair.
rc=0
"$RDMADIAG" diff "$SNAP" "$(lab_pair_peer_out mtu.json)" > "$LAB_OUT/diff.txt" 2>&1 || rc=$?
assert_eq 1 "$rc" "rdmadiag diff exit status (mismatches listed)"
for want in "active MTU differs: A 1024 bytes, B 4096 bytes" \
	"netdev MTU differs: A 1500 bytes, B 9000 bytes" \
	"GID: use -x $LAB_GID on A ($(lab_pair_addr a)) and -x $peer_gid on B ($LAB_PEER_ADDR)"; do
	grep -qF "$want" "$LAB_OUT/diff.txt" || lab_fail "rdmadiag diff does not say '$want': $(cat "$LAB_OUT/diff.txt")"
	lab_log "ok: rdmadiag diff: $want"
done
n=$(grep -c ' differs: ' "$LAB_OUT/diff.txt" || true)
assert_eq 2 "$n" "mismatches rdmadiag diff lists"

N=200
lab_pair_connect write-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
lab_ran_at_mtu "$LAB_OUT/write-bw.client" 1024
# Reads: b sends the data, at the MTU it chose.
lab_pair_connect read-bw ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
lab_ran_at_mtu "$LAB_OUT/read-bw.client" 1024
lab_pair_connect read-bw-rd-server ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
lab_ran_at_mtu "$LAB_OUT/read-bw-rd-server.client" 1024
lab_pair_connect read-bw-rd-client "$RDMADIAG" bw --op read -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
lab_ran_at_mtu "$LAB_OUT/read-bw-rd-client.client" 1024
lab_barrier finished
