#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder's store as evidence: a recorder on a copy of a
# fixture sees its port go down and up three times; check --since reads
# the store back and port.flaps says when each down was and when the port
# came back, with what the kernel logged about the device; a window that
# starts after the downs holds none; a store that is not there is said,
# not guessed around; explain ranks a retry error with the flapping port.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"

cp -a "$fix/rxe0-healthy" "$tmp/tree"
port=$tmp/tree/sys/class/infiniband/rxe0/ports/1
net=$tmp/tree/sys/devices/virtual/net/veth0
mkdir -p "$tmp/tree/dev"
printf '6,100,1000000,-;rxe0: port 1 registered\n' >"$tmp/tree/dev/kmsg"

# Until jq's filter holds on the story (at most 10 s).
wait_story() {
	for _ in $(seq 100); do
		# jq 1.6 -e holds on no input: nothing printed must not pass
		out=$("$bin" timeline --store "$tmp/store" --json 2>/dev/null)
		[ -n "$out" ] && jq -e "$1" <<<"$out" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
count() {
	printf '[.[] | select(.kind == "link" and (.text | startswith("%s (was")))] | length >= %s' "$1" "$2"
}

"$bin" record --store "$tmp/store" --root "$tmp/tree" --interval 0.2 2>"$tmp/rec.err" &
pid=$!
wait_story 'length >= 1' || bad "record wrote nothing: $(cat "$tmp/rec.err")"
for i in 1 2 3; do
	put "$port/state" "1: DOWN      "
	put "$net/carrier" 0
	wait_story "$(count DOWN "$i")" || bad "down $i not recorded within 10 s"
	put "$port/state" "4: ACTIVE"
	put "$net/carrier" 1
	wait_story "$(count ACTIVE "$i")" || bad "up $i not recorded within 10 s"
done
kill -TERM "$pid"
wait "$pid"

"$bin" check --root "$tmp/tree" --store "$tmp/store" --since 1h --only port.flaps --window 0 -v >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'WARN    port.flaps  *rxe0/1: the port went down 3 times between [0-9:]* and [0-9:]* UTC' "$tmp/out" &&
	ok "check --since: the port went down 3 times, a WARN (exit 1)" || bad "check --since: exit $rc: $(cat "$tmp/out")"
[ "$(grep -c 'down: [0-9:]* UTC, up again at [0-9:]* UTC' "$tmp/out")" = 3 ] &&
	ok "each down has its time and the time the port came back" || bad "downs: $(cat "$tmp/out")"
grep -q 'kernel: [0-9:]* UTC rxe0: port 1 registered' "$tmp/out" &&
	ok "what the kernel logged about the device is evidence" || bad "no kernel line: $(cat "$tmp/out")"

"$bin" check --root "$tmp/tree" --store "$tmp/store" --since 1h --only port.flaps --window 0 --json >"$tmp/j" 2>&1
jq -e '.[] | select(.check == "port.flaps") | .cause == "flapping" and .verdict == "WARN"' "$tmp/j" >/dev/null 2>&1 &&
	ok "check --since --json: cause flapping" || bad "json: $(head -c 600 "$tmp/j")"

sleep 2.2
"$bin" check --root "$tmp/tree" --store "$tmp/store" --since 2s --only port.flaps --window 0 -v >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'PASS    port.flaps  *rxe0/1: no down recorded since [0-9:]* UTC (flight recorder)' "$tmp/out" &&
	ok "check --since 2s after the downs: none recorded, PASS" || bad "--since 2s: exit $rc: $(cat "$tmp/out")"

"$bin" check --root "$tmp/tree" --store "$tmp/nothing" --since 1h --only port.flaps --window 0 -v >"$tmp/out" 2>&1
rc=$?
grep -q 'flight recorder: not read: store .*nothing' "$tmp/out" && grep -q 'UNKNOWN port.flaps' "$tmp/out" &&
	ok "a store that is not there is said, and the check stays UNKNOWN" || bad "missing store: exit $rc: $(cat "$tmp/out")"

"$bin" check --root "$tmp/tree" --since 1x >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'is not a duration' "$tmp/err" && ok "--since 1x: refused (exit 3)" || bad "--since 1x: exit $rc $(cat "$tmp/err")"

"$bin" explain --root "$tmp/tree" --store "$tmp/store" --since 1h --window 0 IBV_WC_RETRY_EXC_ERR >"$tmp/out" 2>&1
grep -q 'check port.flaps WARN: rxe0/1: the port went down 3 times' "$tmp/out" &&
	ok "explain --since: the flapping port is evidence of a retry error" || bad "explain: $(cat "$tmp/out")"
finish
