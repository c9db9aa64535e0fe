# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Side b of the two-guest benchmark (tests/lab/bench-pair.sh): serves each
# test in the order a's client asks for it (see pair-bench-a.sh), after
# pair-bench-common.sh.

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
