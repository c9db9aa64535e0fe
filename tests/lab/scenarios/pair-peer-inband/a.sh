# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdmadiag's peer check inside a bw test's own channel, client side; b
# runs a plain `rdmadiag bw` server (no `peer --listen`, no --peer-port).
# `rdmadiag peer` against that server is answered on the test's port,
# and the bw test from here that follows still runs, with the mismatch
# list (none) before its figures.  After b's MTU went to 9000, the list
# before the figures names both MTU mismatches with both values.

lab_pair_setup
lab_require_rdmadiag
N=200
lab_barrier gids
peer_gid=
lab_pair_get gid peer_gid
port=18515

# before_figures FILE TEXT: TEXT is in FILE, above the #bytes header.
before_figures() {
	local at head
	at=$(grep -nF -m1 "$2" "$1" | cut -d: -f1)
	head=$(grep -nE -m1 '^ *#bytes' "$1" | cut -d: -f1)
	[ -n "$at" ] || lab_fail "${1##*/} does not say '$2': $(cat "$1")"
	[ -n "$head" ] && [ "$at" -lt "$head" ] ||
		lab_fail "${1##*/}: '$2' is not before the figures: $(cat "$1")"
	lab_log "ok: ${1##*/}: $2"
}

# b's server outlives this client: it serves the bw test after it.
LAB_PAIR_ONCE=1 lab_pair_connect alike "$RDMADIAG" peer -d "$LAB_RXE" "$LAB_PEER_ADDR"
out=$LAB_OUT/alike.client
for want in "no mismatch found" \
	"the IPv4 RoCE v2 pair (-x $LAB_GID here, -x $peer_gid on the peer) works"; do
	grep -qF "$want" "$out" || lab_fail "peer against a bw server does not say '$want': $(cat "$out")"
	lab_log "ok: peer against a bw server: $want"
done

# The same server, still waiting: now the test.
out=$LAB_OUT/alike-bw.client
timeout 90 "$RDMADIAG" bw -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR" > "$out" 2>&1 ||
	lab_fail "bw after peer exited $?: $(tail -n 4 "$out")"
before_figures "$out" "peer check with rdmadiag at $LAB_PEER_ADDR:$port, in the test's channel: no mismatch found"
before_figures "$out" " Peer check      : no mismatch with the peer's port"
c=$(lab_result_line "$out" | awk '{print $4}')
awk -v c="$c" 'BEGIN { exit !(c > 0) }' || lab_fail "bw after peer measured '$c'"
lab_log "ok: bw after peer: $c MB/s"

lab_pair_connect mtu "$RDMADIAG" bw -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
out=$LAB_OUT/mtu.client
before_figures "$out" "peer check with rdmadiag at $LAB_PEER_ADDR:$port, in the test's channel: 2 mismatches"
before_figures "$out" "  netdev MTU: here 1500 bytes, peer 9000 bytes"
before_figures "$out" "  active MTU: here 1024 bytes, peer 4096 bytes"
before_figures "$out" " Peer check      : 2 mismatches with the peer, listed above"
lab_ran_at_mtu "$out" 1024

# -R: the same list, carried in rdma_cm's 64-byte messages.
lab_pair_connect cm "$RDMADIAG" bw -R --timeout 20000 -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
out=$LAB_OUT/cm.client
before_figures "$out" "peer check with rdmadiag at $LAB_PEER_ADDR:$port, in the test's channel: 2 mismatches"
before_figures "$out" "  netdev MTU: here 1500 bytes, peer 9000 bytes"
before_figures "$out" " Peer check      : 2 mismatches with the peer, listed above"
grep -q "rdma_cm QPs[[:space:]]*: ON" "$out" || lab_fail "bw -R did not run through rdma_cm"
lab_barrier finished
