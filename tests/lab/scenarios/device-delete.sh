# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Devices vanish while rdmadiag samples: rxe0 is deleted and re-added, and
# rdma_rxe unloaded, under a loop of snapshots.  Every run must end by
# itself (exit status below 128: no signal, no crash) and any run that
# says it succeeded must have printed valid JSON.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag

mkdir -p "$LAB_OUT/sampler"
(
	i=0
	while [ ! -e "$LAB_OUT/sampler/stop" ] && [ "$i" -lt 200 ]; do
		i=$((i + 1))
		rc=0
		"$RDMADIAG" snapshot --json > "$LAB_OUT/sampler/$i.json" 2> "$LAB_OUT/sampler/$i.err" || rc=$?
		echo "$i $rc" >> "$LAB_OUT/sampler/rc"
	done
) &
sampler=$!

# Each change waits for one more finished snapshot run, so runs and changes
# interleave however slow the guest is.
runs_done() {
	local -a lines=()
	[ ! -e "$LAB_OUT/sampler/rc" ] || mapfile -t lines < "$LAB_OUT/sampler/rc"
	[ "${#lines[@]}" -ge "$1" ]
}
next=1
step() {
	lab_wait 60 "snapshot run $next" runs_done "$next"
	next=$((next + 1))
}
for _ in 1 2 3; do
	step
	rdma link delete rxe0
	step
	rdma link add rxe0 type rxe netdev veth0
done
step
rdma link delete rxe0
modprobe -r rdma_rxe
step
modprobe rdma_rxe
rdma link add rxe0 type rxe netdev veth0
step
touch "$LAB_OUT/sampler/stop"
wait "$sampler"

runs=0 ok=0
while read -r i rc; do
	runs=$((runs + 1))
	[ "$rc" -lt 128 ] || lab_fail "snapshot run $i died with status $rc (signal $((rc - 128))): $(tail -n 3 "$LAB_OUT/sampler/$i.err")"
	if [ "$rc" -eq 0 ]; then
		ok=$((ok + 1))
		jq -e 'type == "object"' "$LAB_OUT/sampler/$i.json" > /dev/null ||
			lab_fail "snapshot run $i exited 0 without valid JSON"
	fi
done < "$LAB_OUT/sampler/rc"
lab_log "$runs snapshot runs during the churn, $ok exited 0"
[ "$runs" -ge 9 ] || lab_fail "only $runs snapshot runs overlapped the churn"
assert_eq "$runs" "$ok" "snapshot runs that exited 0"
