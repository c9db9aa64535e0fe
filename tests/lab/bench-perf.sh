#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag bw/lat against ib_write_bw/ib_send_lat in the lab (the boot
# script is tests/lab/bench/perf-bench.sh: a benchmark, so not among the
# scenarios make check-lab runs); prints the median ratios.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LAB_TIMEOUT=${LAB_TIMEOUT:-400}
"$here/run" "$here/bench/perf-bench.sh"
out=${LAB_OUT_DIR:-$(cd "$here/../.." && pwd)/tests/lab/out}/perf-bench
grep -h 'pair\|median' "$out/scenario.log" | sed 's/^lab: \[[0-9.]*\] //'
