#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs inside the lab guest, chrooted into the overlay of the host's root,
# as the last step of the initramfs's /init.  Reads /lab/out/lab.env
# (written by tests/lab/run), runs one scenario (or the fixture recorder)
# with its output in /lab/out/scenario.log, and leaves the verdict in
# /lab/out/result.  Optionally drops to an interactive shell afterwards.

set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=${TERM:-vt100}
export LAB_OUT=/lab/out

# shellcheck source=/dev/null
. "$LAB_OUT/lab.env"
export LAB_SRCDIR LAB_SCENARIO LAB_SCENARIO_FILE RDMADIAG LAB_MODE
# One side of a two-host scenario: the pair's directory (both sides' output
# and the barrier files) is a third share, uncached so that what the other
# guest writes shows at once.
if [ -n "${LAB_ROLE:-}" ]; then
	export LAB_ROLE LAB_PEER_ROLE LAB_PAIR
	mkdir -p "$LAB_PAIR"
	if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none labpair "$LAB_PAIR"; then
		echo "FAIL cannot mount the pair's share" > "$LAB_OUT/result"
		echo "LAB-RESULT: FAIL cannot mount the pair's share"
		exit 0
	fi
fi

# As root, memlock does not limit verbs registration, but perftest and
# rdmadiag may print it: give the guest a known, generous value.
ulimit -l unlimited 2>/dev/null || true
cd /tmp || exit 1

run_scenario() {
	# shellcheck source=lib.sh
	. "$LAB_SRCDIR/lib.sh"
	set -euo pipefail
	lab_log "$LAB_SCENARIO: kernel $(uname -r)"
	# shellcheck source=/dev/null
	. "$LAB_SCENARIO_FILE"
}

# run_to_verdict: run $LAB_SCENARIO_FILE with its log and result in
# $LAB_OUT; prints "LAB-RESULT: verdict" on the console.
run_to_verdict() {
	local rc verdict
	rm -f "$LAB_OUT/result"
	(run_scenario) 2>&1 | tee "$LAB_OUT/scenario.log"
	rc=${PIPESTATUS[0]}
	if [ -s "$LAB_OUT/result" ]; then
		verdict=$(head -n 1 "$LAB_OUT/result")
		case $verdict in
		PASS*) [ "$rc" -eq 0 ] || verdict="FAIL scenario exited $rc after passing" ;;
		esac
	elif [ "$rc" -eq 0 ]; then
		verdict="PASS"
	else
		verdict="FAIL scenario exited $rc (a command failed; see scenario.log)"
	fi
	echo "$verdict" > "$LAB_OUT/result"
	sync
	echo "LAB-RESULT: ${1:+$1: }$verdict"
}

# Between the scenarios of one boot: what a scenario made is taken away
# (the processes it left, every RDMA device, every network interface the
# boot did not have), so the next one starts as on a fresh boot.
# Only scenarios that change nothing else are batched (README.md).
batch_reset() {
	local p d n
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		case " $boot_pids " in *" $p "*) continue ;; esac
		[ "$p" = $$ ] || [ "$p" = "$BASHPID" ] || kill -9 "$p" 2>/dev/null
	done
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] && rdma link delete "${d##*/}" 2>/dev/null
	done
	for n in /sys/class/net/*; do
		n=${n##*/}
		case " $boot_netdevs " in *" $n "*) ;; *) ip link delete "$n" 2>/dev/null ;; esac
	done
	for _ in $(seq 50); do
		compgen -G "/sys/class/infiniband/*" >/dev/null || break
		sleep 0.1
	done
	cd /tmp || exit 1
}

if [ -s "$LAB_OUT/batch.list" ]; then
	# Several scenarios in this boot, one after another, each with its
	# own output directory under the share.
	boot_netdevs=$(cd /sys/class/net && echo *)
	boot_pids=$(cd /proc && echo [0-9]*)
	mapfile -t batch < "$LAB_OUT/batch.list"
	for line in "${batch[@]}"; do
		LAB_SCENARIO=${line%%$'\t'*}
		LAB_SCENARIO_FILE=${line#*$'\t'}
		export LAB_SCENARIO LAB_SCENARIO_FILE
		LAB_OUT=/lab/out/$LAB_SCENARIO
		mkdir -p "$LAB_OUT"
		run_to_verdict "$LAB_SCENARIO"
		batch_reset
	done
	LAB_OUT=/lab/out
elif [ -n "${LAB_SCENARIO_FILE:-}" ]; then
	run_to_verdict
fi

if [ "${LAB_MODE:-}" = shell ]; then
	echo "lab: interactive shell; lib.sh is sourced, 'exit' powers off"
	cat > /tmp/lab-bashrc <<RC
. "$LAB_SRCDIR/lib.sh"
LAB_INTERACTIVE=1
PS1='lab:\w# '
RC
	setsid -c bash --rcfile /tmp/lab-bashrc -i </dev/ttyS0 >/dev/ttyS0 2>&1
fi
exit 0
