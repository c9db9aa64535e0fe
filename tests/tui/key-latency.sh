#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Key -> redrawn screen while a probe is blocked: the console runs with the
# test-only slow probe (every snapshot waits 2 s in the kernel), and each
# key must still be answered within 50 ms at the 99th percentile (on a
# machine too loaded to judge that, or a sanitizer build, see below).
# Measured end to end through tmux: from the key sent by a control-mode
# client to the output after which the screen shows the new screen, so
# the figures include tmux's own cost. Then q must end the console
# promptly although a probe is still blocked.
#   LATENCY_KEYS  keys to time (default 100)
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"
: "${RDMADIAG_TEST_BIN:?set RDMADIAG_TEST_BIN to tests/tui/rdmadiag-test}"
[ -x "$RDMADIAG_TEST_BIN" ] || { echo "$RDMADIAG_TEST_BIN not built"; exit 1; }
RDMADIAG_BIN=$RDMADIAG_TEST_BIN
n=${LATENCY_KEYS:-100}
limit_ms=50
delay_ms=2000

now_us() { local t=${EPOCHREALTIME/./}; echo "$t"; }

TUI_ENV="RDMADIAG_TEST_PROBE_DELAY_MS=$delay_ms" \
	tui_start slow 100 30 --root tests/fixtures/cx6dx-roce-port-down
wait_for slow "mlx5_1/1" 10
# The title names a probe that has been blocked for a second or more.
wait_for slow "probing" 5

# A trivial program beside it, for comparison: it reads a key in raw
# mode and writes it back, so its figures are what tmux and this
# machine's scheduler cost any program. It runs in a window of the same
# session, its keys interleaved with the console's.
tmx new-window -d -t slow:1 "bash -c 'stty raw -echo;
	while IFS= read -r -n 1 c; do printf \"<%s>\" \"\$c\"; done'"
echo_pane=$(tmx display-message -p -t slow:1 '#{pane_id}')
con_pane=$(tmx display-message -p -t slow:0 '#{pane_id}')

# A control-mode client reports the panes' output as it happens
# (%output lines), so the time a redraw reaches the terminal is read as an
# event instead of by polling the screen.
coproc CTL { tmx -C attach -t slow 2>&1; }
ctl_in=${CTL[1]} ctl_out=${CTL[0]}
trap 'kill "${CTL_PID:-}" 2>/dev/null; tui_cleanup' EXIT

# time_key PANE KEY WANT: milliseconds from KEY sent to PANE until the
# output of PANE after which its screen shows WANT, and 1 if that screen
# shows a probe blocked ("probing N s" in the title), else 0; empty after
# 3 s. The time is that output's arrival: the screen is read only when no
# more output is waiting, and its reading is not counted.
time_key() {
	local pane=$1 key=$2 want=$3 t0 t1 line screen busy
	while read -r -t 0.01 line <&"$ctl_out"; do :; done
	t0=$(now_us)
	printf 'send-keys -t %s %s\n' "$pane" "$key" >&"$ctl_in"
	while read -r -t 3 line <&"$ctl_out"; do
		[[ $line == "%output $pane "* ]] || continue
		t1=$(now_us)
		[[ $line == *"$want"* ]] || ! read -r -t 0 <&"$ctl_out" ||
			continue
		screen=$(tmx capture-pane -p -t "$pane")
		if [[ $screen == *"$want"* ]]; then
			[[ $screen == *probing* ]] && busy=1 || busy=0
			echo "$(((t1 - t0) / 1000)) $busy"
			return
		fi
	done
}

# p50 p99 max of the numbers on stdin.
percentiles() {
	sort -n | awk '{ v[NR] = $1 }
		END {
			i50 = int(NR * 0.50 + 0.999); i99 = int(NR * 0.99 + 0.999)
			print v[i50], v[i99], v[NR]
		}'
}

