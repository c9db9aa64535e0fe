# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# An apply killed after its change (e5: 1500 -> 9000, no result line)
# behind a finished one (e4: 1400 -> 1500): undo reverts e5 first and says
# it was interrupted, then e4; killed before the change took, e5 is
# recorded as not in effect and nothing changes; a value neither entry
# left is refused.

J=/var/lib/rdmadiag/journal.jsonl

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_read /sys/class/net/veth0/ifindex IFX
mkdir -p -m 0700 /var/lib/rdmadiag

entry() { # ID BEFORE AFTER
	printf '{"type":"apply","id":"%s","check":"port.mtu","kind":"link_mtu","arg":"veth0","ifindex":%s,"command":"x","before":"%s","after":"%s","undoable":true}\n' \
		"$1" "$IFX" "$2" "$3"
}
journal() {
	{
		entry e4 1400 1500
		echo '{"type":"result","id":"e4","result":"ok"}'
		entry e5 1500 9000
	} > "$J"
	chmod 0600 "$J"
}
undo() { # NAME
	RC=0
	"$RDMADIAG" undo > "$LAB_OUT/$1.out" 2>&1 || RC=$?
}
mtu() { cat /sys/class/net/veth0/mtu; }

# Killed after the change.
journal
ip link set veth0 mtu 9000
undo in-effect
assert_eq 0 "$RC" "undo exit status ($(tail -n 1 "$LAB_OUT/in-effect.out"))"
grep -q "interrupted" "$LAB_OUT/in-effect.out" || lab_fail "not reported as interrupted"
assert_eq 1500 "$(mtu)" "MTU after undoing e5"
undo then-e4
assert_eq 0 "$RC" "second undo exit status"
assert_eq 1400 "$(mtu)" "MTU after undoing e4"

# Killed before the change took.
journal
ip link set veth0 mtu 1500
undo not-in-effect
assert_eq 0 "$RC" "undo exit status"
grep -q "interrupted before its change took effect" "$LAB_OUT/not-in-effect.out" ||
	lab_fail "not said: $(cat "$LAB_OUT/not-in-effect.out")"
assert_eq 1500 "$(mtu)" "MTU unchanged"
grep -q '"interrupted: not in effect (found 1500)"' "$J" || lab_fail "not journalled"

# Someone else changed it since.
journal
ip link set veth0 mtu 7000
undo changed
assert_eq 2 "$RC" "undo refuses"
grep -q "something else changed it" "$LAB_OUT/changed.out" || lab_fail "no reason given"
assert_eq 7000 "$(mtu)" "MTU left alone"
cp "$J" "$LAB_OUT/"
