#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cable and optics at 80x24: the Overview's MODULE column, the Port
# screen's "Cable and optics" section, and the port-down path naming a
# physical cause. Recordings are the demo's, with the module changed by jq:
# one where mlx5_0's lane 2 goes dark, one where mlx5_1 has a module that
# receives no light on any lane (and the driver gives no other reason).
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

demo="$RDMADIAG_SRCDIR/data/demo/cx6dx-demo.jsonl"

# scroll_to NAME TEXT: Down, one line at a time, until the page shows TEXT.
scroll_to() {
	n=0
	while [ "$n" -lt 80 ] && ! tui_screen "$1" | grep -qF -- "$2"; do
		keys "$1" Down
		sleep 0.05
		n=$((n + 1))
	done
	wait_for "$1" "$2"
}
fix_u64='s/(:|\[|,)18446744073709552000([],}])/\118446744073709551615\2/g'

tui_start phy 80 24 --demo
wait_for phy "MODULE"
wait_for phy "dBm"
wait_for phy "none"
keys phy p
keys phy '<'
scroll_to phy "Cable and optics (ens1f0np0)"
scroll_to phy "partner advertised 100000baseSR2/Full"
wait_for phy "LANE"
# What happened before: the kernel's lines, devlink, link-down counts.
keys phy '>'
keys phy v
wait_for phy "Kernel log (UTC"
wait_for phy "Port module event"
wait_for phy "NIC health (devlink)"
wait_for phy "firmware's count 3"
keys phy a
wait_for phy "all devices"
keys phy q
wait_exit phy 0

# Lane 2 of mlx5_0 dark: LOS and 0.5 uW.
dark="$TUI_TMP/dark.jsonl"
jq -c '(.netdevs[] | select(.name == "ens1f0np0") | .transceiver.lanes[1])
	|= (.rx_los = true | .rx_power_mw = 0.0005)' "$demo" |
	sed -E "$fix_u64" >"$dark"
out=$("$RDMADIAG_BIN" check --load "$dark" --only phy.optics --device mlx5_0)
case $out in
*"lane 2 receives no usable light"*) ok "check: lane 2 dark is named" ;;
*) not_ok "check: $(printf '%s' "$out" | head -c 300)" ;;
esac
tui_start dark 80 24 --replay "$dark"
wait_for dark "-33.0dBm"
keys dark p
keys dark '<'
scroll_to dark "Cable and optics (ens1f0np0)"
scroll_to dark "LOS"
keys dark q
wait_exit dark 0

# mlx5_1 with a module in its cage that sees no light, no driver reason.
nolight="$TUI_TMP/nolight.jsonl"
jq -c '(.netdevs[0].transceiver) as $m |
	(.netdevs[] | select(.name == "ens1f1np1")) |=
	(.transceiver = ($m | .lanes |= map(.rx_los = true | .rx_power_mw = 0))
	 | .ethtool.ext_state = null | .ethtool.ext_state_num = null)' "$demo" |
	sed -E "$fix_u64" >"$nolight"
tui_start nolight 80 24 --replay "$nolight"
wait_for nolight "DOWN: no light from the far end"
wait_for nolight "no light"
keys nolight k
wait_for nolight "far end"
keys nolight q
wait_exit nolight 0
out=$("$RDMADIAG_BIN" module --load "$nolight" -d mlx5_1)
case $out in
*"FAIL    phy.optics"*"no light from the far end"*) ok "module: no light judged" ;;
*) not_ok "module: $(printf '%s' "$out" | head -c 400)" ;;
esac

tui_summary
