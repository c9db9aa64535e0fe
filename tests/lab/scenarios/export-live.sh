# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdmadiag export on live Soft-RoCE, a lab scenario (alone, from the build
# directory: make check-lab LAB_SCENARIOS=export-live):
# after traffic, the exported hw_counters equal what `rdma statistic`
# says, promtool accepts the output, /metrics answers over HTTP, and the
# cost of one scrape is logged. node_exporter's infiniband collector
# prints nothing here (rxe has no counters/ directory), which is logged.
# A fixture host is measured in the same guest too.

lab_require_rdmadiag
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_perftest write_bw ib_write_bw -s 4096 -n 200

"$RDMADIAG" export --compat node_exporter > "$LAB_OUT/live.prom" 2> "$LAB_OUT/live.err" ||
	lab_fail "export failed: $(cat "$LAB_OUT/live.err")"
rdma -j statistic show link rxe0/1 > "$LAB_OUT/rdma-stat.json" ||
	lab_fail "rdma statistic failed"
for c in sent_pkts rcvd_pkts; do
	want=$(jq -r ".[0].$c" "$LAB_OUT/rdma-stat.json")
	got=$(awk -v k="rdmadiag_hw_events_total{device=\"rxe0\",port=\"1\",counter=\"$c\"}" \
		'$1 == k { print $2 }' "$LAB_OUT/live.prom")
	[ -n "$got" ] && [ "$got" = "$want" ] ||
		lab_fail "$c: export says '$got', rdma statistic $want"
	lab_log "ok: $c $got, as rdma statistic says"
done
[ "$want" -ge 200 ] || lab_fail "rcvd_pkts $want after 200 writes"
grep -q '^rdmadiag_port_state{device="rxe0",port="1"} 4$' "$LAB_OUT/live.prom" ||
	lab_fail "rxe0/1 not exported as ACTIVE"
grep -q '^node_infiniband_state_id{device="rxe0",port="1"} 4$' "$LAB_OUT/live.prom" ||
	lab_fail "compat state of rxe0/1 missing"
promtool check metrics < "$LAB_OUT/live.prom" > "$LAB_OUT/promtool.txt" 2>&1 ||
	lab_fail "promtool: $(head -n 5 "$LAB_OUT/promtool.txt")"
lab_log "ok: promtool accepts the live export ($(wc -c < "$LAB_OUT/live.prom") bytes)"

"$RDMADIAG" export --listen 127.0.0.1:9879 2> "$LAB_OUT/listen.err" &
srv=$!
lab_wait 20 "/metrics on 127.0.0.1:9879" \
	curl -fsS -m 5 -o "$LAB_OUT/http.prom" http://127.0.0.1:9879/metrics
kill "$srv"
wait "$srv" || lab_fail "export --listen exited $? on SIGTERM"
grep -q '^rdmadiag_check_status' "$LAB_OUT/http.prom" || lab_fail "HTTP scrape incomplete"
lab_log "ok: /metrics over HTTP"

if command -v prometheus-node-exporter > /dev/null; then
	prometheus-node-exporter --web.listen-address=127.0.0.1:9100 \
		--collector.disable-defaults --collector.infiniband > "$LAB_OUT/ne.log" 2>&1 &
	ne=$!
	lab_wait 30 "node_exporter" \
		curl -fsS -m 5 -o "$LAB_OUT/ne.prom" http://127.0.0.1:9100/metrics
	kill "$ne"
	wait "$ne" || true
	lab_log "node_exporter on rxe: $(grep -c '^node_infiniband_' "$LAB_OUT/ne.prom" || true) node_infiniband_* series, $(grep '^node_scrape_collector_success' "$LAB_OUT/ne.prom")"
fi

"$RDMADIAG" export --bench 20 > "$LAB_OUT/bench.txt" 2>&1 ||
	lab_fail "export --bench failed: $(tail -n 3 "$LAB_OUT/bench.txt")"
while read -r line; do lab_log "live rxe: $line"; done < "$LAB_OUT/bench.txt"
# A fixture host in the same guest: the emulated CPU's factor, to read
# the live figure against test_bench.sh's figures on the real CPU.
fx=$LAB_SRCDIR/../fixtures/cx6dx-roce-port-down
"$RDMADIAG" export --root "$fx" --bench 20 > "$LAB_OUT/bench-fixture.txt" 2>&1 ||
	lab_fail "export --bench on $fx failed: $(tail -n 3 "$LAB_OUT/bench-fixture.txt")"
while read -r line; do lab_log "fixture cx6dx-roce-port-down, same guest: $line"; done < "$LAB_OUT/bench-fixture.txt"
lab_pass
