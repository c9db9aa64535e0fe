#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The .deb in a clean Debian 12 root: install, use, purge, nothing left.
#   tests/pkg/install-test.sh rdmadiag_VERSION_ARCH.deb WORKDIR
# (as root). WORKDIR/base is a minimal bookworm made once with debootstrap
# from the Debian archive (with systemd, man-db and curl) and kept; each
# run copies it to WORKDIR/root, so every run starts clean. In the copy:
# the package's dependencies are installed first and every file listed,
# then the .deb; rdmadiag --version, check --root on a fixture, man
# rdmadiag, systemd-analyze verify on the installed units, the exporter
# started as its unit's ExecStart says and scraped with curl; then
# apt-get purge, and the file list must be the one before the install.
# Each step's duration is printed. Mirror: LAB_DEBIAN_MIRROR, default
# http://deb.debian.org/debian.
set -euo pipefail
deb=$(realpath "$1")
work=$2
src=${RDMADIAG_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
mirror=${LAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chroot, mounts)"; exit 77; }
command -v debootstrap >/dev/null || { echo "FAIL: debootstrap is needed (apt-get install debootstrap)"; exit 1; }
mkdir -p "$work"
work=$(realpath "$work")
root=$work/root
fail=0

step() {	# step NAME CMD...
	local name=$1 t0=$SECONDS
	shift
	echo "== $name"
	if "$@"; then
		echo "== $name: $((SECONDS - t0)) s"
	else
		echo "FAIL $name ($((SECONDS - t0)) s)"
		fail=1
		return 1
	fi
}

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

mounted=()
cleanup() {
	local m
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
	done
	[ -n "${exporter_pid:-}" ] && kill "$exporter_pid" 2>/dev/null || true
}
trap cleanup EXIT

make_base() {
	if [ -x "$work/base/usr/bin/systemd-analyze" ] && [ -x "$work/base/usr/bin/man" ]; then
		echo "reusing $work/base"
		return 0
	fi
	rm -rf "$work/base"
	debootstrap --variant=minbase --include=systemd,man-db,curl,ca-certificates \
		bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log"; return 1; }
}

copy_root() {
	rm -rf "$root"
	cp -a "$work/base" "$root"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	for m in proc sys dev; do
		mount --bind "/$m" "$root/$m"
		mounted+=("$root/$m")
	done
	mkdir -p "$root/tmp/pkg"
	cp "$deb" "$root/tmp/pkg/"
	cp -a "$src/tests/fixtures/cx6dx-roce-port-down" "$root/tmp/pkg/fixture"
}

# Every file and link outside the package manager's own state.
file_list() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev \
		-o -path ./tmp -o -path ./var/lib/dpkg -o -path ./var/lib/apt \
		-o -path ./var/cache -o -path ./var/log -o -path ./run \) -prune \
		-o -print | sort)
}

deps() {
	local d r
	d=$(dpkg-deb -f "$deb" Depends)
	r=$(dpkg-deb -f "$deb" Recommends)
	in_root apt-get update -q >/dev/null
	in_root env DEBIAN_FRONTEND=noninteractive apt-get satisfy -y -q \
		--no-install-recommends "$d, $r" >"$work/deps.log" 2>&1 ||
		{ tail -20 "$work/deps.log"; return 1; }
	file_list >"$work/before"
}

install() {
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "/tmp/pkg/$(basename "$deb")" >"$work/install.log" 2>&1 ||
		{ tail -20 "$work/install.log"; return 1; }
	in_root dpkg -L rdmadiag >"$work/files"
	for f in /usr/bin/rdmadiag /usr/share/man/man8/rdmadiag.8.gz \
		/usr/share/rdmadiag/counters.tsv /usr/share/rdmadiag/demo/cx6dx-demo.jsonl \
		/lib/systemd/system/rdmadiag-exporter.service \
		/lib/systemd/system/rdmadiag-export.timer \
		/lib/systemd/system/rdmadiag-record.service \
		/usr/share/bash-completion/completions/rdmadiag \
		/usr/share/doc/rdmadiag/examples/prometheus/rdmadiag-alerts.yml; do
		grep -qx "$f" "$work/files" || { echo "not installed: $f"; return 1; }
	done
	echo "$(grep -c . "$work/files") paths installed"
}

