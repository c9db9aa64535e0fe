# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: qemu -machine q35 -device intel-iommu,intremap=off
# lab: qemu -device pcie-root-port,id=rp1,chassis=1,slot=1,x-speed=16,x-width=16
# lab: qemu -device x3130-upstream,id=up1,bus=rp1
# lab: qemu -device xio3130-downstream,id=dn1,bus=up1,chassis=2,slot=1
# lab: qemu -netdev user,id=n1,restrict=on
# lab: qemu -device virtio-net-pci,netdev=n1,bus=dn1,disable-legacy=on,romfile=
# lab: qemu -device xio3130-downstream,id=dn2,bus=up1,chassis=3,slot=2
# lab: qemu -device virtio-rng-pci,bus=dn2,disable-legacy=on
# lab: qemu -device pcie-root-port,id=rp2,chassis=4,slot=4,x-speed=16,x-width=16
# lab: qemu -device virtio-rng-pci,bus=rp2,disable-legacy=on
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
#
# Then two virtio RNG functions become GPUs the same way (NVIDIA's vendor,
# H200's device, class 3D controller): GPU0 behind the NIC's switch, GPU1
# on a root port of its own. check and the console's Topology screen must
# say which NIC each GPU would use and whether GPUDirect RDMA works on
# that path, from the tree and the ACS control the kernel set (with the
# IOMMU on it turns on request and completion redirection at the root
# ports).

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
UNDO=("/sys/bus/pci/devices/$NIC/vendor")
undo_overlays() {
	local f
	for f in "${UNDO[@]}"; do umount "$f" 2> /dev/null || true; done
}
trap undo_overlays EXIT

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
# --- GPUs ------------------------------------------------------------------

# overlay BDF FILE VALUE: the kernel's sysfs FILE of BDF reads VALUE.
overlay() {
	printf '%s\n' "$3" > "/tmp/overlay.$1.$2"
	mount --bind "/tmp/overlay.$1.$2" "/sys/bus/pci/devices/$1/$2" ||
		lab_fail "could not overlay $1's $2"
	UNDO+=("/sys/bus/pci/devices/$1/$2")
}
GPUS=()
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1af4:0x1044 ] || continue
	GPUS+=("${d##*/}")
done
[ "${#GPUS[@]}" -eq 2 ] || lab_fail "expected two virtio RNG functions: ${GPUS[*]}"
for g in "${GPUS[@]}"; do
	overlay "$g" vendor 0x10de
	overlay "$g" device 0x2335
	overlay "$g" class 0x030200
done
# GPU0 shares the NIC's switch; GPU1 hangs on a root port of its own.
G0=${GPUS[0]} G1=${GPUS[1]}
[[ $(readlink -f "/sys/bus/pci/devices/$G0") == */${CHAIN[1]}/* ]] ||
	lab_fail "$G0 is not behind the switch ${CHAIN[1]}"
RP1=${CHAIN[0]}
RP2=$(basename "$(dirname "$(readlink -f "/sys/bus/pci/devices/$G1")")")

RC=0
"$RDMADIAG" check --json --only gpu --window 0 > "$LAB_OUT/gpu.json" 2> "$LAB_OUT/gpu.err" || RC=$?
assert_eq 2 "$RC" "check --only gpu exit status (a FAIL: no RDMA device on the NIC)"
# res CHECK BDF FILTER: a field of that check's result for that GPU.
res() {
	jq -r --arg c "$1" --arg b "$2" \
		"[.[] | select(.check == \$c and (.summary | contains(\$b)))][0] | $3" "$LAB_OUT/gpu.json"
}
assert_eq FAIL "$(res gpu.nic_affinity "$G0" .verdict)" "GPU0's NIC use"
assert_eq "GPU0 $G0: its nearest NIC $NIC (PIX) has no RDMA device on the function; no other NIC is usable" \
	"$(res gpu.nic_affinity "$G0" .summary)" "GPU0's nearest NIC: one switch between them (PIX)"
assert_eq "GPU1 $G1: its nearest NIC $NIC (PHB) has no RDMA device on the function; no other NIC is usable" \
	"$(res gpu.nic_affinity "$G1" .summary)" "GPU1's nearest NIC: across the host bridge (PHB)"
assert_eq PASS "$(res gpu.gdr_path "$G0" .verdict)" "GPUDirect on GPU0's path (no ACS on QEMU's switch ports)"
assert_eq WARN "$(res gpu.gdr_path "$G1" .verdict)" "GPUDirect on GPU1's path (PHB)"
for rp in "$RP1" "$RP2"; do
	want=$(lspci -s "$rp" -vvv | sed -n 's/^[[:space:]]*ACSCtl:[[:space:]]*//p')
	[[ $want == *"ReqRedir+ CmpltRedir+"*"DirectTrans-"* ]] ||
		lab_fail "$rp: the kernel did not turn on ACS redirection: $want"
	got=$(res gpu.gdr_path "$G1" "[.evidence[] | select(.what == \"ACSCtl\") | .value | select(startswith(\"$rp \"))][0]")
	assert_eq "$want" "${got#*: 0x* }" "GPU1's path: $rp's ACS control, as lspci's ACSCtl"
done
assert_eq UNKNOWN "$(jq -r '[.[] | select(.check == "gpu.peermem")][0].verdict' "$LAB_OUT/gpu.json")" \
	"peer memory with no RDMA device to try dma-buf on"
assert_json "$LAB_OUT/gpu.json" '[.[] | select(.check == "gpu.peermem")][0].summary | contains("no RDMA device to try it on")' \
	true "gpu.peermem says why dma-buf was not tried"

# The console's Topology screen at 80x24.
lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L topo "$@"; }
waits_for() {
	local i=0
	while [ $i -lt $(($2 * 10)) ]; do
		tm capture-pane -p -t t | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	tm capture-pane -p -t t > "$LAB_OUT/topology-screen.txt"
	lab_fail "the console did not show '$1' within $2 s (topology-screen.txt)"
}
TERM=xterm tm new-session -d -s t -x 80 -y 24 "$RDMADIAG -d 1"
waits_for "Overview" 20
tm send-keys -t t g
waits_for "GPU0  PIX!" 10
waits_for "GPU1  PHB!" 5
waits_for "GPU0 $G0 to ${NIC#0000:}: PIX (nvidia-smi PIX), the nearest NIC" 5
waits_for "${NIC#0000:}: no RDMA device on the function" 5
tm capture-pane -p -t t > "$LAB_OUT/topology-screen.txt"
lab_log "Topology screen: $(tr -s ' ' < "$LAB_OUT/topology-screen.txt" | head -n 14 | tr '\n' '|')"
tm send-keys -t t q
tm kill-server 2> /dev/null || true
lab_pass
