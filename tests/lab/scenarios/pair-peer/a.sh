# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdmadiag peer between two kernels, client side.  Alike hosts: exit 0,
# no mismatch, the GID index of each side, and the reachability matrix
# proves the IPv4 RoCE v2 pair with one RC message.  After b's MTU went to
# 9000: exit 1 and both MTU mismatches named with both values.  Against a
# stock ib_write_bw server: exit 2 and one line saying it is perftest.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
lab_barrier gids
peer_gid=
lab_pair_get gid peer_gid

lab_pair_connect alike "$RDMADIAG" peer -d "$LAB_RXE" "$LAB_PEER_ADDR"
out=$LAB_OUT/alike.client
for want in "no mismatch found" \
	"GID: IPv4 RoCE v2 index $LAB_GID here ($(lab_pair_addr a)), $peer_gid on the peer ($LAB_PEER_ADDR)" \
	"the IPv4 RoCE v2 pair (-x $LAB_GID here, -x $peer_gid on the peer) works" \
	"proven to work: RoCE v2 over IPv4" \
	"the peer:      -x $peer_gid   NCCL_IB_GID_INDEX=$peer_gid   UCX_IB_GID_INDEX=$peer_gid"; do
	grep -qF "$want" "$out" || lab_fail "peer does not say '$want': $(cat "$out")"
	lab_log "ok: peer: $want"
done
if [ "$LAB_GID" = "$peer_gid" ]; then
	want="both hosts:    -x $LAB_GID   NCCL_IB_GID_INDEX=$LAB_GID   UCX_IB_GID_INDEX=$LAB_GID"
else
	want="this host:     -x $LAB_GID   NCCL_IB_GID_INDEX=$LAB_GID   UCX_IB_GID_INDEX=$LAB_GID"
fi
grep -qF "$want" "$out" || lab_fail "peer does not say '$want': $(cat "$out")"
grep -qE "^$LAB_GID v2 $(lab_pair_addr a) +$peer_gid v2 $LAB_PEER_ADDR +works$" "$out" ||
	lab_fail "the matrix has no working IPv4 v2 row: $(cat "$out")"
lab_log "ok: the matrix row of the IPv4 RoCE v2 pair: works"

LAB_PAIR_MAY_FAIL=1 lab_pair_connect mtu "$RDMADIAG" peer -d "$LAB_RXE" "$LAB_PEER_ADDR"
assert_eq 1 "$LAB_PAIR_RC" "peer's exit status with b at MTU 9000"
out=$LAB_OUT/mtu.client
for want in "^netdev MTU +1500 bytes +9000 bytes$" "^active MTU +1024 bytes +4096 bytes$"; do
	grep -qE "$want" "$out" || lab_fail "peer does not match '$want': $(cat "$out")"
	lab_log "ok: peer: $want"
done

LAB_PAIR_MAY_FAIL=1 lab_pair_connect perftest "$RDMADIAG" peer -d "$LAB_RXE" "$LAB_PEER_ADDR"
assert_eq 2 "$LAB_PAIR_RC" "peer's exit status against ib_write_bw"
out=$LAB_OUT/perftest.client
assert_eq 1 "$(wc -l < "$out")" "lines peer printed against ib_write_bw"
grep -q "speaks perftest (version [0-9.]*), not rdmadiag peer" "$out" ||
	lab_fail "peer does not name perftest: $(cat "$out")"
lab_log "ok: peer against ib_write_bw: $(cat "$out")"
lab_barrier finished
