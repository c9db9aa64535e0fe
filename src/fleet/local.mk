# SPDX-License-Identifier: GPL-2.0-or-later
# Fleet reports (many hosts' check --json) and the health-check line.
src_librdmadiag_a_SOURCES += \
	src/fleet/fleet.h src/fleet/fleet.c src/fleet/nodeset.c \
	src/fleet/print.c src/fleet/nhc.h src/fleet/nhc.c

# Health-check plugin configurations: Slurm NHC, node-problem-detector.
EXTRA_DIST += contrib/nhc/rdmadiag.nhc \
	contrib/node-problem-detector/rdmadiag-plugin-monitor.json \
	contrib/node-problem-detector/README.md
