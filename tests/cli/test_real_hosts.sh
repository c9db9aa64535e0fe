#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag check` on hosts nobody on this project built: each
# tests/fixtures/real-*/ holds a snapshot transcribed from public output of
# a real machine, either as a snapshot (snapshot.json, read with --load)
# or as a tree (tree/sys, tree/dev, built by the fixture's make-tree.sh and
# read with --root), and an expected-verdicts file written by hand from
# what the source concluded about that machine. Never regenerate it from
# the program.
#
# expected-verdicts: one line per result, "CHECK TARGET VERDICT", where
# TARGET is DEVICE/PORT, DEVICE or "host", and VERDICT is PASS, WARN,
# FAIL, UNKNOWN or ABSENT (the check must not judge that target at all).
# Text after the verdict is the reason, for people.
#
# Where the program is known to be wrong, the truth stays in
# expected-verdicts and the entry below names the mismatch and why; it is
# reported as a known failure on every run. A known failure that starts
# passing fails the test until its entry is removed.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
pass=0 fail=0 xfail=0

command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }

# FIXTURE CHECK TARGET | reason the program disagrees with the source
known_failures=(
)

known_reason() {	# known_reason FIXTURE CHECK TARGET
	local e
	for e in "${known_failures[@]}"; do
		[ "${e%%|*}" = "$1 $2 $3" ] && { printf '%s\n' "${e#*|}"; return 0; }
	done
	return 1
}

echo "known failures (program wrong, truth kept in expected-verdicts):"
for e in "${known_failures[@]}"; do
	echo "  ${e%%|*}: ${e#*|}"
done

seen=0
for dir in "$fix"/real-*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	# Shared helpers of the fixtures' make-tree.sh, not a host.
	[ "$name" = real-lib ] && continue
	exp="$dir/expected-verdicts"
	[ -f "$exp" ] || { echo "FAIL $name: no expected-verdicts"; fail=$((fail + 1)); continue; }
	[ -f "$dir/README.md" ] || { echo "FAIL $name: no README.md citing the source"; fail=$((fail + 1)); }
	forms=()
	[ -f "$dir/snapshot.json" ] && forms+=(--load "$dir/snapshot.json")
	[ -d "$dir/tree/sys" ] && forms+=(--root "$dir/tree")
	if [ ${#forms[@]} -ne 2 ]; then
		echo "FAIL $name: needs exactly one of snapshot.json or tree/sys"
		fail=$((fail + 1))
		continue
	fi
	# A transcribed key the program does not know would be lost silently.
	if [ -f "$dir/snapshot.json" ]; then
		unknown=$("$bin" check --window 0 -v "${forms[@]}" 2>&1 >/dev/null |
			grep 'unknown key')
		if [ -n "$unknown" ]; then
			echo "FAIL $name: snapshot.json has keys the program ignores: $unknown"
			fail=$((fail + 1))
		fi
	fi
	out=$("$bin" check --json --window 0 "${forms[@]}" 2>&1)
	rc=$?
	# 0-2 are verdicts; 3 means the check could not run at all.
	if [ $rc -gt 2 ]; then
		echo "FAIL $name: check exit $rc: $(head -c 300 <<<"$out")"
		fail=$((fail + 1))
		continue
	fi
	got=$(jq -r '.[] | "\(.check) \(if .device == null then "host"
		elif .port == null then .device
		else "\(.device)/\(.port)" end) \(.verdict)"' <<<"$out") || {
		echo "FAIL $name: output is not JSON: $(head -c 300 <<<"$out")"
		fail=$((fail + 1))
		continue
	}
	seen=$((seen + 1))
	while read -r check target want _; do
		[ -z "${check:-}" ] || [ "${check:0:1}" = "#" ] && continue
		have=$(awk -v c="$check" -v t="$target" \
			'$1 == c && $2 == t { print $3 }' <<<"$got" | sort -u | paste -sd, -)
		[ -n "$have" ] || have=ABSENT
		id="$name $check $target"
		known=no
		reason=$(known_reason "$name" "$check" "$target") && known=yes
		case "$([ "$have" = "$want" ] && echo same || echo differs)/$known" in
		same/no) echo "ok   $id $want"; pass=$((pass + 1)) ;;
		differs/yes) echo "XFAIL $id: want $want, program says $have: $reason"
			xfail=$((xfail + 1)) ;;
		same/yes) echo "FAIL $id: now $have as the source says; remove it from the known failures ($reason)"
			fail=$((fail + 1)) ;;
		*) echo "FAIL $id: want $want, program says $have"; fail=$((fail + 1)) ;;
		esac
	done <"$exp"
done
[ $seen -ge 8 ] || { echo "FAIL only $seen real-host fixtures ran (8 or more expected)"; fail=$((fail + 1)); }

echo "$pass passed, $xfail known failures, $fail failed"
[ $fail -eq 0 ]
