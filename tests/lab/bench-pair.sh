#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag bw/lat against ib_write_bw/ib_send_lat across the lab's two
# guests (the boot scripts are tests/lab/bench/pair-bench-{a,b}.sh after
# pair-bench-common.sh: a
# benchmark, so not among the scenarios make check-lab runs); prints each
# pair's figures and the median ratios.  PAIR_BENCH_PAIRS (5),
# PAIR_BENCH_BW_ITERS (300) and PAIR_BENCH_LAT_ITERS (1000) reach both
# guests.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pair-bench"
for side in a b; do
	{
		for v in PAIR_BENCH_PAIRS PAIR_BENCH_BW_ITERS PAIR_BENCH_LAT_ITERS; do
			[ -z "${!v:-}" ] || printf '%s=%q\n' "$v" "${!v}"
		done
		cat "$here/bench/pair-bench-common.sh" "$here/bench/pair-bench-$side.sh"
	} > "$tmp/pair-bench/$side.sh"
done
chmod -R a+rX "$tmp"
rc=0
"$here/run" "$tmp/pair-bench" || rc=$?
out=${LAB_OUT_DIR:-${LAB_TOP_BUILDDIR:-$(cd "$here/../.." && pwd)}/tests/lab/out}/pair-bench
grep -h 'pair [0-9]\|median\|FAIL' "$out/a/scenario.log" | sed 's/^lab: \[[0-9.]*\] //'
exit "$rc"
