# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Side b of pair-gid-mismatch (see a.sh): an rdmadiag bw server on its
# IPv4 RoCE v2 GID; the first client's GID is link-local, so both ends'
# lists name the mismatch and the server's test fails too, naming it.
# Last, stock ib_write_bw serves the same mismatched client.

lab_pair_setup
lab_require_rdmadiag
N=200
T=4000
lab_barrier gids
a=$(lab_pair_addr a)

LAB_PAIR_MAY_FAIL=1 lab_pair_serve mix "$RDMADIAG" bw -d "$LAB_RXE" -n $N -x "$LAB_GID" --timeout $T
out=$LAB_OUT/mix.server
assert_eq 1 "$LAB_PAIR_RC" "the bw server's exit status against a link-local GID"
lab_log "b: the server's error: $(grep -m1 '^rdmadiag: ' "$out" || true)"
grep -q "^  the test's GID: here index $LAB_GID, RoCE v2 $(lab_pair_addr b) (IPv4), peer index [0-9]*, RoCE v2 fe80:[0-9a-f:]* (IPv6 link-local)$" "$out" ||
	lab_fail "the server's list does not name the tests' GIDs: $(cat "$out")"
grep -q "cannot be routed: use -x [0-9]* on the peer$" "$out" ||
	lab_fail "the server's list does not give the peer's -x: $(cat "$out")"
lab_log "ok: the server's list names the test's GID mismatch"
grep -q "^peer check: .*: most likely the test's GID mismatch" "$out" ||
	lab_fail "the server's failure does not name the test's GID mismatch: $(cat "$out")"
lab_log "ok: the server's failure names the test's GID mismatch"

lab_pair_serve same "$RDMADIAG" bw -d "$LAB_RXE" -n $N -x "$LAB_GID" --timeout $T
grep -q "^  the tests' GIDs agree: " "$LAB_OUT/same.server" ||
	lab_fail "the server does not say the GIDs agree: $(cat "$LAB_OUT/same.server")"
if command -v ib_write_bw > /dev/null; then
	LAB_PAIR_MAY_FAIL=1 lab_pair_serve pt ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
	lab_log "b: ib_write_bw against a link-local GID exited $LAB_PAIR_RC: $(grep -m1 -i 'fail\|error\|couldn' "$LAB_OUT/pt.server" || true)"
fi
lab_barrier finished
