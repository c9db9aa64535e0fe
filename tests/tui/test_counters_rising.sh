#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The counters screen and the counters.errors check share one rule for
# "rising is bad", data/counters.tsv: a counter whose name looks like an
# error but that the table does not call bad (rx_xdp_drop: packets an XDP
# program chose to drop) rises on the screen without RISING, and the check
# leaves it out; a counter the table calls bad (rx_crc_errors_phy) is
# RISING on the screen and is evidence of the check.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

rec="$TUI_TMP/xdp.jsonl"
# The demo recording, with rx_xdp_drop rising by 97 and rx_crc_errors_phy
# by 3 a second on mlx5_0's netdev (jq writes 2^64 - 1 back as the
# integer it was).
jq -c -n '[inputs] | to_entries[] | .key as $i | .value |
	(.netdevs[] | select(.name == "ens1f0np0") | .ethtool.stats) |=
	(.rx_xdp_drop = 5000 + 97 * $i | .rx_crc_errors_phy = 3 * $i)' \
	"$RDMADIAG_SRCDIR/data/demo/cx6dx-demo.jsonl" |
	sed -E 's/(:|\[|,)18446744073709552000([],}])/\118446744073709551615\2/g' >"$rec"

out=$("$RDMADIAG_BIN" check --json --load "$rec" --only counters.errors --device mlx5_0)
if printf '%s\n' "$out" | jq -e '.[0].evidence | any(.what == "rx_crc_errors_phy") and
	all(.what != "rx_xdp_drop")' >/dev/null; then
	ok "check: rx_crc_errors_phy is evidence, rx_xdp_drop is not"
else
	not_ok "check: $(printf '%s' "$out" | head -c 400)"
fi

tui_start xdp 120 40 --replay "$rec"
wait_for xdp "mlx5_0/1" 10
# The overview's first row, mlx5_0/1, becomes the selected port (named
# at the right of the title line).
keys xdp F2
keys xdp Home
wait_for xdp "  mlx5_0/1"
keys xdp F4
wait_for xdp "counters  sort:rate"
keys xdp / r x _ c r c _ e r r o r s _ p h y Enter
wait_for xdp "filter:rx_crc_errors_phy"
wait_for xdp "RISING" 10
# The one row is selected and keeps its red (white on red, SGR 41).
if tmx capture-pane -e -p -t xdp | grep 'rx_crc_errors_phy' | grep -v RISING |
	grep -q '41m\|;41[;m]'; then
	ok "xdp: the selected failing row stays red"
else
	not_ok "xdp: the selected failing row lost its red"
	tmx capture-pane -e -p -t xdp | grep 'rx_crc_errors_phy' | cat -v | sed 's/^/#   /'
fi
keys xdp /
keys xdp Escape
keys xdp / r x _ x d p _ d r o p Enter
wait_for xdp "filter:rx_xdp_drop"
# It is moving (97 a second), yet not RISING.
wait_for xdp "97 pkt/s"
absent xdp "RISING"
keys xdp q
wait_exit xdp 0

tui_summary
