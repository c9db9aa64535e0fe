# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rxe0 in the kernel but no user-space provider for it (the guest's root
# is an overlay: hiding files here leaves the host untouched). libibverbs
# must not list the device and rdmadiag must say why.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
hidden=0
for f in /etc/libibverbs.d/rxe.driver /usr/lib/*/libibverbs/librxe-rdmav*.so; do
	[ -e "$f" ] || continue
	mv "$f" "$f.hidden"
	hidden=$((hidden + 1))
done
[ "$hidden" -gt 0 ] || lab_skip "no rxe provider files found to hide"
[ -z "$(ibv_devices 2>/dev/null | grep -w rxe0)" ] || lab_fail "ibv_devices still lists rxe0"

lab_snapshot noprovider
assert_snap devices.# 1 "sysfs still shows rxe0"
assert_snap devices.rxe0.verbs.opened false
assert_snap devices.rxe0.verbs.listed false "libibverbs does not list rxe0"
assert_json_true "$SNAP" '.devices[] | select(.name == "rxe0") | .verbs.open_error | test("no user-space provider")' \
	"open_error names the missing provider"
assert_snap devices.rxe0.verbs.max_cqe null "no attributes without a provider"
