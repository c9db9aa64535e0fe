#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdmadiag explain`: pasted error lines explained, causes ranked by a
# recording's counters (--load), unknown and hostile input handled.
. "$(dirname "$0")/lib.sh"
demo="$src/data/demo/cx6dx-demo.jsonl"
snap="$src/tests/fixtures/cx6dx-roce-port-down/snapshot.golden.json"

# The first cause's title and its block (up to the next numbered cause).
first() { awk '/^ 1\. /{p=1} /^ 2\. /{p=0} p' <<<"$1"; }

# perftest's line (zrlio/softiwarp issue 27) against the demo recording,
# whose out_of_buffer and sequence counters rise and whose PFC is off.
out=$("$bin" explain --load "$demo" 'Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0' 2>&1)
rc=$?
f=$(first "$out")
if [ $rc -eq 0 ] && grep -q "format is perftest's; status number 12; vendor error 0x81 (129)" <<<"$out" &&
	grep -q '^Status 12 IBV_WC_RETRY_EXC_ERR ("transport retry counter exceeded")' <<<"$out" &&
	grep -q 'Vendor error 0x81 (129, on mlx5)' <<<"$out" &&
	grep -q 'ranked by the evidence from .*cx6dx-demo.jsonl, frame 60 of 60' <<<"$out" &&
	grep -q 'packets are lost' <<<"$f" &&
	grep -q 'evidence: mlx5_0/1 hw_counters out_of_buffer rose by [0-9]* in [0-9.]* s' <<<"$f" &&
	grep -q 'evidence: check qos.pfc FAIL' <<<"$f" && grep -q 'next: ' <<<"$f"; then
	ok "perftest line: meaning, and packet loss first by the recording's counters"
else
	bad "perftest line: rc=$rc $(head -c 1500 <<<"$out")"
fi

# The same recording with only local_ack_timeout_err rising on mlx5_0:
# the unreachable peer comes first, with that counter as evidence.
jq_snap -c -s 'to_entries[] | .key as $i | .value |
	.devices[].ports[].hw_counters |= with_entries(.value = 0) |
	.devices[].ports[].counters |= with_entries(.value = 0) |
	.netdevs[].ethtool.stats |= with_entries(.value = 0) |
	(.devices[] | select(.name == "mlx5_0") | .ports[0].hw_counters.local_ack_timeout_err) = ($i * 7)' \
	"$demo" >"$tmp/ack.jsonl"
# UCX's line (openucx/ucx issue 6000) names mlx5_0 port 1.
out=$("$bin" explain --load "$tmp/ack.jsonl" '[compute001:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)' 2>&1)
rc=$?
f=$(first "$out")
if [ $rc -eq 0 ] && grep -q "format is UCX's.*mlx5 CQE syndrome 0x15.*device mlx5_0 port 1" <<<"$out" &&
	grep -q 'MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR' <<<"$out" &&
	grep -q 'peer is not reachable' <<<"$f" &&
	grep -q 'evidence: mlx5_0/1 hw_counters local_ack_timeout_err rose by 70 in 10.0 s' <<<"$f" &&
	! grep -q 'mlx5_1' <<<"$out"; then
	ok "UCX line: peer unreachable first by local_ack_timeout_err, mlx5_0 only"
else
	bad "UCX line: rc=$rc $(head -c 1500 <<<"$out")"
fi

