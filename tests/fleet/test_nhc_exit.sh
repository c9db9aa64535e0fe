#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag check --nhc`: one line of at most 80 bytes and the exit status
# Slurm NHC and node-problem-detector read (0 OK, 1 a problem, 3 could not
# run: node-problem-detector's Unknown).
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
# shellcheck source=../jq-strict.sh
. "$src/tests/jq-strict.sh"
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
pass=0 fail=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# expect WANT_RC WANT_PREFIX ARGS...: one line, at most 80 bytes.
expect() {
	local want=$1 prefix=$2 out rc
	shift 2
	out=$("$bin" check --nhc --window 0 "$@" 2>/dev/null); rc=$?
	if [ $rc -ne "$want" ]; then bad "$*: exit $rc, want $want ($out)"; return; fi
	if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || [ "$(printf '%s' "$out" | wc -c)" -gt 80 ]; then
		bad "$*: not one line of at most 80 bytes: $out"; return; fi
	case $out in
	"$prefix"*) ok "$* -> $rc: $out" ;;
	*) bad "$*: line \"$out\" does not start with \"$prefix\"" ;;
	esac
}

r="$fix/rxe0-healthy"
# Each status against what check itself says of the same tree.
expect 0 "OK: 1 PASS" --root "$r" --only port.state
expect 0 "OK: 0 FAIL, 1 WARN" --root "$r" --only port.mtu
expect 1 "ERROR: 0 FAIL, 1 WARN" --root "$r" --only port.mtu --strict
expect 0 "OK: 0 FAIL, 0 WARN, 1 UNKNOWN" --root "$r" --only qos.pfc
expect 1 "ERROR: 0 FAIL, 0 WARN, 1 UNKNOWN" --root "$r" --only qos.pfc --strict
expect 1 "ERROR: 1 FAIL" --root "$fix/cx5-ib-init-no-sm" --only port.state
# A DOWN port whose netdev was never read fails all the same.
expect 1 "ERROR: 1 FAIL, 0 WARN, 0 UNKNOWN; port.state mlx5_8/1 DOWN/Disabled: cause not" \
	--load "$fix/real-cx6dx-ibstat-down/snapshot.json" --only port.state
expect 1 "ERROR: 2 FAIL, 4 WARN" --root "$fix/cx6dx-roce-port-down"
fails=$("$bin" check --json --window 0 --root "$fix/cx6dx-roce-port-down" |
	jq '[.[] | select(.verdict == "FAIL")] | length')
[ "$fails" = 2 ] && ok "check --json agrees: 2 FAIL" || bad "check --json has $fails FAIL"

# Could not run: 3, which node-problem-detector reads as Unknown.
"$bin" check --nhc --window 0 --root "$src/tests/nonexistent" > /dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && ok "no tree: exit 3" || bad "no tree: exit $rc"
"$bin" check --nhc --json --root "$r" > /dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && ok "--nhc with --json: exit 3" || bad "--nhc --json: exit $rc"

# The node-problem-detector config in contrib/ is valid JSON naming --nhc.
npd="$src/contrib/node-problem-detector/rdmadiag-plugin-monitor.json"
jq -e '.plugin == "custom" and (.rules[0].args | index("--nhc"))' "$npd" >/dev/null &&
	ok "contrib NPD config parses and runs check --nhc" || bad "contrib NPD config"
# The NHC check, with NHC's die and dbg standing in as NHC defines them
# (die CODE MESSAGE marks the node down with MESSAGE).
nhc_run() {
	bash -c 'died=""; die() { died="$2"; }; dbg() { :; }
		RDMADIAG=$1; shift; . "$0"; check_rdmadiag "$@"; rc=$?
		printf "%s|%s\n" "$rc" "$died"' "$src/contrib/nhc/rdmadiag.nhc" "$bin" "$@"
}
out=$(nhc_run --window 0 --root "$r" --only port.state)
[ "$out" = "0|" ] && ok "NHC check: PASS leaves the node up" || bad "NHC check PASS: $out"
out=$(nhc_run --window 0 --root "$fix/cx5-ib-init-no-sm" --only port.state)
case $out in
"1|check_rdmadiag: ERROR: 1 FAIL, 0 WARN, 0 UNKNOWN; port.state mlx5_0/1"*) ok "NHC check: FAIL marks the node down: ${out#1|}" ;;
*) bad "NHC check FAIL: $out" ;;
esac
out=$(nhc_run --window 0 --root "$src/tests/nonexistent")
case $out in
"1|check_rdmadiag: rdmadiag could not run (exit status 3): rdmadiag: cannot take a snapshot"*) ok "NHC check: could not run marks the node down" ;;
*) bad "NHC check no tree: $out" ;;
esac

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
