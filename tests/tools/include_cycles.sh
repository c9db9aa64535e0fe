#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fails when the #include "..." lines under src/ form a cycle, between
# files (a header that includes itself through others) or between modules.
# A module is a .c file with its .h (src/views/ui.c + ui.h): ui.c
# including view_tests.h while view_tests.c includes ui.h is a cycle. A
# header with no .c of its own (a folder's private header) is not a
# module: what it includes counts as included by whoever includes it.
#
# A declaration in a header hides a call from that reading: ui.c may call
# view_tests_open_form() through ui.h's extern while view_tests.c includes
# ui.h. So the built objects are read too (nm): a file that calls a
# function or names a table another file defines depends on it, and a
# circle of such files (src/diag/checks.o -> check_port.o -> diag.o ->
# checks.o) fails as well.
#
# usage: include_cycles.sh [SRCDIR [BUILDDIR]]
#   SRCDIR default $RDMADIAG_SRCDIR/src; BUILDDIR (where src/*/*.o are)
#   default the folder of $RDMADIAG_BIN's src/, else the current folder.
# Prints each cycle found as "a -> b -> a" and exits 1; 0 when none.

set -eu

src=${1:-${RDMADIAG_SRCDIR:-$(dirname "$0")/../..}/src}
[ -d "$src" ] || { echo "include_cycles: no source tree at $src" >&2; exit 2; }
if [ -n "${2:-}" ]; then
	build=$2
elif [ -n "${RDMADIAG_BIN:-}" ]; then
	build=$(dirname "$(dirname "$RDMADIAG_BIN")")
else
	build=.
fi

edges=$(find "$src" -name '*.[ch]' -type f | LC_ALL=C sort |
while IFS= read -r f; do
	# FILE<TAB>INCLUDED, the quoted includes only (system headers are not ours).
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while IFS= read -r inc; do
		printf '%s\t%s\n' "${f#"$src"/}" "$inc"
	done
done)

# Calls: which object defines each global symbol (a function or a table),
# which objects use it: USER<TAB>DEFINER, as source paths.
objs=$(cd "$build" 2>/dev/null && find src -name '*.o' -type f | LC_ALL=C sort)
if [ -z "$objs" ]; then
	echo "include_cycles: calls not followed: no objects under $build/src (build first)" >&2
	exit 2
fi
calls=$(cd "$build" && nm -A -P $objs | LC_ALL=C awk '
	# "src/diag/checks.o: check_port_state U" -> file, symbol, type
	{
		f = $1
		sub(/:$/, "", f)
		sub(/\.o$/, ".c", f)
		sub(/^src\//, "", f)
		if ($3 == "U")
			uses[++nu] = f SUBSEP $2
		else if ($3 ~ /^[TDBRVWG]$/)
			def[$2] = f
	}
	END {
		for (i = 1; i <= nu; i++) {
			split(uses[i], u, SUBSEP)
			if (u[2] in def && def[u[2]] != u[1])
				printf "%s\t%s\n", u[1], def[u[2]]
		}
	}' | LC_ALL=C sort -u)

rc=0
for mode in file module call; do
if [ "$mode" = call ]; then
	printf '%s\n' "$calls"
else
	printf '%s\n' "$edges"
fi |
awk -F '\t' -v src="$src" -v mode="$mode" '
	function module(path) {
		sub(/\.[ch]$/, "", path)
		return path
	}
	function dir(path) {
		if (path !~ /\//)
			return ""
		sub(/\/[^\/]*$/, "", path)
		return path "/"
	}
	# The include path is src/ (-I src), then the including file'"'"'s folder.
	function resolve(from, inc,   cand) {
		if ((src "/" inc) in known)
			return inc
		cand = dir(from) inc
		if ((src "/" cand) in known)
			return cand
		return ""
	}
	function add(a, b) {
		nodes[a] = 1
		nodes[b] = 1
		if (a == b || ((a, b) in edge))
			return
		edge[a, b] = 1
		out[a, ++nout[a]] = b
	}
	# Module m includes file f: a module header is an edge, a header of
	# no module is looked through (once per m, so its loops end).
	function inline_into(m, f,   i, to) {
		for (i = 1; i <= nf[f]; i++) {
			to = fedge[f, i]
			if (has_c[module(to)]) {
				add(m, module(to))
			} else if (!((m, to) in seen)) {
				seen[m, to] = 1
				inline_into(m, to)
			}
		}
	}
	# Depth-first walk; state 1 on the path, 2 finished.
	function visit(m,   i, n, next_m, k, cycle) {
		state[m] = 1
		stack[++depth] = m
		n = nout[m]
		for (i = 1; i <= n; i++) {
			next_m = out[m, i]
			if (state[next_m] == 1) {
				cycle = ""
				for (k = 1; k <= depth; k++)
					if (stack[k] == next_m || cycle != "")
						cycle = cycle stack[k] " -> "
				print (mode == "call" ? "call" : "include") \
					" cycle: " cycle next_m
				found++
			} else if (state[next_m] == 0) {
				visit(next_m)
			}
		}
		depth--
		state[m] = 2
	}
	{
		from[NR] = $1
		inc[NR] = $2
		known[src "/" $1] = 1
	}
	END {
		# Every file is known once it has one include; the rest by test.
		for (i = 1; i <= NR; i++) {
			if (!((src "/" inc[i]) in known) &&
			    !((src "/" dir(from[i]) inc[i]) in known)) {
				p = src "/" inc[i]
				if ((getline line < p) >= 0) {
					known[p] = 1
					close(p)
				} else {
					p = src "/" dir(from[i]) inc[i]
					if ((getline line < p) >= 0) {
						known[p] = 1
						close(p)
					}
				}
			}
		}
		for (i = 1; i <= NR; i++) {
			to = resolve(from[i], inc[i])
			if (to == "")
				continue	# generated (config.h) or not ours
			fedge[from[i], ++nf[from[i]]] = to
			has_c[module(from[i])] += from[i] ~ /\.c$/
			files[from[i]] = 1
			files[to] = 1
		}
		if (mode == "call") {
			# The edges are resolved already: file calls file.
			for (i = 1; i <= NR; i++)
				if (from[i] != "")
					add(from[i], inc[i])
		} else if (mode == "file") {
			for (f in files)
				for (i = 1; i <= nf[f]; i++)
					add(f, fedge[f, i])
		} else {
			for (f in files)
				if (has_c[module(f)])
					inline_into(module(f), f)
		}
		found = 0
		depth = 0
		for (m in nodes)
			if (state[m] == 0)
				visit(m)
		if (found)
			exit 1
		n = 0
		for (m in nodes)
			n++
		printf "include_cycles: no cycle among %d %s\n", n,
		       mode == "call" ? "files by their calls" : mode "s"
	}
' || rc=1
done
exit $rc
