# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdmadiag's peer check inside a bw test's own channel, server side: a
# plain `rdmadiag bw` server answers a's `rdmadiag peer` on its test port
# and then runs a's bw test; later, at MTU 9000, it prints the same two
# mismatches a does, from its side.  See a.sh.

lab_pair_setup
lab_require_rdmadiag
N=200
lab_barrier gids
a=$(lab_pair_addr a)

# One server for a's peer check and then a's bw test.
LAB_PAIR_ONCE=1 lab_pair_serve alike "$RDMADIAG" bw -d "$LAB_RXE" -n $N
out=$LAB_OUT/alike.server
grep -qE "^peer check from $a:[0-9]+ answered; still waiting for the test's client$" "$out" ||
	lab_fail "the bw server's line for a's peer check: $(cat "$out")"
lab_log "ok: the bw server answered a's peer check and waited on"
grep -qE "^peer check with rdmadiag at the client $a:[0-9]+, in the test's channel: no mismatch found$" "$out" ||
	lab_fail "the bw server's list for a's test: $(cat "$out")"
lab_log "ok: the bw server: no mismatch with a's test"

ip link set "$LAB_NETDEV" mtu 9000
lab_log "b: $LAB_NETDEV MTU 9000"
lab_pair_serve mtu "$RDMADIAG" bw -d "$LAB_RXE" -n $N
out=$LAB_OUT/mtu.server
for want in "in the test's channel: 2 mismatches" \
	"  netdev MTU: here 9000 bytes, peer 1500 bytes" \
	"  active MTU: here 4096 bytes, peer 1024 bytes"; do
	grep -qF "$want" "$out" || lab_fail "the bw server does not say '$want': $(cat "$out")"
	lab_log "ok: the bw server: $want"
done

LAB_PAIR_CM=1 lab_pair_serve cm "$RDMADIAG" bw -R --timeout 20000 -d "$LAB_RXE" -n $N
out=$LAB_OUT/cm.server
grep -qF "peer check with rdmadiag at the client, in the test's channel: 2 mismatches" "$out" ||
	lab_fail "the bw -R server's list: $(head -n 8 "$out")"
lab_log "ok: the bw -R server: 2 mismatches, from rdma_cm's messages"
lab_barrier finished
