# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two rdmadiag bw whose GIDs disagree, client side: here -x names the
# link-local RoCE v2 GID, b's server -x names its IPv4 RoCE v2 GID.  The
# peer check in the test's channel lists the tests' GID mismatch before
# the test, with the -x that fixes it; the test fails, and its error names
# that mismatch first.  Then both use their IPv4 RoCE v2 GIDs: the test
# runs and nothing about the GIDs is listed.

lab_pair_setup
lab_require_rdmadiag
N=200
T=4000
lab_barrier gids
peer_gid=
lab_pair_get gid peer_gid
b=$LAB_PEER_ADDR

# gid_v2_link_local DEV: the index of the port's link-local RoCE v2 GID.
gid_v2_link_local() {
	local f i gid type
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		i=${f##*/}
		lab_read "$f" gid 2> /dev/null || continue
		case $gid in fe80:*) ;; *) continue ;; esac
		lab_read "/sys/class/infiniband/$1/ports/1/gid_attrs/types/$i" type 2> /dev/null || continue
		[ "$type" = "RoCE v2" ] && { echo "$i"; return 0; }
	done
}
ll=$(gid_v2_link_local "$LAB_RXE")
[ -n "$ll" ] || lab_fail "no link-local RoCE v2 GID on $LAB_RXE"
lab_log "a: link-local RoCE v2 GID index $ll, IPv4 RoCE v2 GID index $LAB_GID"

LAB_PAIR_MAY_FAIL=1 lab_pair_connect mix "$RDMADIAG" bw -d "$LAB_RXE" -n $N -x "$ll" --timeout $T "$b"
out=$LAB_OUT/mix.client
assert_eq 1 "$LAB_PAIR_RC" "bw exit status with a link-local GID here, IPv4 on the peer"
err=$(grep -m1 '^rdmadiag: ' "$out" || true)
lab_log "a: Soft-RoCE's answer to the GID mismatch: $err"
before=$(grep -m1 -n "^  the test's GID: here index $ll, RoCE v2 fe80:" "$out" | cut -d: -f1)
[ -n "$before" ] || lab_fail "the list before the test does not name the tests' GIDs: $(cat "$out")"
grep -q "^  the test's GID: here index $ll, RoCE v2 fe80:[0-9a-f:]* (IPv6 link-local), peer index $peer_gid, RoCE v2 $b (IPv4)$" "$out" ||
	lab_fail "the tests' GIDs are not shown with both values: $(cat "$out")"
grep -q "^    breaks: the two ends speak different address families; RoCE v2 packets between them cannot be routed: use -x $LAB_GID here$" "$out" ||
	lab_fail "the list does not give the -x that fixes it: $(cat "$out")"
lab_log "ok: before the test: the test's GID mismatch, fixed by -x $LAB_GID here"
why=$(grep -m1 -n "^peer check: .*: most likely the test's GID mismatch (here index $ll, RoCE v2 fe80:" "$out" | cut -d: -f1)
[ -n "$why" ] || lab_fail "the failure does not name the test's GID mismatch first: $(cat "$out")"
[ "$before" -lt "$why" ] || lab_fail "the explanation comes before the list: $(cat "$out")"
lab_log "ok: the failure: $(sed -n "${why}p" "$out" | cut -c1-160)"

# The same two rdmadiag, each on its IPv4 RoCE v2 GID: clean.
lab_pair_connect same "$RDMADIAG" bw -d "$LAB_RXE" -n $N -x "$LAB_GID" --timeout $T "$b"
out=$LAB_OUT/same.client
grep -q "^  the tests' GIDs agree: here index $LAB_GID, RoCE v2 $(lab_pair_addr a) (IPv4), peer index $peer_gid, RoCE v2 $b (IPv4)$" "$out" ||
	lab_fail "matching GIDs are not said to agree: $(cat "$out")"
! grep -q "the test's GID\|most likely" "$out" ||
	lab_fail "matching GIDs still named as a mismatch: $(cat "$out")"
lab_log "ok: matching -x: the test ran and no GID mismatch was named"

# Stock perftest serves on its IPv4 GID: no extension, so no check; the
# same failure then says the check was not made rather than guess.
if command -v ib_write_bw > /dev/null; then
	LAB_PAIR_MAY_FAIL=1 lab_pair_connect pt "$RDMADIAG" bw -d "$LAB_RXE" -n $N -x "$ll" --timeout $T "$b"
	out=$LAB_OUT/pt.client
	assert_eq 1 "$LAB_PAIR_RC" "bw exit status with a link-local GID against ib_write_bw"
	lab_log "a: against ib_write_bw: $(grep -m1 '^rdmadiag: ' "$out" || true)"
	grep -qE "^peer check: not made \(the peer's version message \(perftest [0-9.]+\) carries no rdmadiag extension.*\), so no mismatch of the two ports is known$" "$out" ||
		lab_fail "the failure against perftest does not say the check was not made: $(cat "$out")"
	! grep -q "most likely\|the test's GID" "$out" ||
		lab_fail "a mismatch was named with no check made: $(cat "$out")"
	lab_log "ok: against ib_write_bw the failure says the peer check was not made"
fi
lab_barrier finished