samples=()
base=()
echo_ok=1
blocked=0
timeouts=0
for ((i = 0; i < n; i++)); do
	# Spread the keys over several probes of 2 s.
	sleep 0.05
	if ((i % 2 == 0)); then key=p want="Port-down"
	else key=o want="nd/act"; fi
	read -r ms busy < <(time_key "$con_pane" "$key" "$want")
	if [ -n "$ms" ]; then
		samples+=("$ms")
		blocked=$((blocked + busy))
	else
		timeouts=$((timeouts + 1))
	fi
	mark=$(printf "\\$(printf '%03o' $((97 + i % 26)))")
	((echo_ok)) || continue
	read -r ms busy < <(time_key "$echo_pane" "$mark" "<$mark>")
	if [ -n "$ms" ]; then base+=("$ms"); else echo_ok=0; fi
done
printf 'detach-client\n' >&"$ctl_in" 2>/dev/null
tmx kill-window -t slow:1

if ((timeouts)); then
	not_ok "slow: $timeouts of $n keys not answered within 3 s"
fi
if ((${#samples[@]} && ${#base[@]})); then
	read -r p50 p99 max < <(printf '%s\n' "${samples[@]}" | percentiles)
	read -r b50 b99 bmax < <(printf '%s\n' "${base[@]}" | percentiles)
	echo "# key -> redraw while a probe blocks ${delay_ms} ms:" \
		"p50 ${p50} ms, p99 ${p99} ms, max ${max} ms" \
		"(${#samples[@]} keys, ${blocked} with the blocked probe on screen)"
	echo "# the same through tmux for a program that only echoes a key:" \
		"p50 ${b50} ms, p99 ${b99} ms, max ${bmax} ms (${#base[@]} keys)"
	# The target is 50 ms at p99. On a machine so loaded that a program
	# which only echoes a key needs more than half of that, the tail is
	# the machine's: then the median must meet the target and no key may
	# wait half a probe (a console that waited for its probe would fail
	# both), and the p99 is reported, not judged.
	# A build under ASan/UBSan is judged the same way: its figures are the
	# instrumentation's as much as the console's.
	instrumented=0
	nm "$RDMADIAG_TEST_BIN" 2>/dev/null | grep -q '__asan_init\|__ubsan_' &&
		instrumented=1
	if ((b99 * 2 <= limit_ms && !instrumented)); then
		if ((p99 <= limit_ms)); then
			ok "slow: p99 ${p99} ms <= ${limit_ms} ms"
		else
			not_ok "slow: p99 ${p99} ms > ${limit_ms} ms"
		fi
	else
		((instrumented)) && why="sanitizer build" || why="loaded machine"
		echo "# ${why}: p99 not judged;" \
			"p50 <= ${limit_ms} ms and max < $((delay_ms / 2)) ms instead"
		if ((p50 <= limit_ms && max < delay_ms / 2)); then
			ok "slow: p50 ${p50} ms, max ${max} ms"
		else
			not_ok "slow: p50 ${p50} ms, max ${max} ms"
		fi
	fi
	# The probe really was blocked while keys were answered.
	if ((blocked * 4 >= ${#samples[@]})); then
		ok "slow: the blocked probe was on screen for $blocked keys"
	else
		not_ok "slow: the probe was seen blocked for only $blocked keys"
	fi
else
	not_ok "slow: no key was answered"
fi

# q while the probe is blocked: the console ends within a second.
wait_for slow "probing" 5
t0=$(now_us)
keys slow q
while [ ! -s "$TUI_TMP/slow.rc" ] && (( $(now_us) - t0 < 5000000 )); do
	sleep 0.01
done
quit_ms=$(( ($(now_us) - t0) / 1000 ))
echo "# q -> exit with a probe blocked: ${quit_ms} ms"
if ((quit_ms < 1000)); then ok "slow: q ended the console in ${quit_ms} ms"
else not_ok "slow: q took ${quit_ms} ms"; fi
wait_exit slow 0

tui_summary
