#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of one scrape on the fixture host with 2 devices x 2 ports x 150
# counters (and on live Soft-RoCE when this host has rxe devices): CPU time
# and bytes, in-process (--bench) and through HTTP (the server's own CPU
# time over spaced scrapes). Target: under 5 ms CPU per scrape on the
# fixture host; the test fails only far above it (20 ms), since the
# machine may be shared.
#   usage: tests/export/test_bench.sh [path/to/rdmadiag]
. "$(dirname "$0")/lib.sh"
bin=${1:-$bin}
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
"$fixtures/make-synthetic.sh" --bench "$tmp/host" >/dev/null

echo "== in-process, fixture host (2 x 2 x 150 counters)"
"$bin" export --root "$tmp/host" --bench 300 | tee "$tmp/b"
cpu=$(awk '/^cpu ms/ { print $3 }' "$tmp/b")
"$bin" export --root "$tmp/host" --bench 300 --no-checks |
	awk '/^cpu ms/ { print "cpu ms/scrape      " $3 " (without checks)" }'

if command -v curl >/dev/null; then
	echo "== HTTP, fixture host: 20 scrapes 0.6 s apart"
	start_server "$tmp/rd.log" /metrics "$bin" export \
		--listen 127.0.0.1:@PORT@ --root "$tmp/host"
	ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
	t0=$(ticks)
	bytes=0
	for i in $(seq 20); do
		sleep 0.6
		b=$(curl -fsS -m 5 -o /dev/null -w '%{size_download}' \
			"http://127.0.0.1:$port/metrics") || fail "scrape $i failed"
		bytes=$b
	done
	t1=$(ticks)
	hz=$(getconf CLK_TCK)
	awk -v d=$((t1 - t0)) -v hz="$hz" -v b="$bytes" 'BEGIN {
		printf "cpu ms/scrape      %.2f (server process, %d-tick clock)\n", d * 1000 / hz / 20, hz
		printf "bytes/scrape       %d\n", b }'
fi

if ls /sys/class/infiniband/rxe* >/dev/null 2>&1; then
	echo "== in-process, live Soft-RoCE"
	"$bin" export --bench 100
else
	echo "(no live rxe device on this host: live scrape not measured)"
fi
awk -v c="$cpu" 'BEGIN { exit !(c < 20) }' ||
	fail "$cpu ms CPU per scrape: far above the 5 ms target"
awk -v c="$cpu" 'BEGIN { print (c < 5 ? "PASS: " c " ms CPU per scrape, under the 5 ms target" : "PASS (slow): " c " ms CPU per scrape, above the 5 ms target on a busy machine") }'
