# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A 1500-byte netdev limits RoCE to 1024: check says mtu_low, fix raises
# the netdev MTU and the port reaches 4096, undo restores 1500.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

diag_check mtu1500
assert_eq mtu_low "$(diag_first_cause rxe0 1)" "first cause for rxe0/1"
diag_fix fix port.mtu --device rxe0 --port 1
assert_eq 0 "$RC" "fix exit status ($(tail -n 2 "$LAB_OUT/fix.out"))"
assert_eq 9000 "$(cat /sys/class/net/veth0/mtu)" "veth0 MTU after the fix"
"$RDMADIAG" undo --journal "$LAB_OUT/journal.jsonl" > "$LAB_OUT/undo.out" 2>&1 ||
	lab_fail "undo failed: $(cat "$LAB_OUT/undo.out")"
assert_eq 1500 "$(cat /sys/class/net/veth0/mtu)" "veth0 MTU after undo"
