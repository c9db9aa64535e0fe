# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, rdmadiag against stock perftest in both roles: side b serves
# (rdmadiag for a perftest client, then perftest for an rdmadiag client);
# see a.sh for the clients.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
N=200

lab_pair_serve rd-server-bw "$RDMADIAG" bw -d "$LAB_RXE" -n $N
! grep -q "peer check" "$LAB_OUT/rd-server-bw.server" ||
	lab_fail "the rdmadiag server printed a peer check for ib_write_bw: $(cat "$LAB_OUT/rd-server-bw.server")"
grep -qE "^ Peer check +: not made: the peer's version message \(perftest [0-9.]+\) carries no rdmadiag extension" "$LAB_OUT/rd-server-bw.server" ||
	lab_fail "the server's header does not say why there is no peer check: $(grep -i 'peer' "$LAB_OUT/rd-server-bw.server")"
lab_log "ok: the rdmadiag server ran ib_write_bw's test with no peer check, and its header says why"
lab_pair_serve pt-server-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
# ib_write_bw's server prints the report its client sent: the rdmadiag
# client's own figure, to the rounding of the two prints.
lab_barrier pt-server-bw.figure
c=
lab_pair_get pt-server-bw c
s=$(lab_result_line "$LAB_OUT/pt-server-bw.server" | awk '{print $4}')
awk -v c="$c" -v s="$s" 'BEGIN { exit !(s > 0 && c / s < 1.02 && s / c < 1.02) }' ||
	lab_fail "ib_write_bw server printed $s MB/s, the rdmadiag client $c MB/s"
lab_log "ok: ib_write_bw server printed $s MB/s for the rdmadiag client's $c MB/s"

lab_pair_serve rd-server-lat "$RDMADIAG" lat --op send -d "$LAB_RXE" -n $N
lab_pair_serve pt-server-lat ib_send_lat -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_barrier finished
