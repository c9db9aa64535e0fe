# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# `rdmadiag env` on a real rxe port: the GID index it prints is the port's
# first RoCE v2 GID with an IPv4 address (read from sysfs), perftest runs
# over it, and --check names a wrong index.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

"$RDMADIAG" env ucx > "$LAB_OUT/env.out" 2> "$LAB_OUT/env.err" ||
	lab_fail "env ucx: exit $?: $(cat "$LAB_OUT/env.err")"
grep -q '^UCX_NET_DEVICES=rxe0:1$' "$LAB_OUT/env.out" ||
	lab_fail "env ucx: no UCX_NET_DEVICES=rxe0:1: $(cat "$LAB_OUT/env.out")"
idx=$(sed -n 's/^UCX_IB_GID_INDEX=//p' "$LAB_OUT/env.out")
[ -n "$idx" ] || lab_fail "env ucx: no GID index: $(cat "$LAB_OUT/env.out")"

# The oracle: the kernel's GID table in sysfs.
# Builtins only: a fork per entry is slow under emulation.
want=
gdir=/sys/class/infiniband/rxe0/ports/1
n=0
while [ -e "$gdir/gids/$n" ]; do
	t= g=
	read -r t < "$gdir/gid_attrs/types/$n" 2> /dev/null || true
	read -r g < "$gdir/gids/$n" 2> /dev/null || true
	if [ "$t" = "RoCE v2" ] && [[ $g == 0000:0000:0000:0000:0000:ffff:* ]]; then
		want=$n
		break
	fi
	n=$((n + 1))
done
[ "$idx" = "$want" ] || lab_fail "env ucx: GID index $idx, sysfs says $want"
lab_log "ok: UCX_IB_GID_INDEX=$idx is sysfs's first RoCE v2 IPv4 GID"

# perftest over that index works.
lab_perftest envgid ib_write_bw -s 4096 -n 200 -x "$idx"
lab_log "ok: ib_write_bw ran over GID index $idx"

# --check: the right index agrees, a wrong one is named.
UCX_IB_GID_INDEX=$idx "$RDMADIAG" env ucx --check > "$LAB_OUT/check-ok.out" 2>&1 ||
	lab_fail "env --check with the right index: $(cat "$LAB_OUT/check-ok.out")"
rc=0
UCX_IB_GID_INDEX=$((idx + 7)) "$RDMADIAG" env ucx --check > "$LAB_OUT/check-bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "^WRONG  UCX_IB_GID_INDEX=$((idx + 7)): this host needs $idx" "$LAB_OUT/check-bad.out" ||
	lab_fail "env --check with a wrong index: exit $rc: $(cat "$LAB_OUT/check-bad.out")"
lab_log "ok: env --check names a wrong UCX_IB_GID_INDEX"
