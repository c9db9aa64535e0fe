#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every command 'rdmadiag --help' lists (the subcommand table) is in the
# man page's SYNOPSIS, described under COMMANDS (or in a section of its
# own), and in the README, as keys and checks are tested against their
# registries.

. "$(dirname "$0")/lib.sh"

man=$RDMADIAG_SRCDIR/data/rdmadiag.8
readme=$RDMADIAG_SRCDIR/README.md
cmds=$("$RDMADIAG_BIN" --help 2>&1 | awk '/^commands:/ { f = 1; next }
	f && /^$/ { exit } f { print $1 }')
[ -n "$cmds" ] || bad "rdmadiag --help lists no command"
n=0
for c in $cmds; do
	n=$((n + 1))
	if grep -q "^\.B rdmadiag $c\( \|\$\)" "$man"; then
		ok "$c: in the man page's SYNOPSIS"
	else
		bad "$c: not in the man page's SYNOPSIS"
	fi
	up=$(printf '%s' "$c" | tr '[:lower:]' '[:upper:]')
	if awk -v c="$c" '
		/^\.SH COMMANDS/ { f = 1; next }
		f && /^\.SH/ { exit }
		f && prev == ".TP" && ($0 == ".B " c || $0 ~ "^\\.BR " c " ") {
			found = 1
		}
		f && prev == ".TP" && $0 ~ "^\\.BR .*\"?, \"? *" c "$" { found = 1 }
		{ prev = $0 }
		END { exit !found }' "$man" || grep -q "^\.SH $up\$" "$man"; then
		ok "$c: described in the man page"
	else
		bad "$c: not described under COMMANDS or a section of its own"
	fi
	if grep -q "rdmadiag $c\b" "$readme"; then
		ok "$c: in the README"
	else
		bad "$c: not in the README"
	fi
done
[ "$n" -ge 10 ] || bad "only $n commands listed by --help"
finish
