# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Functions for lab scenarios, sourced inside the guest before the scenario
# (which runs under set -euo pipefail).  A scenario passes when it runs to
# its end; the first failed assertion stops it.  Files written to $LAB_OUT
# are kept in the host's output directory.
#
# After lab_snapshot, S[KEY] holds rdmadiag's JSON flattened (see
# flatten.jq): S[devices.rxe0.ports.1.state], S[netdevs.veth0.mtu], ...
# After lab_oracles, ORA[KEY] holds what the stock tools say:
#   ORA[rdma-link:rxe0/1.state]           rdma -j link show
#   ORA[rdma-statistic:rxe0/1.sent_pkts]  rdma -j statistic show
#   ORA[ip-link:veth0.mtu]                ip -j -d link show
#   ORA[ibv_devinfo:active_mtu]           ibv_devinfo -v (first of each key,
#                                         " (n)" suffix dropped; GIDs as GID.n)
# Under TCG every exec costs tens of milliseconds and jq half a second, so
# look values up in these tables (bash only) rather than calling jq per value.

# shellcheck source=../jq-strict.sh
. "$(dirname "${BASH_SOURCE[0]}")/../jq-strict.sh"

LAB_NETDEV=veth0
LAB_PEER=veth1
LAB_ADDR=192.0.2.1/24
LAB_RXE=rxe0

# perftest measures its clock by sampling it against gettimeofday() and,
# under TCG, now and then finds the samples too scattered (r^2 < 0.9): it
# then prints "Can't produce a report" and exits 1.  A run that failed
# only that way is run again, up to this many runs in all; the failures
# come in bursts when the host is busy, so two runs are not enough.
LAB_CALIBRATION_TRIES=${LAB_CALIBRATION_TRIES:-4}

# lab_perftest_gave_up FILE...: perftest gave up calibrating its clock in
# one of FILEs.
lab_perftest_gave_up() {
	grep -qs "Can't produce a report" "$@"
}
SNAP=
ORACLE=
declare -gA S=() ORA=()

lab_log() {
	local up
	read -r up _ < /proc/uptime
	echo "lab: [$up] $*"
}

# The first verdict written wins, so a later one cannot hide a failure.
lab_result() {
	[ -s "$LAB_OUT/result" ] || echo "$*" > "$LAB_OUT/result"
}

# Optional: a scenario that reaches its end passes anyway.
lab_pass() {
	lab_result "PASS${1:+ $*}"
	exit 0
}

# In the interactive shell (run -s) a failure returns instead of exiting.
lab_fail() {
	lab_log "FAIL: $*"
	if [ -n "${LAB_INTERACTIVE:-}" ]; then
		return 1
	fi
	lab_result "FAIL $*"
	exit 1
}

# Only for what truly cannot run on this kernel or host.
lab_skip() {
	lab_log "SKIP: $*"
	lab_result "SKIP $*"
	exit 0
}

# lab_wait SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds.
lab_wait() {
	local secs=$1 what=$2
	shift 2
	local tries=$((secs * 5))
	until "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || { lab_fail "timed out after ${secs}s waiting for $what"; return 1; }
		sleep 0.2
	done
}

# lab_read FILE VAR: first line of FILE into VAR, without a fork.
lab_read() {
	local -n _lab_var=$2
	_lab_var=
	IFS= read -r _lab_var < "$1" || [ -n "$_lab_var" ]
}

# --- network and Soft-RoCE set-up ---------------------------------------

# lab_net_up [MTU]: lo up, veth0/veth1 up with fixed MACs, IPv4 on veth0.
lab_net_up() {
	local mtu=${1:-}
	ip link set lo up
	ip link add "$LAB_NETDEV" address 02:00:00:00:00:01 type veth \
		peer name "$LAB_PEER" address 02:00:00:00:00:02
	if [ -n "$mtu" ]; then
		ip link set "$LAB_NETDEV" mtu "$mtu"
		ip link set "$LAB_PEER" mtu "$mtu"
	fi
	ip link set "$LAB_PEER" up
	ip link set "$LAB_NETDEV" up
	ip addr add "$LAB_ADDR" dev "$LAB_NETDEV"
	lab_wait 10 "carrier on $LAB_NETDEV" lab_has_carrier "$LAB_NETDEV"
}

lab_has_carrier() {
	local c
	lab_read "/sys/class/net/$1/carrier" c 2>/dev/null && [ "$c" = 1 ]
}

