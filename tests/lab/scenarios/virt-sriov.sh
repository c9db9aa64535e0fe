# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: qemu -machine q35 -device intel-iommu,intremap=off
# lab: qemu -device pcie-root-port,id=rp1,chassis=1,slot=1
# lab: qemu -device nvme-subsys,id=subsys0
# lab: qemu -device nvme,id=nv,serial=lab0,subsys=subsys0,bus=rp1,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2,max_ioqpairs=6,msix_qsize=8
# lab: append intel_iommu=on
#
# SR-IOV on the real kernel. QEMU has no NIC with SR-IOV, but its NVMe
# controller has the capability: the kernel enables its VFs through
# sriov_numvfs (the PF bound to pci-pf-stub) and makes the virtfnN links,
# and vfio-pci takes one VF as it would for a VM. The PF's vendor, device
# and class files are overlaid (bind mounts) as a ConnectX-6 Dx Ethernet
# function for the pci probe to keep it; the SR-IOV files, links and
# drivers are the kernel's, and sysfs is the oracle.

lab_require_rdmadiag
PF=
for d in /sys/bus/pci/devices/*; do
	[ -e "$d/sriov_totalvfs" ] && PF=${d##*/}
done
[ -n "$PF" ] || lab_fail "no function with SR-IOV: $(ls /sys/bus/pci/devices)"
P=/sys/bus/pci/devices/$PF
modprobe pci-pf-stub || lab_fail "modprobe pci-pf-stub"
printf '%s %s\n' "$(sed 's/^0x//' "$P/vendor")" "$(sed 's/^0x//' "$P/device")" \
	> /sys/bus/pci/drivers/pci-pf-stub/new_id
[ "$(basename "$(readlink "$P/driver")")" = pci-pf-stub ] || lab_fail "$PF is not bound to pci-pf-stub"

UNDO=()
undo_overlays() {
	local f
	for f in "${UNDO[@]}"; do umount "$f" 2> /dev/null || true; done
}
trap undo_overlays EXIT
for kv in vendor=0x15b3 device=0x101d class=0x020000; do
	printf '%s\n' "${kv#*=}" > "/tmp/overlay.${kv%%=*}"
	mount --bind "/tmp/overlay.${kv%%=*}" "$P/${kv%%=*}" || lab_fail "could not overlay $PF's ${kv%%=*}"
	UNDO+=("$P/${kv%%=*}")
done

# No VF enabled yet.
lab_snapshot snap-off
assert_json "$SNAP" '[.sriov[].pf_bdf] | join(" ")' "$PF" "the PF found"
assert_json "$SNAP" '.sriov[0].totalvfs' "$(cat "$P/sriov_totalvfs")" "total VFs, as sriov_totalvfs"
assert_json "$SNAP" '.sriov[0].numvfs' 0 "enabled VFs"
diag_check check-off
assert_json "$CHK" '[.[] | select(.check == "sriov.vfs")][0] | "\(.verdict) \(.summary)"' \
	"PASS $PF: 0 of $(cat "$P/sriov_totalvfs") VFs enabled" "sriov.vfs with none enabled"

# Two VFs; the second passed to vfio-pci as for a VM.
echo 2 > "$P/sriov_numvfs" || lab_fail "the kernel did not enable 2 VFs"
VF0=$(basename "$(readlink "$P/virtfn0")")
VF1=$(basename "$(readlink "$P/virtfn1")")
modprobe vfio-pci || lab_fail "modprobe vfio-pci"
echo vfio-pci > "/sys/bus/pci/devices/$VF1/driver_override"
echo "$VF1" > "/sys/bus/pci/devices/$VF1/driver/unbind"
echo "$VF1" > /sys/bus/pci/drivers_probe
[ "$(basename "$(readlink "/sys/bus/pci/devices/$VF1/driver")")" = vfio-pci ] ||
	lab_fail "$VF1 is not bound to vfio-pci"

lab_snapshot snap-on
assert_json "$SNAP" '.sriov[0].numvfs' "$(cat "$P/sriov_numvfs")" "enabled VFs, as sriov_numvfs"
for i in 0 1; do
	vf=$(basename "$(readlink "$P/virtfn$i")")
	assert_json "$SNAP" ".sriov[0].vfs[] | select(.index == $i) | .bdf" "$vf" "VF $i, as virtfn$i"
	assert_json "$SNAP" ".sriov[0].vfs[] | select(.index == $i) | .driver" \
		"$(basename "$(readlink "/sys/bus/pci/devices/$vf/driver")")" "VF $i's driver"
done
diag_check check-on
assert_json "$CHK" '[.[] | select(.check == "sriov.vfs")][0].verdict' WARN "sriov.vfs with a VF on no NIC driver"
assert_json "$CHK" '[.[] | select(.check == "sriov.vfs")][0].summary' \
	"$PF: VF 0 ($VF0) has no RDMA device (driver pci-pf-stub): a job given this VF cannot use RDMA" \
	"the VF without an RDMA device is named, the one passed to vfio-pci is not"
assert_json "$CHK" '[.[] | select(.check == "sriov.vfs")][0].evidence[] | select(.what == "VF settings") | .value' \
	"not read: the PF has no netdev" "VF settings: the PF has no netdev to ask"
echo 0 > "$P/sriov_numvfs" || true
lab_pass
