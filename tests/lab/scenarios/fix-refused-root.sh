# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A fix-up is computed only from a live reading of this host: with a
# fixture root (--root, --sysfs-root, RDMADIAG_SYSFS_ROOT) fix prints the
# command as a dry run and the live interface keeps its MTU; a live
# request for more huge pages than memory is refused by the kernel check.

FIXTURE=$LAB_SRCDIR/../fixtures/rxe0-healthy

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_read /proc/sys/vm/nr_hugepages huge0

# fix_refused NAME ARGS...: fix must exit 2, say "dry run", change nothing.
fix_refused() {
	local name=$1 rc=0 mtu huge
	shift
	"$RDMADIAG" fix "$@" --yes > "$LAB_OUT/$name.out" 2>&1 || rc=$?
	assert_eq 2 "$rc" "$name: exit status ($(tail -n 1 "$LAB_OUT/$name.out"))"
	lab_read /sys/class/net/veth0/mtu mtu
	assert_eq 1500 "$mtu" "$name: live veth0 MTU"
	lab_read /proc/sys/vm/nr_hugepages huge
	assert_eq "$huge0" "$huge" "$name: live vm.nr_hugepages"
}

fix_refused root port.mtu --root "$FIXTURE"
grep -q "^dry run, not applied: the reading comes from redirected roots" "$LAB_OUT/root.out" ||
	lab_fail "no dry-run line: $(cat "$LAB_OUT/root.out")"
grep -q "command: ip link set dev veth0 mtu 9000" "$LAB_OUT/root.out" ||
	lab_fail "the dry run does not show the command"
fix_refused sysfs-root port.mtu --sysfs-root "$FIXTURE/sys"
RDMADIAG_SYSFS_ROOT=$FIXTURE/sys fix_refused env-root port.mtu
# A fixture whose meminfo claims 4000000000 huge pages: its fix-up (more
# than any host has) is shown, never written to the live sysctl.
HUGE=$(mktemp -d)
cp -a "$FIXTURE/." "$HUGE/"
mkdir -p "$HUGE/proc"
sed 's/^HugePages_Total:.*/HugePages_Total: 4000000000/' /proc/meminfo > "$HUGE/proc/meminfo"
fix_refused huge-root host.hugepages --hugepages 4000000001 --root "$HUGE"
grep -q "^dry run, not applied: the reading comes from redirected roots" "$LAB_OUT/huge-root.out" ||
	lab_fail "huge-root: no dry run: $(cat "$LAB_OUT/huge-root.out")"
grep -q "command: sysctl -w vm.nr_hugepages=[0-9]*" "$LAB_OUT/huge-root.out" ||
	lab_fail "huge-root: the dry run does not show the command"
rm -rf "$HUGE"

# Live, but more huge pages than the host has memory for.
fix_refused huge-live host.hugepages --hugepages 4000000000
grep -q "more than the .* kB of memory" "$LAB_OUT/huge-live.out" ||
	lab_fail "no memory bound in: $(cat "$LAB_OUT/huge-live.out")"
[ ! -e /var/lib/rdmadiag/journal.jsonl ] ||
	! grep -q '"type":"result","id":[^}]*"ok"' /var/lib/rdmadiag/journal.jsonl ||
	lab_fail "a refused fix left a change in the journal"

# The same live fix-up without an override goes through.
"$RDMADIAG" fix port.mtu --device rxe0 --port 1 --yes > "$LAB_OUT/live.out" 2>&1 ||
	lab_fail "live fix failed: $(tail -n 3 "$LAB_OUT/live.out")"
lab_read /sys/class/net/veth0/mtu mtu
assert_eq 9000 "$mtu" "live fix: veth0 MTU"
cp /var/lib/rdmadiag/journal.jsonl "$LAB_OUT/"
