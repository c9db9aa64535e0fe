# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# libibverbs lists rxe0 (its provider is there), but the user running
# rdmadiag may not open /dev/infiniband/uverbsN: user.provider says so by
# the errno (uverbs_denied), with no provider to install.

lab_net_up
lab_rxe_add
lab_wait_port rxe0 ACTIVE
command -v setpriv > /dev/null || lab_skip "setpriv not installed"
node=
for d in /sys/class/infiniband_verbs/uverbs*; do
	[ "$(cat "$d/ibdev" 2> /dev/null)" = rxe0 ] && node=/dev/infiniband/${d##*/}
done
if [ -z "$node" ] || [ ! -c "$node" ]; then
	lab_fail "no uverbs node for rxe0"
fi
chmod 0600 "$node"
CHK=$LAB_OUT/denied.json
RC=0
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$RDMADIAG" check --json --window 0 --only user.provider > "$CHK" 2> "$LAB_OUT/denied.err" || RC=$?
assert_eq 2 "$RC" "check exit status"
assert_json "$CHK" '[.[] | select(.check == "user.provider")][0].cause' uverbs_denied "user.provider cause"
assert_json_true "$CHK" "[.[] | select(.check == \"user.provider\")][0] |
	(.summary | contains(\"$node cannot be opened: Permission denied\")) and
	((.summary + .next_step) | test(\"provider\") | not)" \
	"user.provider names the node and the errno, no provider"
