# SPDX-License-Identifier: GPL-2.0-or-later
# Prometheus export: the writer and mapping (cmocka), and the command
# against the real parts (promtool, node_exporter, a Prometheus server).
EXPORT_TESTS = tests/export/test_export_cli.sh tests/export/test_promtool.sh \
	tests/export/test_node_exporter_compat.sh tests/export/test_textfile.sh \
	tests/export/test_listen.sh tests/export/test_prometheus.sh \
	tests/export/test_contrib.sh tests/export/test_bench.sh
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/lib.sh tests/export/alerts-test.yml \
	contrib/systemd contrib/prometheus contrib/grafana
if HAVE_CMOCKA
EXPORT_UNIT_TESTS = tests/unit/test_prom tests/unit/test_export_metrics
check_PROGRAMS += $(EXPORT_UNIT_TESTS)
TESTS += $(EXPORT_UNIT_TESTS)
tests_unit_test_prom_SOURCES = tests/unit/test_prom.c tests/unit/unit.h
tests_unit_test_prom_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_prom_LDADD = $(UNIT_LDADD)
tests_unit_test_export_metrics_SOURCES = tests/unit/test_export_metrics.c \
	tests/unit/unit.h tests/unit/diag_snap.h
tests_unit_test_export_metrics_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_export_metrics_LDADD = $(UNIT_LDADD)
endif
