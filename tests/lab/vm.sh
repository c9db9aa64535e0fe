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
		-append "console=ttyS0 quiet panic=-1"
		-virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$outdir,mount_tag=labout,security_model=none"
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