lab_rxe_load() {
	modprobe rdma_rxe
	modprobe ib_uverbs
	modprobe rdma_ucm
}

# lab_rxe_add [DEV [NETDEV]]: load Soft-RoCE and create DEV on NETDEV.
lab_rxe_add() {
	local dev=${1:-$LAB_RXE} netdev=${2:-$LAB_NETDEV}
	lab_rxe_load
	rdma link add "$dev" type rxe netdev "$netdev"
	lab_wait 10 "$dev in sysfs" test -e "/sys/class/infiniband/$dev/ports/1/state"
}

# lab_port_is DEV PORT WORD: sysfs ports/N/state is "n: WORD".
lab_port_is() {
	local st
	lab_read "/sys/class/infiniband/$1/ports/$2/state" st 2>/dev/null &&
		[ "${st#*: }" = "$3" ]
}

# lab_wait_port DEV STATE [SECONDS]: wait for port 1 to reach STATE
# (sysfs spelling: ACTIVE, DOWN, INIT, ...).
lab_wait_port() {
	lab_wait "${3:-10}" "$1 port 1 $2" lab_port_is "$1" 1 "$2"
}

# lab_sysfs_port ATTR [DEV [PORT]]: a port attribute straight from sysfs.
lab_sysfs_port() {
	cat "/sys/class/infiniband/${2:-$LAB_RXE}/ports/${3:-1}/$1"
}

lab_port_listening() {
	[ -n "$(ss -Hltn "sport = :$1")" ]
}

# lab_cm_listening PORT: an rdma_cm id listens on PORT (perftest -R opens
# no TCP socket); lab_pair_serve uses it when LAB_PAIR_CM is set.
lab_cm_listening() {
	local ids
	ids=$(rdma -j resource show cm_id 2> /dev/null) || return 1
	[[ $ids =~ \"state\":\"LISTEN\"[^}]*\"src-addr\":\"[^\"]*:$1\" ]]
}

# lab_perftest NAME TOOL [ARGS...]: run a perftest TOOL (ib_write_bw,
# ib_send_lat, ...) in loopback on one port: server and client both on
# $LAB_RXE with the IPv4 RoCE v2 GID (index 1), out of band over 127.0.0.1.
# Output in $LAB_OUT/NAME.server and NAME.client; fails if either fails.
# Run once more if perftest gave up calibrating its clock (TCG, see
# lab_pair_again).
lab_perftest() {
	local name=$1 tool=$2 port=18515 try rc src server
	shift 2
	local -a common=(-d "$LAB_RXE" -i 1 -x 1 -p "$port" "$@")
	for ((try = 1; try <= LAB_CALIBRATION_TRIES; try++)); do
		"$tool" "${common[@]}" > "$LAB_OUT/$name.server" 2>&1 &
		server=$!
		lab_wait 20 "$tool server on port $port" lab_port_listening "$port"
		rc=0 src=0
		timeout 60 "$tool" "${common[@]}" 127.0.0.1 > "$LAB_OUT/$name.client" 2>&1 || rc=$?
		wait "$server" || src=$?
		[ "$try" -lt "$LAB_CALIBRATION_TRIES" ] &&
			lab_perftest_gave_up "$LAB_OUT/$name.server" "$LAB_OUT/$name.client" || break
		lab_log "$name: $tool could not calibrate its clock under TCG (run $try); again"
		cp "$LAB_OUT/$name.server" "$LAB_OUT/$name.server.$try"
		cp "$LAB_OUT/$name.client" "$LAB_OUT/$name.client.$try"
	done
	[ "$rc" -eq 0 ] || lab_fail "$tool client exited $rc: $(tail -n 3 "$LAB_OUT/$name.client")"
	[ "$src" -eq 0 ] || lab_fail "$tool server exited $src: $(tail -n 3 "$LAB_OUT/$name.server")"
	lab_log "$tool: $(grep -A1 -E '^ *#bytes' "$LAB_OUT/$name.client" | tail -n 1 | tr -s ' ')"
}

# --- two hosts -------------------------------------------------------------
#
# In a two-host scenario (scenarios/NAME/a.sh and b.sh, one per guest),
# $LAB_ROLE is "a" or "b", $LAB_PEER_ROLE the other, and $LAB_PAIR the
# pair's directory shared by both guests: $LAB_PAIR/a and $LAB_PAIR/b are
# each side's $LAB_OUT.  Each guest has one virtio NIC on a segment that
# only the two of them share.

LAB_PAIR_PREFIX=24

# lab_pair_addr ROLE: the IPv4 address of side ROLE (a or b) on the segment.
lab_pair_addr() {
	case $1 in
	a) echo 198.51.100.1 ;;
	b) echo 198.51.100.2 ;;
	*) lab_fail "lab_pair_addr: no side '$1'" ;;
	esac
}

