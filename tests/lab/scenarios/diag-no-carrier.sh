# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check names no_carrier when the veth peer is down; there is no
# automatic fix for a missing link partner.

# diag_check NAME: rdmadiag check --json into $LAB_OUT/NAME.json; sets $CHK, $RC.
diag_check() {
	CHK=$LAB_OUT/$1.json
	RC=0
	"$RDMADIAG" check --json --window 0 > "$CHK" 2> "$LAB_OUT/$1.err" || RC=$?
	jq -e "type == \"array\"" "$CHK" > /dev/null ||
		lab_fail "check ($1) did not print a JSON array: $(tail -n 3 "$LAB_OUT/$1.err")"
}

# The cause the port would be reported for first: its first FAIL, else WARN.
DIAG_FIRST='[.[] | select(.device == $d and .port == $p)] as $r |
	([$r[] | select(.verdict == "FAIL")] + [$r[] | select(.verdict == "WARN")])[0].cause'
diag_first_cause() {
	jq -r --arg d "$1" --argjson p "$2" "$DIAG_FIRST" "$CHK"
}

# diag_fix NAME ARGS...: rdmadiag fix --yes with the scenario journal.
diag_fix() {
	local name=$1
	shift
	RC=0
	"$RDMADIAG" fix "$@" --yes --journal "$LAB_OUT/journal.jsonl" \
		> "$LAB_OUT/$name.out" 2>&1 || RC=$?
}

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
ip link set veth1 down
lab_wait_port rxe0 DOWN

diag_check nocarrier
assert_eq 2 "$RC" "check exit status"
assert_eq no_carrier "$(diag_first_cause rxe0 1)" "first cause for rxe0/1"
diag_fix fix port.state --device rxe0 --port 1
assert_eq 2 "$RC" "fix refuses: nothing to fix automatically"
