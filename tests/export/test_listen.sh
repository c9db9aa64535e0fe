#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag export --listen: /metrics over HTTP, and clients that send
# garbage, never finish their request, trickle it, or hold every slot do
# not stall it.
. "$(dirname "$0")/lib.sh"
need curl curl
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
root=$fixtures/cx6dx-roce-port-down
# The server may close a garbage connection while we still write to it:
# that is an error for the write, not a signal that ends this script.
trap '' PIPE

start_server "$tmp/rd.log" /metrics "$bin" export --listen 127.0.0.1:@PORT@ \
	--root "$root"
url=http://127.0.0.1:$port
rd_pid=$server_pid

curl -fsS -m 5 -D "$tmp/head" -o "$tmp/m.prom" "$url/metrics" ||
	fail "no /metrics"
grep -qi '^content-type: text/plain; version=0.0.4' "$tmp/head" ||
	fail "content type: $(grep -i content-type "$tmp/head")"
grep -q '^rdmadiag_port_state{device="mlx5_0",port="1"} 4$' "$tmp/m.prom" ||
	fail "/metrics lacks the port state"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/m.prom" || fail "promtool refused /metrics"
fi
code() { curl -s -m 5 -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "$url/nothing")" = 404 ] || fail "unknown path not 404"
[ "$(code -X POST -d x=1 "$url/metrics")" = 405 ] || fail "POST not 405"
[ "$(code -I "$url/metrics")" = 200 ] || fail "HEAD not 200"
echo "ok: /metrics, 404, 405, HEAD"

# scrape_within SECONDS: a full scrape answers in time.
scrape_within() {
	local t0 t1
	t0=$(date +%s%N)
	curl -fsS -m "$1" -o "$tmp/s.prom" "$url/metrics" ||
		fail "scrape did not answer within $1 s ($2)"
	grep -q '^rdmadiag_check_status' "$tmp/s.prom" || fail "truncated scrape ($2)"
	t1=$(date +%s%N)
	echo "ok: scrape in $(((t1 - t0) / 1000000)) ms with $2"
}

# Garbage: binary request lines, a huge header, a bad method.
for i in 1 2 3 4 5; do
	exec {g}<>"/dev/tcp/127.0.0.1/$port"
	case $i in
	1) printf '\x00\xff\xfe garbage\r\n\r\n' >&$g 2>/dev/null || true ;;
	2) printf 'GET /metrics HTTP/1.1\r\nX: %s\r\n\r\n' "$(head -c 60000 /dev/zero | tr '\0' a)" >&$g 2>/dev/null || true ;;
	3) printf 'BREW /pot HTCPCP/1.0\r\n\r\n' >&$g 2>/dev/null || true ;;
	4) printf 'GET /metrics HTTP/9.9\r\n\r\n' >&$g 2>/dev/null || true ;;
	5) head -c 20000 /dev/urandom >&$g 2>/dev/null || true ;;
	esac
	exec {g}>&-
done
scrape_within 2 "5 garbage requests sent"

# Never-finishing requests: headers cut short, a body that never comes.
hang=()
for i in $(seq 10); do
	exec {h}<>"/dev/tcp/127.0.0.1/$port"
	if [ $((i % 2)) = 0 ]; then
		printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&$h ||
			fail "could not open an unfinished request"
	else
		printf 'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc' >&$h ||
			fail "could not open an unfinished request"
	fi
	hang+=("$h")
done
scrape_within 2 "10 requests left unfinished"
kill -0 "$rd_pid" || fail "exporter died"

# The server closes a request that never finishes (timeout 10 s).
t0=$(date +%s)
timeout 20 cat <&"${hang[0]}" >/dev/null || fail "an unfinished request was kept open past 20 s"
echo "ok: an unfinished request closed by the server after $(($(date +%s) - t0)) s"
for h in "${hang[@]}"; do exec {h}>&-; done

# A request that trickles a header line every 2 s is never idle long
# enough for the 10 s timeout: it is cut 10 s after it began, as every
# connection is, whatever it completed.
exec {t}<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&$t
t0=$(date +%s)
(for i in $(seq 20); do
	sleep 2
	printf 'X-%s: y\r\n' "$i" >&$t 2>/dev/null || exit 0
done) &
trickler=$!
pids+=("$trickler")
timeout 25 cat <&$t >/dev/null ||
	fail "a request trickling a header every 2 s was kept open past 25 s"
echo "ok: a trickling request closed by the server after $(($(date +%s) - t0)) s"
kill "$trickler" 2>/dev/null || true
exec {t}>&-

# One address holding more connections than allowed gets half the slots:
# a scraper from another address is still answered while they are held,
# and a scrape from the same address as soon as they go.
hold=()
for i in $(seq 40); do
	exec {h}<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null && hold+=("$h")
done
kill -0 "$rd_pid" || fail "exporter died under 40 idle connections"
t0=$(date +%s%N)
st=0
curl -fsS -m 2 --interface 127.0.0.2 -o "$tmp/o.prom" "$url/metrics" 2>"$tmp/o.err" || st=$?
if [ "$st" = 45 ]; then
	echo "note: cannot send from 127.0.0.2 here: $(cat "$tmp/o.err")"
elif [ "$st" != 0 ] || ! grep -q '^rdmadiag_check_status' "$tmp/o.prom"; then
	fail "another address was locked out by 40 connections from 127.0.0.1: $(cat "$tmp/o.err")"
else
	echo "ok: scrape from 127.0.0.2 in $((($(date +%s%N) - t0) / 1000000)) ms while 127.0.0.1 holds 40 connections"
fi
for h in "${hold[@]}"; do exec {h}>&-; done
sleep 0.3
scrape_within 2 "40 idle connections just closed"

kill -TERM "$rd_pid"
wait "$rd_pid" && st=0 || st=$?
[ "$st" = 0 ] || fail "exit status $st after SIGTERM"
echo "PASS: HTTP exporter stays responsive"
