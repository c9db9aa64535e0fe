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

# Every file runs the same program: where `make install` puts it.
paths=$(grep -rhoE '/[a-z/]*bin/rdmadiag\b' "$c" | sort -u)
[ "$paths" = /usr/local/bin/rdmadiag ] ||
	fail "contrib/ names rdmadiag at: $(echo $paths)"
echo "ok: contrib/ runs /usr/local/bin/rdmadiag everywhere"

# systemd-analyze verify needs no running systemd; it checks the units
# with ExecStart on the rdmadiag built here, and says nothing when fine.
if command -v systemd-analyze >/dev/null; then
	mkdir "$tmp/units"
	for u in "$c"/systemd/*.service "$c"/systemd/*.timer; do
		sed "s#/usr/local/bin/rdmadiag#$bin#" "$u" >"$tmp/units/${u##*/}"
	done
	systemd-analyze verify --man=no "$tmp"/units/* >"$tmp/verify" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$tmp/verify")"
	[ ! -s "$tmp/verify" ] || fail "systemd-analyze verify: $(cat "$tmp/verify")"
	echo "ok: systemd units verified"
else
	echo "note: no systemd-analyze here: units not verified"
fi
echo "PASS: contrib files"
