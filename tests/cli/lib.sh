# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034 # the variables are for the test that sources this
# Sourced by command-line tests: the binary under test, a scratch
# directory, ok/bad counters and the closing line.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
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
# shellcheck source=../jq-strict.sh
. "$src/tests/jq-strict.sh"

# jq over snapshot JSON. jq 1.6 reads numbers as doubles and writes 2^64 - 1
# (max_mr_size of a ConnectX) as 18446744073709552000, which the loader
# reads back as 2^64 - 1: what jq writes is loaded as it is.
jq_snap() {
	jq "$@"
}

# put FILE VALUE: a value written in place (a recorder keeps some files
# open, as it keeps sysfs files): without truncating when it is no
# shorter, so no read sees the file empty; a shorter one truncates, and a
# read in between gives an "unknown" value.
put() {
	if [ $((${#2} + 1)) -ge "$(stat -c %s "$1")" ]; then
		printf '%s\n' "$2" 1<>"$1"
	else
		printf '%s\n' "$2" >"$1"
	fi
}
