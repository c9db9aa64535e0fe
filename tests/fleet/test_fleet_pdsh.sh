#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pdsh (-R exec, no ssh) fans `rdmadiag check --json --root DIR` out over
# fixture trees standing in for hosts; `rdmadiag report` groups them. A
# host whose command fails is listed as not answering; truncated or garbage
# output of one host is listed as such and the others are still reported.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
# shellcheck source=../jq-strict.sh
. "$src/tests/jq-strict.sh"
bin=${RDMADIAG_BIN:-./src/rdmadiag}
fix="$src/tests/fixtures"
pass=0 fail=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }
command -v pdsh >/dev/null || { echo "SKIP pdsh is not installed (apt-get install pdsh)"; exit 77; }

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir "$tmp/hosts"
# host1 and host3 are the same kind of host; host4 has no tree: its check fails.
ln -s "$fix/rxe0-healthy" "$tmp/hosts/host1"
# host2's tree names its host rdma-host01, which its results would give as
# their host: that name, filed under host2, would be a conflict. The tree
# here names itself host2, as the host pdsh reaches would.
mkdir "$tmp/hosts/host2"
for d in dev etc sys; do ln -s "$fix/cx6dx-roce-port-down/$d" "$tmp/hosts/host2/$d"; done
cp -r "$fix/cx6dx-roce-port-down/proc" "$tmp/hosts/host2/proc"
chmod -R u+w "$tmp/hosts/host2/proc"
echo host2 > "$tmp/hosts/host2/proc/sys/kernel/hostname"
ln -s "$fix/rxe0-healthy" "$tmp/hosts/host3"

pdsh -R exec -w 'host[1-4]' "$bin" check --json --window 0 \
	--root "$tmp/hosts/%h" > "$tmp/gathered" 2>&1
n=$(grep -c '^host[1-4]: ' "$tmp/gathered")
[ "$n" -gt 100 ] && ok "pdsh gathered $n prefixed lines" || bad "pdsh gathered $n lines"
grep -q 'host4: .*exited with exit code 3' "$tmp/gathered" &&
	ok "pdsh reports host4's exit code 3" || bad "no exit line for host4"

"$bin" report --json "$tmp/gathered" > "$tmp/r.json"; rc=$?
[ $rc -eq 2 ] && ok "report exits 2 (a FAIL)" || bad "report exit $rc, want 2"
jq -e '.hosts_total == 4 and .answered == 3 and .no_answer == 1 and .malformed == 0' \
	"$tmp/r.json" >/dev/null && ok "3 answered, 1 not" || bad "counts: $(jq -c '[.hosts_total,.answered,.no_answer,.malformed]' "$tmp/r.json")"
jq -e '.hosts[] | select(.host == "host4") | .state == "no_answer" and .exit_code == 3 and
	(.reason | test("cannot take a snapshot"))' "$tmp/r.json" >/dev/null &&
	ok "host4 did not answer: exit code 3 and its error" || bad "host4: $(jq -c '.hosts[] | select(.host == "host4")' "$tmp/r.json")"
# Each finding equals what each host's own check says.
for h in 1 2 3; do
	want=$("$bin" check --json --window 0 --root "$tmp/hosts/host$h" |
		jq -c '[.[] | select(.verdict != "PASS") | [.verdict, .check, .summary]] | sort')
	got=$(jq -c --arg h "host$h" '[.findings[] | select(.hosts | index($h)) |
		[.verdict, .check, .summary]] | sort' "$tmp/r.json")
	[ "$want" = "$got" ] && ok "host$h: findings match its own check" ||
		bad "host$h: findings differ"
done
jq -e '.findings[] | select(.check == "port.mtu" and .verdict == "WARN" and
	(.summary | startswith("rxe0/1: RoCE MTU 1024 (veth0 MTU too low)"))) |
	.hosts == ["host1", "host3"] and .count == 2' "$tmp/r.json" >/dev/null &&
	ok "identical finding grouped: host1, host3" || bad "no group of host1 and host3"
jq -e '[.findings[].verdict] | . as $v | [$v[] | {"FAIL":3,"WARN":2,"UNKNOWN":1}[.]] |
	. == (sort | reverse)' "$tmp/r.json" >/dev/null &&
	ok "findings ranked worst first" || bad "findings not ranked"
jq -e '.hosts[] | select(.host == "host1") | (.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))' \
	"$tmp/r.json" >/dev/null && ok "check --json carries the time" || bad "no time"
# This host: the name the kernel gives (a fixture tree has none: null).
live=$("$bin" check --json --window 0 2>/dev/null | jq -r '.[0].host')
[ "$live" = "$(uname -n)" ] && ok "check --json on this host names it: $live" ||
	bad "check --json on this host: host \"$live\", uname -n $(uname -n)"

