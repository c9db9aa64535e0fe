# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, one without an IPv4 address: b removes its address, and with
# it rxe drops b's IPv4 GIDs.  rdmadiag diff of the two snapshots, run
# here, must say that b has no IPv4 RoCE v2 GID and that no GID pair works
# for RoCE v2 over IPv4.

lab_pair_setup
lab_require_rdmadiag
lab_snapshot here
lab_barrier snapshots

rc=0
"$RDMADIAG" diff "$SNAP" "$(lab_pair_peer_out there.json)" > "$LAB_OUT/diff.txt" 2>&1 || rc=$?
assert_eq 1 "$rc" "rdmadiag diff exit status (mismatches listed)"
for want in "IPv4 RoCE v2 GID differs: A index $LAB_GID ($(lab_pair_addr a)), B none" \
	"GID: no IPv4 RoCE v2 GID on B: no GID pair works for RoCE v2 over IPv4"; do
	grep -qF "$want" "$LAB_OUT/diff.txt" || lab_fail "rdmadiag diff does not say '$want': $(cat "$LAB_OUT/diff.txt")"
	lab_log "ok: rdmadiag diff: $want"
done
lab_barrier finished
