#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Output paths never follow a symlink another user planted: capture -o
# creates its file (an existing name, a symlink too, is refused; --force
# replaces the name through a new file and a rename), and export
# --textfile refuses a symlinked DIR and one that others can write to
# unless it is sticky.
. "${RDMADIAG_SRCDIR:?}/tests/cli/lib.sh"
root=$fix/rxe0-healthy

echo precious >"$tmp/victim"
mkdir -m 1777 "$tmp/pub"
ln -s "$tmp/victim" "$tmp/pub/rec.jsonl"
"$bin" capture -o "$tmp/pub/rec.jsonl" --seconds 0.001 --root "$root" >/dev/null 2>"$tmp/err"; rc=$?
[ "$(cat "$tmp/victim")" = precious ] && [ $rc -eq 1 ] && grep -q "File exists (a file, or a symlink, is there: --force replaces it)" "$tmp/err" &&
	ok "capture -o onto a planted symlink: refused, its target intact" ||
	bad "capture onto a symlink: exit $rc, victim '$(head -c 40 "$tmp/victim")', $(cat "$tmp/err")"
"$bin" capture -o "$tmp/pub/rec.jsonl" --force --seconds 0.001 --root "$root" >/dev/null 2>"$tmp/err"; rc=$?
[ "$(cat "$tmp/victim")" = precious ] && [ $rc -eq 0 ] && [ -f "$tmp/pub/rec.jsonl" ] && [ ! -L "$tmp/pub/rec.jsonl" ] &&
	"$bin" snapshot --load "$tmp/pub/rec.jsonl" >/dev/null 2>&1 &&
	ok "capture --force: the symlink replaced by the recording, its target intact" ||
	bad "capture --force: exit $rc, $(ls -l "$tmp/pub") $(cat "$tmp/err")"
"$bin" capture -o "$tmp/pub/rec.jsonl" --seconds 0.001 --root "$root" >/dev/null 2>&1 &&
	bad "capture -o over an existing file without --force" || ok "capture -o: an existing file is refused"
"$bin" capture -o "$tmp/pub/new.jsonl" --seconds 0.001 --root "$root" >/dev/null 2>&1 &&
	[ -s "$tmp/pub/new.jsonl" ] && ok "capture -o: a new file is written" || bad "capture -o new file"
[ -z "$(find "$tmp/pub" -name '.*' -newer "$tmp/victim")" ] &&
	ok "no temporary file left" || bad "left: $(ls -a "$tmp/pub")"

mkdir "$tmp/rootdir"
ln -s "$tmp/rootdir" "$tmp/tflink"
"$bin" export --textfile "$tmp/tflink" --root "$root" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ -z "$(ls -A "$tmp/rootdir")" ] && grep -q "a symlink or not a directory; refused" "$tmp/err" &&
	ok "export --textfile through a symlinked DIR: refused, nothing written" ||
	bad "textfile symlink: exit $rc, $(ls -A "$tmp/rootdir") $(cat "$tmp/err")"
mkdir -m 0777 "$tmp/open"
chmod 0777 "$tmp/open"
"$bin" export --textfile "$tmp/open" --root "$root" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/open/rdmadiag.prom" ] && grep -q "others can write to it and it is not sticky; refused" "$tmp/err" &&
	ok "export --textfile into a world-writable DIR: refused" || bad "world-writable DIR: exit $rc $(cat "$tmp/err")"
"$bin" export --textfile "$tmp/pub" --root "$root" 2>"$tmp/err" && [ -f "$tmp/pub/rdmadiag.prom" ] &&
	ok "export --textfile into a sticky world-writable DIR: written" || bad "sticky DIR: $(cat "$tmp/err")"
rm -f "$tmp/pub/rdmadiag.prom"; ln -s "$tmp/victim" "$tmp/pub/rdmadiag.prom"
"$bin" export --textfile "$tmp/pub" --root "$root" 2>"$tmp/err" && [ "$(cat "$tmp/victim")" = precious ] &&
	[ ! -L "$tmp/pub/rdmadiag.prom" ] && ok "a symlink at DIR/rdmadiag.prom is replaced, its target intact" ||
	bad "symlink at rdmadiag.prom: $(cat "$tmp/err")"
finish
