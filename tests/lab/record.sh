# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Guest side of tests/lab/record-fixture (sourced after lib.sh): set the
# port up (or run $LAB_OUT/setup.sh), then copy the real sysfs of the rxe
# device, its uverbs node and its netdev into sys/, and the stock tools'
# view into oracle/, of $LAB_OUT/fixture.tar.

# Built in a plain tmpfs (creating files in the overlay costs a 9p lookup
# each), then copied out in one go.
fix=/run/lab-fixture
rm -rf "$fix" "$LAB_OUT/fixture.tar"
mkdir -p "$fix/sys" "$fix/oracle"

if [ -f "$LAB_OUT/setup.sh" ]; then
	lab_log "setup from $LAB_OUT/setup.sh"
	# shellcheck source=/dev/null
	. "$LAB_OUT/setup.sh"
else
	lab_net_up
	lab_rxe_add
	lab_wait_port "$LAB_RXE" ACTIVE
fi
dev=$LAB_RXE
netdev=$(cat "/sys/class/infiniband/$dev/ports/1/gid_attrs/ndevs/0" 2>/dev/null || echo "$LAB_NETDEV")
skipped=0

# copy_attr SRC DST: one attribute as a regular file; unreadable ones
# (EINVAL for unused GID slots, write-only files) are left out.  Builtins
# only: a fork per file costs seconds over thousands of GID files under TCG.
copy_attr() {
	local v=
	IFS= read -r -d '' v 2>/dev/null < "$1" || true
	if [ -n "$v" ]; then
		printf '%s' "$v" > "$2"
	else
		skipped=$((skipped + 1))
	fi
}

# copy_dir SRC DST: attribute files and subdirectories of a sysfs device
# directory; power/ and the subsystem/device back-links are not the device's.
copy_dir() {
	local src=$1 dst=$2 entry name
	mkdir -p "$dst"
	for entry in "$src"/*; do
		name=${entry##*/}
		[ -L "$entry" ] && continue
		if [ -d "$entry" ]; then
			[ "$name" = power ] && continue
			copy_dir "$entry" "$dst/$name"
		elif [ -f "$entry" ] && [ -r "$entry" ]; then
			copy_attr "$entry" "$dst/$name"
		fi
	done
}

# link_class CLASS NAME: recreate /sys/class/CLASS/NAME's symlink as the
# kernel has it, and copy the directory it resolves to.  Prints that path.
link_class() {
	local link=/sys/class/$1/$2 target real
	target=$(readlink "$link")
	real=$(readlink -f "$link")
	mkdir -p "$fix/sys/class/$1"
	ln -s "$target" "$fix/sys/class/$1/$2"
	echo "${real#/sys/}"
}

rel=$(link_class infiniband "$dev")
copy_dir "/sys/$rel" "$fix/sys/$rel"

for uv in /sys/class/infiniband_verbs/uverbs*; do
	[ "$(cat "$uv/ibdev" 2>/dev/null)" = "$dev" ] || continue
	rel=$(link_class infiniband_verbs "${uv##*/}")
	copy_dir "/sys/$rel" "$fix/sys/$rel"
done
[ -r /sys/class/infiniband_verbs/abi_version ] && copy_attr /sys/class/infiniband_verbs/abi_version "$fix/sys/class/infiniband_verbs/abi_version"

rel=$(link_class net "$netdev")
mkdir -p "$fix/sys/$rel"
for attr in mtu operstate carrier flags address broadcast ifindex iflink type \
	addr_len tx_queue_len carrier_changes speed duplex dev_id dev_port; do
	[ -e "/sys/$rel/$attr" ] && copy_attr "/sys/$rel/$attr" "$fix/sys/$rel/$attr"
done

rdma -j link show > "$fix/oracle/rdma-link.json"
rdma -j statistic show > "$fix/oracle/rdma-statistic.json"
ibv_devinfo -v > "$fix/oracle/ibv_devinfo-v.txt"
ip -j link show "$netdev" > "$fix/oracle/ip-link.json"
{
	echo "kernel: $(uname -r) $(cat /proc/version)"
	echo "device: $dev on $netdev"
} > "$fix/oracle/recorded.txt"

lab_log "recorded $(find "$fix/sys" -type f | wc -l) files," \
	"$(find "$fix/sys" -type l | wc -l) links; $skipped unreadable attributes skipped"
# One file over 9p rather than a thousand.
tar -C "$fix" -cf "$LAB_OUT/fixture.tar" .