"$bin" report "$tmp/gathered" > "$tmp/r.txt"
grep -q '^  WARN     port.mtu           2 hosts: rxe0/1: RoCE MTU 1024 (veth0 MTU too low)' "$tmp/r.txt" &&
	grep -q 'on host\[1,3\]$' "$tmp/r.txt" && ok "text: 2 hosts grouped" || bad "text grouping"
grep -A1 '^Hosts that did not answer (1):' "$tmp/r.txt" | grep -q '^  host4 .*exit code 3' &&
	ok "text: host4 did not answer" || bad "text: host4 missing"

# --hosts: a host pdsh never reached is listed too.
printf '# the rack\nhost[1-5]\n' > "$tmp/list"
"$bin" report --json --hosts "$tmp/list" "$tmp/gathered" > "$tmp/l.json"
jq -e '.hosts[] | select(.host == "host5") | .state == "no_answer" and .reason == "no output"' \
	"$tmp/l.json" >/dev/null && ok "--hosts: host5 had no output" || bad "--hosts: host5"

# Truncated output of host2 (its last 40 lines lost) and an escape
# sequence from host3: listed, the others still reported.
n2=$(grep -c '^host2: ' "$tmp/gathered")
{ grep -v '^host[23]: ' "$tmp/gathered"
  grep '^host2: ' "$tmp/gathered" | head -n $((n2 - 40))
  printf 'host3: \033[2Jgarbage\n'; } > "$tmp/cut"
"$bin" report --json "$tmp/cut" > "$tmp/c.json"; rc=$?
jq -e '(.hosts[] | select(.host == "host2") | .state == "malformed" and (.reason | test("truncated"))) and
	(.hosts[] | select(.host == "host3") | .state == "malformed") and
	(.hosts[] | select(.host == "host1") | .state == "answered")' "$tmp/c.json" >/dev/null &&
	ok "truncated and garbage hosts listed, host1 still reported" || bad "bad output: $(jq -c '[.hosts[] | [.host,.state,.reason]]' "$tmp/c.json")"
"$bin" report "$tmp/cut" > "$tmp/c.txt"
if grep -q $'\033' "$tmp/c.txt"; then bad "raw escape byte printed"; else
	grep -q 'host3 .*\\x1b\[2Jgarbage' "$tmp/c.txt" && ok "host bytes escaped" || bad "escaped text missing"; fi

# A directory of files, one per host, written through pdsh.
mkdir "$tmp/dir"
for h in 1 2 3; do
	"$bin" check --json --window 0 --root "$tmp/hosts/host$h" > "$tmp/dir/host$h.json"
done
"$bin" report --json "$tmp/dir" > "$tmp/d1.json"
jq -c '.findings' "$tmp/d1.json" > "$tmp/d.json"
jq -c '.findings' "$tmp/r.json" > "$tmp/p.json"
cmp -s "$tmp/d.json" "$tmp/p.json" && ok "directory input: same findings as pdsh" || bad "directory findings differ"

# A host ssh cannot reach (nothing listens on port 1): pdsh's own ssh
# error lines, as it prints them, make it a host that did not answer.
if command -v ssh >/dev/null; then
	PDSH_SSH_ARGS_APPEND="-p 1 -o BatchMode=yes -o ConnectTimeout=5" \
		timeout 60 pdsh -R ssh -w localhost "$bin" check --json > "$tmp/ssh" 2>&1
	cat "$tmp/gathered" "$tmp/ssh" > "$tmp/with-ssh"
	"$bin" report --json "$tmp/with-ssh" > "$tmp/s.json"
	jq -e '.hosts_total == 5 and (.hosts[] | select(.host == "localhost") |
		.state == "no_answer" and .exit_code == 255 and (.reason | test("Connection refused")))' \
		"$tmp/s.json" >/dev/null && ok "ssh failure: localhost did not answer (exit code 255)" ||
		bad "ssh failure: $(cat "$tmp/ssh")"
	jq -c '.findings' "$tmp/s.json" | cmp -s - "$tmp/p.json" &&
		ok "ssh failure: the other hosts' findings unchanged" || bad "ssh failure changed findings"
else
	echo "skip ssh failure (no ssh client)"
fi

# A host whose command outlives the tool's timeout (-u): pdsh's and clush
# -b's "command timeout" (clush's behind its progress counter) make it a
# host that did not answer.
timeout 30 pdsh -R exec -u 1 -w slow1 sleep 20 > "$tmp/slow" 2>&1
if command -v clush >/dev/null; then
	timeout 30 clush -R exec -u 1 -b -w 'slow[2-3]' sleep 20 >> "$tmp/slow" 2>&1
