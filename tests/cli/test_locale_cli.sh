#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Verdicts do not depend on the locale: under a decimal-comma locale
# (de_DE.UTF-8, generated here with localedef into a scratch LOCPATH) the
# console, which follows the locale for its characters, still reads
# "8.0 GT/s" and "2.5 Gb/sec" from sysfs, and its Overview and `check` say
# what they say under C.UTF-8. The tree is cx6dx-roce-port-down without
# the PCI config files (so the PCIe link comes from current_link_speed's
# text) and with a port rate of "2.5 Gb/sec (1X SDR)".
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
root=$tmp/host
cp -a "$fix/cx6dx-roce-port-down" "$root"
chmod -R u+w "$root"
find "$root/sys/devices" -name config -delete
echo "2.5 Gb/sec (1X SDR)" >"$root/sys/class/infiniband/mlx5_0/ports/1/rate"

command -v localedef >/dev/null ||
	{ echo "SKIP localedef is not installed (Debian package libc-bin)"; exit 77; }
[ -e /usr/share/i18n/locales/de_DE ] ||
	{ echo "SKIP no locale source de_DE (Debian package locales)"; exit 77; }
mkdir "$tmp/loc"
localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" >"$tmp/localedef.out" 2>&1
[ "$(env LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 printf '%.1f' 2.5)" = "2,5" ] ||
	{ echo "SKIP cannot make a decimal-comma locale: $(cat "$tmp/localedef.out")"; exit 77; }
de() { env -u LC_ALL LOCPATH="$tmp/loc" LANG=de_DE.UTF-8 "$@"; }
c() { env -u LC_ALL LANG=C.UTF-8 "$@"; }

c "$bin" check --window 0 --root "$root" >"$tmp/check.c" 2>&1
de "$bin" check --window 0 --root "$root" >"$tmp/check.de" 2>&1
grep -q 'WARN    hw.pcie_link       0000:3b:00.0: PCIe 8.0 GT/s x8' "$tmp/check.de" &&
	grep -q 'port rate: 2.5 Gb/sec (1X SDR)' "$tmp/check.de" &&
	cmp -s "$tmp/check.c" "$tmp/check.de" &&
	ok "check: the same verdicts under de_DE.UTF-8 (PCIe 8.0 GT/s x8 WARN)" ||
	bad "check differs under de_DE.UTF-8: $(diff "$tmp/check.c" "$tmp/check.de" | head -5)"

if ! command -v tmux >/dev/null; then
	echo "skip the console (tmux is not installed)"
	finish
	exit
fi
sock="rdmadiag-locale-$$"
trap "tmux -L $sock kill-server 2>/dev/null; cp -r $tmp /tmp/loctest" EXIT
# console ENV NAME: the Overview screen, once it shows the ports.
console() {
	local env=$1 name=$2 i
	tmux -L "$sock" new-session -d -s "$name" -x 200 -y 60 \
		"env -u LC_ALL $env '$bin' --root '$root' 2>'$tmp/$name.err'; sleep 60"
	for i in $(seq 50); do
		tmux -L "$sock" capture-pane -p -t "$name" >"$tmp/$name.screen"
		grep -q 'PCIe 8' "$tmp/$name.screen" && break
		sleep 0.1
	done
	sleep 1
	tmux -L "$sock" capture-pane -p -t "$name" | sed 's/ *$//' >"$tmp/$name.screen"
	tmux -L "$sock" send-keys -t "$name" q
}
console "LANG=C.UTF-8" cons_c
console "LOCPATH='$tmp/loc' LANG=de_DE.UTF-8" cons_de
grep -q '^mlx5_0/1   eth2      ACTIVE  LINK_UP    2.5G  .*8GTx8/16GTx16' "$tmp/cons_de.screen" &&
	ok "console under de_DE.UTF-8: the rate of 2.5 Gb/sec shows" ||
	bad "console under de_DE.UTF-8: rate: $(grep '^mlx5_0/1' "$tmp/cons_de.screen")"
grep -q 'WARN    0000:3b:00.1: PCIe 8.0 GT/s x8, capable of 16.0 GT/s x16' "$tmp/cons_c.screen" ||
	bad "console (C.UTF-8): no PCIe WARN: $(cat "$tmp/cons_c.screen")"
grep -q 'WARN    0000:3b:00.1: PCIe 8.0 GT/s x8, capable of 16.0 GT/s x16' "$tmp/cons_de.screen" &&
	cmp -s "$tmp/cons_c.screen" "$tmp/cons_de.screen" &&
	ok "console: the same Overview under de_DE.UTF-8 (PCIe 8.0 GT/s x8 WARN, rates)" ||
	bad "console under de_DE.UTF-8: $(diff "$tmp/cons_c.screen" "$tmp/cons_de.screen" | head -12)"
finish
