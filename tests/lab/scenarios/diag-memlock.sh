# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A 64 KiB memlock limit without CAP_IPC_LOCK: host.memlock FAIL memlock_low.

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
command -v setpriv > /dev/null || lab_skip "setpriv not installed"
CHK=$LAB_OUT/memlock.json
RC=0
( ulimit -S -l 64
  setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" check --json --window 0 > "$CHK" 2> "$LAB_OUT/memlock.err" ) || RC=$?
assert_eq 2 "$RC" "check exit status"
assert_json "$CHK" '[.[] | select(.check == "host.memlock")][0].cause' memlock_low "host.memlock cause"
assert_json "$CHK" '[.[] | select(.check == "host.memlock")][0].verdict' FAIL "host.memlock verdict"
