# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The console's rollback timer on a real Soft-RoCE port, driven through
# tmux: with veth0 at MTU 1500 the Checks screen offers port.mtu; f and y
# raise it (to 9000) and a "Keep this change?" dialog counts down
# (--confirm-within 10). Not answered: the detached timer puts 1500 back.
# Answered y: the new MTU stays past the deadline. Answered n: reverted at once.

lab_require_rdmadiag
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

J=/var/lib/rdmadiag/journal.jsonl
WITHIN=10

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L rollback "$@"; }
screen() { tm capture-pane -p -t c; }
mtu_is() { [ "$(cat /sys/class/net/veth0/mtu)" = "$1" ]; }
on_screen() { screen | grep -qF "$1"; }
# wait_screen TEXT SECONDS NAME
wait_screen() {
	local i=0 limit=$(($2 * 10))
	while [ $i -lt $limit ]; do
		on_screen "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen > "$LAB_OUT/screen-$3.txt"
	lab_fail "the console did not show \"$1\" within $2 s (screen-$3.txt)"
}
# Select port.mtu on the Checks screen (its fix-up shows in the detail)
# and apply it: f, then y in the confirmation.
apply_mtu_fix() {
	local i=0
	tm send-keys -t c k
	wait_screen "Checks" 5 "checks-$1"
	wait_screen "RoCE MTU" 15 "checks-$1"
	# k opens the most important finding on the whole screen; which one
	# depends on the results of the moment (after a revert, the reading
	# from before it may still be the latest). Back to the list and walk
	# it from the top to port.mtu.
	tm send-keys -t c Escape
	sleep 0.5
	tm send-keys -t c Home
	while ! screen | grep -qF "# ip link set dev veth0 mtu "; do
		[ $i -lt 60 ] || {
			screen > "$LAB_OUT/screen-select-$1.txt"
			lab_fail "port.mtu's fix-up never showed as selected (screen-select-$1.txt)"
		}
		tm send-keys -t c Down
		sleep 0.2
		i=$((i + 1))
	done
	NEW=$(screen | sed -n 's/.*# ip link set dev veth0 mtu \([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$NEW" ] && [ "$NEW" -gt 1500 ] || lab_fail "port.mtu's fix-up sets MTU \"$NEW\""
	tm send-keys -t c f
	wait_screen "Apply this fix-up?" 5 "ask-$1"
	on_screen "press y within $WITHIN s" ||
		lab_fail "the confirmation does not announce the rollback timer"
	tm send-keys -t c y
	wait_screen "Keep this change?" 20 "keep-$1"
	mtu_is "$NEW" || lab_fail "MTU $(cat /sys/class/net/veth0/mtu) after the fix, want $NEW"
	screen > "$LAB_OUT/keep-$1.txt"
}
last_apply() { jq -r 'select(.type == "apply") | .id' "$J" | tail -n 1; }

mtu_is 1500 || lab_fail "veth0 does not start at MTU 1500"
TERM=xterm tm new-session -d -s c -x 120 -y 40 \
	"$RDMADIAG -d 1 --confirm-within $WITHIN"

# (a) Not answered: reverted by the timer.
apply_mtu_fix a
start=$(date +%s)
on_screen "reverted in" || lab_fail "no countdown in the dialog"
id1=$(last_apply)
wait_screen "Change not kept" $((WITHIN + 5)) "timeout"
lab_wait 20 "the timer to restore MTU 1500" mtu_is 1500
lab_log "not kept: MTU 1500 again $(( $(date +%s) - start )) s after the dialog opened"
assert_json "$J" "select(.type == \"undo\" and .undo_of == \"$id1\") | .undo_of" "$id1" "journalled revert by the timer"
tm send-keys -t c Enter

# (b) Kept with y: still 9000 after the deadline.
apply_mtu_fix b
id2=$(last_apply)
[ "$id2" != "$id1" ] || lab_fail "no new journal entry for the second fix"
tm send-keys -t c y
wait_screen "Change kept" 5 "kept"
sleep $((WITHIN + 3))
mtu_is "$NEW" || lab_fail "a change kept with y was reverted"
assert_json "$J" "select(.type == \"confirm\" and .id == \"$id2\") | .id" "$id2" "journalled confirmation"
tm send-keys -t c Enter

# (c) Answered n: reverted now, well before the deadline.
ip link set veth0 mtu 1500
apply_mtu_fix c
start=$(date +%s)
tm send-keys -t c n
wait_screen "Undone" 10 "undone"
mtu_is 1500 || lab_fail "n did not revert: MTU $(cat /sys/class/net/veth0/mtu)"
[ $(( $(date +%s) - start )) -lt "$WITHIN" ] || lab_fail "n took as long as the timer"
screen > "$LAB_OUT/undone.txt"

tm send-keys -t c Enter
tm send-keys -t c q
sleep 1
tm has-session -t c 2> /dev/null && lab_fail "the console still running after q"
# The timers of the kept and the reverted change stand down at their
# deadline: then no rdmadiag process is left.
sleep "$WITHIN"
pgrep -x rdmadiag > /dev/null && lab_fail "an rdmadiag process is left: $(pgrep -a -x rdmadiag)"
mtu_is 1500 || lab_fail "the timer of a reverted change touched the MTU again"
tm kill-server 2> /dev/null || true
cp "$J" "$LAB_OUT/"
