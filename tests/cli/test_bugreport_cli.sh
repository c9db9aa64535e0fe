#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag bugreport: the bundle is a tar.gz that tar reads, it holds what
# its README says, its recording and snapshot load with check --load and
# give the verdicts the bundle's own check.json has; a redacted bundle
# holds none of the host's identifiers (read from the unredacted one),
# gives the same verdicts, and one value has one stand-in everywhere.
. "$(dirname "$0")/lib.sh"
command -v tar >/dev/null || { echo "SKIP: tar is needed to read the bundle"; exit 77; }

root=$fix/cx6dx-roce-port-down-kmsg
members="README.txt check.json check.txt kernel-log.txt recording.jsonl snapshot.json version.txt"

bundle() {	# bundle NAME ARGS...: write and unpack NAME.tar.gz
	local name=$1
	shift
	"$bin" bugreport -o "$tmp/$name.tar.gz" --seconds 1 "$@" 2>"$tmp/$name.err" ||
		{ bad "bugreport $*: exit $?: $(cat "$tmp/$name.err")"; return 1; }
	mkdir -p "$tmp/$name"
	tar -xzf "$tmp/$name.tar.gz" -C "$tmp/$name" ||
		{ bad "$name.tar.gz does not unpack"; return 1; }
}

verdicts() {	# the id, verdict, device and port of each result, one a line
	jq -r '.[] | [.check, .verdict, (.device // "-"), (.port // "-" | tostring)] | join(" ")' | sort
}

bundle plain --root "$root" || { finish; exit 1; }
d=$tmp/plain/rdmadiag-bugreport
got=$(tar -tzf "$tmp/plain.tar.gz" | sed 's|^rdmadiag-bugreport/||' | grep . | sort | tr '\n' ' ')
[ "$got" = "$members " ] && ok "the bundle holds $members" || bad "members: $got"
for m in ${members#README.txt }; do
	grep -q "$m" "$d/README.txt" || bad "README.txt does not describe $m"
done
grep -qx "rdmadiag [0-9.]*" <(head -1 "$d/version.txt") && grep -q '^  libibverbs ' "$d/version.txt" &&
	ok "version.txt: the version and the libraries" || bad "version.txt: $(head -3 "$d/version.txt")"
[ "$(wc -l <"$d/recording.jsonl")" -ge 2 ] && ok "a recording of 2 frames or more" ||
	bad "recording.jsonl has $(wc -l <"$d/recording.jsonl") lines"
grep -q "Cable unplugged" "$d/kernel-log.txt" && jq -e '.kernel_log.records | length > 0' "$d/snapshot.json" >/dev/null &&
	ok "the kernel log records about the devices" || bad "kernel-log.txt: $(head -2 "$d/kernel-log.txt")"
grep -q "mlx5_1/1 DOWN" "$d/check.txt" && ok "check.txt names the port that is down" ||
	bad "check.txt: $(head -3 "$d/check.txt")"

# The bundle diagnoses: check --load gives the verdicts of check.json.
verdicts <"$d/check.json" >"$tmp/bundle.v"
[ -s "$tmp/bundle.v" ] || bad "check.json has no result"
"$bin" check --load "$d/recording.jsonl" --json >"$tmp/rec.json"
rc=$?
[ $rc -le 2 ] && verdicts <"$tmp/rec.json" | cmp -s - "$tmp/bundle.v" &&
	ok "check --load recording.jsonl: the bundle's verdicts" ||
	bad "check --load recording.jsonl (exit $rc) differs from check.json"
"$bin" check --load "$d/snapshot.json" --json >"$tmp/snap.json"
rc=$?
[ $rc -le 2 ] && jq -e 'map(select(.verdict == "FAIL" and .device == "mlx5_1")) | length > 0' "$tmp/snap.json" >/dev/null &&
	ok "check --load snapshot.json judges the port down" || bad "check --load snapshot.json (exit $rc)"
"$bin" check --root "$root" --window 0 --json | jq -r '.[] | select(.verdict == "FAIL") | .check + " " + (.device // "-")' | sort >"$tmp/live.fail"
jq -r '.[] | select(.verdict == "FAIL") | .check + " " + (.device // "-")' "$d/check.json" | sort | cmp -s - "$tmp/live.fail" &&
	ok "the bundle's FAILs are those of check on the host" || bad "FAILs differ from check --root"

# Redacted: none of the identifiers, the same verdicts.
bundle red --redact --root "$root" || { finish; exit 1; }
r=$tmp/red/rdmadiag-bugreport
jq -r '[.host.hostname,
	(.devices[]? | .node_guid, .sys_image_guid, (.ports[]?.gids[]?.gid)),
	(.netdevs[]? | .mac, .perm_mac, (.addresses[]?.address), .transceiver.serial),
	(.pci[]? | .vpd_serial), (.devlink[]? | .serial, .board_serial)]
	| .[] | select(. != null) | select(test("^[0:]+$") | not)' "$d/snapshot.json" | sort -u >"$tmp/ids"