# lab_pair_net_up [MTU]: lo up; the segment's NIC found by driver
# (virtio_net), up, with MTU if given and this side's IPv4 address.  Sets
# LAB_NETDEV to its name and LAB_PEER_ADDR to the other side's address.
lab_pair_net_up() {
	local mtu=${1:-}
	[ -n "${LAB_ROLE:-}" ] || lab_fail "lab_pair_net_up: not a two-host scenario"
	ip link set lo up
	modprobe virtio_net
	LAB_NETDEV=
	lab_wait 10 "the segment's virtio NIC" lab_pair_find_nic
	if [ -n "$mtu" ]; then
		ip link set "$LAB_NETDEV" mtu "$mtu"
	fi
	ip link set "$LAB_NETDEV" up
	ip addr add "$(lab_pair_addr "$LAB_ROLE")/$LAB_PAIR_PREFIX" dev "$LAB_NETDEV"
	LAB_PEER_ADDR=$(lab_pair_addr "$LAB_PEER_ROLE")
	lab_wait 10 "carrier on $LAB_NETDEV" lab_has_carrier "$LAB_NETDEV"
	lab_log "$LAB_ROLE: $LAB_NETDEV up, $(lab_pair_addr "$LAB_ROLE"), peer $LAB_PEER_ADDR"
}

lab_pair_find_nic() {
	local d drv
	for d in /sys/class/net/*; do
		drv=$(readlink "$d/device/driver" 2> /dev/null) || continue
		case $drv in
		*/virtio_net)
			LAB_NETDEV=${d##*/}
			return 0
			;;
		esac
	done
	return 1
}

# lab_pair_setup [MTU]: the segment up, rxe0 on it, ACTIVE, and the index
# of its RoCE v2 GID for this side's IPv4 address in LAB_GID (also passed
# to the other side as the value "gid": lab_pair_get gid VAR after a
# barrier).
lab_pair_setup() {
	lab_pair_net_up "$@"
	lab_rxe_add "$LAB_RXE" "$LAB_NETDEV"
	lab_wait_port "$LAB_RXE" ACTIVE
	LAB_GID=$(lab_gid_index_v2_ipv4 "$LAB_RXE" 1 "$(lab_pair_addr "$LAB_ROLE")")
	[ -n "$LAB_GID" ] || lab_fail "no RoCE v2 GID for $(lab_pair_addr "$LAB_ROLE") on $LAB_RXE"
	lab_log "$LAB_ROLE: $LAB_RXE ACTIVE, RoCE v2 IPv4 GID index $LAB_GID"
	lab_pair_put gid "$LAB_GID"
}

# lab_gid_index_v2_ipv4 DEV PORT ADDR: the GID table index of the RoCE v2
# GID that maps IPv4 ADDR (::ffff:ADDR), as sysfs lists it; may wait a
# little, as the GID of a new address is added by a kernel worker.
lab_gid_index_v2_ipv4() {
	local dev=$1 port=$2 addr=$3 want a b c d tries=25 f i gid type
	IFS=. read -r a b c d <<< "$addr"
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
	while [ "$tries" -gt 0 ]; do
		for f in /sys/class/infiniband/"$dev"/ports/"$port"/gids/*; do
			i=${f##*/}
			lab_read "$f" gid 2> /dev/null || continue
			[ "$gid" = "$want" ] || continue
			lab_read "/sys/class/infiniband/$dev/ports/$port/gid_attrs/types/$i" type 2> /dev/null || continue
			if [ "$type" = "RoCE v2" ]; then
				echo "$i"
				return 0
			fi
		done
		tries=$((tries - 1))
		sleep 0.2
	done
}

# lab_barrier NAME [SECONDS]: wait until the other side reaches the same
# barrier (default 60 s).  Fails at once if the other side has failed.
lab_barrier() {
	local name=$1 secs=${2:-60}
	: > "$LAB_PAIR/.barrier.$LAB_ROLE.$name"
	lab_wait "$secs" "$LAB_PEER_ROLE at barrier $name" lab_barrier_reached "$name"
}

