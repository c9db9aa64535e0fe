#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag peer --listen as a server of many clients, over loopback: it
# listens where bw and lat do (127.0.0.1 only for a saved snapshot, never
# every address by default) and says so, keeps listening while it serves
# a client, so one that greets and goes silent does not refuse the others,
# cuts a client after 10 s whatever it trickles, and serves at most two at
# once from one address.
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
command -v python3 >/dev/null || { echo "FAIL python3 is required"; exit 1; }
command -v ss >/dev/null || { echo "SKIP ss (iproute2) is not installed"; exit 77; }

port=$((20000 + ($$ * 7) % 20000))
"$bin" snapshot --json --root "$fix/rxe0-healthy" >"$tmp/a.json" ||
	{ echo "FAIL cannot take the fixture snapshot"; exit 1; }
# --timeout 30: each message may take 30 s; the 10 s deadline is the
# client's whole exchange.
"$bin" peer --listen -p "$port" --timeout 30 --load "$tmp/a.json" >"$tmp/server.out" 2>"$tmp/server.err" &
server=$!
for _ in $(seq 100); do [ -s "$tmp/server.out" ] && break; sleep 0.1; done

listeners=$(ss -Htln "sport = :$port" | awk '{print $4}' | sort | tr '\n' ' ')
[ "$listeners" = "127.0.0.1:$port " ] &&
	ok "listens on 127.0.0.1 only for a saved snapshot" || bad "listens on: $listeners"
grep -q "^rdmadiag peer: listening on 127.0.0.1 TCP port $port, --load describes a saved snapshot" "$tmp/server.out" &&
	ok "the banner says where and why" || bad "banner: $(cat "$tmp/server.out")"

# silent N SECONDS: N clients that greet, then say nothing for SECONDS;
# each prints how long the server kept it, or "closed at once".
silent() {
	python3 -c '
import socket, sys, threading, time
n, secs = int(sys.argv[1]), float(sys.argv[2])
out = [None] * n
def one(i):
    c = socket.create_connection(("127.0.0.1", '"$port"'))
    t0 = time.time()
    c.settimeout(secs)
    try:
        c.sendall(b"rdmadiag-peer/1" + bytes(1))
        while c.recv(4096):
            pass
        out[i] = "closed after %.0f s" % (time.time() - t0)
    except socket.timeout:
        out[i] = "kept %.0f s" % (time.time() - t0)
    except OSError:
        out[i] = "closed after %.0f s" % (time.time() - t0)
ts = []
for i in range(n):
    ts.append(threading.Thread(target=one, args=(i,)))
    ts[-1].start()
    time.sleep(0.3)
for t in ts:
    t.join()
print("\n".join(out))
' "$@"
}

# One client greets and goes silent; a real peer still gets its answer.
silent 1 8 >"$tmp/silent.out" &
held=$!
sleep 1
t0=$SECONDS
"$bin" peer 127.0.0.1 -p "$port" --load "$tmp/a.json" --no-matrix --timeout 3 >"$tmp/c.out" 2>"$tmp/c.err"; rc=$?
[ $rc -eq 0 ] && grep -q "no mismatch" "$tmp/c.out" &&
	ok "a peer is answered while a silent client is held ($((SECONDS - t0)) s)" ||
	bad "peer during a silent client: exit $rc $(cat "$tmp/c.err")"
wait "$held"

# A client that trickles its summary a byte a second: cut at the 10 s
# deadline.
python3 -c '
import socket, time
c = socket.create_connection(("127.0.0.1", '"$port"'))
c.sendall(b"rdmadiag-peer/1" + bytes(1)); c.recv(16)
c.sendall(b"\x00\x00\x10\x00")
t0 = time.time()
try:
    for _ in range(30):
        time.sleep(1)
        c.sendall(b" ")
    print("kept 30 s")
except OSError:
    print("closed after %.0f s" % (time.time() - t0))
' >"$tmp/trickle.out" 2>&1
grep -Eq "^closed after (9|10|11|12) s" "$tmp/trickle.out" &&
	ok "a trickling client is $(cat "$tmp/trickle.out")" || bad "trickling client: $(cat "$tmp/trickle.out")"
grep -q "127.0.0.1:[0-9]*: not done within 10 s; connection closed" "$tmp/server.err" &&
	ok "the server says it cut it" || bad "server: $(cat "$tmp/server.err")"

# Three silent clients from one address: two are served, the third is
# closed at once.
silent 3 4 >"$tmp/three.out"
[ "$(grep -c '^kept' "$tmp/three.out")" -eq 2 ] && grep -q '^closed after 0 s' "$tmp/three.out" &&
	ok "two clients of one address at once, a third closed" || bad "three clients: $(cat "$tmp/three.out")"

kill -TERM "$server"; wait "$server"; rc=$?
[ $rc -eq 0 ] && ok "the server ends on SIGTERM (exit 0)" || bad "server exit $rc"
finish
