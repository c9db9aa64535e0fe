# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A minute of real faults under load.  While `rdmadiag snapshot --json`
# runs in a loop and the console runs in tmux, rxe0 is deleted and
# re-added, its netdev goes down and up, is renamed and renamed back, and
# rdma_rxe is unloaded and loaded again.  After every change the console's
# overview must show the new state within two refreshes plus slack; every
# snapshot run must end by itself with status 0 and valid JSON; at the end
# the console still answers keys, quits cleanly and leaves no process.

lab_require_rdmadiag
command -v python3 > /dev/null || lab_skip "python3 not installed on the host"
lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

SOAK_SECS=${SOAK_SECS:-60}
# The console refreshes every second (its default); a change must show
# within two refreshes, plus slack for a probe run under TCG while the
# snapshot loop (and, under make check-lab -j 2, another guest) competes
# for the same CPUs.  Quiet host: median 1.7 s, slowest 3.1 s.
FOLLOW_LIMIT_MS=${FOLLOW_LIMIT_MS:-8000}

lab_tmux_ready
tm() { TMUX_TMPDIR=/tmp/tmux-lab tmux -L soak "$@"; }

# The pane runs a shell that records how the console ended.
cat > /tmp/soak-console.sh << EOS
"$RDMADIAG" 2> "$LAB_OUT/soak-console.err"
echo "\$?" > "$LAB_OUT/soak-console.rc"
exec sleep 600
EOS
TERM=xterm tm new-session -d -s c -x 120 -y 40 "sh /tmp/soak-console.sh"
pane_shell=$(tm list-panes -t c -F '#{pane_pid}')

# --- the snapshot loop ----------------------------------------------------

S_DIR=$LAB_OUT/soak-snap
mkdir -p "$S_DIR"
(
	i=0
	while [ ! -e "$S_DIR/stop" ]; do
		i=$((i + 1))
		rc=0
		# A run that hangs is a failure too: 124 from timeout.
		timeout -k 5 60 "$RDMADIAG" snapshot --json > "$S_DIR/$i.json" 2> "$S_DIR/$i.err" || rc=$?
		echo "$i $rc" >> "$S_DIR/rc"
	done
) &
sampler=$!
# A failure exits early: the loop must not outlive the scenario (it would
# keep the guest's log pipe open until the time limit).
soak_stop() {
	touch "$S_DIR/stop"
	kill "$sampler" 2> /dev/null || true
	tm kill-server 2> /dev/null || true
}
trap soak_stop EXIT

# --- reading the console's screen ----------------------------------------

SCREEN=
ROW=()
# Capture the pane; ROW = the fields of the rxe0/1 overview row, if any.
look() {
	local line
	SCREEN=$(tm capture-pane -p -t c) || SCREEN=
	ROW=()
	while IFS= read -r line; do
		if [[ $line == "rxe0/1 "* ]]; then
			read -r -a ROW <<< "$line"
			return 0
		fi
	done <<< "$SCREEN"
}

# gone: no rxe0 row, and the overview says there is no device.
gone() {
	look
	[ "${#ROW[@]}" -eq 0 ] && [[ $SCREEN == *"No RDMA devices found."* ]]
}

# shows NETDEV STATE: the rxe0/1 row names NETDEV in state STATE.
shows() {
	look
	[ "${#ROW[@]}" -ge 3 ] && [ "${ROW[1]}" = "$1" ] && [ "${ROW[2]}" = "$2" ]
}

max_follow=0 max_follow_what='' follows=0
# follow WHAT PREDICATE...: the screen satisfies PREDICATE within the limit;
# keeps the slowest time.
follow() {
	local what=$1 t0 ms
	shift
	t0=${EPOCHREALTIME/[.,]/}
	until "$@"; do
		ms=$(((${EPOCHREALTIME/[.,]/} - t0) / 1000))
		if [ "$ms" -gt "$FOLLOW_LIMIT_MS" ]; then
			printf '%s\n' "$SCREEN" > "$LAB_OUT/soak-screen-fail.txt"
			lab_fail "console did not show '$what' within ${FOLLOW_LIMIT_MS} ms" \
				"(row: ${ROW[*]:-none}; screen in soak-screen-fail.txt)"
		fi
		sleep 0.1
	done
	ms=$(((${EPOCHREALTIME/[.,]/} - t0) / 1000))
	follows=$((follows + 1))
	if [ "$ms" -gt "$max_follow" ]; then
		max_follow=$ms max_follow_what=$what
	fi
	lab_log "console shows $what after $ms ms"
}

# --- the faults ------------------------------------------------------------

faults=0
fault() {
	faults=$((faults + 1))
	lab_log "fault $faults: $*"
	"$@"
}

# modprobe -r can find the module busy while a snapshot run holds
# /dev/infiniband/uverbs0 open (rxe cannot disassociate a context): retry.
unload_rxe() {
	local tries=50
	until modprobe -r rdma_rxe 2> "$LAB_OUT/soak-modprobe.err"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || lab_fail "modprobe -r rdma_rxe: $(cat "$LAB_OUT/soak-modprobe.err")"
		sleep 0.2
	done
}