lab_barrier_reached() {
	local v=
	[ -e "$LAB_PAIR/.barrier.$LAB_PEER_ROLE.$1" ] && return 0
	if [ -s "$LAB_PAIR/$LAB_PEER_ROLE/result" ]; then
		lab_read "$LAB_PAIR/$LAB_PEER_ROLE/result" v
		case $v in
		PASS*) ;;
		*) lab_fail "$LAB_PEER_ROLE stopped before barrier $1: $v" ;;
		esac
	fi
	return 1
}

# lab_pair_put NAME VALUE / lab_pair_get NAME VAR: pass a small value to
# the other side (call lab_pair_put before a barrier both sides reach,
# lab_pair_get after it).
lab_pair_put() {
	printf '%s\n' "$2" > "$LAB_PAIR/.value.$LAB_ROLE.$1"
}

lab_pair_get() {
	lab_read "$LAB_PAIR/.value.$LAB_PEER_ROLE.$1" "$2" ||
		lab_fail "$LAB_PEER_ROLE did not pass a value named $1"
}

# lab_pair_peer_out FILE: a file the other side wrote to its $LAB_OUT.
lab_pair_peer_out() {
	echo "$LAB_PAIR/$LAB_PEER_ROLE/$1"
}

# lab_pair_serve NAME CMD...: start a server, wait for its TCP port
# ($LAB_PAIR_PORT, default 18515) to listen, tell the client side through
# barrier NAME, then wait (up to 120 s) for the server to finish; it must
# exit 0 unless LAB_PAIR_MAY_FAIL is set.  Its exit status is left in
# LAB_PAIR_RC, its output in $LAB_OUT/NAME.server.  The pair is run once
# more if perftest gave up calibrating its clock (see lab_pair_again),
# unless both sides set LAB_PAIR_ONCE (a server that outlives the client,
# to serve another one).
lab_pair_serve() {
	local name=$1 pid rc try bar=$1
	shift
	local listening=lab_port_listening
	[ -z "${LAB_PAIR_CM:-}" ] || listening=lab_cm_listening
	for ((try = 1; ; try++)); do
		rc=0
		"$@" > "$LAB_OUT/$name.server" 2>&1 &
		pid=$!
		lab_wait 30 "$name server on port ${LAB_PAIR_PORT:-18515}" "$listening" "${LAB_PAIR_PORT:-18515}"
		lab_barrier "$bar"
		timeout 120 tail --pid="$pid" -f /dev/null || kill -9 "$pid" 2> /dev/null || true
		wait "$pid" || rc=$?
		lab_pair_again "$name" "$try" "$LAB_OUT/$name.server" || break
		bar=$name.again.$try
	done
	# shellcheck disable=SC2034 # for the scenario
	LAB_PAIR_RC=$rc
	[ "$rc" -eq 0 ] || [ -n "${LAB_PAIR_MAY_FAIL:-}" ] ||
		lab_fail "$name: server $1 exited $rc: $(tail -n 4 "$LAB_OUT/$name.server")"
	lab_log "$name: server ${1##*/}: $(lab_result_line "$LAB_OUT/$name.server")"
}

# lab_pair_connect NAME CMD...: wait at barrier NAME for the other side's
# server, run the client CMD (its last word is usually $LAB_PEER_ADDR,
# 90 s at most); it must exit 0 unless LAB_PAIR_MAY_FAIL is set.  Its exit
# status is left in LAB_PAIR_RC, its output in $LAB_OUT/NAME.client.  The
# other side calls lab_pair_serve NAME (with the same LAB_PAIR_ONCE), or
# lab_pair_no_server NAME.
lab_pair_connect() {
	local name=$1 rc try bar=$1
	shift
	for ((try = 1; ; try++)); do
		rc=0
		lab_barrier "$bar"
		timeout 90 "$@" > "$LAB_OUT/$name.client" 2>&1 || rc=$?
		lab_pair_again "$name" "$try" "$LAB_OUT/$name.client" || break
		bar=$name.again.$try
	done
	# shellcheck disable=SC2034 # for the scenario
	LAB_PAIR_RC=$rc
	[ "$rc" -eq 0 ] || [ -n "${LAB_PAIR_MAY_FAIL:-}" ] ||
		lab_fail "$name: client $1 exited $rc: $(tail -n 4 "$LAB_OUT/$name.client")"
	lab_log "$name: client ${1##*/}: $(lab_result_line "$LAB_OUT/$name.client")"
}

