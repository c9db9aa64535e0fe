# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# rdmadiag bw/lat when things go wrong: nobody listening, a silent peer, a
# peer speaking garbage (either role), a peer killed mid-run (rdmadiag and
# ib_write_bw), Ctrl-C, a port that is not ACTIVE. Each must end quickly
# with a clear message and a non-zero exit.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

PORT=18515

perf_uptime() {
	cut -d' ' -f1 /proc/uptime
}

# expect NAME RC SECONDS PATTERN CMD...: CMD exits RC within SECONDS and its
# stderr matches PATTERN. SECONDS guards against a hang (each command's own
# timeout is 1-2 s), with room for a TCG guest on a loaded host: it is not a
# speed figure.
expect() {
	local name=$1 want=$2 secs=$3 pat=$4 rc=0 t0
	shift 4
	t0=$(perf_uptime)
	timeout "$((secs + 5))" "$@" > "$LAB_OUT/$name.out" 2> "$LAB_OUT/$name.err" || rc=$?
	local took
	took=$(awk -v a="$t0" -v b="$(perf_uptime)" 'BEGIN { printf "%.1f", b - a }')
	[ "$rc" -eq "$want" ] || lab_fail "$name: exit $rc, expected $want: $(tail -n 3 "$LAB_OUT/$name.err")"
	awk -v t="$took" -v s="$secs" 'BEGIN { exit !(t <= s) }' || lab_fail "$name: took ${took}s (limit ${secs}s)"
	grep -qE "$pat" "$LAB_OUT/$name.err" || lab_fail "$name: message does not match /$pat/: $(cat "$LAB_OUT/$name.err")"
	lab_log "ok: $name: exit $rc in ${took}s: $(grep -E "$pat" "$LAB_OUT/$name.err" | head -n 1)"
}

# fake_server MODE: a TCP peer on $PORT that answers with garbage or not at all.
fake_server() {
	python3 - "$1" "$PORT" <<'PY' &
import socket, sys, time
mode, port = sys.argv[1], int(sys.argv[2])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(1)
c, _ = s.accept()
c.recv(16)
if mode == "junk":
    c.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n" * 4)
elif mode == "short":
    c.sendall(b"6.06".ljust(16, b"\0") + b"\0\0\x10\0" + b"\0\0\0\x40" + b"3\0" + b"0000:0001:0000")
time.sleep(20)
PY
	FAKE=$!
	lab_wait 10 "fake server" lab_port_listening "$PORT"
}

stop_fake() {
	kill "$FAKE" 2> /dev/null || true
	wait "$FAKE" 2> /dev/null || true
}

expect refused 1 20 'no server listening' \
	"$RDMADIAG" bw -d rxe0 -p $PORT --timeout 1000 127.0.0.1

fake_server junk
expect garbage-server 1 20 'not a perftest version|not NUL-terminated' \
	"$RDMADIAG" bw -d rxe0 -p $PORT --timeout 2000 127.0.0.1
stop_fake

fake_server silent
expect silent-server 1 20 'nothing for 1000 ms' \
	"$RDMADIAG" lat -d rxe0 -p $PORT --timeout 1000 127.0.0.1
stop_fake

fake_server short
expect short-keys 1 20 '14 of 108 bytes of QP keys' \
	"$RDMADIAG" bw -d rxe0 -p $PORT --timeout 1000 127.0.0.1
stop_fake

# A garbage client against rdmadiag's server.
"$RDMADIAG" bw -d rxe0 -p $PORT --timeout 2000 > "$LAB_OUT/garbage-client.out" 2> "$LAB_OUT/garbage-client.err" &
server=$!
lab_wait 10 "rdmadiag server" lab_port_listening "$PORT"
exec 5<> /dev/tcp/127.0.0.1/$PORT
printf 'GARBAGE GARBAGE GARBAGE GARBAGE GARBAGE' >&5
exec 5>&-
rc=0
timeout 10 tail --pid="$server" -f /dev/null || { kill -9 "$server"; lab_fail "server hung on a garbage client"; }
wait "$server" || rc=$?
[ "$rc" -eq 1 ] || lab_fail "server exited $rc on a garbage client"
grep -qE 'not a perftest version|not NUL-terminated' "$LAB_OUT/garbage-client.err" ||
	lab_fail "server: unclear message: $(cat "$LAB_OUT/garbage-client.err")"
