# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the tmux-driven console tests. Each test gets a private tmux
# server (its own socket), so nothing else running on the machine is
# touched, and everything it started is gone when it ends.

: "${RDMADIAG_BIN:?set RDMADIAG_BIN to the rdmadiag binary}"
: "${RDMADIAG_SRCDIR:?set RDMADIAG_SRCDIR to the source tree}"
. "$RDMADIAG_SRCDIR/tests/jq-strict.sh"

TUI_SOCK="rdmadiag-tui-$$"
TUI_TMP=$(mktemp -d)
TUI_FAILS=0
TUI_PASSES=0

tmx() { tmux -L "$TUI_SOCK" "$@"; }

tui_cleanup() {
	tmx kill-server 2>/dev/null || true
	rm -rf "$TUI_TMP"
}
trap tui_cleanup EXIT

# tui_start NAME COLS ROWS ARGS...: run rdmadiag in a pane; the wrapper
# shell records the exit status and the tty modes after it ends.
tui_start() {
	name=$1 cols=$2 rows=$3
	shift 3
	printf '%s\n' "$@" > "$TUI_TMP/$name.args"
	cat > "$TUI_TMP/$name.sh" <<EOS
cd "$RDMADIAG_SRCDIR"
# Ctrl-C is for rdmadiag; this shell only records how it ended.
trap 'true' INT
stty -a > "$TUI_TMP/$name.stty-before" 2>&1
"$RDMADIAG_BIN" $* 2> "$TUI_TMP/$name.stderr"
echo "\$?" > "$TUI_TMP/$name.rc"
stty -a > "$TUI_TMP/$name.stty-after" 2>&1
sleep 600
EOS
	tmx new-session -d -s "$name" -x "$cols" -y "$rows" \
		"${TUI_ENV:-} sh $TUI_TMP/$name.sh"
}

tui_screen() { tmx capture-pane -p -t "$1"; }

# The rdmadiag process in a pane (child of the wrapper shell), or nothing.
tui_pid() {
	shell=$(tmx list-panes -t "$1" -F '#{pane_pid}' 2>/dev/null) || return 0
	pgrep -P "$shell" -f "$RDMADIAG_BIN" 2>/dev/null | head -1
}

ok() { TUI_PASSES=$((TUI_PASSES + 1)); echo "ok - $*"; }
not_ok() {
	TUI_FAILS=$((TUI_FAILS + 1))
	echo "not ok - $*"
}

# wait_for NAME TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
	name=$1 text=$2 limit=${3:-5}
	i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		if tui_screen "$name" | grep -qF -- "$text"; then
			ok "$name: shows \"$text\""
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	not_ok "$name: \"$text\" not on the screen after ${limit}s"
	tui_screen "$name" | sed 's/^/#   /'
	return 1
}

# wait_banner NAME [SECONDS]: until the banner (second line) names a
# finding with its key at the right: " k: checklist", or " k" where the
# finding's words need the room.
wait_banner() {
	name=$1 limit=${2:-10}
	i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		if tui_screen "$name" | sed -n 2p |
			grep -qE ' k(: checklist)? *$'; then
			ok "$name: the banner names a finding and its key"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	not_ok "$name: no finding with its key in the banner after ${limit}s"
	tui_screen "$name" | sed 's/^/#   /'
	return 1
}

# gone NAME TEXT [SECONDS]: until the screen no longer shows TEXT.
gone() {
	name=$1 text=$2 limit=${3:-3}
	i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		if ! tui_screen "$name" | grep -qF -- "$text"; then
			ok "$name: \"$text\" gone"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	not_ok "$name: \"$text\" still on the screen after ${limit}s"
	tui_screen "$name" | sed 's/^/#   /'
	return 1
}

# absent NAME TEXT: the screen does not show TEXT (now).
absent() {
	if tui_screen "$1" | grep -qF -- "$2"; then
		not_ok "$1: \"$2\" should not be on the screen"
		tui_screen "$1" | sed 's/^/#   /'
	else
		ok "$1: no \"$2\""
	fi
}

keys() { name=$1; shift; tmx send-keys -t "$name" "$@"; }

# wait_exit NAME RC: the console ended with RC, the process is gone and
# the terminal is back in cooked mode with echo.
wait_exit() {
	name=$1 want=$2
	i=0
	while [ ! -s "$TUI_TMP/$name.stty-after" ] && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rc=$(cat "$TUI_TMP/$name.rc" 2>/dev/null || echo none)
	if [ "$rc" = "$want" ]; then ok "$name: exit status $rc"
	else not_ok "$name: exit status $rc, wanted $want"
		sed 's/^/#   /' "$TUI_TMP/$name.stderr" 2>/dev/null
	fi
	if [ -z "$(tui_pid "$name")" ]; then ok "$name: no process left"
	else not_ok "$name: rdmadiag still running"; fi
	if grep -qE '(^| )-icanon( |$)|(^| )-echo( |$)' \
		"$TUI_TMP/$name.stty-after" 2>/dev/null ||
	   [ ! -s "$TUI_TMP/$name.stty-after" ]; then
		not_ok "$name: terminal left in raw/noecho mode"
	else
		ok "$name: terminal restored (icanon, echo)"
	fi
}

tui_summary() {
	echo "$TUI_PASSES passed, $TUI_FAILS failed"
	[ "$TUI_FAILS" -eq 0 ]
}

# for_each_fixture FN: runs FN NAME CHECK-INPUT CONSOLE-ARGS... for every
# fixture host. A tree (DIR/sys or DIR/tree/sys) is read as a host is, by
# check and the console alike; a saved snapshot (DIR/snapshot.json) is
# loaded by check and played by the console as a recording of one frame:
# one line, numbers untouched (jq would round 2^64-1), with the monotonic
# time a frame needs.
for_each_fixture() {
	_fx_fn=$1
	for _fx_dir in "$RDMADIAG_SRCDIR"/tests/fixtures/*/; do
		_fx_name=$(basename "$_fx_dir")
		if [ -d "$_fx_dir/sys" ]; then
			"$_fx_fn" "$_fx_name" "--root tests/fixtures/$_fx_name" \
				--root "tests/fixtures/$_fx_name"
		elif [ -d "$_fx_dir/tree/sys" ]; then
			"$_fx_fn" "$_fx_name" \
				"--root tests/fixtures/$_fx_name/tree" \
				--root "tests/fixtures/$_fx_name/tree"
		elif [ -f "$_fx_dir/snapshot.json" ]; then
			tr -d '\n' < "$_fx_dir/snapshot.json" |
				sed 's/"monotonic_ns": *null/"monotonic_ns": 1000000000/' \
				> "$TUI_TMP/$_fx_name.jsonl"
			grep -q '"monotonic_ns": *[0-9]' "$TUI_TMP/$_fx_name.jsonl" ||
				sed -i 's/^{/{"monotonic_ns": 1000000000,/' \
					"$TUI_TMP/$_fx_name.jsonl"
			echo >> "$TUI_TMP/$_fx_name.jsonl"
			"$_fx_fn" "$_fx_name" \
				"--load tests/fixtures/$_fx_name/snapshot.json" \
				--replay "$TUI_TMP/$_fx_name.jsonl"
		fi
	done
}
