#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The on-call path, measured: on every fixture host with a finding (and
# the demo) the console starts at 80x24, and within three keys the screen
# shows the finding the banner names with its verdict, its evidence, its
# next step and its fix-up command (or "no fix-up: <why>"). What must be
# there comes from `rdmadiag check --json` on the same host, so a part the
# console leaves out fails the test.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

MAX_KEYS=3

# The results that are not PASS, one per line: the detail's heading
# ("FAIL  title  target"), then prefixes of the summary, first evidence
# (what, value), next step and fix-up command, separated by tabs.
expected() {
	jq -r '
	def pre: if length > 40 then .[0:40] | sub(" [^ ]*$"; "") else . end;
	def target: if .device and .port then "\(.device)/\(.port)"
		elif .device then .device elif .netdev then .netdev
		else "host" end;
	.[] | select(.verdict == "FAIL" or .verdict == "WARN") |
	[ "\(.verdict)  \(.title)  \(target)",
	  ((.summary // "") | pre),
	  ((.evidence[0].what // "") | pre),
	  ((.evidence[0].value // "") | pre),
	  ((.next_step // "") | pre),
	  ((.fix.command // "") | pre) ] | @tsv' "$1"
}

# has TEXT: the screens seen so far show TEXT.
has() { grep -qF -- "$1" "$TUI_TMP/$name.seen"; }

# oncall NAME CHECK-INPUT CONSOLE-ARGS...: CHECK-INPUT is check's
# --root DIR or --load FILE for the same host.
oncall() {
	name=$1 input=$2
	shift 2
	json="$TUI_TMP/$name.json"
	(cd "$RDMADIAG_SRCDIR" &&
		"$RDMADIAG_BIN" check --json --window 0 $input) > "$json" 2>/dev/null
	if [ "$(expected "$json" | wc -l)" -eq 0 ]; then
		# Nothing failing; what was not judged is still not a pass.
		if jq -e 'any(.[]; .verdict == "UNKNOWN")' "$json" >/dev/null
		then
			tui_start "$name" 80 24 "$@"
			wait_for "$name" "No FAIL or WARN;" 10
			absent "$name" "All checks pass"
			keys "$name" q
			wait_exit "$name" 0
		fi
		return 0
	fi
	tui_start "$name" 80 24 "$@"
	wait_banner "$name" 10 || return 0
	: > "$TUI_TMP/$name.seen"
	banner=$(tui_screen "$name" | sed -n 2p)
	keys "$name" k
	wait_for "$name" "checks:" 5 || return 0
	sleep 0.3
	pressed=1
	tui_screen "$name" >> "$TUI_TMP/$name.seen"
	# The finding shown: the longest heading of a result on the screen.
	line=$(expected "$json" | while IFS="$(printf '\t')" read -r head rest; do
		if has "$head"; then printf '%d\t%s\n' "${#head}" "$head"; fi
	done | sort -n | tail -1 | cut -f2)
	if [ -z "$line" ]; then
		not_ok "$name: k shows no FAIL/WARN result's verdict and title"
		sed 's/^/#   /' "$TUI_TMP/$name.seen"
		tmx kill-session -t "$name"
		return 0
	fi
	ok "$name: k shows the verdict: $line"
	row=$(expected "$json" | awk -F '\t' -v h="$line" '$1 == h' | head -1)
	summary=$(printf '%s' "$row" | cut -f2)
	ev_what=$(printf '%s' "$row" | cut -f3)
	ev_value=$(printf '%s' "$row" | cut -f4)
	next=$(printf '%s' "$row" | cut -f5)
	fix=$(printf '%s' "$row" | cut -f6)
	# The banner named this finding.
	case "$banner" in
	*"$summary"*) ok "$name: it is the finding the banner names" ;;
	*) not_ok "$name: banner \"$banner\" is not \"$summary\"" ;;
	esac
	# Page down (at most to the third key) until every part was seen.
	while :; do
		missing=""
		has "Evidence" && has "$ev_what" && has "$ev_value" ||
			missing="$missing evidence"
		[ -n "$next" ] && has "Next step" && has "$next" ||
			missing="$missing next-step"
		if [ -n "$fix" ]; then
			has "# $fix" || missing="$missing fix-up"
		else
			has "no fix-up: " || missing="$missing fix-up"
		fi
		[ -z "$missing" ] && break
		[ "$pressed" -ge "$MAX_KEYS" ] && break
		keys "$name" PgDn
		pressed=$((pressed + 1))
		sleep 0.3
		tui_screen "$name" >> "$TUI_TMP/$name.seen"
	done
	if [ -z "$missing" ]; then
		ok "$name: verdict, evidence, next step and fix-up in $pressed key(s)"
	else
		not_ok "$name: after $pressed keys still missing:$missing"
		echo "#   evidence \"$ev_what\" \"$ev_value\", next \"$next\", fix \"$fix\""
		sed 's/^/#   /' "$TUI_TMP/$name.seen"
	fi
	keys "$name" q
	wait_exit "$name" 0
}

oncall demo "--load data/demo/cx6dx-demo.jsonl" --demo
for_each_fixture oncall
tui_summary
