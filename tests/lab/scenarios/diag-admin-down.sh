# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check names admin_down for a port whose netdev is down; fix brings it
# up and the re-probe passes; undo puts it down again.

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
ip link set veth0 down
lab_wait_port rxe0 DOWN

diag_check down
assert_eq 2 "$RC" "check exit status with a port down"
assert_eq admin_down "$(diag_first_cause rxe0 1)" "first cause for rxe0/1"
assert_json "$CHK" '[.[] | select(.check == "port.state" and .device == "rxe0")][0].fix.command' \
	"ip link set dev veth0 up" "fix-up command"

diag_fix fix port.state --device rxe0 --port 1
assert_eq 0 "$RC" "fix exit status ($(tail -n 2 "$LAB_OUT/fix.out"))"
grep -q "^re-probe: PASS" "$LAB_OUT/fix.out" || lab_fail "re-probe did not pass"
lab_port_is rxe0 1 ACTIVE || lab_fail "rxe0 not ACTIVE after the fix"
assert_json "$LAB_OUT/journal.jsonl" 'select(.type == "apply") | .before' down "journalled before-value"

"$RDMADIAG" undo --journal "$LAB_OUT/journal.jsonl" > "$LAB_OUT/undo.out" 2>&1 ||
	lab_fail "undo failed: $(cat "$LAB_OUT/undo.out")"
lab_wait_port rxe0 DOWN
diag_check undone
assert_eq admin_down "$(diag_first_cause rxe0 1)" "cause after undo"
