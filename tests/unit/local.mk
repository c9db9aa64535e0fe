# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests: one cmocka program per module, tests/unit/test_<module>.c,
# each built from its own file and linked with the library and cmocka.
# Grouped by the room of src/ they test.
if HAVE_CMOCKA
UNIT_TESTS = \
	tests/unit/test_attr tests/unit/test_json tests/unit/test_escape \
	tests/unit/test_redact \
	tests/unit/test_print tests/unit/test_rate tests/unit/test_clock \
	tests/unit/test_model \
	tests/unit/test_recording \
	tests/unit/test_ib_sysfs tests/unit/test_probe_cache tests/unit/test_pci \
	tests/unit/test_kmod tests/unit/test_host tests/unit/test_ecn \
	tests/unit/test_verbs tests/unit/test_probe_read tests/unit/test_rdma_nl \
	tests/unit/test_netdev tests/unit/test_ethtool tests/unit/test_dcb \
	tests/unit/test_xcvr_probe tests/unit/test_devlink tests/unit/test_kmsg \
	tests/unit/test_cli \
	tests/unit/test_diag_port tests/unit/test_diag_checks tests/unit/test_diag_phy tests/unit/test_diag_flaps \
	tests/unit/test_diag_checks_missing tests/unit/test_diag_diag \
	tests/unit/test_diag_data tests/unit/test_diag_golden \
	tests/unit/test_qos_model tests/unit/test_counters_tsv \
	tests/unit/test_explain tests/unit/test_compare tests/unit/test_diag_pcie \
	tests/unit/test_journal tests/unit/test_journal_durable \
	tests/unit/test_fix \
	tests/unit/test_perf_oob tests/unit/test_perf_stats \
	tests/unit/test_perf_clock tests/unit/test_perf_gid \
	tests/unit/test_perf_report tests/unit/test_perf_bind \
	tests/unit/test_perf_pretest \
	tests/unit/test_perf_cm tests/unit/test_perf_fail \
	tests/unit/test_fleet tests/unit/test_nhc \
	tests/unit/test_console_state tests/unit/test_console_worker \
	tests/unit/test_console_watch \
	tests/unit/test_console_test_run tests/unit/test_console_fixup \
	tests/unit/test_layout tests/unit/test_widgets tests/unit/test_screens \
	tests/unit/test_views_rollback \
	tests/unit/test_prom tests/unit/test_export_metrics \
	tests/unit/test_peer_summary tests/unit/test_peer_wire \
	tests/unit/test_peer_matrix tests/unit/test_peer_precheck \
	tests/unit/test_peer_child tests/unit/test_peer_choice \
	tests/unit/test_peer_failure tests/unit/test_xcvr_decode \
	tests/unit/test_xcvr_cadence tests/unit/test_record_diff \
	tests/unit/test_topo tests/unit/test_virt tests/unit/test_vfinfo
check_PROGRAMS += $(UNIT_TESTS)
# Sees every call the journal makes to reach the disk, and fails some.
tests_unit_test_journal_durable_LDFLAGS = $(AM_LDFLAGS) \
	-Wl,--wrap=fsync -Wl,--wrap=fdatasync -Wl,--wrap=write \
	-Wl,--wrap=openat -Wl,--wrap=mkdirat -Wl,--wrap=rename \
	-Wl,--wrap=renameat -Wl,--wrap=unlink -Wl,--wrap=unlinkat
# Serves a device list whose device does not open, or the real one.
tests_unit_test_verbs_LDFLAGS = $(AM_LDFLAGS) \
	-Wl,--wrap=ibv_get_device_list -Wl,--wrap=ibv_free_device_list \
	-Wl,--wrap=ibv_open_device
# The transceiver probe with a reader and clock of the test's own in
# place of netlink (src/probes/xcvr.c built with RD_XCVR_FAKE_READER).
tests_unit_test_xcvr_cadence_SOURCES = tests/unit/test_xcvr_cadence.c \
	src/probes/xcvr.c
tests_unit_test_xcvr_cadence_CPPFLAGS = $(AM_CPPFLAGS) -DRD_XCVR_FAKE_READER
# test_screens holds the registry's keys against the man page
# (data/rdmadiag.8); test_fix_nonroot.sh runs the fix-ups as a user.
TESTS += $(UNIT_TESTS) tests/unit/test_fix_nonroot.sh
EXTRA_DIST += tests/unit/unit.h tests/unit/diag_snap.h tests/unit/nl_build.h \
	tests/unit/probe_unit.h tests/unit/test_fix_mock.h \
	tests/unit/test_fix_nonroot.sh
else
check-local: unit-tests-skipped
unit-tests-skipped:
	@echo "cmocka not found at configure time: unit tests skipped (apt-get install libcmocka-dev)"
endif
