# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# fix --confirm-within: an MTU change nobody confirms is reverted by the
# detached timer, which runs in a session of its own and ignores SIGHUP (so
# a lost SSH session does not stop it); a confirmed one is kept.

J=/var/lib/rdmadiag/journal.jsonl

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

mtu_is() { [ "$(cat /sys/class/net/veth0/mtu)" = "$1" ]; }

# Not confirmed.
rc=0
"$RDMADIAG" fix port.mtu --device rxe0 --port 1 --yes --confirm-within 20 \
	> "$LAB_OUT/fix1.out" 2>&1 || rc=$?
[ "$rc" -le 1 ] || lab_fail "fix exit status $rc: $(tail -n 3 "$LAB_OUT/fix1.out")"
grep -q "^rollback timer: reverted 20 s after the change" "$LAB_OUT/fix1.out" ||
	lab_fail "no rollback line: $(cat "$LAB_OUT/fix1.out")"
id1=$(jq -r 'select(.type == "apply") | .id' "$J" | tail -n 1)
timer=$(pgrep -x rdmadiag | head -n 1) || lab_fail "no rollback timer process"
read -r -a st < "/proc/$timer/stat"
read -r -a me < /proc/self/stat
[ "${st[5]}" != "${me[5]}" ] || lab_fail "the timer shares the scenario's session"
kill -HUP "$timer"
sleep 1
kill -0 "$timer" 2>/dev/null || mtu_is 1500 || lab_fail "SIGHUP stopped the timer before it reverted"
lab_wait 60 "the timer to restore MTU 1500" mtu_is 1500
assert_json "$J" "select(.type == \"undo\") | .undo_of" "$id1" "journalled revert"
assert_json "$J" "select(.type == \"result\" and .id != \"$id1\") | .result" "ok" "revert result"

# Confirmed: kept past the deadline.
"$RDMADIAG" fix port.mtu --device rxe0 --port 1 --yes --confirm-within 40 \
	> "$LAB_OUT/fix2.out" 2>&1 || true
mtu_is 9000 || lab_fail "second fix did not set 9000: $(tail -n 3 "$LAB_OUT/fix2.out")"
id2=$(jq -r 'select(.type == "apply") | .id' "$J" | tail -n 1)
"$RDMADIAG" fix --confirm "$id2" > "$LAB_OUT/confirm.out" 2>&1 ||
	lab_fail "confirm failed: $(cat "$LAB_OUT/confirm.out")"
grep -q "^kept: " "$LAB_OUT/confirm.out" || lab_fail "confirm said: $(cat "$LAB_OUT/confirm.out")"
sleep 45
mtu_is 9000 || lab_fail "a confirmed change was reverted"
"$RDMADIAG" undo --list > "$LAB_OUT/list.out"
grep -q "confirmed" "$LAB_OUT/list.out" || lab_fail "list does not show the confirmation"
cp "$J" "$LAB_OUT/"
