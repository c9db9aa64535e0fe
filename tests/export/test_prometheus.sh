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
words=1000000
for i in $(seq 24); do
	words=$((words + 1000))
	[ "$i" = 12 ] && words=1000
	echo "$words" >"$data"
	sleep 0.5
done

query() {	# query PROMQL -> the first result's value
	curl -fsS -m 5 --data-urlencode "query=$1" "$api/query" |
		jq -r '.data.result[0].value[1] // "none"'
}
up=$(query 'up{job="rdmadiag"}')
[ "$up" = 1 ] || fail "target not up ($up): $(curl -s "$api/targets" | head -c 500)"
st=$(query 'rdmadiag_port_state{device="mlx5_1",port="1"}')
[ "$st" = 1 ] || fail "rdmadiag_port_state of mlx5_1/1 is $st, not 1 (DOWN)"
n=$(curl -fsS -m 5 --data-urlencode 'query=count(rdmadiag_check_status)' \
	"$api/query" | jq -r '.data.result[0].value[1]')
[ "$n" -gt 10 ] || fail "only $n check series"
rate=$(query 'rate(node_infiniband_port_data_transmitted_bytes_total{device="mlx5_0",port="1"}[4s])')
awk -v r="$rate" 'BEGIN { exit !(r > 4000 && r < 16000) }' ||
	fail "rate $rate bytes/s, expected about 8000"
inc=$(query 'increase(rdmadiag_port_transmit_bytes_total{device="mlx5_0",port="1"}[15s])')
awk -v r="$inc" 'BEGIN { exit !(r > 0) }' ||
	fail "increase over the reset is $inc, not positive"
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
