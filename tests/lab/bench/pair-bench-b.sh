# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Side b of the two-guest benchmark (tests/lab/bench-pair.sh): serves each
# test in the order a's client asks for it (see pair-bench-a.sh).

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
for k in $(seq 1 "$PAIRS"); do
	order="pt rd"
	[ $((k % 2)) -eq 1 ] || order="rd pt"
	for t in bw lat; do
		for who in $order; do
			# shellcheck disable=SC2086 # the words of the command
			LAB_PAIR_MAY_FAIL=1 lab_pair_serve "p$k.$t.$who" ${CMD[$t.$who]}
		done
	done
done
lab_barrier finished
