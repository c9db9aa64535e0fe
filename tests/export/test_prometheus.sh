#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus server scrapes `rdmadiag export --listen` every second
# while a fixture counter rises (and once falls back, as after a driver
# reload); its HTTP API then returns the series, a rate of the right size,
# and an increase that the reset does not make negative; the dashboard's
# queries run.
. "$(dirname "$0")/lib.sh"
need prometheus prometheus
need curl curl
need jq jq
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
cp -a "$fixtures/cx6dx-roce-port-down" "$tmp/host"
data=$tmp/host/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data

start_server "$tmp/rd.log" /metrics "$bin" export --listen 127.0.0.1:@PORT@ \
	--root "$tmp/host" --compat node_exporter
rd_port=$port
cat >"$tmp/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: rdmadiag
    static_configs:
      - targets: ['127.0.0.1:$rd_port']
EOC
promtool check config "$tmp/prometheus.yml" >/dev/null || fail "bad config"
start_server "$tmp/prom.log" /-/ready prometheus \
	--config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address=127.0.0.1:@PORT@
api=http://127.0.0.1:$port/api/v1

# 1000 words (4000 bytes) every 0.5 s: 8000 bytes/s; a reset after 6 s.
# The writer keeps going while the queries below are asked, so a scrape
# delayed by a busy machine only delays the answer, never changes it.
(
	words=1000000
	for i in $(seq 120); do
		words=$((words + 1000))
		[ "$i" = 12 ] && words=1000
		echo "$words" >"$data"
		sleep 0.5
	done
) &
pids+=($!)
sleep 12

query() {	# query PROMQL -> the first result's value
	curl -fsS -m 5 --data-urlencode "query=$1" "$api/query" |
		jq -r '.data.result[0].value[1] // "none"'
}
# poll NAME PROMQL AWK-TEST: ask again for up to 30 s until the answer
# passes the test; the last answer is left in $ans.
poll() {
	local i
	for i in $(seq 30); do
		ans=$(query "$2" || echo none)
		awk -v r="$ans" "BEGIN { exit !($3) }" && return 0
		sleep 1
	done
	return 1
}
poll up 'up{job="rdmadiag"}' 'r == 1' ||
	fail "target not up ($ans): $(curl -s "$api/targets" | head -c 500)"
st=$(query 'rdmadiag_port_state{device="mlx5_1",port="1"}')
[ "$st" = 1 ] || fail "rdmadiag_port_state of mlx5_1/1 is $st, not 1 (DOWN)"
n=$(curl -fsS -m 5 --data-urlencode 'query=count(rdmadiag_check_status)' \
	"$api/query" | jq -r '.data.result[0].value[1]')
[ "$n" -gt 10 ] || fail "only $n check series"
poll rate 'rate(node_infiniband_port_data_transmitted_bytes_total{device="mlx5_0",port="1"}[4s])' \
	'r > 4000 && r < 16000' || fail "rate $ans bytes/s, expected about 8000"
rate=$ans
poll increase 'increase(rdmadiag_port_transmit_bytes_total{device="mlx5_0",port="1"}[15s])' \
	'r > 0' || fail "increase over the reset is $ans, not positive"
inc=$ans
echo "ok: up=1, port state 1, $n check series, rate $rate B/s, increase $inc B over a reset"
# The dashboard's queries are valid PromQL, and those on series this
# fixture has return data.
dash=$srcdir/contrib/grafana/rdmadiag-dashboard.json
n=0
while IFS= read -r q; do
	q=${q//\$instance/.*}
	q=${q//\$device/.*}
	q=${q//\$__rate_interval/10s}
	r=$(curl -sS -m 5 --data-urlencode "query=$q" "$api/query")
	[ "$(jq -r .status <<<"$r")" = success ] ||
		fail "dashboard query refused: $q: $(jq -r .error <<<"$r")"
	n=$((n + 1))
done < <(jq -r '.panels[].targets[].expr' "$dash")
for q in 'rdmadiag_port_state' 'rdmadiag_check_info' 'rdmadiag_pcie_link_width_lanes'; do
	[ "$(query "$q")" != none ] || fail "no data for $q"
done
echo "ok: $n dashboard queries accepted by Prometheus"
echo "PASS: Prometheus scraped rdmadiag"
