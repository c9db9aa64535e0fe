# SPDX-License-Identifier: GPL-2.0-or-later
# Prometheus export: the writer and mapping (cmocka), and the command
# against the real parts (promtool, node_exporter, a Prometheus server).
EXPORT_TESTS = tests/export/test_export_cli.sh tests/export/test_promtool.sh \
	tests/export/test_node_exporter_compat.sh tests/export/test_textfile.sh \
	tests/export/test_listen.sh tests/export/test_prometheus.sh \
	tests/export/test_contrib.sh tests/export/test_bench.sh \
	tests/export/test_listen_starve.sh
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/lib.sh tests/export/alerts-test.yml \
	contrib/systemd contrib/prometheus contrib/grafana
