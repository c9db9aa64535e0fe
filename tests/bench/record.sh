#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder's own cost on the benchmark host (2 devices x 2
# ports x 150 counters, tests/fixtures/make-synthetic.sh --bench), with
# symbol_error and link_downed added to each port so rises are written:
#  - CPU per interval, read from /proc/PID/stat (user + system ticks),
#    quiet and with every port changing, as % of a core at 1 s sampling;
#  - bytes written per day at 1 s sampling, from the store's size per
#    row and the rows an interval writes;
#  - the time to read a day back: a store holding a day of 1 s intervals
#    in which every port's error counter rose each second (345600 delta
#    rows, 86400 events), read by timeline --since 1d and by check
#    --since 1d (the console's and check's read).
# Prints figures; never passes or fails.
#   usage: tests/bench/record.sh [path/to/rdmadiag] [seconds per run]
set -euo pipefail
bin=$(readlink -f "${1:-./src/rdmadiag}")
secs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
writer=
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
"$here/../fixtures/make-synthetic.sh" --bench "$tmp/host"
ports=()
for d in 0 1; do
	for p in 1 2; do
		pd="$tmp/host/sys/devices/virtual/infiniband/bench$d/ports/$p"
		printf '0\n' >"$pd/counters/symbol_error"
		printf '0\n' >"$pd/counters/link_downed"
		ports+=("$pd")
	done
done
tick=$(getconf CLK_TCK)
interval=0.1

# run NAME: a recorder at $interval for $secs seconds; prints its CPU
# seconds, the intervals it ran and the store's rows and bytes.
run() {
	local store="$tmp/store-$1" pid t0 t1 cpu rows bytes
	"$bin" record --store "$store" --root "$tmp/host" --interval "$interval" 2>"$tmp/$1.err" &
	pid=$!
	t0=$(date +%s.%N)
	sleep "$secs"
	# utime and stime, fields 14 and 15 (the name in field 2 has no blank)
	cpu=$(awk -v t="$tick" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$pid/stat")
	t1=$(date +%s.%N)
	kill -TERM "$pid"
	wait "$pid"
	rows=$(sqlite3 "$store/record.db" "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM deltas)")
	bytes=$(sqlite3 "$store/record.db" "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size")
	awk -v n="$1" -v c="$cpu" -v a="$t0" -v b="$t1" -v i="$interval" -v r="$rows" -v by="$bytes" 'BEGIN {
		k = (b - a) / i
		printf "%-8s %5.0f intervals  %.2f ms CPU/interval  %.3f %% of a core at 1 s  %d rows  %d bytes of rows\n",
			n, k, c / k * 1000, c / k * 100, r, by
	}'
	printf '%s %s %s\n' "$rows" "$bytes" "$(awk -v a="$t0" -v b="$t1" -v i="$interval" 'BEGIN { printf "%.0f", (b - a) / i }')" >"$tmp/$1.figures"
}

echo "flight recorder on 2 devices x 2 ports x 152 counters, $interval s intervals for $secs s:"
run quiet
# every port down and up again, and its error counter rising, all the time
(
	n=0
	while :; do
		n=$((n + 1))
		for pd in "${ports[@]}"; do
			printf '%s\n' "$n" >"$pd/counters/symbol_error"
			if ((n % 2)); then printf '1: DOWN  \n' >"$pd/state"; else printf '4: ACTIVE\n' >"$pd/state"; fi
		done
		sleep 0.05
	done
) &
writer=$!
run busy
kill "$writer"
writer=
read -r qrows qbytes qn <"$tmp/quiet.figures"
read -r brows bbytes bn <"$tmp/busy.figures"
awk -v qr="$qrows" -v qb="$qbytes" -v br="$brows" -v bb="$bbytes" -v bn="$bn" 'BEGIN {
	per_row = bb / br
	printf "bytes per row      %.0f (busy store: %d bytes of rows / %d rows)\n", per_row, bb, br
	printf "bytes per day      quiet: %d (the first interval'"'"'s %d rows, then none)\n", qb, qr
	printf "                   busy, 1 s sampling: %.1f MB (%.1f rows an interval x 86400); the store keeps 64 MiB at most\n",
		br / bn * 86400 * per_row / 1e6, br / bn
}'

# A day of 1 s intervals: every port's symbol_error rose every second,
# and its state changed every second.
day="$tmp/day"
mkdir -m 700 "$day"
"$bin" record --store "$day" --root "$tmp/host" --interval 3600 2>/dev/null &
pid=$!
for _ in $(seq 50); do [ -s "$day/record.db" ] && break; sleep 0.1; done
sleep 0.5
kill -TERM "$pid"
wait "$pid"
now=$(date +%s)
sqlite3 "$day/record.db" <<SQL
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 86400),
ports(dev, port) AS (VALUES ('bench0', 1), ('bench0', 2), ('bench1', 1), ('bench1', 2))
INSERT INTO deltas(time, since, device, port, counter, delta)
SELECT $now - 86400 + i, $now - 86401 + i, dev, port, 'symbol_error', 1 FROM s, ports;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 86400)
INSERT INTO events(time, device, port, netdev, kind, text)
SELECT $now - 86400 + i, 'bench0', 1, NULL, 'link', CASE i % 2 WHEN 1 THEN 'DOWN (was ACTIVE)' ELSE 'ACTIVE (was DOWN)' END FROM s;
SQL
size=$(stat -c %s "$day/record.db")
ms() { local a b; a=$(date +%s%N); "$@" >/dev/null 2>&1 || true; b=$(date +%s%N); echo $(((b - a) / 1000000)); }
tl=$(ms "$bin" timeline --store "$day" --since 1d)
ck=$(ms "$bin" check --root "$tmp/host" --store "$day" --since 1d --only port.flaps --window 0)
ck0=$(ms "$bin" check --root "$tmp/host" --only port.flaps --window 0)
echo "a day in the store: 345600 delta rows, 86400 events, $size bytes"
echo "timeline --since 1d   $tl ms"
echo "check --since 1d      $ck ms (without the store: $ck0 ms)"