# NCCL's line from standard input (NVIDIA/nccl issue 928), a snapshot file:
# totals only, and the vendor code's own cause (GPU memory) first.
out=$(printf '%s\n' 'H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)' |
	"$bin" explain --load "$snap" - 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q "format is NCCL's; status number 4; vendor error 0x51 (81)" <<<"$out" &&
	grep -q 'one snapshot: counter totals, no rise' <<<"$out" &&
	grep -q 'could not reach GPU memory' <<<"$(first "$out")"; then
	ok "NCCL line on stdin: local protection, GPU memory first"
else
	bad "NCCL line: rc=$rc $(head -c 1200 <<<"$out")"
fi

# Options after the text, and text after "--" that starts with "-".
out=$("$bin" explain 'IBV_WC_RNR_RETRY_EXC_ERR' --load "$snap" 2>&1)
[ $? -eq 0 ] && grep -q '^Status 13 IBV_WC_RNR_RETRY_EXC_ERR' <<<"$out" &&
	grep -q 'ranked by the evidence from ' <<<"$out" && ok "options after the text" || bad "options after: $out"
out=$("$bin" explain --load "$snap" -- '-- status 5 --' 2>&1)
[ $? -eq 0 ] && grep -q '^Status 5 IBV_WC_WR_FLUSH_ERR' <<<"$out" && ok "text after --" || bad "text after --: $out"

# Unknown text: said so, with what was recognised; exit 1.
out=$("$bin" explain --load "$snap" 'the job hung at step 3' 2>&1)
[ $? -eq 1 ] && grep -q '^Recognised: nothing' <<<"$out" && grep -q '^Unknown: no completion status' <<<"$out" &&
	ok "unknown text: exit 1, says so" || bad "unknown text: $out"
out=$("$bin" explain --load "$snap" 'vendor err 0x42 on mlx5_3' 2>&1)
[ $? -eq 1 ] && grep -q 'vendor error 0x42 (66); device mlx5_3' <<<"$out" &&
	grep -q 'no public source documents it' <<<"$out" &&
	ok "undocumented vendor code: recognised, unknown" || bad "vendor 0x42: $out"
out=$("$bin" explain --load "$snap" 'status 31' 2>&1)
[ $? -eq 1 ] && grep -q 'Status 31 is not an ibv_wc_status value (they run 0 to 23)' <<<"$out" &&
	ok "status 31: not a status" || bad "status 31: $out"

# Options: help, bad values and a bad file are clear, exit 3 (0 for help).
"$bin" explain --help | grep -q 'usage: rdmadiag explain' && ok "--help" || bad "--help"
msg=$("$bin" explain --window x 'status 12' 2>&1)
[ $? -eq 3 ] && grep -q 'is not 0..3600 seconds' <<<"$msg" && ok "--window x: refused" || bad "--window x: $msg"
msg=$("$bin" explain --port 0 'status 12' 2>&1)
[ $? -eq 3 ] && grep -q 'is not a number in 1..255' <<<"$msg" && ok "--port 0: refused" || bad "--port 0: $msg"
# --device or --port naming nothing in the evidence: one line, exit 3,
# nothing on standard output, as check says it.
for args in "--device mlx5_9|no RDMA device mlx5_9" \
	"--device mlx5_0 --port 2|mlx5_0 has no port 2" "--port 3|no RDMA device has a port 3"; do
	opts=${args%%|*} want=${args#*|}
	# shellcheck disable=SC2086 # the options are words
	out=$("$bin" explain --load "$snap" $opts 'status 12' 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 3 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -qx "rdmadiag: explain: $want" "$tmp/err"; then
		ok "explain $opts: said, exit 3"
	else
		bad "explain $opts: rc=$rc stderr=$(head -c 200 "$tmp/err") stdout=$(head -c 200 <<<"$out")"
	fi
done
"$bin" explain --load "$snap" --device $'mlx5\e[2J' 'status 12' >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && ! grep -q $'\e' "$tmp/err" && grep -q 'no RDMA device mlx5' "$tmp/err"; then
	ok "explain --device: the name is escaped"
else
	bad "explain --device escape: rc=$rc $(od -c "$tmp/err" | head -3)"
fi
out=$("$bin" explain --load "$snap" --device mlx5_1 --port 1 'status 12' 2>&1)
[ $? -eq 0 ] && grep -q '^Status 12' <<<"$out" && ok "explain --device mlx5_1 --port 1: explained" ||
	bad "explain --device mlx5_1: $out"

printf 'junk' >"$tmp/junk"
out=$("$bin" explain --load "$tmp/junk" 'status 12' 2>&1)
[ $? -eq 0 ] && grep -q 'not ranked: no snapshot could be taken' <<<"$out" &&
	grep -q '^Status 12' <<<"$out" && ok "unreadable --load: meaning, causes unranked" ||
	bad "junk --load: $out"

# Hostile input: random bytes and control characters never crash or
# reach the terminal raw.
for i in 1 2 3; do
	head -c 20000 /dev/urandom >"$tmp/rand"
	"$bin" explain --load "$snap" - <"$tmp/rand" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -le 1 ] || { bad "random input $i: rc=$rc"; continue; }
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out"; then
		bad "random input $i: control bytes in the output"
	else
		ok "random input $i: rc=$rc, clean output"
	fi
done

finish
