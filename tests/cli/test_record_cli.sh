#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder: record on a copy of a fixture whose port goes down
# and up again between intervals keeps the DOWN and the ACTIVE, with times
# that increase; SIGTERM ends it with exit 0; SIGKILL during writes leaves
# a database that opens and passes integrity_check; a symlinked or
# world-writable store and a planted symlink for the database are refused;
# timeline on a missing store exits 3 and says why.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"

cp -a "$fix/rxe0-healthy" "$tmp/tree"
port=$tmp/tree/sys/class/infiniband/rxe0/ports/1
net=$tmp/tree/sys/devices/virtual/net/veth0
have_sqlite=$(command -v sqlite3 || true)
mkdir -p "$tmp/tree/dev"
printf '6,100,1000000,-;rxe0: port 1 registered\n' >"$tmp/tree/dev/kmsg"

# Wait until the store has at least n events (at most 5 s).
wait_events() {
	for _ in $(seq 50); do
		n=$("$bin" timeline --store "$1" --json 2>/dev/null | jq length 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# Wait until jq's filter holds on the store's story (at most 10 s): the
# flips wait for the recorder, however loaded the machine is.
wait_story() {
	for _ in $(seq 100); do
		# jq 1.6 -e holds on no input: nothing printed must not pass
		out=$("$bin" timeline --store "$1" --json 2>/dev/null)
		[ -n "$out" ] && jq -e "$2" <<<"$out" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

"$bin" record --store "$tmp/store" --root "$tmp/tree" --interval 0.2 2>"$tmp/rec.err" &
pid=$!
wait_events "$tmp/store" 1 || bad "record wrote nothing in 5 s: $(cat "$tmp/rec.err")"
sleep 0.3
put "$port/state" "1: DOWN"
put "$port/phys_state" "3: Disabled"
put "$net/carrier" 0
printf '4,101,2000000,-;veth0: link down\n' >>"$tmp/tree/dev/kmsg"
wait_story "$tmp/store" 'any(.[]; .kind == "link" and (.text | startswith("DOWN (was")))' || bad "no DOWN within 10 s"
sleep 0.3
put "$port/state" "4: ACTIVE"
put "$port/phys_state" "5: LinkUp"
put "$net/carrier" 1
wait_story "$tmp/store" 'any(.[]; .kind == "link" and (.text | startswith("ACTIVE (was")))' || bad "no ACTIVE again within 10 s"
sleep 0.3
"$bin" record --store "$tmp/store" --root "$tmp/tree" --interval 0.2 2>"$tmp/err" </dev/null
rc=$?
[ $rc -eq 3 ] && grep -q "another rdmadiag record writes to it" "$tmp/err" &&
	ok "a second recorder on the same store: refused (exit 3)" || bad "second recorder: exit $rc $(cat "$tmp/err")"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc -eq 0 ] && ok "record: SIGTERM ends it with exit 0" || bad "record after SIGTERM: exit $rc $(cat "$tmp/rec.err")"
[ "$(stat -c %a "$tmp/store")" = 700 ] && [ "$(stat -c %a "$tmp/store/record.db")" = 600 ] &&
	ok "the store is 0700, the database 0600" || bad "modes: $(ls -la "$tmp/store")"

"$bin" timeline --store "$tmp/store" --json >"$tmp/tl.json"
rc=$?
# The states the port went through, a read of a half-written file aside.
states='[.[] | select(.kind == "link" and .device == "rxe0" and .port == 1) | select(.text | startswith("unknown") | not)]'
links=$(jq -r "$states"' | map(.text | split(" ")[0]) | join("|")' "$tmp/tl.json")
case "$links" in
"ACTIVE|DOWN|ACTIVE") ok "timeline --json: started ACTIVE, DOWN, ACTIVE again" ;;
*) bad "link events: exit $rc, '$links'" ;;
esac
jq -e "$states"' | (.[1].time > .[0].time) and (.[2].time > .[1].time)' "$tmp/tl.json" >/dev/null &&
	ok "timeline --json: the link events' times increase" || bad "times: $(jq -c '[.[] | select(.kind == "link") | .time]' "$tmp/tl.json")"
jq -e '[.[] | select(.kind == "carrier") | .text] == ["off (was on)", "on (was off)"]' "$tmp/tl.json" >/dev/null &&
	ok "timeline --json: carrier off and on again" || bad "carrier: $(jq -c '[.[] | select(.kind == "carrier")]' "$tmp/tl.json")"
jq -e '[.[] | select(.kind == "check" and (.text | startswith("port.state FAIL (was ")))] | length >= 1' "$tmp/tl.json" >/dev/null &&
	jq -e '[.[] | select(.kind == "check" and (.text | startswith("port.state PASS (was ")))] | length >= 1' "$tmp/tl.json" >/dev/null &&
	ok "timeline --json: port.state's changes to FAIL and back to PASS are kept" || bad "verdicts: $(jq -c '[.[] | select(.kind == "check") | .text]' "$tmp/tl.json")"
