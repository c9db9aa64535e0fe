# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check names no_carrier when the veth peer is down; there is no
# automatic fix for a missing link partner.

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
