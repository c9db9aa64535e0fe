# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Side b of pair-bw-mismatch (see a.sh): netdev MTU 9000, 'rdmadiag peer
# --listen' on port 18517 for a's peer checks, and an rdmadiag bw server on
# the test's port for the first of them.

lab_pair_setup 9000
lab_require_rdmadiag
N=200
PP=18517

"$RDMADIAG" peer --listen -p $PP > "$LAB_OUT/peer.server" 2>&1 &
peer_pid=$!
lab_wait 30 "peer server on port $PP" lab_port_listening $PP
lab_pair_serve bw "$RDMADIAG" bw -d "$LAB_RXE" -n $N
lab_ran_at_mtu "$LAB_OUT/bw.server" 1024
# a's second client finds nothing on the test's port.
lab_pair_no_server nobw
lab_barrier finished
kill "$peer_pid" 2> /dev/null || true
wait "$peer_pid" 2> /dev/null || true
n=$(grep -c "^answered $(lab_pair_addr a):.*2 mismatches" "$LAB_OUT/peer.server" || true)
assert_eq 2 "$n" "peer checks the server answered with 2 mismatches"
