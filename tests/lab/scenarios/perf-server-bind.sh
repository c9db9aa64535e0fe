# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# The bw server listens where the test runs, not on every address: the
# IPv4 address of the port's netdev and 127.0.0.1, as its banner says
# (ss is the oracle). While one client runs, a second one is refused and
# the first run ends well, over TCP and over rdma_cm (-R). --bind still
# chooses the address.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

PORT=18517
addr=${LAB_ADDR%/*}

"$RDMADIAG" bw -d rxe0 -p "$PORT" -D 6 > "$LAB_OUT/server.out" 2> "$LAB_OUT/server.err" &
SERVER=$!
lab_wait 10 "the server to listen" lab_port_listening "$PORT"
ss -Hltn "sport = :$PORT" > "$LAB_OUT/ss.txt"
lab_log "listening: $(tr '\n' ' ' < "$LAB_OUT/ss.txt")"
grep -q "$addr:$PORT" "$LAB_OUT/ss.txt" || lab_fail "not listening on $addr: $(cat "$LAB_OUT/ss.txt")"
grep -q "127.0.0.1:$PORT" "$LAB_OUT/ss.txt" || lab_fail "not listening on 127.0.0.1"
grep -qE "(0\.0\.0\.0|\*|\[::\]):$PORT" "$LAB_OUT/ss.txt" && lab_fail "listening on every address"
grep -q "Listening on $addr and 127.0.0.1 port $PORT, the IPv4 address of $LAB_NETDEV, the netdev of rxe0 port 1" \
	"$LAB_OUT/server.out" || lab_fail "banner: $(head -n 3 "$LAB_OUT/server.out")"

"$RDMADIAG" bw -d rxe0 -p "$PORT" -D 6 "$addr" > "$LAB_OUT/client.out" 2> "$LAB_OUT/client.err" &
CLIENT=$!
lab_wait 10 "the first client to be served" grep -q "Client          : " "$LAB_OUT/server.out"
rc=0
timeout 10 "$RDMADIAG" bw -d rxe0 -p "$PORT" --timeout 1000 127.0.0.1 > "$LAB_OUT/second.out" 2> "$LAB_OUT/second.err" || rc=$?
[ "$rc" -ne 0 ] || lab_fail "a second client was served"
grep -q "no server listening" "$LAB_OUT/second.err" || lab_fail "second client: $(cat "$LAB_OUT/second.err")"
lab_log "ok: second client refused: $(head -n 1 "$LAB_OUT/second.err")"
wait "$CLIENT" || lab_fail "first client failed: $(tail -n 3 "$LAB_OUT/client.err")"
wait "$SERVER" || lab_fail "server failed: $(tail -n 3 "$LAB_OUT/server.err")"
lab_log "ok: the first run ended well"

# The same rule over rdma_cm (-R): the listener is gone once the first
# client is accepted, so a second client is refused, not queued behind it.
"$RDMADIAG" bw -d rxe0 -R -p "$PORT" -D 6 > "$LAB_OUT/cm-server.out" 2> "$LAB_OUT/cm-server.err" &
SERVER=$!
sleep 2
kill -0 "$SERVER" 2>/dev/null || lab_fail "rdma_cm server: $(tail -n 3 "$LAB_OUT/cm-server.err")"
"$RDMADIAG" bw -d rxe0 -R -p "$PORT" -D 6 "$addr" > "$LAB_OUT/cm-client.out" 2> "$LAB_OUT/cm-client.err" &
CLIENT=$!
lab_wait 20 "the first rdma_cm client to be served" grep -q "Number of qps" "$LAB_OUT/cm-server.out"
rc=0
timeout 20 "$RDMADIAG" bw -d rxe0 -R -p "$PORT" --timeout 2000 "$addr" > "$LAB_OUT/cm-second.out" 2> "$LAB_OUT/cm-second.err" || rc=$?
[ "$rc" -ne 0 ] || lab_fail "a second rdma_cm client was served"
[ "$rc" -ne 124 ] || lab_fail "the second rdma_cm client hung instead of being refused"
grep -q "RDMA_CM_EVENT_REJECTED" "$LAB_OUT/cm-second.err" ||
	lab_fail "second rdma_cm client: $(cat "$LAB_OUT/cm-second.err")"
lab_log "ok: second rdma_cm client refused (exit $rc): $(head -n 1 "$LAB_OUT/cm-second.err")"
wait "$CLIENT" || lab_fail "first rdma_cm client failed: $(tail -n 3 "$LAB_OUT/cm-client.err")"
wait "$SERVER" || lab_fail "rdma_cm server failed: $(tail -n 3 "$LAB_OUT/cm-server.err")"
lab_log "ok: the first rdma_cm run ended well"

# --bind 127.0.0.1: that address only.
"$RDMADIAG" bw -d rxe0 -p "$PORT" -D 2 --bind 127.0.0.1 > "$LAB_OUT/bind.out" 2> "$LAB_OUT/bind.err" &
SERVER=$!
lab_wait 10 "the --bind server to listen" lab_port_listening "$PORT"
ss -Hltn "sport = :$PORT" > "$LAB_OUT/ss-bind.txt"
[ "$(wc -l < "$LAB_OUT/ss-bind.txt")" -eq 1 ] && grep -q "127.0.0.1:$PORT" "$LAB_OUT/ss-bind.txt" ||
	lab_fail "--bind: $(cat "$LAB_OUT/ss-bind.txt")"
"$RDMADIAG" bw -d rxe0 -p "$PORT" -D 2 127.0.0.1 > "$LAB_OUT/bind-client.out" 2>&1 ||
	lab_fail "--bind client: $(tail -n 3 "$LAB_OUT/bind-client.out")"
wait "$SERVER" || lab_fail "--bind server failed: $(tail -n 3 "$LAB_OUT/bind.err")"
lab_pass
