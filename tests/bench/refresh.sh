#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of one console refresh on a fixture host with 2 devices x 2 ports x
# 150 counters: microseconds (from the program) and syscalls (strace,
# counted as the difference between two run lengths so start-up cancels).
#   usage: tests/bench/refresh.sh [path/to/rdmadiag]
set -euo pipefail
bin=${1:-./src/rdmadiag}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/../fixtures/make-synthetic.sh" --bench "$tmp/host"

"$bin" snapshot --root "$tmp/host" --bench 2000

calls() {	# calls N -> total syscalls of a --bench N run
	strace -f -c -o "$tmp/strace.$1" "$bin" snapshot --root "$tmp/host" \
		--bench "$1" >/dev/null
	awk '$NF == "total" { print $(NF-2) }' "$tmp/strace.$1"
}
a=$(calls 100)
b=$(calls 300)
counters=$("$bin" snapshot --root "$tmp/host" --bench 1 | awk '/^counters/ { print $2 }')
awk -v a="$a" -v b="$b" -v c="$counters" 'BEGIN {
	per = (b - a) / 200
	printf "syscalls/refresh   %.1f\n", per
	printf "syscalls/counter   %.3f (target <= 1.2)\n", per / c
}'

# The physical layer beside it: decode, phy checks and history for 8 ports
# of module data, and the transceiver probe's EEPROM reads per minute.
phy=$(dirname "$bin")/../tests/bench/xcvr-bench
[ -x "$phy" ] && "$phy" "$here/../fixtures/modules" || true
