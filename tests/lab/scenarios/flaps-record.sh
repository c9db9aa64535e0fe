# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A port that flaps on a real kernel, and what rdmadiag keeps of it.
# `ip link set veth0 down/up` three times under rxe0 makes real records
# ("rxe0: set down", "set active"), verbs port events, link_downed and
# carrier counts. The recorder running meanwhile keeps each flap with its
# time; `timeline` tells it; `check --since` warns that the port flapped;
# the console started before the flaps shows its live watch's carrier
# events on the Events screen, and one started after them greets
# with the port and how often it went down (its verbs events are not
# watched: an open context would hold off rxe0's removal). Then: the kernel log under
# kernel.dmesg_restrict=1 for a user without CAP_SYSLOG is an honest
# UNKNOWN; a recorder killed with SIGKILL twenty times while it writes
# leaves a store that opens with every event committed before each kill.

lab_require_rdmadiag
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
store=/tmp/flaps-store
port=/sys/class/infiniband/rxe0/ports/1
ld_file=$port/hw_counters/link_downed
ld0=0
[ -r "$ld_file" ] && lab_read "$ld_file" ld0
lab_read /sys/class/net/veth0/carrier_down_count cd0

# timeline_has FILTER: jq FILTER holds on the store's story.
# (jq 1.6 -e holds on no input: a store not made yet must not pass)
timeline_has() {
	local out
	out=$("$RDMADIAG" timeline --store "$store" --json 2> /dev/null)
	[ -n "$out" ] && jq -e "$1" <<< "$out" > /dev/null 2>&1
}
links() {
	printf '[.[] | select(.kind == "link" and .device == "rxe0" and (.text | startswith("%s (was")))] | length >= %s' "$1" "$2"
}

"$RDMADIAG" record --store "$store" --interval 0.5 2> "$LAB_OUT/record.err" &
rec=$!
lab_wait 60 "the recorder's first interval" timeline_has 'length >= 1'

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L past "$@"; }
screen() { tm capture-pane -p -t "$1"; }
# shows PANE TEXT SECONDS
shows() {
	local i=0 limit=$(($3 * 10))
	while [ $i -lt $limit ]; do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen "$1" > "$LAB_OUT/console-$1.txt"
	lab_fail "console $1 did not show '$2' within $3 s (screen in console-$1.txt)"
}
# The console watching live (no store of its own: the live watch alone).
TERM=xterm tm new-session -d -s live -x 160 -y 50 "$RDMADIAG -d 1 --store /tmp/no-store"
shows live "rxe0/1" 30

for i in 1 2 3; do
	ip link set veth0 down
	lab_wait_port rxe0 DOWN
	lab_wait 60 "down $i in the store" timeline_has "$(links DOWN "$i")"
	ip link set veth0 up
	lab_wait_port rxe0 ACTIVE 20
	lab_wait 60 "up $i in the store" timeline_has "$(links ACTIVE "$i")"
done

# What the kernel counted and logged.
if [ -r "$ld_file" ]; then
	lab_read "$ld_file" ld1
	[ "$ld1" -ge $((ld0 + 3)) ] || lab_fail "link_downed $ld0 -> $ld1: not 3 more"
	lab_log "ok: link_downed $ld0 -> $ld1"
fi
lab_read /sys/class/net/veth0/carrier_down_count cd1
[ "$cd1" -ge $((cd0 + 3)) ] || lab_fail "carrier_down_count $cd0 -> $cd1: not 3 more"
lab_log "ok: carrier_down_count $cd0 -> $cd1"
dmesg > "$LAB_OUT/dmesg.txt" 2>&1 || true
[ "$(grep -c 'rxe0: set down' "$LAB_OUT/dmesg.txt")" -ge 3 ] ||
	lab_fail "fewer than 3 'rxe0: set down' records in the kernel log"
lab_log "ok: the kernel logged 'set down' and 'set active'"

# The live console's Events screen: what its watch saw.
tm send-keys -t live v
shows live "What happened" 10
shows live "carrier  veth0: off (was on)" 10
# Soft-RoCE cannot let go of an open context when it is removed, so its
# verbs events are not watched (an open one would hold off `rdma link
# delete`): the console says so.
shows live "verbs events of rxe0: not watched (an open context would hold off its removal)" 5
# The RDMA netlink monitor came with 6.12: an older kernel's is said.
krel=$(uname -r)
if [ "$(printf '%s\n6.12\n' "${krel%%-*}" | sort -V | head -n 1)" != 6.12 ]; then
	shows live "RDMA netlink monitor: not in this kernel (from 6.12)" 5
fi
screen live > "$LAB_OUT/console-live-events.txt"
tm send-keys -t live q

