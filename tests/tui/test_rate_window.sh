#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One recording, one rate: the Counters screen and check --load of the
# same frame of the demo recording give out_of_buffer the same rate (the
# newest 10 s of samples, RD_RATE_WINDOW), in the middle of the burst
# where a short window and the whole recording would disagree.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

rec="$RDMADIAG_SRCDIR/data/demo/cx6dx-demo.jsonl"
tui_start rate 120 40 -d 0.3 --replay "$rec"
wait_for rate "mlx5_0/1" 10
keys rate F2
keys rate Home
wait_for rate "  mlx5_0/1"
keys rate F4
wait_for rate "sort:rate"
keys rate / o u t _ o f _ b u f f e r Enter
wait_for rate "filter:out_of_buffer"
# Pause inside the burst (frames 21..35 of 60), then read the frame.
i=0
frame=0
while [ "$i" -lt 200 ]; do
	frame=$(tui_screen rate | sed -n 's/.* REPLAY \([0-9]*\)\/60.*/\1/p' | head -1)
	[ -n "$frame" ] && [ "$frame" -ge 26 ] && break
	sleep 0.1
	i=$((i + 1))
done
keys rate Space
wait_for rate "PAUSED"
sleep 0.5
frame=$(tui_screen rate | sed -n 's/.* REPLAY \([0-9]*\)\/60 PAUSED.*/\1/p' | head -1)
# The hw_counters row: "out_of_buffer  hw  TOTAL  RATE pkt/s ..."
shown=$(tui_screen rate | awk '$1 == "out_of_buffer" {
	for (i = 2; i < NF; i++) if ($(i + 1) == "pkt/s") { print $i; exit } }')
keys rate q
wait_exit rate 0

if [ -z "$frame" ] || [ "$frame" -lt 21 ] || [ "$frame" -gt 35 ]; then
	not_ok "paused at frame '${frame}', not inside the burst (21..35)"
	tui_summary
	exit 1
fi
want=$("$RDMADIAG_BIN" check --json --load "$rec" --frame "$frame" \
	--only counters.errors --device mlx5_0 |
	jq -r '.[0].evidence[] | select(.what == "out_of_buffer") | .value' |
	sed -n 's/.*(\([0-9.e+]*\) [a-z]*\/s).*/\1/p')
if [ -n "$shown" ] && [ -n "$want" ] &&
   awk -v a="$shown" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d;
	exit !(b > 1 && d <= 0.051 * b) }'; then
	ok "frame $frame: console $shown pkt/s, check --load $want/s"
else
	not_ok "frame $frame: console '$shown' pkt/s, check --load '$want'/s"
fi
tui_summary
