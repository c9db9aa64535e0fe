# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Two hosts, stock perftest: side b serves ib_write_bw and ib_send_lat for
# the client on side a (a.sh), each side with its own IPv4 GID index.

lab_pair_setup
command -v ib_write_bw > /dev/null || lab_skip "perftest is not installed"
N=200

lab_pair_serve write-bw ib_write_bw -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_pair_serve send-lat ib_send_lat -d "$LAB_RXE" -x "$LAB_GID" -n $N
lab_barrier finished