kill -TERM "$rec"
wait "$rec" || lab_fail "record ended with $? on SIGTERM: $(tail -n 3 "$LAB_OUT/record.err")"
"$RDMADIAG" timeline --store "$store" > "$LAB_OUT/timeline.txt"
"$RDMADIAG" timeline --store "$store" --json > "$LAB_OUT/timeline.json"
assert_json_true "$LAB_OUT/timeline.json" "$(links DOWN 3)" "timeline: three DOWNs of rxe0/1"
assert_json_true "$LAB_OUT/timeline.json" \
	'[.[] | select(.kind == "link" and .device == "rxe0") | .time] | . == sort' \
	"timeline: times in order"
assert_json_true "$LAB_OUT/timeline.json" \
	'[.[] | select(.kind == "kernel" and (.text | test("rxe0: set down")))] | length >= 3' \
	"timeline: the kernel's set down records"
grep -q 'rxe0/1  link  DOWN (was ACTIVE)' "$LAB_OUT/timeline.txt" ||
	lab_fail "timeline text has no 'rxe0/1  link  DOWN (was ACTIVE)'"

"$RDMADIAG" check --store "$store" --since 30m --only port.flaps --json --window 0 \
	> "$LAB_OUT/check-since.json" || true
assert_json "$LAB_OUT/check-since.json" \
	'[.[] | select(.check == "port.flaps" and .device == "rxe0")][0].cause' flapping \
	"check --since: port.flaps"
assert_json_true "$LAB_OUT/check-since.json" \
	'[.[] | select(.check == "port.flaps")][0].summary | test("went down [3-9] times between")' \
	"check --since says how often and between when"

# A console started now: the greeting.
TERM=xterm tm new-session -d -s later -x 160 -y 50 "$RDMADIAG -d 1 --store $store"
shows later "Since you were last here (6 h): rxe0/1 went down" 30
screen later > "$LAB_OUT/console-greeting.txt"
tm send-keys -t later v
shows later "link     veth0: DOWN (was ACTIVE)" 10
shows later "kernel   veth0: infiniband rxe0: set down" 10
# the greeting gone, the banner names the flapping port
shows later "WARN rxe0/1: the port went down" 40
screen later > "$LAB_OUT/console-later-events.txt"
tm send-keys -t later q
sleep 1
tm kill-server 2> /dev/null || true

# The kernel log without CAP_SYSLOG under dmesg_restrict.
if command -v setpriv > /dev/null; then
	sysctl -q -w kernel.dmesg_restrict=1
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RDMADIAG" check --only kernel.events --json --window 0 \
		> "$LAB_OUT/check-restricted.json" 2> "$LAB_OUT/check-restricted.err" || true
	sysctl -q -w kernel.dmesg_restrict=0
	assert_json "$LAB_OUT/check-restricted.json" \
		'[.[] | select(.check == "kernel.events" and .device == "rxe0")][0].verdict' \
		UNKNOWN "kernel.events for a user without CAP_SYSLOG"
	assert_json_true "$LAB_OUT/check-restricted.json" \
		'[.[] | select(.check == "kernel.events")][0].summary | test("needs CAP_SYSLOG")' \
		"it says CAP_SYSLOG is needed"
else
	lab_log "setpriv not installed: the dmesg_restrict part is not run"
fi

# SIGKILL twenty times while the recorder writes (the port flapping
# meanwhile, every 50 ms interval): what was there before each kill is
# there after it, and the store opens.
kstore=/tmp/kill-store
( while :; do ip link set veth1 down; sleep 0.3; ip link set veth1 up; sleep 0.3; done ) &
flapper=$!
prev=0
kstore_has() {
	local out
	out=$("$RDMADIAG" timeline --store "$kstore" --json 2> /dev/null)
	[ -n "$out" ] && jq -e 'length >= 1' <<< "$out" > /dev/null 2>&1
}
for i in $(seq 20); do
	"$RDMADIAG" record --store "$kstore" --interval 0.05 2>> "$LAB_OUT/kill.err" &
	k=$!
	# the first one lives until the store has a row: a slow guest may
	# not have made it yet
	[ "$i" -gt 1 ] || lab_wait 60 "the first recorder's first row" kstore_has
	sleep "0.$((RANDOM % 5 + 3))"
	kill -KILL "$k"
	wait "$k" 2> /dev/null || true
	n=$("$RDMADIAG" timeline --store "$kstore" --json | jq length) ||
		lab_fail "after kill $i the store does not open: $(tail -n 2 "$LAB_OUT/kill.err")"
	[ "$n" -ge "$prev" ] || lab_fail "after kill $i: $n rows, $prev before"
	prev=$n
done
kill "$flapper"
wait "$flapper" 2> /dev/null || true
[ "$prev" -gt 20 ] || lab_fail "only $prev rows after twenty recorders"
lab_log "ok: twenty SIGKILLs, $prev rows kept, the store opens each time"
