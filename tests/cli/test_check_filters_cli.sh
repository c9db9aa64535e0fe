#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag check` filters that name nothing here (--device, --port) say
# so in one line with exit status 3, never an empty or host-only list that
# reads as a PASS; an --only with no target here says "nothing to judge"
# and counts as an UNKNOWN; filters that match keep exactly their targets.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
roce="$fix/cx6dx-roce-port-down"
ib="$fix/cx5-ib-init-no-sm"

# expect NAME RC PATTERN ARGS...: exit status RC, stderr matching PATTERN
# (one line), nothing on stdout.
expect() {
	local name=$1 want=$2 pat=$3 out err rc
	shift 3
	out=$("$bin" check --window 0 "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	if [ "$rc" -eq "$want" ] && [ -z "$out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qE -- "$pat" <<<"$err"; then
		ok "$name"
	else
		bad "$name: rc=$rc stderr=$(head -c 200 <<<"$err") stdout=$(head -c 200 <<<"$out")"
	fi
}

expect "--device naming no device" 3 '^rdmadiag: check: no RDMA device mlx5_9$' \
	--root "$roce" --device mlx5_9
expect "--device naming no device, --nhc" 3 'no RDMA device mlx5_9' \
	--root "$roce" --device mlx5_9 --nhc
expect "--device naming no device, --strict --json" 3 'no RDMA device mlx5_9' \
	--root "$roce" --device mlx5_9 --json --strict
expect "--port beyond every device's ports" 3 'no RDMA device has a port 2$' \
	--root "$roce" --port 2
expect "--port beyond the device's ports" 3 'check: mlx5_0 has no port 2$' \
	--root "$roce" --device mlx5_0 --port 2
expect "--port 0" 3 '--port "0" is not a number in 1\.\.255' \
	--root "$roce" --port 0
expect "--port 256" 3 '--port "256" is not a number in 1\.\.255' \
	--root "$roce" --port 256
expect "--only naming no check" 3 'unknown area "nothing"' \
	--root "$roce" --only nothing

# nothing NAME RC PATTERN ARGS...: an --only with no target here: exit
# status RC, stdout one line matching PATTERN (no result list), stderr empty.
nothing() {
	local name=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$bin" check --window 0 "$@" 2>"$tmp/err")
	rc=$?
	if [ "$rc" -eq "$want" ] && [ ! -s "$tmp/err" ] &&
		[ "$(wc -l <<<"$out")" -eq 1 ] && grep -qE -- "$pat" <<<"$out"; then
		ok "$name"
	else
		bad "$name: rc=$rc stdout=$(head -c 200 <<<"$out") stderr=$(head -c 200 "$tmp/err")"
	fi
}
# Said, and an UNKNOWN: no host of a mixed fleet is taken out of service
# for a check that does not apply to it, and --strict still refuses it.
judge='^nothing to judge: the checks of port\.ib_mtu apply to no device or port here$'
nothing "--only whose targets are all elsewhere" 0 "$judge" \
	--root "$roce" --only port.ib_mtu
nothing "--only with nothing to judge, --strict" 1 "$judge" \
	--root "$roce" --only port.ib_mtu --strict
nothing "--only with the targets filtered away" 0 '^nothing to judge: the checks of qos\.pfc' \
	--root "$ib" --only qos.pfc
nothing "--only with nothing to judge, --nhc" 0 '^OK: nothing to judge: the checks of port\.ib_mtu' \
	--root "$roce" --only port.ib_mtu --nhc
nothing "--only with nothing to judge, --nhc --strict" 1 '^ERROR: nothing to judge' \
	--root "$roce" --only port.ib_mtu --nhc --strict
out=$("$bin" check --json --window 0 --root "$roce" --only port.ib_mtu 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && jq -e 'type == "array" and length == 0' <<<"$out" >/dev/null; then
	ok "--only with nothing to judge, --json: an empty array"
else
	bad "--only nothing to judge --json: rc=$rc $(head -c 200 <<<"$out")"
fi

# A device name from the command line is escaped in the message.
"$bin" check --window 0 --root "$roce" --device $'mlx5\e[2J' 2>"$tmp/err" >/dev/null
rc=$?
if [ $rc -eq 3 ] && ! grep -q $'\e' "$tmp/err" && grep -q 'no RDMA device mlx5' "$tmp/err"; then
	ok "--device: the name is escaped"
else
	bad "--device escape: rc=$rc $(od -c "$tmp/err" | head -3)"
fi

# A snapshot without any device: --device says so.
jq_snap '.devices = [] | .netdevs = []' <"$roce/snapshot.golden.json" >"$tmp/none.json"
expect "--device on a host without devices" 3 'no RDMA device mlx5_0 \(the host has none\)$' \
	--load "$tmp/none.json" --device mlx5_0
# ... while --port alone leaves port.state to say there is none.
out=$("$bin" check --json --window 0 --load "$tmp/none.json" --port 1 2>&1)
rc=$?
if [ $rc -eq 2 ] && jq -e 'any(.[]; .check == "port.state" and .verdict == "FAIL")' \
	<<<"$out" >/dev/null; then
	ok "--port on a host without devices: port.state FAIL"
else
	bad "--port without devices: rc=$rc $(head -c 300 <<<"$out")"
fi

# Filters that match keep their targets and only them.
out=$("$bin" check --json --window 0 --root "$roce" --device mlx5_1 --port 1 2>&1)
rc=$?
if [ $rc -eq 2 ] && jq -e 'length > 0 and
	all(.[]; (.device == null or .device == "mlx5_1") and
		 (.port == null or .port == 1)) and
	any(.[]; .check == "port.state" and .device == "mlx5_1")' \
	<<<"$out" >/dev/null; then
	ok "--device mlx5_1 --port 1: its results and host-wide ones"
else
	bad "--device mlx5_1 --port 1: rc=$rc $(head -c 300 <<<"$out")"
fi
out=$("$bin" check --json --window 0 --root "$ib" --only port.ib_mtu 2>&1)
rc=$?
if [ $rc -ne 3 ] && jq -e 'length > 0 and all(.[]; .check == "port.ib_mtu")' \
	<<<"$out" >/dev/null; then
	ok "--only port.ib_mtu on an InfiniBand host judges its ports"
else
	bad "--only port.ib_mtu on IB: rc=$rc $(head -c 300 <<<"$out")"
fi

# --only takes the names the checks take, no more: an area with its dot,
# any letter case; a name that selects nothing is refused.
for args in 'port.|.check | startswith("port.")' \
	'NETCFG|.layer == "netcfg"' 'Port.MTU|.check == "port.mtu"' \
	'qos|.check | startswith("qos.")'; do
	name=${args%%|*} filter=${args#*|}
	out=$("$bin" check --json --window 0 --root "$roce" --only "$name" 2>&1)
	rc=$?
	if [ $rc -ne 3 ] && jq -e "length > 0 and all(.[]; $filter)" <<<"$out" >/dev/null; then
		ok "--only $name: accepted, keeps its checks"
	else
		bad "--only $name: rc=$rc $(head -c 300 <<<"$out")"
	fi
done
expect "--only a part of an area" 3 'unknown area "po"' --root "$roce" --only po
expect "--only a layer with a dot" 3 'unknown area "netcfg\."' --root "$roce" --only netcfg.
if "$bin" check --help 2>&1 | grep -q 'in any letter case' &&
	grep -q 'in any letter case' "$src/data/rdmadiag.8"; then
	ok "--help and the man page say which names --only takes"
else
	bad "--help or the man page does not say which names --only takes"
fi

# fix names the device that is not there rather than "nothing to fix".
out=$("$bin" fix port.state --root "$roce" --device mlx5_9 </dev/null 2>"$tmp/err")
rc=$?
if [ $rc -eq 3 ] && [ -z "$out" ] && grep -q '^rdmadiag: fix: no RDMA device mlx5_9$' "$tmp/err"; then
	ok "fix --device naming no device"
else
	bad "fix --device mlx5_9: rc=$rc $(head -c 200 "$tmp/err") $out"
fi

# --help says what exit status 3 covers.
if "$bin" check --help 2>&1 | grep -q -- '--device or --port naming nothing here'; then
	ok "--help: exit status 3 for a filter naming nothing"
else
	bad "--help does not say a filter naming nothing exits 3"
fi
finish
