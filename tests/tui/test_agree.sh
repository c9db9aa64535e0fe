#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console and `check` give the same verdicts on every fixture host:
# every result `check --json` gives (verdict, target, check title) is a
# row of the console's Checks screen, and the screen has no other row.
# Fixture trees are read as a host is; a saved snapshot is played as a
# recording of one frame (and loaded by check).
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

# check's results as "VERDICT|TARGET|TITLE", sorted.
from_check() {
	jq -r '
	def target: if .device and .port then "\(.device)/\(.port)"
		elif .device then .device elif .netdev then .netdev
		else "host" end;
	.[] | "\(.verdict)|\(target)|\(.title)"' "$1" | sort
}

# The Checks screen's rows the same way: columns VERDICT, TARGET, CHECK
# start where the heading's words start.
from_screen() {
	awk '
	/^VERDICT +TARGET +CHECK +SUMMARY/ {
		t = index($0, "TARGET"); c = index($0, "CHECK");
		s = index($0, "SUMMARY"); on = 1; next }
	on && /^(PASS|WARN|FAIL|UNKNOWN) / {
		v = $1; tg = substr($0, t, c - t); ti = substr($0, c, s - c)
		sub(/ +$/, "", tg); sub(/ +$/, "", ti)
		print v "|" tg "|" ti }' "$1" | sort
}

agree() {
	name=$1 input=$2
	shift 2
	(cd "$RDMADIAG_SRCDIR" && "$RDMADIAG_BIN" check --json $input) \
		> "$TUI_TMP/$name.json" 2>/dev/null
	from_check "$TUI_TMP/$name.json" > "$TUI_TMP/$name.check"
	if [ ! -s "$TUI_TMP/$name.check" ]; then
		not_ok "$name: check gave no results"
		return 0
	fi
	tui_start "$name" 200 400 "$@"
	wait_for "$name" "Overview" 10 >/dev/null
	keys "$name" F6
	wait_for "$name" " checks: " 10 >/dev/null || {
		not_ok "$name: the console shows no checklist"
		tmx kill-session -t "$name"
		return 0
	}
	# Two refreshes: the counters have a history, as check's window.
	sleep 2.5
	tui_screen "$name" > "$TUI_TMP/$name.screen"
	from_screen "$TUI_TMP/$name.screen" > "$TUI_TMP/$name.console"
	if cmp -s "$TUI_TMP/$name.check" "$TUI_TMP/$name.console"; then
		ok "$name: $(wc -l < "$TUI_TMP/$name.check") verdicts agree"
	else
		not_ok "$name: console and check differ (< check, > console)"
		diff "$TUI_TMP/$name.check" "$TUI_TMP/$name.console" |
			grep '^[<>]' | sed 's/^/#   /'
	fi
	keys "$name" q
	wait_exit "$name" 0 >/dev/null
}

agree demo "--load data/demo/cx6dx-demo.jsonl --frame 1" --replay \
	"$RDMADIAG_SRCDIR/data/demo/cx6dx-demo.jsonl" -d 3600
for_each_fixture agree
tui_summary
