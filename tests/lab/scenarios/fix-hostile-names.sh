# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A live RDMA device whose name holds a terminal sequence and a C1
# control (the kernel refuses only '%' and '/' in it): fix port.mtu on it
# goes through, and nothing it prints - the plan, the change, the
# re-probe - nor what undo prints sends a control byte to the terminal.

DEV=$'rx\e[2J\xc2\x9be0'
SHOWN='rx\x1b[2J\xc2\x9be0'

lab_net_up
lab_rxe_add "$DEV"
lab_wait_port "$DEV" ACTIVE

# no_controls NAME: NAME.out holds no C0 but newline, no DEL, no C1.
no_controls() {
	if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$LAB_OUT/$1.out" ||
		LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$LAB_OUT/$1.out"; then
		lab_fail "$1: control bytes in: $(cat -v "$LAB_OUT/$1.out")"
	fi
}

rc=0
"$RDMADIAG" fix port.mtu --device "$DEV" --port 1 --yes > "$LAB_OUT/fix.out" 2>&1 || rc=$?
no_controls fix
assert_eq 0 "$rc" "fix exit status ($(tail -n 1 "$LAB_OUT/fix.out"))"
assert_eq 9000 "$(cat /sys/class/net/veth0/mtu)" "veth0 MTU after fix"
grep -qF "$SHOWN/1: RoCE MTU 1024" "$LAB_OUT/fix.out" ||
	lab_fail "the plan does not name the device escaped: $(cat "$LAB_OUT/fix.out")"
grep -qF "re-probe: PASS $SHOWN/1: RoCE MTU 4096" "$LAB_OUT/fix.out" ||
	lab_fail "the re-probe does not name the device escaped: $(cat "$LAB_OUT/fix.out")"

rc=0
"$RDMADIAG" undo > "$LAB_OUT/undo.out" 2>&1 || rc=$?
no_controls undo
assert_eq 0 "$rc" "undo exit status ($(tail -n 1 "$LAB_OUT/undo.out"))"
assert_eq 1500 "$(cat /sys/class/net/veth0/mtu)" "veth0 MTU after undo"
"$RDMADIAG" undo --list > "$LAB_OUT/list.out" 2>&1 || lab_fail "undo --list failed"
no_controls list
cp /var/lib/rdmadiag/journal.jsonl "$LAB_OUT/"
