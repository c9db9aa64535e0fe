# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts whose MTUs differ: side b at netdev MTU 9000 (RoCE active MTU
# 4096) against side a at 1500; see a.sh.  The servers here, perftest and
# rdmadiag, must run at the smaller MTU, 1024, although this port's own
# active MTU is 4096.

lab_pair_setup 9000
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
lab_oracles mtu
lab_snapshot mtu
p=devices.rxe0.ports.1
assert_same $p.verbs.active_mtu ibv_devinfo:active_mtu "active_mtu as ibv_devinfo has it"
assert_snap $p.verbs.active_mtu 4096
assert_snap "netdevs.$LAB_NETDEV.mtu" 9000
lab_barrier snapshots

# pair_mtu NAME: the test NAME ran at 1024 bytes here.
pair_mtu() {
	grep -q '^ *Mtu *: *1024\[B\]' "$LAB_OUT/$1.server" ||
		lab_fail "$1: the server here did not run at MTU 1024: $(grep -i '^ *mtu' "$LAB_OUT/$1.server")"
	lab_log "ok: $1 ran at MTU 1024 bytes on b (its own active MTU: 4096)"
}

N=200
lab_pair_serve write-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
pair_mtu write-bw
lab_pair_serve read-bw ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
pair_mtu read-bw
lab_pair_serve read-bw-rd-server "$RDMADIAG" bw --op read -d "$LAB_RXE" -n $N
pair_mtu read-bw-rd-server
lab_pair_serve read-bw-rd-client ib_read_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
pair_mtu read-bw-rd-client
lab_barrier finished