jq -e '[.[] | select(.kind == "kernel") | .text] == ["rxe0: port 1 registered", "veth0: link down"]' "$tmp/tl.json" >/dev/null &&
	ok "timeline --json: each kernel log record about the device once" || bad "kernel: $(jq -c '[.[] | select(.kind == "kernel")]' "$tmp/tl.json")"
jq -e 'map(.time) as $t | $t == ($t | sort)' "$tmp/tl.json" >/dev/null &&
	ok "timeline --json: oldest first" || bad "not sorted"
"$bin" timeline --store "$tmp/store" >"$tmp/tl.txt"
grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}  rxe0/1  link  DOWN \(was (ACTIVE|unknown)\)$' "$tmp/tl.txt" &&
	ok "timeline: one line per event, \"rxe0/1  link  DOWN (was ACTIVE)\"" || bad "text: $(cat "$tmp/tl.txt")"
"$bin" timeline --store "$tmp/store" --device mlx5_9 --json >"$tmp/none.json" && [ "$(jq length "$tmp/none.json")" = 0 ] &&
	ok "timeline --device: another device's story is empty" || bad "--device filter: $(cat "$tmp/none.json")"
[ "$("$bin" timeline --store "$tmp/store" --port 2)" = "nothing recorded in the last 86400 s for the target asked for" ] &&
	ok "timeline: an empty story says so" || bad "empty story: $("$bin" timeline --store "$tmp/store" --port 2)"
"$bin" timeline --store "$tmp/store" --since 1x >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is not a duration" "$tmp/err" && ok "timeline --since 1x: refused (exit 2)" || bad "--since 1x: exit $rc $(cat "$tmp/err")"

# Hostile text stored is escaped on output.
if [ -n "$have_sqlite" ]; then
	sqlite3 "$tmp/store/record.db" "INSERT INTO events(time, device, port, kind, text) VALUES(strftime('%s','now'), 'rxe0', 1, 'kernel', 'bad' || char(27) || '[2J' || char(10) || 'line')"
	"$bin" timeline --store "$tmp/store" >"$tmp/esc.txt"
	! grep -q $'\e' "$tmp/esc.txt" && grep -q 'bad\\x1b\[2J\\nline' "$tmp/esc.txt" &&
		ok "timeline: a stored escape sequence and newline are escaped" || bad "escape: $(grep -a bad "$tmp/esc.txt" | od -c | head -3)"
	"$bin" timeline --store "$tmp/store" --json | jq -e '[.[] | select(.text | startswith("bad"))] | .[0].text == "bad\\x1b[2J\\nline"' >/dev/null &&
		ok "timeline --json: the same text escaped" || bad "json escape: $("$bin" timeline --store "$tmp/store" --json | jq -c '.[] | select(.text | startswith("bad"))')"
fi

# Bounds: rows older than --keep go; past --max-bytes the oldest go and
# the file shrinks.
if [ -n "$have_sqlite" ]; then
	sqlite3 "$tmp/store/record.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
		INSERT INTO events(time, device, port, kind, text) SELECT strftime('%s','now') - 3600 + i * 0.001, 'rxe0', 1, 'kernel', printf('filler line %d with some text to take room', i) FROM n;
		INSERT INTO events(time, device, port, kind, text) VALUES(strftime('%s','now') - 30 * 86400, 'rxe0', 1, 'kernel', 'a month ago')"
	before=$(stat -c %s "$tmp/store/record.db")
	"$bin" record --store "$tmp/store" --root "$tmp/tree" --interval 0.2 --max-bytes 65536 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid"
	after=$(stat -c %s "$tmp/store/record.db")
	[ "$(sqlite3 "$tmp/store/record.db" "SELECT count(*) FROM events WHERE text = 'a month ago'")" = 0 ] &&
		ok "record: a row older than --keep (7 days) is deleted" || bad "--keep: the month-old row is still there"
	[ "$after" -le 65536 ] && [ "$after" -lt "$before" ] &&
		[ "$(sqlite3 "$tmp/store/record.db" "SELECT count(*) FROM events WHERE text = 'filler line 3000 with some text to take room'")" = 1 ] &&
		[ "$(sqlite3 "$tmp/store/record.db" "SELECT count(*) FROM events WHERE text = 'filler line 1 with some text to take room'")" = 0 ] &&
		ok "record --max-bytes 65536: the oldest rows go, the file shrinks ($before to $after bytes)" ||
		bad "--max-bytes: $before to $after bytes $(cat "$tmp/err")"
fi

