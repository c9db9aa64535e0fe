#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag env nccl|ucx|mpi` on saved snapshots: the variables chosen from
# the port, its RoCE v2 IPv4 GID and its lossless priority, and --check
# naming the set variable that disagrees.
. "$(dirname "$0")/lib.sh"
demo="$src/data/demo/cx6dx-demo.jsonl"
ib="$src/tests/fixtures/cx5-ib-init-no-sm/snapshot.golden.json"

unset NCCL_IB_HCA NCCL_IB_GID_INDEX NCCL_IB_TC NCCL_SOCKET_IFNAME \
	UCX_NET_DEVICES UCX_IB_GID_INDEX UCX_IB_TRAFFIC_CLASS OMPI_MCA_pml \
	OMPI_MCA_btl_tcp_if_include

# The demo host: mlx5_0 port 1 ACTIVE, RoCE v2 IPv4 GID 3, PFC off.
out=$("$bin" env nccl --load "$demo" 2>&1)
rc=$?
vars=$(grep -v '^#' <<<"$out")
if [ $rc -eq 0 ] && [ "$vars" = $'NCCL_IB_HCA==mlx5_0:1\nNCCL_IB_GID_INDEX=3\nNCCL_SOCKET_IFNAME=ens1f0np0' ] &&
	grep -q '^# note: no traffic class set: no priority has PFC on' <<<"$out" &&
	grep -q '^# GID 3 is RoCE v2 with the IPv4 address of ens1f0np0' <<<"$out"; then
	ok "nccl: HCA, GID index and socket netdev, each with its reason"
else
	bad "nccl: rc=$rc $out"
fi
# What it prints is a shell's to source.
( set -e; eval "$(grep -v '^#' <<<"$out")"; [ "$NCCL_IB_HCA" = "=mlx5_0:1" ] ) &&
	ok "nccl: the lines source in a shell" || bad "nccl: does not source"

# PFC on priority 3 with DSCP 26 mapped there: traffic class 104.
jq_snap -c '.netdevs[0].dcb.pfc_en = "0x8"' "$demo" >"$tmp/pfc.jsonl"
out=$("$bin" env ucx --load "$tmp/pfc.jsonl" 2>&1)
vars=$(grep -v '^#' <<<"$out")
[ "$vars" = $'UCX_NET_DEVICES=mlx5_0:1\nUCX_IB_GID_INDEX=3\nUCX_IB_TRAFFIC_CLASS=104' ] &&
	grep -q 'DSCP 26 maps to priority 3, the one with PFC on' <<<"$out" &&
	ok "ucx: traffic class from the lossless priority's DSCP" || bad "ucx: $out"
out=$("$bin" env mpi --load "$tmp/pfc.jsonl" 2>&1)
grep -q '^OMPI_MCA_pml=ucx$' <<<"$out" && grep -q '^OMPI_MCA_btl_tcp_if_include=ens1f0np0$' <<<"$out" &&
	grep -q '^UCX_IB_GID_INDEX=3$' <<<"$out" && ok "mpi: Open MPI over UCX" || bad "mpi: $out"

