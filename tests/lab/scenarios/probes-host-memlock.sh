# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Locked memory and privilege for real: a low soft RLIMIT_MEMLOCK, then an
# unprivileged user without CAP_IPC_LOCK, whose access to /dev/infiniband
# decides whether libibverbs can open rxe0.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE

(
	ulimit -S -l 64
	lab_snapshot lowmem
	assert_snap host.memlock_unlimited false "soft memlock limited"
	assert_snap host.memlock_soft 65536 "soft memlock 64 KiB in bytes"
	assert_snap host.memlock_hard_unlimited true
	assert_snap devices.rxe0.verbs.opened true "opening needs no locked memory"
)

command -v setpriv > /dev/null || lab_skip "setpriv not installed"
# snapshot_as_nobody NAME: rdmadiag as uid/gid 65534 with no capabilities.
snapshot_as_nobody() {
	SNAP=$LAB_OUT/$1.json
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RDMADIAG" snapshot --json > "$SNAP" 2> "$LAB_OUT/$1.err" ||
		lab_fail "rdmadiag as nobody exited non-zero: $(tail -n 3 "$LAB_OUT/$1.err")"
	lab_flatten S "" "$SNAP" || lab_fail "not JSON: $SNAP"
}
node=/dev/infiniband/uverbs0
[ -e "$node" ] || lab_skip "no $node in this guest"
mode=$(stat -c %a "$node")

# The container story: the node exists but this user may not open it.
# (The guest's /dev is its own devtmpfs: the host is untouched.)
chmod 0600 "$node"
snapshot_as_nobody nobody
chmod "$mode" "$node"
assert_snap host.is_root false
assert_snap host.cap_ipc_lock false
assert_snap host.cap_net_admin false
assert_json "$SNAP" ".host.devnodes[] | select(.path == \"$node\") | [.exists, .mode, .readable, .writable]" \
	'[true,384,false,false]' "uverbs0 mode 0600 and closed to nobody"
assert_snap devices.rxe0.verbs.opened false "verbs cannot open rxe0 as nobody"
assert_json_true "$SNAP" '.devices[] | select(.name == "rxe0") | .verbs.open_error | test("Permission denied")' \
	"open_error names the permission problem"

chmod 0666 "$node"
snapshot_as_nobody nobody-open
chmod "$mode" "$node"
assert_json "$SNAP" ".host.devnodes[] | select(.path == \"$node\") | [.readable, .writable]" \
	'[true,true]' "uverbs0 open to all"
assert_snap devices.rxe0.verbs.opened true "verbs opens rxe0 as nobody once the node allows it"
