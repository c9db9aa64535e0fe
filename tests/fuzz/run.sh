#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run each fuzz target for SECONDS from its committed seed corpus (copied,
# so the tree stays clean). Run from a build directory configured with
# CC=clang --enable-fuzzing after `make fuzz`.
#   usage: tests/fuzz/run.sh SECONDS [TARGET...]
set -euo pipefail
secs=${1:?seconds}
shift
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for d in "$here"/corpus/*/; do targets+=("$(basename "$d")"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for t in "${targets[@]}"; do
	bin=tests/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "FAIL $t: $bin not built (make fuzz)"; status=1; continue; }
	mkdir -p "$work/$t"
	cp -r "$here/corpus/$t/." "$work/$t/" 2>/dev/null || true
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/$t-" \
		"$work/$t" >"$work/$t.log" 2>&1; then
		execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/$t.log")
		echo "PASS $t: $execs executions in ${secs}s, no finding"
	else
		echo "FAIL $t: finding (log below)"
		tail -40 "$work/$t.log"
		ls "$work"/"$t"-* 2>/dev/null | while read -r a; do
			echo "reproducer: $(basename "$a") base64 $(base64 -w0 "$a" | head -c 400)"
		done
		status=1
	fi
done
exit $status
