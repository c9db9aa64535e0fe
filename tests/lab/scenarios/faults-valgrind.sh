# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The console under valgrind's memcheck on a live rxe0, in tmux: it shows
# the port ACTIVE, follows it DOWN and back up, visits every screen, and
# quits.  Any memcheck error (invalid access, uninitialised value, bad
# free) or a definitely/indirectly lost block fails; still-reachable
# memory (ncurses, libnl, libibverbs keep theirs until exit) does not.

lab_require_rdmadiag
command -v valgrind > /dev/null || lab_skip "valgrind not installed on the host"
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L vg "$@"; }

VG_LOG=$LAB_OUT/console-valgrind.log
SUPP=$LAB_SRCDIR/../valgrind/rdmadiag.supp
cat > /tmp/vg-console.sh << EOS
valgrind --error-exitcode=99 --leak-check=full \
	--show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --track-fds=yes \
	--suppressions="$SUPP" --log-file="$VG_LOG" \
	"$RDMADIAG" -d 1 2> "$LAB_OUT/console-valgrind.err"
echo "\$?" > "$LAB_OUT/console-valgrind.rc"
exec sleep 600
EOS
trap 'tm kill-server 2> /dev/null || true' EXIT
TERM=xterm tm new-session -d -s c -x 120 -y 40 "sh /tmp/vg-console.sh"

SCREEN=
port_is() {
	local line
	SCREEN=$(tm capture-pane -p -t c) || SCREEN=
	while IFS= read -r line; do
		if [[ $line == "rxe0/1 "* ]]; then
			read -r -a f <<< "$line"
			[ "${f[2]:-}" = "$1" ]
			return
		fi
	done <<< "$SCREEN"
	return 1
}
not_probing() {
	SCREEN=$(tm capture-pane -p -t c) || return 1
	! printf '%s\n' "$SCREEN" | grep -q "probing [0-9]"
}
screen_has() {
	SCREEN=$(tm capture-pane -p -t c) || SCREEN=
	[[ $SCREEN == *"$1"* ]]
}
# Under memcheck on TCG a refresh costs seconds: generous limits, the
# point here is memory, not latency (faults-soak measures that).
lab_wait 120 "the console under valgrind to show rxe0/1 ACTIVE" port_is ACTIVE
t0=$SECONDS
lab_log "console under valgrind shows rxe0/1 ACTIVE"
ip link set veth0 down
lab_wait 60 "the console to show rxe0/1 DOWN" port_is DOWN
lab_log "console under valgrind shows rxe0/1 DOWN"
ip link set veth0 up
lab_wait 60 "the console to show rxe0/1 ACTIVE again" port_is ACTIVE
lab_log "console under valgrind shows rxe0/1 ACTIVE again"

# Every screen draws from live data at least once.
for key in F3 F4 F5 F6 F7 F1 F2; do
	tm send-keys -t c "$key"
	sleep 2
done
lab_wait 30 "the overview again" screen_has "selected port"
while [ $((SECONDS - t0)) -lt 20 ]; do
	sleep 1
done
printf '%s\n' "$SCREEN" > "$LAB_OUT/console-valgrind-screen.txt"

# Slow refreshing to once a minute (`-`, 1 s doubled six times) and let
# the probe in flight finish, so q meets an idle worker: what is left open
# then is a leak, not a probe interrupted (q during a probe gives the
# worker up after 0.3 s and exits at once, which the soak scenario
# exercises; under memcheck on TCG a probe takes seconds, so without this
# the check would race it).
for _ in 1 2 3 4 5 6; do
	tm send-keys -t c -
	sleep 0.5
done
lab_wait 30 "the console to refresh every 64 s" screen_has "refresh every 64 s"
sleep 15
lab_wait 60 "no probe running before q" not_probing
tm send-keys -t c q
# The leak check at exit takes a while under TCG.
lab_wait 180 "the console to exit after q" test -s "$LAB_OUT/console-valgrind.rc"
rc=$(cat "$LAB_OUT/console-valgrind.rc")
ERR_RE='^==[0-9]+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function|[0-9,]+ (\([0-9,]+ direct, [0-9,]+ indirect\) )?bytes in [0-9,]+ blocks are (definitely|indirectly) lost)'
if [ "$rc" = 99 ] || grep -qE "$ERR_RE" "$VG_LOG"; then
	lab_fail "memcheck errors in the console: $(grep -m 3 -E "$ERR_RE" "$VG_LOG" | tr '\n' ' ') (see console-valgrind.log)"
fi
[ "$rc" = 0 ] || lab_fail "the console under valgrind exited $rc: $(tail -n 3 "$LAB_OUT/console-valgrind.err")"
# Descriptors still open at exit besides the terminal's (valgrind lists
# only those, and its own log): a leak in the probes' caches, which every
# refresh would repeat.
fds=$(grep -E '^==[0-9]+== Open (file descriptor|AF_|socket)' "$VG_LOG" | grep -vF "$VG_LOG" || true)
[ -z "$fds" ] || lab_fail "descriptors open at exit: $(echo "$fds" | head -n 3 | tr '\n' ' ')"
lab_log "valgrind: no memcheck error, no descriptor left open at exit"
tm kill-server 2> /dev/null || true
[ -z "$(pgrep -x rdmadiag || true)" ] || lab_fail "rdmadiag left running"
lab_log "ok: console under memcheck for $((SECONDS - t0)) s on live rxe0: clean"
