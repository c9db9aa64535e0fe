# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# rdmadiag bw and lat in loopback on rxe0 (two QPs of one port connected to
# each other, no peer process): every operation, JSON results, counters.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

for op in write read send; do
	"$RDMADIAG" bw --loopback -d rxe0 --op $op -s 65536 -n 200 \
		> "$LAB_OUT/bw-$op.txt" 2>&1 || lab_fail "bw --op $op: $(tail -n 3 "$LAB_OUT/bw-$op.txt")"
	grep -q 'BW average\[MB/sec\]' "$LAB_OUT/bw-$op.txt" || lab_fail "bw $op: no perftest header"
	lab_log "bw $op: $(grep -A1 -E '^ *#bytes' "$LAB_OUT/bw-$op.txt" | tail -n 1 | tr -s ' ')"
done

# JSON: one result line, 200 messages counted, a positive average.
"$RDMADIAG" bw --loopback -d rxe0 -s 4096 -n 200 -q 2 --json > "$LAB_OUT/bw.json" 2> "$LAB_OUT/bw.json.err" ||
	lab_fail "bw --json: $(cat "$LAB_OUT/bw.json.err")"
assert_json "$LAB_OUT/bw.json" '.type' result
assert_json "$LAB_OUT/bw.json" '.results[0].iterations' 400 "2 QPs x 200 messages"
assert_json_true "$LAB_OUT/bw.json" '.results[0].bw_avg_mibps > 0' "average bandwidth > 0"
assert_json_true "$LAB_OUT/bw.json" '.results[0].bw_peak_mibps >= .results[0].bw_avg_mibps' "peak >= average"
# 400 x 4 KiB went out of the port: the send counter moved by at least that.
assert_json_true "$LAB_OUT/bw.json" '(.counters.sent_pkts // 0) >= 400' "sent_pkts counted the test"

# Soft-RoCE has no link or PCIe rate to reach: the result says so, and an
# acceptance run cannot pass on it.
assert_json_true "$LAB_OUT/bw.json" '.reachable.unknown_because | test("no PCI function")' "no reachable rate for rxe0"
grep -q 'no reachable rate: rxe0 has no PCI function' "$LAB_OUT/bw-write.txt" ||
	lab_fail "bw text: no line about the reachable rate"
rc=0
"$RDMADIAG" bw --loopback -d rxe0 -s 4096 -n 20 --no-counters --expect-percent 50 \
	> "$LAB_OUT/bw-expect.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || lab_fail "bw --expect-percent on rxe0 exited $rc, not 1"
grep -q 'expect-percent 50: cannot judge' "$LAB_OUT/bw-expect.txt" ||
	lab_fail "bw --expect-percent: no reason given: $(tail -n 2 "$LAB_OUT/bw-expect.txt")"

# Bidirectional and duration.
"$RDMADIAG" bw --loopback -d rxe0 -b -s 65536 -n 100 --json > "$LAB_OUT/bw-bidir.json" ||
	lab_fail "bw -b failed"
assert_json "$LAB_OUT/bw-bidir.json" '.results[0].iterations' 200 "both directions counted"
"$RDMADIAG" bw --loopback -d rxe0 -D 2 -s 8192 --progress-fd 3 --json \
	> "$LAB_OUT/bw-dur.json" 3> "$LAB_OUT/bw-dur.progress" || lab_fail "bw -D failed"
assert_json_true "$LAB_OUT/bw-dur.json" '.results[0].iterations > 0' "-D counted messages"
n=$(grep -c '"type":"progress"' "$LAB_OUT/bw-dur.progress" || true)
[ "$n" -ge 1 ] || lab_fail "no progress lines on fd 3"
tail -n 1 "$LAB_OUT/bw-dur.progress" | jq -e '.type == "result"' > /dev/null ||
	lab_fail "last progress line is not the result"
lab_log "ok: $n progress lines, then the result"

