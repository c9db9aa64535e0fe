#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the console costs: time to the first complete frame on the demo,
# CPU time over an idle minute at the default refresh, and peak RSS.
# Targets: CPU < 1% of a core, peak RSS < 16 MiB.
# BENCH_SECONDS shortens the idle measurement (default 60).
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"
secs=${BENCH_SECONDS:-60}
hz=$(getconf CLK_TCK)

# First complete frame: from start until the key bar (drawn last) shows.
t0=$(date +%s%N)
tui_start bench 100 30 --demo
i=0
until tui_screen bench | grep -qF "F10Quit" || [ $i -ge 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
t1=$(date +%s%N)
first_ms=$(( (t1 - t0) / 1000000 ))
pid=$(tui_pid bench)
[ -n "$pid" ] || { echo "rdmadiag did not start"; exit 1; }

# Idle: no keys, the demo advancing once a second.
cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
sleep "$secs"
cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
rss_kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
ticks=$((cpu1 - cpu0))
cpu_pct=$(awk -v t="$ticks" -v hz="$hz" -v s="$secs" \
	'BEGIN { printf "%.2f", 100 * t / hz / s }')
keys bench q
wait_exit bench 0 >/dev/null

echo "first complete frame: ${first_ms} ms (includes tmux start-up)"
echo "idle CPU over ${secs} s at 1 s refresh: ${cpu_pct}% of a core ($ticks ticks)"
echo "peak RSS: $((rss_kb / 1024)) MiB (${rss_kb} kB)"
fail=0
awk -v c="$cpu_pct" 'BEGIN { exit !(c < 1.0) }' ||
	{ echo "CPU above the 1% target"; fail=1; }
[ "$rss_kb" -lt 16384 ] || { echo "RSS above the 16 MiB target"; fail=1; }
exit $fail
