# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The console's refresh on a live Soft-RoCE host (every probe: sysfs,
# RDMA netlink, rtnetlink, ethtool, dcbnl, PCI, modules, host, verbs):
# microseconds per refresh from the program, syscalls per refresh and per
# counter from strace (the difference of two run lengths, so start-up
# cancels). A benchmark: it prints figures and fails only if it cannot run.
#   tests/lab/run tests/lab/bench/refresh-live.sh   (figures in its log)

lab_require_rdmadiag
lab_net_up 9000
lab_rxe_add
"$RDMADIAG" snapshot --bench 60 > "$LAB_OUT/bench.txt" 2>&1 ||
	lab_fail "snapshot --bench failed: $(tail -n 3 "$LAB_OUT/bench.txt")"
while read -r line; do lab_log "$line"; done < "$LAB_OUT/bench.txt"

calls() {
	strace -f -c -o "$LAB_OUT/strace.$1" "$RDMADIAG" snapshot --bench "$1" \
		> /dev/null 2>&1 || lab_fail "strace run of $1 refreshes failed"
	awk '$NF == "total" { print $(NF-2) }' "$LAB_OUT/strace.$1"
}
a=$(calls 20)
b=$(calls 60)
counters=$(awk '/^counters/ { print $2 }' "$LAB_OUT/bench.txt")
per=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 40 }')
lab_log "syscalls/refresh   $per"
lab_log "syscalls/counter   $(awk -v p="$per" -v c="$counters" 'BEGIN { printf "%.3f", p / c }')"
lab_log "top syscalls over 60 refreshes:"
sort -k4 -n -r "$LAB_OUT/strace.60" | awk 'NR > 2 && NR < 10 { print "  " $NF, $4 }' |
	while read -r line; do lab_log "$line"; done
lab_pass
