# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: qemu -machine q35 -device intel-iommu,intremap=off
# lab: qemu -device pcie-root-port,id=rp1,chassis=1,slot=1,x-speed=16,x-width=16
# lab: qemu -device x3130-upstream,id=up1,bus=rp1
# lab: qemu -device xio3130-downstream,id=dn1,bus=up1,chassis=2,slot=1
# lab: qemu -netdev user,id=n1,restrict=on
# lab: qemu -device virtio-net-pci,netdev=n1,bus=dn1,disable-legacy=on,romfile=
# lab: append intel_iommu=on iommu=pt
#
# The PCIe tree on the real kernel: QEMU's q35 with an emulated IOMMU, a
# root port, a switch (x3130 upstream, xio3130 downstream) and a NIC
# behind it. The topology probe walks the NIC's sysfs path, reads each
# function's link, IOMMU group and, for the bridges, ACS from config
# space; lspci and sysfs are the oracles. QEMU has no RDMA NIC, so the
# NIC's vendor file is overlaid (a bind mount) with Mellanox's ID: the
# pci probe then keeps it as an RDMA-capable function without an RDMA
# device, and everything else read about it is the kernel's.

command -v lspci > /dev/null || lab_skip "lspci (pciutils) is not installed"
lab_require_rdmadiag

# The virtio NIC is the only function three bridges down.
NIC=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/class")" = 0x020000 ]; then
		NIC=${d##*/}
	fi
done
[ -n "$NIC" ] || lab_fail "no virtio network function: $(ls /sys/bus/pci/devices)"
REAL=$(readlink -f "/sys/bus/pci/devices/$NIC")
lab_log "NIC $NIC at $REAL"
# The chain of functions from the root port down, as sysfs has it.
read -r -a CHAIN <<< "$(echo "${REAL#/sys/devices/}" | tr '/' ' ')"
HB=${CHAIN[0]}
CHAIN=("${CHAIN[@]:1}")
[ "${#CHAIN[@]}" -eq 4 ] || lab_fail "expected root port, switch up, switch down, NIC: ${CHAIN[*]}"

printf '0x15b3\n' > /tmp/nic-vendor
mount --bind /tmp/nic-vendor "/sys/bus/pci/devices/$NIC/vendor" ||
	lab_fail "could not overlay $NIC's vendor file"
trap 'umount "/sys/bus/pci/devices/$NIC/vendor" 2> /dev/null || true' EXIT

lab_snapshot root
J=$SNAP
assert_json "$J" '.topology.read' true "the tree was walked"
assert_json "$J" '.topology.iommu' "$([ -n "$(ls /sys/class/iommu)" ] && echo true || echo false)" \
	"IOMMU on, as /sys/class/iommu has it"
assert_json "$J" '.topology.cmdline' "intel_iommu=on iommu=pt" "the IOMMU words of /proc/cmdline"
assert_json "$J" '[.topology.nodes[].bdf] | sort | join(" ")' \
	"$(printf '%s\n' "${CHAIN[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" \
	"the nodes: the NIC and the bridges above it, no other"

# node BDF FILTER: the field of that node.
node() {
	jq -r --arg b "$1" ".topology.nodes[] | select(.bdf == \$b) | $2" "$J"
}

# lnk BDF WHAT: "speed width" of lspci's LnkSta or LnkCap; "null null"
# where lspci says "Speed unknown, Width x0" (QEMU's xio3130 downstream
# port has no link capability): not read, never 0.
lnk() {
	local line
	line=$(lspci -s "$1" -vv | grep -m 1 "^[[:space:]]*$2:")
	case $line in
	*"Speed unknown, Width x0"*) echo "null null" ;;
	*) sed -n 's/.*Speed \([0-9.]*\)GT\/s[^,]*, Width x\([0-9]*\).*/\1 \2/p' <<< "$line" ;;
	esac
}

# acsctl BDF: lspci's ACSCtl as the register's bits, or "none".
acsctl() {
	local line bit v=0 i=0
	line=$(lspci -s "$1" -vvv | sed -n 's/^[[:space:]]*ACSCtl:[[:space:]]*//p')
	[ -n "$line" ] || { echo none; return; }
	for bit in SrcValid TransBlk ReqRedir CmpltRedir UpstreamFwd EgressCtrl DirectTrans; do
		[[ $line == *"$bit+"* ]] && v=$((v | 1 << i))
		i=$((i + 1))
	done
	printf '0x%x\n' "$v"
}

depth=0
parent=null
for b in "${CHAIN[@]}"; do
	kind=bridge
	[ "$b" = "$NIC" ] && kind=nic
	assert_eq "$kind" "$(node "$b" .kind)" "$b kind"
	assert_eq "$parent" "$(node "$b" '.parent // "null"')" "$b parent, as sysfs has it"
	assert_eq "$depth" "$(node "$b" .depth)" "$b depth"
	assert_eq "$HB" "$(node "$b" .host_bridge)" "$b host bridge"
	assert_eq "$(lnk "$b" LnkSta)" "$(node "$b" '"\(.link_speed_gts) \(.link_width)"')" \
		"$b link now, as lspci's LnkSta"
	assert_eq "$(lnk "$b" LnkCap)" "$(node "$b" '"\(.max_link_speed_gts) \(.max_link_width)"')" \
		"$b link at most, as lspci's LnkCap"
	grp=$(readlink "/sys/bus/pci/devices/$b/iommu_group")
	assert_eq "${grp##*/}" "$(node "$b" .iommu_group)" "$b IOMMU group"
	assert_eq "$(cat "/sys/kernel/iommu_groups/${grp##*/}/type")" "$(node "$b" .iommu_type)" \
		"$b IOMMU domain type"
	if [ "$kind" = bridge ]; then
		want=$(acsctl "$b")
		if [ "$want" = none ]; then
			assert_eq none "$(node "$b" .acs)" "$b has no ACS, as lspci says"
		else
			assert_eq read "$(node "$b" .acs)" "$b ACS read from config space"
			assert_eq "$want" "$(node "$b" .acs_ctl)" "$b ACS control, as lspci's ACSCtl"
		fi
	fi
	parent=$b
	depth=$((depth + 1))
done
# The kernel turns ACS redirection on at a root port when the IOMMU is on:
# the case the GPUDirect checks look for, here read for real.
[ "$(acsctl "${CHAIN[0]}")" != none ] || lab_fail "QEMU's root port shows no ACS: the config-space read went untested"

# A user without CAP_SYS_ADMIN sees 64 bytes of config space: ACS is
# "unreadable", never "none"; the links and groups are still read.
RC=0
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" snapshot --json > "$LAB_OUT/user.json" 2> "$LAB_OUT/user.err" || RC=$?
assert_eq 0 "$RC" "snapshot as a user ($(tail -n 2 "$LAB_OUT/user.err"))"
J=$LAB_OUT/user.json
for b in "${CHAIN[@]:0:3}"; do
	assert_eq unreadable "$(node "$b" .acs)" "$b ACS as a user"
	assert_eq "$(lnk "$b" LnkSta)" "$(node "$b" '"\(.link_speed_gts) \(.link_width)"')" \
		"$b link now, as a user"
done
lab_pass
