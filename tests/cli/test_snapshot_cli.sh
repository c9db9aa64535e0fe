#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag snapshot` end to end on the fixture hosts: golden JSON, exit
# codes, messages. RDMADIAG_UPDATE_GOLDEN=1 rewrites the golden files
# (review the diff before committing).
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
# shellcheck source=../jq-strict.sh
. "$src/tests/jq-strict.sh"
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
pass=0 fail=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }

# Fields that depend on when and where the snapshot was taken.
# Paths start with the fixture's location on this machine: cut it. git
# keeps no permission bits, so device node modes depend on the checkout.
normalise() {
	jq -S --arg root "$1" 'del(.time, .monotonic_ns, .source,
			.host.devnodes[]?.mode) |
		walk(if type == "string" then (split($root) | join("")) else . end)'
}

for dir in "$fix"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -d "$dir/sys" ] || continue
	golden="$dir/snapshot.golden.json"
	out=$("$bin" snapshot --json --root "$dir" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || { bad "$name: exit $rc: $out"; continue; }
	got=$(printf '%s\n' "$out" | normalise "$dir") || { bad "$name: invalid JSON"; continue; }
	if [ "${RDMADIAG_UPDATE_GOLDEN:-}" = 1 ]; then
		printf '%s\n' "$got" >"$golden"
		ok "$name: golden rewritten"
		continue
	fi
	if [ ! -f "$golden" ]; then
		bad "$name: no golden file (RDMADIAG_UPDATE_GOLDEN=1 make check)"
		continue
	fi
	if diff -u "$golden" <(printf '%s\n' "$got") >/tmp/rdmadiag-golden.$$ 2>&1; then
		ok "$name: matches golden JSON"
	else
		bad "$name: differs from golden JSON"
		head -40 /tmp/rdmadiag-golden.$$
	fi
	rm -f /tmp/rdmadiag-golden.$$
	# Loading the snapshot back gives the same JSON.
	printf '%s\n' "$out" >/tmp/rdmadiag-snap.$$
	back=$("$bin" snapshot --json --load /tmp/rdmadiag-snap.$$ 2>&1)
	if [ "$back" = "$out" ]; then ok "$name: --load round trip"; else bad "$name: --load round trip"; fi
	rm -f /tmp/rdmadiag-snap.$$
done

# Text output names states the way rdma link does.
txt=$("$bin" snapshot --root "$fix/cx6dx-roce-port-down")
grep -q 'mlx5_1 .*DOWN .*DISABLED' <<<"$txt" && ok "text: port DOWN/DISABLED shown" || bad "text: $txt"
grep -q $'\033' <<<"$txt" && bad "text: colour escapes when not a TTY" || ok "text: no colour off a TTY"

# A missing root: no snapshot, one-line reason, exit 1.
err=$("$bin" snapshot --sysfs-root /nonexistent/sys 2>&1 >/dev/null)
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q 'No such file' <<<"$err" &&
	ok "missing root: exit 1 with one line" || bad "missing root: rc=$rc '$err'"

# No devices is a valid snapshot plus a hint.
empty=$(mktemp -d)
mkdir -p "$empty/sys/class/net"
out=$("$bin" snapshot --root "$empty")
rc=$?
[ $rc -eq 0 ] && grep -q 'No RDMA devices' <<<"$out" && grep -q 'rdma link add' <<<"$out" &&
	ok "no devices: hint, exit 0" || bad "no devices: rc=$rc"
n=$("$bin" snapshot --json --root "$empty" | jq '.devices | length')
[ "$n" = 0 ] && ok "no devices: empty JSON list" || bad "no devices: $n"
rm -rf "$empty"

# Broken snapshot files are refused with a clear message.
junk=$(mktemp)
printf '{"schema_version":1,"devices":[{"name":' >"$junk"
err=$("$bin" snapshot --load "$junk" 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q 'truncated' <<<"$err" && ok "truncated file refused" || bad "truncated: rc=$rc $err"
head -c 4096 /dev/urandom >"$junk"
"$bin" snapshot --load "$junk" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && ok "random bytes refused" || bad "random bytes: rc=$rc"
rm -f "$junk"

# The hostile host plus what git cannot hold: a FIFO (must not block) and
# a file far bigger than any attribute. A snapshot, fields absent, errors
# listed, nothing else.
h=$(mktemp -d)
cp -a "$fix/hostile/." "$h/"
port="$h/sys/devices/virtual/infiniband/bad0/ports/1"
mkfifo "$port/counters/fifo"
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' 7 >"$port/cap_mask"
out=$(timeout 20 "$bin" snapshot --json --root "$h" 2>&1)
rc=$?
if [ $rc -eq 0 ] && jq -e '.devices[0].ports[0].cap_mask == null and
	.devices[0].ports[0].counters.fifo == null and
	.devices[0].ports[0].counters.good == 5 and
	([.errors[] | select(.where | endswith("counters/fifo"))] | length == 1) and
	([.errors[] | select(.where | endswith("ports/1/cap_mask")) | .errno] == [27])' \
	<<<"$out" >/dev/null; then
	ok "hostile: FIFO and 2 MiB attribute refused, snapshot taken"
else
	bad "hostile: rc=$rc $(head -c 300 <<<"$out")"
fi
rm -rf "$h"

# Unknown options and arguments are usage errors.
"$bin" snapshot --frobnicate >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad option: exit 2" || bad "bad option"
"$bin" nosuchcommand >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad command: exit 2" || bad "bad command"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
