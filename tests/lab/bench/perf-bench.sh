# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Benchmark on rxe0 (server and client processes, out of band over
# 127.0.0.1): rdmadiag bw vs ib_write_bw (64 KiB writes) and rdmadiag lat,
# with the port's counters shown (as by default) and not shown, vs
# ib_send_lat (2 bytes, 3000 iterations), same options, 5 pairs in
# alternating order. Prints every pair's figures and each ratio's
# distribution (min, median, max, pairs above 1.03); targets: bw median
# >= 1.00, typical latency median <= 1.00 and no pair above 1.03.
# PERF_BENCH_TESTS="lat" (or "bw") runs only one of the two.
# TCG is slow and noisy: the figures compare the two tools, not hardware.
# Takes minutes on an idle machine, far longer on a loaded one: run it with
# tests/lab/bench-perf.sh.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"

PORT=18515
N_BW=${PERF_BENCH_BW_ITERS:-300}
N_LAT=${PERF_BENCH_LAT_ITERS:-3000}
PAIRS=${PERF_BENCH_PAIRS:-5}
TESTS=${PERF_BENCH_TESTS:-bw lat}
# PERF_BENCH_PIN: where the two ends run, the same way for both tools:
# "split" (server on CPU 0, client on CPU 1), "same" (both on CPU 0), or
# unset (where the scheduler puts them, as users run them).
case ${PERF_BENCH_PIN:-} in
split) PIN_S=(taskset -c 0) PIN_C=(taskset -c 1) ;;
same) PIN_S=(taskset -c 0) PIN_C=(taskset -c 0) ;;
'') PIN_S=() PIN_C=() ;;
*) lab_fail "PERF_BENCH_PIN=$PERF_BENCH_PIN: split, same or unset" ;;
esac
[ "$PAIRS" -ge 5 ] || lab_fail "PERF_BENCH_PAIRS=$PAIRS: a median needs at least 5 pairs"

# pair OUT SERVER_CMD... -- CLIENT_CMD...: the client's output in OUT; a run
# where perftest could not calibrate its clock (TCG: no report, or inf in
# every column) is repeated.
pair() {
	local out=$1 try rc src server
	shift
	local -a scmd=() ccmd=()
	while [ "$1" != -- ]; do scmd+=("$1"); shift; done
	shift
	ccmd=("$@")
	for try in 1 2 3; do
		rc=0 src=0
		"${PIN_S[@]}" "${scmd[@]}" > "$out.server" 2>&1 &
		server=$!
		lab_wait 30 "server on port $PORT" lab_port_listening "$PORT"
		"${PIN_C[@]}" timeout 300 "${ccmd[@]}" > "$out" 2>&1 || rc=$?
		timeout 30 tail --pid="$server" -f /dev/null || kill -9 "$server" 2> /dev/null || true
		wait "$server" || src=$?
		if [ "$rc" -eq 0 ] && [ "$src" -eq 0 ]; then
			finite "$(col "$out" 5)" && return 0
			continue
		fi
		lab_perftest_gave_up "$out" "$out.server" || break
	done
	lab_fail "$out: client $rc, server $src: $(tail -n 3 "$out" "$out.server")"
}

finite() {
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]
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
# The client keeps its samples in the order measured (after the timed
# loop): a slow run shows whether it was slow from the start or changed.
lat_rd() {
	rm -f "$1.samples.tsv"
	pair "$1" "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" \
		-- "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" \
		--samples "$1.samples.tsv" 127.0.0.1
}
# phases FILE: the median of the first, middle and last tenth of a run's
# samples in the order measured.
phases() {
	local n t mid
	n=$(grep -vc '^#' "$1")
	t=$((n / 10))
	[ "$t" -ge 1 ] || t=1
	mid=$((n / 2 - t / 2 + 1))
	printf '%s / %s / %s' \
		"$(grep -v '^#' "$1" | cut -f3 | head -n "$t" | median)" \
		"$(grep -v '^#' "$1" | cut -f3 | sed -n "$mid,$((mid + t - 1))p" | median)" \
		"$(grep -v '^#' "$1" | cut -f3 | tail -n "$t" | median)"
}
# the same without the port's counters beside the test
lat_rd_quiet() {
	pair "$1" "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" --no-counters \
		-- "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" --no-counters 127.0.0.1
}

has() { [[ " $TESTS " == *" $1 "* ]]; }

# ratio NAME K COLUMN: pair K's rdmadiag/perftest ratio of COLUMN of the
# NAME test (lat-min: of lat), added to NAME-ratios; the figures in rd, pt.
ratio() {
	local t=${1%-min} rdf
	t=${t%-quiet}
	rdf=${4:-$LAB_OUT/pair$2.$t.rd}
	pt=$(col "$LAB_OUT/pair$2.$t.pt" "$3") rd=$(col "$rdf" "$3")
	if [ -z "$rd" ] || [ -z "$pt" ]; then
		lab_fail "pair $2: no $t result line"
	fi
	awk -v a="$rd" -v b="$pt" 'BEGIN { printf "%.4f\n", a / b }' >> "$LAB_OUT/$1-ratios"
}

