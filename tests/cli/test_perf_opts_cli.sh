#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag bw`/`lat` take the options perftest users type: -F, -S, --tclass,
# -R, -T (with -R), --report-both; an unknown option gets getopt's line and
# one more (not the whole usage) and exit 1, as perftest; a bad value or
# combination exits 1 with one line. The tests stop before any verbs call:
# a fixture host names a device this machine does not have.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
root="$fix/cx6dx-roce-port-down"

# run NAME RC PATTERN ARGS...: rdmadiag ARGS exits RC, stderr matches the
# extended regex PATTERN (- : anything) and has at most MAXLINES (default 2) lines.
run() {
	local name=$1 want=$2 pat=$3 rc=0 lines
	shift 3
	timeout 20 "$bin" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null || rc=$?
	lines=$(wc -l < "$tmp/err")
	if [ "$rc" -eq "$want" ] && { [ "$pat" = - ] || grep -Eq -- "$pat" "$tmp/err"; } &&
		[ "$lines" -le "${MAXLINES:-2}" ]; then
		ok "$name"
	else
		bad "$name: rc=$rc (want $want), $lines lines: $(head -c 400 "$tmp/err")"
	fi
}

run "unknown letter: getopt's line and perftest's, exit 1" 1 \
	"invalid option -- 'j'" bw -j
grep -q "Invalid Command or flag: 'rdmadiag bw --help'" "$tmp/err" &&
	! grep -q "^usage:" "$tmp/err" && ok "unknown option: one pointer, not the usage" ||
	bad "unknown option: $(cat "$tmp/err")"
run "unknown long option on lat, exit 1" 1 "unrecognized option '--frob'" lat --frob
run "a bad value exits 1 (perftest's status)" 1 "-S|sl" bw -S 16 host
run "--tclass out of range" 1 "tclass" bw --tclass 256 host
run "-T without -R: says which option to use" 1 "needs -R; --tclass" bw -T 106 host
run "-R with --loopback" 1 "loopback" bw -R --loopback
run "--help still exits 0" 0 - bw --help
"$bin" bw --help | grep -q -- "-F, --CPU-freq" && "$bin" bw --help | grep -q "no CPU" &&
	ok "--help: -F and why it has nothing to skip" || bad "--help does not explain -F"
"$bin" lat --help | grep -q -- "--report-both" &&
	bad "lat --help lists --report-both (a bandwidth option)" ||
	ok "--report-both is a bandwidth option"

# The line from every guide parses: it fails only at the device, which the
# fixture host has and this machine has not.
MAXLINES=20 run "the guide's line: bw -d mlx5_0 -x 3 -F --report_gbits HOST" 1 \
	"mlx5_0|RDMA device" bw --root "$root" -d mlx5_0 -x 3 -F --report_gbits --timeout 500 192.0.2.99
grep -q "invalid option\|unrecognized" "$tmp/err" && bad "the guide's line: an option was refused" ||
	ok "the guide's line: every option accepted"
MAXLINES=20 run "-R -T -S --tclass --report-both -b parse" 1 "mlx5_0|RDMA device" \
	bw --root "$root" -d mlx5_0 -R -T 106 -S 3 --tclass 96 --report-both -b --timeout 500 192.0.2.99
finish
