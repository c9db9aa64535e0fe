# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A healthy Soft-RoCE host (MTU 9000): no FAIL anywhere, port.state PASS.

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
diag_check healthy
assert_json "$CHK" '[.[] | select(.verdict == "FAIL")] | length' 0 "FAIL results on a healthy host"
assert_json "$CHK" '[.[] | select(.check == "port.state" and .device == "rxe0")][0].verdict' PASS "port.state"
[ "$RC" -le 1 ] || lab_fail "check exit status $RC on a healthy host"