use() {
	in_root rdmadiag --version | head -3
	local rc=0
	in_root rdmadiag check --root /tmp/pkg/fixture --window 0 >"$work/check.txt" || rc=$?
	[ $rc -eq 2 ] && grep -q "mlx5_1/1 DOWN" "$work/check.txt" ||
		{ echo "check --root: exit $rc"; head "$work/check.txt"; return 1; }
	echo "check --root on a fixture: FAIL for the port that is down (exit 2)"
	in_root man -P cat rdmadiag 2>/dev/null | grep -q "bugreport" ||
		{ echo "man rdmadiag: no page"; return 1; }
	echo "man rdmadiag: the page is there"
	in_root bash -c '. /usr/share/bash-completion/completions/rdmadiag && complete -p rdmadiag' ||
		return 1
}

verify_units() {
	# systemd-analyze verify in the root: the units parse, their
	# ExecStart binary exists, their [Install] targets are known.
	in_root systemd-analyze verify /lib/systemd/system/rdmadiag-export.service \
		/lib/systemd/system/rdmadiag-export.timer \
		/lib/systemd/system/rdmadiag-exporter.service \
		/lib/systemd/system/rdmadiag-record.service 2>&1 |
		tee "$work/verify.log"
	! grep -v "^$" "$work/verify.log" | grep -q .
}

exporter() {
	# systemd is not PID 1 here: run what the unit would (its ExecStart,
	# read from the installed file) in the root, then scrape it.
	local exec
	exec=$(sed -n 's/^ExecStart=//p' "$root/lib/systemd/system/rdmadiag-exporter.service")
	echo "ExecStart=$exec"
	case $exec in /usr/bin/rdmadiag\ export\ --listen\ 127.0.0.1:*) ;; *) return 1 ;; esac
	local port=${exec##*:}
	# shellcheck disable=SC2086 # the unit's command line, word-split as systemd does
	chroot "$root" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 $exec --root /tmp/pkg/fixture &
	exporter_pid=$!	# chroot and env exec: this is the exporter's pid
	for _ in $(seq 50); do
		curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics.txt" 2>/dev/null && break
		sleep 0.2
	done
	kill "$exporter_pid" 2>/dev/null
	wait "$exporter_pid" 2>/dev/null || true
	exporter_pid=
	grep -q '^rdmadiag_port_state{' "$work/metrics.txt" ||
		{ echo "no rdmadiag_port_state in the scrape"; head "$work/metrics.txt"; return 1; }
	echo "scraped $(grep -vc '^#' "$work/metrics.txt") samples from 127.0.0.1:$port"
}

purge() {
	in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q rdmadiag \
		>"$work/purge.log" 2>&1 || { tail -20 "$work/purge.log"; return 1; }
	file_list >"$work/after"
	if ! diff -u "$work/before" "$work/after"; then
		echo "left behind or removed by the purge (above)"
		return 1
	fi
	echo "after the purge the root holds what it held before the install"
}

step "debootstrap bookworm (minbase, systemd, man-db, curl)" make_base
step "copy the clean root" copy_root
step "dependencies (apt-get satisfy)" deps
step "install the .deb" install
step "rdmadiag --version, check --root, man, completion" use || true
step "systemd-analyze verify" verify_units || true
step "the exporter's ExecStart, scraped" exporter || true
step "purge" purge || true
[ $fail -eq 0 ] && echo "PASS: the package installs, works and purges cleanly" ||
	{ echo "FAIL: see above"; exit 1; }
