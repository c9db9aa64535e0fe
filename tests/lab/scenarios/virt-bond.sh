# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Soft-RoCE over an active-backup bond of two veths, on the real bonding
# driver: both members up is a whole LAG; one member's peer down leaves
# the port ACTIVE on the other member and lag.state names the member that
# is down; both down takes the port down and lag.state fails. The probe's
# view of the bond is held against the kernel's own files.

modprobe bonding max_bonds=0 2> "$LAB_OUT/modprobe.err" ||
	lab_skip "no bonding module in this kernel: $(cat "$LAB_OUT/modprobe.err")"
ip link set lo up
ip link add veth0 type veth peer name veth1
ip link add veth2 type veth peer name veth3
ip link add bond0 type bond mode active-backup miimon 100
ip link set veth0 master bond0
ip link set veth2 master bond0
ip link set veth1 up
ip link set veth3 up
ip link set bond0 up
ip addr add 192.0.2.1/24 dev bond0
lab_wait 10 "carrier on bond0" lab_has_carrier bond0
lab_rxe_add rxe0 bond0
lab_wait_port rxe0 ACTIVE

LAG='[.[] | select(.check == "lag.state" and .device == "rxe0")][0]'
diag_check whole
assert_json "$CHK" "$LAG.verdict" PASS "lag.state with both members up"
assert_json "$CHK" "$LAG.summary" \
	"rxe0 over bond0 (active-backup, $(cut -d" " -f1 /sys/class/net/bond0/bonding/xmit_hash_policy)): 2 members up" "lag.state summary"
lab_snapshot whole-snap
assert_json "$SNAP" '.bonds[0].mode' \
	"$(cut -d' ' -f1 /sys/class/net/bond0/bonding/mode)" "bond mode as sysfs has it"
assert_json "$SNAP" '[.bonds[0].members[].name] | join(" ")' \
	"$(cat /sys/class/net/bond0/bonding/slaves)" "members as sysfs has them"

# One member loses its carrier: the bond fails over, the port stays up.
ip link set veth3 down
lab_wait 10 "veth2 without carrier" sh -c '! grep -q 1 /sys/class/net/veth2/carrier 2>/dev/null'
degraded() {
	diag_check degraded
	[ "$(jq -r "$LAG.cause" "$CHK")" = lag_degraded ]
}
lab_wait 10 "lag.state lag_degraded" degraded
assert_json "$CHK" "$LAG.verdict" WARN "lag.state with one member down"
assert_json "$CHK" "$LAG.summary" \
	"LAG degraded: veth2 down, all RoCE traffic of rxe0 on veth0" "the member named"
lab_port_is rxe0 1 ACTIVE || lab_fail "rxe0 left ACTIVE with one member up"
assert_eq veth0 "$(cat /sys/class/net/bond0/bonding/active_slave)" "the kernel's active member"

# Both members down: the bond loses its carrier and the port goes down.
ip link set veth1 down
lab_wait_port rxe0 DOWN
diag_check down
assert_json "$CHK" "$LAG.verdict" FAIL "lag.state with every member down"
assert_json "$CHK" "$LAG.cause" lag_down "lag.state cause"
assert_json "$CHK" '[.[] | select(.check == "port.state" and .device == "rxe0")][0].verdict' \
	FAIL "port.state of the port on the bond"

ip link set veth1 up
ip link set veth3 up
lab_wait_port rxe0 ACTIVE 15
lab_pass
