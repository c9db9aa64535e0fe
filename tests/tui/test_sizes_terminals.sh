#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The console on terminals that cannot do everything: one that cannot move
# the cursor is refused with a pointer to the text commands; a non-UTF-8
# locale and --ascii put nothing but ASCII on the screen, boxes included;
# --no-color marks the current tab in reverse video.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

SCREEN_KEYS="o p c d k t g ?"

# refused NAME TERM: exit status 2 and one line naming snapshot and check.
refused() {
	TUI_ENV="TERM=$2" tui_start "$1" 80 24 --demo
	wait_exit "$1" 2
	if grep -q "cannot move the cursor\|not in the terminfo\|TERM is not set" \
		"$TUI_TMP/$1.stderr" &&
	   grep -q "rdmadiag snapshot' or 'rdmadiag check'" "$TUI_TMP/$1.stderr" &&
	   [ "$(wc -l < "$TUI_TMP/$1.stderr")" -eq 1 ]; then
		ok "$1: one line saying why and naming snapshot and check"
	else
		not_ok "$1: the refusal does not say why or what to use"
		sed 's/^/#   /' "$TUI_TMP/$1.stderr"
	fi
	absent "$1" "F10Quit"
}

refused term-dumb dumb
refused term-unknown no-such-terminal

# ascii_only NAME: every screen of the session shows ASCII bytes only.
ascii_only() {
	wait_banner "$1" 10
	for k in $SCREEN_KEYS; do
		keys "$1" "$k"
		sleep 0.5
		if tui_screen "$1" | LC_ALL=C grep -q '[^ -~]'; then
			not_ok "$1: screen $k shows a byte that is not ASCII"
			tui_screen "$1" | LC_ALL=C grep -n '[^ -~]' |
				sed 's/^/#   /'
		else
			ok "$1: screen $k is ASCII"
		fi
	done
	keys "$1" o
	# The selected port's box is drawn with ASCII corners and lines.
	wait_for "$1" "+- selected port -"
	keys "$1" q
}

TUI_ENV="LC_ALL=C LANG=C" tui_start lang-c 100 30 --demo
ascii_only lang-c
TUI_ENV="LC_ALL=C.UTF-8" tui_start ascii 100 30 --demo --ascii
ascii_only ascii

# The control: in a UTF-8 locale the console does draw Unicode boxes.
TUI_ENV="LC_ALL=C.UTF-8" tui_start utf8 100 30 --demo
wait_for utf8 "┌─ selected port"
keys utf8 q

# --no-color: the current tab, and only it, in reverse video.
tui_start mono 120 30 --demo --no-color
wait_banner mono 10
keys mono p
sleep 0.5
title=$(tmx capture-pane -p -e -t mono | head -1)
esc=$(printf '\033')
# Reverse video on (7), maybe colour resets after it, then the tab.
reverse() { grep -qE "$esc\[([0-9]+;)*7m($esc\[[0-9;]*m)* $1 "; }
if printf '%s' "$title" | reverse Port; then
	ok "mono: the current tab is in reverse video"
else
	not_ok "mono: the current tab is not in reverse video"
	printf '%s\n' "$title" | cat -v | sed 's/^/#   /'
fi
if printf '%s' "$title" | reverse Overview; then
	not_ok "mono: another tab is in reverse video too"
else
	ok "mono: no other tab in reverse video"
fi
keys mono q

# Too small: each fact whole, on a line of its own when one is too narrow.
tui_start tiny 30 10 --demo
wait_for tiny "terminal too small: 30x10"
wait_for tiny "need 60x16"
keys tiny q
wait_exit tiny 0

tmx kill-server 2>/dev/null || true
sleep 0.3
tui_summary
