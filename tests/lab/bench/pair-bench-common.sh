# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What both sides of the two-guest benchmark share (tests/lab/bench-pair.sh
# puts it in front of pair-bench-a.sh and pair-bench-b.sh): the setup, the
# settings and the command of each test, the same options for both tools.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
N_BW=${PAIR_BENCH_BW_ITERS:-300}
N_LAT=${PAIR_BENCH_LAT_ITERS:-1000}
PAIRS=${PAIR_BENCH_PAIRS:-5}

declare -A CMD=(
	[bw.pt]="ib_write_bw -d $LAB_RXE -x $LAB_GID -s 65536 -n $N_BW"
	[bw.rd]="$RDMADIAG bw -d $LAB_RXE -x $LAB_GID -s 65536 -n $N_BW --no-counters"
	[lat.pt]="ib_send_lat -d $LAB_RXE -x $LAB_GID -s 2 -n $N_LAT"
	[lat.rd]="$RDMADIAG lat -d $LAB_RXE -x $LAB_GID -s 2 -n $N_LAT"
)
