# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Benchmark across two guests (RoCE v2 between two kernels over the lab's
# Ethernet segment): rdmadiag bw vs ib_write_bw (64 KiB writes) and
# rdmadiag lat vs ib_send_lat (2 bytes), side a the client, side b the
# server of both tools with the same options; PAIRS pairs in alternating
# order; the median ratios of the pairs where both tools gave a figure.
# TCG is slow and noisy: the figures compare the two tools, not hardware.
# Run it with tests/lab/bench-pair.sh, which puts pair-bench-common.sh
# (the setup and the CMD table) in front.

# figure FILE COLUMN: that column of the result line under '#bytes', if
# it is a finite number.
figure() {
	local v
	v=$(grep -A1 -E '^ *#bytes' "$1" | tail -n 1 | awk -v c="$2" '{print $c}')
	[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] && echo "$v"
}

: > "$LAB_OUT/bw-ratios"
: > "$LAB_OUT/lat-ratios"
for k in $(seq 1 "$PAIRS"); do
	order="pt rd"
	[ $((k % 2)) -eq 1 ] || order="rd pt"
	for t in bw lat; do
		for who in $order; do
			# shellcheck disable=SC2086 # the words of the command
			LAB_PAIR_MAY_FAIL=1 lab_pair_connect "p$k.$t.$who" ${CMD[$t.$who]} "$LAB_PEER_ADDR"
		done
		# BW average [MB/sec] is column 4, t_typical [usec] column 5.
		c=4
		[ "$t" = bw ] || c=5
		pt=$(figure "$LAB_OUT/p$k.$t.pt.client" $c) || pt=
		rd=$(figure "$LAB_OUT/p$k.$t.rd.client" $c) || rd=
		if [ -n "$pt" ] && [ -n "$rd" ] && [ "$pt" != 0 ]; then
			awk -v a="$rd" -v b="$pt" 'BEGIN { printf "%.4f\n", a / b }' >> "$LAB_OUT/$t-ratios"
			lab_log "pair $k: $t $([ "$t" = bw ] && echo 'MB/s' || echo 't_typical usec') rdmadiag $rd, perftest $pt"
		else
			lab_log "pair $k: $t: no figure from both tools (rdmadiag '${rd:-none}', perftest '${pt:-none}')"
		fi
	done
done
for t in bw lat; do
	n=$(wc -l < "$LAB_OUT/$t-ratios")
	[ "$n" -gt 0 ] || { lab_log "median $t ratio: no pair gave both figures"; continue; }
	m=$(sort -g "$LAB_OUT/$t-ratios" | awk '{v[NR] = $1} END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	lab_log "median $t ratio of $n pairs across two guests (rdmadiag / perftest, bw: higher is better, lat: lower is better): $m"
done
lab_barrier finished
