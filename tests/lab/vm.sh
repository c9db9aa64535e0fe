# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Host-side functions shared by tests/lab/run and tests/lab/record-fixture:
# boot the lab guest once for one job.  Sourced, not executed.
#
# Environment:
#   LAB_TIMEOUT  seconds one guest may run before it is killed (default 150)
#   LAB_MEM      guest memory in MiB (default 2048)
#   LAB_SMP      guest CPUs (default 2)

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "$lab_dir/../.." && pwd)
top_builddir=${LAB_TOP_BUILDDIR:-$top_srcdir}
export LAB_TOP_BUILDDIR=$top_builddir
: "${LAB_CACHE:=$top_builddir/tests/lab/.cache}"
export LAB_CACHE
: "${RDMADIAG:=$top_builddir/src/rdmadiag}"
case $RDMADIAG in
/*) ;;
*) RDMADIAG=$PWD/$RDMADIAG ;;
esac
export RDMADIAG

lab_kernel_dir=
# Set (as locals) by a caller of lab_boot for one guest: more lab.env lines
# (NAME=VALUE), more qemu arguments and more words of the kernel command
# line.
lab_boot_env=()
lab_boot_qemu=()
lab_boot_append=

# lab_scenario_qemu FILE: set lab_boot_qemu and lab_boot_append from the
# scenario's header lines "# lab: qemu ARGS..." (whitespace-separated
# qemu arguments) and "# lab: append WORDS..." (kernel command line).
lab_scenario_qemu() {
	local line words
	[ -f "$1" ] || return 0
	while IFS= read -r line; do
		case $line in
		"# lab: qemu "*)
			read -r -a words <<< "${line#\# lab: qemu }"
			lab_boot_qemu+=("${words[@]}")
			;;
		"# lab: append "*) lab_boot_append+=" ${line#\# lab: append }" ;;
		"" | "#"*) ;;
		*) break ;;
		esac
	done < "$1"
}

# Prepare (or reuse) the kernel and initramfs; sets lab_kernel_dir.
lab_prepare() {
	lab_kernel_dir=$("$lab_dir/prepare") || {
		echo "lab: preparing the kernel and initramfs failed" >&2
		return 1
	}
}

# Quote a value for lab.env, which both busybox sh and bash source.
lab_env_line() {
	local q="'\\''"
	printf "%s='%s'\n" "$1" "${2//\'/$q}"
}

# lab_boot OUTDIR MODE NAME [SCRIPT]
#   MODE: batch (console to OUTDIR/console.log), verbose (also streamed to
#   stdout) or shell (interactive, console on this terminal, no timeout).
#   SCRIPT: file the guest sources after lib.sh (empty: none, shell only).
# Returns qemu's exit status (124 when the time limit killed it).
lab_boot() {
	local outdir=$1 mode=$2 name=$3 script=${4:-}
	local guest_mode=batch
	[ "$mode" = shell ] && guest_mode=shell
	mkdir -p "$outdir"
	{
		lab_env_line LAB_SRCDIR "$lab_dir"
		lab_env_line LAB_SCENARIO "$name"
		lab_env_line LAB_SCENARIO_FILE "$script"
		lab_env_line RDMADIAG "$RDMADIAG"
		lab_env_line LAB_MODE "$guest_mode"
		local kv
		for kv in "${lab_boot_env[@]}"; do
			lab_env_line "${kv%%=*}" "${kv#*=}"
		done
	} > "$outdir/lab.env"

	local kernel=$lab_kernel_dir/vmlinuz
	[ -f "$lab_kernel_dir/vmlinux" ] && kernel=$lab_kernel_dir/vmlinux
	# shellcheck disable=SC2054 # commas are qemu option syntax
	local -a qemu=(
		qemu-system-x86_64
		-accel tcg,thread=multi
		-m "${LAB_MEM:-2048}" -smp "${LAB_SMP:-2}"
		-nodefaults -no-user-config -display none -monitor none
		-no-reboot -nic none
		-kernel "$kernel"
		-initrd "$lab_kernel_dir/initrd.img"
		-append "console=ttyS0 quiet panic=-1${lab_boot_append}"
		-virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$outdir,mount_tag=labout,security_model=none"
		"${lab_boot_qemu[@]}"
	)
	case $mode in
	batch)
		qemu+=(-chardev "file,id=con,path=$outdir/console.log" -serial chardev:con)
		timeout -k 10 "${LAB_TIMEOUT:-150}" "${qemu[@]}" </dev/null >"$outdir/qemu.log" 2>&1
		;;
	verbose)
		qemu+=(-chardev "stdio,id=con,signal=off,logfile=$outdir/console.log" -serial chardev:con)
		timeout -k 10 "${LAB_TIMEOUT:-150}" "${qemu[@]}" </dev/null 2>"$outdir/qemu.log"
		;;
	shell)
		qemu+=(-chardev "stdio,id=con,signal=off,logfile=$outdir/console.log" -serial chardev:con)
		"${qemu[@]}" 2>"$outdir/qemu.log"
		;;
	*)
		echo "lab: unknown boot mode $mode" >&2
		return 2
		;;
	esac
}

# Print the guest's verdict for OUTDIR: the result file, else the marker on
# the console, else a description of how the guest died.
lab_verdict() {
	local outdir=$1 qemu_rc=$2 line
	if [ -s "$outdir/result" ]; then
		head -n 1 "$outdir/result"
		return
	fi
	line=$(grep -a '^LAB-RESULT: ' "$outdir/console.log" 2>/dev/null | tail -n 1 | tr -d '\r')
	if [ -n "$line" ]; then
		echo "${line#LAB-RESULT: }"
	elif [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
		echo "FAIL guest timed out after ${LAB_TIMEOUT:-150}s"
	else
		echo "FAIL guest gave no result (qemu exit $qemu_rc)"
	fi
}

# lab_free_udp_port: a UDP port on 127.0.0.1 that nothing is bound to now.
lab_free_udp_port() {
	local port tries=0
	while [ "$tries" -lt 50 ]; do
		port=$((20000 + RANDOM % 40000))
		if [ -z "$(ss -Hlun "sport = :$port" 2>/dev/null)" ]; then
			echo "$port"
			return 0
		fi
		tries=$((tries + 1))
	done
	echo "lab: no free UDP port found on 127.0.0.1" >&2
	return 1
}

# lab_boot_pair OUTDIR MODE NAME DIR: boot the two guests of a two-host
# scenario at once, DIR/a.sh in guest "a" and DIR/b.sh in guest "b", each
# with one virtio NIC on a segment of their own: two QEMU "dgram" netdevs
# sending UDP to each other on 127.0.0.1 (no bridge, no host networking).
# Each guest writes to OUTDIR/a or OUTDIR/b; both also mount OUTDIR itself
# (the barrier files and each other's output).  Returns 0, or 124 when a
# guest was killed by the time limit, else the first non-zero qemu exit.
lab_boot_pair() {
	local outdir=$1 mode=$2 name=$3 dir=$4 pa pb rc_a=0 rc_b=0 pid_a pid_b
	# Two consoles cannot share one terminal readably: always batch.
	mode="batch"
	mkdir -p "$outdir"
	pa=$(lab_free_udp_port) || return 1
	pb=$(lab_free_udp_port) || return 1
	while [ "$pb" = "$pa" ]; do pb=$(lab_free_udp_port) || return 1; done
	lab_boot_side "$outdir" "$mode" "$name" "$dir" a "$pa" "$pb" &
	pid_a=$!
	lab_boot_side "$outdir" "$mode" "$name" "$dir" b "$pb" "$pa" &
	pid_b=$!
	wait "$pid_a" || rc_a=$?
	wait "$pid_b" || rc_b=$?
	if [ "$rc_a" -eq 124 ] || [ "$rc_b" -eq 124 ]; then
		return 124
	fi
	[ "$rc_a" -eq 0 ] || return "$rc_a"
	return "$rc_b"
}

# lab_boot_side OUTDIR MODE NAME DIR ROLE LOCAL_PORT REMOTE_PORT
lab_boot_side() {
	local outdir=$1 mode=$2 name=$3 dir=$4 role=$5 lport=$6 rport=$7 peer=b n=1
	[ "$role" = b ] && peer=a n=2
	local -a lab_boot_env=(
		"LAB_ROLE=$role"
		"LAB_PEER_ROLE=$peer"
		"LAB_PAIR=/lab/pair"
	)
	# shellcheck disable=SC2054 # commas are qemu option syntax
	local -a lab_boot_qemu=(
		-netdev "dgram,id=seg,local.type=inet,local.host=127.0.0.1,local.port=$lport,remote.type=inet,remote.host=127.0.0.1,remote.port=$rport"
		-device "virtio-net-pci,netdev=seg,mac=52:54:00:00:02:0$n,romfile="
		-virtfs "local,path=$outdir,mount_tag=labpair,security_model=none"
	)
	lab_boot "$outdir/$role" "$mode" "$name" "$dir/$role.sh"
}

# lab_verdict_pair OUTDIR QEMU_RC: one verdict for both guests: PASS when
# both passed, SKIP when one skipped and neither failed, else the failures.
lab_verdict_pair() {
	local outdir=$1 qemu_rc=$2 va vb
	va=$(lab_verdict "$outdir/a" "$qemu_rc")
	vb=$(lab_verdict "$outdir/b" "$qemu_rc")
	case "$va|$vb" in
	PASS*"|"PASS*) echo "PASS" ;;
	FAIL* | *"|"FAIL*)
		local msg=
		case $va in FAIL*) msg="a: ${va#FAIL }" ;; esac
		case $vb in FAIL*) msg="${msg:+$msg; }b: ${vb#FAIL }" ;; esac
		echo "FAIL $msg"
		;;
	SKIP*) echo "SKIP a: ${va#SKIP }" ;;
	*) echo "SKIP b: ${vb#SKIP }" ;;
	esac
}
