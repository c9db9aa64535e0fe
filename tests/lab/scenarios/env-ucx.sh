# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lab: batch
# UCX over Soft-RoCE with what `rdmadiag env ucx` prints: ucx_perftest's
# active-message latency test over UCX's RC verbs transport (server and
# client on this host), on the device UCX_NET_DEVICES names and with the
# printed UCX_IB_GID_INDEX in the environment, runs, and rxe0's packet
# counters show it went over RDMA; with a wrong GID index it fails, and
# `env ucx --check` names UCX_IB_GID_INDEX and only it.  The test is UCX's
# transport-level one: the protocol layer (tag_lat) wires RC up over UD,
# and UD endpoints on rxe time out in the lab.  ucx_perftest is Debian's
# ucx-utils.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
lab_require_rdmadiag
command -v ucx_perftest > /dev/null ||
	lab_skip "ucx_perftest is not installed (Debian package ucx-utils)"

UCX_PORT=13337
"$RDMADIAG" env ucx > "$LAB_OUT/env.out" 2> "$LAB_OUT/env.err" ||
	lab_fail "env ucx: exit $?: $(cat "$LAB_OUT/env.err")"
# What a person would do: source it.
# shellcheck disable=SC1091
(set -a && . "$LAB_OUT/env.out" && env) | grep '^UCX_' | sort > "$LAB_OUT/env.vars"
grep -q '^UCX_NET_DEVICES=rxe0:1$' "$LAB_OUT/env.vars" ||
	lab_fail "env ucx: no UCX_NET_DEVICES=rxe0:1: $(cat "$LAB_OUT/env.out")"
idx=$(sed -n 's/^UCX_IB_GID_INDEX=//p' "$LAB_OUT/env.vars")
[ -n "$idx" ] || lab_fail "env ucx: no UCX_IB_GID_INDEX: $(cat "$LAB_OUT/env.out")"
dev=$(sed -n 's/^UCX_NET_DEVICES=//p' "$LAB_OUT/env.vars")
lab_log "env ucx: $(tr '\n' ' ' < "$LAB_OUT/env.vars")"

sent_pkts() {
	local v
	read -r v < /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
	echo "$v"
}

# ucx_env [VAR=VALUE...] CMD...: CMD with the printed variables sourced,
# and then these.
ucx_env() {
	(
		set -a
		# shellcheck disable=SC1091
		. "$LAB_OUT/env.out"
		set +a
		exec env UCX_WARN_UNUSED_ENV_VARS=n "$@"
	)
}

listening_or_gone() {
	lab_port_listening "$UCX_PORT" || ! kill -0 "$1" 2> /dev/null
}

# ucx_run NAME [VAR=VALUE...]: a ucx_perftest server and client; 0 when
# both exit 0.
ucx_run() {
	local name=$1 rc=0 src=0 server
	shift
	ucx_env "$@" timeout 60 ucx_perftest -p "$UCX_PORT" \
		> "$LAB_OUT/$name.server" 2>&1 &
	server=$!
	# A server that cannot open the device exits before it listens.
	lab_wait 30 "ucx_perftest server on port $UCX_PORT" \
		listening_or_gone "$server"
	ucx_env "$@" timeout 60 ucx_perftest -p "$UCX_PORT" -t am_lat \
		-d "$dev" -x rc_verbs -s 8 -n 1000 127.0.0.1 \
		> "$LAB_OUT/$name.client" 2>&1 || rc=$?
	wait "$server" || src=$?
	[ "$rc" -eq 0 ] && [ "$src" -eq 0 ]
}

before=$(sent_pkts)
ucx_run good ||
	lab_fail "ucx_perftest with the printed variables failed: $(tail -n 5 "$LAB_OUT/good.client" "$LAB_OUT/good.server")"
after=$(sent_pkts)
[ $((after - before)) -ge 2000 ] ||
	lab_fail "ucx_perftest ran, but rxe0 sent only $((after - before)) packets: not over RDMA"
lab_log "ok: ucx_perftest am_lat over rc_verbs on $dev with UCX_IB_GID_INDEX=$idx ($((after - before)) packets): $(grep '^Final:' "$LAB_OUT/good.client" | tr -s ' ')"

bad=$((idx + 7))
if ucx_run bad "UCX_IB_GID_INDEX=$bad"; then
	lab_fail "ucx_perftest ran with UCX_IB_GID_INDEX=$bad, an index rxe0 does not have"
fi
grep -q 'ERROR' "$LAB_OUT/bad.client" ||
	lab_fail "ucx_perftest with UCX_IB_GID_INDEX=$bad failed without an error: $(tail -n 3 "$LAB_OUT/bad.client")"
lab_log "ok: ucx_perftest fails with UCX_IB_GID_INDEX=$bad: $(grep -m 1 'ERROR' "$LAB_OUT/bad.client" | sed 's/.*UCX  *//')"

ucx_env "$RDMADIAG" env ucx --check > "$LAB_OUT/check-ok.out" 2>&1 ||
	lab_fail "env ucx --check with the printed variables: $(cat "$LAB_OUT/check-ok.out")"
rc=0
UCX_IB_GID_INDEX=$bad UCX_NET_DEVICES=rxe0:1 "$RDMADIAG" env ucx --check > "$LAB_OUT/check-bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || lab_fail "env ucx --check with UCX_IB_GID_INDEX=$bad: exit $rc"
grep -q "^WRONG  UCX_IB_GID_INDEX=$bad: this host needs $idx" "$LAB_OUT/check-bad.out" ||
	lab_fail "env ucx --check with UCX_IB_GID_INDEX=$bad: exit $rc: $(cat "$LAB_OUT/check-bad.out")"
grep -q '^ok     UCX_NET_DEVICES=rxe0:1$' "$LAB_OUT/check-bad.out" ||
	lab_fail "env ucx --check: UCX_NET_DEVICES=rxe0:1 is right: $(cat "$LAB_OUT/check-bad.out")"
lab_log "ok: env ucx --check names UCX_IB_GID_INDEX=$bad and only it"