: > "$LAB_OUT/bw-ratios"
: > "$LAB_OUT/lat-ratios"
: > "$LAB_OUT/lat-min-ratios"
: > "$LAB_OUT/lat-quiet-ratios"
for k in $(seq 1 "$PAIRS"); do
	d=$LAB_OUT/pair$k
	if [ $((k % 2)) -eq 1 ]; then
		! has bw || { bw_pt "$d.bw.pt"; bw_rd "$d.bw.rd"; }
		! has lat || { lat_pt "$d.lat.pt"; lat_rd "$d.lat.rd"; lat_rd_quiet "$d.lat.rdq"; }
	else
		! has bw || { bw_rd "$d.bw.rd"; bw_pt "$d.bw.pt"; }
		! has lat || { lat_rd_quiet "$d.lat.rdq"; lat_rd "$d.lat.rd"; lat_pt "$d.lat.pt"; }
	fi
	# BW average is column 4; t_typical is column 5.
	if has bw; then
		ratio bw "$k" 4
		lab_log "pair $k: bw MB/s rdmadiag $rd, ib_write_bw $pt"
	fi
	if has lat; then
		ratio lat "$k" 5
		lab_log "pair $k: t_typical usec rdmadiag $rd, ib_send_lat $pt"
		# t_min: the floor, the figure least moved by a loaded host.
		ratio lat-min "$k" 3
		lab_log "pair $k: t_min usec rdmadiag $rd, ib_send_lat $pt"
		ratio lat-quiet "$k" 5 "$d.lat.rdq"
		lab_log "pair $k: t_typical usec rdmadiag --no-counters $rd, ib_send_lat $pt"
		lab_log "pair $k: rdmadiag median usec of the first / middle / last tenth: $(phases "$d.lat.rd.samples.tsv")"
	fi
done
# PERF_BENCH_STRACE=1: once more each, with the client under strace -c,
# for the system calls each tool makes per round trip (timed figures of
# these runs are not used: strace slows every call it sees).
if has lat && [ -n "${PERF_BENCH_STRACE:-}" ] && command -v strace > /dev/null; then
	for t in pt rd; do
		if [ $t = pt ]; then
			pair "$LAB_OUT/strace.lat.pt" ib_send_lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" \
				-- strace -f -c -U calls,name -o "$LAB_OUT/strace.pt.txt" \
				ib_send_lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" 127.0.0.1
		else
			pair "$LAB_OUT/strace.lat.rd" "$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" \
				-- strace -f -c -U calls,name -o "$LAB_OUT/strace.rd.txt" \
				"$RDMADIAG" lat -d rxe0 -x 1 -p $PORT -s 2 -n "$N_LAT" 127.0.0.1
		fi
		calls=$(awk '$2 == "total" { print $1 }' "$LAB_OUT/strace.$t.txt")
		top=$(awk '$1 ~ /^[0-9]+$/ && $2 != "total" { print $1, $2 }' "$LAB_OUT/strace.$t.txt" |
			sort -g -r | head -n 4 | awk '{ printf "%s %s, ", $2, $1 }')
		lab_log "strace -c, $t client, $N_LAT iterations: $calls system calls in all, $(awk -v c="$calls" -v n="$N_LAT" 'BEGIN { printf "%.3f", c / n }') per round trip; most: $top"
	done
fi
# spread NAME: "min X, median Y, max Z, N of P pairs above 1.03"
spread() {
	sort -g "$LAB_OUT/$1-ratios" | awk -v m="$(median < "$LAB_OUT/$1-ratios")" '
		{ v[NR] = $1; if ($1 > 1.03) over++ }
		END { printf "min %s, median %s, max %s, %d of %d pairs above 1.03\n", v[1], m, v[NR], over, NR }'
}
summary=
if has bw; then
	bw=$(median < "$LAB_OUT/bw-ratios")
	summary="bw_ratio_median=$bw"
	lab_log "median bw ratio of $PAIRS pairs (rdmadiag / ib_write_bw, target >= 1.00): $bw"
	lab_log "bw ratio: $(spread bw)"
fi
if has lat; then
	lat=$(median < "$LAB_OUT/lat-ratios")
	lmin=$(median < "$LAB_OUT/lat-min-ratios")
	summary="$summary lat_ratio_median=$lat lat_min_ratio_median=$lmin"
	lab_log "median t_typical ratio of $PAIRS pairs, $N_LAT iterations (rdmadiag / ib_send_lat, target <= 1.00): $lat"
	lab_log "median t_min ratio of $PAIRS pairs: $lmin"
	lab_log "t_typical ratio, counters shown: $(spread lat)"
	lab_log "t_typical ratio, counters not shown: $(spread lat-quiet)"
	lab_log "t_min ratio: $(spread lat-min)"
fi
echo "${summary# }" > "$LAB_OUT/summary"
