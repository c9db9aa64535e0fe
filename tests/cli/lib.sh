# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by command-line tests: the binary under test, a scratch
# directory, ok/bad counters and the closing line.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
bin=${RDMADIAG_BIN:-./src/rdmadiag}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }
