# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# kernel.events reads the guest's real /dev/kmsg: Soft-RoCE's own "set
# down" when its netdev's peer goes down, and a line in mlx5's format
# (en_main.c's "TX timeout detected", printed on the netdev) that root
# writes to /dev/kmsg naming rxe0's netdev. Both are tied to rxe0 by the
# names in their text and classified by data/kmsg.tsv; port.state shows
# the link line as evidence and keeps its verdict.

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
ip link set veth1 down
lab_wait_port rxe0 DOWN
echo "<4>mlx5_core 0000:00:00.0 $LAB_NETDEV: TX timeout detected" > /dev/kmsg

diag_check kmsg
assert_eq no_carrier "$(diag_first_cause rxe0 1)" "port.state keeps its verdict"
assert_json "$CHK" '[.[] | select(.check == "kernel.events" and .device == "rxe0")][0].verdict' \
	WARN "kernel.events verdict for rxe0"
assert_json_true "$CHK" '[.[] | select(.check == "kernel.events" and .device == "rxe0")][0].evidence |
	map(select(.what == "kernel log: tx_timeout, warn" and (.value | test("TX timeout detected$")))) | length == 1' \
	"the written mlx5 line is classified as a transmit timeout"
assert_json_true "$CHK" '[.[] | select(.check == "kernel.events" and .device == "rxe0")][0].evidence |
	map(select(.what == "kernel log: link, warn" and (.value | test("rxe0: set down$")))) | length >= 1' \
	"rxe's own set down is a link warning"
assert_json_true "$CHK" '[.[] | select(.check == "port.state" and .device == "rxe0")][0].evidence |
	map(select(.value | test("rxe0: set down$"))) | length >= 1' \
	"port.state shows the set down line"
