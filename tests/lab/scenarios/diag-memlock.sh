# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A 64 KiB memlock limit without CAP_IPC_LOCK: host.memlock FAIL memlock_low.

lab_net_up 9000
lab_rxe_add
lab_wait_port rxe0 ACTIVE
command -v setpriv > /dev/null || lab_skip "setpriv not installed"
CHK=$LAB_OUT/memlock.json
RC=0
( ulimit -S -l 64
  setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" check --json --window 0 > "$CHK" 2> "$LAB_OUT/memlock.err" ) || RC=$?
assert_eq 2 "$RC" "check exit status"
assert_json "$CHK" '[.[] | select(.check == "host.memlock")][0].cause' memlock_low "host.memlock cause"
assert_json "$CHK" '[.[] | select(.check == "host.memlock")][0].verdict' FAIL "host.memlock verdict"

# What the verdict predicts, for real: a 1 MiB buffer cannot be pinned
# under that limit, so memory registration fails, and the test says why.
( ulimit -S -l 64
  exec setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" bw -d rxe0 -s 1048576 -n 10 -p 18531 ) \
	> "$LAB_OUT/bw-server.out" 2>&1 &
SRV=$!
# Listening, or already ended (a server that cannot register says so).
lab_wait 10 "the limited bw server listening or ended" \
	sh -c "[ -n \"\$(ss -Hltn 'sport = :18531')\" ] || ! kill -0 $SRV 2>/dev/null"
RC=0
( ulimit -S -l 64
  setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	timeout 60 "$RDMADIAG" bw -d rxe0 -s 1048576 -n 10 -p 18531 127.0.0.1 ) \
	> "$LAB_OUT/bw-client.out" 2>&1 || RC=$?
kill "$SRV" 2> /dev/null || true
wait "$SRV" 2> /dev/null || true
[ "$RC" -ne 0 ] || lab_fail "a 1 MiB bw test ran under a 64 KiB memlock limit: $(tail -n 3 "$LAB_OUT/bw-client.out")"
grep -q "ibv_reg_mr(.*): Cannot allocate memory (locked-memory limit too low" \
	"$LAB_OUT/bw-client.out" "$LAB_OUT/bw-server.out" ||
	lab_fail "the bw test did not fail at memory registration: $(tail -n 3 "$LAB_OUT/bw-client.out" "$LAB_OUT/bw-server.out")"
# The same test with the limit lifted runs: the limit was the cause.
RC=0
"$RDMADIAG" bw -d rxe0 -s 1048576 -n 10 -p 18532 > "$LAB_OUT/bw-ok-server.out" 2>&1 &
SRV=$!
lab_wait 10 "bw server listening" lab_port_listening 18532
timeout 120 "$RDMADIAG" bw -d rxe0 -s 1048576 -n 10 -p 18532 127.0.0.1 \
	> "$LAB_OUT/bw-ok-client.out" 2>&1 || RC=$?
wait "$SRV" 2> /dev/null || true
assert_eq 0 "$RC" "bw as root, no limit ($(tail -n 2 "$LAB_OUT/bw-ok-client.out"))"
