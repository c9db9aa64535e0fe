#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Smaller bounds on outside text: a node set range is bounded (a number
# that wrapped around named 100000 hosts); an ESC byte and the text
# "\x1b" in a counter name stay two Prometheus series; bidirectional and
# zero-width characters in report and peer text are escaped as C1 is.
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
command -v python3 >/dev/null || { echo "FAIL python3 is required"; exit 1; }

# A node set with a number past 999999999.
echo 'n[18446744073709551615]' >"$tmp/hosts"
echo 'n1: []' >"$tmp/gathered"
"$bin" report --hosts "$tmp/hosts" "$tmp/gathered" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] && grep -q "a node set has a number over 999999999; refused" "$tmp/err" &&
	! grep -q '100001 hosts' "$tmp/out" &&
	ok "report --hosts 'n[18446744073709551615]': refused, exit 3" ||
	bad "huge node set: exit $rc, $(head -c 200 "$tmp/out") $(cat "$tmp/err")"

# Two counters, one named with an ESC byte, one with the text "\x1b".
cp -a "$fix/rxe0-healthy" "$tmp/host"
chmod -R u+w "$tmp/host"
hc=$(readlink -f "$tmp/host/sys/class/infiniband/rxe0")/ports/1/hw_counters
echo 7 >"$hc/c"$'\x1b'
echo 8 >"$hc/c\\x1b"
"$bin" export --root "$tmp/host" >"$tmp/prom" 2>&1
n=$(grep -c '^rdmadiag_hw_events_total{.*counter="c\\' "$tmp/prom")
[ "$n" = 2 ] && grep -q 'counter="c\\\\x1b"} 7$' "$tmp/prom" && grep -q 'counter="c\\\\\\\\x1b"} 8$' "$tmp/prom" &&
	ok "export: an ESC byte and the text \\x1b are two series" ||
	bad "export: $n series: $(grep 'counter="c\\' "$tmp/prom")"

# Bidirectional controls, a line separator and a zero-width space.
bidi=$'a\u202eb\u2028c\u200bd'
printf 'h1: [{"check":"x.y","verdict":"FAIL","cause":"c","summary":"%s"}]\n' "$bidi" >"$tmp/bidi"
"$bin" report "$tmp/bidi" >"$tmp/r.txt" 2>&1
"$bin" report --json "$tmp/bidi" >"$tmp/r.json" 2>&1
if grep -q $'\u202e\|\u2028\|\u200b' "$tmp/r.txt" "$tmp/r.json"; then
	bad "report printed a bidirectional or zero-width character raw"
else
	grep -q 'a\\xe2\\x80\\xaeb\\xe2\\x80\\xa8c\\xe2\\x80\\x8bd' "$tmp/r.txt" &&
		ok "report: U+202E, U+2028, U+200B escaped" || bad "report: $(cat "$tmp/r.txt")"
fi
"$bin" snapshot --json --root "$fix/rxe0-healthy" >"$tmp/a.json"
jq_snap --arg h "h$bidi" '.host.hostname = $h' "$tmp/a.json" >"$tmp/b.json"
port=$((20000 + ($$ * 13) % 20000))
"$bin" peer --listen --once -p "$port" --load "$tmp/b.json" >"$tmp/srv.out" 2>&1 &
server=$!
for _ in $(seq 50); do [ -s "$tmp/srv.out" ] && break; sleep 0.1; done
"$bin" peer 127.0.0.1 -p "$port" --load "$tmp/a.json" --no-matrix >"$tmp/p.out" 2>&1
wait "$server"
if grep -q $'\u202e\|\u2028\|\u200b' "$tmp/p.out" "$tmp/srv.out"; then
	bad "peer printed a bidirectional or zero-width character raw"
else
	grep -q 'ha\\xe2\\x80\\xaeb' "$tmp/p.out" &&
		ok "peer: the other host's name with U+202E escaped" || bad "peer: $(cat "$tmp/p.out")"
fi
finish
