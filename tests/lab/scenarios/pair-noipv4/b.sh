# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, one without an IPv4 address: this side (b) removes it; see
# a.sh.  The snapshot here must list no IPv4 GID on rxe0 any more.

lab_pair_setup
lab_require_rdmadiag
ip addr del "$(lab_pair_addr b)/$LAB_PAIR_PREFIX" dev "$LAB_NETDEV"
# no_v4_gid: rxe0 lists no IPv4-mapped GID (::ffff:a.b.c.d) any more.
no_v4_gid() {
	! grep -qs '^0000:0000:0000:0000:0000:ffff:' /sys/class/infiniband/"$LAB_RXE"/ports/1/gids/*
}
lab_wait 10 "rxe0 to drop its IPv4 GIDs" no_v4_gid
lab_snapshot there
lab_barrier snapshots
lab_barrier finished
