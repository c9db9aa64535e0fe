#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the on-call path must say plainly, at 80x24: the fixture tag, the
# port that is down selected at start, DCB "not read" kept apart from "not
# supported", a device without ports kept on the Overview, a bad --root
# named and nothing more, the Port screen's next step and fix-up, and a
# checklist that pages, jumps to findings and never leaves blank rows.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

# no_blank_rows NAME: between the list's heading and the detail box, no
# row is empty while the list has more rows than fit.
no_blank_rows() {
	if tui_screen "$1" | awk '
		/VERDICT +TARGET/ { on = 1; next }
		/details/ { on = 0 }
		on && /^ *$/ { blank++ }
		END { exit blank ? 1 : 0 }'; then
		ok "$1: $2: no blank list rows"
	else
		not_ok "$1: $2: blank rows in the list"
		tui_screen "$1" | sed 's/^/#   /'
	fi
}

# The row under the detail box's top line: the selected result's heading.
detail_head() {
	tui_screen "$1" | awk '/details/ { getline; print; exit }'
}

tui_start down 80 24 --root tests/fixtures/cx6dx-roce-port-down
wait_for down "ROOT DIR" 10
# The port that is down is the one selected at start.
wait_for down "mlx5_1/1 DOWN"
wait_for down "selected port"
wait_for down "mlx5_1 port 1"
keys down d
wait_for down "DCB state not read"
absent down "exposes no DCB"
keys down p
wait_for down "Port-down decision path"
wait_for down "next step: bring eth3 up"
wait_for down "fix-up: # ip link set dev eth3 up"
keys down k
wait_for down "Evidence"
keys down Escape
wait_for down "-- Port --"
no_blank_rows down "at the finding"
keys down End
sleep 0.3
no_blank_rows down "at the end"
keys down Home
wait_for down "-- Hardware and firmware --"
no_blank_rows down "at the top"
before=$(detail_head down)
keys down PgDn
sleep 0.3
if [ "$(detail_head down)" != "$before" ]; then ok "down: PgDn moves"
else not_ok "down: PgDn did not move the selection"; fi
keys down Home
sleep 0.2
# n from the top: the next result that is not PASS, N back again.
keys down n
sleep 0.3
case "$(detail_head down)" in
*PASS*) not_ok "down: n selected a PASS: $(detail_head down)" ;;
*FAIL* | *WARN* | *UNKNOWN*) ok "down: n selects a result not PASS" ;;
*) not_ok "down: no detail after n" ;;
esac
keys down q
wait_exit down 0

# A device whose ports could not be read keeps its row.
tui_start hostile 80 24 --root tests/fixtures/hostile
wait_for hostile "noports0" 10
wait_for hostile "no port"
keys hostile End p
wait_for hostile "noports0: no port could be read"
wait_for hostile "Verdicts for this port"
keys hostile q
wait_exit hostile 0

# A --root that is not there: the banner says so, and nothing else is
# guessed (no driver advice).
tui_start badroot 80 24 --root /nonexistent-rdmadiag-root
wait_for badroot "cannot take a snapshot" 10
absent badroot "Is the driver loaded"
absent badroot "No RDMA devices"
keys badroot q
wait_exit badroot 0

# Addresses: a tree of files reads none ("IPv4 ?", not known); the demo,
# read as a live host is, has none on its down port's netdev ("IPv4 -").
tui_start addrs 100 30 --root tests/fixtures/cx6dx-roce-port-down
wait_for addrs "netdev eth3  admin DOWN  carrier ?  IPv4 ?" 10
keys addrs q
wait_exit addrs 0
tui_start addrs-demo 100 30 --demo
wait_for addrs-demo "netdev ens1f1np1  admin up  carrier NO  IPv4 -" 10
keys addrs-demo q
wait_exit addrs-demo 0

# The QoS screen labels rates and totals apart (the demo has DCB).
tui_start qos 80 24 --demo
wait_for qos "DEMO" 10
# n and N on the port list: both demo ports have findings.
wait_for qos "mlx5_1 port 1"
keys qos n
wait_for qos "mlx5_0 port 1"
keys qos N
wait_for qos "mlx5_1 port 1"
keys qos d
wait_for qos "PFC (priority flow control)"
wait_for qos "PAUSE RATE (ethtool)"
wait_for qos "TOTAL SINCE START (dcbnl)"
wait_for qos "rx/s"
keys qos q
wait_exit qos 0

tui_summary
