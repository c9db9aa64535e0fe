#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the console says at 80x24 where nothing can be done, and what its
# bar offers: on the demo, D does not offer the demo, the Tests screen says
# why no test runs instead of offering b and l, the Peer screen and m say
# at once why no host can be asked; the Explain prompt lets a function key
# through; the key bar offers "f fix-up" only with a fix-up selected; the
# Counters screen says "1 counter" and what its filter does; the Port
# page decodes codes and opens at its top from the Overview; --replay
# plays a snapshot document.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

tui_start demo 80 24 --demo
wait_for demo "mlx5_0" 10
keys demo D
wait_for demo "this is the demo, playing"
absent demo "D plays the demo"
keys demo F7
wait_for demo "No test runs here: this is a recording"
absent demo "No tests yet"
keys demo F9
wait_for demo "Nothing can be asked from here:"
absent demo "peer HOST[:PORT]:"
keys demo m
# The whole refusal fits at 80 columns.
wait_for demo "peer: a recording is no host to compare; run 'rdmadiag peer HOST' there"
absent demo "peer HOST[:PORT]:"
# Explain opens its prompt; F2 leaves it for the Overview.
keys demo F8
wait_for demo "paste: _"
keys demo F2
wait_for demo "Overview" 3
sleep 0.3
absent demo "paste: _"
keys demo F4
wait_for demo "counters  sort:"
keys demo /
wait_for demo "show only counters whose name holds:"
keys demo o u t _ o f _ s e q u e n c e Enter
wait_for demo "1 counter  sort:"
absent demo "1 counters"
keys demo q
wait_exit demo 0

# The Port page decodes its codes (RoCE ports: lanes, Gb/s per lane, no
# InfiniBand addressing); Enter on an Overview row opens it at its top.
tui_start port 100 200 --demo
wait_for port "mlx5_0" 10
keys port F3
wait_for port "(< > other port)"
wait_for port "verbs.active_width           2 (4 lanes)"
wait_for port "dcb.dcbx_mode                4 (CEE)"
wait_for port "(PFC on up to 8 traffic classes)"
absent port "sm_lid"
absent port "(4X)"
keys port q
wait_exit port 0
tui_start top 80 24 --demo
wait_for top "mlx5_0" 10
keys top F3
wait_for top "(< > other port)"
keys top End
gone top "(< > other port)"
keys top F2
keys top Enter
wait_for top "(< > other port)"
keys top q
wait_exit top 0

# The port-down fixture: its first finding (eth3 administratively down)
# has a fix-up, a PASS below it has none.
tui_start fix 120 30 --root tests/fixtures/cx6dx-roce-port-down
wait_banner fix 10
keys fix k
wait_for fix "ip link set dev eth3 up"
wait_for fix "f fix-up"
keys fix Escape
keys fix End
sleep 0.5
if tui_screen fix | tail -1 | grep -qF "f fix-up"; then
	not_ok "fix: the bar offers f fix-up on a check without one"
	tui_screen fix | sed 's/^/#   /'
else
	ok "fix: no f fix-up in the bar for a check without one"
fi
keys fix q
wait_exit fix 0
# At 80 columns the fix-up's impact wraps: how to undo it stays.
tui_start impact 80 24 --root tests/fixtures/cx6dx-roce-port-down
wait_banner impact 10
keys impact k
wait_for impact "ip link set dev eth3 up"
wait_for impact "[undo with u]"
keys impact q
wait_exit impact 0

# Explain's causes wrap inside the page at 80 columns: no line is cut.
tui_start why 80 24 --demo
wait_for why "mlx5_0" 10
keys why F8
wait_for why "paste: _"
keys why -l "IBV_WC_RETRY_EXC_ERR"
keys why Enter
wait_for why "Likely causes"
sleep 0.3
for k in 1 2 3; do
	if tui_screen why | sed -n '3,23p' | grep -q '…'; then
		not_ok "why: a line of the explanation is cut"
		tui_screen why | sed 's/^/#   /'
		break
	fi
	keys why PgDn
	sleep 0.2
done
[ "$k" -eq 3 ] && ok "why: every line of the explanation wraps"
keys why q
wait_exit why 0

# At 60 columns the banner keeps the finding's words; its key shrinks.
tui_start narrow 60 24 --demo
wait_banner narrow 10
wait_for narrow "has no carrier: no cable"
keys narrow q
wait_exit narrow 0

# Sorted by total, data words count as the bytes they are (x4): 3e14
# words (1.2 PB) come above 1e15 bytes (1 PB).
jq -c -n '[inputs] | .[] |
	(.devices[] | select(.name == "mlx5_0") | .ports[0].counters.port_rcv_data) = 300000000000000 |
	(.netdevs[] | select(.name == "ens1f0np0") | .ethtool.stats.rx_bytes) = 1000000000000000' \
	"$RDMADIAG_SRCDIR/data/demo/cx6dx-demo.jsonl" |
	sed -E 's/(:|\[|,)18446744073709552000([],}])/\118446744073709551615\2/g' \
	> "$TUI_TMP/words.jsonl"
tui_start words 100 40 --replay "$TUI_TMP/words.jsonl"
wait_for words "mlx5_0/1" 10
keys words F2
keys words Home
wait_for words "  mlx5_0/1"
keys words F4
wait_for words "sort:rate"
keys words s
wait_for words "sort:total"
keys words Home
sleep 0.5
first=$(tui_screen words | awk '$1 == "port_rcv_data" || $1 == "rx_bytes" { print $1; exit }')
if [ "$first" = "port_rcv_data" ]; then
	ok "words: 3e14 words sort above 1e15 bytes"
else
	not_ok "words: '$first' sorts first"
	tui_screen words | sed 's/^/#   /'
fi
keys words q
wait_exit words 0

# A snapshot document plays as a recording of one frame, pretty-printed
# (as rdmadiag snapshot --json writes it) or on one line without a time.
snap="$RDMADIAG_SRCDIR/tests/fixtures/real-cx4lx-ethtool-stats/snapshot.json"
jq -c 'del(.monotonic_ns)' "$snap" > "$TUI_TMP/compact.json"
n=0
for f in "$snap" "$TUI_TMP/compact.json"; do
	n=$((n + 1))
	tui_start "one$n" 80 24 --replay "$f"
	wait_for "one$n" "REPLAY 1/1" 10
	wait_for "one$n" "mlx5_0"
	keys "one$n" q
	wait_exit "one$n" 0
done
tui_summary