rename_netdev() {
	ip link set "$1" down
	ip link set "$1" name "$2"
}

# Start-up (the first probe opens everything) is not a change to follow.
lab_wait 60 "the console to show rxe0/1 veth0 ACTIVE" shows veth0 ACTIVE
printf '%s\n' "$SCREEN" > "$LAB_OUT/soak-screen-start.txt"

cycle=0 unloads=0
soak_t0=$SECONDS
while [ $((SECONDS - soak_t0)) -lt "$SOAK_SECS" ] || [ "$cycle" -lt 1 ]; do
	cycle=$((cycle + 1))
	lab_log "--- fault cycle $cycle"

	fault rdma link delete rxe0
	follow "no device after rdma link delete" gone
	fault rdma link add rxe0 type rxe netdev veth0
	follow "rxe0/1 ACTIVE after rdma link add" shows veth0 ACTIVE

	fault ip link set veth0 down
	follow "rxe0/1 DOWN after netdev down" shows veth0 DOWN
	fault ip link set veth0 up
	follow "rxe0/1 ACTIVE after netdev up" shows veth0 ACTIVE

	# The rxe device follows its netdev across a rename.
	fault rename_netdev veth0 vethX
	follow "rxe0/1 on vethX, DOWN, after the rename" shows vethX DOWN
	fault ip link set vethX up
	follow "rxe0/1 on vethX ACTIVE" shows vethX ACTIVE
	fault rename_netdev vethX veth0
	follow "rxe0/1 on veth0, DOWN, after renaming back" shows veth0 DOWN
	fault ip link set veth0 up
	follow "rxe0/1 on veth0 ACTIVE again" shows veth0 ACTIVE

	# Unloading the driver with rxe0 still there: the module's exit
	# unregisters the device under the console's feet.
	fault unload_rxe
	unloads=$((unloads + 1))
	follow "no device after rdma_rxe unloaded" gone
	fault modprobe rdma_rxe
	rdma link add rxe0 type rxe netdev veth0
	follow "rxe0/1 ACTIVE after reload and re-add" shows veth0 ACTIVE
done
soak_secs=$((SECONDS - soak_t0))
printf '%s\n' "$SCREEN" > "$LAB_OUT/soak-screen-end.txt"

touch "$S_DIR/stop"
wait "$sampler"

# --- the console still works and quits cleanly -------------------------------

console_pid=$(pgrep -P "$pane_shell" -x rdmadiag || true)
[ -n "$console_pid" ] ||
	lab_fail "the console is gone after the faults: $(cat "$LAB_OUT/soak-console.err" 2> /dev/null)"
tm send-keys -t c '?'
help_shown() {
	look
	[[ $SCREEN == *"Keys on every screen"* ]]
}
lab_wait 10 "the help page after ?" help_shown
tm send-keys -t c q
lab_wait 10 "the console to exit after q" test -s "$LAB_OUT/soak-console.rc"
assert_eq 0 "$(cat "$LAB_OUT/soak-console.rc")" "console exit status after q"
! kill -0 "$console_pid" 2> /dev/null || lab_fail "console process $console_pid still there after q"
[ ! -s "$LAB_OUT/soak-console.err" ] ||
	lab_fail "console wrote to stderr: $(head -n 3 "$LAB_OUT/soak-console.err")"
tm kill-server 2> /dev/null || true
left=$(pgrep -x rdmadiag || true)
[ -z "$left" ] || lab_fail "rdmadiag processes left: $left"
lab_log "ok: console answered ? and q, exited 0, left no process"

# --- every snapshot run ------------------------------------------------------

runs=0 ok=0
while read -r i rc; do
	runs=$((runs + 1))
	[ "$rc" -ne 124 ] || lab_fail "snapshot run $i hung (killed after 60 s)"
	[ "$rc" -lt 128 ] || lab_fail "snapshot run $i died with status $rc: $(tail -n 3 "$S_DIR/$i.err")"
	[ "$rc" -eq 0 ] || lab_fail "snapshot run $i exited $rc: $(tail -n 3 "$S_DIR/$i.err")"
	ok=$((ok + 1))
done < "$S_DIR/rc"
[ "$runs" -ge 10 ] || lab_fail "only $runs snapshot runs overlapped the faults"
# One interpreter for every file: jq per file costs half a second here.
python3 - "$S_DIR" "$runs" << 'PY' || lab_fail "a snapshot run printed invalid JSON (see above)"
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
bad = 0
for i in range(1, n + 1):
    try:
        with open(f"{d}/{i}.json") as f:
            o = json.load(f)
        if not isinstance(o, dict) or "schema_version" not in o:
            raise ValueError("not a snapshot object")
    except Exception as e:
        print(f"snapshot run {i}: {e}")
        bad += 1
sys.exit(1 if bad else 0)
PY
lab_log "ok: $runs snapshot runs, all exited 0 with valid JSON"

lab_log "soak: ${soak_secs}s, $cycle fault cycles, $faults faults injected" \
	"($unloads module unloads), $runs snapshots taken, $follows screen checks;" \
	"slowest screen follow ${max_follow} ms ($max_follow_what)"
