# SPDX-License-Identifier: GPL-2.0-or-later
dist_pkgdata_DATA += data/counters.tsv data/firmware.tsv \
	data/link_ext_state.tsv data/wc_status.tsv data/mlx5_syndromes.tsv \
	data/kmsg.tsv
# The recorded demo host for `rdmadiag --demo` (made by tests/tui/demo-gen),
# installed under $(pkgdatadir)/demo/ where the console looks for it.
demodir = $(pkgdatadir)/demo
dist_demo_DATA = data/demo/cx6dx-demo.jsonl
dist_man_MANS = data/rdmadiag.8
