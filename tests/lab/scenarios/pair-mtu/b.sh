# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts whose MTUs differ: side b at netdev MTU 9000 (RoCE active MTU
# 4096) against side a at 1500; see a.sh.  The servers here, perftest and
# rdmadiag, must run at the smaller MTU, 1024, although this port's own
# active MTU is 4096.

lab_pair_setup 9000
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
lab_pair_snapshot mtu 9000 4096
lab_barrier snapshots

N=200
lab_pair_serve write-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_ran_at_mtu "$LAB_OUT/write-bw.server" 1024
lab_pair_serve read-bw ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_ran_at_mtu "$LAB_OUT/read-bw.server" 1024
lab_pair_serve read-bw-rd-server "$RDMADIAG" bw --op read -d "$LAB_RXE" -n $N
lab_ran_at_mtu "$LAB_OUT/read-bw-rd-server.server" 1024
lab_pair_serve read-bw-rd-client ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_ran_at_mtu "$LAB_OUT/read-bw-rd-client.server" 1024
lab_barrier finished