# Counter deltas: the Soft-RoCE rcvd_seq_err rises by 12 between intervals.
cp -a "$fix/rxe0-healthy" "$tmp/tree2"
ctr=$tmp/tree2/sys/class/infiniband/rxe0/ports/1/hw_counters
if [ -f "$ctr/rcvd_seq_err" ]; then
	"$bin" record --store "$tmp/store2" --root "$tmp/tree2" --interval 0.2 2>/dev/null &
	pid=$!
	wait_events "$tmp/store2" 1
	put "$ctr/rcvd_seq_err" $(($(cat "$ctr/rcvd_seq_err") + 12))
	wait_story "$tmp/store2" 'any(.[]; .kind == "counter")' || bad "no counter delta within 10 s"
	kill -TERM "$pid"
	wait "$pid"
	"$bin" timeline --store "$tmp/store2" --json >"$tmp/ctr.json"
	jq -e '[.[] | select(.kind == "counter" and .counter == "rcvd_seq_err")] | length == 1 and .[0].delta == 12' "$tmp/ctr.json" >/dev/null &&
		ok "timeline: rcvd_seq_err +12, summed per port" || bad "counter: $(jq -c '[.[] | select(.kind == "counter")]' "$tmp/ctr.json")"
	"$bin" timeline --store "$tmp/store2" | grep -Eq 'rxe0/1  counter  rcvd_seq_err \+12 between [0-9:]{8} and [0-9:]{8}$' &&
		ok "timeline: \"rcvd_seq_err +12 between HH:MM:SS and HH:MM:SS\"" || bad "counter line: $("$bin" timeline --store "$tmp/store2" | grep counter)"
else
	bad "the fixture has no counters/rcvd_seq_err"
fi

# SIGKILL during writes, several times: every reopen is whole.
killed_ok=0
for i in 1 2 3 4; do
	"$bin" record --store "$tmp/kstore" --root "$tmp/tree" --interval 0.05 2>/dev/null &
	pid=$!
	sleep 0.$((2 + i))
	put "$port/state" "$((i % 2 ? 1 : 4)): X"
	sleep 0.1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	"$bin" timeline --store "$tmp/kstore" --json >/dev/null 2>&1 || continue
	if [ -n "$have_sqlite" ]; then
		[ "$(sqlite3 "$tmp/kstore/record.db" 'PRAGMA integrity_check')" = ok ] || continue
	fi
	killed_ok=$((killed_ok + 1))
done
[ $killed_ok -eq 4 ] && ok "record killed with SIGKILL 4 times: the store opens, integrity_check ok" ||
	bad "after SIGKILL: $killed_ok of 4 reopened whole"
if [ -n "$have_sqlite" ]; then
	n=$(sqlite3 "$tmp/kstore/record.db" "SELECT count(*) FROM events WHERE kind = 'link'")
	[ "${n:-0}" -ge 4 ] && ok "after the kills: $n link events committed" || bad "after the kills: ${n:-no} link events"
fi

# Refused stores.
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/linked"
"$bin" record --store "$tmp/linked" --root "$tmp/tree" --interval 0.2 2>"$tmp/err" </dev/null
rc=$?
[ $rc -eq 3 ] && [ -z "$(ls -A "$tmp/real")" ] && grep -q "is a symlink or not a directory; refused" "$tmp/err" &&
	ok "record --store through a symlink: refused (exit 3), nothing written" || bad "symlinked store: exit $rc $(cat "$tmp/err")"
mkdir -m 0777 "$tmp/open"
chmod 0777 "$tmp/open"
"$bin" record --store "$tmp/open" --root "$tmp/tree" --interval 0.2 2>"$tmp/err" </dev/null
rc=$?
[ $rc -eq 3 ] && [ -z "$(ls -A "$tmp/open")" ] && grep -q "is writable by group or others; refused" "$tmp/err" &&
	ok "record into a world-writable store: refused (exit 3)" || bad "world-writable store: exit $rc $(cat "$tmp/err")"
mkdir -m 0700 "$tmp/planted"
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/planted/record.db"
"$bin" record --store "$tmp/planted" --root "$tmp/tree" --interval 0.2 2>"$tmp/err" </dev/null
rc=$?
[ $rc -eq 3 ] && [ "$(cat "$tmp/victim")" = precious ] && grep -q "record.db is not our own regular file" "$tmp/err" &&
	ok "a planted symlink for the database: refused, its target intact" || bad "planted db symlink: exit $rc $(cat "$tmp/err")"

"$bin" timeline --store "$tmp/missing" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "No such file or directory" "$tmp/err" &&
	ok "timeline on a missing store: exit 3, says why" || bad "missing store: exit $rc $(cat "$tmp/err")"
mkdir -m 0700 "$tmp/empty"
"$bin" timeline --store "$tmp/empty" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "no record.db in it" "$tmp/err" &&
	ok "timeline on a store without a database: exit 3, says why" || bad "empty store: exit $rc $(cat "$tmp/err")"
"$bin" record 2>/dev/null
[ $? -eq 2 ] && ok "record without --store: usage (exit 2)" || bad "record without --store"
finish
