# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, -R: side a is the client, stock perftest of an rdmadiag
# server, then rdmadiag of a perftest server (b.sh), for write, read and
# send bandwidth and send latency. rdma_cm chooses the GID: rdmadiag's
# header must show the IPv4 RoCE v2 one perftest without -R is given -x.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
modprobe rdma_ucm
N=200
# Soft-RoCE under TCG on a busy host can take seconds per message.
T=20000

# positive FILE COLUMN WHAT: the figure under the #bytes header is > 0.
positive() {
	local v
	v=$(lab_result_line "$1" | awk -v c="$2" '{print $c}')
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || lab_fail "$3 measured '$v'"
}

for op in write read send; do
	lab_pair_connect "rd-server-$op" "ib_${op}_bw" -R -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
	positive "$LAB_OUT/rd-server-$op.client" 4 "ib_${op}_bw -R against rdmadiag"
	lab_pair_connect "pt-server-$op" "$RDMADIAG" bw --timeout $T -R --op "$op" -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
	positive "$LAB_OUT/pt-server-$op.client" 4 "rdmadiag bw -R --op $op against ib_${op}_bw -R"
done
f=$LAB_OUT/pt-server-write.client
grep -q "rdma_cm QPs[[:space:]]*: ON" "$f" || lab_fail "rdmadiag -R does not say rdma_cm QPs: ON"
grep -q "GID index *: *$LAB_GID\b" "$f" ||
	lab_fail "rdma_cm's GID is not this side's IPv4 RoCE v2 GID $LAB_GID: $(grep -i 'gid' "$f" | head -n 3)"
grep -q "chosen by rdma_cm" "$f" || lab_fail "the header does not say rdma_cm chose the GID"
lab_log "ok: rdmadiag -R ran on GID index $LAB_GID, chosen by rdma_cm"
grep -qE "^ Peer check +: not made: the peer's version message \(perftest [0-9.]+\) carries no rdmadiag extension" "$f" ||
	lab_fail "the -R header does not say why there is no peer check: $(grep -i 'peer' "$f")"
! grep -q "^peer check" "$f" || lab_fail "rdmadiag -R printed a peer check list against perftest"
lab_log "ok: no peer check against perftest -R, and the header says why"

# --report-both with -b: perftest's "Remote results" are rdmadiag's own.
lab_pair_connect rd-server-both ib_write_bw -R -b --report-both -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
lab_barrier both-figures
rd=
lab_pair_get both-local rd
pt=$(awk '/Remote results/ { f = 1 } f && /^ [0-9]/ { print $4; exit }' "$LAB_OUT/rd-server-both.client")
awk -v a="$rd" -v b="$pt" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 1.02 && b / a < 1.02) }' ||
	lab_fail "--report-both: rdmadiag's local figure '$rd' MB/s, perftest's remote '$pt' MB/s"
lab_log "ok: --report-both: rdmadiag's own $rd MB/s is perftest's remote $pt MB/s"

lab_pair_connect rd-server-lat ib_send_lat -R -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
positive "$LAB_OUT/rd-server-lat.client" 3 "ib_send_lat -R against rdmadiag"
lab_pair_connect pt-server-lat "$RDMADIAG" lat --timeout $T -R --op send -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
positive "$LAB_OUT/pt-server-lat.client" 3 "rdmadiag lat -R against ib_send_lat -R"
lab_barrier finished
