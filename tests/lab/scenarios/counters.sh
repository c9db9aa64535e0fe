# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# Counters under load: an ib_write_bw loopback run on rxe0.  Before and
# after it, rdmadiag's hw_counters agree with rdma statistic, and the packet
# counters have grown.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
c=devices.rxe0.ports.1.hw_counters

lab_oracles before
lab_snapshot before
assert_counters_agree rxe0 1
sent0=${S[$c.sent_pkts]-0} rcvd0=${S[$c.rcvd_pkts]-0}

lab_perftest write_bw ib_write_bw -s 65536 -n 500

lab_oracles after
lab_snapshot after
assert_counters_agree rxe0 1
sent1=${S[$c.sent_pkts]-0} rcvd1=${S[$c.rcvd_pkts]-0}
lab_log "sent_pkts $sent0 -> $sent1, rcvd_pkts $rcvd0 -> $rcvd1"
# 500 writes of 64 KiB at an MTU of 1024 are 32000 packets each way.
[ "$sent1" -ge $((sent0 + 32000)) ] || lab_fail "sent_pkts grew by $((sent1 - sent0)), expected >= 32000"
[ "$rcvd1" -ge $((rcvd0 + 32000)) ] || lab_fail "rcvd_pkts grew by $((rcvd1 - rcvd0)), expected >= 32000"
lab_log "ok: packet counters grew by $((sent1 - sent0)) sent, $((rcvd1 - rcvd0)) received"
