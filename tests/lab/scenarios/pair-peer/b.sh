# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# rdmadiag peer between two kernels, server side: `peer --listen` answers
# a's `peer` once with both hosts alike, once after this side's MTU went
# to 9000, then a stock ib_write_bw server stands where rdmadiag was; see
# a.sh for what a must see each time.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
lab_barrier gids

lab_pair_serve alike "$RDMADIAG" peer --listen --once
grep -q "^answered $(lab_pair_addr a):.*0 mismatches" "$LAB_OUT/alike.server" ||
	lab_fail "the server's line for a: $(cat "$LAB_OUT/alike.server")"
lab_log "ok: the server names a's port, 0 mismatches"

ip link set "$LAB_NETDEV" mtu 9000
lab_log "b: $LAB_NETDEV MTU 9000"
lab_pair_serve mtu "$RDMADIAG" peer --listen --once

# A perftest server: it fails once a has seen it is not rdmadiag.
LAB_PAIR_MAY_FAIL=1 lab_pair_serve perftest ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n 5
lab_barrier finished
