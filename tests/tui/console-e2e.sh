#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end: drive the console in tmux on the demo recording and on a
# fixture tree; visit every screen, resize, quit every way, and check the
# terminal is left sane and no process stays behind.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

# --- the demo, at 100x30 ---
tui_start demo 100 30 --demo
wait_for demo "DEMO" 5
wait_for demo "mlx5_0/1"
wait_for demo "ACTIVE"
wait_for demo "mlx5_1/1"
wait_for demo "POLLING"
wait_banner demo
# The banner names the port that is down, the most important finding.
wait_for demo "FAIL mlx5_1/1 DOWN"

keys demo p
# At start the port that is down is the one selected; its decision path
# comes first.
wait_for demo "Port-down decision path"
wait_for demo "mlx5_1 port 1"
wait_for demo "DOWN / POLLING"
keys demo Home
keys demo '<'
wait_for demo "GID table"
wait_for demo "192.168.50.11"

keys demo F4
wait_for demo "LAST MINUTE"
wait_for demo "counters  sort:rate"
keys demo s
wait_for demo "sort:total"
keys demo s
wait_for demo "sort:name"
keys demo / o u t _ o f _ b Enter
wait_for demo "filter:out_of_b"
wait_for demo "out_of_buffer"
gone demo "port_xmit_data"
# Rising error counters are explained in the pane below.
wait_for demo "out_of_buffer (hw_counters)"
keys demo /
keys demo Escape
keys demo Home
wait_for demo "VL15_dropped"
# The FEC counters of the port's netdev are a group of their own.
keys demo / c o r r e c t e d Enter
wait_for demo "corrected_blocks_lane1"
wait_for demo "fec"
keys demo /
keys demo Escape
keys demo z
wait_for demo "changed only"
keys demo z

keys demo d
wait_for demo "Priority RoCE uses"
wait_for demo "PFC (priority flow control)"
wait_for demo "ETS (traffic classes)"
keys demo End
wait_for demo "prio 3  DSCP 26"
wait_for demo "np_cnp_sent"

keys demo k
wait_for demo "checks:"
# k opens the finding the banner names, its detail on the whole screen.
wait_for demo "Evidence"
keys demo Escape
wait_for demo "-- Port --"
# A fix-up on a recording: the dialog says why not and shows the command.
i=0
while [ $i -lt 40 ]; do
	if tui_screen demo | grep -q "press f to apply\|(not applied here)"; then break; fi
	keys demo Down
	i=$((i + 1))
	sleep 0.05
done
keys demo f
wait_for demo "Fix-up not available"
wait_for demo "this is a recording"
keys demo Escape
gone demo "Fix-up not available"

keys demo t
wait_for demo "RESULT"
wait_for demo "port counters moving"
# A recording has no port to test: b and l say so at once, no form.
keys demo b
wait_for demo "no test runs here: this is a recording"
absent demo "bandwidth test"
keys demo l
wait_for demo "no test runs here: this is a recording"
absent demo "latency test"

# Explain: the prompt opens, a pasted line is explained and ranked.
keys demo e
wait_for demo "paste:"
keys demo -l 'Failed status 12: wr_id 0 syndrom 0x81'
keys demo Enter
wait_for demo "IBV_WC_RETRY_EXC_ERR"
wait_for demo "ranked by the evidence"
keys demo Escape

keys demo F1
wait_for demo "Keys on every screen"
keys demo '?'
wait_for demo "Overview"

# Too small, then back.
tmx resize-window -t demo -x 40 -y 10
wait_for demo "terminal too small"
tmx resize-window -t demo -x 100 -y 30
# Help toggled back to the tests screen before the resize.
wait_for demo "port counters moving" 3
keys demo o
wait_for demo "MTU nd/act"
tmx resize-window -t demo -x 80 -y 24
wait_for demo "MTU nd/act"
wait_for demo "F10Quit"

keys demo q
wait_exit demo 0

# --- a fixture tree, probed live, quit with F10 ---
tui_start fixture 100 30 --sysfs-root tests/fixtures/cx6dx-roce-port-down/sys
wait_for fixture "mlx5_1/1"
wait_for fixture "DISABLED"
absent fixture "DEMO"
keys fixture p
wait_for fixture "eth3"
# No test runs on a tree of files: b says so at once, with no form.
keys fixture b
wait_for fixture "no test runs here"
absent fixture "bandwidth test"
keys fixture F10
wait_exit fixture 0

# --- Ctrl-C, monochrome, ASCII ---
TUI_ENV="NO_COLOR=1 TERM=vt100 LANG=C LC_ALL=C" tui_start mono 80 24 --demo
wait_for mono "DEMO"
keys mono c
wait_for mono "LAST MINUTE"
sleep 2
if tui_screen mono | grep -q "$(printf '\342\226')"; then
	not_ok "mono: block characters in a non-UTF-8 locale"
else
	ok "mono: ASCII sparklines"
fi
keys mono C-c
wait_exit mono 0

# --- a crash: the handler restores the terminal before dying ---
tui_start crash 80 24 --demo
wait_for crash "DEMO"
pid=$(tui_pid crash)
[ -n "$pid" ] && kill -SEGV "$pid"
wait_exit crash 139

# --- no devices: the console says so and points to the demo ---
mkdir -p "$TUI_TMP/empty/class/infiniband"
tui_start empty 100 30 --sysfs-root "$TUI_TMP/empty"
wait_for empty "No RDMA devices"
wait_for empty "rdmadiag --demo"
keys empty D
wait_for empty "DEMO"
wait_for empty "mlx5_0/1"
keys empty q
wait_exit empty 0

# --- bad input: a clean message, no terminal left behind ---
printf 'not json\n' > "$TUI_TMP/bad.jsonl"
tui_start bad 80 24 --replay "$TUI_TMP/bad.jsonl"
wait_exit bad 1
if grep -q "frame 1" "$TUI_TMP/bad.stderr"; then ok "bad: names the bad frame"
else not_ok "bad: message was: $(cat "$TUI_TMP/bad.stderr")"; fi

tui_summary
