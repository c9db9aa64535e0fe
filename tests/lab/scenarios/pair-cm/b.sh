# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, -R (QPs connected through rdma_cm, no TCP at all): side b
# serves, rdmadiag for a stock perftest client, then perftest for an
# rdmadiag client, for write, read and send bandwidth and send latency;
# a.sh has the clients.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
modprobe rdma_ucm
N=200
# Soft-RoCE under TCG on a busy host can take seconds per message.
T=20000
LAB_PAIR_CM=1

for op in write read send; do
	lab_pair_serve "rd-server-$op" "$RDMADIAG" bw --timeout $T -R --op "$op" -d "$LAB_RXE" -n $N
	lab_pair_serve "pt-server-$op" "ib_${op}_bw" -R -d "$LAB_RXE" -n $N
done
grep -q "rdma_cm QPs[[:space:]]*: ON" "$LAB_OUT/rd-server-write.server" ||
	lab_fail "rdmadiag's -R server does not say rdma_cm QPs: ON"
# No TCP socket on the test port: perftest -R does not open one either.
! grep -q "Listening on .* and 127.0.0.1" "$LAB_OUT/rd-server-write.server" ||
	lab_fail "rdmadiag -R claims a TCP listener"
# --report-both with -b: the sum, then this side's and the peer's own.
lab_pair_serve rd-server-both "$RDMADIAG" bw --timeout $T -R -b --report-both -d "$LAB_RXE" -n $N
f=$LAB_OUT/rd-server-both.server
grep -q "^ Local results: " "$f" && grep -q "^ Remote results: " "$f" ||
	lab_fail "rdmadiag --report-both printed no Local/Remote results"
lab_pair_put both-local "$(awk '/Local results/ { f = 1 } f && /^ [0-9]/ { print $4; exit }' "$f")"
lab_barrier both-figures
lab_pair_serve rd-server-lat "$RDMADIAG" lat --timeout $T -R --op send -d "$LAB_RXE" -n $N
lab_pair_serve pt-server-lat ib_send_lat -R -d "$LAB_RXE" -n $N
lab_barrier finished
