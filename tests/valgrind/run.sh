#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every unit test program and the command line under valgrind's memcheck:
# an invalid read or write, a use of uninitialised memory, a bad free, or a
# definitely or indirectly lost block fails the program.  Still-reachable
# and possibly-lost blocks (ncurses, libnl and libibverbs keep caches for
# the life of the process) are not errors.  One line per program, then
# "N passed, M failed"; the logs stay in $VG_OUT.
#
#   tests/valgrind/run.sh [NAME-PATTERN]     (from the build directory)
#
# Environment: RDMADIAG_BIN (default ./src/rdmadiag), RDMADIAG_SRCDIR (the
# source tree, default: two levels above this script), VALGRIND (default
# valgrind), VG_OUT (logs, default ./tests/valgrind/out).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${RDMADIAG_SRCDIR:-$(cd "$here/../.." && pwd)}
bin=${RDMADIAG_BIN:-./src/rdmadiag}
vg=${VALGRIND:-valgrind}
out=${VG_OUT:-./tests/valgrind/out}
only=${1:-}
fix=$src/tests/fixtures

command -v "$vg" > /dev/null || { echo "FAIL valgrind not found (apt-get install valgrind)"; exit 1; }
[ -x "$bin" ] || { echo "FAIL $bin not built"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

VG_ERR=99
# The start of every memcheck error report.
ERR_RE='^==[0-9]+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function|[0-9,]+ (\([0-9,]+ direct, [0-9,]+ indirect\) )?bytes in [0-9,]+ blocks are (definitely|indirectly) lost)'
# shellcheck disable=SC2054 # commas are option syntax
vg_opts=(--quiet "--error-exitcode=$VG_ERR" --leak-check=full
	--show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect
	--track-origins=yes --child-silent-after-fork=yes
	--suppressions="$here/rdmadiag.supp")
pass=0 fail=0

# vg NAME WANT CMD...: run CMD under memcheck; it passes when valgrind
# found no error and CMD exited WANT (the status it has without valgrind,
# "any" to accept every status below 128).
vg() {
	local name=$1 want=$2 rc=0 log
	shift 2
	[ -z "$only" ] || [[ $name == *$only* ]] || return 0
	log=$out/$(tr -c 'A-Za-z0-9._-' '_' <<< "$name" | sed 's/_*$//').log
	"$vg" "${vg_opts[@]}" --log-file="$log" "$@" > "$log.stdout" 2> "$log.stderr" < /dev/null || rc=$?
	if [ "$rc" -eq "$VG_ERR" ] || grep -qE "$ERR_RE" "$log"; then
		echo "FAIL $name: memcheck errors (see $log)"
		grep -m 8 -E "$ERR_RE" "$log" | sed 's/^/     /'
		fail=$((fail + 1))
	elif [ "$rc" -ge 128 ] || { [ "$want" != any ] && [ "$rc" -ne "$want" ]; }; then
		echo "FAIL $name: exit $rc, expected $want: $(tail -n 2 "$log.stderr" | tr '\n' ' ')"
		fail=$((fail + 1))
	else
		echo "ok   $name"
		pass=$((pass + 1))
	fi
}

# status CMD...: CMD's exit status without valgrind.
status() {
	local rc=0
	"$@" > /dev/null 2>&1 < /dev/null || rc=$?
	echo "$rc"
}

# --- unit test programs --------------------------------------------------

n_unit=0
for t in tests/unit/test_*; do
	{ [ -f "$t" ] && [ -x "$t" ]; } || continue
	case $t in *.o | *.log | *.trs) continue ;; esac
	n_unit=$((n_unit + 1))
	vg "unit $(basename "$t")" 0 "$t"
done
[ "$n_unit" -gt 0 ] || [ -n "$only" ] || {
	echo "FAIL no unit test programs in $PWD/tests/unit (make check TESTS= builds them)"
	fail=$((fail + 1))
}

# --- the command line on every fixture host ------------------------------

