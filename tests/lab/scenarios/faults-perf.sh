# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What perf-failures does not cover: a peer killed at a random point of
# the run (setup, handshake, data phase; either side), and a peer that
# closes the out-of-band connection early (at once, or right after the
# version exchange).  Each run must end by itself with status 1 and a
# message; after each, rxe0's resource counts (rdma resource show: pd, cq,
# qp, mr, ctx, ...) are back at the baseline and no QP belongs to rdmadiag.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag
command -v python3 > /dev/null || lab_skip "python3 not installed on the host"

PORT=18515
# The random kill points are reproducible from the seed in the log.
SEED=${FAULTS_PERF_SEED:-$(date +%s)}
RANDOM=$SEED
lab_log "random seed $SEED (FAULTS_PERF_SEED reproduces the kill points)"

# rxe0's resource counts, one line (kernel-owned entries such as the GSI
# QP are part of the baseline).
res_counts() {
	rdma -j resource show 2> /dev/null |
		jq -c '[.[] | select(.ifname == "rxe0") | del(.ifindex)]'
}
BASE=$(res_counts)
{ [ -n "$BASE" ] && [ "$BASE" != "[]" ]; } || lab_fail "rdma resource show says nothing about rxe0"
lab_log "baseline resources: $BASE"

# resources_back CASE: every count at the baseline, no rdmadiag QP.
resources_back() {
	local now qps
	now=$(res_counts)
	qps=$(rdma -j resource show qp 2> /dev/null |
		jq '[.[] | select(.ifname == "rxe0" and .comm == "rdmadiag")] | length')
	[ "$qps" = 0 ] || lab_fail "$1: $qps QPs of rdmadiag still on rxe0"
	[ "$now" = "$BASE" ] || lab_fail "$1: resources $now, baseline $BASE"
	lab_log "ok: $1: resources back to the baseline"
}

perf_uptime() {
	cut -d' ' -f1 /proc/uptime
}

# ends PID NAME SECONDS: PID exits by itself within SECONDS with status 1;
# its stderr ($LAB_OUT/NAME.err) says something.
ends() {
	local pid=$1 name=$2 secs=$3 rc=0
	timeout "$secs" tail --pid="$pid" -f /dev/null ||
		{ kill -9 "$pid"; lab_fail "$name: still running after ${secs}s"; }
	wait "$pid" || rc=$?
	[ "$rc" -eq 1 ] || lab_fail "$name: exit $rc, expected 1: $(tail -n 3 "$LAB_OUT/$name.err")"
	[ -s "$LAB_OUT/$name.err" ] || lab_fail "$name: failed without a message"
	lab_log "ok: $name: exit 1: $(head -n 1 "$LAB_OUT/$name.err")"
}

oob_connected() {
	[ -n "$(ss -Htn state established "( sport = :$PORT )")" ]
}

# kill_at VICTIM MS: an rdmadiag pair runs -D 15; VICTIM (server or client)
# is killed MS milliseconds after the client has connected (before that,
# a server is only waiting, and a client finds nobody: perf-failures); the
# survivor must end with status 1 well before the 15 s are over.
kill_at() {
	local victim=$1 ms=$2 name="kill-$1-at-$2ms" server client t0 took
	"$RDMADIAG" bw -d rxe0 -p $PORT -D 15 --timeout 3000 > "$LAB_OUT/$name.server.out" 2> "$LAB_OUT/$name.server.err" &
	server=$!
	lab_wait 20 "$name server" lab_port_listening "$PORT"
	"$RDMADIAG" bw -d rxe0 -p $PORT -D 15 --timeout 3000 127.0.0.1 > "$LAB_OUT/$name.client.out" 2> "$LAB_OUT/$name.client.err" &
	client=$!
	lab_wait 20 "$name client to connect" oob_connected
	t0=$(perf_uptime)
	sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	if [ "$victim" = server ]; then
		kill -9 "$server"
		wait "$server" 2> /dev/null || true
		ends "$client" "$name.client" 14
	else
		kill -9 "$client"
		wait "$client" 2> /dev/null || true
		ends "$server" "$name.server" 14
	fi
	took=$(awk -v a="$t0" -v b="$(perf_uptime)" 'BEGIN { printf "%.1f", b - a }')
	lab_log "$name: survivor ended ${took}s after the connection"
	resources_back "$name"
}

# Random points over the first 6 s: connection, QP exchange, data phase.
for victim in server client server client; do
	kill_at "$victim" $((RANDOM % 6000))
done
# Inside the QP exchange on purpose, where a point drawn over 6 s rarely
# lands.
kill_at server $((50 + RANDOM % 200))
kill_at client $((50 + RANDOM % 200))

# early_peer MODE: a TCP peer on $PORT that closes early.
#   now: accept and close at once
#   after-version: echo the client's version string, then close
early_peer() {
	python3 - "$1" "$PORT" << 'PY' &
import socket, sys
mode, port = sys.argv[1], int(sys.argv[2])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(1)
c, _ = s.accept()
if mode == "after-version":
    v = c.recv(16)
    c.sendall(v)
c.close()
s.close()
PY
	PEER=$!
	lab_wait 10 "early-closing peer" lab_port_listening "$PORT"
}

for mode in now after-version; do
	name=early-close-$mode
	early_peer "$mode"
	"$RDMADIAG" bw -d rxe0 -p $PORT --timeout 3000 127.0.0.1 > "$LAB_OUT/$name.out" 2> "$LAB_OUT/$name.err" &
	ends $! "$name" 10
	wait "$PEER" 2> /dev/null || true
	resources_back "$name"
done

# An rdmadiag server whose client closes early, both ways.
for mode in now after-version; do
	name=early-close-client-$mode
	"$RDMADIAG" lat -d rxe0 -p $PORT --timeout 3000 > "$LAB_OUT/$name.out" 2> "$LAB_OUT/$name.err" &
	server=$!
	lab_wait 20 "$name server" lab_port_listening "$PORT"
	python3 - "$mode" "$PORT" << 'PY'
import socket, sys, time
mode, port = sys.argv[1], int(sys.argv[2])
c = socket.create_connection(("127.0.0.1", port))
if mode == "after-version":
    c.sendall(b"6.06".ljust(16, b"\0"))
    c.settimeout(5)
    try:
        c.recv(16)
    except OSError:
        pass
c.close()
PY
	ends "$server" "$name" 10
	resources_back "$name"
done
