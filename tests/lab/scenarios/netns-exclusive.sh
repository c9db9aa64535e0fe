# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# RDMA netns mode exclusive on the real kernel: a device is seen only in
# the network namespace it lives in. rxe0 stays in the initial one (Soft-
# RoCE cannot be moved: the kernel refuses without disassociate support),
# and a namespace "c1" with a veth of its own sees none. From the host,
# as root, rdmadiag reads c1 from inside; as a user without CAP_SYS_ADMIN
# it says it could not. From inside c1 it finds no RDMA device and names
# the namespace that holds rxe0, read from inside that one.

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
# The mode can change only while no other network namespace exists.
rdma system set netns exclusive ||
	lab_fail "rdma system set netns exclusive refused"
# iproute2 6.1 prints this one as text even with -j.
rdma system show > "$LAB_OUT/system.txt" 2>&1
grep -q '^netns exclusive' "$LAB_OUT/system.txt" ||
	lab_fail "rdma system show: $(cat "$LAB_OUT/system.txt")"
ip netns add c1
ip link add veth2 type veth peer name veth3
ip link set veth3 netns c1
ip -n c1 link set lo up
ip -n c1 link set veth3 up
ip link set veth2 up
ip -n c1 addr add 198.51.100.2/24 dev veth3
if rdma dev set rxe0 netns c1 2> "$LAB_OUT/move.err"; then
	lab_fail "the kernel moved rxe0 into c1; this scenario expects it not to"
fi

lab_snapshot host-snap
assert_json "$SNAP" '.host.rdma_netns_mode' exclusive "mode in the snapshot"
assert_json "$SNAP" '.host.netns_scan' read "other namespaces read as root"
assert_json "$SNAP" '[.devices[].name] | join(" ")' rxe0 "rxe0 seen from the host"
diag_check host
assert_json "$CHK" '[.[] | select(.check == "host.rdma_netns")][0].summary' \
	"netns exclusive: 1 RDMA device here, 0 in other network namespaces" \
	"host.rdma_netns from the host"

# A user without CAP_SYS_ADMIN cannot enter c1, and is told so.
RC=0
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" snapshot --json > "$LAB_OUT/user.json" 2> "$LAB_OUT/user.err" || RC=$?
assert_eq 0 "$RC" "snapshot as a user ($(tail -n 2 "$LAB_OUT/user.err"))"
assert_json "$LAB_OUT/user.json" '.host.netns_scan' \
	"reading other network namespaces needs CAP_SYS_ADMIN" "netns_scan as a user"

# Inside c1: no RDMA device, and where rxe0 is.
RC=0
ip netns exec c1 "$RDMADIAG" snapshot --json > "$LAB_OUT/c1.json" 2> "$LAB_OUT/c1.err" || RC=$?
assert_eq 0 "$RC" "snapshot inside c1 ($(tail -n 2 "$LAB_OUT/c1.err"))"
assert_json "$LAB_OUT/c1.json" '.devices | length' 0 "RDMA devices seen inside c1"
assert_json "$LAB_OUT/c1.json" \
	'[.host.netns_devices[] | select(.rdma_device == "rxe0")][0].netdev' veth0 \
	"rxe0 and its netdev, read from inside the namespace that holds it"
RC=0
ip netns exec c1 "$RDMADIAG" check --json --window 0 > "$LAB_OUT/c1-check.json" \
	2> "$LAB_OUT/c1-check.err" || RC=$?
assert_eq 2 "$RC" "check inside c1 fails"
NODEV='[.[] | select(.cause == "no_device")][0]'
assert_json "$LAB_OUT/c1-check.json" "$NODEV.summary | test(\"^no RDMA device in this network namespace: netns mode exclusive, and rxe0 is in the namespace of \")" \
	true "the no-device finding names where rxe0 is"
assert_json "$LAB_OUT/c1-check.json" "$NODEV.next_step | test(\"rdma dev set rxe0 netns NAME\")" \
	true "the next step"

ip netns del c1