# lab_pair_no_server NAME: this side serves nothing for the other side's
# lab_pair_connect NAME (a client that must find no server).
lab_pair_no_server() {
	lab_barrier "$1"
	! lab_pair_again "$1" 1 /dev/null ||
		lab_fail "$1: the other side asks to run again a client that has no server"
}

# lab_pair_again NAME TRY FILE: after run TRY of pair NAME, both sides say
# whether their perftest gave up calibrating its clock (see
# LAB_CALIBRATION_TRIES).  True when that happened on either side and
# runs are left: both then run the pair again, together.  The output of
# run TRY is kept as FILE.TRY.
lab_pair_again() {
	local name=$1 try=$2 file=$3 mine=0 theirs=
	[ -z "${LAB_PAIR_ONCE:-}" ] || return 1
	! lab_perftest_gave_up "$file" || mine=1
	lab_pair_put "$name.calibration.$try" "$mine"
	lab_barrier "$name.ran.$try" 150
	lab_pair_get "$name.calibration.$try" theirs
	[ "$try" -lt "$LAB_CALIBRATION_TRIES" ] && [ "$mine$theirs" != 00 ] || return 1
	local who="the other side"
	[ "$mine" = 0 ] || who="this side"
	lab_log "$name: perftest on $who could not calibrate its clock under TCG (run $try); both sides run it again"
	[ "$file" = /dev/null ] || cp "$file" "$file.$try"
}

# lab_pair_snapshot NAME NETDEV_MTU ACTIVE_MTU: oracles and snapshot NAME
# of this side; rdmadiag must show the netdev MTU and the port's active
# MTU given, and agree with ibv_devinfo.
lab_pair_snapshot() {
	local p=devices.$LAB_RXE.ports.1
	lab_oracles "$1"
	lab_snapshot "$1"
	assert_same "$p.verbs.active_mtu" ibv_devinfo:active_mtu "active_mtu as ibv_devinfo has it"
	assert_snap "$p.verbs.active_mtu" "$3"
	assert_snap "netdevs.$LAB_NETDEV.mtu" "$2"
}

# lab_ran_at_mtu FILE BYTES: perftest's or rdmadiag's header in FILE shows
# the test ran at MTU BYTES.
lab_ran_at_mtu() {
	grep -q "^ *Mtu *: *$2\\[B\\]" "$1" ||
		lab_fail "$1: not run at MTU $2 bytes: $(grep -i '^ *mtu' "$1")"
	lab_log "ok: ${1##*/} ran at MTU $2 bytes"
}

# lab_result_line FILE: the figures under perftest's #bytes header.
lab_result_line() {
	grep -A1 -E '^ *#bytes' "$1" | tail -n 1 | tr -s ' \t' ' '
}

# --- rdmadiag and the oracles --------------------------------------------

lab_require_rdmadiag() {
	[ -x "$RDMADIAG" ] || lab_fail "rdmadiag binary not found at $RDMADIAG (build it first)"
}

# lab_tmux_ready: tmux can run in the guest (sockets in /tmp/tmux-lab,
# a devpts for its pseudo-terminals), or the scenario is skipped.
lab_tmux_ready() {
	command -v tmux > /dev/null || lab_skip "tmux not installed on the host"
	mkdir -p /tmp/tmux-lab && chmod 700 /tmp/tmux-lab
	[ -e /dev/ptmx ] || lab_skip "no pseudo-terminals in the guest"
	if ! grep -q devpts /proc/mounts; then
		mkdir -p /dev/pts
		mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts 2>/dev/null ||
			lab_skip "cannot mount devpts for tmux"
	fi
}

# lab_flatten ARRAY PREFIX FILE...: load JSON FILEs into the associative
# ARRAY (one jq run).  PREFIX "" for plain keys, @file for "name:" keys.
lab_flatten() {
	local -n _lab_tab=$1
	local prefix=$2 k v
	shift 2
	_lab_tab=()
	while IFS=$'\t' read -r k v; do
		_lab_tab["$k"]=$v
	done < <(jq -r --arg prefix "$prefix" -f "$LAB_SRCDIR/flatten.jq" "$@" ||
		printf '__error__\tjq failed\n')
	[ -z "${_lab_tab[__error__]+set}" ]
}

