#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Text for the person on call states facts and reasons: nothing a person
# reads (the usage of every command, the checklist's verdicts with their
# evidence and next steps, the man page, the data tables, the README and
# the documents, the strings of the program) points at an unnamed "guide"
# that the reader has never seen.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"

# hits WHAT FILE: fails the test when FILE names a guide.
hits() {
	local found
	found=$(grep -ni 'guide' "$2" | head -n 3)
	if [ -n "$found" ]; then
		bad "$1 mentions a guide: $found"
	else
		ok "$1"
	fi
}

"$bin" --help >"$tmp/usage" 2>&1
hits "rdmadiag --help" "$tmp/usage"
cmds=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' "$tmp/usage")
if [ "$(wc -w <<<"$cmds")" -ge 10 ]; then
	ok "usage lists the commands"
else
	bad "commands: $cmds"
fi
for c in $cmds; do
	"$bin" "$c" --help >"$tmp/usage-$c" 2>&1
	hits "rdmadiag $c --help" "$tmp/usage-$c"
done

for f in "$fix/cx6dx-roce-port-down" "$fix/rxe0-healthy"; do
	"$bin" check -v --window 0 --root "$f" >"$tmp/check" 2>&1
	[ -s "$tmp/check" ] || bad "check -v --root $(basename "$f"): no output"
	hits "check -v --root $(basename "$f")" "$tmp/check"
done

for f in "$src"/data/rdmadiag.8 "$src"/data/*.tsv "$src"/README.md "$src"/docs/*.md; do
	[ -f "$f" ] && hits "${f#"$src"/}" "$f"
done

# The strings the program prints come from its sources.
grep -rni --include='*.c' --include='*.h' 'guide' "$src/src" >"$tmp/src" || :
hits "strings of src/" "$tmp/src"

finish
