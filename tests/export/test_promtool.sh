#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `promtool check metrics` accepts the export of every fixture tree and
# every saved snapshot, in both namings; no series appears twice; every
# family has one HELP and one TYPE line.
. "$(dirname "$0")/lib.sh"
need promtool prometheus
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"

"$fixtures/make-synthetic.sh" --bench "$tmp/bench-host" >/dev/null
checked=0
check_one() {	# check_one NAME ARGS...
	local name=$1
	shift
	"$bin" export "$@" >"$tmp/out.prom" 2>"$tmp/err" ||
		fail "$name: rdmadiag export $* failed: $(cat "$tmp/err")"
	[ -s "$tmp/out.prom" ] || fail "$name: empty output"
	promtool check metrics <"$tmp/out.prom" >"$tmp/lint" 2>&1 ||
		fail "$name: promtool check metrics: $(cat "$tmp/lint")"
	dup=$(normalize <"$tmp/out.prom" | sed 's/ [^ ]*$//' | uniq -d | head -3)
	[ -z "$dup" ] || fail "$name: series printed twice: $dup"
	for kind in HELP TYPE; do
		dup=$(awk -v k="$kind" '$1 == "#" && $2 == k { print $3 }' \
			"$tmp/out.prom" | sort | uniq -d | head -3)
		[ -z "$dup" ] || fail "$name: two $kind lines for $dup"
	done
	# Samples of one family stand together, after its TYPE line.
	awk '$1 == "#" && $2 == "TYPE" { fam = $3; seen[fam] = 1; next }
	     /^#/ { next }
	     { n = $0; sub(/[{ ].*/, "", n)
	       if (n != fam) { print "sample " n " outside its family"; exit 1 } }' \
		"$tmp/out.prom" || fail "$name: families interleaved"
	checked=$((checked + 1))
}
for root in $(fixture_trees) "$tmp/bench-host"; do
	name=${root#"$fixtures"/}
	check_one "$name" --root "$root"
	check_one "$name (compat)" --root "$root" --compat node_exporter
done
for f in "$fixtures"/*/snapshot.json "$fixtures"/*/snapshot.golden.json \
	"$srcdir"/data/demo/*.jsonl; do
	[ -f "$f" ] || continue
	name=${f#"$srcdir"/}
	check_one "$name" --load "$f"
	check_one "$name (compat)" --load "$f" --compat node_exporter
done
[ "$checked" -ge 20 ] || fail "only $checked outputs checked"
echo "PASS: promtool accepted $checked exports"
