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

# positive FILE COLUMN WHAT: the figure under the #bytes header is > 0.
positive() {
	local v
	v=$(lab_result_line "$1" | awk -v c="$2" '{print $c}')
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || lab_fail "$3 measured '$v'"
}

for op in write read send; do
	lab_pair_connect "rd-server-$op" "ib_${op}_bw" -R -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
	positive "$LAB_OUT/rd-server-$op.client" 4 "ib_${op}_bw -R against rdmadiag"
	lab_pair_connect "pt-server-$op" "$RDMADIAG" bw -R --op "$op" -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
	positive "$LAB_OUT/pt-server-$op.client" 4 "rdmadiag bw -R --op $op against ib_${op}_bw -R"
done
f=$LAB_OUT/pt-server-write.client
grep -q "rdma_cm QPs[[:space:]]*: ON" "$f" || lab_fail "rdmadiag -R does not say rdma_cm QPs: ON"
grep -q "GID index *: *$LAB_GID\b" "$f" ||
	lab_fail "rdma_cm's GID is not this side's IPv4 RoCE v2 GID $LAB_GID: $(grep -i 'gid' "$f" | head -n 3)"
grep -q "chosen by rdma_cm" "$f" || lab_fail "the header does not say rdma_cm chose the GID"
lab_log "ok: rdmadiag -R ran on GID index $LAB_GID, chosen by rdma_cm"

lab_pair_connect rd-server-lat ib_send_lat -R -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
positive "$LAB_OUT/rd-server-lat.client" 3 "ib_send_lat -R against rdmadiag"
lab_pair_connect pt-server-lat "$RDMADIAG" lat -R --op send -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
positive "$LAB_OUT/pt-server-lat.client" 3 "rdmadiag lat -R against ib_send_lat -R"
lab_barrier finished
