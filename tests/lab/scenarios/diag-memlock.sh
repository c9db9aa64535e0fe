# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A 64 KiB memlock limit without CAP_IPC_LOCK: host.memlock FAIL memlock_low.

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
