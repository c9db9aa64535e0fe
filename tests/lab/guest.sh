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

verdict="FAIL no scenario ran"
if [ -n "${LAB_SCENARIO_FILE:-}" ]; then
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
	echo "LAB-RESULT: $verdict"
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