fi
cat "$tmp/gathered" "$tmp/slow" > "$tmp/with-slow"
"$bin" report --json "$tmp/with-slow" > "$tmp/w.json"
jq -e '[.hosts[] | select(.host | startswith("slow"))] | length > 0 and
	all(.state == "no_answer" and (.reason | test("timeout")))' "$tmp/w.json" >/dev/null &&
	ok "command timeout: $(jq -r '[.hosts[] | select(.host | startswith("slow")) | .host] | join(", ")' "$tmp/w.json") did not answer" ||
	bad "command timeout: $(jq -c '[.hosts[] | [.host, .state, .reason]]' "$tmp/w.json") from $(cat -A "$tmp/slow")"

# dshbak -c (from pdsh) groups the same output as clush -b does, pdsh's
# own lines under "pdsh@node".
if command -v dshbak >/dev/null; then
	dshbak -c < "$tmp/gathered" > "$tmp/dshbak"
	"$bin" report --json "$tmp/dshbak" > "$tmp/b.json"
	jq -c '.findings' "$tmp/b.json" | cmp -s - "$tmp/p.json" &&
		ok "dshbak -c: same findings as pdsh" || bad "dshbak -c findings differ"
	jq -e '.hosts_total == 4 and (.hosts[] | select(.host == "host4") |
		.state == "no_answer" and .exit_code == 3)' "$tmp/b.json" >/dev/null &&
		ok "dshbak -c: host4 did not answer (exit code 3)" || bad "dshbak -c: $(jq -c '[.hosts[] | [.host, .state]]' "$tmp/b.json")"
fi

# clush -b groups, when clush is here.
if command -v clush >/dev/null; then
	clush -R exec -b -w 'host[1-4]' "$bin" check --json --window 0 \
		--root "$tmp/hosts/%h" > "$tmp/clush" 2>&1
	"$bin" report --json "$tmp/clush" > "$tmp/k2.json"
	jq -c '.findings' "$tmp/k2.json" > "$tmp/k.json"
	cmp -s "$tmp/k.json" "$tmp/p.json" && ok "clush -b: same findings as pdsh" || bad "clush -b findings differ"
	jq -e '.hosts[] | select(.host == "host4") | .state == "no_answer"' "$tmp/k2.json" \
		>/dev/null && ok "clush -b: host4 did not answer" || bad "clush -b: host4: $(jq -c .hosts "$tmp/k2.json")"
else
	echo "skip clush -b (clustershell not installed)"
fi

# One set of options over a mixed fleet: --only port.ib_mtu has nothing
# to judge on the RoCE host, which answers with no results; the summary
# counts it apart, not as a PASS, and the host is not "did not answer".
mkdir "$tmp/mixed"
ln -s "$fix/cx5-ib-init-no-sm" "$tmp/mixed/ib1"
ln -s "$fix/cx6dx-roce-port-down" "$tmp/mixed/roce1"
pdsh -R exec -w 'ib1,roce1' "$bin" check --json --window 0 --only port.ib_mtu \
	--root "$tmp/mixed/%h" > "$tmp/mixed.out" 2>&1
"$bin" report "$tmp/mixed.out" > "$tmp/mixed.txt"
"$bin" report --json "$tmp/mixed.out" > "$tmp/mixed.json"
if jq -e '.answered == 2 and .no_answer == 0 and
	(.hosts[] | select(.host == "roce1") | .state == "answered" and .worst == null)' \
	"$tmp/mixed.json" >/dev/null &&
	grep -q '^2 hosts: 2 answered (worst verdict: .*; 1 with nothing judged), ' "$tmp/mixed.txt" &&
	! grep -q ' 1 PASS' "$tmp/mixed.txt"; then
	ok "--only with nothing to judge on one host: answered, counted apart"
else
	bad "mixed fleet: $(head -n 1 "$tmp/mixed.txt") $(jq -c '[.answered,.no_answer]' "$tmp/mixed.json")"
fi

# Nothing usable: a clear message and exit 3, never a crash.
: > "$tmp/empty"
"$bin" report "$tmp/empty" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 3 ] && grep -q 'no host output' "$tmp/err" && ok "empty input: exit 3" || bad "empty input: exit $rc"
"$bin" report "$tmp/nonexistent" > /dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && ok "missing file: exit 3" || bad "missing file: exit $rc"
head -c 100000 /dev/urandom > "$tmp/random"
"$bin" report "$tmp/random" > /dev/null 2>&1; rc=$?
[ $rc -le 3 ] && ok "random bytes: exit $rc" || bad "random bytes: exit $rc"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
