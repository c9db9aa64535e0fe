#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fix engine and journal tests once more as an unprivileged user, when
# make check runs as root: the rules must hold, and the tests pass, for
# both. Skipped (77) without root or setpriv, or when that user cannot
# reach the build tree.
set -u
# make check runs tests from the top of the build tree.
here=$PWD/tests/unit
[ "$(id -u)" = 0 ] || { echo "not root: the tests ran as this user already"; exit 77; }
command -v setpriv > /dev/null || { echo "no setpriv"; exit 77; }
run() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}
run test -x "$here/test_fix" || { echo "uid 65534 cannot reach $here"; exit 77; }
status=0
for t in test_fix test_journal test_journal_durable; do
	if run "$here/$t"; then
		echo "PASS $t as uid 65534"
	else
		echo "FAIL $t as uid 65534"
		status=1
	fi
done
exit $status
