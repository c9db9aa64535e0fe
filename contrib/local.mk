# SPDX-License-Identifier: GPL-2.0-or-later
# What `make install` puts around the binary: the systemd units (their
# ExecStart names the installed binary), shell completion, and contrib/
# as examples under the documentation directory. `make uninstall` removes
# the same set; the packages (debian/, rdmadiag.spec) install through it.
systemdunitdir = @systemdunitdir@
systemdunit_DATA = $(RD_UNITS)
RD_UNITS = rdmadiag-export.service rdmadiag-export.timer \
	rdmadiag-exporter.service rdmadiag-record.service
CLEANFILES += $(RD_UNITS)
$(RD_UNITS): Makefile
	$(AM_V_GEN)sed -e 's|/usr/local/bin/rdmadiag|$(bindir)/rdmadiag|g' \
		'$(srcdir)/contrib/systemd/$@' >$@.tmp && mv $@.tmp $@
rdmadiag-export.service: $(srcdir)/contrib/systemd/rdmadiag-export.service
rdmadiag-export.timer: $(srcdir)/contrib/systemd/rdmadiag-export.timer
rdmadiag-exporter.service: $(srcdir)/contrib/systemd/rdmadiag-exporter.service
rdmadiag-record.service: $(srcdir)/contrib/systemd/rdmadiag-record.service

bashcompletiondir = @bashcompletiondir@
dist_bashcompletion_DATA = contrib/completion/rdmadiag

rdexamplesdir = $(docdir)/examples
rdpromdir = $(rdexamplesdir)/prometheus
rdprom_DATA = contrib/prometheus/rdmadiag-alerts.yml
rdgrafanadir = $(rdexamplesdir)/grafana
rdgrafana_DATA = contrib/grafana/rdmadiag-dashboard.json
rdnhcdir = $(rdexamplesdir)/nhc
rdnhc_DATA = contrib/nhc/rdmadiag.nhc
rdnpddir = $(rdexamplesdir)/node-problem-detector
rdnpd_DATA = contrib/node-problem-detector/rdmadiag-plugin-monitor.json \
	contrib/node-problem-detector/README.md

# The packages: debian/ for dpkg-buildpackage, the RPM spec (made by
# configure) for rpmbuild -tb on the dist tarball. `make packages` builds
# both from the dist tarball (tests/pkg/build.sh).
EXTRA_DIST += rdmadiag.spec rdmadiag.spec.in debian/changelog debian/control \
	debian/copyright debian/docs debian/rules debian/source/format \
	tests/pkg/build.sh tests/pkg/install-test.sh tests/pkg/rpmlintrc
packages: dist
	RDMADIAG_SRCDIR='$(abs_top_srcdir)' '$(abs_top_srcdir)/tests/pkg/build.sh' \
		'$(abs_top_builddir)/$(PACKAGE)-$(VERSION).tar.gz' '$(abs_top_builddir)/pkg'
.PHONY: packages
# A tarball (and the packages built from it) names the commit it was made
# from in --version and bug reports.
dist-hook:
	if test -e '$(srcdir)/.git'; then \
		git -C '$(srcdir)' describe --always --dirty --abbrev=12 >'$(distdir)/.commit'; \
	fi
