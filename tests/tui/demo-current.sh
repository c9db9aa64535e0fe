#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped demo recording must be exactly what tests/tui/demo-gen makes.
# To refresh it: tests/tui/demo-gen > $srcdir/data/demo/cx6dx-demo.jsonl
set -eu
src=${RDMADIAG_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
gen=./tests/tui/demo-gen
[ -x "$gen" ] || { echo "demo-gen not built"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$gen" > "$tmp"
if cmp -s "$tmp" "$src/data/demo/cx6dx-demo.jsonl"; then
	echo "demo recording is current ($(wc -l < "$tmp") frames)"
else
	echo "data/demo/cx6dx-demo.jsonl differs from what demo-gen makes:"
	echo "  regenerate: tests/tui/demo-gen > data/demo/cx6dx-demo.jsonl"
	exit 1
fi
