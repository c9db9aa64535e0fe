# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The console on a real Soft-RoCE port, driven through tmux: the overview
# shows rxe0 ACTIVE; after `ip link set veth0 down` it shows DOWN within two
# refreshes (-d 1); after up again, ACTIVE. Quitting leaves no process.

lab_require_rdmadiag
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L console "$@"; }
screen() { tm capture-pane -p -t c; }
# shows TEXT SECONDS: the overview row of rxe0/1 contains TEXT in time.
shows() {
	local i=0 limit=$(($2 * 10))
	while [ $i -lt $limit ]; do
		screen | grep -E '^rxe0/1 ' | grep -qF "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen > "$LAB_OUT/console-screen.txt"
	lab_fail "overview did not show rxe0/1 $1 within $2 s (screen in console-screen.txt)"
}

TERM=xterm tm new-session -d -s c -x 100 -y 30 "$RDMADIAG -d 1"
shows ACTIVE 20
screen > "$LAB_OUT/console-active.txt"
lab_log "console: $(screen | grep -E '^rxe0/1 ' | tr -s ' ')"

ip link set veth0 down
# Two refreshes at -d 1, plus the time the guest needs to run a probe.
start=$(date +%s%N)
shows DOWN 3
lab_log "console showed DOWN after $(( ($(date +%s%N) - start) / 1000000 )) ms"
screen > "$LAB_OUT/console-down.txt"

ip link set veth0 up
shows ACTIVE 20

tm send-keys -t c q
sleep 1
pgrep -f "$RDMADIAG -d 1" > /dev/null && lab_fail "rdmadiag still running after q"
tm kill-server 2> /dev/null || true
