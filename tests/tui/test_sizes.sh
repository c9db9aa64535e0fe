#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every screen at 80x24, 120x40 and 200x60, on the demo and on a fixture
# tree: no word is cut without an ellipsis, and no list leaves a blank row
# while items remain below it.
#
# A word counts as cut when it is not a word of the same screen drawn on a
# terminal wide and tall enough to show it whole (400x120; the key bar's
# short screen names also from a 99-column one) and it does not end with
# an ellipsis. Digits compare as one class, so a number that moved between
# two readings is still the same word.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

# One screen per entry: NAME KEYS LANDMARK [list] (keys separated by
# '+'). A paged list selects another row at each size, so only its list
# is compared, not the pane that details the selected row.
SCREENS=(
	"overview o PORT"
	"port p GID"
	"counters c LAST"
	"qos d PFC"
	"checks k checks:"
	"checks-paged k+PgDn checks: list"
	"counters-paged c+PgDn LAST list"
	"check-detail k+Home+Enter Evidence"
	"tests t RESULT"
	"help ? Keys"
)
SIZES=${TUI_SIZES:-"80x24 120x40 200x60"}
# The demo holds its first frame (-d 600, and paused once it shows): every
# size sees the same frame however slowly a loaded machine starts it.
SOURCES=(
	"demo --demo -d 600"
	"fixture --root tests/fixtures/cx6dx-roce-port-down"
)

# Words of a screen, one per line: box lines, bars and graph blocks are
# blanks, digits are '#', and words without a letter are left out.
words() {
	sed -E -e 's/(│|┌|┐|└|┘|─|├|┤|▁|▂|▃|▄|▅|▆|▇|█|\|)/ /g' \
		-e 's/[0-9]/#/g' |
		tr -s ' ' '\n' | grep '[A-Za-z]' | sort -u
}

# cut_words REF SHOT: the words of SHOT that are neither in REF nor end
# with an ellipsis.
cut_words() {
	words < "$2" | grep -vxF -f "$1" | grep -v -e '…$' -e '\.\.\.$' || true
}

# blank_rows SHOT: a list (a heading row of capitals, its rows down to a
# box or the key bar) that leaves a blank row while the head line says
# more items exist than it shows. Prints the reason, or nothing.
blank_rows() {
	awk '
		NR == 3 && match($0, /[0-9]+ (checks|counters)/) {
			split(substr($0, RSTART, RLENGTH), a, " ")
			total = a[1]
		}
		/^(VERDICT|COUNTER) / { inlist = 1; next }
		inlist && (/^[┌+]/ || /^F1/) { inlist = 0 }
		inlist {
			if ($0 ~ /^ *$/) blank++
			else if ($0 !~ /^-- /) shown++
		}
		END {
			if (total && shown < total && blank)
				printf "%d blank list rows while %d of %d items are not shown\n", \
					blank, total - shown, total
		}' "$1"
}

# visit NAME SCREEN-ENTRY OUT: go to the screen, wait for it, capture.
visit() {
	name=$1 out=$3
	set -- $2
	keys "$name" Escape
	keys "$name" o
	for k in $(echo "$2" | tr '+' ' '); do keys "$name" "$k"; done
	i=0
	while ! tui_screen "$name" | grep -qF -- "$3" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.4
	tui_screen "$name" > "$out"
}

# session NAME COLS ROWS ARGS...: the console started and showing results;
# the demo paused so every size sees the same frame.
session() {
	name=$1 cols=$2 rows=$3
	shift 3
	tui_start "$name" "$cols" "$rows" "$@"
	wait_for "$name" "mlx5_1/1" 10 >/dev/null || return 1
	wait_banner "$name" 10 >/dev/null || return 1
	case " $* " in
	*" --demo "*) keys "$name" Space ;;
	*)
		# A live source: the counter checks are judged from the second
		# reading on (one a second); let a few readings in so every
		# size sees the same verdicts.
		sleep 3 ;;
	esac
	return 0
}

# --- the checker itself: it must catch what it is meant to catch ---
printf 'F1Help | s sort z changed-only\n' | words > "$TUI_TMP/self.ref"
printf 'F1Help | s sort z cha\n' > "$TUI_TMP/self.cut"
printf 'F1Help | s sort z ch…\n' > "$TUI_TMP/self.ell"
if [ "$(cut_words "$TUI_TMP/self.ref" "$TUI_TMP/self.cut")" = "cha" ] &&
   [ -z "$(cut_words "$TUI_TMP/self.ref" "$TUI_TMP/self.ell")" ]; then
	ok "self-test: \"z cha\" is a cut word, \"z ch…\" is not"
else
	not_ok "self-test: the cut-word check misjudges"
fi
printf 't\nt\n 12 checks: 1 FAIL\nVERDICT TARGET\n-- hw --\nPASS a\n\n\n┌ box\n' \
	> "$TUI_TMP/self.blank"
if blank_rows "$TUI_TMP/self.blank" | grep -q "blank list rows"; then
	ok "self-test: a list with blank rows and items left is caught"
else
	not_ok "self-test: the blank-row check misses blank rows"
fi

for src in "${SOURCES[@]}"; do
	set -- $src
	sname=$1
	shift
	args=("$@")
	# The references: wide and tall, and the key bar's short names.
	ref="ref-$sname"
	if ! session "$ref" 400 120 "${args[@]}"; then
		not_ok "$sname: the console did not start"
		continue
	fi
	for entry in "${SCREENS[@]}"; do
		set -- $entry
		visit "$ref" "$entry" "$TUI_TMP/$sname.$1.ref.txt"
		words < "$TUI_TMP/$sname.$1.ref.txt" > "$TUI_TMP/$sname.$1.ref"
	done
	keys "$ref" q
	bar="bar-$sname"
	if session "$bar" 99 40 "${args[@]}"; then
		for entry in "${SCREENS[@]}"; do
			set -- $entry
			visit "$bar" "$entry" "$TUI_TMP/bar.txt"
			tail -1 "$TUI_TMP/bar.txt" | words |
				grep -v -e '…$' -e '\.\.\.$' \
				>> "$TUI_TMP/$sname.$1.ref"
		done
		keys "$bar" q
	fi
	for size in $SIZES; do
		cols=${size%x*} rows=${size#*x}
		name="$sname-$size"
		if ! session "$name" "$cols" "$rows" "${args[@]}"; then
			not_ok "$name: the console did not start"
			continue
		fi
		for entry in "${SCREENS[@]}"; do
			set -- $entry
			shot="$TUI_TMP/$name.$1.txt"
			visit "$name" "$entry" "$shot"
			if [ "${4:-}" = list ]; then
				sed -E '/^(┌|\+-)/,$d' "$shot" > "$shot.list"
				mv "$shot.list" "$shot"
			fi
			cut=$(cut_words "$TUI_TMP/$sname.$1.ref" "$shot")
			if [ -z "$cut" ]; then
				ok "$name $1: no word cut without an ellipsis"
			else
				not_ok "$name $1: cut without an ellipsis:" $cut
				sed 's/^/#   /' "$shot"
			fi
			blank=$(blank_rows "$shot")
			if [ -z "$blank" ]; then
				ok "$name $1: no blank list row while items remain"
			else
				not_ok "$name $1: $blank"
				sed 's/^/#   /' "$shot"
			fi
		done
		keys "$name" q
	done
done

# Let the panes' shells end before the temporary files go.
tmx kill-server 2>/dev/null || true
sleep 0.3
tui_summary
