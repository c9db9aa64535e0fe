# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A healthy Soft-RoCE host (MTU 9000): no FAIL anywhere, port.state PASS.

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
diag_check healthy
assert_json "$CHK" '[.[] | select(.verdict == "FAIL")] | length' 0 "FAIL results on a healthy host"
assert_json "$CHK" '[.[] | select(.check == "port.state" and .device == "rxe0")][0].verdict' PASS "port.state"
[ "$RC" -le 1 ] || lab_fail "check exit status $RC on a healthy host"
