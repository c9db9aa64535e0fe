#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion, driven as bash drives it (COMP_WORDS, COMP_CWORD,
# the function registered with complete): commands, every option of every
# command's --help, and device, port and interface names from a fixture's
# sysfs.
. "$(dirname "$0")/lib.sh"

comp=$src/contrib/completion/rdmadiag
dir=$tmp/bin
mkdir -p "$dir"
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$dir/rdmadiag"
PATH=$dir:$PATH
export RDMADIAG_SYSFS_ROOT=$fix/cx6dx-roce-port-down/sys

# complete WORD...: what Tab offers for the last word, one per line, sorted.
complete_words() {
	bash -c '
		. "$1"; shift
		spec=$(complete -p rdmadiag) || exit 9
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		"$fn" rdmadiag "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@" | sort
}

expect() {	# expect NAME EXPECTED WORDS...
	local name=$1 want=$2 got
	shift 2
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$name"; else bad "$name: got \"$got\", want \"$want\""; fi
}

bash -c ". '$comp' && complete -p rdmadiag" >/dev/null &&
	ok "the script registers a completion for rdmadiag" ||
	bad "no completion registered"

cmds=$("$bin" --help | awk '/^commands:/{f=1;next} /^$/{f=0} f{print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$cmds" ] || bad "rdmadiag --help lists no command"
expect "every command" "$cmds" rdmadiag ""
expect "commands by prefix" "check" rdmadiag ch
expect "devices from sysfs" "mlx5_0 mlx5_1" rdmadiag check --device ""
expect "devices by prefix" "mlx5_1" rdmadiag snapshot --device mlx5_1
expect "ports of the named device" "1" rdmadiag check --device mlx5_0 --port ""
expect "bw -d device" "mlx5_0 mlx5_1" rdmadiag bw -d ""
expect "bw --port is a TCP port" "" rdmadiag bw --port ""
expect "module -m interface" "eth2 eth3" rdmadiag module -m ""
expect "console -d is seconds" "" rdmadiag -d ""
expect "bw --op" "read send write" rdmadiag bw --op ""
expect "--root leads to another sysfs" "rxe0" \
	rdmadiag check --root "$fix/rxe0-healthy" --device ""

# Every option in every command's --help is offered after its command.
for c in $cmds; do
	opts=$("$bin" "$c" --help | grep -E '^ +-' | sed -E 's/^ +//; s/  +.*//' |
		grep -oE -- '-[-A-Za-z0-9_]+' | sort -u)
	got=$(complete_words rdmadiag "$c" -)
	missing=$(comm -23 <(printf '%s\n' "$opts") <(printf '%s\n' "$got" | sort -u))
	if [ -z "$opts" ]; then
		bad "$c --help lists no option"
	elif [ -z "$missing" ]; then
		ok "$c: its $(wc -l <<<"$opts") options"
	else
		bad "$c: not offered: $(echo $missing)"
	fi
done
got=$(complete_words rdmadiag check --w)
[ "$got" = "--window" ] && ok "check --w completes to --window" || bad "check --w: $got"
got=$(complete_words rdmadiag --)
grep -qx -- --version <<<"$got" && grep -qx -- --demo <<<"$got" &&
	ok "console options and --version" || bad "console options: $(echo $got)"
finish
