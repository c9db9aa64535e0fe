#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/: the alerting rules load and fire as their unit tests say; the
# dashboard is valid JSON; rules and dashboard name only metrics the
# exporter writes; the systemd units pass systemd-analyze where it exists.
. "$(dirname "$0")/lib.sh"
need promtool prometheus
need jq jq
c=$srcdir/contrib
rules=$c/prometheus/rdmadiag-alerts.yml
dash=$c/grafana/rdmadiag-dashboard.json

promtool check rules "$rules" || fail "promtool check rules"
cp "$rules" "$srcdir/tests/export/alerts-test.yml" "$tmp/"
(cd "$tmp" && promtool test rules alerts-test.yml) || fail "promtool test rules"

jq -e '.panels | length > 5' "$dash" >/dev/null || fail "dashboard JSON"
jq -e '[.panels[].targets[].expr] | all(length > 0)' "$dash" >/dev/null ||
	fail "a dashboard panel without a query"

# Every metric named is one the mapping writes.
known=$(grep -o '"\(rdmadiag\|node_infiniband\)_[a-z_]*"' \
	"$srcdir/src/export/metrics.c" | tr -d '"' | sort -u)
used=$( (grep -o 'rdmadiag_[a-z_]*' "$rules";
	jq -r '.panels[].targets[].expr, .templating.list[].definition' "$dash" |
		grep -o 'rdmadiag_[a-z_]*') | sort -u)
[ -n "$used" ] || fail "no metric found in rules and dashboard"
for m in $used; do
	grep -qx "$m" <<<"$known" || fail "$m is used in contrib/ but never written"
done
echo "ok: $(wc -w <<<"$used") metric names in rules and dashboard all written by the exporter"

if command -v systemd-analyze >/dev/null && [ -d /run/systemd/system ]; then
	systemd-analyze verify "$c"/systemd/*.service "$c"/systemd/*.timer 2>&1 |
		grep -v 'rdmadiag: No such file\|Command /usr/bin/rdmadiag is not executable' |
		grep . && fail "systemd-analyze verify"
	echo "ok: systemd units verified"
else
	echo "note: no running systemd here: units not verified"
fi
echo "PASS: contrib files"
