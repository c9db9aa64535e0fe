# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, stock perftest: side a is the client of ib_write_bw and
# ib_send_lat servers on side b, RoCE v2 over IPv4 (-x with each side's
# own IPv4 GID index) between two kernels.  See b.sh for the servers.

lab_pair_setup
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
N=200

lab_pair_connect write-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
bw=$(lab_result_line "$LAB_OUT/write-bw.client" | awk '{print $4}')
awk -v b="$bw" 'BEGIN { exit !(b > 0) }' || lab_fail "ib_write_bw client measured no bandwidth ('$bw')"

lab_pair_connect send-lat ib_send_lat -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
lat=$(lab_result_line "$LAB_OUT/send-lat.client" | awk '{print $5}')
awk -v l="$lat" 'BEGIN { exit !(l > 0) }' || lab_fail "ib_send_lat client measured no latency ('$lat')"

# The traffic crossed the segment: rxe counted packets sent and received.
lab_oracles after
for c in sent_pkts rcvd_pkts; do
	v=${ORA[rdma-statistic:$LAB_RXE/1.$c]-0}
	[ "$v" -ge $N ] || lab_fail "$LAB_RXE $c is $v after $N iterations across the segment"
	lab_log "ok: $LAB_RXE $c = $v"
done
lab_barrier finished
