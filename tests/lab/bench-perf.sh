#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag bw/lat against ib_write_bw/ib_send_lat in the lab (the boot
# script is tests/lab/bench/perf-bench.sh: a benchmark, so not among the
# scenarios make check-lab runs); prints each pair's figures and the median
# ratios.  PERF_BENCH_TESTS ("bw lat"), PERF_BENCH_PAIRS (5, at least 5),
# PERF_BENCH_BW_ITERS (300), PERF_BENCH_LAT_ITERS (3000), PERF_BENCH_PIN and
# PERF_BENCH_STRACE (1: a strace -c pass of each client) reach the guest.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
# The guest sees only what the scenario file says: a copy of the boot
# script, under the same name, with the settings in front.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	for v in PERF_BENCH_TESTS PERF_BENCH_PAIRS PERF_BENCH_BW_ITERS \
		PERF_BENCH_LAT_ITERS PERF_BENCH_PIN PERF_BENCH_STRACE; do
		[ -z "${!v:-}" ] || printf '%s=%q\n' "$v" "${!v}"
	done
	cat "$here/bench/perf-bench.sh"
} > "$tmp/perf-bench.sh"
chmod a+rx "$tmp"
rc=0
"$here/run" "$tmp/perf-bench.sh" || rc=$?
out=${LAB_OUT_DIR:-${LAB_TOP_BUILDDIR:-$(cd "$here/../.." && pwd)}/tests/lab/out}/perf-bench
grep -h 'pair\|median\|ratio\|strace\|FAIL' "$out/scenario.log" | sed 's/^lab: \[[0-9.]*\] //'
exit "$rc"
