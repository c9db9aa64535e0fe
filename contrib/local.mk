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
