#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag peer over loopback TCP, each side describing a saved snapshot:
# the mismatches and exit statuses, and a clear one-line error for every
# kind of wrong peer (nothing listening, perftest, silent, garbage, too
# large, a server with no port).
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
command -v python3 >/dev/null || { echo "FAIL python3 is required"; exit 1; }

port=$((20000 + $$ % 20000))
"$bin" snapshot --json --root "$fix/rxe0-healthy" >"$tmp/0.json" ||
	{ echo "FAIL cannot take the fixture snapshot"; exit 1; }
jq_snap '.devices[0].ports[0].verbs.active_mtu = 1024' "$tmp/0.json" >"$tmp/a.json"
jq_snap '.netdevs[0].mtu = 9000 | .devices[0].ports[0].verbs.active_mtu = 4096
	| .host.hostname = "b\\u001b[2Jhost"' "$tmp/a.json" >"$tmp/b.json"

# serve FILE [ARGS...]: one answer from a peer --listen in the background.
serve() {
	local file=$1
	shift
	port=$((port + 1))
	"$bin" peer --listen --once -p "$port" --load "$file" "$@" \
		>"$tmp/server.out" 2>"$tmp/server.err" &
	server=$!
	ready "$tmp/server.out"
}

# ready FILE: wait (up to 10 s) until a server has said it listens.
ready() {
	for _ in $(seq 100); do
		[ -s "$1" ] && return
		sleep 0.1
	done
}

# fake CODE: a TCP server on the next port that runs python CODE with the
# accepted socket c (after reading the client's 16-byte greeting);
# frame(BYTES[, LENGTH]) greets and answers with one frame.
fake() {
	port=$((port + 1))
	python3 -c '
import socket, struct, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", '"$port"')); s.listen(1); s.settimeout(10)
open("'"$tmp/fake.ready"'", "w").write("listening")
c, _ = s.accept(); c.recv(16)
def recv_all(n):
    got = b""
    while len(got) < n:
        more = c.recv(n - len(got))
        if not more:
            break
        got += more
    return got
def frame(b, n=None):
    # The client'"'"'s whole frame is read first: a socket closed with
    # unread data is reset, which would race the answer below.
    c.sendall(b"rdmadiag-peer/1" + bytes(1))
    head = recv_all(4)
    if len(head) == 4:
        recv_all(struct.unpack(">I", head)[0])
    c.sendall(struct.pack(">I", len(b) if n is None else n) + b)
'"$1"'
time.sleep(0.2)
' &
	server=$!
	ready "$tmp/fake.ready"
	rm -f "$tmp/fake.ready"
}

