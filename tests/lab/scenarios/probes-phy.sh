# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The physical layer on a real kernel, where a veth has no module, no FEC
# and no link-down reason: the kernel answers EOPNOTSUPP, as stock ethtool
# shows, and rdmadiag says "not supported by the driver" instead of
# inventing a module or calling anything a PASS. Debian's kernel has no
# netdevsim, so real FEC and module replies are tested from fixtures.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_oracles phy
ethtool -m "$LAB_NETDEV" > "$ORACLE/ethtool-m.txt" 2>&1 && lab_fail "ethtool -m read a module on a veth"
ethtool --show-fec "$LAB_NETDEV" > "$ORACLE/ethtool-fec.txt" 2>&1 && lab_fail "ethtool --show-fec answered on a veth"
grep -qi "not supported" "$ORACLE/ethtool-m.txt" ||
	lab_fail "ethtool -m: $(head -c 200 "$ORACLE/ethtool-m.txt")"
lab_snapshot phy

nd() {
	jq -r --arg n "$LAB_NETDEV" ".netdevs[] | select(.name == \$n) | $1" "$SNAP"
}
assert_eq 95 "$(nd .transceiver.errno)" "module memory: EOPNOTSUPP, as ethtool -m"
assert_eq "the driver cannot read module memory" "$(nd .transceiver.error)" "module memory: the reason"
assert_eq null "$(nd .transceiver.identifier)" "no module invented"
case "$(nd .ethtool.unsupported)" in
*fec*) lab_log "ok: FEC noted as not supported ($(nd .ethtool.unsupported))" ;;
*) lab_fail "FEC not noted as unsupported: $(nd .ethtool.unsupported)" ;;
esac
assert_json "$SNAP" '[.errors[] | select(.source == "transceiver")] | length' 0 "no errors from the transceiver probe"

out=$("$RDMADIAG" module 2>&1) || lab_fail "rdmadiag module exited $?: $out"
case $out in
*"rxe0/1 $LAB_NETDEV: the driver cannot read module memory"*) lab_log "ok: rdmadiag module says why" ;;
*) lab_fail "rdmadiag module: $out" ;;
esac
# Soft-RoCE has no cable: the phy checks do not judge it.
"$RDMADIAG" check --json --only phy > "$LAB_OUT/phy-check.json" || true
assert_json "$LAB_OUT/phy-check.json" 'length' 0 "no phy verdicts for Soft-RoCE"
