# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The file and library probes on a real kernel with rxe0 on veth0:
# libibverbs attributes against ibv_devinfo, the module set against
# /sys/module and modinfo, host facts against the kernel's own files, ECN
# (absent on veth) and rdma_cm's configfs defaults.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
# configfs shows rdma_cm defaults once a directory is made for the device.
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mkdir -p /sys/kernel/config/rdma_cm/rxe0
lab_oracles stack
lab_snapshot stack

assert_json "$SNAP" '[.errors[] | select(.source == "pci" or .source == "kmod" or .source == "host" or .source == "ecn" or .source == "verbs")] | length' \
	0 "no errors from the file and library probes"

# verbs against ibv_devinfo -v.
v=devices.rxe0.verbs
assert_snap $v.opened true "libibverbs opened rxe0"
assert_snap $v.open_error null
for k in max_qp max_qp_wr max_sge max_cq max_cqe max_mr max_pd phys_port_cnt vendor_part_id; do
	[ -n "${ORA[ibv_devinfo:$k]+set}" ] || lab_fail "ibv_devinfo -v shows no $k"
	assert_eq "$(printf '%u' "${ORA[ibv_devinfo:$k]}")" "${S[$v.$k]-<absent>}" "verbs $k (ibv_devinfo)"
done
# jq reads numbers as doubles: take a full 64-bit value from the text.
got=$(grep -o '"max_mr_size":[0-9]*' "$SNAP" | head -n 1)
assert_eq "$(printf '%u' "${ORA[ibv_devinfo:max_mr_size]}")" "${got#*:}" "verbs max_mr_size"
assert_eq "$(printf '%u' "${ORA[ibv_devinfo:vendor_id]}")" "$(printf '%u' "${S[$v.vendor_id]}")" "verbs vendor_id"
p=devices.rxe0.ports.1.verbs
assert_same $p.active_mtu ibv_devinfo:active_mtu "port active_mtu in bytes"
assert_same $p.max_mtu ibv_devinfo:max_mtu "port max_mtu in bytes"
assert_eq "$(printf '%u' "${ORA[ibv_devinfo:max_msg_sz]}")" "${S[$p.max_msg_sz]-<absent>}" "port max_msg_sz"
assert_same $p.gid_tbl_len ibv_devinfo:gid_tbl_len
assert_same $p.pkey_tbl_len ibv_devinfo:pkey_tbl_len

# kmod: loaded as /sys/module says, available as modinfo finds it.
for m in ib_core ib_uverbs rdma_ucm rdma_rxe siw irdma mlx5_ib mlx_compat; do
	if [ -e "/sys/module/$m" ]; then want=true; else want=false; fi
	assert_snap modules.$m.loaded $want "module $m loaded"
	if modinfo -n "$m" > /dev/null 2>&1; then want=true; else want=false; fi
	assert_snap modules.$m.available $want "module $m available (modinfo)"
done
assert_snap modules.rdma_rxe.initstate live
assert_snap modules.ib_core.refcnt "$(cat /sys/module/ib_core/refcnt)" "ib_core refcnt"
assert_snap host.mlnx_ofed false "inbox driver stack"

# host facts.
assert_snap host.kernel "$(uname -r)"
assert_snap host.hostname "$(cat /proc/sys/kernel/hostname)"
assert_snap host.is_root true
assert_snap host.memlock_unlimited true "memlock (guest sets ulimit -l unlimited)"
assert_snap host.cap_ipc_lock true
assert_snap host.cap_net_admin true
assert_snap host.tcp_ecn "$(cat /proc/sys/net/ipv4/tcp_ecn)"
assert_snap host.rmem_max "$(cat /proc/sys/net/core/rmem_max)"
assert_snap host.nr_hugepages "$(cat /proc/sys/vm/nr_hugepages)"
assert_snap host.hugepages_total "$(awk '/^HugePages_Total:/ {print $2}' /proc/meminfo)"
assert_snap host.mem_total_kb "$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
if [ -d /sys/devices/system/node ]; then
	assert_snap host.numa_nodes "$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)"
fi
assert_snap host.cpu_affinity "$(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)"
assert_snap host.mempolicy default
want=$(dpkg-query -W -f '${Version}' libibverbs1 2>/dev/null || true)
[ -z "$want" ] || assert_snap host.rdma_core_version "${want%%-*}" "rdma-core (dpkg)"
if [ -e /dev/infiniband/uverbs0 ]; then
	assert_json "$SNAP" '.host.devnodes[] | select(.path | endswith("/uverbs0")) | .exists' true "uverbs0 node"
fi

# ECN: veth has no OFED ecn directory.
assert_snap netdevs.veth0.ecn.present false "no ECN files on veth"
# rdma_cm configfs defaults for the directory made above.
assert_json "$SNAP" '.host.rdma_cm[] | select(.device == "rxe0" and .port == 1) | .default_roce_mode' \
	"$(cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_mode)" "default_roce_mode (configfs)"
assert_json "$SNAP" '.host.rdma_cm[] | select(.device == "rxe0" and .port == 1) | .default_roce_tos' \
	"$(cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos)" "default_roce_tos (configfs)"
rmdir /sys/kernel/config/rdma_cm/rxe0