# client NAME WANT_RC WANT_TEXT [ARGS...]: peer 127.0.0.1 on the current port.
client() {
	local name=$1 want=$2 text=$3 rc
	shift 3
	"$bin" peer 127.0.0.1 -p "$port" --timeout 1 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	wait "$server" 2>/dev/null
	if [ "$rc" -ne "$want" ]; then
		bad "$name: exit $rc, not $want: $(head -c 300 "$tmp/err" "$tmp/out")"
	elif ! grep -qF -- "$text" "$tmp/out" "$tmp/err"; then
		bad "$name: no \"$text\" in: $(head -c 300 "$tmp/err" "$tmp/out")"
	elif [ "$want" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		bad "$name: the error is not one line: $(cat "$tmp/err")"
	elif grep -q $'\x1b' "$tmp/out" "$tmp/err" "$tmp/server.out" 2>/dev/null; then
		bad "$name: an escape byte from the peer reached the terminal"
	else
		ok "$name"
	fi
}

# wrong NAME TEXT CODE: a scripted wrong peer (fake CODE); peer exits 2
# with one line holding TEXT.
wrong() {
	fake "$3"
	client "$1" 2 "$2" --load "$tmp/a.json"
}

: >"$tmp/server.out"
serve "$tmp/a.json"
client "same port: exit 0, GID index for both" 0 \
	"both hosts:    -x 1   NCCL_IB_GID_INDEX=1   UCX_IB_GID_INDEX=1" \
	--load "$tmp/a.json"
grep -q "answered 127.0.0.1:.*0 mismatches" "$tmp/server.out" &&
	ok "the server says whom it answered" ||
	bad "server output: $(cat "$tmp/server.out" "$tmp/server.err")"

serve "$tmp/b.json"
client "MTU 9000 against 1500: both named" 1 "netdev MTU" --load "$tmp/a.json"
grep -q "^active MTU  *1024 bytes  *4096 bytes" "$tmp/out" &&
	grep -q "2 mismatches" "$tmp/out" && grep -qF 'b\u001b[2Jhost' "$tmp/out" &&
	ok "mismatches side by side, the peer's name escaped" ||
	bad "mismatch table: $(cat "$tmp/out")"

serve "$tmp/b.json"
client "--json" 1 '"mismatches"' --load "$tmp/a.json" --json
[ "$(jq '.mismatches | length' "$tmp/out")" = 2 ] &&
	[ "$(jq -r '.peer.gid_index' "$tmp/out")" = 1 ] &&
	ok "--json lists both mismatches and the peer's GID index" ||
	bad "--json: $(cat "$tmp/out")"

serve "$tmp/a.json" --ib-dev nosuch
client "a server without that device says so" 2 \
	"the peer says: no RDMA device nosuch" --load "$tmp/a.json"

port=$((port + 1))
server=
client "nothing listening" 2 "connection refused" --load "$tmp/a.json"

wrong "a perftest server" "speaks perftest (version 6.06)" \
	'c.sendall(b"6.06" + bytes(12))'

wrong "a silent server" "no greeting within 1000 ms" \
	'time.sleep(3)'

wrong "another program" 'is not rdmadiag peer' \
	'c.sendall(b"\x1b[31mhello\x00\x00\x00\x00\x00\x00\x00\x00")'

wrong "a garbage summary" "not JSON" \
	'frame(b"{\"x\":\x1b}")'

wrong "an oversized summary" "more than a frame holds" \
	'frame(b"", 1 << 30)'

wrong "a truncated summary" "closed the connection in the middle" \
	'frame(b"{\"rdma", 100)'

wrong "a newer rdmadiag" "summary version 2" \
	'frame(b"{\"rdmadiag_peer\":2,\"summary\":{},\"more\":[1]}")'

wrong "a control byte in a summary" "control characters" \
	'frame(b"{\"rdmadiag_peer\":1,\"summary\":{\"schema_version\":1,\"host\":{\"hostname\":\"\\u001b[2J\"}}}")'

# A perftest client at a peer server: refused in one line, server exits 2.
serve "$tmp/a.json"
python3 -c "
import socket, time
c = socket.create_connection(('127.0.0.1', $port)); c.sendall(b'6.06' + bytes(12)); time.sleep(0.5)"
wait "$server"
rc=$?
[ "$rc" -eq 2 ] && grep -q "speaks perftest (version 6.06)" "$tmp/server.err" &&
	ok "a perftest client at the server: named, exit 2" ||
	bad "perftest client: exit $rc: $(cat "$tmp/server.err")"

# A client that greets, then sends a summary with a control byte: the
# server refuses it in one escaped line and tells the client why.
serve "$tmp/a.json"
python3 -c '
import socket, struct, time
c = socket.create_connection(("127.0.0.1", '"$port"'))
c.sendall(b"rdmadiag-peer/1" + bytes(1)); c.recv(16)
b = b"{\"rdmadiag_peer\":1,\"program\":\"x\x1b[2J\",\"summary\":5}"
c.sendall(struct.pack(">I", len(b)) + b)
n = struct.unpack(">I", c.recv(4))[0]; print(c.recv(n).decode())' >"$tmp/client.out" 2>&1
wait "$server"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/server.err")" -eq 1 ] &&
	grep -q "refused\|damaged\|control" "$tmp/server.err" &&
	! grep -q $'\x1b' "$tmp/server.err" "$tmp/server.out" &&
	grep -q '"error"' "$tmp/client.out" &&
	ok "a hostile client: one escaped line on the server, the reason sent back" ||
	bad "hostile client: exit $rc: $(cat "$tmp/server.err" "$tmp/client.out")"

"$bin" peer >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "say which HOST" "$tmp/err" && ok "no HOST: usage error" ||
	bad "no HOST: $(cat "$tmp/err")"
"$bin" peer --summary --load "$tmp/a.json" | jq -e '.rdmadiag_peer == 1' >/dev/null &&
	ok "--summary prints what would be sent" || bad "--summary"
finish
