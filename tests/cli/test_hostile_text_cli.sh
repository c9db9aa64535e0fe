#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Outside text on the text commands: names with shell syntax and terminal
# sequences, a forged second line in an attribute. Nothing invisible
# reaches the terminal and every command printed to copy is quoted.
# Built at test time: git cannot hold these names reliably.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"

# Control bytes other than newline: ESC, C0, DEL, and UTF-8 C1 (0xc2 0x80-0x9f).
has_controls() {
	LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}

h=$tmp/host
mkdir "$h"
cp -a "$fix/cx6dx-roce-port-down/." "$h/"
nd='e$(reboot)'
esc=$'mlx5_\e[2J1'
pci="$h/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.1"
# The DOWN port's netdev gets a name a shell would run.
mv "$pci/net/eth3" "$pci/net/$nd"
rm "$h/sys/class/net/eth3"
ln -s "../../devices/pci0000:3a/0000:3a:00.0/0000:3b:00.1/net/$nd" "$h/sys/class/net/$nd"
for f in "$pci"/infiniband/mlx5_1/ports/1/gid_attrs/ndevs/*; do
	printf '%s\n' "$nd" >"$f"
done
# The other device's firmware forges a PASS line.
fw="$h/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/infiniband/mlx5_0/fw_ver"
printf '1.0\n  PASS    driver.modules     forged\n' >"$fw"

out="$h/out"
"$bin" check --window 0 --root "$h" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] && ok "check: runs, exit 2 (FAIL present)" || bad "check: exit $rc"
grep -qF "fix: ip link set dev '$nd' up" "$out" &&
	ok "check: the netdev is one quoted shell word in the fix" ||
	bad "check: fix line: $(grep 'fix:' "$out")"
grep -q 'forged' "$out" && bad "check: forged line printed" ||
	ok "check: a multi-line fw_ver is refused"
has_controls "$out" && bad "check: control bytes in text output" ||
	ok "check: no control bytes in text"
"$bin" check --window 0 --json --root "$h" >"$out" 2>&1
jq -e --arg c "ip link set dev '$nd' up" '[.[] | select(.fix.command == $c)] | length == 1' \
	"$out" >/dev/null && ok "check --json: valid, command quoted" ||
	bad "check --json: $(head -c 200 "$out")"

# An RDMA device whose name holds a terminal sequence.
mv "$pci/infiniband/mlx5_1" "$pci/infiniband/$esc"
rm "$h/sys/class/infiniband/mlx5_1"
ln -s "../../devices/pci0000:3a/0000:3a:00.0/0000:3b:00.1/infiniband/$esc" "$h/sys/class/infiniband/$esc"
for args in "snapshot" "snapshot -v" "check --window 0" "check --window 0 -v" \
	"check --window 0 --device $esc"; do
	label=${args/$esc/DEV}
	# shellcheck disable=SC2086
	"$bin" $args --root "$h" >"$out" 2>&1
	has_controls "$out" && bad "$label: control bytes in output" ||
		ok "$label: no control bytes"
done
"$bin" check --window 0 --root "$h" >"$out" 2>&1
grep -qF "rdmadiag fix port.state --device \$'mlx5_\\x1b[2J1' --port 1" "$out" &&
	ok "check: the device name in 'rdmadiag fix' is quoted and visible" ||
	bad "check: $(grep 'rdmadiag fix' "$out")"
"$bin" snapshot --root "$h" >"$out" 2>&1
grep -qF 'mlx5_\x1b[2J1 1 ' "$out" && grep -qF "$nd " "$out" &&
	ok "snapshot: a name longer than its column keeps a space before the next" ||
	bad "snapshot columns: $(grep -F 'mlx5_\x1b' "$out")"
"$bin" snapshot --json --root "$h" >"$out" 2>&1
jq -e . "$out" >/dev/null && ok "snapshot --json: valid JSON" || bad "snapshot --json"
# Error messages escape what they quote.
"$bin" snapshot --load "$h/no$esc" >"$out" 2>&1
[ $? -eq 1 ] && ! has_controls "$out" && grep -qF 'nomlx5_\x1b[2J1' "$out" &&
	ok "error message: the path is escaped" || bad "error message: $(cat -v "$out")"

# Input that is not a regular file, or too much of it, is refused quickly.
mkfifo "$h/fifo"
for args in "snapshot --load" "check --load"; do
	# shellcheck disable=SC2086
	timeout 10 "$bin" $args "$h/fifo" >"$out" 2>&1
	rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 0 ] && grep -q 'not a regular file' "$out" &&
		ok "$args FIFO: refused without blocking" || bad "$args FIFO: rc=$rc $(cat "$out")"
done
if command -v script >/dev/null; then
	timeout 10 script -qec "$bin --replay $h/fifo" /dev/null >"$out" 2>&1
	rc=$?
	[ $rc -ne 124 ] && grep -q 'not a regular file' "$out" &&
		[ "$(grep -c . "$out")" -eq 1 ] &&
		ok "--replay FIFO: refused before the console starts, in one line" ||
		bad "--replay FIFO: rc=$rc $(head -c 300 "$out")"
fi
# 50,000 counters on one port: refused at once, in little memory.
{
	printf '{"schema_version":1,"devices":[{"name":"x","ports":[{"port":1,"hw_counters":{'
	seq 1 50000 | sed 's/.*/"c&":&/' | paste -sd,
	printf '}}]}]}\n'
} >"$h/many.json"
start=$(date +%s%N)
"$bin" check --load "$h/many.json" >"$out" 2>&1
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc -eq 3 ] && grep -q 'hw_counters.*more than' "$out" && [ $ms -lt 5000 ] &&
	ok "50,000 counters on a port: refused in ${ms} ms" || bad "many counters: rc=$rc ${ms} ms $(cat "$out")"
if command -v script >/dev/null; then
	tr -d '\n' <"$h/many.json" >"$h/many.jsonl" && echo >>"$h/many.jsonl"
	timeout 10 script -qec "$bin --replay $h/many.jsonl" /dev/null >"$out" 2>&1
	rc=$?
	[ $rc -ne 124 ] && grep -q 'more than' "$out" && [ "$(grep -c . "$out")" -eq 1 ] &&
		ok "--replay of 50,000 counters: refused in one line" ||
		bad "--replay many counters: rc=$rc $(head -c 300 "$out")"
fi
# Numbers out of range and duplicate keys name the JSON path.
printf '{"schema_version":1,"devices":[{"name":"x","ports":[{"port":99999999999}]}]}' >"$h/port.json"
"$bin" snapshot --load "$h/port.json" >"$out" 2>&1
grep -q 'devices\[0\].ports\[0\].port: 99999999999 is out of range' "$out" &&
	ok "port 99999999999: refused with its path" || bad "port: $(cat "$out")"
printf '{"schema_version":1,"time":1e400}' >"$h/inf.json"
"$bin" snapshot --load "$h/inf.json" >"$out" 2>&1
grep -q 'time: number is not finite' "$out" && ok "1e400: refused" || bad "1e400: $(cat "$out")"

finish
