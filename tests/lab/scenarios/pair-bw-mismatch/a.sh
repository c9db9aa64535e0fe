# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# bw with --peer-port between two hosts whose MTUs differ: side a at
# netdev MTU 1500 (RoCE active MTU 1024), side b at 9000 (4096), where
# 'rdmadiag peer --listen' answers on its own port beside the bw server.
# The client lists both MTU mismatches before the test's header, and the
# test still runs (at 1024 bytes).  Then a bw client against a port where
# nothing serves the test: its error says whether the mismatches explain
# it.

lab_pair_setup 1500
lab_require_rdmadiag
N=200
PP=18517

lab_pair_connect bw "$RDMADIAG" bw -d "$LAB_RXE" -n $N --peer-port $PP "$LAB_PEER_ADDR"
out=$LAB_OUT/bw.client
lab_ran_at_mtu "$out" 1024
for want in "peer check with rdmadiag peer on $LAB_PEER_ADDR:$PP: 2 mismatches" \
	"  active MTU: here 1024 bytes, peer 4096 bytes" \
	"  netdev MTU: here 1500 bytes, peer 9000 bytes"; do
	n=$(grep -nF -- "$want" "$out" | head -n 1 | cut -d: -f1)
	[ -n "$n" ] || lab_fail "bw does not say '$want': $(cat "$out")"
	h=$(grep -n '#bytes' "$out" | head -n 1 | cut -d: -f1)
	[ -n "$h" ] && [ "$n" -lt "$h" ] || lab_fail "'$want' is not before the test's header: $(cat "$out")"
	lab_log "ok: before the test: $want"
done

# No bw server on the test's port (b answers only the peer check): the
# test fails on its TCP exchange, before any RDMA, and the error says the
# MTU mismatches do not explain that, rather than blaming them.
LAB_PAIR_MAY_FAIL=1 lab_pair_connect nobw "$RDMADIAG" bw -d "$LAB_RXE" -n $N -p 18519 --timeout 2000 --peer-port $PP "$LAB_PEER_ADDR"
assert_eq 1 "$LAB_PAIR_RC" "bw exit status with nothing serving the test"
want="peer check: the test failed before its RDMA part, on the TCP exchange, so the mismatches listed before the test do not explain it"
grep -qF "$want" "$LAB_OUT/nobw.client" ||
	lab_fail "the failed bw does not say '$want': $(cat "$LAB_OUT/nobw.client")"
! grep -q "explained by" "$LAB_OUT/nobw.client" ||
	lab_fail "the failed bw blames a mismatch for a refused connection: $(cat "$LAB_OUT/nobw.client")"
lab_log "ok: the failed bw says the mismatches do not explain a refused connection"
lab_barrier finished
