# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# undo trusts nothing in the journal: hand-edited entries that would set
# core_pattern, take lo down, or restore a value a check never makes are
# refused with nothing changed; a symlinked journal or one in a directory
# others may write is refused; journal strings print escaped.

J=/var/lib/rdmadiag/journal.jsonl

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_read /sys/class/net/veth0/ifindex IFX
lab_read /proc/sys/kernel/core_pattern core0
mkdir -p -m 0700 /var/lib/rdmadiag

# put_journal LINE...: the journal holds exactly these lines.
put_journal() {
	printf '%s\n' "$@" > "$J"
	chmod 0600 "$J"
}

# undo_refused NAME WORDS: undo exits 2, its message has WORDS.
undo_refused() {
	local rc=0
	"$RDMADIAG" undo > "$LAB_OUT/$1.out" 2>&1 || rc=$?
	assert_eq 2 "$rc" "$1: undo exit status ($(tail -n 1 "$LAB_OUT/$1.out"))"
	grep -q -- "$2" "$LAB_OUT/$1.out" || lab_fail "$1: no \"$2\" in: $(cat "$LAB_OUT/$1.out")"
}

put_journal '{"type":"apply","id":"e1","check":"host.hugepages","kind":"sysctl","arg":"/proc/sys/kernel/core_pattern","command":"x","before":"|/tmp/evil %p","after":"'"$core0"'","undoable":true}' \
	'{"type":"result","id":"e1","result":"ok"}'
undo_refused core-pattern "not a setting any check changes"
lab_read /proc/sys/kernel/core_pattern core
assert_eq "$core0" "$core" "core_pattern after undo"

put_journal '{"type":"apply","id":"e1","check":"port.state","kind":"link_up","arg":"lo","ifindex":1,"command":"x","before":"down","after":"up","undoable":true}' \
	'{"type":"result","id":"e1","result":"ok"}'
undo_refused lo-down "loopback"
ip -o link show lo | grep -q "[<,]UP[,>]" || lab_fail "lo is not up"

# veth0 by name but with another interface's index: not the same link.
ip link set veth0 mtu 9000
put_journal '{"type":"apply","id":"e1","check":"port.mtu","kind":"link_mtu","arg":"veth0","ifindex":'"$((IFX + 100))"',"command":"x","before":"1500","after":"9000","undoable":true}' \
	'{"type":"result","id":"e1","result":"ok"}'
undo_refused other-index "not the same interface"
put_journal '{"type":"apply","id":"e1","check":"port.mtu","kind":"link_mtu","arg":"veth0","ifindex":'"$IFX"',"command":"x","before":"66000","after":"9000","undoable":true}' \
	'{"type":"result","id":"e1","result":"ok"}'
undo_refused mtu-range "from 68 to 65535"
assert_eq 9000 "$(cat /sys/class/net/veth0/mtu)" "veth0 MTU after refused undos"

# The file rules: a symlinked journal, a directory others may write.
put_journal '{"type":"apply","id":"e1\u001b[2J","check":"port.mtu","kind":"link_mtu","arg":"veth0","ifindex":'"$IFX"',"command":"ip link set dev veth0 mtu 9000\u001b]0;owned\u0007","before":"1500","after":"9000","undoable":true}'
"$RDMADIAG" undo --list > "$LAB_OUT/list.out" 2>&1 || lab_fail "undo --list failed: $(cat "$LAB_OUT/list.out")"
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$LAB_OUT/list.out"; then
	lab_fail "undo --list printed control bytes"
fi
grep -qF '\x1b[2J' "$LAB_OUT/list.out" || lab_fail "escaped id not shown: $(cat "$LAB_OUT/list.out")"
mv "$J" /var/lib/rdmadiag/real.jsonl
ln -s /var/lib/rdmadiag/real.jsonl "$J"
undo_refused symlink "symlink; refused"
rm "$J"
mv /var/lib/rdmadiag/real.jsonl "$J"
chmod 0777 /var/lib/rdmadiag
undo_refused dir-mode "writable by group or others"
chmod 0700 /var/lib/rdmadiag
