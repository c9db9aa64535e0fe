#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Gathered output a fleet member can forge: clush -b prints each host's
# standard output raw, so a host can print a group separator and a header
# naming another host. A name given output twice, or output and the tool's
# word that the host did not answer, is a conflict, never first-wins. A NUL
# byte damages its own host's line only, and every byte counts against the
# input limit.
set -uo pipefail
src=${RDMADIAG_SRCDIR:?}
# shellcheck source=../jq-strict.sh
. "$src/tests/jq-strict.sh"
bin=${RDMADIAG_BIN:-./src/rdmadiag}
pass=0 fail=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
command -v jq >/dev/null || { echo "FAIL jq is required (apt-get install jq)"; exit 1; }

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
sep=---------------
fail_json='[{"check":"port.state","verdict":"FAIL","cause":"no_carrier","summary":"mlx5_0/1 DOWN","host":"victim"}]'
pass_json='[{"check":"port.state","verdict":"PASS","cause":"ok","summary":"mlx5_0/1 ACTIVE","host":"victim"}]'
state() { jq -r --arg h "$2" '.hosts[] | select(.host == $h) | .state' "$1"; }

# evil prints its own (empty) result, then a group for victim, all PASS.
printf '#!/bin/sh\necho "[]"\nprintf -- "%s\\nvictim\\n%s\\n"\necho %q\n' \
	"$sep" "$sep" "$pass_json" > "$tmp/run-evil"
printf '#!/bin/sh\necho %q\n' "$fail_json" > "$tmp/run-victim"
printf '#!/bin/sh\necho %q\nexit 255\n' "${pass_json/victim/gone}" > "$tmp/run-gone"
chmod +x "$tmp"/run-*
if command -v clush >/dev/null; then
	clush -R exec -b -w 'evil,victim' "$tmp/run-%h" > "$tmp/clush" 2>&1
else
	# clush -b's layout, as it prints it.
	printf '%s\nevil\n%s\n[]\n%s\nvictim\n%s\n%s\n%s\nvictim\n%s\n%s\n' \
		"$sep" "$sep" "$sep" "$sep" "$pass_json" "$sep" "$sep" "$fail_json" > "$tmp/clush"
fi
[ "$(grep -c '^victim$' "$tmp/clush")" -eq 2 ] && ok "clush -b shows two groups for victim" ||
	bad "clush -b output: $(cat -A "$tmp/clush")"
"$bin" report --json "$tmp/clush" > "$tmp/f.json"; rc=$?
[ "$(state "$tmp/f.json" victim)" = conflict ] &&
	jq -e '.conflict == 1 and (.hosts[] | select(.host == "victim") | .reason | test("two groups"))' "$tmp/f.json" >/dev/null &&
	ok "forged group: victim is a conflict" || bad "forged group: $(jq -c '[.hosts[] | [.host,.state,.reason]]' "$tmp/f.json")"
[ $rc -eq 2 ] && ok "forged group: the victim's FAIL still counts (exit 2)" || bad "forged group: exit $rc, want 2"
jq -e '.findings[] | select(.verdict == "FAIL") | .hosts == ["victim"]' "$tmp/f.json" >/dev/null &&
	ok "forged group: the victim's FAIL is listed" || bad "forged group: findings $(jq -c .findings "$tmp/f.json")"
"$bin" report "$tmp/clush" > "$tmp/f.txt"
grep -q '^Hosts whose output conflicts (1):' "$tmp/f.txt" && grep -q '^  victim ' "$tmp/f.txt" &&
	ok "forged group: text lists the conflict" || bad "forged group text: $(cat "$tmp/f.txt")"

# The same forged group after the real one: still a conflict.
printf '%s\nvictim\n%s\n%s\n%s\nevil\n%s\n[]\n%s\nvictim\n%s\n%s\n' \
	"$sep" "$sep" "$fail_json" "$sep" "$sep" "$sep" "$sep" "$pass_json" > "$tmp/after"
"$bin" report --json "$tmp/after" > "$tmp/a.json"; rc=$?
[ "$(state "$tmp/a.json" victim)" = conflict ] && [ $rc -eq 2 ] &&
	ok "forged group after the real one: conflict, exit 2" || bad "forged after: exit $rc, $(state "$tmp/a.json" victim)"

# Output, and the tool says the host exited 255: a conflict, not answered.
if command -v clush >/dev/null; then
	clush -R exec -b -w 'gone' "$tmp/run-%h" > "$tmp/gone" 2>&1
else
	printf '%s\ngone\n%s\n%s\nclush: gone: exited with exit code 255\n' "$sep" "$sep" "${pass_json/victim/gone}" > "$tmp/gone"
fi
"$bin" report --json "$tmp/gone" > "$tmp/g.json"; rc=$?
[ "$(state "$tmp/g.json" gone)" = conflict ] && [ $rc -ge 1 ] &&
	ok "output and exit code 255: conflict, exit $rc" || bad "exit 255 with output: $(jq -c .hosts "$tmp/g.json") exit $rc"

# A result filed under one name that names another host.
printf 'n1: %s\n' "$pass_json" > "$tmp/named"
"$bin" report --json "$tmp/named" > "$tmp/n.json"; rc=$?
[ "$(state "$tmp/n.json" n1)" = conflict ] && [ $rc -eq 1 ] &&
	jq -e '.hosts[0].reason | test("victim")' "$tmp/n.json" >/dev/null &&
	ok "results naming another host: conflict" || bad "host field: $(jq -c .hosts "$tmp/n.json") exit $rc"
# The short name of a fully qualified one is the same host.
printf 'victim.example.net: %s\n' "$pass_json" > "$tmp/fqdn"
"$bin" report --json "$tmp/fqdn" > "$tmp/q.json"; rc=$?
[ "$(state "$tmp/q.json" victim.example.net)" = answered ] && [ $rc -eq 0 ] &&
	ok "short name of the name filed under: answered" || bad "fqdn: $(jq -c .hosts "$tmp/q.json")"

# A NUL byte hides nothing of another host.
{ printf 'evil: x\0y\n'; printf 'victim: %s\n' "$fail_json"; } > "$tmp/nul"
"$bin" report --json "$tmp/nul" > "$tmp/z.json"; rc=$?
[ "$(state "$tmp/z.json" victim)" = answered ] && [ "$(state "$tmp/z.json" evil)" = malformed ] && [ $rc -eq 2 ] &&
	jq -e '.hosts[] | select(.host == "evil") | .reason | test("NUL")' "$tmp/z.json" >/dev/null &&
	ok "NUL byte: evil malformed, victim's line read (exit 2)" ||
	bad "NUL byte: $(jq -c '[.hosts[] | [.host,.state,.reason]]' "$tmp/z.json") exit $rc"
# /dev/zero ends at the input limit.
start=$SECONDS
timeout 60 "$bin" report /dev/zero > /dev/null 2> "$tmp/zero.err"; rc=$?
[ $rc -eq 3 ] && ok "report /dev/zero ends (exit 3, $((SECONDS - start)) s)" || bad "report /dev/zero: exit $rc $(cat "$tmp/zero.err")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