# lab_snapshot NAME: run `rdmadiag snapshot --json` into $LAB_OUT/NAME.json
# (stderr in NAME.err), require exit 0 and valid JSON; sets $SNAP and S[].
lab_snapshot() {
	local name=$1 rc=0
	lab_require_rdmadiag
	SNAP=$LAB_OUT/$name.json
	"$RDMADIAG" snapshot --json > "$SNAP" 2> "$LAB_OUT/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || lab_fail "rdmadiag snapshot ($name) exited $rc: $(tail -n 3 "$LAB_OUT/$name.err")"
	if ! lab_flatten S "" "$SNAP" || [ -z "${S[schema_version]+set}" ]; then
		lab_fail "rdmadiag snapshot ($name) did not print a JSON object with a schema_version"
	fi
}

# lab_oracles NAME: save what the stock tools say into $LAB_OUT/NAME.oracle/,
# set $ORACLE and ORA[].  A tool that fails leaves "null" and a .err file.
lab_oracles() {
	ORACLE=$LAB_OUT/$1.oracle
	mkdir -p "$ORACLE"
	lab_oracle_json rdma-link rdma -j link show
	lab_oracle_json rdma-statistic rdma -j statistic show
	lab_oracle_json ip-link ip -j -d link show
	ibv_devinfo -v > "$ORACLE/ibv_devinfo.txt" 2>&1 || true
	if [ -e "/sys/class/net/$LAB_NETDEV" ]; then
		ethtool -S "$LAB_NETDEV" > "$ORACLE/ethtool-S.txt" 2>&1 || true
	fi
	lab_flatten ORA @file "$ORACLE"/*.json || lab_fail "oracle output is not JSON: $ORACLE"
	local line k v
	while IFS= read -r line; do
		if [[ $line =~ ^[[:space:]]*GID\[\ *([0-9]+)\]:[[:space:]]*(.*)$ ]]; then
			k=GID.${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		elif [[ $line =~ ^[[:space:]]*([A-Za-z0-9_]+):[[:space:]]*(.*)$ ]]; then
			k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]% (*}
		else
			continue
		fi
		[ -n "${ORA[ibv_devinfo:$k]+set}" ] || ORA[ibv_devinfo:$k]=$v
	done < "$ORACLE/ibv_devinfo.txt"
}

# lab_oracle_json NAME CMD...: CMD's JSON into $ORACLE/NAME.json.
lab_oracle_json() {
	local name=$1
	shift
	"$@" > "$ORACLE/$name.json" 2> "$ORACLE/$name.err" || echo null > "$ORACLE/$name.json"
	[ -s "$ORACLE/$name.err" ] || rm -f "$ORACLE/$name.err"
}

# --- rdmadiag check, fix and undo ---------------------------------------

# diag_check NAME: rdmadiag check --json into $LAB_OUT/NAME.json; sets $CHK
# and $RC (its exit status); requires a JSON array.
diag_check() {
	CHK=$LAB_OUT/$1.json
	RC=0
	"$RDMADIAG" check --json --window 0 > "$CHK" 2> "$LAB_OUT/$1.err" || RC=$?
	jq -e "type == \"array\"" "$CHK" > /dev/null ||
		lab_fail "check ($1) did not print a JSON array: $(tail -n 3 "$LAB_OUT/$1.err")"
}

# diag_first_cause DEV PORT: the cause the port would be reported for
# first in $CHK: its first FAIL, else its first WARN.
DIAG_FIRST='[.[] | select(.device == $d and .port == $p)] as $r |
	([$r[] | select(.verdict == "FAIL")] + [$r[] | select(.verdict == "WARN")])[0].cause'
diag_first_cause() {
	jq -r --arg d "$1" --argjson p "$2" "$DIAG_FIRST" "$CHK"
}

# diag_fix NAME ARGS...: rdmadiag fix ARGS --yes with the scenario's
# journal; output in $LAB_OUT/NAME.out, exit status in $RC.
diag_fix() {
	local name=$1
	shift
	RC=0
	"$RDMADIAG" fix "$@" --yes --journal "$LAB_OUT/journal.jsonl" \
		> "$LAB_OUT/$name.out" 2>&1 || RC=$?
}

# --- assertions -----------------------------------------------------------

# assert_eq EXPECTED ACTUAL WHAT
assert_eq() {
	if [ "$1" != "$2" ]; then
		lab_fail "$3: expected '$1', got '$2'"
	fi
	lab_log "ok: $3 = '$2'"
}

# assert_snap KEY EXPECTED [WHAT]: S[KEY] is EXPECTED ("<absent>" if unset).
assert_snap() {
	assert_eq "$2" "${S[$1]-<absent>}" "${3:-rdmadiag $1}"
}

# assert_same KEY ORACLE_KEY [WHAT]: rdmadiag's S[KEY] equals ORA[ORACLE_KEY],
# which must be present.
assert_same() {
	[ -n "${ORA[$2]+set}" ] || lab_fail "oracle has no $2 (see $ORACLE)"
	assert_eq "${ORA[$2]}" "${S[$1]-<absent>}" "${3:-rdmadiag $1 = $2}"
}

# assert_json FILE FILTER EXPECTED [WHAT]: jq -r -c FILTER on FILE prints
# EXPECTED.  For what a table lookup cannot say.
assert_json() {
	local file=$1 filter=$2 expected=$3 what=${4:-$2} actual
	actual=$(jq -r -c "$filter" "$file" 2>&1) || lab_fail "$what: jq '$filter' failed on $file: $actual"
	assert_eq "$expected" "$actual" "$what"
}

# assert_json_true FILE FILTER [WHAT]: FILTER yields true on FILE.
assert_json_true() {
	local file=$1 filter=$2 what=${3:-$2}
	jq -e "$filter" "$file" > /dev/null 2>&1 || lab_fail "$what: not true in $file"
	lab_log "ok: $what"
}

# assert_counters_agree [DEV [PORT]]: every counter of rdma statistic is in
# rdmadiag's hw_counters with the same value (call on an idle port).
assert_counters_agree() {
	local dev=${1:-$LAB_RXE} port=${2:-1} k name n=0
	local pfx="rdma-statistic:$dev/$port."
	for k in "${!ORA[@]}"; do
		[[ $k == "$pfx"* ]] || continue
		name=${k#"$pfx"}
		case $name in ifname | port | '#') continue ;; esac
		[ "${S[devices.$dev.ports.$port.hw_counters.$name]-<absent>}" = "${ORA[$k]}" ] ||
			lab_fail "hw_counters.$name of $dev/$port: rdma statistic says ${ORA[$k]}," \
				"rdmadiag ${S[devices.$dev.ports.$port.hw_counters.$name]-<absent>}"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || lab_fail "rdma statistic shows no counters for $dev/$port"
	lab_log "ok: $n hw_counters of $dev/$port agree with rdma statistic"
}

# --- jq lookups (one jq run each: prefer S[] and ORA[] in loops) ---------

# snap_port FIELD [DEV [PORT]]: a field of one port in $SNAP.
snap_port() {
	jq -r --arg d "${2:-$LAB_RXE}" --argjson p "${3:-1}" --arg f "$1" \
		'.devices[] | select(.name == $d) | .ports[] | select(.port == $p) | .[$f]' "$SNAP"
}

# snap_dev FIELD [DEV]: a device-level field in $SNAP.
snap_dev() {
	jq -r --arg d "${2:-$LAB_RXE}" --arg f "$1" \
		'.devices[] | select(.name == $d) | .[$f]' "$SNAP"
}

# snap_netdev FIELD [NETDEV]: a field of one netdevs[] entry in $SNAP.
snap_netdev() {
	jq -r --arg n "${2:-$LAB_NETDEV}" --arg f "$1" \
		'.netdevs[] | select(.name == $n) | .[$f]' "$SNAP"
}

# oracle_port FIELD [DEV [PORT]]: a field of one port in $ORACLE's rdma link.
oracle_port() {
	jq -r --arg d "${2:-$LAB_RXE}" --argjson p "${3:-1}" --arg f "$1" \
		'.[] | select(.ifname == $d and .port == $p) | .[$f]' "$ORACLE/rdma-link.json"
}

# oracle_stat COUNTER [DEV [PORT]]: a counter from $ORACLE's rdma statistic.
oracle_stat() {
	jq -r --arg d "${2:-$LAB_RXE}" --argjson p "${3:-1}" --arg c "$1" \
		'.[] | select(.ifname == $d and .port == $p) | .[$c]' "$ORACLE/rdma-statistic.json"
}