for op in send write; do
	"$RDMADIAG" lat --loopback -d rxe0 --op $op -n 300 > "$LAB_OUT/lat-$op.txt" 2>&1 ||
		lab_fail "lat --op $op: $(tail -n 3 "$LAB_OUT/lat-$op.txt")"
	lab_log "lat $op: $(grep -A1 -E '^ *#bytes' "$LAB_OUT/lat-$op.txt" | tail -n 1 | tr -s ' ')"
done
"$RDMADIAG" lat --loopback -d rxe0 -n 300 --json > "$LAB_OUT/lat.json" || lab_fail "lat --json failed"
assert_json "$LAB_OUT/lat.json" '.results[0].samples' 300
assert_json_true "$LAB_OUT/lat.json" '.results[0] | .t_min <= .t_typical and .t_typical <= .t_p99 and .t_p99 <= .t_max' \
	"t_min <= t_typical <= p99 <= t_max"
assert_json_true "$LAB_OUT/lat.json" '.results[0] | .samples_kept == 298 and .t_max <= .t_max_all and .t_p9999_all <= .t_max_all and ([.histogram.counts[]] | add) + .histogram.over == 300' \
	"perftest's figures from 298 samples, the true max, a histogram of all 300"
"$RDMADIAG" lat --loopback -d rxe0 -n 300 -H --histogram > "$LAB_OUT/lat-hist.txt" 2>&1 ||
	lab_fail "lat -H --histogram: $(tail -n 3 "$LAB_OUT/lat-hist.txt")"
[ "$(grep -cE '^[0-9]+, [0-9.e+-]+$' "$LAB_OUT/lat-hist.txt")" -eq 298 ] ||
	lab_fail "lat -H: not 298 sorted samples"
[ "$(awk '/^ Histogram of 300 samples/ { h = 1; next } h && $2 == ".." { n += $4 } END { print n }' "$LAB_OUT/lat-hist.txt")" -eq 300 ] ||
	lab_fail "lat --histogram: the counts do not add up to 300"
# -a over a few sizes would take long under TCG: 2 B .. 8 MiB once, 5 iterations.# --samples: the same 300 samples in the order measured; sorted, they
# give the run's own typical and max.
"$RDMADIAG" lat --loopback -d rxe0 -n 300 --json --samples "$LAB_OUT/samples.tsv" \
	> "$LAB_OUT/lat-samples.json" || lab_fail "lat --samples failed"
[ "$(grep -c -v '^#' "$LAB_OUT/samples.tsv")" -eq 300 ] ||
	lab_fail "--samples: not 300 lines"
awk -F'\t' '!/^#/ { if ($1 != 2 || $2 != ++n || $3 <= 0) bad = 1 } END { exit bad }' \
	"$LAB_OUT/samples.tsv" || lab_fail "--samples: a line is not size 2, the next iteration, a positive time"
MAXS=$(grep -v '^#' "$LAB_OUT/samples.tsv" | cut -f3 | sort -g | tail -n 1)
assert_json_true "$LAB_OUT/lat-samples.json" \
	".results[0].t_max_all - $MAXS | fabs < 0.001" "--samples holds the true maximum"
# perftest's median of the 298 kept: the mean of the two middle ones.
TYP=$(grep -v '^#' "$LAB_OUT/samples.tsv" | cut -f3 | sort -g | sed -n '149,150p' |
	awk '{ s += $1 } END { printf "%.4f", s / 2 }')
assert_json_true "$LAB_OUT/lat-samples.json" \
	".results[0].t_typical - $TYP | fabs < 0.001" "--samples sorted gives t_typical"
"$RDMADIAG" lat --loopback -d rxe0 -n 300 --samples "$LAB_OUT/samples.tsv" \
	> "$LAB_OUT/samples-again.txt" 2>&1 && lab_fail "--samples wrote over an existing file"
grep -q "a file or a symlink is there" "$LAB_OUT/samples-again.txt" ||
	lab_fail "--samples over a file: $(cat "$LAB_OUT/samples-again.txt")"

"$RDMADIAG" lat --loopback -d rxe0 -a -n 5 --json > "$LAB_OUT/lat-all.json" || lab_fail "lat -a failed"
assert_json "$LAB_OUT/lat-all.json" '.results | length' 23 "-a: 2 B .. 8 MiB"
