#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the Debian and RPM packages from a dist tarball, as a packager
# would, and lint them:
#   tests/pkg/build.sh rdmadiag-VERSION.tar.gz OUTDIR
# OUTDIR gets the unpacked tree, rdmadiag_VERSION_ARCH.deb (dpkg-buildpackage
# -us -uc -b, then lintian: no error, no warning) and rpm/RPMS/ARCH/*.rpm
# (rpmbuild -tb --nodeps: RHEL's -devel packages are not on Debian, so the
# libraries found are Debian's; then rpmlint on the spec and the package
# where Debian has it). Prints each step's duration.
set -euo pipefail
tarball=$(realpath "$1")
out=$2
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
step() {	# step NAME CMD...: run, say how long it took
	local name=$1 t0=$SECONDS
	shift
	echo "== $name"
	"$@"
	echo "== $name: $((SECONDS - t0)) s"
}
base=$(basename "$tarball" .tar.gz)

deb() {
	tar -xzf "$tarball" -C "$out"
	(cd "$out/$base" && DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b >"$out/dpkg-buildpackage.log" 2>&1) || {
		tail -40 "$out/dpkg-buildpackage.log"
		return 1
	}
	ls "$out"/*.deb
	dpkg-deb --contents "$out"/rdmadiag_*.deb >"$out/deb-contents.txt"
	dpkg-deb --field "$out"/rdmadiag_*.deb Depends
}
lint_deb() {
	lintian --fail-on error,warning --info "$out"/rdmadiag_*.changes
}
rpm() {
	rpmbuild -tb --nodeps --define "_topdir $out/rpm" "$tarball" \
		>"$out/rpmbuild.log" 2>&1 || {
		tail -40 "$out/rpmbuild.log"
		return 1
	}
	find "$out/rpm/RPMS" -name '*.rpm'
}
lint_rpm() {
	local spec="$out/$base/rdmadiag.spec"
	# The spec's BuildRequires are RHEL's: rpmlint here knows Debian's rpm
	# database, so it is asked about the spec and the built package only.
	rpmlint -r "$(dirname "$0")/rpmlintrc" "$spec" "$(find "$out/rpm/RPMS" -name 'rdmadiag-[0-9]*.rpm')"
}
step "dpkg-buildpackage" deb
step "lintian" lint_deb
if command -v rpmbuild >/dev/null; then
	step "rpmbuild -tb --nodeps" rpm
	if command -v rpmlint >/dev/null; then
		step "rpmlint" lint_rpm
	else
		echo "SKIP rpmlint: not installed (apt-get install rpmlint)"
	fi
else
	echo "SKIP rpmbuild: not installed (apt-get install rpm)"
fi
