#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag diff A B` on snapshots of the fixture hosts and a recording:
# exit 0 when nothing differs, 1 with the mismatches listed (both values;
# --json: the same as one JSON object),
# 2 with one line on stderr for bad usage or input; hostile strings from a
# snapshot are printed escaped.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
demo="$src/data/demo/cx6dx-demo.jsonl"

for f in rxe0-healthy cx6dx-roce-port-down hostile; do
	"$bin" snapshot --json --root "$fix/$f" > "$tmp/$f.json" 2> /dev/null ||
		bad "snapshot of fixture $f"
done

# expect NAME RC PATTERN ARGS...: diff ARGS exits RC and its stdout has
# every line of PATTERN (fixed strings, one a line).
expect() {
	local name=$1 want_rc=$2 pattern=$3 rc=0 line missing=
	shift 3
	"$bin" diff "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	while IFS= read -r line; do
		[ -z "$line" ] || grep -qF -- "$line" "$tmp/out" || missing=$line
	done <<< "$pattern"
	if [ "$rc" -eq "$want_rc" ] && [ -z "$missing" ]; then
		ok "$name"
	else
		bad "$name: rc=$rc (want $want_rc), missing '$missing': $(head -c 600 "$tmp/out") $(head -c 300 "$tmp/err")"
	fi
}

expect "same snapshot twice: nothing differs" 0 "no mismatch found
GID: use -x 1 on A (192.0.2.1) and -x 1 on B (192.0.2.1)" \
	"$tmp/rxe0-healthy.json" "$tmp/rxe0-healthy.json"

# The demo recording's last frame against the cx6dx fixture: same
# adapter, other firmware.
expect "recording against snapshot: firmware named with both values" 1 \
	"A: $demo, mlx5_0 port 1 on ens1f0np0
firmware differs: A 22.36.1010, B 22.31.1014
GID: use -x 3 on A (192.168.50.11) and -x 3 on B (192.168.10.1)" \
	"$demo" "$tmp/cx6dx-roce-port-down.json"

expect "Soft-RoCE against mlx5: the driver differs" 1 \
	"driver differs: A " "$tmp/rxe0-healthy.json" "$tmp/cx6dx-roce-port-down.json"

expect "--device-a picks the port" 1 "A: $tmp/cx6dx-roce-port-down.json, mlx5_0 port 1" \
	--device-a mlx5_0 --port-a 1 "$tmp/cx6dx-roce-port-down.json" "$tmp/rxe0-healthy.json"

# Hostile names and values: no control character reaches the terminal.
"$bin" diff "$tmp/hostile.json" "$tmp/rxe0-healthy.json" > "$tmp/out" 2>&1
rc=$?
if [ "$rc" -le 1 ] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out"; then
	ok "hostile snapshot: printed escaped (exit $rc)"
else
	bad "hostile snapshot: exit $rc, or a control character in the output"
fi

# --json: the same result as one object, the same exit status.
# jsondiff NAME RC JQ ARGS...: diff --json ARGS exits RC, its stdout is one
# JSON document and the jq expression JQ is true of it.
jsondiff() {
	local name=$1 want_rc=$2 expr=$3 rc=0
	shift 3
	"$bin" diff --json "$@" > "$tmp/out.json" 2> "$tmp/err" || rc=$?
	if [ "$rc" -eq "$want_rc" ] && [ ! -s "$tmp/err" ] &&
		jq -e "$expr" "$tmp/out.json" > /dev/null 2>&1; then
		ok "--json: $name"
	else
		bad "--json: $name: rc=$rc (want $want_rc), $(head -c 600 "$tmp/out.json") $(head -c 300 "$tmp/err")"
	fi
}
jsondiff "same snapshot: no mismatch, the GID of each side" 0 \
	'.schema_version == 1 and .mismatches == [] and .gid_pair and
	 .a.gid_index == 1 and .a.ipv4 == "192.0.2.1" and .a.device == "rxe0" and
	 .a.port == 1 and .a.netdev == "veth0"' \
	"$tmp/rxe0-healthy.json" "$tmp/rxe0-healthy.json"
jsondiff "Soft-RoCE against mlx5: both values and what it breaks" 1 \
	'any(.mismatches[]; .what == "driver" and .a == "rdma_rxe" and
	     .b == "mlx5_core" and (.breaks | length) > 0) and
	 .b.gid_index == 3 and (.not_compared | type) == "string"' \
	"$tmp/rxe0-healthy.json" "$tmp/cx6dx-roce-port-down.json"
# The text and the JSON list the same mismatches.
"$bin" diff "$tmp/rxe0-healthy.json" "$tmp/cx6dx-roce-port-down.json" > "$tmp/out.txt" 2>&1
want=$(grep -c ' differs: A ' "$tmp/out.txt")
jsondiff "as many mismatches as the text ($want)" 1 ".mismatches | length == $want" \
	"$tmp/rxe0-healthy.json" "$tmp/cx6dx-roce-port-down.json"
rc=0
"$bin" diff --json "$tmp/hostile.json" "$tmp/rxe0-healthy.json" > "$tmp/out.json" 2> /dev/null || rc=$?
if [ "$rc" -le 1 ] && jq -e . "$tmp/out.json" > /dev/null &&
	! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out.json" &&
	! grep -q '\\u00[01]' "$tmp/out.json"; then
	ok "--json: hostile snapshot: valid JSON, no control character (exit $rc)"
else
	bad "--json: hostile snapshot: exit $rc, or invalid JSON, or a control character"
fi

# Bad usage and bad input: exit 2, one line on stderr, nothing on stdout.
printf '{"schema_version": 1, "devices": [' > "$tmp/truncated.json"
printf 'not json\n' > "$tmp/garbage.json"
printf '{"schema_version": 1}\n' > "$tmp/nodev.json"
for args in "$tmp/rxe0-healthy.json" \
	"$tmp/rxe0-healthy.json $tmp/missing.json" \
	"$tmp/truncated.json $tmp/rxe0-healthy.json" \
	"$tmp/rxe0-healthy.json $tmp/garbage.json" \
	"$tmp/nodev.json $tmp/rxe0-healthy.json" \
	"--device-b nosuch $tmp/rxe0-healthy.json $tmp/rxe0-healthy.json" \
	"--port-a 0 $tmp/rxe0-healthy.json $tmp/rxe0-healthy.json" \
	"--json $tmp/truncated.json $tmp/rxe0-healthy.json"; do
	rc=0
	# shellcheck disable=SC2086 # the words of args are the arguments
	"$bin" diff $args > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then
		ok "diff ${args//$tmp\//}: exit 2, $(cat "$tmp/err")"
	else
		bad "diff ${args//$tmp\//}: exit $rc, stdout $(wc -c < "$tmp/out") bytes, stderr: $(head -c 300 "$tmp/err")"
	fi
done

finish
