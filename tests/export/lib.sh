# SPDX-License-Identifier: GPL-2.0-or-later
# Shared pieces of the export tests: where things are, skipping, servers
# on free loopback ports, and a normaliser for the exposition format.
set -euo pipefail
srcdir=${RDMADIAG_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${RDMADIAG_BIN:-$srcdir/build/werror/src/rdmadiag}
fixtures=$srcdir/tests/fixtures
# shellcheck source=../jq-strict.sh
. "$srcdir/tests/jq-strict.sh"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

skip() {	# skip REASON: automake's SKIP status
	echo "SKIP: $*"
	exit 77
}

need() {	# need PROGRAM PACKAGE
	command -v "$1" >/dev/null 2>&1 ||
		skip "$1 is not installed (Debian package $2)"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# Fixture trees with an RDMA class directory: name and root, one a line.
fixture_trees() {
	local d
	for d in "$fixtures"/*/ "$fixtures"/real-*/tree/; do
		d=${d%/}
		[ -d "$d/sys/class/infiniband" ] && echo "$d"
	done
	return 0
}

# A port nobody listens on now (the server started on it may still lose a
# race; start_server retries with another).
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 40000))
		if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# wait_http URL SECONDS: until the URL answers 200.
wait_http() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		curl -fsS -m 2 -o /dev/null "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# start_server LOG PATH CMD... with @PORT@ in CMD replaced by a free port;
# sets port and server_pid once http://127.0.0.1:PORT/PATH answers.
start_server() {
	local log=$1 path=$2 try
	shift 2
	for try in 1 2 3 4 5; do
		port=$(free_port) || fail "no free loopback port"
		"${@//@PORT@/$port}" >"$log" 2>&1 &
		server_pid=$!
		pids+=("$server_pid")
		# Answered, and still ours: another program may hold the port
		# and answer while ours gives up on it.
		if wait_http "http://127.0.0.1:$port$path" 10 && sleep 0.3 &&
			kill -0 "$server_pid" 2>/dev/null; then
			return 0
		fi
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	done
	cat "$log"
	fail "$1 did not start: $*"
}

# Exposition text on stdin -> "name{a="x",b="y"} value" with the labels
# sorted by name and the value as a number, one series a line, sorted:
# two exporters' outputs compare with diff/comm.
normalize() {
	awk '
	/^#/ || /^[ \t]*$/ { next }
	{
		line = $0; i = index(line, "{"); sp = index(line, " ")
		if (i == 0 || i > sp) {
			name = substr(line, 1, sp - 1); rest = substr(line, sp + 1)
			printf "%s{} %.17g\n", name, rest + 0; next
		}
		name = substr(line, 1, i - 1); pos = i + 1; n = 0
		while (substr(line, pos, 1) != "}") {
			eq = index(substr(line, pos), "=")
			lname = substr(line, pos, eq - 1); pos += eq + 1
			val = ""
			while ((c = substr(line, pos, 1)) != "\"") {
				if (c == "\\") { val = val c substr(line, pos + 1, 1); pos += 2 }
				else { val = val c; pos++ }
			}
			pos++
			if (substr(line, pos, 1) == ",") pos++
			lab[++n] = lname "=\"" val "\""
		}
		for (a = 2; a <= n; a++)	# insertion sort by label name
			for (b = a; b > 1 && lab[b] < lab[b - 1]; b--) {
				t = lab[b]; lab[b] = lab[b - 1]; lab[b - 1] = t
			}
		out = ""
		for (a = 1; a <= n; a++) out = out (a > 1 ? "," : "") lab[a]
		v = substr(line, pos + 1); sub(/^[ \t]+/, "", v); sub(/[ \t].*$/, "", v)
		printf "%s{%s} %.17g\n", name, out, v + 0
	}' | LC_ALL=C sort
}
