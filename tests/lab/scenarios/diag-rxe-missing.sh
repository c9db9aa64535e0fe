# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdma_rxe loaded but no Soft-RoCE link: check says no_device and offers
# the rxe link; fix creates it over RDMA netlink; undo deletes it.

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
lab_rxe_load

"$RDMADIAG" snapshot --json > "$LAB_OUT/nodev-snapshot.json" 2>/dev/null || true
diag_check nodev
assert_eq 2 "$RC" "check exit status"
assert_json "$CHK" '[.[] | select(.check == "port.state")][0].cause' no_device "cause"
diag_fix fix port.state
assert_eq 0 "$RC" "fix exit status ($(tail -n 2 "$LAB_OUT/fix.out"))"
lab_wait_port rxe0 ACTIVE
"$RDMADIAG" undo --journal "$LAB_OUT/journal.jsonl" > "$LAB_OUT/undo.out" 2>&1 ||
	lab_fail "undo failed: $(cat "$LAB_OUT/undo.out")"
lab_wait 10 "rxe0 gone" test ! -e /sys/class/infiniband/rxe0
