#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag check` on evidence that is not this host: --load of a snapshot
# or a recording (judged on its last frame or --frame N, its counters over
# the whole recording; evidence says which file, frame and time it is
# from), and --root of a fixture tree.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
demo="$src/data/demo/cx6dx-demo.jsonl"
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }

# A recording of 60 frames over a minute: counters.errors is judged.
out=$("$bin" check --json --load "$demo" --only counters 2>&1)
rc=$?
if [ $rc -eq 1 ] && jq -e '[.[] | select(.check == "counters.errors")] |
	(length == 2) and all(.verdict != "UNKNOWN") and
	any(.verdict == "WARN" and (.summary | test("out_of_buffer rising")))' \
	<<<"$out" >/dev/null; then
	ok "recording: counters judged over the recording"
else
	bad "recording: rc=$rc $(head -c 400 <<<"$out")"
fi
if jq -e '[.[].evidence[]?.source] | length > 0 and
	all(startswith("from ") and contains("frame 60 of 60, taken 20"))' \
	<<<"$out" >/dev/null; then
	ok "recording: evidence names the file, frame and time"
else
	bad "recording: evidence $(jq -c '[.[].evidence[]?.source][0:2]' <<<"$out" 2>&1)"
fi

# --frame 1 is one snapshot: nothing to judge a rise by.
out=$("$bin" check --json --load "$demo" --frame 1 --only port 2>&1)
if jq -e '[.[] | select(.check == "counters.errors")] | length == 2 and
	all(.verdict == "UNKNOWN")' <<<"$out" >/dev/null &&
	grep -q 'frame 1 of 60' <<<"$out"; then
	ok "recording: --frame 1 judged alone"
else
	bad "recording --frame 1: $(head -c 300 <<<"$out")"
fi

# Bad frames and --frame on a snapshot are clear errors, exit 3.
msg=$("$bin" check --load "$demo" --frame 61 2>&1)
[ $? -eq 3 ] && grep -q 'has 60 frames' <<<"$msg" && ok "--frame 61: refused" || bad "--frame 61: $msg"
msg=$("$bin" check --load "$demo" --frame 0 2>&1)
[ $? -eq 3 ] && grep -q -- '--frame "0" is not a number in 1\.\.' <<<"$msg" && ok "--frame 0: refused" || bad "--frame 0: $msg"
snap="$fix/cx6dx-roce-port-down/snapshot.golden.json"
msg=$("$bin" check --load "$snap" --frame 2 2>&1)
[ $? -eq 3 ] && grep -q 'needs a recording' <<<"$msg" && ok "--frame on a snapshot: refused" || bad "--frame on a snapshot: $msg"
msg=$("$bin" check --frame 2 2>&1)
[ $? -eq 3 ] && grep -q 'needs --load' <<<"$msg" && ok "--frame without --load: refused" || bad "--frame alone: $msg"

# A snapshot's evidence is labelled too, without a frame.
out=$("$bin" check --json --load "$snap" --only user.uverbs 2>&1)
if jq -e '[.[].evidence[]?.source] | length > 0 and
	all(startswith("from ") and (contains("frame") | not))' <<<"$out" >/dev/null; then
	ok "snapshot: evidence names the file"
else
	bad "snapshot: $(head -c 300 <<<"$out")"
fi

# state without state_num is read by the name; a bad name is refused with
# its path; unknown keys are reported with -v (on stderr), silent without.
jq -c 'del(.devices[].ports[].state_num, .devices[].ports[].physical_state_num) |
	.devices[0].ports[0].colour = "red"' "$snap" >"$tmp/names.json"
want=$("$bin" check --json --load "$snap" --only port.state | jq -c '[.[] | [.check, .device, .verdict, .cause]]')
got=$("$bin" check --json --load "$tmp/names.json" --only port.state 2>/dev/null | jq -c '[.[] | [.check, .device, .verdict, .cause]]')
[ -n "$want" ] && [ "$got" = "$want" ] && ok "state names stand in for state_num" || bad "state names: $got vs $want"
err=$("$bin" check --load "$tmp/names.json" --only port.state -v 2>&1 >/dev/null)
grep -q 'unknown key devices\[0\].ports\[0\].colour' <<<"$err" && ok "-v: unknown key reported" || bad "-v: $err"
err=$("$bin" check --load "$tmp/names.json" --only port.state 2>&1 >/dev/null)
[ -z "$err" ] && ok "no -v: no unknown-key report" || bad "no -v: $err"
jq -c '.devices[0].ports[0].state = "SIDEWAYS" | del(.devices[].ports[].state_num)' "$snap" >"$tmp/bad.json"
msg=$("$bin" check --load "$tmp/bad.json" 2>&1)
[ $? -eq 3 ] && grep -q 'devices\[0\].ports\[0\].state "SIDEWAYS"' <<<"$msg" && ok "bad state name: refused with its path" || bad "bad state: $msg"

# Neither a snapshot nor a recording, or a recording with a broken frame:
# one clear message naming what is wrong.
printf 'hello\n' >"$tmp/junk.txt"
msg=$("$bin" check --load "$tmp/junk.txt" 2>&1)
[ $? -eq 3 ] && grep -q 'not a recording either' <<<"$msg" && ok "junk: refused" || bad "junk: $msg"
head -n 3 "$demo" >"$tmp/cut.jsonl"
printf '{"oops"\n' >>"$tmp/cut.jsonl"
msg=$("$bin" check --load "$tmp/cut.jsonl" 2>&1)
[ $? -eq 3 ] && grep -q 'frame 4' <<<"$msg" && ok "broken last frame: refused" || bad "broken frame: $msg"

# Under --root the device nodes are read from ROOT/dev: a missing uverbs
# node of the fixture host is a FAIL, not UNKNOWN.
out=$("$bin" check --json --root "$fix/cx6dx-roce-port-down" --only user.uverbs 2>&1)
if jq -e '[.[] | {device, verdict, cause}] == [
	{device: "mlx5_1", verdict: "FAIL", cause: "uverbs_missing"},
	{device: "mlx5_0", verdict: "PASS", cause: "ok"}]' <<<"$out" >/dev/null; then
	ok "--root: user.uverbs judged from ROOT/dev"
else
	bad "--root user.uverbs: $(head -c 300 <<<"$out")"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
