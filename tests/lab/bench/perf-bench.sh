# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Benchmark on rxe0 (server and client processes, out of band over
# 127.0.0.1): rdmadiag bw vs ib_write_bw (64 KiB writes) and rdmadiag lat
# vs ib_send_lat (2 bytes), same iterations, 5 pairs in alternating order.
# Prints the median ratios; targets: bw >= 1.00, typical latency <= 1.00.
# TCG is slow and noisy: the figures compare the two tools, not hardware.
# Takes about 3 minutes: LAB_TIMEOUT=400 tests/lab/run perf-bench

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"

PORT=18515
N_BW=${PERF_BENCH_BW_ITERS:-300}
N_LAT=${PERF_BENCH_LAT_ITERS:-300}
PAIRS=${PERF_BENCH_PAIRS:-5}

# pair OUT SERVER_CMD... -- CLIENT_CMD...: the client's output in OUT; a run
# where perftest could not calibrate its clock (TCG) is repeated.
pair() {
	local out=$1 try rc src server
	shift
	local -a scmd=() ccmd=()
	while [ "$1" != -- ]; do scmd+=("$1"); shift; done
	shift
	ccmd=("$@")
	for try in 1 2 3; do
		rc=0 src=0
		"${scmd[@]}" > "$out.server" 2>&1 &
		server=$!
		lab_wait 30 "server on port $PORT" lab_port_listening "$PORT"
		timeout 90 "${ccmd[@]}" > "$out" 2>&1 || rc=$?
		timeout 30 tail --pid="$server" -f /dev/null || kill -9 "$server" 2> /dev/null || true
		wait "$server" || src=$?
		[ "$rc" -eq 0 ] && [ "$src" -eq 0 ] && return 0
		grep -qs "Can't produce a report" "$out" "$out.server" || break
	done
	lab_fail "$out: client $rc, server $src: $(tail -n 3 "$out" "$out.server")"
}

col() {
	grep -A1 -E '^ *#bytes' "$1" | tail -n 1 | awk -v c="$2" '{print $c}'
}

median() {
	sort -g | awk '{v[NR] = $1} END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bw_pt() {
	pair "$1" ib_write_bw -d rxe0 -x 1 -p $PORT -s 65536 -n "$N_BW" \
		-- ib_write_bw -d rxe0 -x 1 -p $PORT -s 65536 -n "$N_BW" 127.0.0.1
}
bw_rd() {
	pair "$1" "$RDMADIAG" bw -d rxe0 -x 1 -p $PORT -s 65536 -n "$N_BW" --no-counters \
		-- "$RDMADIAG" bw -d rxe0 -x 1 -p $PORT -s 65536 -n "$N_BW" --no-counters 127.0.0.1
}
lat_pt() {
	pair "$1" ib_send_lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" \
		-- ib_send_lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" 127.0.0.1
}
lat_rd() {
	pair "$1" "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" --no-counters \
		-- "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" --no-counters 127.0.0.1
}

: > "$LAB_OUT/bw-ratios"
: > "$LAB_OUT/lat-ratios"
for k in $(seq 1 "$PAIRS"); do
	d=$LAB_OUT/pair$k
	if [ $((k % 2)) -eq 1 ]; then
		bw_pt "$d.bw.pt"; bw_rd "$d.bw.rd"; lat_pt "$d.lat.pt"; lat_rd "$d.lat.rd"
	else
		bw_rd "$d.bw.rd"; bw_pt "$d.bw.pt"; lat_rd "$d.lat.rd"; lat_pt "$d.lat.pt"
	fi
	# BW average is column 4; t_typical is column 5.
	bp=$(col "$d.bw.pt" 4) br=$(col "$d.bw.rd" 4)
	lp=$(col "$d.lat.pt" 5) lr=$(col "$d.lat.rd" 5)
	awk -v a="$br" -v b="$bp" 'BEGIN { printf "%.4f\n", a / b }' >> "$LAB_OUT/bw-ratios"
	awk -v a="$lr" -v b="$lp" 'BEGIN { printf "%.4f\n", a / b }' >> "$LAB_OUT/lat-ratios"
	lab_log "pair $k: bw MB/s rdmadiag $br, ib_write_bw $bp; t_typical us rdmadiag $lr, ib_send_lat $lp"
done
bw=$(median < "$LAB_OUT/bw-ratios")
lat=$(median < "$LAB_OUT/lat-ratios")
echo "bw_ratio_median=$bw lat_ratio_median=$lat" > "$LAB_OUT/summary"
lab_log "median bw ratio (rdmadiag / ib_write_bw, target >= 1.00): $bw"
lab_log "median t_typical ratio (rdmadiag / ib_send_lat, target <= 1.00): $lat"
