#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# include_cycles.sh must fail on what it is there to find: two files that
# call each other through declarations only (no include between them),
# and two headers that include each other. A tree without either passes.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
tool=$here/include_cycles.sh
cc=${CC:-cc}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

mkdir -p "$t/src/x" "$t/build/src/x"
printf 'void b(void);\nvoid a(void) { b(); }\n' >"$t/src/x/a.c"
printf 'void c(void);\nvoid b(void) { c(); }\n' >"$t/src/x/b.c"
printf 'void c(void) { }\n' >"$t/src/x/c.c"
build() {
	for f in a b c; do
		"$cc" -c "$t/src/x/$f.c" -o "$t/build/src/x/$f.o"
	done
}

build
out=$(sh "$tool" "$t/src" "$t/build") || {
	echo "FAIL: a tree with no cycle is refused:"
	echo "$out"
	exit 1
}
echo "ok: no cycle passes"

# c() now calls a(): a circle of three files, by calls alone.
printf 'void a(void);\nvoid c(void) { a(); }\n' >"$t/src/x/c.c"
build
if out=$(sh "$tool" "$t/src" "$t/build"); then
	echo "FAIL: a -> b -> c -> a by calls was not found:"
	echo "$out"
	exit 1
fi
line=$(echo "$out" | grep 'call cycle: ' || true)
for f in x/a.c x/b.c x/c.c; do
	case $line in
	*"$f"*) ;;
	*) echo "FAIL: the call cycle does not name $f: $out"; exit 1 ;;
	esac
done
echo "ok: $line"

# Headers that include each other.
printf 'void c(void) { }\n' >"$t/src/x/c.c"
build
printf '#include "x/q.h"\n' >"$t/src/x/p.h"
printf '#include "x/p.h"\n' >"$t/src/x/q.h"
if out=$(sh "$tool" "$t/src" "$t/build"); then
	echo "FAIL: p.h <-> q.h was not found: $out"
	exit 1
fi
case $out in
*"include cycle: "*) echo "ok: include cycle found" ;;
*) echo "FAIL: no include cycle named: $out"; exit 1 ;;
esac
