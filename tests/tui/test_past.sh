#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What happened before the console started: a flight recorder on a copy
# of a fixture sees its port go down and up three times; the console on
# that tree and store opens with "Since you were last here" naming the
# port and how often it went down, the banner names the flapping port
# once the greeting is gone, the Events screen tells the story newest
# first, f keeps the selected port's, and Enter on an event shows its
# port.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

tree="$TUI_TMP/tree"
store="$TUI_TMP/store"
cp -a "$RDMADIAG_SRCDIR/tests/fixtures/rxe0-healthy" "$tree"
port="$tree/sys/class/infiniband/rxe0/ports/1"
mkdir -p "$tree/dev"
printf '6,100,1000000,-;rxe0: port 1 registered\n' >"$tree/dev/kmsg"
# The story starts from a port that is up, whatever the copy holds.
printf '4: ACTIVE\n' >"$port/state"
printf '5: LinkUp\n' >"$port/phys_state"

# until jq's filter holds on the store's story (at most 30 s: the
# machine may be loaded)
story() {
	tries=0
	while [ "$tries" -lt 300 ]; do
		# jq 1.6 -e holds on no input at all: a store not made yet
		# (timeline printing nothing) must not pass
		out=$("$RDMADIAG_BIN" timeline --store "$store" --json 2>/dev/null)
		[ -n "$out" ] && printf '%s\n' "$out" | jq -e "$1" >/dev/null 2>&1 &&
			return 0
		sleep 0.1
		tries=$((tries + 1))
	done
	return 1
}
# what the store holds and what the recorder said, for a failure's report
story_dump() {
	"$RDMADIAG_BIN" timeline --store "$store" 2>&1 | sed 's/^/#   /'
	sed 's/^/#   recorder: /' "$TUI_TMP/rec.err"
	echo "#   state file: $(cat "$port/state")"
}
downs() {
	echo "[.[] | select(.kind == \"link\" and (.text | startswith(\"$1 (was\")))] | length >= $2"
}

"$RDMADIAG_BIN" record --store "$store" --root "$tree" --interval 0.2 \
	2>"$TUI_TMP/rec.err" &
rec=$!
story '[.[] | select(.kind == "link")] | .[0].text | startswith("ACTIVE LINK_UP (recording started)")' ||
	{ not_ok "the recording does not start with the port ACTIVE"; story_dump; }
for i in 1 2 3; do
	printf '1: DOWN\n' >"$port/state"
	story "$(downs DOWN $i)" || { not_ok "down $i not recorded"; story_dump; }
	printf '4: ACTIVE\n' >"$port/state"
	story "$(downs ACTIVE $i)" || { not_ok "up $i not recorded"; story_dump; }
done
kill -TERM "$rec"
wait "$rec"

tui_start past 140 40 --root "$tree" --store "$store"
wait_for past "Since you were last here (6 h): rxe0/1 went down 3 times" 10 &&
	ok "greeting: the port and how often it went down"
keys past v
wait_for past "What happened (UTC: day, time)"
wait_for past "link     veth0: DOWN (was"
wait_for past "(recording started)"
keys past f
wait_for past "this port"
keys past ']'
keys past Enter
wait_for past "rxe0 port 1" && ok "Enter: the event's port is shown"
keys past q
wait_exit past 0

# The greeting gone, the banner names the flapping port (30 s would be
# long to wait: check's first finding is the same function's). Among the
# port's warnings (port.mtu warns too here) the flapping comes first.
out=$("$RDMADIAG_BIN" check --root "$tree" --store "$store" --only port --nhc --window 0 2>&1)
case "$out" in
*"port.flaps"*"rxe0/1"*) ok "the flapping port is the first finding: $out" ;;
*) not_ok "first finding: $out" ;;
esac

tui_summary
