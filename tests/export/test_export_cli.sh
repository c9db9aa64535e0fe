#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag export's options: bad values give a clear message and exit 2,
# unusable inputs exit 1, never a crash; --listen forms and a taken port.
. "$(dirname "$0")/lib.sh"
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
root=$fixtures/cx6dx-roce-port-down

expect() {	# expect STATUS MESSAGE-PART ARGS...
	local want=$1 msg=$2 st
	shift 2
	"$bin" export "$@" >"$tmp/out" 2>"$tmp/err" && st=0 || st=$?
	[ "$st" = "$want" ] || fail "export $*: exit $st, expected $want ($(cat "$tmp/err"))"
	grep -qF -- "$msg" "$tmp/err" || fail "export $*: message lacks \"$msg\": $(cat "$tmp/err")"
}
expect 2 'knows only node_exporter' --compat nodeexporter
expect 2 'is not 0.1..86400 seconds' --textfile "$tmp" --interval 0
expect 2 'is not 0.1..86400 seconds' --textfile "$tmp" --interval 1x
expect 2 '--interval needs --textfile' --interval 5
expect 2 'is not [ADDR:]PORT' --listen 127.0.0.1:65536
expect 2 'is not [ADDR:]PORT' --listen host.example:80
expect 2 'is not [ADDR:]PORT' --listen '[::1'
expect 2 'is not [ADDR:]PORT' --listen 127.0.0.1:
expect 2 'pick one' --textfile "$tmp" --listen 9
expect 2 'unexpected argument' --root "$root" stray
expect 2 'is not a number in 1..1000000' --bench -1
expect 1 'No such file' --load "$tmp/none.json"
printf '{"schema_version": 1, "devices": [' >"$tmp/cut.json"
expect 1 'cut.json' --load "$tmp/cut.json"
expect 1 'cannot take a snapshot' --root "$tmp/no-such-root"
"$bin" export --help | grep -q -- '--textfile DIR' || fail "--help"

# A port already taken: a clear error, not a hang.
if command -v curl >/dev/null; then
	start_server "$tmp/a.log" /metrics "$bin" export --listen @PORT@ --root "$root"
	# A port alone listens on loopback, on nothing else.
	bound=$(ss -Htln "sport = :$port" | awk '{ print $4 }')
	[ "$bound" = "127.0.0.1:$port" ] ||
		fail "--listen $port is bound to: $bound"
	echo "ok: --listen PORT is bound to 127.0.0.1 only"
	expect 1 'cannot listen on' --listen "127.0.0.1:$port" --root "$root"
	if [ -f /proc/net/if_inet6 ] && grep -q '^0*1 ' /proc/net/if_inet6; then
		p6=$(free_port)
		"$bin" export --listen "[::1]:$p6" --root "$root" 2>"$tmp/v6.log" &
		v6=$!
		pids+=("$v6")
		ok=
		for _ in $(seq 50); do
			curl -fsS -m 2 -o /dev/null "http://[::1]:$p6/metrics" 2>/dev/null && { ok=1; break; }
			sleep 0.1
		done
		[ -n "$ok" ] || fail "no answer on [::1]:$p6: $(cat "$tmp/v6.log")"
		echo "ok: IPv6 [::1] listener"
	fi
fi
echo "PASS: export options and errors"
