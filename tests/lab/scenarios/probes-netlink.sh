# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The netlink probes on a real kernel: rxe0 on veth0. rdma_nl must agree
# with `rdma -j link`, netdev with `ip -j link/addr`, ethtool with
# `ethtool -S`; veth has no dcbnl, so DCB must read "not supported".
# Also records the raw replies (for tests/fixtures/netlink) in $LAB_OUT/nl.

lab_net_up
ip -6 addr add 2001:db8::1/64 dev "$LAB_NETDEV" nodad
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_oracles nl
ip -j addr show dev "$LAB_NETDEV" > "$ORACLE/ip-addr.json"
ip -j -d link show dev "$LAB_NETDEV" > "$ORACLE/ip-link-d.json"
rdma -j dev show > "$ORACLE/rdma-dev.json"
lab_snapshot nl

capture=$(dirname "$RDMADIAG")/../tests/tools/nl_capture
if [ -x "$capture" ]; then
	mkdir -p "$LAB_OUT/nl"
	"$capture" "$LAB_OUT/nl" "$LAB_NETDEV" > "$LAB_OUT/nl/capture.log" 2>&1 ||
		lab_fail "nl_capture failed: $(tail -n 3 "$LAB_OUT/nl/capture.log")"
else
	lab_log "nl_capture not built (make check builds it): no capture"
fi

assert_json "$SNAP" '[.errors[] | select(.source == "rdma_nl" or .source == "netdev" or .source == "ethtool" or .source == "dcb")] | length' \
	0 "no errors from the netlink probes"

# rdma_nl against rdma link / rdma dev.
dev_idx=$(jq -r '.[] | select(.ifname == "rxe0") | .ifindex' "$ORACLE/rdma-link.json")
assert_json "$SNAP" '.devices[] | select(.name == "rxe0") | .ifindex' "$dev_idx" "device index (rdma link)"
assert_json "$SNAP" '.devices[] | select(.name == "rxe0") | .protocol' roce "protocol"
assert_eq "$(oracle_port netdev_index)" "$(snap_port netdev_index)" "netdev ifindex (rdma link)"
assert_json "$SNAP" '[.devices[].ports[].mismatch] | map(select(. != null)) | length' 0 "sysfs and netlink agree"
assert_eq "$(jq -r '.[] | select(.ifname == "rxe0") | .node_guid' "$ORACLE/rdma-dev.json")" \
	"$(jq -r '.devices[] | select(.name == "rxe0") | .node_guid' "$SNAP")" "node_guid (rdma dev)"

# netdev against ip.
nd() {
	jq -r --arg n "$LAB_NETDEV" ".netdevs[] | select(.name == \$n) | $1" "$SNAP"
}
ipl() {
	jq -r ".[0] | $1" "$ORACLE/ip-link-d.json"
}
assert_eq "$(ipl .ifindex)" "$(nd .ifindex)" "ifindex (ip link)"
assert_eq "$(ipl .mtu)" "$(nd .mtu)" "mtu (ip link)"
assert_eq "$(ipl .min_mtu)" "$(nd .min_mtu)" "min_mtu (ip -d link)"
assert_eq "$(ipl .max_mtu)" "$(nd .max_mtu)" "max_mtu (ip -d link)"
assert_eq "$(ipl .address)" "$(nd .mac)" "MAC (ip link)"
assert_eq "$(ipl .operstate | tr A-Z a-z)" "$(nd .operstate)" "operstate (ip link)"
assert_eq "$(ipl .linkinfo.info_kind)" "$(nd .kind)" "kind (ip -d link)"
assert_eq true "$(nd .admin_up)" "admin up"
assert_eq true "$(nd .carrier)" "carrier"
assert_eq "$(cat "/sys/class/net/$LAB_NETDEV/carrier_changes")" "$(nd .carrier_changes)" "carrier_changes (sysfs)"
assert_eq rxe0 "$(nd .rdma_device)" "rdma_device"
assert_eq 1 "$(nd .rdma_port)" "rdma_port"
want=$(jq -c '[.[0].addr_info[] | {address: .local, prefixlen, scope}] | sort_by(.address)' "$ORACLE/ip-addr.json")
got=$(jq -c --arg n "$LAB_NETDEV" '[.netdevs[] | select(.name == $n) | .addresses[] | {address, prefixlen, scope}] | sort_by(.address)' "$SNAP")
assert_eq "$want" "$got" "addresses (ip addr)"
assert_eq true "$(nd .addresses_read)" "addresses read (RTM_GETADDR dump)"

# ethtool against ethtool -S and the veth driver's fixed link settings.
want=$(sed -n 's/^ *\([^:]*\): \([0-9]*\)$/\1=\2/p' "$ORACLE/ethtool-S.txt" | sort | tr '\n' ' ')
got=$(nd '.ethtool.stats | to_entries[] | "\(.key)=\(.value)"' | sort | tr '\n' ' ')
[ -n "$want" ] || lab_fail "ethtool -S printed no statistics"
assert_eq "$want" "$got" "driver statistics (ethtool -S)"
assert_eq 10000 "$(nd .ethtool.speed_mbps)" "speed (veth)"
assert_eq full "$(nd .ethtool.duplex)" "duplex (veth)"
assert_eq true "$(nd .ethtool.link_detected)" "link detected"
assert_eq veth "$(nd .ethtool.driver)" "driver (GDRVINFO)"
assert_json_true "$SNAP" ".netdevs[] | select(.name == \"$LAB_NETDEV\") | .ethtool.unsupported | contains(\"pause\")" "pause unsupported on veth"

# dcb: veth has no dcbnl ops.
assert_eq false "$(nd .dcb.supported)" "DCB supported"
assert_eq "driver has no DCB support" "$(nd .dcb.reason)" "DCB reason"
