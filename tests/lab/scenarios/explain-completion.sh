# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# Completion errors explained on a real rxe port: `rdmadiag bw` whose peer
# is killed mid-run ends with a completion error and prints what it means
# and the likely causes; `rdmadiag explain` samples the live counters.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

PORT=18515

# explain on the live host: the window is sampled, rxe0's counters looked at.
"$RDMADIAG" explain --window 1 'Failed status 12: wr_id 0 syndrom 0x81' \
	> "$LAB_OUT/explain.out" 2> "$LAB_OUT/explain.err" ||
	lab_fail "explain: exit $?: $(cat "$LAB_OUT/explain.err")"
grep -q '^Status 12 IBV_WC_RETRY_EXC_ERR' "$LAB_OUT/explain.out" ||
	lab_fail "explain: no meaning: $(cat "$LAB_OUT/explain.out")"
grep -qE 'ranked by the evidence of this host \(counters over [0-9.]+ s\)' "$LAB_OUT/explain.out" ||
	lab_fail "explain: not ranked by a window: $(cat "$LAB_OUT/explain.out")"
# rxe's own retry counters are among those looked at.
grep -qE 'related counters? did not rise|rxe0/1 hw_counters' "$LAB_OUT/explain.out" ||
	lab_fail "explain: rxe0's counters not looked at: $(cat "$LAB_OUT/explain.out")"
lab_log "ok: explain ranked by rxe0's counters over a window"

# bw whose server dies: the client's error is explained on stderr.
"$RDMADIAG" bw -d rxe0 -p $PORT -D 20 -s 65536 > "$LAB_OUT/server.out" 2>&1 &
server=$!
lab_wait 20 "bw server" lab_port_listening "$PORT"
"$RDMADIAG" bw -d rxe0 -p $PORT -D 20 -s 65536 127.0.0.1 \
	> "$LAB_OUT/client.out" 2> "$LAB_OUT/client.err" &
client=$!
sleep 4
kill -9 "$server"
wait "$server" 2> /dev/null || true
timeout 25 tail --pid="$client" -f /dev/null || true
rc=0
wait "$client" || rc=$?
[ "$rc" -eq 1 ] || lab_fail "client exit $rc after its peer was killed"
if grep -q 'completion error' "$LAB_OUT/client.err"; then
	grep -qE '^Status [0-9]+ IBV_WC_' "$LAB_OUT/client.err" ||
		lab_fail "completion error not explained: $(cat "$LAB_OUT/client.err")"
	grep -q 'Likely causes, ranked by the evidence' "$LAB_OUT/client.err" ||
		lab_fail "causes not ranked: $(cat "$LAB_OUT/client.err")"
	lab_log "ok: bw's completion error explained: $(grep -E '^Status ' "$LAB_OUT/client.err")"
else
	lab_log "note: the client ended without a completion error: $(head -n 2 "$LAB_OUT/client.err")"
fi
