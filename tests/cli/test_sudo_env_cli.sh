#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Under sudo (SUDO_UID set, the caller's variables kept as with sudo -E),
# the console loads no terminal database the caller chose: neither the
# caller's ~/.terminfo through HOME nor TERMINFO. The database here is
# xterm-256color with a marker written when the console enters its
# screen; after q the marker is on the terminal only if it was loaded.
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
for p in tmux tic infocmp; do
	command -v $p >/dev/null || { echo "SKIP $p is not installed (tmux, ncurses-bin)"; exit 77; }
done
infocmp -x xterm-256color >"$tmp/x.src" 2>/dev/null ||
	{ echo "SKIP no xterm-256color terminfo entry"; exit 77; }
sed -i 's/smcup=[^,]*,/smcup=CALLER-TERMINFO\\E[?1049h,/' "$tmp/x.src"
mkdir -p "$tmp/home/.terminfo" "$tmp/ti"
tic -x -o "$tmp/home/.terminfo" "$tmp/x.src" && tic -x -o "$tmp/ti" "$tmp/x.src" ||
	{ echo "SKIP tic cannot compile the entry"; exit 77; }
sock="rdmadiag-sudo-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# loaded NAME ENV...: 0 when the console, run with ENV, showed the marker.
loaded() {
	local name=$1
	shift
	tmux -L "$sock" new-session -d -s "$name" -x 120 -y 40 \
		"env -u SUDO_UID $* TERM=xterm-256color '$bin' --root '$fix/rxe0-healthy' 2>'$tmp/$name.err'; sleep 30"
	sleep 1.5
	tmux -L "$sock" send-keys -t "$name" q
	sleep 0.5
	tmux -L "$sock" capture-pane -p -t "$name" | grep -q CALLER-TERMINFO
}

loaded own "HOME='$tmp/home'" &&
	ok "without sudo, the user's own ~/.terminfo is used (the marker shows)" ||
	bad "the marker never shows: this test cannot see a loaded database"
loaded sudo_home "SUDO_UID=1000 HOME='$tmp/home'" &&
	bad "under sudo, the caller's ~/.terminfo was loaded" ||
	ok "under sudo, the caller's ~/.terminfo is not loaded"
loaded sudo_ti "SUDO_UID=1000 TERMINFO='$tmp/ti'" &&
	bad "under sudo, TERMINFO was followed" ||
	ok "under sudo, TERMINFO is dropped"
finish