n=$(wc -l <"$tmp/ids")
[ "$n" -ge 8 ] && ok "$n identifiers in the unredacted bundle" || bad "only $n identifiers found: $(cat "$tmp/ids")"
grep -q rdma-host01 "$tmp/ids" && grep -q MT2104X12345 "$tmp/ids" || bad "the host name or the serial number was not found"
# GIDs and GUIDs are also searched without their colons and as bytes.
leaks=0
while read -r id; do
	for form in "$id" "$(tr -d : <<<"$id")"; do
		if grep -rqiF -- "$form" "$r"; then
			bad "the redacted bundle holds $form"
			leaks=$((leaks + 1))
		fi
	done
done <"$tmp/ids"
[ $leaks -eq 0 ] && ok "the redacted bundle holds none of them, in no file"
if grep -rqiF -- "$(grep -m1 '^[0-9a-f]\{4\}:' "$tmp/ids")" "$d"; then
	ok "(the search finds an identifier where it is)"
else
	bad "the search for identifiers finds nothing even in the unredacted bundle"
fi
# The redacted recording loads and gives the redacted bundle's verdicts;
# against the unredacted bundle (another recording of the same host, its
# counters sampled over another second) the FAILs and WARNs are the same.
"$bin" check --load "$r/recording.jsonl" --json | verdicts >"$tmp/red.v"
verdicts <"$r/check.json" | diff - "$tmp/red.v" &&
	ok "redacted: check --load gives the bundle's verdicts" || bad "redacted: check --load differs from its check.json"
grep -E ' (FAIL|WARN) ' "$tmp/bundle.v" >"$tmp/plain.fw"
grep -E ' (FAIL|WARN) ' "$tmp/red.v" | diff "$tmp/plain.fw" - &&
	[ -s "$tmp/plain.fw" ] && ok "redacted: the same FAILs and WARNs, $(wc -l <"$tmp/plain.fw") of them" ||
	bad "redacted: FAILs and WARNs differ from the unredacted bundle's"
host=$(jq -r .host.hostname "$r/snapshot.json")
[ "$host" = host-1 ] && grep -q "host-1 mlx5_0" "$r/snapshot.json" &&
	jq -e --arg h "$host" 'all(.[]; .host == $h)' "$r/check.json" >/dev/null &&
	ok "one stand-in for the host name in every file" || bad "host name stand-in: $host"
g=$(jq -r '.devices[] | select(.name == "mlx5_0") | .node_guid' "$r/snapshot.json")
jq -e --arg g "$g" '[.devices[] | select(.name == "mlx5_0") | .ports[].gids[] | select(.gid | startswith("fe80")) | .gid[20:]] | all(. == $g)' \
	"$r/snapshot.json" >/dev/null && ok "a link-local GID still carries its node's stand-in GUID" ||
	bad "GID and GUID stand-ins disagree"
grep -q "^Redacted" "$r/README.txt" && ok "the README says it is redacted" || bad "README of a redacted bundle"

# Where it writes: a new file only, never through a link.
"$bin" bugreport -o "$tmp/plain.tar.gz" --root "$root" --seconds 1 2>"$tmp/e"
[ $? -eq 1 ] && ok "an existing file is not overwritten" || bad "overwrote $tmp/plain.tar.gz"
ln -s "$tmp/target" "$tmp/link.tar.gz"
"$bin" bugreport -o "$tmp/link.tar.gz" --root "$root" --seconds 1 2>"$tmp/e"
[ $? -eq 1 ] && [ ! -e "$tmp/target" ] && ok "a planted symlink is refused" || bad "wrote through a symlink"
"$bin" bugreport --root "$root" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q -- "-o FILE" "$tmp/e" && ok "no -o: usage error" || bad "no -o"
finish
