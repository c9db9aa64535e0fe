#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Peer screen: the console reads a fixture host, a 'peer --listen'
# server on 127.0.0.1 describes a saved snapshot whose MTUs differ; the
# prompt takes HOST:PORT, the exchange runs in a child while the keys stay
# live, and the page shows the GID pair, the netdev MTU mismatch with both
# values and the peer's host name as it sent it. Then a port where nothing
# listens gives one error line, a bad target is refused, and the demo
# refuses to compare.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

fix=$RDMADIAG_SRCDIR/tests/fixtures/rxe0-healthy
port=$((21000 + $$ % 20000))
"$RDMADIAG_BIN" snapshot --json --root "$fix" > "$TUI_TMP/0.json" ||
	{ echo "cannot take the fixture snapshot"; exit 1; }
jq '.netdevs[0].mtu = 9000 | .devices[0].ports[0].verbs.active_mtu = 4096
	| .host.hostname = "b\\u001b[2Jhost"' "$TUI_TMP/0.json" > "$TUI_TMP/b.json"
"$RDMADIAG_BIN" peer --listen --bind 127.0.0.1 -p "$port" \
	--load "$TUI_TMP/b.json" > "$TUI_TMP/server.out" 2>&1 &
server=$!
i=0
while [ ! -s "$TUI_TMP/server.out" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

tui_start peer 100 30 --root "$fix"
wait_for peer "rxe0" 10
keys peer F9
wait_for peer "peer HOST[:PORT]:" 5
keys peer -l "127.0.0.1:$port"
keys peer Enter
wait_for peer "1 mismatch" 10
wait_for peer "GID: IPv4 RoCE v2: -x 1 here (192.0.2.1), -x 1 on the peer" 1
wait_for peer "netdev MTU:" 1
wait_for peer "here 1500 bytes, peer 9000 bytes" 1
# The fixture has no verbs device to read: its active MTU is unknown, so
# it is listed as not compared rather than called a mismatch.
wait_for peer "not compared (unknown on one host):" 1
wait_for peer 'b\u001b[2Jhost' 1
grep -q "^answered 127.0.0.1" "$TUI_TMP/server.out" &&
	ok "the server answered the console's child" ||
	not_ok "server: $(cat "$TUI_TMP/server.out")"

# m asks again with the reachability matrix: a server describing a saved
# snapshot refuses it, and the page says why rather than drawing rows.
keys peer m
wait_for peer "reachability: not tested:" 10
wait_for peer "1 mismatch" 1

# Nothing listens on the next port: one line saying so.
keys peer /
wait_for peer "peer HOST[:PORT]:" 5
keys peer C-u
keys peer -l "127.0.0.1:$((port + 1))"
keys peer Enter
wait_for peer "connection refused" 10
absent peer "1 mismatch"

# A target that is not a host: refused before anything runs.
keys peer /
keys peer C-u
keys peer -l "a;b"
keys peer Enter
wait_for peer "is not HOST or HOST:PORT" 5

keys peer Escape
keys peer q
wait_exit peer 0
# The demo is no host: the screen says so at once, no prompt is opened.
tui_start demo 100 30 --demo
wait_for demo "Overview" 10
keys demo F9
wait_for demo "a recording is no host to compare" 5
absent demo "peer HOST[:PORT]:"
keys demo q
wait_exit demo 0

kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
tui_summary
