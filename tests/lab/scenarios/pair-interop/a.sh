# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, rdmadiag against stock perftest in both roles: side a is the
# client (perftest of an rdmadiag server, then rdmadiag of a perftest
# server) for write bandwidth and send latency; b.sh has the servers.
# perftest gets -x with this side's IPv4 GID; rdmadiag chooses its own.

lab_pair_setup
lab_require_rdmadiag
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
N=200

# bw_avg FILE: the average bandwidth under the #bytes header, MB/s.
bw_avg() {
	lab_result_line "$1" | awk '{print $4}'
}

lab_pair_connect rd-server-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
c=$(bw_avg "$LAB_OUT/rd-server-bw.client")
awk -v c="$c" 'BEGIN { exit !(c > 0) }' || lab_fail "ib_write_bw against rdmadiag measured '$c'"

lab_pair_connect pt-server-bw "$RDMADIAG" bw -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
c=$(bw_avg "$LAB_OUT/pt-server-bw.client")
awk -v c="$c" 'BEGIN { exit !(c > 0) }' || lab_fail "rdmadiag bw against ib_write_bw measured '$c'"
# perftest's server ignores rdmadiag's mark after its version's NUL and
# answers without one: no peer list, the test as before.
! grep -q "peer check" "$LAB_OUT/pt-server-bw.client" ||
	lab_fail "rdmadiag bw printed a peer check against ib_write_bw: $(grep "peer check" "$LAB_OUT/pt-server-bw.client")"
grep -qE "^ Peer check +: not made: the peer's version message \(perftest [0-9.]+\) carries no rdmadiag extension" "$LAB_OUT/pt-server-bw.client" ||
	lab_fail "the header does not say why there is no peer check: $(grep -i 'peer' "$LAB_OUT/pt-server-bw.client")"
lab_log "ok: rdmadiag bw printed no peer check against ib_write_bw, and its header says why"
lab_pair_put pt-server-bw "$c"
lab_barrier pt-server-bw.figure
grep -q "GID index *: *$LAB_GID\b" "$LAB_OUT/pt-server-bw.client" ||
	lab_fail "rdmadiag did not use this side's IPv4 RoCE v2 GID index $LAB_GID: $(grep -i 'gid index' "$LAB_OUT/pt-server-bw.client")"
lab_log "ok: rdmadiag chose GID index $LAB_GID, as -x gives perftest"

lab_pair_connect rd-server-lat ib_send_lat -d "$LAB_RXE" -x "$LAB_GID" -n $N "$LAB_PEER_ADDR"
lab_pair_connect pt-server-lat "$RDMADIAG" lat --op send -d "$LAB_RXE" -n $N "$LAB_PEER_ADDR"
t=$(lab_result_line "$LAB_OUT/pt-server-lat.client" | awk '{print $3}')
awk -v t="$t" 'BEGIN { exit !(t > 0) }' || lab_fail "rdmadiag lat against ib_send_lat measured '$t'"
! grep -q "peer check" "$LAB_OUT/pt-server-lat.client" ||
	lab_fail "rdmadiag lat printed a peer check against ib_send_lat"
lab_barrier finished
