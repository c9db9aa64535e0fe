# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The console's Tests screen after a real run on a Soft-RoCE port: b opens
# the form, Enter runs a bandwidth test in loopback on rxe0, and once the
# run has ended the screen shows its figures with their units (Gb/s beside
# MiB/s, no two columns run together) and the counters panel keeps what
# moved on the port during the run instead of only "nothing is moving".

lab_require_rdmadiag
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L tests "$@"; }
screen() { tm capture-pane -p -t t; }
# waits_for TEXT SECONDS: the screen contains TEXT in time.
waits_for() {
	local i=0 limit=$(($2 * 10))
	while [ $i -lt $limit ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen > "$LAB_OUT/tests-screen.txt"
	lab_fail "the console did not show '$1' within $2 s (screen in tests-screen.txt)"
}

TERM=xterm tm new-session -d -s t -x 120 -y 40 "$RDMADIAG -d 1"
waits_for "rxe0/1" 20
tm send-keys -t t b
waits_for "bandwidth test" 10
screen > "$LAB_OUT/tests-form.txt"
tm send-keys -t t Enter
waits_for "last result" 90
# One more refresh after the end, so the panel is drawn from the history
# that no longer moves.
sleep 3
screen > "$LAB_OUT/tests-after.txt"
lab_log "after the run: $(grep -A4 'last result' "$LAB_OUT/tests-after.txt" | tr -s ' ' | tr '\n' '|')"
grep -q 'Gb/s' "$LAB_OUT/tests-after.txt" ||
	lab_fail "the last result has no Gb/s figure (tests-after.txt)"
grep -q 'MiB/s' "$LAB_OUT/tests-after.txt" ||
	lab_fail "the last result has no MiB/s figure (tests-after.txt)"
# Raw JSON names and numbers running into the next name were what a run
# used to leave on screen.
grep -Eq 'bw_(peak|avg)_mibps|[0-9]bw_|[0-9]t_m' "$LAB_OUT/tests-after.txt" &&
	lab_fail "the last result shows raw JSON fields (tests-after.txt)"
grep -q 'during the last run' "$LAB_OUT/tests-after.txt" ||
	lab_fail "the counters panel lost what moved during the run (tests-after.txt)"
grep -A3 'during the last run' "$LAB_OUT/tests-after.txt" |
	grep -Eq '/s' ||
	lab_fail "what moved during the run has no rate (tests-after.txt)"

tm send-keys -t t q
sleep 1
pgrep -f "$RDMADIAG -d 1" > /dev/null && lab_fail "rdmadiag still running after q"
tm kill-server 2> /dev/null || true
