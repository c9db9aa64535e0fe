#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag export --textfile: DIR/rdmadiag.prom replaced atomically (a
# reader never sees a half-written file), rewritten every --interval, read
# by node_exporter's textfile collector; SIGTERM ends it cleanly.
. "$(dirname "$0")/lib.sh"
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
cp -a "$fixtures/cx6dx-roce-port-down" "$tmp/host"
ctr=$tmp/host/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error
mkdir "$tmp/tf"

"$bin" export --textfile "$tmp/tf" --root "$tmp/host" || fail "one-shot failed"
[ -f "$tmp/tf/rdmadiag.prom" ] || fail "no rdmadiag.prom"
[ "$(stat -c %a "$tmp/tf/rdmadiag.prom")" = 644 ] || fail "mode not 0644"
"$bin" export --textfile "$tmp/nonexistent/dir" --root "$tmp/host" 2>"$tmp/err" &&
	fail "a missing directory was not an error"
grep -q "cannot create a file in" "$tmp/err" || fail "unclear message: $(cat "$tmp/err")"

"$bin" export --textfile "$tmp/tf" --interval 0.1 --root "$tmp/host" &
rd=$!
pids+=("$rd")
# Every read sees a whole file (it ends with the last family's sample).
last=$(tail -n 1 "$tmp/tf/rdmadiag.prom")
for i in $(seq 200); do
	[ "$(tail -n 1 "$tmp/tf/rdmadiag.prom")" = "$last" ] ||
		fail "read $i saw a partial file"
	[ $((i % 50)) = 0 ] && echo $((i * 1000)) >"$ctr"
	sleep 0.01
done
# Rewritten every 0.1 s; a loaded machine may take longer: up to 5 s.
for i in $(seq 50); do
	grep -q '^rdmadiag_port_events_total{device="mlx5_0",port="1",counter="symbol_error"} 200000$' \
		"$tmp/tf/rdmadiag.prom" && break
	sleep 0.1
done
grep -q '^rdmadiag_port_events_total{device="mlx5_0",port="1",counter="symbol_error"} 200000$' \
	"$tmp/tf/rdmadiag.prom" || fail "the file was not rewritten with the new counter"
echo "ok: 200 reads saw whole files; the counter change arrived"

if command -v prometheus-node-exporter >/dev/null && command -v curl >/dev/null; then
	start_server "$tmp/ne.log" /metrics prometheus-node-exporter \
		--web.listen-address=127.0.0.1:@PORT@ --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/tf"
	curl -fsS -m 5 "http://127.0.0.1:$port/metrics" >"$tmp/ne.prom"
	grep -q '^rdmadiag_port_state{device="mlx5_0",port="1"} 4$' "$tmp/ne.prom" ||
		fail "node_exporter's textfile collector did not read rdmadiag.prom"
	grep -q '^node_textfile_scrape_error 0$' "$tmp/ne.prom" ||
		fail "node_exporter's textfile collector reported an error"
	echo "ok: node_exporter's textfile collector reads it without error"
else
	echo "note: node_exporter or curl absent, textfile collector not tried"
fi

# The directory goes away under a running exporter, then comes back: the
# failure is told once (not every interval), the exporter keeps going, and
# the recovery is told.
mkdir "$tmp/tf2"
"$bin" export --textfile "$tmp/tf2" --interval 0.1 --root "$tmp/host" 2>"$tmp/err2" &
rd2=$!
pids+=("$rd2")
for i in $(seq 50); do [ -f "$tmp/tf2/rdmadiag.prom" ] && break; sleep 0.1; done
[ -f "$tmp/tf2/rdmadiag.prom" ] || fail "the second exporter wrote nothing"
# Moved away in one step: rm -r could race a round's new temporary file
# and fail with "Directory not empty".
mv "$tmp/tf2" "$tmp/tf2.gone"
sleep 1
kill -0 "$rd2" 2>/dev/null || fail "the exporter ended when its directory went away"
mkdir "$tmp/tf2"
for i in $(seq 50); do [ -f "$tmp/tf2/rdmadiag.prom" ] && break; sleep 0.1; done
[ -f "$tmp/tf2/rdmadiag.prom" ] || fail "no file after the directory came back"
for i in $(seq 50); do grep -q 'rdmadiag.prom written again' "$tmp/err2" && break; sleep 0.1; done
kill -TERM "$rd2"
wait "$rd2" && st=0 || st=$?
[ "$st" = 0 ] || fail "exit status $st after SIGTERM (directory gone and back)"
[ "$(grep -c 'cannot create a file in' "$tmp/err2")" = 1 ] ||
	fail "the failure was not told exactly once: $(cat "$tmp/err2")"
grep -q 'trying again every 0.1 s' "$tmp/err2" || fail "no retry note: $(cat "$tmp/err2")"
grep -q 'rdmadiag.prom written again' "$tmp/err2" || fail "recovery not told: $(cat "$tmp/err2")"
echo "ok: a directory gone for 1 s is told once, retried, and the recovery told"

kill -TERM "$rd"
wait "$rd" && st=0 || st=$?
[ "$st" = 0 ] || fail "exit status $st after SIGTERM"
left=$(find "$tmp/tf" -name '.rdmadiag.prom.*')
[ -z "$left" ] || fail "temporary files left: $left"
echo "PASS: textfile export"
