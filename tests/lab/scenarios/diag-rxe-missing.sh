# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdma_rxe loaded but no Soft-RoCE link: check says no_device and offers
# the rxe link; fix creates it over RDMA netlink; undo deletes it.

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
