#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside a container the container comes first: with no RDMA device passed
# in, check --nhc names host.container, no fix-up is offered, and `fix`
# refuses to change the host's kernel from the container's namespace.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"

# A pod: sysfs with no RDMA device, a kubepods cgroup, /dev without
# /dev/infiniband.
pod="$tmp/pod"
mkdir -p "$pod/sys/class/infiniband" "$pod/sys/module/ib_core" "$pod/proc/1" "$pod/dev"
printf '0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-1.scope\n' >"$pod/proc/1/cgroup"

out=$("$bin" check --nhc --window 0 --root "$pod")
rc=$?
case $out in
"ERROR: "*"; host.container in a kubernetes container"*)
	[ $rc -eq 1 ] && ok "check --nhc: the container first" ||
		bad "check --nhc exit $rc: $out" ;;
*) bad "check --nhc: $out" ;;
esac
n=$("$bin" check --json --window 0 --root "$pod" | jq '[.[] | select(.fix != null)] | length')
[ "$n" = 0 ] && ok "no fix-up offered in a container" || bad "$n fix-ups offered in a container"
out=$("$bin" check --window 0 --root "$pod")
grep -q 'modprobe' <<<"$out" &&
	bad "check text proposes modprobe in a container" || ok "check text proposes no modprobe"

out=$("$bin" fix driver.modules --yes --root "$pod" </dev/null 2>"$tmp/err")
rc=$?
if [ $rc -eq 2 ] && grep -q 'not applied: inside a kubernetes container' "$tmp/err"; then
	ok "fix refuses inside a container"
else
	bad "fix in a container: rc=$rc $(head -c 300 "$tmp/err") $out"
fi

# The same tree outside a container: the module fix-up is offered.
printf '0::/init.scope\n' >"$pod/proc/1/cgroup"
out=$("$bin" check --window 0 --root "$pod")
[ "$(grep -c 'fix: modprobe ib_uverbs' <<<"$out")" = 2 ] &&
	ok "on the host: modprobe ib_uverbs from both checks" ||
	bad "on the host: $(grep 'fix:' <<<"$out")"
finish