lab_log "ok: garbage client: $(head -n 1 "$LAB_OUT/garbage-client.err")"

# kill_mid NAME SERVER_CMD...: a client runs -D 20 against SERVER_CMD, which
# is killed after 4 s; the client must notice and stop well before 20 s.
kill_mid() {
	local name=$1 rc=0 t0 took client
	shift
	"$@" > "$LAB_OUT/$name.server" 2>&1 &
	local server=$!
	lab_wait 20 "$name server" lab_port_listening "$PORT"
	t0=$(perf_uptime)
	"$RDMADIAG" bw -d rxe0 -p $PORT -D 20 -s 65536 127.0.0.1 > "$LAB_OUT/$name.out" 2> "$LAB_OUT/$name.err" &
	client=$!
	sleep 4
	kill -9 "$server"
	wait "$server" 2> /dev/null || true
	timeout 25 tail --pid="$client" -f /dev/null || true
	wait "$client" || rc=$?
	took=$(awk -v a="$t0" -v b="$(perf_uptime)" 'BEGIN { printf "%.1f", b - a }')
	[ "$rc" -eq 1 ] || lab_fail "$name: client exit $rc after its peer was killed"
	awk -v t="$took" 'BEGIN { exit !(t < 18) }' || lab_fail "$name: client took ${took}s to notice"
	grep -qE 'peer|retry|completion error' "$LAB_OUT/$name.err" ||
		lab_fail "$name: unclear message: $(cat "$LAB_OUT/$name.err")"
	lab_log "ok: $name: client stopped after ${took}s: $(grep -E 'peer|retry|completion' "$LAB_OUT/$name.err" | head -n 1)"
}

kill_mid killed-rdmadiag "$RDMADIAG" bw -d rxe0 -p $PORT -D 20 -s 65536
kill_mid killed-perftest ib_write_bw -d rxe0 -x 1 -p $PORT -D 20 -s 65536

# Ctrl-C: exit 130, message, no hang.
"$RDMADIAG" bw --loopback -d rxe0 -D 30 > "$LAB_OUT/sigint.out" 2> "$LAB_OUT/sigint.err" &
pid=$!
sleep 4
kill -INT "$pid"
rc=0
timeout 10 tail --pid="$pid" -f /dev/null || { kill -9 "$pid"; lab_fail "SIGINT did not stop the test"; }
wait "$pid" || rc=$?
[ "$rc" -eq 130 ] || lab_fail "SIGINT: exit $rc, expected 130"
grep -q interrupted "$LAB_OUT/sigint.err" || lab_fail "SIGINT: no message: $(cat "$LAB_OUT/sigint.err")"
lab_log "ok: SIGINT: $(head -n 1 "$LAB_OUT/sigint.err")"
n=$(rdma -j resource show qp 2> /dev/null | jq '[.[] | select(.ifname == "rxe0" and .type == "RC")] | length' || echo 0)
[ "$n" = 0 ] || lab_fail "RC QPs left on rxe0 after the runs: $n"
lab_log "ok: no RC QP left on rxe0"

# A port that is not ACTIVE is refused before anything starts.
ip link set veth0 down
lab_wait_port rxe0 DOWN
expect port-down 1 20 'not ACTIVE' "$RDMADIAG" bw --loopback -d rxe0
ip link set veth0 up
lab_wait_port rxe0 ACTIVE

# A GID index that does not exist: refused with the attribute named.
expect bad-gid 1 20 'GID index 77' "$RDMADIAG" bw --loopback -d rxe0 -x 77