# --check: right values pass, a wrong one is named, exit 1.
out=$(NCCL_IB_HCA=mlx5_0 NCCL_IB_GID_INDEX=3 "$bin" env nccl --check --load "$demo" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q '^ok     NCCL_IB_HCA=mlx5_0' <<<"$out" && grep -q '^unset  NCCL_SOCKET_IFNAME' <<<"$out" &&
	ok "check: right values agree" || bad "check right: rc=$rc $out"
out=$(NCCL_IB_GID_INDEX=0 "$bin" env nccl --check --load "$demo" 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q '^WRONG  NCCL_IB_GID_INDEX=0: this host needs 3' <<<"$out" &&
	ok "check: a wrong GID index is named" || bad "check gid: rc=$rc $out"
# NCCL_IB_HCA's list forms.
for c in "mlx5:0" "=mlx5_0:1:0" "mlx5_0:1,mlx5_1:1:0" "=mlx5_1:1" "^mlx5_0:1" "^mlx5_1:0" "mlx5_0:2:1" "=mlx5:1"; do
	v=${c%:*} want=${c##*:}
	NCCL_IB_HCA=$v "$bin" env nccl --check --load "$demo" >/dev/null 2>&1
	rc=$?
	[ $rc -eq "$want" ] && ok "NCCL_IB_HCA=$v: exit $want" || bad "NCCL_IB_HCA=$v: exit $rc, expected $want"
done
for c in "all:0" "mlx5_0:1:0" "mlx5_0:1" "mlx5_1:1,mlx5_0:1:0"; do
	v=${c%:*} want=${c##*:}
	UCX_NET_DEVICES=$v "$bin" env ucx --check --load "$demo" >/dev/null 2>&1
	rc=$?
	[ $rc -eq "$want" ] && ok "UCX_NET_DEVICES=$v: exit $want" || bad "UCX_NET_DEVICES=$v: exit $rc, expected $want"
done

# An InfiniBand port in INIT: no GID index, and a note that it is not ACTIVE.
out=$("$bin" env nccl --load "$ib" 2>&1)
[ $? -eq 0 ] && grep -q 'not ACTIVE' <<<"$out" && ! grep -q GID_INDEX <<<"$out" &&
	grep -q '^NCCL_IB_HCA==mlx5_0:1$' <<<"$out" && ok "InfiniBand: no GID index, not ACTIVE said" || bad "ib: $out"

# A GPU host (eight GPUs, each beside one NIC under its PCIe switch): the
# NICs the GPUs use, and per GPU its NIC and whether GPUDirect RDMA is on.
gpu="$src/tests/fixtures/h200x8-vm-topology"
broken="$src/tests/fixtures/h200x8-vm-topology-broken"
unset NCCL_NET_GDR_LEVEL
out=$("$bin" env nccl --root "$gpu" 2>&1)
rc=$?
if [ $rc -eq 0 ] &&
	grep -q '^NCCL_IB_HCA==mlx5_12:1,mlx5_13:1,mlx5_14:1,mlx5_15:1,mlx5_8:1,mlx5_9:1,mlx5_10:1,mlx5_11:1$' <<<"$out" &&
	grep -q '^#   GPU0 0000:68:00.0: mlx5_12 PIX, GPUDirect RDMA on$' <<<"$out" &&
	grep -q 'GPUDirect RDMA up to PXB (NCCL.s default)' <<<"$out" &&
	! grep -q NCCL_NET_GDR_LEVEL <<<"$out"; then
	ok "nccl on a GPU host: the GPUs' NICs, PIX, GPUDirect RDMA on"
else
	bad "nccl gpu: rc=$rc $out"
fi
# The broken one: mlx5_12 DOWN, ACS redirecting on every switch port.
out=$("$bin" env nccl --root "$broken" 2>&1)
grep -q '^#   GPU0 0000:68:00.0: mlx5_13 PHB (nearest mlx5_12 PIX: no port ACTIVE), GPUDirect RDMA off: PHB is beyond PXB$' <<<"$out" &&
	grep -q '^NCCL_NET_GDR_LEVEL=LOC$' <<<"$out" && grep -q 'ACS on 0000:6a:00.0 redirects' <<<"$out" &&
	ok "nccl broken GPU host: far NIC named, GPUDirect off across ACS" || bad "nccl broken: $out"
# --check: a DOWN port and a list leaving GPUs with a SYS NIC are named.
out=$(NCCL_IB_HCA=mlx5_12,mlx5_13 "$bin" env nccl --check --root "$broken" 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q '^WRONG  NCCL_IB_HCA=mlx5_12,mlx5_13: names mlx5_12 port 1, which is DOWN' <<<"$out" &&
	grep -q '^WRONG  NCCL_IB_HCA=mlx5_12,mlx5_13: GPU4 0000:cc:00.0 would use mlx5_13 across the CPU interconnect (SYS); it leaves out mlx5_8 (PIX)' <<<"$out" &&
	ok "check: NCCL_IB_HCA naming a DOWN port and a SYS NIC" || bad "check hca gpu: rc=$rc $out"
out=$(NCCL_IB_HCA==mlx5_8,mlx5_9,mlx5_10,mlx5_11,mlx5_13,mlx5_14,mlx5_15 "$bin" env nccl --check --root "$broken" 2>&1)
grep -q '^ok     NCCL_IB_HCA=' <<<"$out" && ok "check: a list of ACTIVE, near NICs agrees" || bad "check hca ok: $out"
# A forced GDR level across ACS redirection, on the healthy and broken host.
out=$(NCCL_NET_GDR_LEVEL=PXB "$bin" env nccl --check --root "$broken" 2>&1)
[ $? -eq 1 ] && grep -q '^WRONG  NCCL_NET_GDR_LEVEL=PXB: this host needs LOC' <<<"$out" &&
	ok "check: GDR level across ACS redirection is wrong" || bad "check gdr broken: $out"
out=$(NCCL_NET_GDR_LEVEL=2 "$bin" env nccl --check --root "$gpu" 2>&1)
[ $? -eq 0 ] && grep -q '^ok     NCCL_NET_GDR_LEVEL=2 (PXB)' <<<"$out" &&
	ok "check: GDR level 2 (PXB) on clean paths" || bad "check gdr ok: $out"
out=$(NCCL_NET_GDR_LEVEL=bogus "$bin" env nccl --check --root "$gpu" 2>&1)
[ $? -eq 1 ] && grep -q 'not a level NCCL reads' <<<"$out" &&
	ok "check: a GDR level NCCL ignores" || bad "check gdr bogus: $out"

# Errors: what to print, a device that is not there, a bad port.
msg=$("$bin" env 2>&1)
[ $? -eq 3 ] && grep -q 'nccl, ucx or mpi' <<<"$msg" && ok "no kind: refused" || bad "no kind: $msg"
msg=$("$bin" env nccl --device mlx5_9 --load "$demo" 2>&1)
[ $? -eq 1 ] && grep -q 'no RDMA port on mlx5_9' <<<"$msg" && ok "--device mlx5_9: no port" || bad "mlx5_9: $msg"
msg=$("$bin" env nccl --port 0 2>&1)
[ $? -eq 3 ] && ok "--port 0: refused" || bad "--port 0: $msg"

finish
