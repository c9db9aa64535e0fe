#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag check` on evidence that is not this host: --load of a snapshot
# or a recording (judged on its last frame or --frame N, its counters over
# the whole recording; evidence says which file, frame and time it is
# from), and --root of a fixture tree.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
demo="$src/data/demo/cx6dx-demo.jsonl"

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

# A correct fabric that is not the default: trust DSCP, rdma_cm ToS 106
# (DSCP 26) mapped to priority 5, PFC and ECN on 5. No false FAIL, no
# fix-up; the same host with PFC moved to 3 gets the fix-up for 5, never 3;
# global pause instead of PFC is lossless (WARN, never "lossy"); trust pcp
# with untagged RoCE protects nothing on 3.
jq_snap '(.netdevs[] | select(.name == "eth2")) |= (
	.dcb += {supported: true, pfc_en: "0x20", trust: "dscp",
		trust_source: "/sys/class/net/eth2/qos/trust",
		apps: [{selector: 5, protocol: 26, priority: 5}]} |
	.ethtool += {rx_pause: false, tx_pause: false} |
	.ecn.roce_np_enable = {prio0: 0, prio1: 0, prio2: 0, prio3: 0, prio4: 0,
		prio5: 1, prio6: 0, prio7: 0} |
	.ecn.roce_rp_enable = .ecn.roce_np_enable) |
	.host.rdma_cm = [{device: "mlx5_0", port: 1, default_roce_mode: "RoCE v2",
		default_roce_tos: 106}]' "$snap" >"$tmp/dscp5.json"
qos() {	# qos FILE: "check verdict cause fix" per qos result of mlx5_0
	"$bin" check --json --load "$1" --only qos --device mlx5_0 2>&1 |
		jq -r '.[] | "\(.check) \(.verdict) \(.cause) \(.fix.command // "-")"' 2>&1 |
		sort
}
got=$(qos "$tmp/dscp5.json")
if [ "$got" = "$(printf 'qos.ecn PASS ok -\nqos.pfc PASS ok -')" ] && "$bin" check -v --load "$tmp/dscp5.json" --only qos.pfc |
	grep -q 'rdma_cm ToS 106 -> DSCP 26 -> APP table -> priority 5'; then
	ok "DSCP 26 -> priority 5 with PFC and ECN on 5: PASS, chain shown"
else
	bad "DSCP 26 -> priority 5: $got"
fi
jq_snap '(.netdevs[] | select(.name == "eth2") | .dcb.pfc_en) = "0x08"' \
	"$tmp/dscp5.json" >"$tmp/pfc3.json"
got=$(qos "$tmp/pfc3.json" | grep qos.pfc)
[ "$got" = "qos.pfc FAIL pfc_wrong_prio dcb pfc set dev eth2 prio-pfc 5:on" ] &&
	ok "PFC on 3, RoCE on 5: the fix-up is for 5" || bad "PFC on 3: $got"
jq_snap '(.netdevs[] | select(.name == "eth2")) |= (.dcb.pfc_en = "0x00" |
	.ethtool += {rx_pause: true, tx_pause: true})' "$tmp/dscp5.json" >"$tmp/pause.json"
got=$(qos "$tmp/pause.json" | grep qos.pfc)
sum=$("$bin" check --json --load "$tmp/pause.json" --only qos.pfc --device mlx5_0 | jq -r '.[0].summary')
[ "$got" = "qos.pfc WARN global_pause -" ] && ! grep -q lossy <<<"$sum" &&
	ok "global pause, PFC off: WARN, not lossy" || bad "global pause: $got / $sum"
jq_snap '(.netdevs[] | select(.name == "eth2") | .dcb) |= (.pfc_en = "0x08" |
	.trust = "pcp" | .apps = [])' "$tmp/dscp5.json" >"$tmp/pcp.json"
got=$(qos "$tmp/pcp.json" | grep qos.pfc)
[ "$got" = "qos.pfc FAIL pcp_untagged -" ] &&
	ok "trust pcp, untagged, PFC on 3: FAIL" || bad "trust pcp untagged: $got"

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

# A snapshot that went through jq: 2^64 - 1 (max_mr_size) comes back as
# 18446744073709552000 and is loaded as 2^64 - 1, not refused.
jq . "$fix/real-cx5-devinfo-limits/snapshot.json" >"$tmp/jq.json"
grep -q '18446744073709552000' "$tmp/jq.json" || bad "jq did not write 2^64 - 1 as a double"
out=$("$bin" snapshot --json --load "$tmp/jq.json" 2>&1)
if jq -e '.devices[0].verbs.max_mr_size' <<<"$out" >/dev/null &&
	grep -q '"max_mr_size": *18446744073709551615' <<<"$out"; then
	ok "--load of a snapshot through jq: max_mr_size 2^64 - 1"
else
	bad "--load through jq: $(head -c 300 <<<"$out")"
fi

finish
