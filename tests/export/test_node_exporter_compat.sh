#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# node_exporter's infiniband collector and `rdmadiag export --compat
# node_exporter` read the same fixture trees: every node_infiniband_* series
# node_exporter prints, rdmadiag prints with the same labels and value.
. "$(dirname "$0")/lib.sh"
need prometheus-node-exporter prometheus-node-exporter
need curl curl
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"

# The bench host (2 devices x 2 ports) with the attributes node_exporter
# insists on; and a ConnectX-5 copy with edge values: counters past 2^53,
# PMA data at the largest value that still fits as bytes, a rate with a
# fraction, a counter the kernel could not read.
"$fixtures/make-synthetic.sh" --bench "$tmp/bench-host" >/dev/null
for d in "$tmp"/bench-host/sys/class/infiniband/*/; do
	echo MT_0000000001 >"$d/board_id"
	echo MT4123 >"$d/hca_type"
done
cp -a "$fixtures/cx5-ib-init-no-sm" "$tmp/edge-host"
p=$(echo "$tmp"/edge-host/sys/class/infiniband/*/ports/1)
echo 4611686018427387903 >"$p/counters/port_xmit_data"
echo 18446744073709551615 >"$p/counters/port_rcv_packets"
echo 9007199254740993 >"$p/counters/port_xmit_packets"
echo "N/A (no PMA)" >"$p/counters/symbol_error"
echo "2.5 Gb/sec (1X SDR)" >"$p/rate"
total=0
trees=$( (fixture_trees; echo "$tmp/bench-host"; echo "$tmp/edge-host") )
for root in $trees; do
	name=${root#"$fixtures"/}
	start_server "$tmp/ne.log" /metrics prometheus-node-exporter \
		--web.listen-address=127.0.0.1:@PORT@ \
		--collector.disable-defaults --collector.infiniband \
		--path.sysfs="$root/sys"
	curl -fsS -m 10 "http://127.0.0.1:$port/metrics" |
		grep '^node_infiniband_' | normalize >"$tmp/ne" || true
	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	"$bin" export --compat node_exporter --no-checks --root "$root" \
		>"$tmp/rd.prom" || fail "$name: rdmadiag export failed"
	grep '^node_infiniband_' "$tmp/rd.prom" | normalize >"$tmp/rd" || true
	missing=$(LC_ALL=C comm -23 "$tmp/ne" "$tmp/rd")
	if [ -n "$missing" ]; then
		echo "$name: node_exporter series rdmadiag does not print alike:"
		echo "$missing" | head -20
		echo "rdmadiag printed:"
		grep -F -f <(echo "$missing" | sed 's/{.*//' | sort -u) "$tmp/rd" | head -20
		fail "$name: node_infiniband_* series differ"
	fi
	n=$(wc -l <"$tmp/ne")
	echo "$name: $n node_exporter series, all matched by rdmadiag ($(wc -l <"$tmp/rd") printed)"
	total=$((total + n))
done
# node_exporter prints nothing for a tree without board_id or without
# counters/ (Soft-RoCE); the mlx5, ConnectX-5, bench and edge hosts have both.
[ "$total" -ge 100 ] || fail "only $total series compared: node_exporter printed too little"
echo "PASS: $total node_infiniband_* series compared"
