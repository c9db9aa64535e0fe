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
LAB_PAIR_CM=1

for op in write read send; do
	lab_pair_serve "rd-server-$op" "$RDMADIAG" bw -R --op "$op" -d "$LAB_RXE" -n $N
	lab_pair_serve "pt-server-$op" "ib_${op}_bw" -R -d "$LAB_RXE" -n $N
done
grep -q "rdma_cm QPs[[:space:]]*: ON" "$LAB_OUT/rd-server-write.server" ||
	lab_fail "rdmadiag's -R server does not say rdma_cm QPs: ON"
# No TCP socket on the test port: perftest -R does not open one either.
! grep -q "Listening on .* and 127.0.0.1" "$LAB_OUT/rd-server-write.server" ||
	lab_fail "rdmadiag -R claims a TCP listener"
lab_pair_serve rd-server-lat "$RDMADIAG" lat -R --op send -d "$LAB_RXE" -n $N
lab_pair_serve pt-server-lat ib_send_lat -R -d "$LAB_RXE" -n $N
lab_barrier finished