for dir in "$fix"/*/; do
	dir=${dir%/}
	[ -d "$dir/sys" ] || continue
	name=$(basename "$dir")
	vg "snapshot --json --root $name" 0 "$bin" snapshot --json --root "$dir"
	vg "snapshot --root $name (text)" 0 "$bin" snapshot --root "$dir"
	want=$(status "$bin" check --window 0 --root "$dir")
	vg "check --window 0 --root $name" "$want" "$bin" check --window 0 --root "$dir"
	vg "check -v --json --window 0 --root $name" "$want" \
		"$bin" check -v --json --window 0 --root "$dir"
	if [ -f "$dir/snapshot.golden.json" ]; then
		vg "snapshot --load $name" 0 "$bin" snapshot --json --load "$dir/snapshot.golden.json"
		want=$(status "$bin" check --load "$dir/snapshot.golden.json")
		vg "check --load $name" "$want" "$bin" check --load "$dir/snapshot.golden.json"
	fi
done

# --- hostile snapshot files: a clean refusal, no memory error ---------------

golden=$fix/cx6dx-roce-port-down/snapshot.golden.json
head -c 700 "$golden" > "$tmp/truncated.json"
printf '\x00\xff{"schema_version": [[[[' > "$tmp/garbage.json"
: > "$tmp/empty.json"
printf '{"schema_version": 1, "devices": [{"name": 7, "ports": {"x": null}}], "netdevs": "no"}' > "$tmp/wrong-types.json"
python3 -c 'print("[" * 100000)' > "$tmp/deep.json" 2> /dev/null || printf '[[[[[[[[' > "$tmp/deep.json"
for f in truncated garbage empty wrong-types deep; do
	vg "snapshot --load $f.json" any "$bin" snapshot --json --load "$tmp/$f.json"
	vg "check --load $f.json" any "$bin" check --load "$tmp/$f.json"
done
vg "snapshot --load (missing file)" any "$bin" snapshot --json --load "$tmp/none.json"

# --- this host, live (netlink, libibverbs, libkmod, libpci) -----------------

vg "snapshot --json (this host)" 0 "$bin" snapshot --json
want=$(status "$bin" check --window 0)
vg "check --window 0 (this host)" "$want" "$bin" check --window 0

# --- the console on a fixture and on the demo recording (needs tmux) -------

# console NAME ARGS...: the console in a private tmux server, every screen
# visited, then q; passes if memcheck is clean and it exits 0.
console() {
	local name=$1 sock="rdmadiag-vg-$$" rc log i
	shift
	[ -z "$only" ] || [[ $name == *$only* ]] || return 0
	log=$out/$(tr -c 'A-Za-z0-9._-' '_' <<< "$name" | sed 's/_*$//').log
	cat > "$tmp/console.sh" << EOS
"$vg" ${vg_opts[*]} --log-file="$log" "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" $* 2> "$log.stderr"
echo "\$?" > "$tmp/console.rc"
EOS
	rm -f "$tmp/console.rc"
	TERM=xterm tmux -L "$sock" new-session -d -x 120 -y 40 "sh $tmp/console.sh"
	sleep 6
	for k in 2 3 4 5 6 7 1 2; do
		tmux -L "$sock" send-keys F$k 2> /dev/null
		sleep 1
	done
	tmux -L "$sock" send-keys Tab '>' '<' r 2> /dev/null
	sleep 2
	tmux -L "$sock" send-keys q 2> /dev/null
	for ((i = 0; i < 300; i++)); do
		[ -s "$tmp/console.rc" ] && break
		sleep 0.1
	done
	tmux -L "$sock" kill-server 2> /dev/null
	rc=$(cat "$tmp/console.rc" 2> /dev/null || echo none)
	if [ "$rc" = "$VG_ERR" ] || grep -qE "$ERR_RE" "$log"; then
		echo "FAIL $name: memcheck errors (see $log)"
		grep -m 8 -E "$ERR_RE" "$log" | sed 's/^/     /'
		fail=$((fail + 1))
	elif [ "$rc" != 0 ]; then
		echo "FAIL $name: exit ${rc} after q: $(tail -n 2 "$log.stderr" 2> /dev/null | tr '\n' ' ')"
		fail=$((fail + 1))
	else
		echo "ok   $name"
		pass=$((pass + 1))
	fi
}

if command -v tmux > /dev/null; then
	console "console --root cx6dx-roce-port-down" --root "$fix/cx6dx-roce-port-down"
	console "console --demo" --demo
else
	echo "skip console runs: tmux not installed"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
