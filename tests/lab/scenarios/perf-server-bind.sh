# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The bw server listens where the test runs, not on every address: the
# IPv4 address of the port's netdev and 127.0.0.1, as its banner says
# (ss is the oracle). While one client runs, a second one is refused and
# the first run ends well. --bind still chooses the address.

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
